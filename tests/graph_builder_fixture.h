// Shared by the graph compiler front-end suites (test_graph_builder, test_symbol_resolve):
// runs a small MindSpore script in an interpreter with the built-in modules, fetches the
// network (`target`) and its arguments (`args`) from the script's globals, runs `parse` and
// `symbol_resolve` on a Module and keeps the printed IR. Every printed stage must verify
// and survive the .ir printer/parser round trip (Compiled::problem says what failed).
#pragma once

#include <QtTest>

#include "compiler/frontend_passes.h"
#include "frontend/interp/interpreter.h"
#include "frontend/modules/modules.h"
#include "ir/ir_text.h"
#include "ir/module.h"
#include "passes/compile_error.h"

namespace gbtest {

using namespace irscope;

struct Compiled {
    std::unique_ptr<interp::Interpreter> I;
    std::unique_ptr<ir::Module> m;
    std::shared_ptr<compiler::FrontendState> state;
    std::string parsed, resolved;
    std::string errorType, errorMessage;
    int errorLine = 0;
    std::string problem;  // a verify/round-trip failure, empty when all is well
};

// Runs `src`, then compiles `target` (a global) called with the global tuple `args`.
// A global function that is a @jit wrapper compiles its __wrapped__ function.
inline Compiled compile(const std::string& src, const compiler::CompileLimits& limits = {}, bool resolve = true) {
    Compiled c;
    c.I = std::make_unique<interp::Interpreter>();
    modules::registerBuiltinModules(*c.I);
    interp::RunResult r = c.I->runScript(src, "net.py");
    if (r.status != interp::RunResult::Status::Ok) {
        c.problem = "script failed: " + r.error;
        return c;
    }
    interp::DictObject& g = *c.I->mainModule()->dict();
    interp::Value target = g.getStr("target");
    if (auto* n = target.as<interp::NativeFunctionObject>(); n && n->dict()) {
        target = n->dict()->getStr("__wrapped__");
    }
    interp::CallArgs args;
    if (auto* t = g.getStr("args").as<interp::TupleObject>()) {
        args.pos = t->items;
    }
    c.m = std::make_unique<ir::Module>();
    passes::PassContext ctx;
    auto check = [&](const char* stage) {
        std::string v = c.m->verify();
        std::string text = ir::printIr(*c.m);
        if (!v.empty()) {
            c.problem = std::string(stage) + ": verify: " + v;
        } else if (std::string again = ir::printIr(*ir::parseIr(text)); again != text) {
            c.problem = std::string(stage) + ": round trip differs:\n" + text + "\n----\n" + again;
        }
        return text;
    };
    try {
        c.state = compiler::makeFrontendState({c.I.get(), target, args, limits});
        compiler::makeParsePass(c.state)->run(*c.m, ctx);
        c.parsed = check("parse");
        if (resolve && c.problem.empty()) {
            compiler::makeSymbolResolvePass(c.state)->run(*c.m, ctx);
            c.resolved = check("symbol_resolve");
        }
        if (qEnvironmentVariableIsSet("IRSCOPE_DUMP") && !c.problem.empty()) {
            qInfo().noquote() << QString::fromStdString(c.problem);
        }
        if (qEnvironmentVariableIsSet("IRSCOPE_DUMP")) {  // for debugging a failing case
            qInfo().noquote() << QString::fromStdString(c.parsed) << "\n=====\n" << QString::fromStdString(c.resolved);
        }
    } catch (const passes::CompileError& e) {
        c.errorType = e.pyType();
        c.errorMessage = e.message();
        c.errorLine = e.where().line;
    }
    return c;
}

inline int count(const std::string& text, const std::string& what) {
    int n = 0;
    for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + what.size())) {
        ++n;
    }
    return n;
}

inline int graphCount(const std::string& text) {
    return count(text, "\nsubgraph @");
}

inline bool hasGraph(const std::string& text, const std::string& name) {
    return text.find("subgraph @" + name + "(") != std::string::npos;
}

inline const char* kHeader = R"(import mindspore as ms
import numpy as np
from mindspore import nn, ops, Tensor, Parameter
import mindspore.ops as P
)";

inline std::string script(const std::string& body) {
    return std::string(kHeader) + body;
}

}  // namespace gbtest

