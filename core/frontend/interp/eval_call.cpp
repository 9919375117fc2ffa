// Function objects and their calls, class statements, zero-argument super(), comprehensions
// and (lazy) generator expressions.
#include "frontend/interp/evaluator.h"
#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

using namespace irscope::ast;

void Evaluator::initNestedFrame(Frame& nf, const CodeInfo* code, Frame& parent) {
    nf.unit = parent.unit;
    nf.code = code;
    nf.globals = parent.globals;
    nf.line = code->firstLine;
    nf.fast.resize(code->varNames.size());
    nf.cells.reserve(code->cellNames.size() + code->freeNames.size());
    for (std::size_t i = 0; i < code->cellNames.size(); ++i) {
        nf.cells.push_back(I.make<CellObject>(I.types().cell.get()));
    }
    for (int src : code->closureSource) {
        nf.cells.push_back(parent.cells.at(static_cast<std::size_t>(src)));
    }
}

Value Evaluator::makeFunction(const FunctionDef* def, const Lambda* lambda, Frame& f) {
    const Arguments& a = def ? def->args : lambda->args;
    std::vector<Value> decorators;
    if (def) {
        for (const ExprPtr& d : def->decorators) {
            decorators.push_back(eval(*d, f));
        }
    }
    auto fn = I.make<FunctionObject>(I.types().function.get());
    for (const ExprPtr& d : a.defaults) {
        fn->defaults.push_back(eval(*d, f));
    }
    for (std::size_t k = 0; k < a.kwonlyargs.size(); ++k) {
        fn->kwDefaults.push_back(
            k < a.kwDefaults.size() && a.kwDefaults[k] ? eval(*a.kwDefaults[k], f) : Value());
    }
    const CodeInfo* code =
        f.unit->codeOf(def ? static_cast<const void*>(def) : static_cast<const void*>(lambda));
    fn->unit = f.unit;
    fn->code = code;
    fn->def = def;
    fn->lambda = lambda;
    fn->globals = Ref<DictObject>(f.globals);
    for (int src : code->closureSource) {
        fn->closure.push_back(f.cells.at(static_cast<std::size_t>(src)));
    }
    fn->name = code->name;
    fn->qualname = code->qualname;
    if (const auto* m = f.globals->getStr("__name__").as<StrObject>()) {
        fn->moduleName = m->value;
    }
    Value result(fn);
    for (std::size_t i = decorators.size(); i-- > 0;) {
        f.line = def->decorators[i]->span.line;  // CPython blames the decorator's line
        result = I.call(decorators[i], {result});
    }
    return result;
}

Value Evaluator::callFunction(FunctionObject& fn, CallArgs& args) {
    const CodeInfo& code = *fn.code;
    Frame fr;
    fr.unit = fn.unit;
    fr.code = &code;
    fr.func = &fn;
    fr.globals = fn.globals.get();
    fr.line = code.firstLine;
    fr.fast.resize(code.varNames.size());
    ParamLayout layout{fn.qualname,      code.varNames.data(), code.posOnlyCount, code.posCount,
                       code.kwOnlyCount, code.hasVarArgs,      code.hasVarKw};
    bindArguments(I, layout, args, fn.defaults, fn.kwDefaults, fr.fast.data());
    fr.cells.reserve(code.cellNames.size() + fn.closure.size());
    for (std::size_t i = 0; i < code.cellNames.size(); ++i) {
        auto cell = I.make<CellObject>(I.types().cell.get());
        if (code.cellParam[i] >= 0) {
            cell->value = std::move(fr.fast[static_cast<std::size_t>(code.cellParam[i])]);
        }
        fr.cells.push_back(std::move(cell));
    }
    for (const Ref<CellObject>& c : fn.closure) {
        fr.cells.push_back(c);
    }
    FrameGuard guard(*this, fr);
    try {
        if (fn.lambda) {
            return eval(*fn.lambda->body, fr);
        }
        Flow fl = execBlock(fn.def->body, fr);
        return fl == Flow::Return ? fr.retval : Value::none();
    } catch (PyError& e) {
        noteTraceback(e, fr);
        throw;
    }
}

Value Evaluator::zeroArgSuper() {
    Frame* fr = top;
    if (!fr || !fr->code || fr->code->paramCount() == 0) {
        throw PyError(Exc::RuntimeError, "super(): no arguments");
    }
    const CodeInfo& code = *fr->code;
    if (code.classFreeVar < 0) {
        throw PyError(Exc::RuntimeError, "super(): __class__ cell not found");
    }
    Value cls = fr->cells[static_cast<std::size_t>(code.classFreeVar)]->value;
    auto* type = cls.as<Type>();
    if (!type) {
        throw PyError(Exc::RuntimeError, "super(): empty __class__ cell");
    }
    Value obj;
    int cellOfFirst = -1;
    for (std::size_t i = 0; i < code.cellParam.size(); ++i) {
        if (code.cellParam[i] == 0) {
            cellOfFirst = static_cast<int>(i);
        }
    }
    if (code.posCount == 0 && code.hasVarArgs) {
        const Value& va = fr->fast[static_cast<std::size_t>(code.posCount + code.kwOnlyCount)];
        if (const auto* t = va.as<TupleObject>(); t && !t->items.empty()) {
            obj = t->items[0];
        }
    } else {
        obj = cellOfFirst >= 0 ? fr->cells[static_cast<std::size_t>(cellOfFirst)]->value
                               : fr->fast[0];
    }
    if (obj.isNull()) {
        throw PyError(Exc::RuntimeError, "super(): arg[0] deleted");
    }
    Type* objType = I.typeOf(obj);
    if (auto* t = obj.as<Type>(); t && t->isSubtypeOf(type)) {
        objType = t;
    }
    if (!objType->isSubtypeOf(type)) {
        throw PyError(Exc::TypeError,
                      "super(type, obj): obj must be an instance or subtype of type");
    }
    return Value(
        I.make<SuperObject>(I.types().super.get(), Ref<Type>(type), obj, Ref<Type>(objType)));
}

Value Evaluator::makeClass(const ClassDef& c, Frame& f) {
    std::vector<Value> decorators;
    for (const ExprPtr& d : c.decorators) {
        decorators.push_back(eval(*d, f));
    }
    std::vector<Value> baseValues;
    evalElements(c.bases, f, baseValues);
    std::vector<Ref<Type>> bases;
    for (const Value& b : baseValues) {
        auto* t = b.as<Type>();
        if (!t) {
            throw PyError(Exc::TypeError, "bases must be classes, not " + I.typeName(b) +
                                              " (irscope supports no metaclasses)");
        }
        bases.emplace_back(t);
    }
    for (const Keyword& k : c.keywords) {
        Value v = eval(*k.value, f);
        if (k.arg == "metaclass") {
            if (!v.identical(Value(I.types().type))) {
                throw PyError(Exc::TypeError,
                              "irscope: metaclasses other than type are not supported");
            }
            continue;
        }
        throw PyError(Exc::TypeError, c.name + ".__init_subclass__() takes no keyword arguments");
    }
    const CodeInfo* code = f.unit->codeOf(&c);
    Ref<DictObject> ns = I.newDict();
    Value moduleName = f.globals->getStr("__name__");
    ns->setStr(I.intern("__module__"),
               moduleName.isNull() ? Value(I.newStr("__main__")) : moduleName);
    ns->setStr(I.intern("__qualname__"), Value(I.newStr(code->qualname)));
    if (!c.body.empty() && c.body[0]->kind == StmtKind::Expr) {
        const auto* doc = c.body[0]->cast<ExprStmt>().value->as<Constant>();
        if (doc && doc->type == Constant::Type::Str) {
            ns->setStr(I.intern("__doc__"), Value(I.newStr(doc->strValue)));
        }
    }
    Frame cf;
    initNestedFrame(cf, code, f);
    cf.ns = ns.get();
    {
        FrameGuard guard(*this, cf);
        try {
            execBlock(c.body, cf);
        } catch (PyError& e) {
            noteTraceback(e, cf);
            throw;
        }
    }
    f.line = c.span.line;
    std::string module =
        moduleName.is<StrObject>() ? moduleName.as<StrObject>()->value : "__main__";
    Ref<Type> cls = I.newClass(c.name, std::move(bases), ns, module);
    cls->classDef = &c;
    cls->unit = f.unit;
    if (code->classCell >= 0) {
        cf.cells[static_cast<std::size_t>(code->classCell)]->value = Value(cls);
    }
    Value result(cls);
    for (std::size_t i = decorators.size(); i-- > 0;) {
        f.line = c.decorators[i]->span.line;
        result = I.call(decorators[i], {result});
    }
    return result;
}

// --- comprehensions -----------------------------------------------------------------------------

namespace {

const std::vector<Comprehension>& generatorsOf(const Expr& e) {
    switch (e.kind) {
        case ExprKind::ListComp:
            return e.cast<ListComp>().generators;
        case ExprKind::SetComp:
            return e.cast<SetComp>().generators;
        case ExprKind::DictComp:
            return e.cast<DictComp>().generators;
        default:
            return e.cast<GeneratorExp>().generators;
    }
}

}  // namespace

Value Evaluator::comprehension(const Expr& e, Frame& f) {
    const auto& gens = generatorsOf(e);
    Value first = I.iter(eval(*gens[0].iter, f));
    Frame cf;
    initNestedFrame(cf, f.unit->codeOf(&e), f);
    Ref<ListObject> list;
    Ref<SetObject> set;
    Ref<DictObject> dict;
    if (e.kind == ExprKind::ListComp) {
        list = I.newList();
    } else if (e.kind == ExprKind::SetComp) {
        set = I.newSet();
    } else {
        dict = I.newDict();
    }
    // The loops, innermost last; iterators are kept on an explicit stack.
    std::vector<Value> iters{first};
    FrameGuard guard(*this, cf);
    try {
        while (!iters.empty()) {
            std::size_t level = iters.size() - 1;
            Value item;
            cf.line = e.span.line;
            if (!I.next(iters[level], item)) {
                iters.pop_back();
                continue;
            }
            I.step();
            assign(*gens[level].target, item, cf);
            bool ok = true;
            for (const ExprPtr& cond : gens[level].ifs) {
                if (!I.truthy(eval(*cond, cf))) {
                    ok = false;
                    break;
                }
            }
            if (!ok) {
                continue;
            }
            if (level + 1 < gens.size()) {
                iters.push_back(I.iter(eval(*gens[level + 1].iter, cf)));
                continue;
            }
            if (list) {
                list->items.push_back(eval(*e.cast<ListComp>().elt, cf));
            } else if (set) {
                set->add(I, eval(*e.cast<SetComp>().elt, cf));
            } else {
                const auto& dc = e.cast<DictComp>();
                Value k = eval(*dc.key, cf);
                Value v = eval(*dc.value, cf);
                dict->set(I, k, v);
            }
        }
    } catch (PyError& ex) {
        noteTraceback(ex, cf);
        throw;
    }
    if (list) {
        return Value(list);
    }
    return set ? Value(set) : Value(dict);
}

namespace {

// A generator expression: runs lazily, one item per next().
class GeneratorObject : public NativeIterator {
public:
    GeneratorObject(Type* t, Evaluator& ev, const GeneratorExp& node)
        : NativeIterator(t), ev_(&ev), node_(&node) {}

    std::unique_ptr<Frame> frame;
    Ref<DictObject> globals;  // keeps the frame's globals alive
    std::vector<Value> iters;

    bool next(Interpreter& I, Value& out) override {
        if (done_) {
            return false;
        }
        if (running_) {
            throw PyError(Exc::ValueError, "generator already executing");
        }
        running_ = true;
        Ref<Object> keep(this);
        Frame& cf = *frame;
        const auto& gens = node_->generators;
        try {
            FrameGuard guard(*ev_, cf);
            try {
                while (!iters.empty()) {
                    std::size_t level = iters.size() - 1;
                    Value item;
                    cf.line = node_->span.line;
                    if (!I.next(iters[level], item)) {
                        iters.pop_back();
                        continue;
                    }
                    I.step();
                    ev_->assign(*gens[level].target, item, cf);
                    bool ok = true;
                    for (const ExprPtr& cond : gens[level].ifs) {
                        if (!I.truthy(ev_->eval(*cond, cf))) {
                            ok = false;
                            break;
                        }
                    }
                    if (!ok) {
                        continue;
                    }
                    if (level + 1 < gens.size()) {
                        iters.push_back(I.iter(ev_->eval(*gens[level + 1].iter, cf)));
                        continue;
                    }
                    out = ev_->eval(*node_->elt, cf);
                    running_ = false;
                    return true;
                }
            } catch (PyError& e) {
                ev_->noteTraceback(e, cf);
                throw;
            }
        } catch (PyError& e) {
            running_ = false;
            done_ = true;
            Value exc = I.exceptionOf(e);
            if (I.isInstance(exc, Exc::StopIteration)) {  // PEP 479
                PyError re(Exc::RuntimeError, "generator raised StopIteration");
                Value rexc = I.exceptionOf(re);
                rexc.as<ExceptionObject>()->cause = exc;
                rexc.as<ExceptionObject>()->context = exc;
                rexc.as<ExceptionObject>()->suppressContext = true;
                throw re;
            }
            throw;
        } catch (...) {
            running_ = false;
            done_ = true;
            throw;
        }
        running_ = false;
        done_ = true;
        frame.reset();
        return false;
    }

    void clearRefs() override {
        frame.reset();
        globals.reset();
        iters.clear();
        NativeIterator::clearRefs();
    }

private:
    Evaluator* ev_;
    const GeneratorExp* node_;
    bool done_ = false;
    bool running_ = false;
};

}  // namespace

Value Evaluator::generator(const GeneratorExp& g, Frame& f) {
    Value first = I.iter(eval(*g.generators[0].iter, f));
    auto gen = I.make<GeneratorObject>(I.iteratorType("generator"), *this, g);
    gen->frame = std::make_unique<Frame>();
    initNestedFrame(*gen->frame, f.unit->codeOf(&g), f);
    gen->globals = Ref<DictObject>(f.globals);
    gen->iters.push_back(first);
    return Value(gen);
}

}  // namespace irscope::interp
