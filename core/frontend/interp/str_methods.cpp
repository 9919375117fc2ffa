// The str methods scripts use. Case mapping covers ASCII, Latin-1/Extended-A, Greek and
// Cyrillic (str_core.cpp); character classes (isdigit, ...) are ASCII-only.
#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

namespace {

const std::string& selfStr(Interpreter& I, const CallArgs& a, const char* method) {
    if (a.pos.empty() || !a.pos[0].is<StrObject>()) {
        throw PyError(
            Exc::TypeError,
            std::string("descriptor '") + method + "' for 'str' objects doesn't apply to a '" +
                (a.pos.empty() ? std::string("nothing") : I.typeName(a.pos[0])) + "' object");
    }
    return a.pos[0].as<StrObject>()->value;
}

bool isSpace(char c) {
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

// Code-point [start, end) arguments to byte offsets.
void byteRange(Interpreter& I, const std::string& s, const Value& start, const Value& end,
               std::size_t* b, std::size_t* e) {
    std::vector<std::size_t> offs = codePointOffsets(s);
    auto n = static_cast<std::int64_t>(offs.size() - 1);
    auto clamp = [&](const Value& v, std::int64_t dflt) {
        if (v.isNull() || v.isNone()) {
            return dflt;
        }
        std::int64_t x = I.toIndex(v);
        if (x < 0) {
            x += n;
        }
        return std::max<std::int64_t>(0, std::min(x, n));
    };
    std::int64_t bs = clamp(start, 0), be = clamp(end, n);
    *b = offs[static_cast<std::size_t>(bs)];
    *e = offs[static_cast<std::size_t>(std::max(bs, be))];
}

std::int64_t cpIndex(const std::string& s, std::size_t byte) {
    std::int64_t n = 0;
    for (std::size_t i = 0; i < byte && i < s.size(); ++i) {
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
            ++n;
        }
    }
    return n;
}

std::string stripChars(const std::string& s, const Value& chars, bool left, bool right,
                       Interpreter& I) {
    std::size_t b = 0, e = s.size();
    if (chars.isNull() || chars.isNone()) {
        while (left && b < e && isSpace(s[b])) {
            ++b;
        }
        while (right && e > b && isSpace(s[e - 1])) {
            --e;
        }
    } else {
        const std::string& cs = toStr(I, chars, "strip arg");
        while (left && b < e && cs.find(s[b]) != std::string::npos) {
            ++b;
        }
        while (right && e > b && cs.find(s[e - 1]) != std::string::npos) {
            --e;
        }
    }
    return s.substr(b, e - b);
}

Value splitImpl(Interpreter& I, const std::string& s, const Value& sepV, std::int64_t maxsplit,
                bool fromRight) {
    std::vector<std::string> parts;
    if (sepV.isNull() || sepV.isNone()) {
        std::vector<std::pair<std::size_t, std::size_t>> words;
        std::size_t i = 0;
        while (i < s.size()) {
            while (i < s.size() && isSpace(s[i])) {
                ++i;
            }
            if (i >= s.size()) {
                break;
            }
            std::size_t j = i;
            while (j < s.size() && !isSpace(s[j])) {
                ++j;
            }
            words.emplace_back(i, j);
            i = j;
        }
        if (maxsplit >= 0 && static_cast<std::int64_t>(words.size()) > maxsplit + 1) {
            if (!fromRight) {
                std::size_t tail = words[static_cast<std::size_t>(maxsplit)].first;
                words.resize(static_cast<std::size_t>(maxsplit));
                std::string rest = s.substr(tail);
                std::size_t e = rest.size();
                while (e > 0 && isSpace(rest[e - 1])) {
                    --e;
                }
                for (auto& w : words) {
                    parts.push_back(s.substr(w.first, w.second - w.first));
                }
                parts.push_back(rest.substr(0, e));
            } else {
                std::size_t keep = words.size() - static_cast<std::size_t>(maxsplit);
                std::size_t head = words[keep - 1].second;
                std::size_t b = 0;
                while (b < head && isSpace(s[b])) {
                    ++b;
                }
                parts.push_back(s.substr(b, head - b));
                for (std::size_t k = keep; k < words.size(); ++k) {
                    parts.push_back(s.substr(words[k].first, words[k].second - words[k].first));
                }
            }
        } else {
            for (auto& w : words) {
                parts.push_back(s.substr(w.first, w.second - w.first));
            }
        }
    } else {
        const std::string& sep = toStr(I, sepV, "must be str or None, not");
        if (sep.empty()) {
            throw PyError(Exc::ValueError, "empty separator");
        }
        if (!fromRight) {
            std::size_t pos = 0;
            std::int64_t n = 0;
            for (;;) {
                std::size_t k = s.find(sep, pos);
                if (k == std::string::npos || (maxsplit >= 0 && n >= maxsplit)) {
                    parts.push_back(s.substr(pos));
                    break;
                }
                parts.push_back(s.substr(pos, k - pos));
                pos = k + sep.size();
                ++n;
            }
        } else {
            std::size_t end = s.size();
            std::int64_t n = 0;
            for (;;) {
                std::size_t k =
                    end >= sep.size() ? s.rfind(sep, end - sep.size()) : std::string::npos;
                if (k == std::string::npos || (maxsplit >= 0 && n >= maxsplit)) {
                    parts.insert(parts.begin(), s.substr(0, end));
                    break;
                }
                parts.insert(parts.begin(), s.substr(k + sep.size(), end - k - sep.size()));
                end = k;
                ++n;
            }
        }
    }
    std::vector<Value> out;
    for (auto& p : parts) {
        out.push_back(Value(I.newStr(std::move(p))));
    }
    return Value(I.newList(std::move(out)));
}

// startswith / endswith with a str or a tuple of strs.
bool affix(Interpreter& I, const std::string& s, const Value& what, bool start, const char* name) {
    if (const auto* t = what.as<TupleObject>()) {
        for (const Value& x : t->items) {
            if (affix(I, s, x, start, name)) {
                return true;
            }
        }
        return false;
    }
    const auto* p = what.as<StrObject>();
    if (!p) {
        throw PyError(Exc::TypeError, std::string(name) +
                                          " first arg must be str or a tuple of str, not " +
                                          I.typeName(what));
    }
    const std::string& x = p->value;
    if (x.size() > s.size()) {
        return false;
    }
    return start ? s.compare(0, x.size(), x) == 0
                 : s.compare(s.size() - x.size(), x.size(), x) == 0;
}

template <class Pred>
bool allChars(const std::string& s, Pred p) {
    if (s.empty()) {
        return false;
    }
    for (char c : s) {
        if (!p(static_cast<unsigned char>(c))) {
            return false;
        }
    }
    return true;
}

std::string pad(Interpreter& I, const CallArgs& a, const char* name, int align) {
    const std::string& s = selfStr(I, a, name);
    expectArgs(a, 2, 3, name);
    std::int64_t width = I.toIndex(a.pos[1]);
    std::string fill = " ";
    if (a.pos.size() > 2) {
        fill = toStr(I, a.pos[2], "fill character");
        if (codePointOffsets(fill).size() != 2) {
            throw PyError(Exc::TypeError, "The fill character must be exactly one character long");
        }
    }
    auto len = static_cast<std::int64_t>(codePointOffsets(s).size() - 1);
    if (width <= len) {
        return s;
    }
    std::int64_t total = width - len, left = 0;
    if (align == 0) {
        left = total / 2 + (total & width & 1);
    } else if (align > 0) {
        left = total;
    }
    return repeatString(fill, left) + s + repeatString(fill, total - left);
}

}  // namespace

void setUpStrMethods(Interpreter& I) {
    Type* t = I.types().str.get();
    auto def = [&](const char* n, NativeFn fn) { defMethod(I, t, n, std::move(fn)); };
    def("join", [](Interpreter& J, CallArgs& a) {
        const std::string& sep = selfStr(J, a, "join");
        expectArgs(a, 2, 2, "join");
        std::vector<Value> items = J.toVector(a.pos[1]);
        std::string out;
        for (std::size_t i = 0; i < items.size(); ++i) {
            const auto* s = items[i].as<StrObject>();
            if (!s) {
                throw PyError(Exc::TypeError, "sequence item " + std::to_string(i) +
                                                  ": expected str instance, " +
                                                  J.typeName(items[i]) + " found");
            }
            if (i) {
                out += sep;
            }
            out += s->value;
        }
        return Value(J.newStr(std::move(out)));
    });
    for (bool right : {false, true}) {
        def(right ? "rsplit" : "split", [right](Interpreter& J, CallArgs& a) {
            static const Signature sig = Signature("split")
                                             .arg("self")
                                             .arg("sep", Value::none())
                                             .arg("maxsplit", Value::integer(-1));
            auto v = sig.bind(J, a);
            return splitImpl(J, selfStr(J, CallArgs{v[0]}, "split"), v[1], J.toIndex(v[2]), right);
        });
    }
    def("splitlines", [](Interpreter& J, CallArgs& a) {
        const std::string& s = selfStr(J, a, "splitlines");
        bool keep = a.pos.size() > 1 ? J.truthy(a.pos[1]) : J.truthy(a.kwarg("keepends"));
        std::vector<Value> out;
        std::size_t b = 0;
        for (std::size_t i = 0; i < s.size(); ++i) {
            if (s[i] == '\n' || s[i] == '\r') {
                std::size_t e = i;
                if (s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n') {
                    ++i;
                }
                out.push_back(Value(J.newStr(s.substr(b, (keep ? i + 1 : e) - b))));
                b = i + 1;
            }
        }
        if (b < s.size()) {
            out.push_back(Value(J.newStr(s.substr(b))));
        }
        return Value(J.newList(std::move(out)));
    });
    struct StripDef {
        const char* name;
        bool l, r;
    };
    for (StripDef d : {StripDef{"strip", true, true}, StripDef{"lstrip", true, false},
                       StripDef{"rstrip", false, true}}) {
        def(d.name, [d](Interpreter& J, CallArgs& a) {
            expectArgs(a, 1, 2, d.name);
            return Value(J.newStr(stripChars(selfStr(J, a, d.name),
                                             a.pos.size() > 1 ? a.pos[1] : Value(), d.l, d.r, J)));
        });
    }
    def("replace", [](Interpreter& J, CallArgs& a) {
        const std::string& s = selfStr(J, a, "replace");
        expectArgs(a, 3, 4, "replace");
        const std::string& old = toStr(J, a.pos[1], "replace() argument 1");
        const std::string& rep = toStr(J, a.pos[2], "replace() argument 2");
        std::int64_t count = a.pos.size() > 3 ? J.toIndex(a.pos[3]) : -1;
        std::string out;
        if (old.empty()) {
            std::vector<std::size_t> offs = codePointOffsets(s);
            std::int64_t n = 0;
            for (std::size_t k = 0; k + 1 < offs.size(); ++k) {
                if (count < 0 || n < count) {
                    out += rep;
                    ++n;
                }
                out += s.substr(offs[k], offs[k + 1] - offs[k]);
            }
            if (count < 0 || n < count) {
                out += rep;
            }
            return Value(J.newStr(std::move(out)));
        }
        std::size_t pos = 0;
        std::int64_t n = 0;
        for (;;) {
            std::size_t k = s.find(old, pos);
            if (k == std::string::npos || (count >= 0 && n >= count)) {
                out += s.substr(pos);
                break;
            }
            out += s.substr(pos, k - pos) + rep;
            pos = k + old.size();
            ++n;
        }
        return Value(J.newStr(std::move(out)));
    });
    for (bool start : {true, false}) {
        const char* name = start ? "startswith" : "endswith";
        def(name, [start, name](Interpreter& J, CallArgs& a) {
            const std::string& s = selfStr(J, a, name);
            expectArgs(a, 2, 4, name);
            std::size_t b, e;
            byteRange(J, s, a.pos.size() > 2 ? a.pos[2] : Value(),
                      a.pos.size() > 3 ? a.pos[3] : Value(), &b, &e);
            return Value::boolean(affix(J, s.substr(b, e - b), a.pos[1], start, name));
        });
    }
    struct FindDef {
        const char* name;
        bool right, raise;
    };
    for (FindDef d : {FindDef{"find", false, false}, FindDef{"rfind", true, false},
                      FindDef{"index", false, true}, FindDef{"rindex", true, true}}) {
        def(d.name, [d](Interpreter& J, CallArgs& a) {
            const std::string& s = selfStr(J, a, d.name);
            if (a.pos.size() < 2) {
                throw PyError(Exc::TypeError,
                              std::string(d.name) + " expected at least 1 argument, got 0");
            }
            expectArgs(a, 2, 4, d.name);
            const std::string& sub = toStr(J, a.pos[1], "must be str, not");
            std::size_t b, e;
            byteRange(J, s, a.pos.size() > 2 ? a.pos[2] : Value(),
                      a.pos.size() > 3 ? a.pos[3] : Value(), &b, &e);
            std::string_view hay = std::string_view(s).substr(b, e - b);
            std::size_t k = d.right ? hay.rfind(sub) : hay.find(sub);
            if (k == std::string_view::npos) {
                if (d.raise) {
                    throw PyError(Exc::ValueError, "substring not found");
                }
                return Value::integer(-1);
            }
            return Value::integer(cpIndex(s, b + k));
        });
    }
    def("count", [](Interpreter& J, CallArgs& a) {
        const std::string& s = selfStr(J, a, "count");
        expectArgs(a, 2, 4, "count");
        const std::string& sub = toStr(J, a.pos[1], "must be str, not");
        std::size_t b, e;
        byteRange(J, s, a.pos.size() > 2 ? a.pos[2] : Value(),
                  a.pos.size() > 3 ? a.pos[3] : Value(), &b, &e);
        std::string_view hay = std::string_view(s).substr(b, e - b);
        if (sub.empty()) {
            return Value::integer(cpIndex(std::string(hay), hay.size()) + 1);
        }
        std::int64_t n = 0;
        for (std::size_t k = hay.find(sub); k != std::string_view::npos;
             k = hay.find(sub, k + sub.size())) {
            ++n;
        }
        return Value::integer(n);
    });
    struct CaseDef {
        const char* name;
        int mode;  // 0 upper, 1 lower, 2 capitalize, 3 title, 4 swapcase
    };
    for (CaseDef d : {CaseDef{"upper", 0}, CaseDef{"lower", 1}, CaseDef{"casefold", 1},
                      CaseDef{"capitalize", 2}, CaseDef{"title", 3}, CaseDef{"swapcase", 4}}) {
        def(d.name, [d](Interpreter& J, CallArgs& a) {
            const std::string& s = selfStr(J, a, d.name);
            expectArgs(a, 1, 1, d.name);
            std::string out;
            out.reserve(s.size());
            bool prevCased = false;
            bool first = true;
            for (std::size_t i = 0; i < s.size();) {
                std::size_t len = 1;
                char32_t c = util::decodeUtf8(s, i, &len);
                char32_t up = upperOf(c), low = lowerOf(c);
                bool isUp = low != c, isLow = up != c;
                char32_t r = c;
                switch (d.mode) {
                    case 0:
                        r = up;
                        break;
                    case 1:
                        r = low;
                        break;
                    case 2:
                        r = first ? up : low;
                        break;
                    case 3:
                        r = prevCased ? low : up;
                        break;
                    case 4:
                        r = isUp ? low : (isLow ? up : c);
                        break;
                }
                prevCased = isUp || isLow;
                first = false;
                out += r == c ? s.substr(i, len) : util::encodeUtf8(r);
                i += len;
            }
            return Value(J.newStr(std::move(out)));
        });
    }
    struct CharClass {
        const char* name;
        bool (*pred)(unsigned char);
    };
    for (CharClass d :
         {CharClass{"isdigit", [](unsigned char c) { return c >= '0' && c <= '9'; }},
          CharClass{"isdecimal", [](unsigned char c) { return c >= '0' && c <= '9'; }},
          CharClass{"isnumeric", [](unsigned char c) { return c >= '0' && c <= '9'; }},
          CharClass{"isalpha", [](unsigned char c) { return (c | 32) >= 'a' && (c | 32) <= 'z'; }},
          CharClass{"isalnum",
                    [](unsigned char c) {
                        return (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z');
                    }},
          CharClass{"isspace", [](unsigned char c) { return isSpace(static_cast<char>(c)); }}}) {
        def(d.name, [d](Interpreter& J, CallArgs& a) {
            expectArgs(a, 1, 1, d.name);
            return Value::boolean(allChars(selfStr(J, a, d.name), d.pred));
        });
    }
    for (bool upper : {true, false}) {
        const char* name = upper ? "isupper" : "islower";
        def(name, [upper, name](Interpreter& J, CallArgs& a) {
            const std::string& s = selfStr(J, a, name);
            bool cased = false;
            for (char c : s) {
                if (c >= 'A' && c <= 'Z') {
                    if (!upper) {
                        return Value::boolean(false);
                    }
                    cased = true;
                } else if (c >= 'a' && c <= 'z') {
                    if (upper) {
                        return Value::boolean(false);
                    }
                    cased = true;
                }
            }
            return Value::boolean(cased);
        });
    }
    def("isidentifier", [](Interpreter& J, CallArgs& a) {
        const std::string& s = selfStr(J, a, "isidentifier");
        bool ok = !s.empty() && !(s[0] >= '0' && s[0] <= '9');
        for (char c : s) {
            ok =
                ok && (c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z') ||
                       static_cast<unsigned char>(c) >= 0x80);
        }
        return Value::boolean(ok);
    });
    def("center",
        [](Interpreter& J, CallArgs& a) { return Value(J.newStr(pad(J, a, "center", 0))); });
    def("ljust",
        [](Interpreter& J, CallArgs& a) { return Value(J.newStr(pad(J, a, "ljust", -1))); });
    def("rjust",
        [](Interpreter& J, CallArgs& a) { return Value(J.newStr(pad(J, a, "rjust", 1))); });
    def("zfill", [](Interpreter& J, CallArgs& a) {
        std::string s = selfStr(J, a, "zfill");
        expectArgs(a, 2, 2, "zfill");
        std::int64_t width = J.toIndex(a.pos[1]);
        auto len = static_cast<std::int64_t>(s.size());
        if (width <= len) {
            return Value(J.newStr(s));
        }
        std::size_t at = !s.empty() && (s[0] == '+' || s[0] == '-') ? 1 : 0;
        s.insert(at, static_cast<std::size_t>(width - len), '0');
        return Value(J.newStr(std::move(s)));
    });
    for (bool right : {false, true}) {
        const char* name = right ? "rpartition" : "partition";
        def(name, [right, name](Interpreter& J, CallArgs& a) {
            const std::string& s = selfStr(J, a, name);
            expectArgs(a, 2, 2, name);
            const std::string& sep = toStr(J, a.pos[1], "must be str, not");
            if (sep.empty()) {
                throw PyError(Exc::ValueError, "empty separator");
            }
            std::size_t k = right ? s.rfind(sep) : s.find(sep);
            if (k == std::string::npos) {
                Value e(J.newStr(""));
                return right ? Value(J.newTuple({e, e, Value(J.newStr(s))}))
                             : Value(J.newTuple({Value(J.newStr(s)), e, e}));
            }
            return Value(J.newTuple({Value(J.newStr(s.substr(0, k))), a.pos[1],
                                     Value(J.newStr(s.substr(k + sep.size())))}));
        });
    }
    def("removeprefix", [](Interpreter& J, CallArgs& a) {
        const std::string& s = selfStr(J, a, "removeprefix");
        expectArgs(a, 2, 2, "removeprefix");
        const std::string& p = toStr(J, a.pos[1], "removeprefix() argument");
        return Value(J.newStr(s.compare(0, p.size(), p) == 0 ? s.substr(p.size()) : s));
    });
    def("removesuffix", [](Interpreter& J, CallArgs& a) {
        const std::string& s = selfStr(J, a, "removesuffix");
        expectArgs(a, 2, 2, "removesuffix");
        const std::string& p = toStr(J, a.pos[1], "removesuffix() argument");
        bool ends =
            !p.empty() && p.size() <= s.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
        return Value(J.newStr(ends ? s.substr(0, s.size() - p.size()) : s));
    });
    def("format", [](Interpreter& J, CallArgs& a) {
        const std::string& s = selfStr(J, a, "format");
        CallArgs rest(std::vector<Value>(a.pos.begin() + 1, a.pos.end()), a.kw);
        return Value(J.newStr(strFormat(J, s, rest)));
    });
    def("__len__", [](Interpreter& J, CallArgs& a) { return Value::integer(J.len(a.pos.at(0))); });
    def("__getitem__", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 2, "__getitem__");
        return strGetItem(J, *a.pos[0].as<StrObject>(), a.pos[1]);
    });
    def("__contains__", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 2, "__contains__");
        return Value::boolean(J.contains(a.pos[0], a.pos[1]));
    });
    def("__hash__",
        [](Interpreter& J, CallArgs& a) { return Value::integer(J.hash(a.pos.at(0))); });
}

}  // namespace irscope::interp
