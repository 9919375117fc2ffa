// Helpers shared by the autodiff test suites (test_autodiff*.cpp): scripts run through the
// graph compiler, and checks on the IR meta_fg_expand leaves.
#pragma once

#include <QtTest>

#include <memory>
#include <string>

#include "compiler/graph_compiler.h"
#include "frontend/interp/interpreter.h"
#include "frontend/modules/modules.h"
#include "ir/module.h"
#include "session/compile_record.h"

namespace autodiff_test {

using namespace irscope;

struct Run {
    std::string out;
    interp::RunResult result;
    std::shared_ptr<session::Session> session;
};

inline Run runScript(const std::string& source) {
    Run r;
    interp::Interpreter I;
    I.setOutputSink([&](std::string_view s) { r.out += s; });
    modules::registerBuiltinModules(I);
    compiler::CompilerOptions options;
    options.readEnvironment = false;
    auto compiler = compiler::GraphCompilerImpl::install(I, std::move(options));
    r.result = I.runScript(source, "net.py");
    r.session = compiler->sharedSession();
    r.out += r.result.error;
    return r;
}

#define EXPECT_OUTPUT(run, expected)                                                 \
    do {                                                                             \
        const Run& r_ = (run);                                                       \
        QVERIFY2(r_.result.status == interp::RunResult::Status::Ok, r_.out.c_str()); \
        QCOMPARE(QString::fromStdString(r_.out), QString::fromStdString(expected));  \
    } while (false)

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
