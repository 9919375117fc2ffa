// Argument binding (shared by script and native functions) and the native class builder.
#include "frontend/interp/native.h"

#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

namespace {

// 'a', 'a' and 'b', 'a', 'b', and 'c'
std::string nameList(const std::vector<std::string>& names) {
    std::string s;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) {
            s += names.size() == 2 ? " and " : (i + 1 == names.size() ? ", and " : ", ");
        }
        s += "'" + names[i] + "'";
    }
    return s;
}

std::string plural(std::size_t n, const char* word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

void bindArguments(Interpreter& I, const ParamLayout& p, const CallArgs& args,
                   const std::vector<Value>& defaults, const std::vector<Value>& kwDefaults,
                   Value* out, const std::vector<bool>* kwOptional) {
    const std::string fn = std::string(p.funcName) + "()";
    const std::size_t given = args.pos.size();
    const auto npos = static_cast<std::size_t>(p.pos);
    const std::size_t varArgsSlot = npos + static_cast<std::size_t>(p.kwOnly);
    const std::size_t varKwSlot = varArgsSlot + (p.varArgs ? 1 : 0);

    for (std::size_t i = 0; i < given && i < npos; ++i) {
        out[i] = args.pos[i];
    }
    if (p.varArgs) {
        std::vector<Value> rest;
        for (std::size_t i = npos; i < given; ++i) {
            rest.push_back(args.pos[i]);
        }
        out[varArgsSlot] = I.newTuple(std::move(rest));
    }
    Ref<DictObject> kwDict;
    if (p.varKw) {
        kwDict = I.newDict();
        out[varKwSlot] = kwDict;
    }
    std::vector<std::string> posOnlyAsKw;
    for (const KwArg& kw : args.kw) {
        std::size_t found = static_cast<std::size_t>(-1);
        for (std::size_t i = static_cast<std::size_t>(p.posOnly);
             i < npos + static_cast<std::size_t>(p.kwOnly); ++i) {
            if (p.names[i] == kw.name) {
                found = i;
                break;
            }
        }
        if (found != static_cast<std::size_t>(-1)) {
            if (!out[found].isNull()) {
                throw PyError(Exc::TypeError,
                              fn + " got multiple values for argument '" + kw.name + "'");
            }
            out[found] = kw.value;
            continue;
        }
        if (kwDict) {
            kwDict->setStr(I.newStr(kw.name), kw.value);
            continue;
        }
        bool isPosOnly = false;
        for (int i = 0; i < p.posOnly; ++i) {
            isPosOnly |= p.names[i] == kw.name;
        }
        if (isPosOnly) {
            posOnlyAsKw.push_back(kw.name);
            continue;
        }
        throw PyError(Exc::TypeError, fn + " got an unexpected keyword argument '" + kw.name + "'");
    }
    if (!posOnlyAsKw.empty()) {
        std::string names;
        for (std::size_t i = 0; i < posOnlyAsKw.size(); ++i) {
            names += (i ? ", '" : "'") + posOnlyAsKw[i] + "'";
        }
        throw PyError(
            Exc::TypeError,
            fn + " got some positional-only arguments passed as keyword arguments: " + names);
    }
    if (given > npos && !p.varArgs) {
        std::size_t required = npos - std::min(npos, defaults.size());
        std::string takes = required == npos ? plural(npos, "positional argument")
                                             : "from " + std::to_string(required) + " to " +
                                                   std::to_string(npos) + " positional arguments";
        std::size_t kwGiven = 0;
        for (int k = 0; k < p.kwOnly; ++k) {
            kwGiven += out[npos + static_cast<std::size_t>(k)].isNull() ? 0 : 1;
        }
        std::string was = given == 1 ? "was" : "were";
        std::string msg = fn + " takes " + takes + " but " + std::to_string(given);
        if (kwGiven > 0) {
            msg += " positional argument" + std::string(given == 1 ? "" : "s") + " (and " +
                   plural(kwGiven, "keyword-only argument") + ") were given";
        } else {
            msg += " " + was + " given";
        }
        throw PyError(Exc::TypeError, msg);
    }
    std::vector<std::string> missing;
    const std::size_t firstDefault = npos - std::min(npos, defaults.size());
    for (std::size_t i = 0; i < npos; ++i) {
        if (out[i].isNull()) {
            if (i >= firstDefault) {
                out[i] = defaults[i - firstDefault];
            } else {
                missing.push_back(p.names[i]);
            }
        }
    }
    if (!missing.empty()) {
        throw PyError(Exc::TypeError, fn + " missing " +
                                          plural(missing.size(), "required positional argument") +
                                          ": " + nameList(missing));
    }
    for (int k = 0; k < p.kwOnly; ++k) {
        const std::size_t slot = npos + static_cast<std::size_t>(k);
        if (out[slot].isNull()) {
            const auto ku = static_cast<std::size_t>(k);
            if (ku < kwDefaults.size() && !kwDefaults[ku].isNull()) {
                out[slot] = kwDefaults[ku];
            } else if (!(kwOptional && ku < kwOptional->size() && (*kwOptional)[ku])) {
                missing.push_back(p.names[slot]);
            }
        }
    }
    if (!missing.empty()) {
        throw PyError(Exc::TypeError, fn + " missing " +
                                          plural(missing.size(), "required keyword-only argument") +
                                          ": " + nameList(missing));
    }
}

// --- Signature --------------------------------------------------------------------------------

Signature& Signature::arg(std::string name) {
    pos_.push_back({std::move(name), Value(), true});
    return *this;
}
Signature& Signature::arg(std::string name, Value dflt) {
    pos_.push_back({std::move(name), std::move(dflt), false});
    return *this;
}
Signature& Signature::positionalOnly() {
    posOnly_ = static_cast<int>(pos_.size());
    return *this;
}
Signature& Signature::varArgs(std::string name) {
    varArgs_ = std::move(name);
    hasVarArgs_ = true;
    return *this;
}
Signature& Signature::kwOnly(std::string name) {
    kwOnly_.push_back({std::move(name), Value(), true});
    return *this;
}
Signature& Signature::kwOnly(std::string name, Value dflt) {
    kwOnly_.push_back({std::move(name), std::move(dflt), false});
    return *this;
}
Signature& Signature::varKw(std::string name) {
    varKw_ = std::move(name);
    hasVarKw_ = true;
    return *this;
}

std::vector<Value> Signature::bind(Interpreter& I, CallArgs& args) const {
    std::vector<std::string> names;
    std::vector<Value> defaults, kwDefaults;
    std::vector<bool> kwOptional;
    bool inDefaults = false;
    for (const Param& p : pos_) {
        names.push_back(p.name);
        if (!p.required) {
            inDefaults = true;
        }
        if (inDefaults) {
            defaults.push_back(p.dflt);
        }
    }
    for (const Param& p : kwOnly_) {
        names.push_back(p.name);
        kwDefaults.push_back(p.dflt);
        kwOptional.push_back(!p.required);
    }
    if (hasVarArgs_) {
        names.push_back(varArgs_);
    }
    if (hasVarKw_) {
        names.push_back(varKw_);
    }
    ParamLayout layout{name_,
                       names.data(),
                       posOnly_,
                       static_cast<int>(pos_.size()),
                       static_cast<int>(kwOnly_.size()),
                       hasVarArgs_,
                       hasVarKw_};
    std::vector<Value> bound(names.size());
    bindArguments(I, layout, args, defaults, kwDefaults, bound.data(), &kwOptional);
    // Binding order is pos, kwonly, *args, **kw; declaration order is pos, *args, kwonly, **kw.
    if (hasVarArgs_ && !kwOnly_.empty()) {
        Value va = std::move(bound[pos_.size() + kwOnly_.size()]);
        bound.erase(bound.begin() + static_cast<std::ptrdiff_t>(pos_.size() + kwOnly_.size()));
        bound.insert(bound.begin() + static_cast<std::ptrdiff_t>(pos_.size()), std::move(va));
    }
    return bound;
}

// --- ClassBuilder -----------------------------------------------------------------------------

ClassBuilder::ClassBuilder(Interpreter& I, std::string name, std::string module,
                           std::vector<Ref<Type>> bases)
    : I_(I),
      name_(std::move(name)),
      module_(std::move(module)),
      bases_(std::move(bases)),
      ns_(I.newDict()) {}

ClassBuilder& ClassBuilder::method(std::string name, NativeFn fn) {
    auto f = I_.newNative(name, std::move(fn));
    f->qualname = name_ + "." + name;
    ns_->setStr(I_.newStr(std::move(name)), f);
    return *this;
}

ClassBuilder& ClassBuilder::staticMethod(std::string name, NativeFn fn) {
    auto f = I_.newNative(name, std::move(fn));
    f->qualname = name_ + "." + name;
    f->binding = NativeFunctionObject::Binding::Static;
    ns_->setStr(I_.newStr(std::move(name)), f);
    return *this;
}

ClassBuilder& ClassBuilder::classMethod(std::string name, NativeFn fn) {
    auto f = I_.newNative(name, std::move(fn));
    f->qualname = name_ + "." + name;
    f->binding = NativeFunctionObject::Binding::Class;
    ns_->setStr(I_.newStr(std::move(name)), f);
    return *this;
}

ClassBuilder& ClassBuilder::property(std::string name, NativeGetter get, NativeSetter set) {
    auto p = I_.make<NativePropertyObject>(I_.types().getSetDescriptor.get(), name, std::move(get),
                                           std::move(set));
    ns_->setStr(I_.newStr(std::move(name)), p);
    return *this;
}

ClassBuilder& ClassBuilder::attr(std::string name, Value v) {
    ns_->setStr(I_.newStr(std::move(name)), std::move(v));
    return *this;
}

ClassBuilder& ClassBuilder::alloc(AllocFn f) {
    alloc_ = std::move(f);
    return *this;
}
ClassBuilder& ClassBuilder::construct(ConstructFn f) {
    construct_ = std::move(f);
    return *this;
}
ClassBuilder& ClassBuilder::subclassable(bool b) {
    subclassable_ = b;
    return *this;
}
ClassBuilder& ClassBuilder::instanceDict(bool b) {
    instanceDict_ = b;
    return *this;
}
ClassBuilder& ClassBuilder::immutable(bool b) {
    immutable_ = b;
    return *this;
}

Ref<Type> ClassBuilder::build() {
    std::vector<Ref<Type>> bases = bases_;
    if (bases.empty()) {
        bases.push_back(I_.types().object);
    }
    Ref<Type> t = I_.newClass(name_, std::move(bases), ns_, module_);
    if (alloc_) {
        t->alloc = std::move(alloc_);
        t->layoutOwner = t.get();
    }
    t->construct = std::move(construct_);
    t->subclassable = subclassable_;
    t->instanceDict = instanceDict_;
    t->immutable = immutable_;
    return t;
}

// --- helpers ----------------------------------------------------------------------------------

void addToModule(Interpreter& I, ModuleObject& m, std::string_view name, const Value& v) {
    m.dict()->setStr(I.newStr(std::string(name)), v);
}

Ref<NativeFunctionObject> addFunction(Interpreter& I, ModuleObject& m, std::string name,
                                      NativeFn fn) {
    auto f = I.newNative(name, std::move(fn));
    addToModule(I, m, name, f);
    return f;
}

double toDouble(Interpreter& I, const Value& v) {
    if (v.isNumber()) {
        return v.toDouble();
    }
    Value f = I.getAttrOrNull(v, "__float__");
    if (!f.isNull()) {
        Value r = I.call(f, {});
        if (r.isFloat()) {
            return r.asFloat();
        }
    }
    throw PyError(Exc::TypeError, "must be real number, not " + I.typeName(v));
}

const std::string& toStr(Interpreter& I, const Value& v, std::string_view what) {
    if (const auto* s = v.as<StrObject>()) {
        return s->value;
    }
    throw PyError(Exc::TypeError, std::string(what) + " must be str, not " + I.typeName(v));
}

Value argAt(const CallArgs& a, std::size_t index, std::string_view name) {
    if (index < a.pos.size()) {
        return a.pos[index];
    }
    return a.kwarg(name);
}

}  // namespace irscope::interp
