// Calling: functions, bound methods, native functions (with C++ exceptions converted to
// Python ones at the boundary), classes and objects with __call__.
#include <new>

#include "frontend/interp/evaluator.h"
#include "frontend/interp/interp_internal.h"
#include "ops/op_registry.h"

namespace irscope::interp {

namespace {

Exc excOfOpError(ops::ErrorKind k) {
    switch (k) {
        case ops::ErrorKind::TypeError:
            return Exc::TypeError;
        case ops::ErrorKind::ValueError:
            return Exc::ValueError;
        case ops::ErrorKind::IndexError:
            return Exc::IndexError;
        case ops::ErrorKind::ZeroDivisionError:
            return Exc::ZeroDivisionError;
        default:
            return Exc::RuntimeError;
    }
}

Value callNative(Interpreter& I, NativeFunctionObject& f, CallArgs& args) {
    Ref<NativeFunctionObject> keep(&f);  // the function may drop its last reference
    try {
        Value r = f.fn(I, args);
        return r.isNull() ? Value::none() : r;
    } catch (PyError&) {
        throw;
    } catch (ScriptAborted&) {
        throw;
    } catch (const ops::OpError& e) {
        throw PyError(excOfOpError(e.kind()), e.what());
    } catch (const std::bad_alloc&) {
        throw PyError(Exc::MemoryError, "");
    } catch (const std::exception& e) {
        throw PyError(Exc::RuntimeError, e.what());
    }
}

}  // namespace

Value Interpreter::call(const Value& f, CallArgs args) {
    if (!active_) {
        return callOutsideRun(f, args);
    }
    eval_->checkStack();
    if (f.isObj()) {
        switch (f.obj()->kind()) {
            case ObjKind::Function: {
                Ref<FunctionObject> keep(f.as<FunctionObject>());
                return eval_->callFunction(*keep, args);
            }
            case ObjKind::BoundMethod: {
                auto* m = f.as<BoundMethodObject>();
                Value func = m->func;
                args.pos.insert(args.pos.begin(), m->self);
                return call(func, std::move(args));
            }
            case ObjKind::NativeFunction:
                return callNative(*this, *f.as<NativeFunctionObject>(), args);
            case ObjKind::Type: {
                Ref<Type> keep(f.as<Type>());
                return callType(keep.get(), args);
            }
            default:
                break;
        }
    }
    Type* tp = typeOf(f);
    Value c = tp->lookup("__call__");
    if (c.isNull() || c.isNone()) {
        throw PyError(Exc::TypeError, "'" + tp->name + "' object is not callable");
    }
    return call(bindDescriptor(c, f, tp), std::move(args));
}

Value Interpreter::callMethod(const Value& obj, std::string_view name, CallArgs args) {
    return call(getAttr(obj, name), std::move(args));
}

bool Interpreter::callable(const Value& v) const {
    if (!v.isObj()) {
        return false;
    }
    switch (v.obj()->kind()) {
        case ObjKind::Function:
        case ObjKind::BoundMethod:
        case ObjKind::NativeFunction:
        case ObjKind::Type:
            return true;
        default: {
            Value c = v.obj()->type()->lookup("__call__");
            return !c.isNull() && !c.isNone();
        }
    }
}

}  // namespace irscope::interp
