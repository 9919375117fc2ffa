// The op suites' scripts (test_ops_more, test_ops_scatter_loss): each case runs a body in
// PYNATIVE_MODE then GRAPH_MODE after the suite's prelude (which defines Net, wrapping any
// callable as a Cell's construct, and an input x) and checks both modes print the same, or
// that a bad call fails with MindSpore's message in both modes.
#pragma once

#include <QtTest>

#include <string>

#include "script_fixture.h"

namespace op_test {

// The imports, Net (any callable as a Cell's construct), Net1 (one input, for GradOperation)
// and the input x; a suite appends its own classes.
inline const std::string kPrelude =
    "import numpy as np\n"
    "import mindspore as ms\n"
    "from mindspore import nn, ops, Tensor, Parameter\n"
    "from mindspore.ops import operations as P\n"
    "class Net(nn.Cell):\n"
    "    def __init__(self, f):\n"
    "        super().__init__()\n"
    "        self.f = f\n"
    "    def construct(self, *args):\n"
    "        return self.f(*args)\n"
    "class Net1(nn.Cell):\n"
    "    def __init__(self, f):\n"
    "        super().__init__()\n"
    "        self.f = f\n"
    "    def construct(self, a):\n"
    "        return self.f(a)\n"
    "x = Tensor(np.array([[1, 5, 3], [4, 2, 6]], np.float32))\n";

// Runs `body` (which may use the prelude's names and `mode`) in PYNATIVE_MODE then
// GRAPH_MODE and checks that both print `once`.
inline void expectBothModes(const std::string& prelude, const std::string& body,
                            const std::string& once) {
    std::string indented;
    std::size_t start = 0;
    while (start < body.size()) {
        const std::size_t end = body.find('\n', start);
        indented += "    " + body.substr(start, end - start) + "\n";
        start = end == std::string::npos ? body.size() : end + 1;
    }
    const script_test::Run r = script_test::runScript(
        prelude +
        "for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):\n    ms.set_context(mode=mode)\n" +
        indented);
    EXPECT_OUTPUT(r, once + once);
}

// `Net(lambda *a: call)(x)` fails with `message` in both modes.
inline void expectError(const std::string& prelude, const std::string& call,
                        const std::string& message) {
    for (const char* mode : {"PYNATIVE_MODE", "GRAPH_MODE"}) {
        const script_test::Run r =
            script_test::runScript(prelude + "ms.set_context(mode=ms." + mode + ")\n" +
                                   "Net(lambda *a: " + call + ")(x)\n");
        QCOMPARE(r.result.exitStatus, 1);
        QVERIFY2(r.out.find(message) != std::string::npos, r.out.c_str());
    }
}

}  // namespace op_test
