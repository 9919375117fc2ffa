*(((),),object.__str__
(),),