// Helpers for writing native (C++) modules, classes and functions.
//
// A native module is a ModuleInit registered under its dotted name:
//
//   I.registerModule("mindspore.nn", [](Interpreter& I, ModuleObject& m) {
//       Ref<Type> cell = ClassBuilder(I, "Cell", "mindspore.nn")
//           .layout<CellObject>()                       // instances are CellObject (native state)
//           .method("__init__", cellInit)               // super().__init__(auto_prefix=False)
//           .method("__setattr__", cellSetAttr)         // registers Parameters / sub-cells
//           .method("__call__", cellCall)               // net(x): run or compile construct
//           .property("training", getTraining, setTraining)
//           .build();
//       addToModule(I, m, "Cell", cell);
//   });
//
// Script classes deriving from a native class (`class Net(nn.Cell)`) get the native layout
// (their instances are CellObject, plus a __dict__) and inherit the native methods; a script
// method of the same name overrides them, and super() reaches them. Native dunder methods
// are looked up exactly like script ones: __setattr__/__getattr__ hooks, __call__, operators
// (__add__/__radd__ ... return I.notImplemented() for operands they do not handle, so
// `2 * x` and `x + 1.0` work both ways), __getitem__, __len__, __iter__, __repr__/__str__,
// __eq__/__lt__..., __hash__, __bool__, __enter__/__exit__. Hooks fall back to the default
// behaviour with Interpreter::genericGetAttr / genericSetAttr.
//
// Arguments: bind with a Signature for Python's rules and messages:
//
//   static const Signature sig = Signature("Dense").arg("self").arg("in_channels")
//       .arg("out_channels").arg("has_bias", Value::boolean(true)).kwOnly("dtype", Value());
//   std::vector<Value> a = sig.bind(I, args);   // a[3] is the bool, a[4] Null if not passed
#pragma once

#include <string>
#include <vector>

#include "frontend/interp/interpreter.h"

namespace irscope::interp {

// A parameter list for the binder. `names` holds the parameters in binding order:
// positional ones (positional-only first), keyword-only ones, then *args, then **kwargs.
struct ParamLayout {
    std::string_view funcName;  // for messages: "f", "Net.__init__"
    const std::string* names = nullptr;
    int posOnly = 0;
    int pos = 0;  // positional parameters, positional-only included
    int kwOnly = 0;
    bool varArgs = false;
    bool varKw = false;
};

// Binds a call's arguments with Python's rules and error messages, writing one Value per
// parameter (binding order) into `out`. `defaults` are for the last defaults.size()
// positional parameters; `kwDefaults` parallel to the keyword-only ones (Null: required,
// unless `kwOptional` marks it optional, then it stays Null).
void bindArguments(Interpreter& I, const ParamLayout& p, const CallArgs& args,
                   const std::vector<Value>& defaults, const std::vector<Value>& kwDefaults,
                   Value* out, const std::vector<bool>* kwOptional = nullptr);

// A native function's parameters, declared in Python order: positional ones, *args,
// keyword-only ones, **kwargs.
class Signature {
public:
    explicit Signature(std::string funcName) : name_(std::move(funcName)) {}
    Signature& arg(std::string name);               // required
    Signature& arg(std::string name, Value dflt);   // default (Null: optional, Null if absent)
    Signature& positionalOnly();                    // the `/`: everything declared so far
    Signature& varArgs(std::string name = "args");  // bound to a tuple
    Signature& kwOnly(std::string name);            // required keyword-only
    Signature& kwOnly(std::string name, Value dflt);
    Signature& varKw(std::string name = "kwargs");  // bound to a dict
    // One Value per declared parameter, in declaration order.
    std::vector<Value> bind(Interpreter& I, CallArgs& args) const;
    const std::string& name() const { return name_; }

private:
    struct Param {
        std::string name;
        Value dflt;
        bool required = true;
    };
    std::string name_;
    std::vector<Param> pos_, kwOnly_;
    int posOnly_ = 0;
    std::string varArgs_, varKw_;
    bool hasVarArgs_ = false, hasVarKw_ = false;
};

// Defines a native class (see the file comment).
class ClassBuilder {
public:
    ClassBuilder(Interpreter& I, std::string name, std::string module,
                 std::vector<Ref<Type>> bases = {});
    ClassBuilder& method(std::string name, NativeFn fn);
    ClassBuilder& staticMethod(std::string name, NativeFn fn);
    ClassBuilder& classMethod(std::string name, NativeFn fn);
    ClassBuilder& property(std::string name, NativeGetter get, NativeSetter set = nullptr);
    ClassBuilder& attr(std::string name, Value v);
    // Instances are T, constructed as T(Type* cls); T derives from Object (ObjKind::Native).
    template <class T>
    ClassBuilder& layout() {
        return alloc(
            [](Interpreter& I, Type* cls, CallArgs&) { return Ref<Object>(I.make<T>(cls)); });
    }
    ClassBuilder& alloc(AllocFn f);
    // Calling the class runs f instead of __new__/__init__ (not inherited by subclasses).
    ClassBuilder& construct(ConstructFn f);
    ClassBuilder& subclassable(bool b);
    ClassBuilder& instanceDict(bool b);
    ClassBuilder& immutable(bool b);  // default true: scripts cannot set class attributes
    Ref<Type> build();

private:
    Interpreter& I_;
    std::string name_, module_;
    std::vector<Ref<Type>> bases_;
    Ref<DictObject> ns_;
    AllocFn alloc_;
    ConstructFn construct_;
    bool subclassable_ = true, instanceDict_ = true, immutable_ = true;
};

// Module namespace helpers.
void addToModule(Interpreter& I, ModuleObject& m, std::string_view name, const Value& v);
Ref<NativeFunctionObject> addFunction(Interpreter& I, ModuleObject& m, std::string name,
                                      NativeFn fn);

// Argument conversions with Python's messages ("must be real number, not str").
double toDouble(Interpreter& I, const Value& v);
const std::string& toStr(Interpreter& I, const Value& v, std::string_view what = "argument");
// The positional or keyword argument `index`/`name`, or Null.
Value argAt(const CallArgs& a, std::size_t index, std::string_view name);

}  // namespace irscope::interp
