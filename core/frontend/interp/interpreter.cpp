// Interpreter: construction, running a script (on a large-stack thread), limits, the native
// module registry and imports, object factories.
#include "frontend/interp/interpreter.h"

#include <pthread.h>

#include <cstring>

#include "frontend/interp/evaluator.h"
#include "frontend/interp/interp_internal.h"
#include "frontend/parser.h"

namespace irscope::interp {

Interpreter::Interpreter() {
    setUpTypes();
    eval_ = std::make_unique<Evaluator>(*this);
    setUpBuiltins();
    registerStandardModules(*this);
}

Interpreter::~Interpreter() {
    eval_.reset();
    modules_.clear();
    registry_.clear();
    heap_.clearAll();
}

// --- running ----------------------------------------------------------------------------------

namespace {

struct ThreadJob {
    std::function<RunResult()> run;
    RunResult result;
};

void* threadMain(void* p) {
    auto* job = static_cast<ThreadJob*>(p);
    try {
        job->result = job->run();
    } catch (const std::exception& e) {  // never let an exception end the process here
        job->result.exitStatus = 1;
        job->result.status = RunResult::Status::Exception;
        job->result.error = std::string("irscope: internal error: ") + e.what() + "\n";
    } catch (...) {
        job->result.exitStatus = 1;
        job->result.status = RunResult::Status::Exception;
        job->result.error = "irscope: internal error\n";
    }
    return nullptr;
}

// The lowest usable address of the current thread's stack, plus a safety margin.
const char* stackLimitOfThisThread() {
    pthread_attr_t attr;
    void* addr = nullptr;
    std::size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        pthread_attr_getstack(&attr, &addr, &size);
        pthread_attr_destroy(&attr);
    }
    if (addr == nullptr || size == 0) {
        return nullptr;
    }
    std::size_t margin = std::min<std::size_t>(size / 4, std::size_t{512} << 10);
    return static_cast<const char*>(addr) + margin;
}

}  // namespace

RunResult Interpreter::runScript(std::string source, std::string fileName) {
    // A stop requested before the run stops it at its first step (a UI may cancel before
    // its worker thread got here); the next run starts afresh with the token set then.
    if (limits_.stackBytes == 0) {
        return runOnThisThread(source, fileName);
    }
    ThreadJob job{[&] { return runOnThisThread(source, fileName); }, {}};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr,
                              std::max<std::size_t>(limits_.stackBytes, std::size_t{1} << 20));
    pthread_t thread;
    int rc = pthread_create(&thread, &attr, threadMain, &job);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        return runOnThisThread(source, fileName);  // no thread: run here, with the guard
    }
    pthread_join(thread, nullptr);
    return job.result;
}

RunResult Interpreter::runOnThisThread(const std::string& source, const std::string& fileName) {
    RunResult r;
    steps_ = 0;
    progress_.store(0, std::memory_order_relaxed);
    stepBudget_ = limits_.maxSteps ? limits_.maxSteps : ~std::uint64_t{0};
    eval_->setStackLimit(stackLimitOfThisThread());
    active_ = true;
    struct Inactive {
        bool& flag;
        ~Inactive() { flag = false; }
    } inactive{active_};
    auto fail = [&](RunResult::Status st, std::string text) {
        r.status = st;
        r.exitStatus = 1;
        r.error = std::move(text);
        if (!r.error.empty() && r.error.back() != '\n') {
            r.error += '\n';
        }
    };
    std::shared_ptr<ScriptUnit> unit;
    try {
        unit = analyzeScopes(frontend::parseModule(source, fileName));
    } catch (const frontend::SyntaxError& e) {
        fail(RunResult::Status::SyntaxError, e.what());
    }
    if (unit) {
        Ref<ModuleObject> main = make<ModuleObject>(types_.module.get(), "__main__");
        main->setDict(newDict().get());
        main->dict()->setStr(intern("__name__"), Value(newStr("__main__")));
        main->dict()->setStr(intern("__file__"), Value(newStr(fileName)));
        main->dict()->setStr(intern("__doc__"), Value::none());
        main->dict()->setStr(intern("__builtins__"), Value(builtins_));
        modules_["__main__"] = main;
        try {
            try {
                eval_->runModule(unit, *main);
            } catch (const std::bad_alloc&) {
                throw PyError(Exc::MemoryError, "");
            }
        } catch (PyError& e) {
            Value exc = exceptionOf(e);
            if (isInstance(exc, Exc::SystemExit)) {
                auto* ex = exc.as<ExceptionObject>();
                const auto& args = ex->args.as<TupleObject>()->items;
                Value code = args.empty() ? Value::none() : args[0];
                if (code.isNone()) {
                    r.exitStatus = 0;
                } else if (code.isIntLike()) {
                    r.exitStatus = static_cast<int>(code.intLike());
                } else {
                    r.error = str(code) + "\n";
                    r.exitStatus = 1;
                }
                r.status =
                    r.exitStatus == 0 ? RunResult::Status::Ok : RunResult::Status::SystemExit;
            } else {
                std::string text;
                try {
                    text = formatTraceback(exc);
                } catch (...) {
                    text = std::string(e.what()) + "\n";
                }
                fail(RunResult::Status::Exception, text);
            }
        } catch (const ScriptAborted& e) {
            fail(e.reason == ScriptAborted::Reason::Cancelled ? RunResult::Status::Cancelled
                                                              : RunResult::Status::StepLimit,
                 e.what());
        } catch (const std::exception& e) {
            fail(RunResult::Status::Exception, std::string("irscope: internal error: ") + e.what());
        }
        eval_->top = nullptr;
        eval_->depth = 0;
        eval_->handling.clear();
    }
    if (!r.error.empty() && err_) {
        err_(r.error);
    }
    return r;
}

ModuleObject* Interpreter::mainModule() const {
    auto it = modules_.find("__main__");
    return it == modules_.end() ? nullptr : it->second.get();
}

// A call from the host between runs: give it this thread's stack guard and a fresh budget.
Value Interpreter::callOutsideRun(const Value& f, CallArgs& args) {
    active_ = true;
    struct Restore {
        Interpreter& I;
        ~Restore() {
            I.active_ = false;
            I.eval_->setStackLimit(nullptr);
        }
    } restore{*this};
    steps_ = 0;
    stepBudget_ = limits_.maxSteps ? limits_.maxSteps : ~std::uint64_t{0};
    eval_->setStackLimit(stackLimitOfThisThread());
    return call(f, std::move(args));
}

void Interpreter::checkCancel() {
    if (cancelRequested()) {
        stepLimitReached();
    }
}

Location Interpreter::currentLocation() const {
    Location loc;
    if (Frame* f = eval_->top) {
        loc.unit = f->unit;
        loc.line = f->line;
        loc.function = f->code ? f->code->name : std::string();
    }
    return loc;
}

int Interpreter::currentLineIn(std::string_view fileName) const {
    for (Frame* f = eval_->top; f; f = f->back) {
        if (f->unit && f->unit->fileName() == fileName) {
            return f->line;
        }
    }
    return 0;
}

void Interpreter::stepLimitReached() {
    // Where the script was, innermost last, like a traceback.
    std::vector<Frame*> frames;
    for (Frame* f = eval_->top; f; f = f->back) {
        frames.push_back(f);
    }
    std::string where;
    if (!frames.empty()) {
        where = "Traceback (most recent call last):\n";
        for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
            Frame* f = *it;
            where += "  File \"" + f->unit->fileName() + "\", line " + std::to_string(f->line) +
                     ", in " + f->code->name + "\n";
            std::string_view text = f->unit->module->line(f->line);
            std::size_t b = text.find_first_not_of(" \t");
            if (b != std::string_view::npos) {
                where += "    " + std::string(text.substr(b)) + "\n";
            }
        }
    }
    if (cancelRequested()) {
        throw ScriptAborted(ScriptAborted::Reason::Cancelled,
                            where + "irscope: the script was cancelled");
    }
    throw ScriptAborted(ScriptAborted::Reason::StepLimit,
                        where + "irscope: step limit exceeded: the script ran more than " +
                            std::to_string(stepBudget_) +
                            " steps (statements and loop iterations); raise the limit with "
                            "--max-steps N (Limits::maxSteps, 0 = unlimited)");
}

// --- modules ----------------------------------------------------------------------------------

void Interpreter::registerModule(std::string name, ModuleInit init) {
    registry_[std::move(name)] = std::move(init);
}

Ref<ModuleObject> Interpreter::importModule(std::string_view dottedName) {
    std::string name(dottedName);
    auto cached = modules_.find(name);
    if (cached != modules_.end()) {
        return cached->second;
    }
    Ref<ModuleObject> parent;
    std::size_t dot = name.rfind('.');
    if (dot != std::string::npos) {
        parent = importModule(std::string_view(name).substr(0, dot));
    }
    auto it = registry_.find(name);
    if (it == registry_.end()) {
        auto exc = newException(types_.exception(Exc::ModuleNotFoundError),
                                "No module named '" + name + "'");
        exc->setDict(newDict().get());
        exc->dict()->setStr(intern("name"), Value(newStr(name)));
        throw PyError(Value(exc));
    }
    Ref<ModuleObject> m = make<ModuleObject>(types_.module.get(), name);
    m->setDict(newDict().get());
    m->dict()->setStr(intern("__name__"), Value(newStr(name)));
    m->dict()->setStr(intern("__doc__"), Value::none());
    modules_[name] = m;  // before init: imports in a cycle see the partial module
    try {
        it->second(*this, *m);
    } catch (...) {
        modules_.erase(name);
        throw;
    }
    if (parent) {
        std::string leaf = name.substr(dot + 1);
        if (parent->dict()->getStr(leaf).isNull()) {
            parent->dict()->setStr(intern(leaf), Value(m));
        }
    }
    return m;
}

// --- objects ----------------------------------------------------------------------------------

Ref<StrObject> Interpreter::newStr(std::string s) {
    return make<StrObject>(types_.str.get(), std::move(s));
}

const Ref<StrObject>& Interpreter::intern(std::string_view s) {
    auto it = interned_.find(std::string(s));
    if (it != interned_.end()) {
        return it->second;
    }
    auto [pos, inserted] = interned_.emplace(std::string(s), newStr(std::string(s)));
    return pos->second;
}

Ref<TupleObject> Interpreter::newTuple(std::vector<Value> items) {
    return make<TupleObject>(types_.tuple.get(), std::move(items));
}

Ref<ListObject> Interpreter::newList(std::vector<Value> items) {
    return make<ListObject>(types_.list.get(), std::move(items));
}

Ref<DictObject> Interpreter::newDict() {
    return make<DictObject>(types_.dict.get());
}

Ref<SetObject> Interpreter::newSet() {
    return make<SetObject>(types_.set.get());
}

Ref<NativeFunctionObject> Interpreter::newNative(std::string name, NativeFn fn) {
    auto f = make<NativeFunctionObject>(types_.builtinFunction.get(), name, std::move(fn));
    f->qualname = std::move(name);
    return f;
}

Type* Interpreter::iteratorType(const std::string& name) {
    auto it = iteratorTypes_.find(name);
    if (it != iteratorTypes_.end()) {
        return it->second.get();
    }
    Ref<Type> t = ClassBuilder(*this, name, "builtins")
                      .method("__iter__", [](Interpreter&, CallArgs& a) { return a.pos.at(0); })
                      .method("__next__",
                              [](Interpreter& I, CallArgs& a) {
                                  Value out;
                                  if (!a.pos.at(0).as<NativeIterator>()->next(I, out)) {
                                      throw PyError(Exc::StopIteration, std::vector<Value>{});
                                  }
                                  return out;
                              })
                      .subclassable(false)
                      .instanceDict(false)
                      .build();
    iteratorTypes_[name] = t;
    return t.get();
}

Type* Interpreter::typeOf(const Value& v) const {
    switch (v.tag()) {
        case Value::Tag::Null:
        case Value::Tag::None:
            return types_.noneType.get();
        case Value::Tag::Bool:
            return types_.boolType.get();
        case Value::Tag::Int:
            return types_.intType.get();
        case Value::Tag::Float:
            return types_.floatType.get();
        case Value::Tag::Obj:
            return v.obj()->type();
    }
    return types_.object.get();
}

std::string Interpreter::typeName(const Value& v) const {
    return typeOf(v)->name;
}

}  // namespace irscope::interp
