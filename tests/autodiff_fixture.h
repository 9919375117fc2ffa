// Helpers shared by the autodiff test suites (test_autodiff*.cpp): scripts run through the
// graph compiler (script_fixture.h), and checks on the IR meta_fg_expand leaves.
#pragma once

#include <QtTest>

#include <memory>
#include <string>

#include "ir/module.h"
#include "script_fixture.h"

namespace autodiff_test {

using namespace irscope;

using script_test::Run;
using script_test::runScript;

inline const char* const kHeader =
    "import numpy as np\n"
    "import mindspore as ms\n"
    "from mindspore import nn, ops, Tensor, Parameter, ParameterTuple\n"
    "from mindspore.ops import composite as C\n"
    "from mindspore.ops import functional as F\n"
    "ms.set_context(mode=ms.GRAPH_MODE)\n";

// The first node without an abstract in a graph the entry reaches ("" when all are typed).
inline std::string untyped(const ir::Module& m) {
    for (ir::FuncGraph* g : m.reachableGraphs()) {
        for (ir::Parameter* p : g->parameters()) {
            if (!p->abstract()) {
                return g->name() + ": parameter " + p->name();
            }
        }
        for (ir::CNode* c : g->topoOrder()) {
            for (ir::Node* n : c->inputs()) {
                const auto* callee = ir::nodeCast<ir::ValueNode>(n);
                if (!n->abstract() &&
                    (callee == nullptr || callee->value()->kind != ir::Value::Kind::Primitive)) {
                    return g->name() + ": an input of node " + std::to_string(c->id());
                }
            }
            if (!c->abstract()) {
                return g->name() + ": node " + std::to_string(c->id());
            }
        }
    }
    return {};
}

inline std::size_t countPrim(const ir::Module& m, std::string_view name) {
    std::size_t n = 0;
    for (ir::FuncGraph* g : m.reachableGraphs()) {
        for (ir::CNode* c : g->topoOrder()) {
            n += c->isPrimitive(name) ? 1 : 0;
        }
    }
    return n;
}

}  // namespace autodiff_test
