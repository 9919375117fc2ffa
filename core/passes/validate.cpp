// validate: MindSpore's validate action. Checks that the IR handed to the backend is what
// the backend can run, and throws CompileError at the first node that is not; it never
// changes the IR. Checked over every graph reachable from the entry:
//  - the module's use-def index is consistent (Module::verify);
//  - every parameter and CNode has an abstract;
//  - no host object, `resolve`, meta operation (a primitive the registry does not know:
//    `add`, `getitem`, `hyper_map` ...), GradOperation/grad/value_and_grad/J, or call with
//    keyword arguments (the cnode attr `keywords`) is left;
//  - every primitive call has at least the inputs its registry entry requires;
//  - memory side effects (Assign ...) take a U monad and IO side effects (Print) an IO
//    monad as their last input, Load's second input is a state, and UpdateState starts
//    with a state. (A module with no state anywhere has not been through auto_monad; its
//    side effects are still kept by the front end's isolated-statement Depend, and the
//    monad checks do not apply.)
#include <string>

#include "ir/monad.h"
#include "ir/prim_names.h"
#include "passes/autodiff.h"
#include "passes/compile_error.h"
#include "passes/opt_util.h"
#include "passes/pipeline.h"

namespace irscope::passes {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;
using ir::Value;
using ir::ValueNode;

namespace {

[[noreturn]] void fail(const Node* at, const std::string& message) {
    const std::string who = at->debug().name.empty() ? "" : " (" + at->debug().name + ")";
    const std::string where = at->graph() != nullptr ? " in @" + at->graph()->name() : "";
    throw CompileError("RuntimeError", "validate: " + message + where + who + ".",
                       opt::locationOf(at));
}

bool isGradient(std::string_view name) {
    return name == ir::prim::kGradOperation || name == "grad" || name == "value_and_grad" ||
           name == "J";
}

// Host objects, and primitives the registry does not know, anywhere inside a constant.
void checkValue(const Node* at, const Value& v) {
    switch (v.kind) {
        case Value::Kind::Host:
            fail(at, "the host object " + v.host->text() + " was not resolved");
        case Value::Kind::Primitive:
            if (isGradient(v.prim->name)) {
                fail(at, "the gradient operation '" + v.prim->name + "' was not expanded");
            }
            if (ops::OpRegistry::instance().find(v.prim->name) == nullptr) {
                fail(at, "the operation '" + v.prim->name +
                             "' is not a primitive the backend can run (a meta operation "
                             "left after type_inference)");
            }
            for (const auto& [k, a] : v.prim->attrs) {
                checkValue(at, *a);
            }
            return;
        case Value::Kind::Tuple:
        case Value::Kind::List:
            for (const auto& e : v.elements) {
                checkValue(at, *e);
            }
            return;
        default:
            return;
    }
}

bool usesMonads(const ir::Module& m) {
    for (FuncGraph* g : m.reachableGraphs()) {
        for (CNode* c : g->topoOrder()) {
            for (const Node* in : c->inputs()) {
                if (ir::isMonad(in)) {
                    return true;
                }
            }
        }
    }
    return false;
}

void checkCNode(const CNode* c, bool monads) {
    if (c->abstract() == nullptr) {
        fail(c, "the node has no type");
    }
    if (c->attrs().find("keywords") != nullptr) {
        fail(c, "keyword arguments were not bound");
    }
    for (const Node* in : c->inputs()) {
        if (const auto* v = ir::nodeCast<ValueNode>(in)) {
            checkValue(c, *v->value());
        }
    }
    const ops::OpDef* def = opt::opDefOf(c);
    if (def == nullptr) {
        return;  // a call of a graph or of a computed function
    }
    if (c->size() - 1 < def->requiredInputs()) {
        fail(c, "'" + def->name + "' takes at least " + std::to_string(def->requiredInputs()) +
                    " inputs but has " + std::to_string(c->size() - 1));
    }
    if (!monads) {
        return;
    }
    const Node* last = c->size() > 1 ? c->input(c->size() - 1) : nullptr;
    if (def->sideEffectMem && (last == nullptr || !ir::isMonadOf(last, ir::MonadKind::U))) {
        fail(c, "'" + def->name + "' writes memory but has no U monad input");
    }
    if (def->sideEffectIo && (last == nullptr || !ir::isMonadOf(last, ir::MonadKind::IO))) {
        fail(c, "'" + def->name + "' does IO but has no IO monad input");
    }
    if (def->name == ir::prim::kLoad && (c->size() != 3 || !ir::isMonad(c->input(2)))) {
        fail(c, "'Load' must read a parameter at a state: Load(param, U)");
    }
    if (def->name == ir::prim::kUpdateState && (c->size() < 3 || !ir::isMonad(c->input(1)))) {
        fail(c, "'UpdateState' must take a state first: UpdateState(U, node...)");
    }
}

void validate(const ir::Module& m) {
    if (m.entry() == nullptr) {
        throw CompileError("RuntimeError", "validate: the module has no entry graph");
    }
    if (const std::string problem = m.verify(); !problem.empty()) {
        throw CompileError("RuntimeError", "validate: the IR is inconsistent: " + problem,
                           opt::locationOf(m.entry()->returnNode()));
    }
    const bool monads = usesMonads(m);
    for (FuncGraph* g : m.reachableGraphs()) {
        if (g->returnNode() == nullptr) {
            throw CompileError(
                "RuntimeError", "validate: @" + g->name() + " has no Return",
                g->debug().trace.empty() ? ir::SourceLocation{} : g->debug().trace.back());
        }
        for (const ir::Parameter* p : g->parameters()) {
            if (p->abstract() == nullptr) {
                fail(p, "the parameter '" + p->name() + "' has no type");
            }
        }
        for (const CNode* c : g->topoOrder()) {
            checkCNode(c, monads);
        }
    }
}

}  // namespace

std::unique_ptr<Pass> makeValidatePass() {
    return makePass("validate",
                    "Checks that the IR handed to the backend is well formed: every node typed, "
                    "no meta operations or unexpanded gradients left, monad chains intact.",
                    [](ir::Module& m, PassContext&) {
                        validate(m);
                        return false;
                    });
}

}  // namespace irscope::passes
