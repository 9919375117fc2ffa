// Sequences: indexing and slicing of list/tuple/str/range, slice assignment, stable sorting,
// and the list and tuple methods.
#include <algorithm>

#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

void expectArgs(const CallArgs& a, std::size_t min, std::size_t max, const char* name) {
    if (a.pos.empty()) {  // called through the class without self: `object.__str__()`
        throw PyError(Exc::TypeError, "unbound method " + std::string(name) + "() needs an argument");
    }
    std::size_t given = a.pos.size() - 1;  // self excluded
    std::size_t lo = min - 1, hi = max - 1;
    if (given >= lo && given <= hi) {
        return;
    }
    if (lo == hi) {
        throw PyError(Exc::TypeError, std::string(name) + "() takes exactly " +
                                          (lo == 1 ? std::string("one argument")
                                                   : std::to_string(lo) + " arguments") +
                                          " (" + std::to_string(given) + " given)");
    }
    if (given > hi) {
        throw PyError(Exc::TypeError, std::string(name) + " expected at most " +
                                          std::to_string(hi) + " argument" + (hi == 1 ? "" : "s") +
                                          ", got " + std::to_string(given));
    }
    throw PyError(Exc::TypeError, std::string(name) + " expected at least " + std::to_string(lo) +
                                      " argument" + (lo == 1 ? "" : "s") + ", got " +
                                      std::to_string(given));
}

void noKeywords(const CallArgs& a, const char* name) {
    if (!a.kw.empty()) {
        throw PyError(Exc::TypeError, std::string(name) + "() takes no keyword arguments");
    }
}

std::int64_t normalizeIndex(std::int64_t i, std::int64_t len) {
    if (i < 0) {
        i += len;
    }
    return i >= 0 && i < len ? i : -1;
}

SliceIndices sliceIndices(Interpreter& I, const SliceObject& s, std::int64_t len) {
    auto idx = [&](const Value& v) {
        if (v.isIntLike()) {
            return v.intLike();
        }
        if (v.isObj() && !I.typeOf(v)->lookup("__index__").isNull()) {
            return I.toIndex(v);
        }
        throw PyError(Exc::TypeError,
                      "slice indices must be integers or None or have an __index__ method");
    };
    SliceIndices r;
    r.step = s.step.isNone() || s.step.isNull() ? 1 : idx(s.step);
    if (r.step == 0) {
        throw PyError(Exc::ValueError, "slice step cannot be zero");
    }
    const bool neg = r.step < 0;
    auto clamp = [&](const Value& v, std::int64_t dflt) {
        if (v.isNone() || v.isNull()) {
            return dflt;
        }
        std::int64_t x = idx(v);
        if (x < 0) {
            x += len;
            if (x < 0) {
                x = neg ? -1 : 0;
            }
        } else if (x >= len) {
            x = neg ? len - 1 : len;
        }
        return x;
    };
    r.start = clamp(s.start, neg ? len - 1 : 0);
    r.stop = clamp(s.stop, neg ? -1 : len);
    if (!neg) {
        r.length = r.start < r.stop ? (r.stop - r.start - 1) / r.step + 1 : 0;
    } else {
        r.length = r.stop < r.start ? (r.start - r.stop - 1) / (-r.step) + 1 : 0;
    }
    return r;
}

namespace {

std::vector<Value> sliceOf(const std::vector<Value>& items, const SliceIndices& ix) {
    std::vector<Value> out;
    out.reserve(static_cast<std::size_t>(ix.length));
    for (std::int64_t k = 0, i = ix.start; k < ix.length; ++k, i += ix.step) {
        out.push_back(items[static_cast<std::size_t>(i)]);
    }
    return out;
}

bool isIndexLike(Interpreter& I, const Value& v) {
    return v.isIntLike() ||
           (v.isObj() && !v.is<SliceObject>() && !I.typeOf(v)->lookup("__index__").isNull());
}

}  // namespace

Value sequenceGetItem(Interpreter& I, const Value& seq, const Value& key) {
    if (const auto* s = seq.as<StrObject>()) {
        return strGetItem(I, *s, key);
    }
    if (const auto* r = seq.as<RangeObject>()) {
        std::int64_t n = r->length();
        if (const auto* sl = key.as<SliceObject>()) {
            SliceIndices ix = sliceIndices(I, *sl, n);
            std::int64_t start = r->at(ix.start);
            std::int64_t step = r->step * ix.step;
            return Value(
                I.make<RangeObject>(I.types().range.get(), start, start + ix.length * step, step));
        }
        if (!isIndexLike(I, key)) {
            throw PyError(Exc::TypeError,
                          "range indices must be integers or slices, not " + I.typeName(key));
        }
        std::int64_t i = normalizeIndex(I.toIndex(key), n);
        if (i < 0) {
            throw PyError(Exc::IndexError, "range object index out of range");
        }
        return Value::integer(r->at(i));
    }
    const bool isList = seq.is<ListObject>();
    const std::vector<Value>& items =
        isList ? seq.as<ListObject>()->items : seq.as<TupleObject>()->items;
    const char* what = isList ? "list" : "tuple";
    if (const auto* sl = key.as<SliceObject>()) {
        SliceIndices ix = sliceIndices(I, *sl, static_cast<std::int64_t>(items.size()));
        std::vector<Value> out = sliceOf(items, ix);
        return isList ? Value(I.newList(std::move(out))) : Value(I.newTuple(std::move(out)));
    }
    if (!isIndexLike(I, key)) {
        throw PyError(
            Exc::TypeError,
            std::string(what) + " indices must be integers or slices, not " + I.typeName(key));
    }
    std::int64_t i = normalizeIndex(I.toIndex(key), static_cast<std::int64_t>(items.size()));
    if (i < 0) {
        throw PyError(Exc::IndexError, std::string(what) + " index out of range");
    }
    return items[static_cast<std::size_t>(i)];
}

void listSetItem(Interpreter& I, ListObject& l, const Value& key, const Value& v) {
    if (const auto* sl = key.as<SliceObject>()) {
        std::vector<Value> seq = I.toVector(v);
        SliceIndices ix = sliceIndices(I, *sl, static_cast<std::int64_t>(l.items.size()));
        if (ix.step == 1) {
            auto b = l.items.begin() + ix.start;
            auto e = l.items.begin() + std::max(ix.start, ix.stop);
            l.items.erase(b, e);
            l.items.insert(l.items.begin() + ix.start, seq.begin(), seq.end());
            return;
        }
        if (static_cast<std::int64_t>(seq.size()) != ix.length) {
            throw PyError(Exc::ValueError,
                          "attempt to assign sequence of size " + std::to_string(seq.size()) +
                              " to extended slice of size " + std::to_string(ix.length));
        }
        for (std::int64_t k = 0, i = ix.start; k < ix.length; ++k, i += ix.step) {
            l.items[static_cast<std::size_t>(i)] = seq[static_cast<std::size_t>(k)];
        }
        return;
    }
    if (!isIndexLike(I, key)) {
        throw PyError(Exc::TypeError,
                      "list indices must be integers or slices, not " + I.typeName(key));
    }
    std::int64_t i = normalizeIndex(I.toIndex(key), static_cast<std::int64_t>(l.items.size()));
    if (i < 0) {
        throw PyError(Exc::IndexError, "list assignment index out of range");
    }
    l.items[static_cast<std::size_t>(i)] = v;
}

void listDelItem(Interpreter& I, ListObject& l, const Value& key) {
    if (const auto* sl = key.as<SliceObject>()) {
        SliceIndices ix = sliceIndices(I, *sl, static_cast<std::int64_t>(l.items.size()));
        std::vector<bool> drop(l.items.size(), false);
        for (std::int64_t k = 0, i = ix.start; k < ix.length; ++k, i += ix.step) {
            drop[static_cast<std::size_t>(i)] = true;
        }
        std::vector<Value> kept;
        for (std::size_t i = 0; i < l.items.size(); ++i) {
            if (!drop[i]) {
                kept.push_back(std::move(l.items[i]));
            }
        }
        std::vector<Value> old = std::move(l.items);
        l.items = std::move(kept);
        return;
    }
    if (!isIndexLike(I, key)) {
        throw PyError(Exc::TypeError,
                      "list indices must be integers or slices, not " + I.typeName(key));
    }
    std::int64_t i = normalizeIndex(I.toIndex(key), static_cast<std::int64_t>(l.items.size()));
    if (i < 0) {
        throw PyError(Exc::IndexError, "list assignment index out of range");
    }
    Value old = std::move(l.items[static_cast<std::size_t>(i)]);
    l.items.erase(l.items.begin() + i);
}

// Stable bottom-up merge sort on indices; only ever asks "a < b" (safe with any __lt__).
void sortValues(Interpreter& I, std::vector<Value>& items, const Value& key, bool reverse) {
    std::vector<Value> keys;
    if (!key.isNull() && !key.isNone()) {
        keys.reserve(items.size());
        for (const Value& v : items) {
            keys.push_back(I.call(key, {v}));
        }
    } else {
        keys = items;
    }
    std::vector<std::size_t> idx(items.size()), tmp(items.size());
    for (std::size_t i = 0; i < idx.size(); ++i) {
        idx[i] = reverse ? idx.size() - 1 - i : i;
    }
    const std::size_t n = idx.size();
    for (std::size_t width = 1; width < n; width *= 2) {
        for (std::size_t lo = 0; lo < n; lo += 2 * width) {
            std::size_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
            std::size_t a = lo, b = mid, o = lo;
            while (a < mid && b < hi) {
                I.step();
                if (I.lessThan(keys[idx[b]], keys[idx[a]])) {
                    tmp[o++] = idx[b++];
                } else {
                    tmp[o++] = idx[a++];
                }
            }
            while (a < mid) {
                tmp[o++] = idx[a++];
            }
            while (b < hi) {
                tmp[o++] = idx[b++];
            }
        }
        std::swap(idx, tmp);
    }
    std::vector<Value> out;
    out.reserve(n);
    if (reverse) {
        for (auto it = idx.rbegin(); it != idx.rend(); ++it) {
            out.push_back(items[*it]);
        }
    } else {
        for (std::size_t i : idx) {
            out.push_back(items[i]);
        }
    }
    items = std::move(out);
}

namespace {

ListObject* selfList(Interpreter& I, const CallArgs& a, const char* method) {
    auto* l = a.pos.empty() ? nullptr : a.pos[0].as<ListObject>();
    if (!l) {
        throw PyError(
            Exc::TypeError,
            std::string("descriptor '") + method + "' for 'list' objects doesn't apply to a '" +
                (a.pos.empty() ? std::string("nothing") : I.typeName(a.pos[0])) + "' object");
    }
    return l;
}

const std::vector<Value>& selfItems(Interpreter& I, const CallArgs& a, const char* method) {
    if (!a.pos.empty()) {
        if (auto* t = a.pos[0].as<TupleObject>()) {
            return t->items;
        }
    }
    return selfList(I, a, method)->items;
}

Value indexOf(Interpreter& I, const CallArgs& a, const char* what) {
    const std::vector<Value>& items = selfItems(I, a, "index");
    if (a.pos.size() < 2) {
        throw PyError(Exc::TypeError, "index expected at least 1 argument, got 0");
    }
    expectArgs(a, 2, 4, "index");
    auto n = static_cast<std::int64_t>(items.size());
    auto bound = [&](std::size_t k, std::int64_t dflt) {
        if (a.pos.size() <= k) {
            return dflt;
        }
        std::int64_t x = I.toIndex(a.pos[k]);
        if (x < 0) {
            x = std::max<std::int64_t>(0, x + n);
        }
        return std::min(x, n);
    };
    std::int64_t b = bound(2, 0), e = bound(3, n);
    for (std::int64_t i = b; i < e && i < static_cast<std::int64_t>(items.size()); ++i) {
        Value x = items[static_cast<std::size_t>(i)];
        if (I.eq(x, a.pos[1])) {
            return Value::integer(i);
        }
    }
    if (std::string(what) == "list") {
        throw PyError(Exc::ValueError, I.repr(a.pos[1]) + " is not in list");
    }
    throw PyError(Exc::ValueError, "tuple.index(x): x not in tuple");
}

Value countOf(Interpreter& I, const CallArgs& a) {
    expectArgs(a, 2, 2, "count");
    const std::vector<Value> items = selfItems(I, a, "count");
    std::int64_t n = 0;
    for (const Value& x : items) {
        n += I.eq(x, a.pos[1]) ? 1 : 0;
    }
    return Value::integer(n);
}

}  // namespace

void setUpSeqMethods(Interpreter& I) {
    Type* list = I.types().list.get();
    auto def = [&](Type* t, const char* n, NativeFn fn) { defMethod(I, t, n, std::move(fn)); };
    def(list, "append", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 2, "list.append");
        selfList(J, a, "append")->items.push_back(a.pos[1]);
        return Value::none();
    });
    def(list, "extend", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 2, "list.extend");
        std::vector<Value> more = J.toVector(a.pos[1]);
        auto& items = selfList(J, a, "extend")->items;
        items.insert(items.end(), more.begin(), more.end());
        return Value::none();
    });
    def(list, "insert", [](Interpreter& J, CallArgs& a) {
        if (a.pos.size() != 3) {
            throw PyError(Exc::TypeError,
                          "insert expected 2 arguments, got " + std::to_string(a.pos.size() - 1));
        }
        auto& items = selfList(J, a, "insert")->items;
        auto n = static_cast<std::int64_t>(items.size());
        std::int64_t i = J.toIndex(a.pos[1]);
        if (i < 0) {
            i = std::max<std::int64_t>(0, i + n);
        }
        items.insert(items.begin() + std::min(i, n), a.pos[2]);
        return Value::none();
    });
    def(list, "pop", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 1, 2, "pop");
        auto& items = selfList(J, a, "pop")->items;
        if (items.empty()) {
            throw PyError(Exc::IndexError, "pop from empty list");
        }
        std::int64_t i = a.pos.size() > 1 ? J.toIndex(a.pos[1]) : -1;
        i = normalizeIndex(i, static_cast<std::int64_t>(items.size()));
        if (i < 0) {
            throw PyError(Exc::IndexError, "pop index out of range");
        }
        Value v = items[static_cast<std::size_t>(i)];
        items.erase(items.begin() + i);
        return v;
    });
    def(list, "remove", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 2, "list.remove");
        auto* l = selfList(J, a, "remove");
        for (std::size_t i = 0; i < l->items.size(); ++i) {
            Value x = l->items[i];
            if (J.eq(x, a.pos[1])) {
                if (i < l->items.size()) {
                    l->items.erase(l->items.begin() + static_cast<std::ptrdiff_t>(i));
                }
                return Value::none();
            }
        }
        throw PyError(Exc::ValueError, "list.remove(x): x not in list");
    });
    def(list, "index", [](Interpreter& J, CallArgs& a) { return indexOf(J, a, "list"); });
    def(list, "count", [](Interpreter& J, CallArgs& a) { return countOf(J, a); });
    def(list, "sort", [](Interpreter& J, CallArgs& a) {
        if (a.pos.size() > 1) {
            throw PyError(Exc::TypeError, "sort() takes no positional arguments");
        }
        static const Signature sig = Signature("sort")
                                         .arg("self")
                                         .kwOnly("key", Value::none())
                                         .kwOnly("reverse", Value::boolean(false));
        auto v = sig.bind(J, a);
        auto* l = selfList(J, a, "sort");
        std::vector<Value> items = l->items;
        sortValues(J, items, v[1], J.truthy(v[2]));
        l->items = std::move(items);
        return Value::none();
    });
    def(list, "reverse", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 1, 1, "reverse");
        auto& items = selfList(J, a, "reverse")->items;
        std::reverse(items.begin(), items.end());
        return Value::none();
    });
    def(list, "copy", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 1, 1, "copy");
        return Value(J.newList(selfList(J, a, "copy")->items));
    });
    def(list, "clear", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 1, 1, "clear");
        std::vector<Value> old = std::move(selfList(J, a, "clear")->items);
        selfList(J, a, "clear")->items.clear();
        return Value::none();
    });
    def(list, "__init__", [](Interpreter& J, CallArgs& a) {
        noKeywords(a, "list");
        expectArgs(a, 1, 2, "list");
        auto* l = selfList(J, a, "__init__");
        std::vector<Value> items = a.pos.size() > 1 ? J.toVector(a.pos[1]) : std::vector<Value>();
        l->items = std::move(items);
        return Value::none();
    });
    def(list, "__getitem__", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 2, "__getitem__");
        selfList(J, a, "__getitem__");
        return sequenceGetItem(J, a.pos[0], a.pos[1]);
    });
    def(list, "__setitem__", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 3, 3, "__setitem__");
        listSetItem(J, *selfList(J, a, "__setitem__"), a.pos[1], a.pos[2]);
        return Value::none();
    });
    def(list, "__delitem__", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 2, "__delitem__");
        listDelItem(J, *selfList(J, a, "__delitem__"), a.pos[1]);
        return Value::none();
    });
    def(list, "__len__", [](Interpreter& J, CallArgs& a) {
        return Value::integer(static_cast<std::int64_t>(selfList(J, a, "__len__")->items.size()));
    });
    def(list, "__iter__",
        [](Interpreter& J, CallArgs& a) { return builtinIterator(J, a.pos.at(0)); });
    def(list, "__contains__", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 2, "__contains__");
        for (const Value& x : std::vector<Value>(selfList(J, a, "__contains__")->items)) {
            if (J.eq(x, a.pos[1])) {
                return Value::boolean(true);
            }
        }
        return Value::boolean(false);
    });
    Type* tuple = I.types().tuple.get();
    def(tuple, "index", [](Interpreter& J, CallArgs& a) { return indexOf(J, a, "tuple"); });
    def(tuple, "count", [](Interpreter& J, CallArgs& a) { return countOf(J, a); });
    def(tuple, "__getitem__", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 2, "__getitem__");
        return sequenceGetItem(J, a.pos[0], a.pos[1]);
    });
    def(tuple, "__len__",
        [](Interpreter& J, CallArgs& a) { return Value::integer(J.len(a.pos.at(0))); });
    def(tuple, "__contains__", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 2, "__contains__");
        return Value::boolean(J.contains(a.pos[0], a.pos[1]));
    });
    Type* range = I.types().range.get();
    auto rangeProp = [&](const char* n, std::int64_t RangeObject::*field) {
        range->dict()->setStr(I.intern(n),
                              Value(I.make<NativePropertyObject>(
                                  I.types().getSetDescriptor.get(), n,
                                  [field](Interpreter&, const Value& v) {
                                      return Value::integer(v.as<RangeObject>()->*field);
                                  },
                                  nullptr)));
    };
    rangeProp("start", &RangeObject::start);
    rangeProp("stop", &RangeObject::stop);
    rangeProp("step", &RangeObject::step);
    def(range, "index", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 2, "index");
        auto* r = a.pos[0].as<RangeObject>();
        if (a.pos[1].isIntLike() && J.contains(a.pos[0], a.pos[1])) {
            return Value::integer((a.pos[1].intLike() - r->start) / r->step);
        }
        throw PyError(Exc::ValueError, J.repr(a.pos[1]) + " is not in range");
    });
    def(range, "count", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 2, "count");
        return Value::integer(J.contains(a.pos[0], a.pos[1]) ? 1 : 0);
    });
    defineBuiltinOperators(I);
    defineBuiltinComparisons(I);
}

}  // namespace irscope::interp
