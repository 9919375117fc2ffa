// The builtin exception hierarchy, exception objects and CPython-style tracebacks.
#include <unordered_set>

#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

namespace {

struct ExcInfo {
    Exc id;
    const char* name;
    Exc base;
};

// In definition order: a base always comes before its subclasses.
const ExcInfo kExceptions[] = {
    {Exc::BaseException, "BaseException", Exc::BaseException},
    {Exc::SystemExit, "SystemExit", Exc::BaseException},
    {Exc::KeyboardInterrupt, "KeyboardInterrupt", Exc::BaseException},
    {Exc::Exception, "Exception", Exc::BaseException},
    {Exc::ArithmeticError, "ArithmeticError", Exc::Exception},
    {Exc::FloatingPointError, "FloatingPointError", Exc::ArithmeticError},
    {Exc::OverflowError, "OverflowError", Exc::ArithmeticError},
    {Exc::ZeroDivisionError, "ZeroDivisionError", Exc::ArithmeticError},
    {Exc::AssertionError, "AssertionError", Exc::Exception},
    {Exc::AttributeError, "AttributeError", Exc::Exception},
    {Exc::ImportError, "ImportError", Exc::Exception},
    {Exc::ModuleNotFoundError, "ModuleNotFoundError", Exc::ImportError},
    {Exc::LookupError, "LookupError", Exc::Exception},
    {Exc::IndexError, "IndexError", Exc::LookupError},
    {Exc::KeyError, "KeyError", Exc::LookupError},
    {Exc::MemoryError, "MemoryError", Exc::Exception},
    {Exc::NameError, "NameError", Exc::Exception},
    {Exc::UnboundLocalError, "UnboundLocalError", Exc::NameError},
    {Exc::RuntimeError, "RuntimeError", Exc::Exception},
    {Exc::NotImplementedError, "NotImplementedError", Exc::RuntimeError},
    {Exc::RecursionError, "RecursionError", Exc::RuntimeError},
    {Exc::StopIteration, "StopIteration", Exc::Exception},
    {Exc::TypeError, "TypeError", Exc::Exception},
    {Exc::ValueError, "ValueError", Exc::Exception},
    {Exc::UnicodeError, "UnicodeError", Exc::ValueError},
    {Exc::Warning, "Warning", Exc::Exception},
    {Exc::UserWarning, "UserWarning", Exc::Warning},
    {Exc::DeprecationWarning, "DeprecationWarning", Exc::Warning},
    {Exc::RuntimeWarning, "RuntimeWarning", Exc::Warning},
};

ExceptionObject* self(Interpreter& I, const Value& v) {
    auto* e = v.as<ExceptionObject>();
    if (!e) {
        throw PyError(
            Exc::TypeError,
            "descriptor requires a 'BaseException' object but received a '" + I.typeName(v) + "'");
    }
    return e;
}

const std::vector<Value>& argsOf(const ExceptionObject* e) {
    static const std::vector<Value> none;
    const auto* t = e->args.as<TupleObject>();
    return t ? t->items : none;
}

}  // namespace

const char* excName(Exc e) {
    for (const ExcInfo& i : kExceptions) {
        if (i.id == e) {
            return i.name;
        }
    }
    return "Exception";
}

const char* PyError::what() const noexcept {
    try {
        if (what_.empty()) {
            if (const auto* t = type_.as<Type>()) {
                what_ = t->name;
            } else if (const auto* e = instance_.as<ExceptionObject>()) {
                what_ = e->type() ? e->type()->name : "exception";
            } else {
                what_ = excName(builtin_);
            }
            if (!message_.empty()) {
                what_ += ": " + message_;
            }
        }
        return what_.c_str();
    } catch (...) {
        return "Python exception";
    }
}

void setUpExceptionTypes(Interpreter& I, BuiltinTypes& t) {
    for (const ExcInfo& info : kExceptions) {
        Type* base = info.id == Exc::BaseException ? t.object.get() : t.exception(info.base);
        Ref<Type> ty = I.builtinType(info.name, base, true);
        ty->instanceDict = true;
        if (info.id == Exc::BaseException) {
            ty->alloc = [](Interpreter& J, Type* cls, CallArgs& a) {
                return Ref<Object>(J.make<ExceptionObject>(cls, Value(J.newTuple(a.pos))));
            };
            ty->layoutOwner = ty.get();
        }
        t.exc[static_cast<int>(info.id)] = ty;
    }
    Type* be = t.exception(Exc::BaseException);
    defMethod(I, be, "__init__", [](Interpreter& J, CallArgs& a) {
        ExceptionObject* e = self(J, a.pos.at(0));
        if (!a.kw.empty()) {
            throw PyError(Exc::TypeError, e->type()->name + "() takes no keyword arguments");
        }
        e->args = Value(J.newTuple(std::vector<Value>(a.pos.begin() + 1, a.pos.end())));
        return Value::none();
    });
    defMethod(I, be, "__str__", [](Interpreter& J, CallArgs& a) {
        const auto& args = argsOf(self(J, a.pos.at(0)));
        if (args.empty()) {
            return Value(J.newStr(""));
        }
        if (args.size() == 1) {
            return Value(J.newStr(J.str(args[0])));
        }
        return Value(J.newStr(J.repr(self(J, a.pos[0])->args)));
    });
    defMethod(I, be, "__repr__", [](Interpreter& J, CallArgs& a) {
        ExceptionObject* e = self(J, a.pos.at(0));
        const auto& args = argsOf(e);
        std::string s = e->type()->name + "(";
        for (std::size_t i = 0; i < args.size(); ++i) {
            s += (i ? ", " : "") + J.repr(args[i]);
        }
        return Value(J.newStr(s + ")"));
    });
    defMethod(I, be, "with_traceback", [](Interpreter&, CallArgs& a) { return a.pos.at(0); });
    auto prop = [&](Type* ty, const char* n, NativeGetter g, NativeSetter s) {
        ty->dict()->setStr(I.intern(n),
                           Value(I.make<NativePropertyObject>(t.getSetDescriptor.get(), n,
                                                              std::move(g), std::move(s))));
    };
    prop(
        be, "args", [](Interpreter& J, const Value& v) { return self(J, v)->args; },
        [](Interpreter& J, const Value& v, const Value& x) {
            self(J, v)->args = Value(J.newTuple(J.toVector(x)));
        });
    prop(
        be, "__cause__",
        [](Interpreter& J, const Value& v) {
            Value c = self(J, v)->cause;
            return c.isNull() ? Value::none() : c;
        },
        [](Interpreter& J, const Value& v, const Value& x) {
            self(J, v)->cause = x;
            self(J, v)->suppressContext = true;
        });
    prop(
        be, "__context__",
        [](Interpreter& J, const Value& v) {
            Value c = self(J, v)->context;
            return c.isNull() ? Value::none() : c;
        },
        [](Interpreter& J, const Value& v, const Value& x) { self(J, v)->context = x; });
    prop(
        be, "__suppress_context__",
        [](Interpreter& J, const Value& v) { return Value::boolean(self(J, v)->suppressContext); },
        [](Interpreter& J, const Value& v, const Value& x) {
            self(J, v)->suppressContext = J.truthy(x);
        });
    prop(
        be, "__traceback__", [](Interpreter&, const Value&) { return Value::none(); },
        [](Interpreter&, const Value&, const Value&) {});
    defMethod(I, t.exception(Exc::KeyError), "__str__", [](Interpreter& J, CallArgs& a) {
        const auto& args = argsOf(self(J, a.pos.at(0)));
        if (args.size() == 1) {
            return Value(J.newStr(J.repr(args[0])));
        }
        return Value(J.newStr(args.empty() ? std::string() : J.repr(self(J, a.pos[0])->args)));
    });
    auto firstArg = [](Interpreter& J, const Value& v) {
        const auto& args = argsOf(self(J, v));
        return args.empty() ? Value::none() : args[0];
    };
    prop(t.exception(Exc::StopIteration), "value", firstArg, nullptr);
    prop(t.exception(Exc::SystemExit), "code", firstArg, nullptr);
}

Ref<ExceptionObject> Interpreter::newException(Type* cls, std::string message) {
    std::vector<Value> args;
    if (!message.empty()) {
        args.push_back(Value(newStr(std::move(message))));
    }
    return make<ExceptionObject>(cls, Value(newTuple(std::move(args))));
}

Value Interpreter::exceptionOf(PyError& e) {
    if (!e.instance_.isNull()) {
        return e.instance_;
    }
    Type* cls = types_.exception(e.builtin_);
    if (const auto* t = e.type_.as<Type>()) {
        if (t->isSubtypeOf(types_.exception(Exc::BaseException))) {
            cls = const_cast<Type*>(t);
        }
    }
    if (e.hasArgs_) {
        e.instance_ = Value(make<ExceptionObject>(cls, Value(newTuple(e.args_))));
    } else {
        e.instance_ = Value(newException(cls, e.message_));
    }
    return e.instance_;
}

std::string Interpreter::formatExceptionOnly(const Value& exc) {
    Type* t = typeOf(exc);
    std::string name = t->module.empty() || t->module == "builtins" || t->module == "__main__"
                           ? t->qualname
                           : t->module + "." + t->qualname;
    std::string msg;
    try {
        msg = str(exc);
    } catch (PyError&) {
        msg = "<exception str() failed>";
    }
    return msg.empty() ? name : name + ": " + msg;
}

namespace {

void formatChain(Interpreter& I, const Value& exc, std::unordered_set<const Object*>& seen,
                 std::string& out) {
    seen.insert(exc.obj());
    auto* e = exc.as<ExceptionObject>();
    if (!e) {
        out += I.formatExceptionOnly(exc) + "\n";
        return;
    }
    if (e->cause.is<ExceptionObject>() && !seen.count(e->cause.obj())) {
        formatChain(I, e->cause, seen, out);
        out += "\nThe above exception was the direct cause of the following exception:\n\n";
    } else if (!e->suppressContext && e->context.is<ExceptionObject>() &&
               !seen.count(e->context.obj())) {
        formatChain(I, e->context, seen, out);
        out += "\nDuring handling of the above exception, another exception occurred:\n\n";
    }
    if (!e->traceback.empty()) {
        out += "Traceback (most recent call last):\n";
        // Runs of the same line (recursion) are cut after three, as CPython does.
        constexpr int kCutoff = 3;
        const TraceEntry* last = nullptr;
        int count = 0;
        auto flushRepeats = [&] {
            if (count > kCutoff) {
                int n = count - kCutoff;
                out += "  [Previous line repeated " + std::to_string(n) + " more time" +
                       (n > 1 ? "s" : "") + "]\n";
            }
        };
        for (auto it = e->traceback.rbegin(); it != e->traceback.rend(); ++it) {
            if (!last || last->unit != it->unit || last->line != it->line ||
                last->function != it->function) {
                flushRepeats();
                last = &*it;
                count = 0;
            }
            if (++count > kCutoff) {
                continue;
            }
            out += "  File \"" + (it->unit ? it->unit->fileName() : std::string("<unknown>")) +
                   "\", line " + std::to_string(it->line) + ", in " + it->function + "\n";
            if (it->unit) {
                std::string_view text = it->unit->module->line(it->line);
                std::size_t b = text.find_first_not_of(" \t\f");
                if (b != std::string_view::npos) {
                    std::size_t end = text.find_last_not_of(" \t\f\r");
                    out += "    " + std::string(text.substr(b, end - b + 1)) + "\n";
                }
            }
        }
        flushRepeats();
    }
    out += I.formatExceptionOnly(exc) + "\n";
}

}  // namespace

std::string Interpreter::formatTraceback(const Value& exc) {
    std::unordered_set<const Object*> seen;
    std::string out;
    formatChain(*this, exc, seen, out);
    return out;
}

}  // namespace irscope::interp
