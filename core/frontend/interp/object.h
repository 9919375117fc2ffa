// The host interpreter's object model: Value, Object, Ref and the Heap that owns every object.
//
// Value is 16 bytes: a tag and either an inline scalar (None, bool, int64, double) or a
// counted pointer to a heap Object. A default-constructed Value is Null: "no value" (an
// unbound local, a missing dict entry, an absent optional argument); Python code never sees
// it. Python ints are int64: arithmetic that leaves that range raises OverflowError (irscope
// does not implement arbitrary precision). bool is a subclass of int as in Python: isInt()
// is false for a bool but isIntLike() and intLike() treat True as 1.
//
// Objects are reference counted (non-atomic: one interpreter runs on one thread at a time).
// A count reaching zero queues the object and a drain loop deletes it, so freeing a long
// chain (a linked list built by a script) never recurses on the C++ stack. Reference cycles
// (class -> method -> globals -> class) are not collected while a script runs; the Heap keeps
// every live object on an intrusive list and, when the interpreter is destroyed, calls
// clearRefs() on all of them (each object drops the Values it holds), which breaks every
// cycle, and then lets the counts fall to zero. A native object that holds Values in its own
// members must override clearRefs() to release them (and call the base). Values must not
// outlive their Interpreter; one that does keeps its object alive (orphaned, freed when the
// last Value goes) but must not be used.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace irscope::interp {

class Heap;
class Type;
class DictObject;

// The C++ layout of an object, for fast checked downcasts (Value::as<T>). Objects of script
// classes have the layout of their nearest native base (Plain for `object`).
enum class ObjKind : std::uint8_t {
    Plain,  // an `object` instance (script classes without a native base)
    Str,
    Tuple,
    List,
    Dict,
    Set,
    Type,
    Function,        // a script function or lambda
    BoundMethod,     // a callable bound to its first argument
    NativeFunction,  // a C++ function
    Cell,            // a closure variable
    Module,
    Exception,  // BaseException and subclasses
    Range,
    Slice,
    Property,
    StaticMethod,
    ClassMethod,
    Super,
    NativeProperty,  // a C++ getter/setter in a type's dict
    Iterator,        // the builtin iterators (NativeIterator)
    DictView,
    Native,  // anything else defined in C++ (tensors, cells, dtypes...): use dynamic_cast
};

class Object {
public:
    Object(const Object&) = delete;
    Object& operator=(const Object&) = delete;
    virtual ~Object();

    ObjKind kind() const { return kind_; }
    // The object's class. Never null while the interpreter is alive.
    Type* type() const { return type_; }
    // The instance __dict__, or null for objects without one (str, list, ...).
    DictObject* dict() const { return dict_; }
    void setDict(DictObject* d);  // takes a reference (null: drop the dict)
    // Re-points the object at another class (interpreter bootstrap; takes a reference).
    void setType(Type* t);

    // Drops every reference this object holds (called on all objects at teardown to break
    // cycles). Overrides release their own Values and then call the base.
    virtual void clearRefs();

    void incRef() noexcept { ++refs_; }
    void decRef() noexcept {
        if (--refs_ == 0) {
            release();
        }
    }
    std::uint32_t refCount() const { return refs_; }

protected:
    Object(Type* type, ObjKind kind);

private:
    friend class Heap;
    void release() noexcept;

    std::uint32_t refs_ = 0;
    ObjKind kind_;
    Type* type_ = nullptr;        // counted
    DictObject* dict_ = nullptr;  // counted
    Heap* heap_ = nullptr;        // null: not yet adopted, or orphaned at teardown
    Object* prev_ = nullptr;
    Object* next_ = nullptr;
};

// Checked downcast: core layouts by kind, others (ObjKind::Native) by dynamic_cast.
template <class T>
T* objectAs(Object* o) {
    if (o == nullptr) {
        return nullptr;
    }
    if constexpr (std::is_same_v<T, Object>) {
        return o;
    } else if constexpr (requires { T::kKind; }) {
        return o->kind() == T::kKind ? static_cast<T*>(o) : nullptr;
    } else {
        return dynamic_cast<T*>(o);
    }
}

// An owning pointer to an object (intrusive count).
template <class T>
class Ref {
public:
    Ref() = default;
    Ref(std::nullptr_t) {}
    explicit Ref(T* p) : p_(p) {
        if (p_) {
            obj()->incRef();
        }
    }
    Ref(const Ref& o) : Ref(o.p_) {}
    Ref(Ref&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
    template <class U>
    requires std::is_convertible_v<U*, T*> Ref(const Ref<U>& o) : Ref(static_cast<T*>(o.get())) {}
    ~Ref() { reset(); }
    Ref& operator=(Ref o) noexcept {
        std::swap(p_, o.p_);
        return *this;
    }
    void reset() {
        if (T* p = std::exchange(p_, nullptr)) {
            static_cast<Object*>(p)->decRef();
        }
    }
    T* get() const { return p_; }
    T* operator->() const { return p_; }
    T& operator*() const { return *p_; }
    explicit operator bool() const { return p_ != nullptr; }
    bool operator==(const Ref& o) const { return p_ == o.p_; }

private:
    Object* obj() const { return static_cast<Object*>(p_); }
    T* p_ = nullptr;
};

class Value {
public:
    enum class Tag : std::uint8_t { Null, None, Bool, Int, Float, Obj };

    Value() = default;
    static Value none() { return Value(Tag::None); }
    static Value boolean(bool b) {
        Value v(Tag::Bool);
        v.u_.i = b ? 1 : 0;
        return v;
    }
    static Value integer(std::int64_t i) {
        Value v(Tag::Int);
        v.u_.i = i;
        return v;
    }
    static Value real(double d) {
        Value v(Tag::Float);
        v.u_.d = d;
        return v;
    }
    // A new reference to `o` (null pointer -> Null).
    explicit Value(Object* o) : tag_(o ? Tag::Obj : Tag::Null) {
        u_.o = o;
        if (o) {
            o->incRef();
        }
    }
    template <class T>
    Value(const Ref<T>& r) : Value(static_cast<Object*>(r.get())) {}

    Value(const Value& o) : tag_(o.tag_), u_(o.u_) {
        if (tag_ == Tag::Obj) {
            u_.o->incRef();
        }
    }
    Value(Value&& o) noexcept : tag_(o.tag_), u_(o.u_) { o.tag_ = Tag::Null; }
    Value& operator=(const Value& o) {
        Value tmp(o);
        swap(tmp);
        return *this;
    }
    Value& operator=(Value&& o) noexcept {
        Value tmp(std::move(o));
        swap(tmp);
        return *this;
    }
    ~Value() {
        if (tag_ == Tag::Obj) {
            u_.o->decRef();
        }
    }
    void swap(Value& o) noexcept {
        std::swap(tag_, o.tag_);
        std::swap(u_, o.u_);
    }

    Tag tag() const { return tag_; }
    bool isNull() const { return tag_ == Tag::Null; }
    bool isNone() const { return tag_ == Tag::None; }
    bool isBool() const { return tag_ == Tag::Bool; }
    bool isInt() const { return tag_ == Tag::Int; }  // false for bools
    bool isIntLike() const { return tag_ == Tag::Int || tag_ == Tag::Bool; }
    bool isFloat() const { return tag_ == Tag::Float; }
    bool isNumber() const { return tag_ == Tag::Int || tag_ == Tag::Bool || tag_ == Tag::Float; }
    bool isObj() const { return tag_ == Tag::Obj; }

    bool asBool() const { return u_.i != 0; }
    std::int64_t asInt() const { return u_.i; }    // Int (or Bool)
    std::int64_t intLike() const { return u_.i; }  // Int or Bool
    double asFloat() const { return u_.d; }        // Float only
    double toDouble() const { return tag_ == Tag::Float ? u_.d : static_cast<double>(u_.i); }
    Object* obj() const { return tag_ == Tag::Obj ? u_.o : nullptr; }

    template <class T>
    T* as() const {
        return tag_ == Tag::Obj ? objectAs<T>(u_.o) : nullptr;
    }
    template <class T>
    bool is() const {
        return as<T>() != nullptr;
    }
    // Identity (Python `is`): same object, or equal inline scalars of the same tag.
    bool identical(const Value& o) const;

private:
    explicit Value(Tag t) : tag_(t) { u_.i = 0; }
    Tag tag_ = Tag::Null;
    union U {
        std::int64_t i;
        double d;
        Object* o;
    } u_{};
};

inline bool Value::identical(const Value& o) const {
    if (tag_ != o.tag_) {
        return false;
    }
    switch (tag_) {
        case Tag::Null:
        case Tag::None:
            return true;
        case Tag::Bool:
        case Tag::Int:
            return u_.i == o.u_.i;
        case Tag::Float:
            return u_.i == o.u_.i;  // bitwise, like two refs to one float object
        case Tag::Obj:
            return u_.o == o.u_.o;
    }
    return false;
}

// Owns every object of one interpreter (see the file comment).
class Heap {
public:
    Heap() = default;
    Heap(const Heap&) = delete;
    Heap& operator=(const Heap&) = delete;
    ~Heap();  // breaks cycles and frees everything not held from outside

    // Registers a freshly constructed object and returns its first reference.
    template <class T>
    Ref<T> adopt(T* o) {
        link(o);
        return Ref<T>(o);
    }
    std::size_t liveObjects() const { return live_; }
    // Runs teardown now (the destructor does it too): afterwards, no object holds a Value.
    void clearAll();

private:
    friend class Object;
    void link(Object* o);
    void unlink(Object* o);
    void enqueue(Object* o);

    Object* head_ = nullptr;
    std::size_t live_ = 0;
    std::vector<Object*> pending_;
    bool draining_ = false;
};

}  // namespace irscope::interp
