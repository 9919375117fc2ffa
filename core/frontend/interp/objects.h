// The core object layouts: str, tuple, list, dict, set, type, functions, methods, modules,
// exceptions and the small helper objects (cells, ranges, slices, descriptors, iterators).
//
// Layouts are plain C++ classes deriving from Object; fields are public because native code
// (the mindspore/numpy modules, the graph builder) reads them directly. Mutating a container
// through its fields is fine as long as the container's invariants documented below hold.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/interp/object.h"

namespace irscope::ast {
struct ClassDef;
struct FunctionDef;
struct Lambda;
}  // namespace irscope::ast

namespace irscope::interp {

class Interpreter;
struct CodeInfo;
struct ScriptUnit;

// --- calls ------------------------------------------------------------------------------------

struct KwArg {
    std::string name;
    Value value;
};

// The arguments of one call after `*args` / `**kwargs` expansion.
struct CallArgs {
    std::vector<Value> pos;
    std::vector<KwArg> kw;

    CallArgs() = default;
    CallArgs(std::initializer_list<Value> p) : pos(p) {}
    explicit CallArgs(std::vector<Value> p, std::vector<KwArg> k = {})
        : pos(std::move(p)), kw(std::move(k)) {}
    // The keyword argument `name`, or Null.
    Value kwarg(std::string_view name) const {
        for (const KwArg& k : kw) {
            if (k.name == name) {
                return k.value;
            }
        }
        return {};
    }
};

// A function implemented in C++. It receives the interpreter and the arguments (for a method
// looked up on an instance, args.pos[0] is `self`). Raise Python exceptions with PyError; any
// other C++ exception is converted (see errors.h).
using NativeFn = std::function<Value(Interpreter&, CallArgs&)>;

// An instance of `object` or of a script class without a native base.
class PlainObject : public Object {
public:
    static constexpr ObjKind kKind = ObjKind::Plain;
    explicit PlainObject(Type* t) : Object(t, kKind) {}
};

// --- str, tuple, list -------------------------------------------------------------------------

// Python's hash of a str (irscope's own, stable across runs; CPython's is randomised).
std::int64_t strHash(std::string_view s);

class StrObject : public Object {
public:
    static constexpr ObjKind kKind = ObjKind::Str;
    StrObject(Type* t, std::string v) : Object(t, kKind), value(std::move(v)) {}

    const std::string value;  // UTF-8; immutable

    std::int64_t hash() const {
        if (hash_ == -1) {
            hash_ = strHash(value);
        }
        return hash_;
    }
    bool isAscii() const;
    std::size_t length() const;  // in code points

private:
    mutable std::int64_t hash_ = -1;
    mutable std::int8_t ascii_ = -1;
};

class TupleObject : public Object {
public:
    static constexpr ObjKind kKind = ObjKind::Tuple;
    TupleObject(Type* t, std::vector<Value> v) : Object(t, kKind), items(std::move(v)) {}
    std::vector<Value> items;  // never changed after the tuple is shared with Python code
    void clearRefs() override;
};

class ListObject : public Object {
public:
    static constexpr ObjKind kKind = ObjKind::List;
    ListObject(Type* t, std::vector<Value> v = {}) : Object(t, kKind), items(std::move(v)) {}
    std::vector<Value> items;
    void clearRefs() override;
};

// --- dict ---------------------------------------------------------------------------------------

// An insertion-ordered hash map with Python's key semantics (1, 1.0 and True are one key).
// Methods taking an Interpreter may run Python __hash__/__eq__ and throw PyError; the *Str
// methods never run Python code. Iterate with forEach or over entries() skipping Null keys.
class DictObject : public Object {
public:
    static constexpr ObjKind kKind = ObjKind::Dict;
    struct Entry {
        Value key;  // Null: a deleted entry
        Value value;
        std::int64_t hash = 0;
    };
    explicit DictObject(Type* t) : Object(t, kKind) {}

    std::size_t size() const { return used_; }
    bool empty() const { return used_ == 0; }

    Value get(Interpreter& I, const Value& key);  // Null when absent
    void set(Interpreter& I, const Value& key, Value value);
    bool remove(Interpreter& I, const Value& key, Value* removedValue = nullptr);
    bool contains(Interpreter& I, const Value& key) { return !get(I, key).isNull(); }

    Value getStr(std::string_view key) const;                     // Null when absent
    Value getStr(std::string_view key, std::int64_t hash) const;  // hash == strHash(key)
    void setStr(Ref<StrObject> key, Value value);
    bool removeStr(std::string_view key);

    void clear();
    // Entries in insertion order, with Null keys for deleted ones.
    const std::vector<Entry>& entries() const { return entries_; }
    template <class F>
    void forEach(F&& f) const {  // f(const Value& key, const Value& value)
        for (std::size_t i = 0; i < entries_.size(); ++i) {
            if (!entries_[i].key.isNull()) {
                Value k = entries_[i].key, v = entries_[i].value;
                f(k, v);
            }
        }
    }
    // Changes on every insertion or removal (iterators detect "changed size during iteration").
    std::uint64_t version() const { return version_; }
    void clearRefs() override;

private:
    static constexpr std::int32_t kEmpty = -1;
    static constexpr std::int32_t kDummy = -2;
    // Index slot of `key` (found: *entry >= 0) or where it would go (*entry = -1).
    std::size_t findSlot(Interpreter* I, const Value& key, std::int64_t hash, std::int32_t* entry);
    std::size_t findStrSlot(std::string_view key, std::int64_t hash, std::int32_t* entry) const;
    void insertNew(std::size_t slot, Value key, Value value, std::int64_t hash);
    void eraseAt(std::size_t slot, std::int32_t entry);
    void rebuild(std::size_t minUsed);

    std::vector<Entry> entries_;
    std::vector<std::int32_t> index_;  // power-of-two open-addressing table into entries_
    std::size_t used_ = 0;
    std::size_t deletedSlots_ = 0;
    std::uint64_t version_ = 0;
};

// --- set ----------------------------------------------------------------------------------------

// A hash set laid out like CPython's (same table sizes and probe sequence), so a set of ints
// iterates and prints in the order CPython shows.
class SetObject : public Object {
public:
    static constexpr ObjKind kKind = ObjKind::Set;
    struct Slot {
        Value key;  // Null: empty or dummy
        std::int64_t hash = 0;
        bool dummy = false;
    };
    explicit SetObject(Type* t) : Object(t, kKind) { table_.resize(8); }

    std::size_t size() const { return used_; }
    bool add(Interpreter& I, const Value& key);  // false if already present
    bool contains(Interpreter& I, const Value& key);
    bool discard(Interpreter& I, const Value& key);
    void clear();
    // Adds every element of `other` the way CPython's set_merge does (copy keeps the order).
    void mergeFrom(Interpreter& I, const SetObject& other);
    Value pop();                       // set.pop(): Null when empty
    void swapTable(SetObject& other);  // exchanges contents (CPython's set_swap_bodies)
    const std::vector<Slot>& table() const { return table_; }
    template <class F>
    void forEach(F&& f) const {  // f(const Value& key), table order
        for (std::size_t i = 0; i < table_.size(); ++i) {
            if (!table_[i].key.isNull()) {
                Value k = table_[i].key;
                f(k);
            }
        }
    }
    std::vector<Value> items() const;
    std::uint64_t version() const { return version_; }
    void clearRefs() override;

private:
    std::int64_t find(Interpreter& I, const Value& key, std::int64_t hash);  // slot or -1
    void resize(std::size_t minUsed);
    void insertClean(Value key, std::int64_t hash);

    std::vector<Slot> table_;
    std::size_t fill_ = 0;    // active + dummy
    std::size_t used_ = 0;    // active
    std::size_t finger_ = 0;  // where pop() looks first
    std::uint64_t version_ = 0;
};

// --- type ---------------------------------------------------------------------------------------

// Creates an instance of `cls` (or of a subclass of the type that defines it) with the C++
// layout of the defining type. Receives the constructor arguments (like __new__).
using AllocFn = std::function<Ref<Object>(Interpreter&, Type* cls, CallArgs&)>;
// Replaces the whole __new__/__init__ protocol when a builtin type is called: int("3").
using ConstructFn = std::function<Value(Interpreter&, Type* cls, CallArgs&)>;

// A class: builtin, native (defined in C++) or defined by a script. The class __dict__ is
// Object::dict(). See native.h (ClassBuilder) for defining native classes.
class Type : public Object {
public:
    static constexpr ObjKind kKind = ObjKind::Type;
    Type(Type* meta, std::string n);

    std::string name;      // __name__
    std::string qualname;  // __qualname__
    std::string module;    // __module__: "builtins", "__main__", "mindspore.nn"
    std::vector<Ref<Type>> bases;
    std::vector<Type*> mro;  // this type first; entries are kept alive through `bases`

    // How instances are made: set on native types with their own layout, inherited by
    // subclasses (the nearest base that has one provides it).
    AllocFn alloc;
    Type* layoutOwner = nullptr;  // the type whose `alloc` instances use
    // Builtin types: what calling the type does (not inherited).
    ConstructFn construct;
    bool immutable = false;     // setattr on the class is refused (builtin and native types)
    bool subclassable = true;   // may appear in a class statement's bases
    bool instanceDict = false;  // instances get a __dict__ for attributes set on them

    // Script classes: the class statement and its script (null/empty for others).
    const ast::ClassDef* classDef = nullptr;
    std::shared_ptr<const ScriptUnit> unit;
    // Free for native code (e.g. a compile cache or a jit_class flag).
    std::shared_ptr<void> nativeData;
    // Cached MRO lookups of the attribute hooks, valid while `epoch` matches the
    // interpreter's (Interpreter::typesChanged() invalidates them).
    struct HookCache {
        std::uint64_t epoch = 0;
        Value getattribute, getattr, setattr, delattr;
    };
    mutable HookCache hooks;

    // Looks `name` up along the MRO; Null when absent.
    Value lookup(std::string_view name) const;
    bool isSubtypeOf(const Type* other) const;
    // "module.qualname", or just the qualname for builtins.
    std::string fullName() const;
    void clearRefs() override;
};

// --- functions ----------------------------------------------------------------------------------

class CellObject : public Object {
public:
    static constexpr ObjKind kKind = ObjKind::Cell;
    explicit CellObject(Type* t, Value v = {}) : Object(t, kKind), value(std::move(v)) {}
    Value value;  // Null: empty (the variable is unbound)
    void clearRefs() override;
};

// A script function (def or lambda). Everything the graph builder needs is here: the AST,
// the scope analysis (code), the globals dict, the closure cells (parallel to
// code->freeNames), and the defaults evaluated at def time.
class FunctionObject : public Object {
public:
    static constexpr ObjKind kKind = ObjKind::Function;
    explicit FunctionObject(Type* t) : Object(t, kKind) {}

    std::shared_ptr<const ScriptUnit> unit;  // the parsed script; keeps the AST alive
    const CodeInfo* code = nullptr;          // owned by unit
    const ast::FunctionDef* def = nullptr;   // null for a lambda
    const ast::Lambda* lambda = nullptr;     // null for a def
    Ref<DictObject> globals;
    std::vector<Ref<CellObject>> closure;  // one per code->freeNames
    std::vector<Value> defaults;           // for the last defaults.size() positional params
    std::vector<Value> kwDefaults;         // parallel to the keyword-only params; Null: none
    std::string name;                      // __name__
    std::string qualname;                  // __qualname__: "Net.construct", "f.<locals>.g"
    std::string moduleName;                // __module__
    std::shared_ptr<void> nativeData;      // free for native code

    const std::string& fileName() const;
    int firstLine() const;
    // What a free name in the body means at this point: the closure cell's value for a
    // free variable, else the global, else the builtin. Null when unbound/undefined.
    Value resolveFreeName(Interpreter& I, std::string_view name) const;
    void clearRefs() override;
};

// A callable with its first argument bound (a method looked up on an instance, or a
// classmethod looked up on a class).
class BoundMethodObject : public Object {
public:
    static constexpr ObjKind kKind = ObjKind::BoundMethod;
    BoundMethodObject(Type* t, Value f, Value s)
        : Object(t, kKind), func(std::move(f)), self(std::move(s)) {}
    Value func;
    Value self;
    void clearRefs() override;
};

class NativeFunctionObject : public Object {
public:
    static constexpr ObjKind kKind = ObjKind::NativeFunction;
    // How the function behaves when found in a class dict.
    enum class Binding : std::uint8_t {
        Function,  // in a module: called as is; in a class dict: bound like a method
        Static,    // never bound
        Class,     // bound to the class
    };
    NativeFunctionObject(Type* t, std::string n, NativeFn f, Binding b = Binding::Function)
        : Object(t, kKind), name(std::move(n)), fn(std::move(f)), binding(b) {}
    std::string name;
    std::string qualname;  // "list.append"; defaults to name
    NativeFn fn;
    Binding binding;
    std::shared_ptr<void> nativeData;  // free for native code
    void clearRefs() override {
        fn = nullptr;
        nativeData.reset();
        Object::clearRefs();
    }
};

// --- modules, exceptions ------------------------------------------------------------------------

// A module: its namespace is Object::dict().
class ModuleObject : public Object {
public:
    static constexpr ObjKind kKind = ObjKind::Module;
    ModuleObject(Type* t, std::string n) : Object(t, kKind), name(std::move(n)) {}
    std::string name;
};

// One line of a traceback: where a frame was when the exception passed through it.
struct TraceEntry {
    std::shared_ptr<const ScriptUnit> unit;  // for the source line
    int line = 0;
    std::string function;           // "<module>", "construct", "<lambda>"
    std::uint64_t frameSerial = 0;  // which frame activation added it
};

class ExceptionObject : public Object {
public:
    static constexpr ObjKind kKind = ObjKind::Exception;
    ExceptionObject(Type* t, Value a) : Object(t, kKind), args(std::move(a)) {}
    Value args;     // a tuple
    Value cause;    // __cause__ (raise ... from ...), Null or None when absent
    Value context;  // __context__: the exception being handled when this one was raised
    bool suppressContext = false;
    std::vector<TraceEntry> traceback;  // innermost frame first
    void clearRefs() override;
};

// --- small objects ------------------------------------------------------------------------------

class RangeObject : public Object {
public:
    static constexpr ObjKind kKind = ObjKind::Range;
    RangeObject(Type* t, std::int64_t a, std::int64_t b, std::int64_t c)
        : Object(t, kKind), start(a), stop(b), step(c) {}
    std::int64_t start, stop, step;
    std::int64_t length() const;
    std::int64_t at(std::int64_t i) const { return start + i * step; }
};

class SliceObject : public Object {
public:
    static constexpr ObjKind kKind = ObjKind::Slice;
    SliceObject(Type* t, Value a, Value b, Value c)
        : Object(t, kKind), start(std::move(a)), stop(std::move(b)), step(std::move(c)) {}
    Value start, stop, step;  // None when omitted
    void clearRefs() override;
};

class PropertyObject : public Object {
public:
    static constexpr ObjKind kKind = ObjKind::Property;
    explicit PropertyObject(Type* t) : Object(t, kKind) {}
    Value fget, fset, fdel, doc;  // None when absent
    void clearRefs() override;
};

// staticmethod(f) and classmethod(f).
class StaticMethodObject : public Object {
public:
    static constexpr ObjKind kKind = ObjKind::StaticMethod;
    StaticMethodObject(Type* t, Value f) : Object(t, kKind), func(std::move(f)) {}
    Value func;
    void clearRefs() override;
};
class ClassMethodObject : public Object {
public:
    static constexpr ObjKind kKind = ObjKind::ClassMethod;
    ClassMethodObject(Type* t, Value f) : Object(t, kKind), func(std::move(f)) {}
    Value func;
    void clearRefs() override;
};

// super(cls, obj): attribute lookup along type(obj).__mro__ after cls.
class SuperObject : public Object {
public:
    static constexpr ObjKind kKind = ObjKind::Super;
    SuperObject(Type* t, Ref<Type> c, Value o, Ref<Type> ot)
        : Object(t, kKind), thisClass(std::move(c)), obj(std::move(o)), objType(std::move(ot)) {}
    Ref<Type> thisClass;
    Value obj;          // the instance (or class, for classmethods)
    Ref<Type> objType;  // whose MRO is searched
    void clearRefs() override;
};

// An attribute implemented in C++ (x.shape, x.dtype). A missing setter makes it read-only
// ("AttributeError: property 'shape' of 'Tensor' object has no setter").
using NativeGetter = std::function<Value(Interpreter&, const Value& self)>;
using NativeSetter = std::function<void(Interpreter&, const Value& self, const Value& value)>;
class NativePropertyObject : public Object {
public:
    static constexpr ObjKind kKind = ObjKind::NativeProperty;
    NativePropertyObject(Type* t, std::string n, NativeGetter g, NativeSetter s)
        : Object(t, kKind), name(std::move(n)), getter(std::move(g)), setter(std::move(s)) {}
    std::string name;
    NativeGetter getter;
    NativeSetter setter;
    void clearRefs() override {
        getter = nullptr;
        setter = nullptr;
        Object::clearRefs();
    }
};

// Base of the builtin iterators (list_iterator, range_iterator, enumerate, zip, map,
// generator expressions, ...). Their types' __next__ calls next().
class NativeIterator : public Object {
public:
    static constexpr ObjKind kKind = ObjKind::Iterator;
    explicit NativeIterator(Type* t) : Object(t, kKind) {}
    // Produces the next item; false when exhausted.
    virtual bool next(Interpreter& I, Value& out) = 0;
};

// dict.keys() / values() / items().
class DictViewObject : public Object {
public:
    static constexpr ObjKind kKind = ObjKind::DictView;
    enum class Which : std::uint8_t { Keys, Values, Items };
    DictViewObject(Type* t, Ref<DictObject> d, Which w)
        : Object(t, kKind), mapping(std::move(d)), which(w) {}
    Ref<DictObject> mapping;
    Which which;
    void clearRefs() override;
};

}  // namespace irscope::interp
