// auto_monad's side-effect analysis: which primitives write memory or do IO, which inputs
// read a Parameter (become Loads), which graphs a call may run, and the fixed point of the
// graphs' effects through calls, Partials, Switch branches, closures and grad targets.
#include <algorithm>
#include <functional>
#include <optional>

#include "ir/graph_refs.h"
#include "ir/prim_names.h"
#include "ops/op_registry.h"
#include "passes/auto_monad.h"
#include "passes/meta_ops.h"

namespace irscope::passes::monad {

namespace {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;

const ops::OpDef* opOf(const CNode& c) {
    const ir::PrimitiveData* p = c.primitive();
    return p == nullptr ? nullptr : ops::OpRegistry::instance().find(p->name);
}

bool isRef(const Node* n) {
    return n != nullptr && !n->isValue() && n->abstract() &&
           n->abstract()->kind == ir::Abstract::Kind::Ref;
}

FuncGraph* graphOfValue(const Node* n) {
    const auto* v = ir::nodeCast<ir::ValueNode>(n);
    return v != nullptr && v->value()->kind == ir::Value::Kind::Graph ? v->value()->graph : nullptr;
}

// The graphs a function value may be: a graph constant, a Partial of one, a Switch of
// those, or a grad transform of one (calling it runs the target).
void targetsOfValue(const Node* n, CallTargets& out, int depth = 0) {
    if (FuncGraph* g = graphOfValue(n)) {
        out.graphs.push_back(g);
        return;
    }
    const auto* c = ir::nodeCast<CNode>(n);
    if (c == nullptr || depth > 16) {
        out.known = false;
        return;
    }
    if ((c->isPrimitive(ir::prim::kPartial) || isGradTransform(*c)) && c->size() > 1) {
        targetsOfValue(c->input(1), out, depth + 1);
        return;
    }
    if (c->isPrimitive(ir::prim::kSwitch) && c->size() == 4) {
        targetsOfValue(c->input(2), out, depth + 1);
        targetsOfValue(c->input(3), out, depth + 1);
        return;
    }
    out.known = false;
}

// A tuple of Parameters handed on as references: the weights of a grad transform, or an
// argument of a graph call or Partial.
}  // namespace

bool isMemWrite(const CNode& c) {
    const ops::OpDef* op = opOf(c);
    return op != nullptr && op->sideEffectMem;
}

bool isIo(const CNode& c) {
    const ops::OpDef* op = opOf(c);
    return c.isPrimitive(ir::prim::kPrint) || (op != nullptr && op->sideEffectIo);
}

bool isGradTransform(const CNode& c) {
    return c.isPrimitive(ir::prim::kGradOperation) || c.isPrimitive(ir::prim::kGrad) ||
           c.isPrimitive(ir::prim::kValueAndGrad) || c.isPrimitive(ir::prim::kJ);
}

bool isCall(const CNode& c) {
    return c.size() > 0 && c.primitive() == nullptr;
}

bool returnsReferences(const CNode& c) {
    const FuncGraph* g = c.graph();
    return c.isPrimitive(ir::prim::kReturn) && g != nullptr && g->module() != nullptr &&
           g != g->module()->entry();
}

bool needsLoad(const CNode& user, std::size_t index) {
    if (index == 0 || index >= user.size() || !isRef(user.input(index))) {
        return false;
    }
    const ir::PrimitiveData* prim = user.primitive();
    if (prim == nullptr) {
        return false;  // a graph call's argument stays a reference (the callee may assign)
    }
    const std::string& name = prim->name;
    if (name == ir::prim::kPartial || name == ir::prim::kUpdateState || name == ir::prim::kLoad ||
        isGradTransform(user) || returnsReferences(user)) {
        return false;
    }
    if (name == ir::prim::kSwitch && index >= 2) {
        return false;
    }
    if (name == ir::prim::kDepend && index == 2) {
        return false;  // orders only; the value is not read
    }
    if (const ops::OpDef* op = opOf(user); op != nullptr && op->writesInput(index - 1)) {
        return false;  // a written variable (Assign's, Adam's var, m and v)
    }
    if (name == ir::prim::kMakeTuple || name == meta::kMakeList || name == ir::prim::kMakeList) {
        return false;  // a tuple of Parameters carries the references; its readers load
    }
    return true;
}

bool needsTupleLoad(const CNode& user, std::size_t index) {
    if (index == 0 || index >= user.size()) {
        return false;
    }
    const Node* in = user.input(index);
    const ir::AbstractPtr& a = in->abstract();
    if (in->isValue() || !a ||
        (a->kind != ir::Abstract::Kind::Tuple && a->kind != ir::Abstract::Kind::List)) {
        return false;
    }
    const bool holdsRef = std::any_of(
        a->elements.begin(), a->elements.end(),
        [](const ir::AbstractPtr& e) { return e && e->kind == ir::Abstract::Kind::Ref; });
    const ir::PrimitiveData* prim = user.primitive();
    if (!holdsRef || prim == nullptr || returnsReferences(user)) {
        return false;  // graph calls take the references (the callee loads what it reads)
    }
    const std::string& name = prim->name;
    if (name == ir::prim::kMakeTuple || name == meta::kMakeList || name == ir::prim::kMakeList ||
        name == ir::prim::kTupleGetItem || name == ir::prim::kListGetItem || name == ir::prim::kPartial ||
        name == ir::prim::kUpdateState || name == ir::prim::kLoad || isGradTransform(user)) {
        return false;
    }
    if ((name == ir::prim::kSwitch && index >= 2) || (name == ir::prim::kDepend && index == 2)) {
        return false;
    }
    return true;
}

CallTargets callTargets(const CNode& call) {
    CallTargets t;
    if (!isCall(call)) {
        t.known = false;
        return t;
    }
    targetsOfValue(call.input(0), t);
    return t;
}

namespace {

// The parser's isolated-statement wrapper at g's return: Depend(out, StopGradient(MakeTuple(
// statements...))), the three built at the return statement (one trace).
struct IsolatedWrapper {
    CNode* depend = nullptr;
    CNode* stop = nullptr;
    CNode* tuple = nullptr;
};

std::optional<IsolatedWrapper> isolatedWrapperOf(FuncGraph* g) {
    CNode* ret = g->returnNode();
    if (ret == nullptr || ret->size() < 2) {
        return std::nullopt;
    }
    auto* dep = ir::nodeCast<CNode>(ret->input(1));
    if (dep == nullptr || !dep->isPrimitive(ir::prim::kDepend) || dep->size() != 3 ||
        dep->users().size() != 1) {
        return std::nullopt;
    }
    auto* stop = ir::nodeCast<CNode>(dep->input(2));
    if (stop == nullptr || !stop->isPrimitive(ir::prim::kStopGradient) || stop->size() != 2 ||
        stop->users().size() != 1) {
        return std::nullopt;
    }
    auto* tuple = ir::nodeCast<CNode>(stop->input(1));
    if (tuple == nullptr || !tuple->isPrimitive(ir::prim::kMakeTuple) ||
        tuple->users().size() != 1) {
        return std::nullopt;
    }
    // The parser builds the three at the return statement; a user's
    // `ops.depend(x, ops.stop_gradient((a, b)))` has its own columns.
    if (dep->graph() != g || stop->graph() != g || tuple->graph() != g ||
        dep->debug().trace != stop->debug().trace || stop->debug().trace != tuple->debug().trace) {
        return std::nullopt;
    }
    return IsolatedWrapper{dep, stop, tuple};
}

}  // namespace

std::vector<CNode*> dissolveIsolatedWrapper(ir::Module& m, FuncGraph* g) {
    const std::optional<IsolatedWrapper> w = isolatedWrapperOf(g);
    if (!w) {
        return {};
    }
    std::vector<CNode*> items;
    for (std::size_t i = 1; i < w->tuple->size(); ++i) {
        auto* c = ir::nodeCast<CNode>(w->tuple->input(i));
        if (c != nullptr && c->graph() == g &&
            std::find(items.begin(), items.end(), c) == items.end()) {
            items.push_back(c);
        }
    }
    m.setInput(g->returnNode(), 1, w->depend->input(1));
    m.erase(w->depend);
    m.erase(w->stop);
    m.erase(w->tuple);
    return items;
}

void keepIsolated(ir::Module& m, FuncGraph* g, CNode* statement) {
    CNode* ret = g->returnNode();
    if (ret == nullptr || ret->size() < 2) {
        return;
    }
    if (const std::optional<IsolatedWrapper> w = isolatedWrapperOf(g)) {
        m.appendInput(w->tuple, statement);
        std::vector<ir::AbstractPtr> elems;
        for (std::size_t i = 1; i < w->tuple->size(); ++i) {
            elems.push_back(w->tuple->input(i)->abstract());
        }
        w->tuple->setAbstract(ir::Abstract::tuple(elems));
        w->stop->setAbstract(w->tuple->abstract());
        return;
    }
    Node* out = ret->input(1);
    auto primitive = [&](const char* name) { return m.addValue(g, ir::Value::primitive(name)); };
    CNode* tuple = m.addCNode(g, {primitive("MakeTuple"), statement});
    CNode* stop = m.addCNode(g, {primitive("StopGradient"), tuple});
    CNode* dep = m.addCNode(g, {primitive("Depend"), out, stop});
    tuple->setAbstract(ir::Abstract::tuple({statement->abstract()}));
    stop->setAbstract(tuple->abstract());
    dep->setAbstract(out->abstract());
    for (CNode* c : {tuple, stop, dep}) {
        c->copyLocation(*ret);
    }
    m.setInput(ret, 1, dep);
}

std::vector<CNode*> statementOrder(const FuncGraph* g, const std::vector<CNode*>& roots) {
    std::vector<CNode*> out;
    std::unordered_set<const CNode*> seen;
    std::vector<CNode*> stack;
    auto push = [&](Node* n) {
        auto* c = ir::nodeCast<CNode>(n);
        if (c != nullptr && c->graph() == g && seen.insert(c).second) {
            stack.push_back(c);
        }
    };
    push(g->returnNode());
    for (CNode* r : roots) {
        push(r);
    }
    while (!stack.empty()) {
        CNode* c = stack.back();
        stack.pop_back();
        out.push_back(c);
        for (Node* in : c->inputs()) {
            push(in);
        }
    }
    const CNode* ret = g->returnNode();
    std::sort(out.begin(), out.end(), [ret](const CNode* a, const CNode* b) {
        if ((a == ret) != (b == ret)) {
            return b == ret;
        }
        return a->id() < b->id();
    });
    return out;
}

EffectMap analyzeEffects(const std::vector<FuncGraph*>& graphs,
                         const std::unordered_map<const FuncGraph*, std::vector<CNode*>>& bodies) {
    EffectMap eff;
    std::unordered_map<const FuncGraph*, std::vector<FuncGraph*>> refs;
    std::vector<std::vector<FuncGraph*>> switchGroups;
    std::vector<FuncGraph*> escaping;  // graph values not called directly
    std::vector<const FuncGraph*> unknownCallers;
    for (FuncGraph* g : graphs) {
        Effects& e = eff[g];
        const auto it = bodies.find(g);
        if (it == bodies.end()) {
            continue;
        }
        for (const CNode* c : it->second) {
            e.u = e.u || isMemWrite(*c);
            e.io = e.io || isIo(*c);
            for (std::size_t i = 0; i < c->size(); ++i) {
                e.u = e.u || needsLoad(*c, i) || needsTupleLoad(*c, i);
                if (const auto* v = ir::nodeCast<ir::ValueNode>(c->input(i))) {
                    std::vector<FuncGraph*> found;
                    ir::collectGraphRefs(*v->value(), found);
                    refs[g].insert(refs[g].end(), found.begin(), found.end());
                    if (i > 0) {
                        escaping.insert(escaping.end(), found.begin(), found.end());
                    }
                }
            }
            if (c->isPrimitive(ir::prim::kSwitch) && c->size() == 4) {
                CallTargets t;
                targetsOfValue(c->input(2), t);
                targetsOfValue(c->input(3), t);
                if (t.graphs.size() > 1) {
                    switchGroups.push_back(t.graphs);
                }
            }
            if (isCall(*c) && !callTargets(*c).known) {
                unknownCallers.push_back(g);
            }
        }
    }
    for (bool changed = true; changed;) {
        changed = false;
        auto join = [&](Effects& into, const Effects& from) {
            const Effects before = into;
            into |= from;
            changed = changed || !(before == into);
        };
        Effects unknown;
        for (const FuncGraph* g : escaping) {
            unknown |= eff[g];
        }
        for (const FuncGraph* g : unknownCallers) {
            join(eff[g], unknown);
        }
        for (const auto& [g, rs] : refs) {
            for (const FuncGraph* r : rs) {
                if (r != g) {
                    join(eff[g], eff[r]);
                }
            }
        }
        for (const auto& group : switchGroups) {
            Effects all;
            for (const FuncGraph* b : group) {
                all |= eff[b];
            }
            for (const FuncGraph* b : group) {
                join(eff[b], all);
            }
        }
    }
    Effects unknown;
    for (const FuncGraph* g : escaping) {
        unknown |= eff[g];
    }
    eff[nullptr] = unknown;
    return eff;
}

Effects callEffects(const CNode& call, const EffectMap& effects, const Effects& unknown) {
    const CallTargets t = callTargets(call);
    if (!t.known) {
        return unknown;
    }
    Effects e;
    for (const FuncGraph* g : t.graphs) {
        const auto it = effects.find(g);
        if (it != effects.end()) {
            e |= it->second;
        }
    }
    return e;
}

void eraseDead(ir::Module& m, CNode* n) {
    std::vector<CNode*> work{n};
    while (!work.empty()) {
        CNode* c = work.back();
        work.pop_back();
        if (!c->users().empty() || c == c->graph()->returnNode()) {
            continue;
        }
        std::vector<CNode*> inputs;
        std::vector<ir::ValueNode*> values;
        for (Node* in : c->inputs()) {
            auto* ic = ir::nodeCast<CNode>(in);
            if (ic != nullptr && ic->graph() == c->graph() &&
                std::find(inputs.begin(), inputs.end(), ic) == inputs.end()) {
                inputs.push_back(ic);
            }
            auto* v = ir::nodeCast<ir::ValueNode>(in);
            if (v != nullptr && std::find(values.begin(), values.end(), v) == values.end()) {
                values.push_back(v);
            }
        }
        m.erase(c);
        for (ir::ValueNode* v : values) {
            if (v->users().empty()) {
                m.erase(v);  // constants are per use
            }
        }
        work.insert(work.end(), inputs.begin(), inputs.end());
    }
}

}  // namespace irscope::passes::monad
