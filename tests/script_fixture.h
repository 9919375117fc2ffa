// Running a script through the graph compiler in a test: the interpreter with the built-in
// modules, an installed GraphCompilerImpl (environment not read) and the output collected.
// Shared by the compiler and pass suites (test_graph_compiler, test_auto_monad, test_opt_a,
// the autodiff suites through autodiff_fixture.h).
#pragma once

#include <QtTest>

#include <cstdint>
#include <memory>
#include <string>

#include "compiler/graph_compiler.h"
#include "frontend/interp/interpreter.h"
#include "frontend/modules/modules.h"
#include "passes/compile_record.h"

namespace script_test {

struct Run {
    std::string out;  // what the script printed, then its error text (if any)
    irscope::interp::RunResult result;
    // The compiler goes with the interpreter (it holds the compiled Cells); its session and
    // cache size are kept.
    std::shared_ptr<irscope::store::Session> session;
    std::size_t cachedGraphs = 0;
};

// Runs `source` as `fileName` with `options` (readEnvironment is forced off) and, when
// maxSteps is not 0, that step budget.
inline Run runScript(const std::string& source, irscope::compiler::CompilerOptions options = {},
                     std::uint64_t maxSteps = 0, const std::string& fileName = "net.py") {
    using namespace irscope;
    Run r;
    interp::Interpreter I;
    if (maxSteps > 0) {
        I.limits().maxSteps = maxSteps;
    }
    I.setOutputSink([&](std::string_view s) { r.out += s; });
    modules::registerBuiltinModules(I);
    options.readEnvironment = false;
    auto compiler = compiler::GraphCompilerImpl::install(I, std::move(options));
    r.result = I.runScript(source, fileName);
    r.session = compiler->sharedSession();
    r.cachedGraphs = compiler->cachedGraphs();
    r.out += r.result.error;
    return r;
}

}  // namespace script_test

// The run succeeded and printed exactly `expected`.
#define EXPECT_OUTPUT(run, expected)                                                         \
    do {                                                                                     \
        const script_test::Run& r_ = (run);                                                  \
        QVERIFY2(r_.result.status == irscope::interp::RunResult::Status::Ok, r_.out.c_str()); \
        QCOMPARE(QString::fromStdString(r_.out), QString::fromStdString(expected));          \
    } while (false)
