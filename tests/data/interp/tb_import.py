print("start")
import irscope_no_such_module
