// arithmetic_simplify: algebraic identities that leave a value unchanged are removed
// (x*1, 1*x, x+0, 0+x, x-0, x/1, a Mul by a tensor of ones, AddN of one input), a
// TupleGetItem of a MakeTuple is the element itself, Depend(Depend(x, s), s) is
// Depend(x, s), and Depend(Depend(x, s1), s2) is Depend(x, s2) when s2 continues from s1. An
// identity is applied only when the result has exactly x's type and shape (x*1.0 on an int tensor
// promotes, a broadcast grows the shape: both stay).
#include "ir/monad.h"
#include "ir/prim_names.h"
#include "passes/opt_a.h"
#include "passes/opt_util.h"

namespace irscope::passes {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;
using ir::Value;
using ir::ValueNode;

namespace {

// Whether n is a constant every element of which equals k.
bool isConstant(const Node* n, double k) {
    const auto* v = ir::nodeCast<ValueNode>(n);
    if (v == nullptr) {
        return false;
    }
    const Value& val = *v->value();
    switch (val.kind) {
        case Value::Kind::Int:
            return static_cast<double>(val.i) == k;
        case Value::Kind::Float:
            return val.f == k;
        case Value::Kind::Tensor: {
            if (!val.tensor || !val.tensor->hasData()) {
                return false;
            }
            const auto count = static_cast<std::size_t>(val.tensor->shape.elementCount());
            for (std::size_t i = 0; i < count; ++i) {
                if (val.tensor->elementAsDouble(i) != k) {
                    return false;
                }
            }
            return count > 0;
        }
        default:
            return false;
    }
}

bool sameAbstract(const Node* a, const Node* b) {
    return a->abstract() != nullptr && b->abstract() != nullptr &&
           a->abstract()->equals(*b->abstract());
}

// The node `c` can be replaced by, or nullptr.
Node* simplified(const CNode* c) {
    const ir::PrimitiveData* p = c->primitive();
    if (p == nullptr) {
        return nullptr;
    }
    const std::string& op = p->name;
    Node* candidate = nullptr;
    if (c->size() == 3) {
        Node* a = c->input(1);
        Node* b = c->input(2);
        if (op == "Mul") {
            candidate = isConstant(b, 1) ? a : isConstant(a, 1) ? b : nullptr;
        } else if (op == "Add") {
            candidate = isConstant(b, 0) ? a : isConstant(a, 0) ? b : nullptr;
        } else if (op == "Sub") {
            candidate = isConstant(b, 0) ? a : nullptr;
        } else if (op == "Div" || op == "RealDiv") {
            candidate = isConstant(b, 1) ? a : nullptr;
        } else if (op == "TupleGetItem") {
            const auto* t = ir::nodeCast<CNode>(a);
            const auto* i = ir::nodeCast<ValueNode>(b);
            if (t != nullptr && t->isPrimitive(ir::prim::kMakeTuple) && i != nullptr &&
                i->value()->kind == Value::Kind::Int) {
                const std::int64_t k =
                    i->value()->i < 0 ? i->value()->i + static_cast<std::int64_t>(t->size() - 1)
                                      : i->value()->i;
                if (k >= 0 && static_cast<std::size_t>(k) + 1 < t->size()) {
                    return t->input(static_cast<std::size_t>(k) + 1);
                }
            }
        } else if (op == "Depend") {
            const auto* inner = ir::nodeCast<CNode>(a);
            if (inner != nullptr && inner->isPrimitive(ir::prim::kDepend) && inner->size() == 3 &&
                inner->input(2) == b) {
                return const_cast<CNode*>(inner);  // Depend(Depend(x, s), s)
            }
        }
    } else if (op == "AddN" && c->size() == 2) {
        const auto* t = ir::nodeCast<CNode>(c->input(1));
        if (t != nullptr && t->isPrimitive(ir::prim::kMakeTuple) && t->size() == 2) {
            candidate = t->input(1);
        }
    }
    return candidate != nullptr && sameAbstract(candidate, c) ? candidate : nullptr;
}

// Depend(Depend(x, s1), s2) where the state s2 continues from s1 becomes Depend(x, s2).
bool rewriteDependChain(ir::Module& m, CNode* c) {
    if (!c->isPrimitive(ir::prim::kDepend) || c->size() != 3) {
        return false;
    }
    const auto* inner = ir::nodeCast<CNode>(c->input(1));
    Node* s2 = c->input(2);
    if (inner == nullptr || !inner->isPrimitive(ir::prim::kDepend) || inner->size() != 3 ||
        inner->input(2) == s2 || !ir::isMonad(s2) || !opt::stateFollows(s2, inner->input(2))) {
        return false;
    }
    Node* inputOfInner = inner->input(1);
    m.setInput(c, 1, inputOfInner);
    opt::eraseIfDead(m, const_cast<CNode*>(inner));
    return true;
}

bool simplifyArithmetic(ir::Module& m) {
    bool changed = false;
    for (FuncGraph* g : m.reachableGraphs()) {
        // Replacing c erases c and maybe its inputs, which come earlier in the order.
        for (CNode* c : g->topoOrder()) {
            if (rewriteDependChain(m, c)) {
                changed = true;
            }
            if (Node* by = simplified(c)) {
                m.replaceAllUses(c, by);
                opt::eraseIfDead(m, c);
                changed = true;
            }
        }
    }
    return changed;
}

}  // namespace

std::unique_ptr<Pass> makeArithmeticSimplifyPass() {
    return makePass("arithmetic_simplify",
                    "Removes operations that do not change a value, such as multiplying by one, "
                    "adding zero or picking an element of a tuple just built.",
                    [](ir::Module& m, PassContext&) { return simplifyArithmetic(m); });
}

}  // namespace irscope::passes
