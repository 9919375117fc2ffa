// Small members of the core objects: clearRefs, str lengths, type lookup, ranges.
#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

bool StrObject::isAscii() const {
    if (ascii_ < 0) {
        ascii_ = 1;
        for (unsigned char c : value) {
            if (c >= 0x80) {
                ascii_ = 0;
                break;
            }
        }
    }
    return ascii_ == 1;
}

std::size_t StrObject::length() const {
    if (isAscii()) {
        return value.size();
    }
    std::size_t n = 0;
    for (unsigned char c : value) {
        if ((c & 0xC0) != 0x80) {
            ++n;
        }
    }
    return n;
}

void TupleObject::clearRefs() {
    std::vector<Value> old = std::move(items);
    items.clear();
    old.clear();
    Object::clearRefs();
}

void ListObject::clearRefs() {
    std::vector<Value> old = std::move(items);
    items.clear();
    old.clear();
    Object::clearRefs();
}

// --- Type -------------------------------------------------------------------------------------

Type::Type(Type* meta, std::string n) : Object(meta, kKind), name(n), qualname(std::move(n)) {}

Value Type::lookup(std::string_view n) const {
    std::int64_t h = strHash(n);
    for (const Type* t : mro) {
        if (const DictObject* d = t->dict()) {
            Value v = d->getStr(n, h);
            if (!v.isNull()) {
                return v;
            }
        }
    }
    return {};
}

bool Type::isSubtypeOf(const Type* other) const {
    if (this == other) {
        return true;
    }
    for (const Type* t : mro) {
        if (t == other) {
            return true;
        }
    }
    return false;
}

std::string Type::fullName() const {
    if (module.empty() || module == "builtins") {
        return qualname;
    }
    return module + "." + qualname;
}

void Type::clearRefs() {
    mro.clear();
    std::vector<Ref<Type>> old = std::move(bases);
    bases.clear();
    old.clear();
    alloc = nullptr;
    construct = nullptr;
    hooks = HookCache{};
    nativeData.reset();
    unit.reset();
    Object::clearRefs();
}

// --- functions --------------------------------------------------------------------------------

void CellObject::clearRefs() {
    value = Value();
    Object::clearRefs();
}

const std::string& FunctionObject::fileName() const {
    return unit->fileName();
}

int FunctionObject::firstLine() const {
    return code ? code->firstLine : 0;
}

Value FunctionObject::resolveFreeName(Interpreter& I, std::string_view n) const {
    if (code) {
        for (std::size_t i = 0; i < code->freeNames.size(); ++i) {
            if (code->freeNames[i] == n && i < closure.size()) {
                return closure[i]->value;
            }
        }
    }
    if (globals) {
        Value v = globals->getStr(n);
        if (!v.isNull()) {
            return v;
        }
    }
    return I.builtins().getStr(n);
}

void FunctionObject::clearRefs() {
    globals.reset();
    closure.clear();
    defaults.clear();
    kwDefaults.clear();
    nativeData.reset();
    Object::clearRefs();
}

void BoundMethodObject::clearRefs() {
    func = Value();
    self = Value();
    Object::clearRefs();
}

void ExceptionObject::clearRefs() {
    args = Value();
    cause = Value();
    context = Value();
    traceback.clear();
    Object::clearRefs();
}

std::int64_t RangeObject::length() const {
    Int128 n = 0;
    if (step > 0 && start < stop) {
        n = (static_cast<Int128>(stop) - start - 1) / step + 1;
    } else if (step < 0 && start > stop) {
        n = (static_cast<Int128>(start) - stop - 1) / (-static_cast<Int128>(step)) + 1;
    }
    return static_cast<std::int64_t>(n);
}

void SliceObject::clearRefs() {
    start = stop = step = Value();
    Object::clearRefs();
}

void PropertyObject::clearRefs() {
    fget = fset = fdel = doc = Value();
    Object::clearRefs();
}

void StaticMethodObject::clearRefs() {
    func = Value();
    Object::clearRefs();
}

void ClassMethodObject::clearRefs() {
    func = Value();
    Object::clearRefs();
}

void SuperObject::clearRefs() {
    thisClass.reset();
    obj = Value();
    objType.reset();
    Object::clearRefs();
}

void DictViewObject::clearRefs() {
    mapping.reset();
    Object::clearRefs();
}

}  // namespace irscope::interp
