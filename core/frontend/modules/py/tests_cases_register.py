# tests.st.control.cases_register for irscope: MindSpore's control-flow tests mark each test
# function with `@case_register.level0/level1` and `@case_register.target_cpu/gpu/ascend` so
# that a runner can pick the functions for one device and level. Run as a script, a marked
# function is returned unchanged; the marks are kept so that check_and_run can select on them.


class Register:
    def __init__(self):
        self.case_targets = {}
        self.case_levels = {}
        self.skip_cases = {}

    def _target(self, fn, name):
        if fn not in self.case_targets:
            self.case_targets[fn] = set()
        self.case_targets[fn].add(name)
        return fn

    def target_ascend(self, fn):
        return self._target(fn, "Ascend")

    def target_gpu(self, fn):
        return self._target(fn, "GPU")

    def target_cpu(self, fn):
        return self._target(fn, "CPU")

    def level0(self, fn):
        self.case_levels[fn] = 0
        return fn

    def level1(self, fn):
        self.case_levels[fn] = 1
        return fn

    def skip(self, reason):
        def mark(fn):
            self.skip_cases[fn] = reason
            return fn

        return mark

    def check_and_run(self, target, level):
        for fn in list(self.case_targets):
            if fn in self.skip_cases or target not in self.case_targets[fn]:
                continue
            if self.case_levels.get(fn) != level:
                continue
            fn()


case_register = Register()
