# tests.mark_utils for irscope: MindSpore's own test files mark each test with
# @arg_mark(plat_marks=[...], level_mark=..., card_mark=..., essential_mark=...) for their CI;
# run as scripts, the marks select nothing and the function is returned unchanged.


def arg_mark(plat_marks=None, level_mark=None, card_mark=None, essential_mark=None, **kwargs):
    def decorator(func):
        return func

    return decorator
