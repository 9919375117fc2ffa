class Animal:
    kind = "animal"
    count = 0

    def __init__(self, name):
        self.name = name
        Animal.count += 1

    def speak(self):
        return self.name + " makes a sound"

    def __repr__(self):
        return "Animal(" + repr(self.name) + ")"

    @staticmethod
    def create(name):
        return Animal(name)

    @classmethod
    def describe(cls):
        return "class " + cls.__name__ + " kind " + cls.kind


class Dog(Animal):
    kind = "dog"

    def __init__(self, name, breed="mutt"):
        super().__init__(name)
        self.breed = breed

    def speak(self):
        return super().speak() + " (woof)"

    def __str__(self):
        return "Dog " + self.name


a = Animal("generic")
d = Dog("rex", breed="lab")
print(a, repr(d), str(d), a.speak(), d.speak(), d.breed, d.kind, Animal.kind, Animal.count)
print(Animal.create("x"), Dog.describe(), Animal.describe(), d.describe(), isinstance(d, Animal), isinstance(a, Dog))
print(issubclass(Dog, Animal), issubclass(Dog, object), issubclass(bool, int), type(d) is Dog, type(d).__name__, Dog.__mro__)
print(Dog.__bases__, Dog.__qualname__, d.__class__.__name__, d.__dict__, hasattr(d, "breed"), getattr(d, "nope", 42))
setattr(d, "age", 3); print(d.age); delattr(d, "age"); print(hasattr(d, "age"))


class Vector:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __add__(self, o):
        return Vector(self.x + o.x, self.y + o.y)

    def __sub__(self, o):
        return Vector(self.x - o.x, self.y - o.y)

    def __mul__(self, k):
        if isinstance(k, Vector):
            return self.x * k.x + self.y * k.y
        return Vector(self.x * k, self.y * k)

    def __rmul__(self, k):
        return self * k

    def __neg__(self):
        return Vector(-self.x, -self.y)

    def __eq__(self, o):
        return isinstance(o, Vector) and (self.x, self.y) == (o.x, o.y)

    def __lt__(self, o):
        return (self.x, self.y) < (o.x, o.y)

    def __hash__(self):
        return hash((self.x, self.y))

    def __len__(self):
        return 2

    def __getitem__(self, i):
        return (self.x, self.y)[i]

    def __iter__(self):
        yield_list = [self.x, self.y]
        return iter(yield_list)

    def __bool__(self):
        return bool(self.x or self.y)

    def __repr__(self):
        return f"Vector({self.x}, {self.y})"

    def __call__(self, scale):
        return self * scale

    def __contains__(self, v):
        return v in (self.x, self.y)


v = Vector(1, 2)
w = Vector(3, 4)
print(v + w, v - w, v * 2, 3 * v, v * w, -v, v == Vector(1, 2), v != w, v < w, sorted([w, v]), max(v, w))
print(len(v), v[0], v[-1], list(v), bool(Vector(0, 0)), v(10), 2 in v, {v: "a"}[Vector(1, 2)], x_y := tuple(v))


class Counter:
    def __init__(self, n):
        self.n = n
        self.i = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.i >= self.n:
            raise StopIteration
        self.i += 1
        return self.i * 10


print(list(Counter(3)), [x for x in Counter(2)], sum(Counter(4)))


class Temperature:
    def __init__(self):
        self._c = 0

    @property
    def celsius(self):
        return self._c

    @celsius.setter
    def celsius(self, v):
        if v < -273:
            raise ValueError("too cold")
        self._c = v

    @property
    def fahrenheit(self):
        return self._c * 9 / 5 + 32


t = Temperature()
t.celsius = 100
print(t.celsius, t.fahrenheit)
try:
    t.celsius = -300
except ValueError as e:
    print("error:", e)
try:
    t.fahrenheit = 5
except AttributeError as e:
    print("error:", e)


class A:
    def who(self):
        return "A"


class B(A):
    def who(self):
        return "B>" + super().who()


class C(A):
    def who(self):
        return "C>" + super().who()


class D(B, C):
    def who(self):
        return "D>" + super().who()


print(D().who(), [k.__name__ for k in D.__mro__])


class Base:
    def __init__(self, *args, **kwargs):
        self.args = args


class Child(Base):
    def __init__(self, x):
        super(Child, self).__init__(x, x)


print(Child(5).args)


class WithClassAttr:
    items = []
    total = sum(x * 2 for x in range(3))
    names = [n.upper() for n in ["a", "b"]]

    def add(self, v):
        self.items.append(v)


w1, w2 = WithClassAttr(), WithClassAttr()
w1.add(1); w2.add(2)
print(WithClassAttr.items, WithClassAttr.total, WithClassAttr.names)


class Ctx:
    def __init__(self, name):
        self.name = name

    def __enter__(self):
        print("enter", self.name)
        return self

    def __exit__(self, et, ev, tb):
        print("exit", self.name, et.__name__ if et else None, ev)
        return et is KeyError


with Ctx("a") as c1, Ctx("b") as c2:
    print("body", c1.name, c2.name)
with Ctx("swallow"):
    raise KeyError("k")
try:
    with Ctx("propagate"):
        raise ValueError("v")
except ValueError as e:
    print("caught", repr(e))


class Node:
    def __init__(self, val, nxt=None):
        self.val = val
        self.next = nxt


head = None
for i in range(5):
    head = Node(i, head)
vals = []
while head:
    vals.append(head.val)
    head = head.next
print(vals)


class Meta:
    pass


m = Meta()
m.x = 1
print(vars(m), type(Meta), type(m).__module__, Meta.__name__, repr(type(None)), type(print).__name__, type(len) is type(print))


class EqOnly:
    def __eq__(self, other):
        return True


try:
    hash(EqOnly())
except TypeError as e:
    print("TypeError:", e)


class Slots:
    def __getattr__(self, name):
        return "dynamic " + name


print(Slots().anything, getattr(Slots(), "other"))


class Registry:
    def __init__(self):
        object.__setattr__(self, "log", [])

    def __setattr__(self, name, value):
        self.log.append(name)
        object.__setattr__(self, name, value)


r = Registry()
r.a = 1
r.b = 2
print(r.log, r.a, r.b)


class Shape:
    sides = 0

    def describe(self):
        return f"{type(self).__name__} with {self.sides} sides"


class Square(Shape):
    sides = 4


print(Square().describe(), Shape().describe())
print(object() != object(), isinstance(3, (str, int)), isinstance("s", (list, tuple)))
