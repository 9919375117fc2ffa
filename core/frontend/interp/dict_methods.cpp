// The dict and set methods.
#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

namespace {

DictObject* selfDict(Interpreter& I, const CallArgs& a, const char* method) {
    auto* d = a.pos.empty() ? nullptr : a.pos[0].as<DictObject>();
    if (!d) {
        throw PyError(
            Exc::TypeError,
            std::string("descriptor '") + method + "' for 'dict' objects doesn't apply to a '" +
                (a.pos.empty() ? std::string("nothing") : I.typeName(a.pos[0])) + "' object");
    }
    return d;
}

SetObject* selfSet(Interpreter& I, const CallArgs& a, const char* method) {
    auto* s = a.pos.empty() ? nullptr : a.pos[0].as<SetObject>();
    if (!s) {
        throw PyError(
            Exc::TypeError,
            std::string("descriptor '") + method + "' for 'set' objects doesn't apply to a '" +
                (a.pos.empty() ? std::string("nothing") : I.typeName(a.pos[0])) + "' object");
    }
    return s;
}

// dict.update / dict(...) semantics: a mapping, an iterable of pairs, then keywords.
void updateDict(Interpreter& I, DictObject& d, const Value& src, const std::vector<KwArg>& kw) {
    if (!src.isNull()) {
        if (auto* m = src.as<DictObject>()) {
            std::vector<std::pair<Value, Value>> entries;
            m->forEach([&](const Value& k, const Value& v) { entries.emplace_back(k, v); });
            for (auto& [k, v] : entries) {
                d.set(I, k, v);
            }
        } else if (Value keys = src.isObj() && !src.is<ListObject>() && !src.is<TupleObject>()
                                    ? I.getAttrOrNull(src, "keys")
                                    : Value();
                   !keys.isNull()) {
            for (const Value& k : I.toVector(I.call(keys, {}))) {
                d.set(I, k, I.getItem(src, k));
            }
        } else {
            std::vector<Value> items = I.toVector(src);
            for (std::size_t i = 0; i < items.size(); ++i) {
                std::vector<Value> pair;
                try {
                    pair = I.toVector(items[i]);
                } catch (PyError& e) {
                    if (I.isInstance(I.exceptionOf(e), Exc::TypeError)) {
                        throw PyError(Exc::TypeError,
                                      "cannot convert dictionary update sequence element #" +
                                          std::to_string(i) + " to a sequence");
                    }
                    throw;
                }
                if (pair.size() != 2) {
                    throw PyError(Exc::ValueError, "dictionary update sequence element #" +
                                                       std::to_string(i) + " has length " +
                                                       std::to_string(pair.size()) +
                                                       "; 2 is required");
                }
                d.set(I, pair[0], pair[1]);
            }
        }
    }
    for (const KwArg& k : kw) {
        d.setStr(I.newStr(k.name), k.value);
    }
}

void updateSet(Interpreter& I, SetObject& s, const Value& src) {
    if (auto* o = src.as<SetObject>()) {
        s.mergeFrom(I, *o);
        return;
    }
    for (const Value& v : I.toVector(src)) {
        s.add(I, v);
    }
}

Value view(Interpreter& I, const CallArgs& a, DictViewObject::Which w, const char* name) {
    expectArgs(a, 1, 1, name);
    DictObject* d = selfDict(I, a, name);
    Type* t = w == DictViewObject::Which::Keys     ? I.types().dictKeys.get()
              : w == DictViewObject::Which::Values ? I.types().dictValues.get()
                                                   : I.types().dictItems.get();
    return Value(I.make<DictViewObject>(t, Ref<DictObject>(d), w));
}

}  // namespace

void setUpDictMethods(Interpreter& I) {
    Type* dict = I.types().dict.get();
    auto def = [&](Type* t, const char* n, NativeFn fn) { defMethod(I, t, n, std::move(fn)); };
    def(dict, "get", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 3, "get");
        Value v = selfDict(J, a, "get")->get(J, a.pos[1]);
        return v.isNull() ? (a.pos.size() > 2 ? a.pos[2] : Value::none()) : v;
    });
    def(dict, "keys", [](Interpreter& J, CallArgs& a) {
        return view(J, a, DictViewObject::Which::Keys, "keys");
    });
    def(dict, "values", [](Interpreter& J, CallArgs& a) {
        return view(J, a, DictViewObject::Which::Values, "values");
    });
    def(dict, "items", [](Interpreter& J, CallArgs& a) {
        return view(J, a, DictViewObject::Which::Items, "items");
    });
    def(dict, "update", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 1, 2, "update");
        updateDict(J, *selfDict(J, a, "update"), a.pos.size() > 1 ? a.pos[1] : Value(), a.kw);
        return Value::none();
    });
    def(dict, "pop", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 3, "pop");
        Value v;
        if (selfDict(J, a, "pop")->remove(J, a.pos[1], &v)) {
            return v;
        }
        if (a.pos.size() > 2) {
            return a.pos[2];
        }
        throw PyError(Exc::KeyError, std::vector<Value>{a.pos[1]});
    });
    def(dict, "popitem", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 1, 1, "popitem");
        DictObject* d = selfDict(J, a, "popitem");
        const auto& entries = d->entries();
        for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
            if (!it->key.isNull()) {
                Value k = it->key, v = it->value;
                d->remove(J, k);
                return Value(J.newTuple({k, v}));
            }
        }
        throw PyError(Exc::KeyError, "popitem(): dictionary is empty");
    });
    def(dict, "setdefault", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 3, "setdefault");
        DictObject* d = selfDict(J, a, "setdefault");
        Value v = d->get(J, a.pos[1]);
        if (!v.isNull()) {
            return v;
        }
        Value dflt = a.pos.size() > 2 ? a.pos[2] : Value::none();
        d->set(J, a.pos[1], dflt);
        return dflt;
    });
    def(dict, "copy", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 1, 1, "copy");
        Ref<DictObject> r = J.newDict();
        updateDict(J, *r, a.pos[0], {});
        return Value(r);
    });
    def(dict, "clear", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 1, 1, "clear");
        selfDict(J, a, "clear")->clear();
        return Value::none();
    });
    def(dict, "__init__", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 1, 2, "dict");
        updateDict(J, *selfDict(J, a, "__init__"), a.pos.size() > 1 ? a.pos[1] : Value(), a.kw);
        return Value::none();
    });
    def(dict, "__getitem__", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 2, "__getitem__");
        Value v = selfDict(J, a, "__getitem__")->get(J, a.pos[1]);
        if (v.isNull()) {
            Value missing = J.typeOf(a.pos[0])->lookup("__missing__");
            if (!missing.isNull()) {
                return J.call(missing, {a.pos[0], a.pos[1]});
            }
            throw PyError(Exc::KeyError, std::vector<Value>{a.pos[1]});
        }
        return v;
    });
    def(dict, "__setitem__", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 3, 3, "__setitem__");
        selfDict(J, a, "__setitem__")->set(J, a.pos[1], a.pos[2]);
        return Value::none();
    });
    def(dict, "__delitem__", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 2, "__delitem__");
        if (!selfDict(J, a, "__delitem__")->remove(J, a.pos[1])) {
            throw PyError(Exc::KeyError, std::vector<Value>{a.pos[1]});
        }
        return Value::none();
    });
    def(dict, "__len__", [](Interpreter& J, CallArgs& a) {
        return Value::integer(static_cast<std::int64_t>(selfDict(J, a, "__len__")->size()));
    });
    def(dict, "__contains__", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 2, "__contains__");
        return Value::boolean(selfDict(J, a, "__contains__")->contains(J, a.pos[1]));
    });
    def(dict, "__iter__",
        [](Interpreter& J, CallArgs& a) { return builtinIterator(J, a.pos.at(0)); });
    def(dict, "fromkeys", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 3, "fromkeys");
        Value d = J.call(a.pos[0], {});
        Value v = a.pos.size() > 2 ? a.pos[2] : Value::none();
        for (const Value& k : J.toVector(a.pos[1])) {
            J.setItem(d, k, v);
        }
        return d;
    });
    dict->dict()->getStr("fromkeys").as<NativeFunctionObject>()->binding =
        NativeFunctionObject::Binding::Class;

    Type* set = I.types().set.get();
    def(set, "add", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 2, "set.add");
        selfSet(J, a, "add")->add(J, a.pos[1]);
        return Value::none();
    });
    def(set, "remove", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 2, "set.remove");
        if (!selfSet(J, a, "remove")->discard(J, a.pos[1])) {
            throw PyError(Exc::KeyError, std::vector<Value>{a.pos[1]});
        }
        return Value::none();
    });
    def(set, "discard", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 2, "set.discard");
        selfSet(J, a, "discard")->discard(J, a.pos[1]);
        return Value::none();
    });
    def(set, "pop", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 1, 1, "pop");
        Value k = selfSet(J, a, "pop")->pop();
        if (k.isNull()) {
            throw PyError(Exc::KeyError, "pop from an empty set");
        }
        return k;
    });
    def(set, "clear", [](Interpreter& J, CallArgs& a) {
        selfSet(J, a, "clear")->clear();
        return Value::none();
    });
    def(set, "copy", [](Interpreter& J, CallArgs& a) {
        Ref<SetObject> r = J.newSet();
        r->mergeFrom(J, *selfSet(J, a, "copy"));
        return Value(r);
    });
    def(set, "update", [](Interpreter& J, CallArgs& a) {
        SetObject* s = selfSet(J, a, "update");
        for (std::size_t i = 1; i < a.pos.size(); ++i) {
            updateSet(J, *s, a.pos[i]);
        }
        return Value::none();
    });
    def(set, "__init__", [](Interpreter& J, CallArgs& a) {
        noKeywords(a, "set");
        expectArgs(a, 1, 2, "set");
        SetObject* s = selfSet(J, a, "__init__");
        s->clear();
        if (a.pos.size() > 1) {
            updateSet(J, *s, a.pos[1]);
        }
        return Value::none();
    });
    struct SetOp {
        const char* name;
        ast::Operator op;
    };
    for (SetOp d :
         {SetOp{"union", ast::Operator::BitOr}, SetOp{"intersection", ast::Operator::BitAnd},
          SetOp{"difference", ast::Operator::Sub},
          SetOp{"symmetric_difference", ast::Operator::BitXor}}) {
        def(set, d.name, [d](Interpreter& J, CallArgs& a) {
            Value acc = a.pos.at(0);
            selfSet(J, a, d.name);
            if (a.pos.size() == 1) {
                return builtinBinary(J, ast::Operator::BitOr, acc, Value(J.newSet()));
            }
            for (std::size_t i = 1; i < a.pos.size(); ++i) {
                Value other = a.pos[i];
                if (!other.is<SetObject>()) {
                    Ref<SetObject> s = J.newSet();
                    updateSet(J, *s, other);
                    other = Value(s);
                }
                acc = builtinBinary(J, d.op, acc, other);
            }
            return acc;
        });
    }
    for (SetOp d : {SetOp{"intersection_update", ast::Operator::BitAnd},
                    SetOp{"difference_update", ast::Operator::Sub},
                    SetOp{"symmetric_difference_update", ast::Operator::BitXor}}) {
        def(set, d.name, [d](Interpreter& J, CallArgs& a) {
            SetObject* s = selfSet(J, a, d.name);
            for (std::size_t i = 1; i < a.pos.size(); ++i) {
                Value other = a.pos[i];
                if (!other.is<SetObject>()) {
                    Ref<SetObject> tmp = J.newSet();
                    updateSet(J, *tmp, other);
                    other = Value(tmp);
                }
                setInplace(J, d.op, *s, *other.as<SetObject>());
            }
            return Value::none();
        });
    }
    struct SetRel {
        const char* name;
        int mode;  // 0 subset, 1 superset, 2 disjoint
    };
    for (SetRel d : {SetRel{"issubset", 0}, SetRel{"issuperset", 1}, SetRel{"isdisjoint", 2}}) {
        def(set, d.name, [d](Interpreter& J, CallArgs& a) {
            expectArgs(a, 2, 2, d.name);
            SetObject* s = selfSet(J, a, d.name);
            Ref<SetObject> other = J.newSet();
            updateSet(J, *other, a.pos[1]);
            SetObject* x = d.mode == 1 ? other.get() : s;
            SetObject* y = d.mode == 1 ? s : other.get();
            for (const Value& k : x->items()) {
                bool in = y->contains(J, k);
                if (d.mode == 2 ? in : !in) {
                    return Value::boolean(false);
                }
            }
            return Value::boolean(true);
        });
    }
    def(set, "__len__", [](Interpreter& J, CallArgs& a) {
        return Value::integer(static_cast<std::int64_t>(selfSet(J, a, "__len__")->size()));
    });
    def(set, "__contains__", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 2, "__contains__");
        return Value::boolean(selfSet(J, a, "__contains__")->contains(J, a.pos[1]));
    });
    def(set, "__iter__",
        [](Interpreter& J, CallArgs& a) { return builtinIterator(J, a.pos.at(0)); });
}

}  // namespace irscope::interp
