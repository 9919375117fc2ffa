// Statements: control flow, exceptions (try/except/finally, raise, with), imports, assignment
// statements, and the frame bookkeeping (tracebacks, exception context).
#include "frontend/interp/evaluator.h"
#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

using namespace irscope::ast;
using Flow = Evaluator::Flow;

FrameGuard::FrameGuard(Evaluator& ev, Frame& f) : ev_(ev) {
    if (ev.depth >= ev.I.limits().maxRecursion) {
        throw PyError(Exc::RecursionError, "maximum recursion depth exceeded");
    }
    f.back = ev.top;
    f.serial = ev.newSerial();
    ev.top = &f;
    ++ev.depth;
}

FrameGuard::~FrameGuard() {
    ev_.top = ev_.top->back;
    --ev_.depth;
}

void Evaluator::stackExhausted() {
    throw PyError(Exc::RecursionError, "maximum recursion depth exceeded");
}

void Evaluator::noteTraceback(PyError& e, Frame& f) {
    Value exc = I.exceptionOf(e);
    auto* eo = exc.as<ExceptionObject>();
    if (!eo || (!eo->traceback.empty() && eo->traceback.back().frameSerial == f.serial)) {
        return;
    }
    // Raised while another exception was being handled: that one is its context (CPython
    // records this at raise time; the handling stack is unchanged until the first frame
    // sees the exception).
    if (eo->traceback.empty() && eo->context.isNull() && !handling.empty() &&
        !handling.back().identical(exc)) {
        eo->context = handling.back();
    }
    eo->traceback.push_back({f.unit, f.line, f.code ? f.code->name : std::string("?"), f.serial});
}

void Evaluator::setContext(PyError& e, const Value& handled) {
    Value exc = I.exceptionOf(e);
    auto* eo = exc.as<ExceptionObject>();
    if (!eo || exc.identical(handled) || !eo->context.isNull()) {
        return;
    }
    // Never make a cycle: cut the handled exception's chain where it reaches `exc`.
    Value cur = handled;
    while (auto* c = cur.as<ExceptionObject>()) {
        if (c->context.identical(exc)) {
            c->context = Value();
            break;
        }
        cur = c->context;
    }
    eo->context = handled;
}

void Evaluator::runModule(const std::shared_ptr<ScriptUnit>& unit, ModuleObject& m) {
    Frame f;
    f.unit = unit;
    f.code = &unit->moduleCode();
    f.globals = m.dict();
    f.ns = m.dict();
    f.line = 1;
    FrameGuard guard(*this, f);
    try {
        execBlock(unit->module->body, f);
    } catch (PyError& e) {
        noteTraceback(e, f);
        throw;
    }
}

Flow Evaluator::execBlock(const StmtList& body, Frame& f) {
    for (const StmtPtr& s : body) {
        Flow fl = exec(*s, f);
        if (fl != Flow::Normal) {
            return fl;
        }
    }
    return Flow::Normal;
}

Flow Evaluator::exec(const Stmt& s, Frame& f) {
    I.step();
    f.line = s.span.line;
    switch (s.kind) {
        case StmtKind::Expr:
            eval(*s.cast<ExprStmt>().value, f);
            return Flow::Normal;
        case StmtKind::Assign: {
            const auto& a = s.cast<Assign>();
            Value v = eval(*a.value, f);
            for (const ExprPtr& t : a.targets) {
                assign(*t, v, f);
            }
            return Flow::Normal;
        }
        case StmtKind::AugAssign:
            execAugAssign(s.cast<AugAssign>(), f);
            return Flow::Normal;
        case StmtKind::AnnAssign: {
            const auto& a = s.cast<AnnAssign>();
            if (a.value) {
                assign(*a.target, eval(*a.value, f), f);
            }
            return Flow::Normal;
        }
        case StmtKind::Return: {
            const auto& r = s.cast<Return>();
            f.retval = r.value ? eval(*r.value, f) : Value::none();
            return Flow::Return;
        }
        case StmtKind::If: {
            const auto& i = s.cast<If>();
            return I.truthy(eval(*i.test, f)) ? execBlock(i.body, f) : execBlock(i.orelse, f);
        }
        case StmtKind::For:
            return execFor(s.cast<For>(), f);
        case StmtKind::While:
            return execWhile(s.cast<While>(), f);
        case StmtKind::Break:
            return Flow::Break;
        case StmtKind::Continue:
            return Flow::Continue;
        case StmtKind::Pass:
        case StmtKind::Global:
        case StmtKind::Nonlocal:
            return Flow::Normal;
        case StmtKind::FunctionDef: {
            const auto& d = s.cast<FunctionDef>();
            Value fn = makeFunction(&d, nullptr, f);
            storeSite(&d, d.name, fn, f);
            return Flow::Normal;
        }
        case StmtKind::ClassDef: {
            const auto& c = s.cast<ClassDef>();
            Value cls = makeClass(c, f);
            storeSite(&c, c.name, cls, f);
            return Flow::Normal;
        }
        case StmtKind::Delete:
            for (const ExprPtr& t : s.cast<Delete>().targets) {
                del(*t, f);
            }
            return Flow::Normal;
        case StmtKind::Try:
            return execTry(s.cast<Try>(), f);
        case StmtKind::Raise:
            execRaise(s.cast<Raise>(), f);
            return Flow::Normal;
        case StmtKind::With:
            return execWith(s.cast<With>(), 0, f);
        case StmtKind::Assert: {
            const auto& a = s.cast<Assert>();
            if (!I.truthy(eval(*a.test, f))) {
                Value type(I.types().exception(Exc::AssertionError));
                Value exc = a.msg ? I.call(type, {eval(*a.msg, f)}) : I.call(type, {});
                f.line = s.span.line;
                throw PyError(exc);
            }
            return Flow::Normal;
        }
        case StmtKind::Import:
            execImport(s.cast<Import>(), f);
            return Flow::Normal;
        case StmtKind::ImportFrom:
            execImportFrom(s.cast<ImportFrom>(), f);
            return Flow::Normal;
    }
    return Flow::Normal;
}

Flow Evaluator::execFor(const For& s, Frame& f) {
    Value it = I.iter(eval(*s.iter, f));
    Value item;
    for (;;) {
        f.line = s.span.line;
        if (!I.next(it, item)) {
            break;
        }
        I.step();
        assign(*s.target, item, f);
        Flow fl = execBlock(s.body, f);
        if (fl == Flow::Break) {
            return Flow::Normal;
        }
        if (fl == Flow::Return) {
            return fl;
        }
    }
    return execBlock(s.orelse, f);
}

Flow Evaluator::execWhile(const While& s, Frame& f) {
    for (;;) {
        f.line = s.span.line;
        if (!I.truthy(eval(*s.test, f))) {
            break;
        }
        I.step();
        Flow fl = execBlock(s.body, f);
        if (fl == Flow::Break) {
            return Flow::Normal;
        }
        if (fl == Flow::Return) {
            return fl;
        }
    }
    return execBlock(s.orelse, f);
}

bool Evaluator::exceptionMatches(const Value& exc, const Value& type) {
    if (const auto* t = type.as<TupleObject>()) {
        for (const Value& x : t->items) {
            if (exceptionMatches(exc, x)) {
                return true;
            }
        }
        return false;
    }
    const auto* ty = type.as<Type>();
    if (!ty || !ty->isSubtypeOf(I.types().exception(Exc::BaseException))) {
        throw PyError(Exc::TypeError,
                      "catching classes that do not inherit from BaseException is not allowed");
    }
    return I.isInstance(exc, ty);
}

Flow Evaluator::execTryExcept(const Try& t, Frame& f) {
    Flow fl;
    try {
        fl = execBlock(t.body, f);
    } catch (PyError& e) {
        noteTraceback(e, f);
        Value exc = I.exceptionOf(e);
        for (const ExceptHandler& h : t.handlers) {
            if (h.type) {
                bool match;
                try {
                    match = exceptionMatches(exc, eval(*h.type, f));
                } catch (PyError& e2) {
                    setContext(e2, exc);
                    throw;
                }
                if (!match) {
                    continue;
                }
            }
            f.line = h.span.line;
            if (!h.name.empty()) {
                storeSite(&h, h.name, exc, f);
            }
            handling.push_back(exc);
            Flow hf;
            try {
                hf = execBlock(h.body, f);
            } catch (PyError& e2) {
                handling.pop_back();
                setContext(e2, exc);
                if (!h.name.empty()) {
                    deleteSite(&h, h.name, f, true);
                }
                throw;
            }
            handling.pop_back();
            if (!h.name.empty()) {
                deleteSite(&h, h.name, f, true);
            }
            return hf;
        }
        throw;
    }
    if (fl == Flow::Normal && !t.orelse.empty()) {
        fl = execBlock(t.orelse, f);
    }
    return fl;
}

Flow Evaluator::execTry(const Try& t, Frame& f) {
    if (t.finalbody.empty()) {
        return execTryExcept(t, f);
    }
    Flow fl;
    try {
        fl = t.handlers.empty() ? execBlock(t.body, f) : execTryExcept(t, f);
    } catch (PyError& e) {
        noteTraceback(e, f);
        Value exc = I.exceptionOf(e);
        handling.push_back(exc);
        Flow ff;
        try {
            ff = execBlock(t.finalbody, f);
        } catch (PyError& e2) {
            handling.pop_back();
            setContext(e2, exc);
            throw;
        }
        handling.pop_back();
        if (ff != Flow::Normal) {
            return ff;  // return/break/continue in finally discards the exception
        }
        throw;
    }
    Value saved = f.retval;
    Flow ff = execBlock(t.finalbody, f);
    if (ff != Flow::Normal) {
        return ff;
    }
    f.retval = saved;
    return fl;
}

Flow Evaluator::execWith(const With& s, std::size_t i, Frame& f) {
    if (i == s.items.size()) {
        return execBlock(s.body, f);
    }
    const WithItem& item = s.items[i];
    Value mgr = eval(*item.contextExpr, f);
    Type* t = I.typeOf(mgr);
    Value enter = t->lookup("__enter__");
    Value exit = t->lookup("__exit__");
    if (enter.isNull()) {
        throw PyError(Exc::TypeError,
                      "'" + t->name + "' object does not support the context manager protocol");
    }
    if (exit.isNull()) {
        throw PyError(
            Exc::TypeError,
            "'" + t->name +
                "' object does not support the context manager protocol (missed __exit__ method)");
    }
    Value boundExit = I.bindDescriptor(exit, mgr, t);
    Value v = I.call(I.bindDescriptor(enter, mgr, t), {});
    Flow fl;
    try {
        if (item.optionalVars) {
            assign(*item.optionalVars, v, f);
        }
        fl = execWith(s, i + 1, f);
    } catch (PyError& e) {
        noteTraceback(e, f);
        Value exc = I.exceptionOf(e);
        handling.push_back(exc);
        Value r;
        try {
            f.line = s.span.line;
            r = I.call(boundExit, {Value(I.typeOf(exc)), exc, Value::none()});
        } catch (PyError& e2) {
            handling.pop_back();
            setContext(e2, exc);
            throw;
        }
        handling.pop_back();
        if (I.truthy(r)) {
            return Flow::Normal;
        }
        throw;
    }
    f.line = s.span.line;
    I.call(boundExit, {Value::none(), Value::none(), Value::none()});
    return fl;
}

void Evaluator::execRaise(const Raise& r, Frame& f) {
    if (!r.exc) {
        if (handling.empty()) {
            throw PyError(Exc::RuntimeError, "No active exception to reraise");
        }
        throw PyError(handling.back());
    }
    auto instantiate = [&](const Value& v, const char* what) -> Value {
        if (const auto* t = v.as<Type>()) {
            if (t->isSubtypeOf(I.types().exception(Exc::BaseException))) {
                Value x = I.call(v, {});
                if (!x.is<ExceptionObject>()) {
                    throw PyError(Exc::TypeError,
                                  std::string("calling ") + I.repr(v) +
                                      " should have returned an instance of BaseException, not " +
                                      I.typeName(x));
                }
                return x;
            }
        } else if (v.is<ExceptionObject>()) {
            return v;
        }
        throw PyError(Exc::TypeError, what);
    };
    Value exc = instantiate(eval(*r.exc, f), "exceptions must derive from BaseException");
    auto* eo = exc.as<ExceptionObject>();
    if (r.cause) {
        Value c = eval(*r.cause, f);
        eo->cause = c.isNone() ? Value::none()
                               : instantiate(c, "exception causes must derive from BaseException");
        eo->suppressContext = true;
    }
    if (!handling.empty() && !handling.back().identical(exc) && eo->context.isNull()) {
        eo->context = handling.back();
    }
    f.line = r.span.line;
    eo->traceback.push_back({f.unit, f.line, f.code->name, f.serial});
    throw PyError(exc);
}

void Evaluator::execImport(const Import& s, Frame& f) {
    for (const Alias& a : s.names) {
        Ref<ModuleObject> m = I.importModule(a.name);
        if (!a.asname.empty()) {
            storeSite(&a, a.asname, Value(m), f);
        } else {
            std::string first = a.name.substr(0, a.name.find('.'));
            storeSite(&a, first, Value(I.importModule(first)), f);
        }
    }
}

void Evaluator::execImportFrom(const ImportFrom& s, Frame& f) {
    if (s.level > 0) {
        throw PyError(Exc::ImportError, "attempted relative import with no known parent package");
    }
    Ref<ModuleObject> m = I.importModule(s.module);
    for (const Alias& a : s.names) {
        if (a.name == "*") {
            Value all = m->dict()->getStr("__all__");
            std::vector<Value> names;
            if (!all.isNull()) {
                names = I.toVector(all);
            } else {
                m->dict()->forEach([&](const Value& k, const Value&) {
                    const auto* ks = k.as<StrObject>();
                    if (ks && !ks->value.empty() && ks->value[0] != '_') {
                        names.push_back(k);
                    }
                });
            }
            for (const Value& n : names) {
                const std::string& name = toStr(I, n, "attribute name");
                f.ns->setStr(I.intern(name), I.getAttr(Value(m), name));
            }
            continue;
        }
        Value v = I.getAttrOrNull(Value(m), a.name);  // submodules and a module __getattr__ too
        if (v.isNull()) {
            {
                auto exc = I.newException(I.types().exception(Exc::ImportError),
                                          "cannot import name '" + a.name + "' from '" + s.module +
                                              "' (unknown location)");
                throw PyError(Value(exc));
            }
        }
        storeSite(&a, a.asname.empty() ? a.name : a.asname, v, f);
    }
}

void Evaluator::execAugAssign(const AugAssign& s, Frame& f) {
    switch (s.target->kind) {
        case ExprKind::Name: {
            const auto& n = s.target->cast<Name>();
            Value cur = loadName(n, f);
            Value rhs = eval(*s.value, f);
            f.line = s.span.line;
            storeSite(&n, n.id, I.inplaceOp(s.op, cur, rhs), f);
            return;
        }
        case ExprKind::Attribute: {
            const auto& a = s.target->cast<Attribute>();
            Value obj = eval(*a.value, f);
            const Ref<StrObject>& name = attrName(f, &a, a.attr);
            Value cur = I.getAttr(obj, name->value);
            Value rhs = eval(*s.value, f);
            f.line = s.span.line;
            I.setAttr(obj, name->value, I.inplaceOp(s.op, cur, rhs));
            return;
        }
        case ExprKind::Subscript: {
            const auto& sub = s.target->cast<Subscript>();
            Value obj = eval(*sub.value, f);
            Value key = eval(*sub.slice, f);
            Value cur = I.getItem(obj, key);
            Value rhs = eval(*s.value, f);
            f.line = s.span.line;
            I.setItem(obj, key, I.inplaceOp(s.op, cur, rhs));
            return;
        }
        default:
            throw PyError(Exc::TypeError, "illegal expression for augmented assignment");
    }
}

}  // namespace irscope::interp
