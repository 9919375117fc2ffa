// Abstract helpers of type_inference: equality of abstracts and function values (the
// specialization key), constants' abstracts, and the join of two abstracts met at one place
// (Switch branches, loop iterations).
#include "ops/infer_util.h"
#include "passes/type_inference_engine.h"

namespace irscope::passes::infer {

using ir::Abstract;
using ir::AbstractPtr;

bool sameAbs(const AbstractPtr& a, const AbstractPtr& b) {
    if (!a || !b) {
        return a == b;
    }
    return a->equals(*b);
}

bool sameFunc(const FuncPtr& a, const FuncPtr& b) {
    if (!a || !b) {
        return a == b;
    }
    if (a == b) {
        return true;
    }
    if (a->kind != b->kind) {
        return false;
    }
    switch (a->kind) {
        case FuncVal::Kind::Graph:
            return a->graph == b->graph;
        case FuncVal::Kind::Prim:
            return a->prim->equals(*b->prim);
        case FuncVal::Kind::Method:
        case FuncVal::Kind::Partial:
            if (a->spelling != b->spelling || !sameFunc(a->fn, b->fn) ||
                a->bound.size() != b->bound.size()) {
                return false;
            }
            for (std::size_t i = 0; i < a->bound.size(); ++i) {
                if (!sameAbs(keyAbstract(a->bound[i].abs), keyAbstract(b->bound[i].abs)) ||
                    !sameFunc(a->bound[i].fn, b->bound[i].fn)) {
                    return false;
                }
            }
            return true;
        case FuncVal::Kind::Union:
            if (a->options.size() != b->options.size()) {
                return false;
            }
            for (std::size_t i = 0; i < a->options.size(); ++i) {
                if (!sameFunc(a->options[i], b->options[i])) {
                    return false;
                }
            }
            return true;
    }
    return false;
}

AbstractPtr constAbstract(const ir::ValuePtr& v) {
    using K = ir::Value::Kind;
    if (!v) {
        return nullptr;
    }
    switch (v->kind) {
        case K::Bool:
        case K::Int:
        case K::Float:
        case K::String:
        case K::None:
        case K::Type:
        case K::Slice:
            return Abstract::withValue(ops::abstractOfValue(v), v);
        case K::Tuple:
        case K::List: {
            std::vector<AbstractPtr> elems;
            for (const auto& e : v->elements) {
                elems.push_back(constAbstract(e));
            }
            auto t = v->kind == K::Tuple ? Abstract::tuple(std::move(elems))
                                         : Abstract::list(std::move(elems));
            return Abstract::withValue(t, v);
        }
        default:
            return ops::abstractOfValue(v);
    }
}

AbstractPtr keyAbstract(const AbstractPtr& a) {
    if (!a) {
        return a;
    }
    if (a->kind == Abstract::Kind::Tensor && (a->valueKnown || a->value)) {
        return Abstract::tensor(a->dtype, a->shape);
    }
    if (a->kind == Abstract::Kind::Tuple || a->kind == Abstract::Kind::List) {
        bool changed = false;
        std::vector<AbstractPtr> elems;
        for (const auto& e : a->elements) {
            elems.push_back(keyAbstract(e));
            changed = changed || elems.back() != e;
        }
        if (!changed) {
            return a;
        }
        auto t = a->kind == Abstract::Kind::Tuple ? Abstract::tuple(std::move(elems))
                                                  : Abstract::list(std::move(elems));
        // A tuple holding tensors has no constant value worth keying on.
        return t;
    }
    return a;
}

bool singleElementJoin(const ir::Shape& a, const ir::Shape& b) {
    auto one = [](const ir::Shape& s) { return !s.dynamicRank && s.rank() == 1 && s.dims[0] == 1; };
    auto scalar = [](const ir::Shape& s) { return !s.dynamicRank && s.rank() == 0; };
    return (one(a) && scalar(b)) || (scalar(a) && one(b));
}

AbstractPtr joinAbs(const AbstractPtr& a, const AbstractPtr& b) {
    if (!a || !b) {
        return a ? a : b;
    }
    if (a->equals(*b)) {
        return a;
    }
    using K = Abstract::Kind;
    const bool ta = a->kind == K::Tensor || a->kind == K::Ref;
    const bool tb = b->kind == K::Tensor || b->kind == K::Ref;
    if (ta && tb) {
        if (a->dtype != b->dtype) {
            return nullptr;
        }
        if (a->kind == K::Ref && b->kind == K::Ref && a->refKey == b->refKey &&
            a->shape == b->shape) {
            return a;
        }
        ir::Shape s = a->shape;
        if (singleElementJoin(a->shape, b->shape)) {
            s = a->shape.rank() == 1 ? a->shape : b->shape;
        } else if (a->shape.dynamicRank || b->shape.dynamicRank ||
                   a->shape.rank() != b->shape.rank()) {
            s = ops::dynamicRankShape();
        } else {
            for (std::size_t i = 0; i < s.rank(); ++i) {
                if (s.dims[i] != b->shape.dims[i]) {
                    s.dims[i] = -1;
                }
            }
        }
        if (a->kind == K::Ref && b->kind == K::Ref) {
            // Two Parameters met at a join (`return self.p1 if c else self.p2` on a tensor
            // condition): still a reference, to whichever one ran, as MindSpore joins two
            // RefTensors into one whose key is unknown.
            return Abstract::ref(a->dtype, std::move(s), a->refKey == b->refKey ? a->refKey : "");
        }
        return Abstract::tensor(a->dtype, s);
    }
    if (a->kind != b->kind) {
        return nullptr;
    }
    switch (a->kind) {
        case K::Scalar:
            return a->dtype == b->dtype ? Abstract::scalar(a->dtype) : nullptr;
        case K::Tuple:
        case K::List: {
            if (a->elements.size() != b->elements.size()) {
                return nullptr;
            }
            std::vector<AbstractPtr> elems;
            for (std::size_t i = 0; i < a->elements.size(); ++i) {
                auto j = joinAbs(a->elements[i], b->elements[i]);
                if (!j) {
                    return nullptr;
                }
                elems.push_back(j);
            }
            return a->kind == K::Tuple ? Abstract::tuple(std::move(elems))
                                       : Abstract::list(std::move(elems));
        }
        case K::Type:
        case K::None:
        case K::Func:
        case K::Monad:
            return ir::Abstract::withValue(a, nullptr);
        default:
            return nullptr;
    }
}

std::string describe(const AbstractPtr& a) {
    if (!a) {
        return "<unknown>";
    }
    return ops::typeStr(a);
}

}  // namespace irscope::passes::infer
