#include "ir/abstract.h"

namespace irscope::ir {

namespace {
std::shared_ptr<Abstract> make(Abstract::Kind k) {
    auto a = std::make_shared<Abstract>();
    a->kind = k;
    return a;
}
}  // namespace

AbstractPtr Abstract::tensor(DType t, Shape s, bool valueKnown) {
    auto a = make(Kind::Tensor);
    a->dtype = t;
    a->shape = std::move(s);
    a->valueKnown = valueKnown;
    return a;
}

AbstractPtr Abstract::ref(DType t, Shape s, std::string refKey) {
    auto a = make(Kind::Ref);
    a->dtype = t;
    a->shape = std::move(s);
    a->refKey = std::move(refKey);
    return a;
}

AbstractPtr Abstract::scalar(DType t) {
    auto a = make(Kind::Scalar);
    a->dtype = t;
    return a;
}

AbstractPtr Abstract::tuple(std::vector<AbstractPtr> elems) {
    auto a = make(Kind::Tuple);
    a->elements = std::move(elems);
    return a;
}

AbstractPtr Abstract::list(std::vector<AbstractPtr> elems) {
    auto a = make(Kind::List);
    a->elements = std::move(elems);
    return a;
}

AbstractPtr Abstract::func() { return make(Kind::Func); }

AbstractPtr Abstract::monadAbs(MonadKind m) {
    auto a = make(Kind::Monad);
    a->monad = m;
    return a;
}

AbstractPtr Abstract::noneAbs() { return make(Kind::None); }
AbstractPtr Abstract::typeAbs() { return make(Kind::Type); }

AbstractPtr Abstract::opaque(std::string text) {
    auto a = make(Kind::Opaque);
    a->text = std::move(text);
    return a;
}

AbstractPtr Abstract::withValue(AbstractPtr base, ValuePtr v) {
    auto a = std::make_shared<Abstract>(*base);
    a->value = std::move(v);
    return a;
}

bool Abstract::equals(const Abstract& o) const {
    if (kind != o.kind) {
        return false;
    }
    if ((value == nullptr) != (o.value == nullptr) || (value && !value->equals(*o.value))) {
        return false;
    }
    switch (kind) {
        case Kind::Tensor:
            return dtype == o.dtype && shape == o.shape && valueKnown == o.valueKnown;
        case Kind::Ref: return dtype == o.dtype && shape == o.shape && refKey == o.refKey;
        case Kind::Scalar: return dtype == o.dtype;
        case Kind::Tuple:
        case Kind::List:
            if (elements.size() != o.elements.size()) {
                return false;
            }
            for (std::size_t i = 0; i < elements.size(); ++i) {
                if ((elements[i] == nullptr) != (o.elements[i] == nullptr)) {
                    return false;
                }
                if (elements[i] && !elements[i]->equals(*o.elements[i])) {
                    return false;
                }
            }
            return true;
        case Kind::Monad: return monad == o.monad;
        case Kind::Opaque: return text == o.text;
        case Kind::Func:
        case Kind::None:
        case Kind::Type: return true;
    }
    return false;
}

namespace {

std::string typeList(const std::vector<AbstractPtr>& elems) {
    std::vector<std::string> types;
    types.reserve(elems.size());
    for (const auto& e : elems) {
        types.push_back(typeName(*e));
    }
    bool same = types.size() > 1;
    for (std::size_t k = 1; same && k < types.size(); ++k) {
        same = types[k] == types[0];
    }
    if (same) {
        return types[0] + "*" + std::to_string(types.size());
    }
    std::string out;
    for (std::size_t k = 0; k < types.size(); ++k) {
        out += (k != 0 ? ", " : "") + types[k];
    }
    return out;
}

}  // namespace

std::string typeName(const Abstract& a, bool elements) {
    switch (a.kind) {
        case Abstract::Kind::Tensor:
            return "Tensor[" + std::string(dtypeName(a.dtype)) + "]";
        case Abstract::Kind::Ref:
            return "Ref[Tensor[" + std::string(dtypeName(a.dtype)) + "]]";
        case Abstract::Kind::Scalar:
            return std::string(dtypeName(a.dtype));
        case Abstract::Kind::Tuple:
            return elements ? "Tuple[" + typeList(a.elements) + "]" : "Tuple";
        case Abstract::Kind::List:
            return elements ? "List[" + typeList(a.elements) + "]" : "List";
        case Abstract::Kind::Func:
            return "Func";
        case Abstract::Kind::Monad:
            return a.monad == MonadKind::U ? "UMonad" : "IOMonad";
        case Abstract::Kind::None:
            return "None";
        case Abstract::Kind::Type:
            return "TypeType";
        case Abstract::Kind::Opaque:
            return a.text;
    }
    return {};
}

}  // namespace irscope::ir
