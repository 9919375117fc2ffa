// The object protocols: truth, hash, len, membership, subscription, iteration.
#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

// --- truth, hash, len ---------------------------------------------------------------------------

bool Interpreter::truthy(const Value& v) {
    switch (v.tag()) {
        case Value::Tag::Null:
        case Value::Tag::None:
            return false;
        case Value::Tag::Bool:
        case Value::Tag::Int:
            return v.intLike() != 0;
        case Value::Tag::Float:
            return v.asFloat() != 0.0;
        case Value::Tag::Obj:
            break;
    }
    Object* o = v.obj();
    if (o->type()->immutable) {
        switch (o->kind()) {
            case ObjKind::Str:
                return !static_cast<StrObject*>(o)->value.empty();
            case ObjKind::Tuple:
                return !static_cast<TupleObject*>(o)->items.empty();
            case ObjKind::List:
                return !static_cast<ListObject*>(o)->items.empty();
            case ObjKind::Dict:
                return static_cast<DictObject*>(o)->size() > 0;
            case ObjKind::Set:
                return static_cast<SetObject*>(o)->size() > 0;
            case ObjKind::Range:
                return static_cast<RangeObject*>(o)->length() > 0;
            default:
                break;
        }
    }
    Value b = o->type()->lookup("__bool__");
    if (!b.isNull() && !b.isNone()) {
        Value r = call(b, {v});
        if (!r.isBool()) {
            throw PyError(Exc::TypeError, "__bool__ should return bool, returned " + typeName(r));
        }
        return r.asBool();
    }
    Value l = o->type()->lookup("__len__");
    if (!l.isNull() && !l.isNone()) {
        return len(v) != 0;
    }
    return true;
}

std::int64_t Interpreter::hash(const Value& v) {
    switch (v.tag()) {
        case Value::Tag::Null:
        case Value::Tag::None:
            return 0x5F3759DF;
        case Value::Tag::Bool:
        case Value::Tag::Int:
            return hashInt(v.intLike());
        case Value::Tag::Float:
            return hashFloat(v.asFloat());
        case Value::Tag::Obj:
            break;
    }
    Object* o = v.obj();
    Type* t = o->type();
    if (t->immutable) {
        switch (o->kind()) {
            case ObjKind::Str:
                return static_cast<StrObject*>(o)->hash();
            case ObjKind::Tuple:
                return hashTuple(*this, static_cast<TupleObject*>(o)->items);
            case ObjKind::List:
            case ObjKind::Dict:
            case ObjKind::Set:
                throw PyError(Exc::TypeError, "unhashable type: '" + t->name + "'");
            default:
                break;
        }
    }
    Value h = t->lookup("__hash__");
    if (h.isNone()) {
        throw PyError(Exc::TypeError, "unhashable type: '" + t->name + "'");
    }
    const auto* nf = h.as<NativeFunctionObject>();
    if (h.isNull() || (nf && nf->qualname == "object.__hash__")) {
        auto p = reinterpret_cast<std::uintptr_t>(o);
        return static_cast<std::int64_t>((p >> 4) | (p << 60));
    }
    Value r = call(h, {v});
    if (!r.isIntLike()) {
        throw PyError(Exc::TypeError, "__hash__ method should return an integer");
    }
    std::int64_t x = r.intLike();
    return x == -1 ? -2 : x;
}

std::int64_t Interpreter::len(const Value& v) {
    if (v.isObj()) {
        Object* o = v.obj();
        switch (o->kind()) {
            case ObjKind::Str:
                return static_cast<std::int64_t>(static_cast<StrObject*>(o)->length());
            case ObjKind::Tuple:
                return static_cast<std::int64_t>(static_cast<TupleObject*>(o)->items.size());
            case ObjKind::List:
                if (o->type()->immutable) {
                    return static_cast<std::int64_t>(static_cast<ListObject*>(o)->items.size());
                }
                break;
            case ObjKind::Dict:
                if (o->type()->immutable) {
                    return static_cast<std::int64_t>(static_cast<DictObject*>(o)->size());
                }
                break;
            case ObjKind::Set:
                return static_cast<std::int64_t>(static_cast<SetObject*>(o)->size());
            case ObjKind::Range:
                return static_cast<RangeObject*>(o)->length();
            case ObjKind::DictView:
                return static_cast<std::int64_t>(static_cast<DictViewObject*>(o)->mapping->size());
            default:
                break;
        }
        Value l = o->type()->lookup("__len__");
        if (!l.isNull() && !l.isNone()) {
            Value r = call(l, {v});
            if (!r.isIntLike()) {
                throw PyError(Exc::TypeError,
                              "'" + typeName(r) + "' object cannot be interpreted as an integer");
            }
            if (r.intLike() < 0) {
                throw PyError(Exc::ValueError, "__len__() should return >= 0");
            }
            return r.intLike();
        }
        if (auto* lo = v.as<ListObject>()) {
            return static_cast<std::int64_t>(lo->items.size());
        }
        if (auto* d = v.as<DictObject>()) {
            return static_cast<std::int64_t>(d->size());
        }
    }
    throw PyError(Exc::TypeError, "object of type '" + typeName(v) + "' has no len()");
}

bool Interpreter::contains(const Value& container, const Value& item) {
    if (container.isObj()) {
        Object* o = container.obj();
        if (o->type()->immutable || o->kind() == ObjKind::Str) {
            switch (o->kind()) {
                case ObjKind::List: {
                    for (std::size_t i = 0; i < static_cast<ListObject*>(o)->items.size(); ++i) {
                        Value x = static_cast<ListObject*>(o)->items[i];
                        if (eq(x, item)) {
                            return true;
                        }
                    }
                    return false;
                }
                case ObjKind::Tuple:
                    for (const Value& x : static_cast<TupleObject*>(o)->items) {
                        if (eq(x, item)) {
                            return true;
                        }
                    }
                    return false;
                case ObjKind::Str: {
                    const auto* s = item.as<StrObject>();
                    if (!s) {
                        throw PyError(
                            Exc::TypeError,
                            "'in <string>' requires string as left operand, not " + typeName(item));
                    }
                    return static_cast<StrObject*>(o)->value.find(s->value) != std::string::npos;
                }
                case ObjKind::Dict:
                    return static_cast<DictObject*>(o)->contains(*this, item);
                case ObjKind::Set:
                    return static_cast<SetObject*>(o)->contains(*this, item);
                case ObjKind::Range: {
                    auto* r = static_cast<RangeObject*>(o);
                    if (item.isIntLike()) {
                        std::int64_t x = item.intLike();
                        std::int64_t n = r->length();
                        if (n == 0) {
                            return false;
                        }
                        Int128 off = static_cast<Int128>(x) - r->start;
                        if (off % r->step != 0) {
                            return false;
                        }
                        Int128 k = off / r->step;
                        return k >= 0 && k < n;
                    }
                    break;
                }
                case ObjKind::DictView: {
                    auto* dv = static_cast<DictViewObject*>(o);
                    if (dv->which == DictViewObject::Which::Keys) {
                        return dv->mapping->contains(*this, item);
                    }
                    break;
                }
                default:
                    break;
            }
        }
        Value c = o->type()->lookup("__contains__");
        if (!c.isNull() && !c.isNone()) {
            return truthy(call(c, {container, item}));
        }
    }
    Value it;
    try {
        it = iter(container);
    } catch (PyError& e) {
        if (isInstance(exceptionOf(e), Exc::TypeError)) {
            throw PyError(Exc::TypeError,
                          "argument of type '" + typeName(container) + "' is not iterable");
        }
        throw;
    }
    Value x;
    while (next(it, x)) {
        step();
        if (eq(x, item)) {
            return true;
        }
    }
    return false;
}

std::int64_t Interpreter::toIndex(const Value& v) {
    if (v.isIntLike()) {
        return v.intLike();
    }
    if (v.isObj()) {
        Value f = typeOf(v)->lookup("__index__");
        if (!f.isNull() && !f.isNone()) {
            Value r = call(f, {v});
            if (r.isIntLike()) {
                return r.intLike();
            }
            throw PyError(Exc::TypeError, "__index__ returned non-int (type " + typeName(r) + ")");
        }
    }
    throw PyError(Exc::TypeError,
                  "'" + typeName(v) + "' object cannot be interpreted as an integer");
}

// --- subscription -------------------------------------------------------------------------------

Value Interpreter::getItem(const Value& obj, const Value& key) {
    if (obj.isObj()) {
        Object* o = obj.obj();
        bool exact = o->type()->immutable;
        switch (o->kind()) {
            case ObjKind::List:
            case ObjKind::Tuple:
            case ObjKind::Str:
            case ObjKind::Range:
                if (exact || o->kind() != ObjKind::List) {
                    return sequenceGetItem(*this, obj, key);
                }
                break;
            case ObjKind::Dict:
                if (exact) {
                    Value v = static_cast<DictObject*>(o)->get(*this, key);
                    if (v.isNull()) {
                        throw PyError(Exc::KeyError, std::vector<Value>{key});
                    }
                    return v;
                }
                break;
            default:
                break;
        }
        Value f = o->type()->lookup("__getitem__");
        if (!f.isNull() && !f.isNone()) {
            return call(f, {obj, key});
        }
        if (auto* t = obj.as<Type>()) {  // list[int], tuple[int, ...]: annotations only
            Value cg = t->lookup("__class_getitem__");
            if (!cg.isNull()) {
                return call(cg, {obj, key});
            }
            if (t->immutable) {
                return obj;
            }
            throw PyError(Exc::TypeError, "type '" + t->name + "' is not subscriptable");
        }
    }
    throw PyError(Exc::TypeError, "'" + typeName(obj) + "' object is not subscriptable");
}

void Interpreter::setItem(const Value& obj, const Value& key, const Value& v) {
    if (obj.isObj()) {
        Object* o = obj.obj();
        if (o->type()->immutable) {
            if (o->kind() == ObjKind::List) {
                listSetItem(*this, *static_cast<ListObject*>(o), key, v);
                return;
            }
            if (o->kind() == ObjKind::Dict) {
                static_cast<DictObject*>(o)->set(*this, key, v);
                return;
            }
        }
        Value f = o->type()->lookup("__setitem__");
        if (!f.isNull() && !f.isNone()) {
            call(f, {obj, key, v});
            return;
        }
    }
    throw PyError(Exc::TypeError,
                  "'" + typeName(obj) + "' object does not support item assignment");
}

void Interpreter::delItem(const Value& obj, const Value& key) {
    if (obj.isObj()) {
        Object* o = obj.obj();
        if (o->type()->immutable) {
            if (o->kind() == ObjKind::List) {
                listDelItem(*this, *static_cast<ListObject*>(o), key);
                return;
            }
            if (o->kind() == ObjKind::Dict) {
                if (!static_cast<DictObject*>(o)->remove(*this, key)) {
                    throw PyError(Exc::KeyError, std::vector<Value>{key});
                }
                return;
            }
        }
        Value f = o->type()->lookup("__delitem__");
        if (!f.isNull() && !f.isNone()) {
            call(f, {obj, key});
            return;
        }
    }
    throw PyError(Exc::TypeError, "'" + typeName(obj) + "' object doesn't support item deletion");
}

// --- iteration ----------------------------------------------------------------------------------

void notIterable(Interpreter& I, const Value& v) {
    throw PyError(Exc::TypeError, "'" + I.typeName(v) + "' object is not iterable");
}

Value Interpreter::iter(const Value& v) {
    if (v.is<NativeIterator>()) {
        return v;
    }
    if (v.isObj() && v.obj()->type()->immutable) {
        Value it = builtinIterator(*this, v);
        if (!it.isNull()) {
            return it;
        }
    }
    Type* t = typeOf(v);
    Value f = t->lookup("__iter__");
    if (!f.isNull() && !f.isNone()) {
        Value it = call(f, {v});
        Value nx = typeOf(it)->lookup("__next__");
        if (nx.isNull() || nx.isNone()) {
            throw PyError(Exc::TypeError,
                          "iter() returned non-iterator of type '" + typeName(it) + "'");
        }
        return it;
    }
    Value it = builtinIterator(*this, v);  // subclasses of list/dict/set without __iter__
    if (!it.isNull()) {
        return it;
    }
    if (!t->lookup("__getitem__").isNull()) {
        // The old sequence protocol: v[0], v[1], ... until IndexError.
        std::vector<Value> items;
        for (std::int64_t i = 0;; ++i) {
            try {
                items.push_back(getItem(v, Value::integer(i)));
            } catch (PyError& e) {
                Value exc = exceptionOf(e);
                if (isInstance(exc, Exc::IndexError) || isInstance(exc, Exc::StopIteration)) {
                    break;
                }
                throw;
            }
            step();
        }
        return makeSnapshotIterator(*this, std::move(items), "iterator");
    }
    notIterable(*this, v);
}

bool Interpreter::next(const Value& iterator, Value& out) {
    if (auto* it = iterator.as<NativeIterator>()) {
        return it->next(*this, out);
    }
    Value f = typeOf(iterator)->lookup("__next__");
    if (f.isNull() || f.isNone()) {
        throw PyError(Exc::TypeError, "'" + typeName(iterator) + "' object is not an iterator");
    }
    try {
        out = call(f, {iterator});
        return true;
    } catch (PyError& e) {
        if (isInstance(exceptionOf(e), Exc::StopIteration)) {
            return false;
        }
        throw;
    }
}

std::vector<Value> Interpreter::toVector(const Value& iterable) {
    if (auto* l = iterable.as<ListObject>()) {
        return l->items;
    }
    if (auto* t = iterable.as<TupleObject>()) {
        return t->items;
    }
    std::vector<Value> out;
    Value it = iter(iterable);
    Value x;
    while (next(it, x)) {
        step();  // list(range(10**12)) stops at the step budget
        out.push_back(std::move(x));
    }
    return out;
}

}  // namespace irscope::interp
