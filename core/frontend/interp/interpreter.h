// The host interpreter: runs a network script's module-level code (a Python subset) the way
// CPython would, with no file, network or process access.
//
//   Interpreter I;
//   I.setOutputSink([](std::string_view s) { std::cout << s; });
//   I.registerModule("mindspore", initMindSpore);     // native modules (see native.h)
//   RunResult r = I.runScript(source, "net.py");       // r.exitStatus 0 or 1, r.error
//
// The same object is the context every native function receives: it creates objects, runs
// Python protocols (call, getattr, +, repr, iteration...) with Python's semantics and error
// messages, and owns the heap (see object.h for the object model and its lifetime rules).
//
// Threads: one interpreter runs one script at a time. runScript executes on a thread of its
// own with a large stack (Limits::stackBytes) and blocks until it ends; the sinks and all
// native code are called on that thread. A run stops when the std::stop_source of the token
// given to setStopToken() is asked to stop (from any thread). After a
// run, the host may call script functions with call() (on its own thread; the step budget
// and stop token apply as in a run, so call() may also throw ScriptAborted) but never
// concurrently with a run. Never destroy the interpreter while a run is in progress.
//
// Every interpreter has the pure modules math, typing and functools; anything else must be
// registered. README.md in this folder maps the files and the extension points.
//
// What is not Python: ints are int64 (OverflowError beyond), generator expressions are lazy
// but `yield` does not exist, annotations are not evaluated, `__dict__` of an object is its
// live attribute dict but of a class a copy, no metaclasses other than `type`, builtin
// immutable types (int, float, str, tuple, bool) cannot be subclassed, cycles are collected
// only when the interpreter is destroyed, tracebacks show source lines without carets.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <stop_token>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "frontend/ast.h"
#include "frontend/interp/errors.h"
#include "frontend/interp/object.h"
#include "frontend/interp/objects.h"
#include "frontend/interp/scope.h"

namespace irscope::interp {

class Evaluator;

struct Limits {
    // Statements executed plus loop iterations; 0 means no limit.
    std::uint64_t maxSteps = 50'000'000;
    // Nested Python calls before RecursionError (CPython's default).
    int maxRecursion = 1000;
    // Stack of the thread runScript runs on; 0 runs on the calling thread instead.
    std::size_t stackBytes = std::size_t{256} << 20;
};

struct RunResult {
    enum class Status : std::uint8_t {
        Ok,           // the script ran to its end (or raised SystemExit(0))
        Exception,    // an uncaught Python exception (error: the traceback)
        SyntaxError,  // the script did not parse (error: file:line:col diagnostic)
        StepLimit,    // Limits::maxSteps was exceeded
        Cancelled,    // the stop token was asked to stop
        SystemExit,   // SystemExit with a non-zero status
    };
    int exitStatus = 0;  // 0 on success, 1 on any error (or SystemExit's code)
    Status status = Status::Ok;
    std::string error;  // what was written to the error sink
};

using OutputSink = std::function<void(std::string_view text)>;
// Fills a native module's namespace (m.dict()) when it is first imported.
using ModuleInit = std::function<void(Interpreter& I, ModuleObject& m)>;

// The builtin classes of one interpreter.
struct BuiltinTypes {
    Ref<Type> type, object, noneType, notImplementedType, ellipsisType;
    Ref<Type> boolType, intType, floatType, complexType, str, tuple, list, dict, set;
    Ref<Type> range, slice, function, boundMethod, builtinFunction, cell, module;
    Ref<Type> property, staticMethod, classMethod, super, getSetDescriptor;
    Ref<Type> dictKeys, dictValues, dictItems;
    Ref<Type> exc[static_cast<int>(Exc::Count)];
    Type* exception(Exc e) const { return exc[static_cast<int>(e)].get(); }
};

// Where the innermost running script frame is.
struct Location {
    std::shared_ptr<const ScriptUnit> unit;
    int line = 0;
    std::string function;
};

class Interpreter {
public:
    Interpreter();
    ~Interpreter();
    Interpreter(const Interpreter&) = delete;
    Interpreter& operator=(const Interpreter&) = delete;

    // --- configuration ------------------------------------------------------------------------
    void setOutputSink(OutputSink s) { out_ = std::move(s); }  // print(); default: discard
    void setErrorSink(OutputSink s) { err_ = std::move(s); }   // tracebacks; default: discard
    void writeOutput(std::string_view s) const {
        if (out_) {
            out_(s);
        }
    }
    // Writes to the error sink (tracebacks, MindSpore's log warnings).
    void writeError(std::string_view s) const {
        if (err_) {
            err_(s);
        }
    }
    Limits& limits() { return limits_; }
    // Cancellation: request_stop() on the token's std::stop_source (from any thread) stops
    // the running script (RunResult::Status::Cancelled) at its next step. Set it before a
    // run (not during one); the compiler, its passes and the executor take the same token.
    void setStopToken(std::stop_token token) { stop_ = std::move(token); }
    const std::stop_token& stopToken() const { return stop_; }
    bool cancelRequested() const { return stop_.stop_requested(); }
    // For long native work: throws ScriptAborted when a stop was requested.
    void checkCancel();

    // --- running ------------------------------------------------------------------------------
    RunResult runScript(std::string source, std::string fileName);
    // Counts one step (statement or loop iteration); stops the run past the budget or on cancel.
    void step() {
        if (++steps_ > stepBudget_ || stop_.stop_requested()) {
            stepLimitReached();
        }
        if ((steps_ & 1023) == 0) {
            progress_.store(steps_, std::memory_order_relaxed);
        }
    }
    // Steps taken by the current (or last) run, to within 1024; safe from any thread.
    std::uint64_t stepsTaken() const { return progress_.load(std::memory_order_relaxed); }
    Location currentLocation() const;
    // The line of the innermost running frame of the file `fileName` (the frame that called
    // into library code defined elsewhere), or 0 when no frame of that file is running.
    int currentLineIn(std::string_view fileName) const;
    // The last script's module (`__main__`): its dict holds the script's globals. Null
    // before the first run.
    ModuleObject* mainModule() const;

    // --- modules ------------------------------------------------------------------------------
    // `import name`, `from name import x` find native modules here ("mindspore",
    // "mindspore.nn"). Importing "a.b" imports "a" first and sets b as its attribute.
    void registerModule(std::string name, ModuleInit init);
    bool hasModule(std::string_view name) const { return registry_.count(std::string(name)) > 0; }
    // Imports (once) and returns a registered module; ModuleNotFoundError otherwise.
    Ref<ModuleObject> importModule(std::string_view dottedName);
    DictObject& builtins() { return *builtins_->dict(); }
    ModuleObject& builtinsModule() { return *builtins_; }

    // --- objects ------------------------------------------------------------------------------
    template <class T, class... A>
    Ref<T> make(A&&... args) {
        return heap_.adopt(new T(std::forward<A>(args)...));
    }
    Heap& heap() { return heap_; }
    const BuiltinTypes& types() const { return types_; }
    // Call after changing a class's __dict__ directly from C++ (attribute hooks are cached).
    void typesChanged() { ++typeEpoch_; }
    std::uint64_t typeEpoch() const { return typeEpoch_; }

    Ref<StrObject> newStr(std::string s);
    // One shared str per distinct text (identifiers, attribute names).
    const Ref<StrObject>& intern(std::string_view s);
    Ref<TupleObject> newTuple(std::vector<Value> items);
    Ref<ListObject> newList(std::vector<Value> items = {});
    Ref<DictObject> newDict();
    Ref<SetObject> newSet();
    Ref<NativeFunctionObject> newNative(std::string name, NativeFn fn);
    Ref<ExceptionObject> newException(Type* cls, std::string message);
    // A class, as a class statement makes it: C3 MRO, layout from the nearest native base,
    // `ns` becomes its __dict__ (TypeError for bad bases).
    Ref<Type> newClass(std::string name, std::vector<Ref<Type>> bases, Ref<DictObject> ns,
                       std::string module);
    Value notImplemented() const { return notImplemented_; }
    Value ellipsis() const { return ellipsis_; }
    // A type for a NativeIterator subclass ("list_iterator", "tensor_iterator"), made once.
    Type* iteratorType(const std::string& name);

    // --- protocols (Python semantics; errors are PyError) ------------------------------------
    Type* typeOf(const Value& v) const;
    std::string typeName(const Value& v) const;  // type(v).__name__
    bool isInstance(const Value& v, const Type* t) const { return typeOf(v)->isSubtypeOf(t); }
    bool isInstance(const Value& v, Exc e) const { return isInstance(v, types_.exception(e)); }

    Value call(const Value& f, CallArgs args);
    Value call(const Value& f, std::initializer_list<Value> args) {
        return call(f, CallArgs(args));
    }
    Value callMethod(const Value& obj, std::string_view name, CallArgs args = {});
    bool callable(const Value& v) const;

    Value getAttr(const Value& obj, std::string_view name);
    Value getAttr(const Value& obj, const Ref<StrObject>& name);
    // getattr that returns Null instead of raising AttributeError (other errors propagate).
    Value getAttrOrNull(const Value& obj, std::string_view name);
    void setAttr(const Value& obj, std::string_view name, const Value& v);
    void delAttr(const Value& obj, std::string_view name);
    // object.__getattribute__ / __setattr__ / __delattr__: descriptors and the instance dict,
    // for native __getattr__/__setattr__ hooks that fall back to the default. getattr returns
    // Null when not found.
    Value genericGetAttr(const Value& obj, const Ref<StrObject>& name);
    void genericSetAttr(const Value& obj, const Ref<StrObject>& name, const Value& v);
    void genericDelAttr(const Value& obj, const Ref<StrObject>& name);
    // A class attribute as seen through `obj` (functions bound, staticmethods unwrapped).
    Value bindDescriptor(const Value& attr, const Value& obj, Type* objType);

    Value getItem(const Value& obj, const Value& key);
    void setItem(const Value& obj, const Value& key, const Value& v);
    void delItem(const Value& obj, const Value& key);

    Value binaryOp(ast::Operator op, const Value& a, const Value& b);
    Value inplaceOp(ast::Operator op, const Value& a, const Value& b);  // a op= b
    Value unaryOp(ast::UnaryOperator op, const Value& a);
    Value compare(ast::CmpOperator op, const Value& a, const Value& b);
    bool eq(const Value& a, const Value& b);
    bool lessThan(const Value& a, const Value& b);
    bool contains(const Value& container, const Value& item);  // `item in container`
    bool truthy(const Value& v);
    std::int64_t hash(const Value& v);
    std::int64_t len(const Value& v);
    // An int argument (bool included; __index__ on objects), for sizes and indices.
    std::int64_t toIndex(const Value& v);

    std::string repr(const Value& v);
    std::string str(const Value& v);
    std::string format(const Value& v, std::string_view spec);

    Value iter(const Value& v);
    bool next(const Value& iterator, Value& out);  // false when exhausted
    std::vector<Value> toVector(const Value& iterable);

    // --- exceptions ---------------------------------------------------------------------------
    // The exception object a PyError carries (made on first use).
    Value exceptionOf(PyError& e);
    // Python's "Traceback (most recent call last):" text for an exception object, with its
    // __cause__ / __context__ chain.
    std::string formatTraceback(const Value& exc);
    // "ValueError: message" (the traceback's last line).
    std::string formatExceptionOnly(const Value& exc);

private:
    friend class Evaluator;
    void setUpTypes();
    void setUpBuiltins();
    void stepLimitReached();
    RunResult runOnThisThread(const std::string& source, const std::string& fileName);
    Value callOutsideRun(const Value& f, CallArgs& args);
    Value callType(Type* t, CallArgs& args);
    Value typeGetAttr(Type* t, const Ref<StrObject>& name);
    void typeSetAttr(Type* t, const Ref<StrObject>& name, const Value& v);
    const Type::HookCache& hooksOf(Type* t);
    Value getAttrImpl(const Value& obj, const Ref<StrObject>& name);
    Value superGetAttr(SuperObject& s, const Ref<StrObject>& name);
    Ref<Type> builtinType(const char* name, Type* base, bool subclassable);
    void setUpObjectMethods();
    void setUpTypeMethods();
    friend void setUpTypeConstructors(Interpreter& I);
    friend void setUpBuiltinFunctions(Interpreter& I);
    friend void setUpComplex(Interpreter& I);
    friend void setUpExceptionTypes(Interpreter& I, BuiltinTypes& t);

    Heap heap_;  // destroyed last: everything below holds Values
    OutputSink out_, err_;
    Limits limits_;
    std::stop_token stop_;
    std::uint64_t steps_ = 0;
    std::atomic<std::uint64_t> progress_{0};
    std::uint64_t stepBudget_ = ~std::uint64_t{0};
    std::uint64_t typeEpoch_ = 1;
    bool active_ = false;  // a run (or a host call) is executing on some thread
    BuiltinTypes types_;
    Value notImplemented_, ellipsis_;
    // object's own methods, to recognise "not overridden".
    Value objectInit_, objectNew_, objectGetattribute_, objectSetattr_, objectDelattr_;
    Ref<ModuleObject> builtins_;
    std::unordered_map<std::string, Ref<StrObject>> interned_;
    std::unordered_map<std::string, Ref<Type>> iteratorTypes_;
    std::map<std::string, ModuleInit> registry_;
    std::unordered_map<std::string, Ref<ModuleObject>> modules_;  // imported (sys.modules)
    std::unique_ptr<Evaluator> eval_;
};

}  // namespace irscope::interp
