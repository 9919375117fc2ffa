# re for irscope: compile/search/match/fullmatch/findall/finditer/sub/subn/split/escape and
# Match objects, over the engine in re_module.cpp (std::regex, ECMAScript grammar).
IGNORECASE = I = 2
MULTILINE = M = 8
error = ValueError


class Match:
    def __init__(self, pattern, string, spans, pos):
        self.re = pattern
        self.string = string
        self._spans = spans
        self.pos = pos

    def span(self, group=0):
        return self._spans[group]

    def start(self, group=0):
        return self._spans[group][0]

    def end(self, group=0):
        return self._spans[group][1]

    def group(self, *groups):
        if not groups:
            groups = (0,)
        out = []
        for g in groups:
            s, e = self._spans[g]
            out.append(None if s < 0 else self.string[s:e])
        return out[0] if len(out) == 1 else tuple(out)

    def groups(self, default=None):
        out = []
        for s, e in self._spans[1:]:
            out.append(default if s < 0 else self.string[s:e])
        return tuple(out)

    def __getitem__(self, g):
        return self.group(g)

    def __bool__(self):
        return True

    def __repr__(self):
        return "<re.Match object; span=" + repr(self.span()) + ", match=" + repr(self.group()) + ">"


class Pattern:
    def __init__(self, pattern, flags=0):
        self.pattern = pattern
        self.flags = flags

    def _run(self, string, pos, mode):
        spans = _match(self.pattern, self.flags, string, pos, mode)
        return None if spans is None else Match(self, string, spans, pos)

    def search(self, string, pos=0):
        return self._run(string, pos, 0)

    def match(self, string, pos=0):
        return self._run(string, pos, 1)

    def fullmatch(self, string, pos=0):
        return self._run(string, pos, 2)

    def finditer(self, string):
        return [Match(self, string, s, 0) for s in _findall(self.pattern, self.flags, string)]

    def findall(self, string):
        out = []
        for m in self.finditer(string):
            g = m.groups()
            if len(g) == 0:
                out.append(m.group())
            elif len(g) == 1:
                out.append(g[0] if g[0] is not None else "")
            else:
                out.append(tuple(x if x is not None else "" for x in g))
        return out

    def _expand(self, m, repl):
        if callable(repl):
            return repl(m)
        out = ""
        i = 0
        while i < len(repl):
            c = repl[i]
            if c == "\\" and i + 1 < len(repl):
                n = repl[i + 1]
                if n.isdigit():
                    out += m.group(int(n)) or ""
                    i += 2
                    continue
                if n == "g" and repl[i + 2:i + 3] == "<":
                    close = repl.index(">", i)
                    out += m.group(int(repl[i + 3:close])) or ""
                    i = close + 1
                    continue
                out += {"n": "\n", "t": "\t", "\\": "\\"}.get(n, "\\" + n)
                i += 2
                continue
            out += c
            i += 1
        return out

    def subn(self, repl, string, count=0):
        out = ""
        last = 0
        n = 0
        for m in self.finditer(string):
            if count and n >= count:
                break
            out += string[last:m.start()] + self._expand(m, repl)
            last = m.end()
            n += 1
        return out + string[last:], n

    def sub(self, repl, string, count=0):
        return self.subn(repl, string, count)[0]

    def split(self, string, maxsplit=0):
        out = []
        last = 0
        n = 0
        for m in self.finditer(string):
            if maxsplit and n >= maxsplit:
                break
            out.append(string[last:m.start()])
            out.extend(m.groups())
            last = m.end()
            n += 1
        out.append(string[last:])
        return out


def compile(pattern, flags=0):
    if isinstance(pattern, Pattern):
        return pattern
    return Pattern(pattern, flags)


def search(pattern, string, flags=0):
    return compile(pattern, flags).search(string)


def match(pattern, string, flags=0):
    return compile(pattern, flags).match(string)


def fullmatch(pattern, string, flags=0):
    return compile(pattern, flags).fullmatch(string)


def findall(pattern, string, flags=0):
    return compile(pattern, flags).findall(string)


def finditer(pattern, string, flags=0):
    return compile(pattern, flags).finditer(string)


def sub(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).sub(repl, string, count)


def subn(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).subn(repl, string, count)


def split(pattern, string, maxsplit=0, flags=0):
    return compile(pattern, flags).split(string, maxsplit)


def escape(pattern):
    special = set("()[]{}?*+-|^$\\.&~# \t\n\r\v\f")
    return "".join("\\" + c if c in special else c for c in pattern)
