// repr(), str() and format() of values, with CPython's texts for the builtin types.
#include <cstdio>

#include "frontend/interp/evaluator.h"
#include "frontend/interp/interp_internal.h"
#include "runtime/float_format.h"

namespace irscope::interp {

namespace {

thread_local std::vector<const Object*> tReprStack;

std::string address(const Object* o) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%012llx",
                  static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(o)));
    return buf;
}

std::string joinRepr(Interpreter& I, const std::vector<Value>& items) {
    std::string s;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i) {
            s += ", ";
        }
        s += I.repr(items[i]);
    }
    return s;
}

}  // namespace

ReprGuard::ReprGuard(const Object* o) : o_(o) {
    recursive_ = false;
    for (const Object* x : tReprStack) {
        recursive_ |= x == o;
    }
    if (!recursive_) {
        tReprStack.push_back(o);
    }
}

ReprGuard::~ReprGuard() {
    if (!recursive_) {
        tReprStack.pop_back();
    }
}

std::string Interpreter::repr(const Value& v) {
    switch (v.tag()) {
        case Value::Tag::Null:
            return "<NULL>";
        case Value::Tag::None:
            return "None";
        case Value::Tag::Bool:
            return v.asBool() ? "True" : "False";
        case Value::Tag::Int:
            return std::to_string(v.asInt());
        case Value::Tag::Float:
            return runtime::formatPyFloat(v.asFloat());
        case Value::Tag::Obj:
            break;
    }
    eval_->checkStack();
    Object* o = v.obj();
    Type* t = o->type();
    // Nested containers count against the recursion limit, as in CPython.
    struct Depth {
        Evaluator& ev;
        explicit Depth(Evaluator& e, int limit) : ev(e) {
            if (ev.depth >= limit) {
                throw PyError(
                    Exc::RecursionError,
                    "maximum recursion depth exceeded while getting the repr of an object");
            }
            ++ev.depth;
        }
        ~Depth() { --ev.depth; }
    } depth(*eval_, limits_.maxRecursion);
    if (t->immutable) {
        switch (o->kind()) {
            case ObjKind::Str:
                return util::pyStrRepr(static_cast<StrObject*>(o)->value);
            case ObjKind::Tuple: {
                const auto& items = static_cast<TupleObject*>(o)->items;
                ReprGuard g(o);
                if (g.recursive()) {
                    return "(...)";
                }
                return items.size() == 1 ? "(" + repr(items[0]) + ",)"
                                         : "(" + joinRepr(*this, items) + ")";
            }
            case ObjKind::List: {
                ReprGuard g(o);
                if (g.recursive()) {
                    return "[...]";
                }
                std::vector<Value> items = static_cast<ListObject*>(o)->items;
                return "[" + joinRepr(*this, items) + "]";
            }
            case ObjKind::Dict: {
                ReprGuard g(o);
                if (g.recursive()) {
                    return "{...}";
                }
                std::vector<std::pair<Value, Value>> entries;
                static_cast<DictObject*>(o)->forEach(
                    [&](const Value& k, const Value& x) { entries.emplace_back(k, x); });
                std::string s = "{";
                for (std::size_t i = 0; i < entries.size(); ++i) {
                    s += (i ? ", " : "") + repr(entries[i].first) + ": " + repr(entries[i].second);
                }
                return s + "}";
            }
            case ObjKind::Set: {
                ReprGuard g(o);
                if (g.recursive()) {
                    return "set(...)";
                }
                std::vector<Value> items = static_cast<SetObject*>(o)->items();
                return items.empty() ? "set()" : "{" + joinRepr(*this, items) + "}";
            }
            case ObjKind::Range: {
                auto* r = static_cast<RangeObject*>(o);
                std::string s =
                    "range(" + std::to_string(r->start) + ", " + std::to_string(r->stop);
                return s + (r->step == 1 ? ")" : ", " + std::to_string(r->step) + ")");
            }
            case ObjKind::Slice: {
                auto* s = static_cast<SliceObject*>(o);
                return "slice(" + repr(s->start) + ", " + repr(s->stop) + ", " + repr(s->step) +
                       ")";
            }
            case ObjKind::Type: {
                auto* ty = static_cast<Type*>(o);
                return "<class '" + ty->fullName() + "'>";
            }
            case ObjKind::Function: {
                auto* f = static_cast<FunctionObject*>(o);
                return "<function " + f->qualname + " at " + address(o) + ">";
            }
            case ObjKind::BoundMethod: {
                auto* m = static_cast<BoundMethodObject*>(o);
                if (auto* nf = m->func.as<NativeFunctionObject>()) {
                    return "<built-in method " + nf->name + " of " + typeName(m->self) +
                           " object at " + address(m->self.obj()) + ">";
                }
                std::string qual = "?";
                if (auto* f = m->func.as<FunctionObject>()) {
                    qual = f->qualname;
                }
                return "<bound method " + qual + " of " + repr(m->self) + ">";
            }
            case ObjKind::NativeFunction:
                return "<built-in function " + static_cast<NativeFunctionObject*>(o)->name + ">";
            case ObjKind::Module:
                return "<module '" + static_cast<ModuleObject*>(o)->name + "' (built-in)>";
            case ObjKind::DictView: {
                std::vector<Value> items;
                Value it = builtinIterator(*this, v);
                Value x;
                while (next(it, x)) {
                    items.push_back(x);
                }
                return t->name + "([" + joinRepr(*this, items) + "])";
            }
            case ObjKind::Super: {
                auto* s = static_cast<SuperObject*>(o);
                return "<super: <class '" + s->thisClass->name + "'>, <" + s->objType->name +
                       " object>>";
            }
            case ObjKind::Cell:
                return "<cell at " + address(o) + ">";
            default:
                break;
        }
        if (v.identical(notImplemented_)) {
            return "NotImplemented";
        }
        if (v.identical(ellipsis_)) {
            return "Ellipsis";
        }
    }
    Value f = t->lookup("__repr__");
    if (f.isNull() || f.isNone()) {
        return defaultRepr(*this, v);
    }
    Value r = call(f, {v});
    if (const auto* s = r.as<StrObject>()) {
        return s->value;
    }
    throw PyError(Exc::TypeError, "__repr__ returned non-string (type " + typeName(r) + ")");
}

std::string Interpreter::str(const Value& v) {
    if (!v.isObj()) {
        return repr(v);
    }
    Object* o = v.obj();
    Type* t = o->type();
    if (o->kind() == ObjKind::Str && t->immutable) {
        return static_cast<StrObject*>(o)->value;
    }
    Value f = t->lookup("__str__");
    const auto* nf = f.as<NativeFunctionObject>();
    if (f.isNull() || f.isNone() || (nf && nf->qualname == "object.__str__")) {
        return repr(v);
    }
    Value r = call(f, {v});
    if (const auto* s = r.as<StrObject>()) {
        return s->value;
    }
    throw PyError(Exc::TypeError, "__str__ returned non-string (type " + typeName(r) + ")");
}

std::string Interpreter::format(const Value& v, std::string_view spec) {
    switch (v.tag()) {
        case Value::Tag::Bool:
            if (spec.empty()) {
                return repr(v);
            }
            return formatInt(v.intLike(), spec, "bool");
        case Value::Tag::Int:
            return formatInt(v.asInt(), spec, "int");
        case Value::Tag::Float:
            return formatFloat(v.asFloat(), spec, "float");
        case Value::Tag::None:
        case Value::Tag::Null:
            if (spec.empty()) {
                return "None";
            }
            throw PyError(Exc::TypeError,
                          "unsupported format string passed to NoneType.__format__");
        case Value::Tag::Obj:
            break;
    }
    if (const auto* s = v.as<StrObject>(); s && s->type()->immutable) {
        return formatStrSpec(s->value, spec);
    }
    Value f = typeOf(v)->lookup("__format__");
    if (f.isNull() || f.isNone()) {
        if (spec.empty()) {
            return str(v);
        }
        throw PyError(Exc::TypeError,
                      "unsupported format string passed to " + typeName(v) + ".__format__");
    }
    Value r = call(f, {v, Value(newStr(std::string(spec)))});
    if (const auto* s = r.as<StrObject>()) {
        return s->value;
    }
    throw PyError(Exc::TypeError, "__format__ must return a str, not " + typeName(r));
}

}  // namespace irscope::interp
