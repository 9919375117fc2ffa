// graph_reusing (lazy inline): on .ir text, instances marked with cell_init_args become
// one CR_ graph taking their weights as parameters (passes/README.md); on the bundled
// lazy_inline examples, symbol_resolve marks the right graphs (limitations 1 and 2) and
// MS_DEV_CELL_REUSE=1/2 cuts the node counts the later passes see.
#include <QtTest>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "compiler/graph_compiler.h"
#include "frontend/interp/interpreter.h"
#include "frontend/modules/modules.h"
#include "ir/ir_text.h"
#include "ir/module.h"
#include "passes/pipeline.h"
#include "script_fixture.h"
#include "store/session.h"
#include "test_files.h"

using namespace irscope;

namespace {

// Two Blocks with equal cell_init_args reading their own weight as a free variable of the
// entry; `third` adds a third instance whose body is given.
std::string blocks(const std::string& third = {}, const std::string& args3 = "{'n': 2}") {
    std::string s =
        "# IR entry: @Net_construct\n"
        "# Params:\n"
        "%para1_x: <Tensor[Float32], (2)>\n"
        "%para2_b0.w: <Ref[Tensor[Float32]], (2), ref_key=:b0.w> : has_default\n"
        "%para3_b1.w: <Ref[Tensor[Float32]], (2), ref_key=:b1.w> : has_default\n"
        "%para4_b2.w: <Ref[Tensor[Float32]], (2), ref_key=:b2.w> : has_default\n"
        "subgraph @Net_construct() {\n"
        "  %0 = call @Block_construct(%para1_x)\n"
        "  %1 = call @Block_construct_1(%0)\n";
    s += third.empty() ? "  Return(%1)\n}\n"
                       : "  %2 = call @Block_construct_2(%1)\n  Return(%2)\n}\n";
    for (int i = 0; i < 2; ++i) {
        s += "subgraph attr:\ncell_init_args: \"lazy_inline_Block{'n': 2}\"\n";
        s += "subgraph @Block_construct" + std::string(i ? "_1" : "") + "(%para" +
             std::to_string(5 + i) + "_h) {\n";
        s += "  %0 = Mul(%para" + std::to_string(5 + i) + "_h, $(@Net_construct:%para" +
             std::to_string(2 + i) + "_b" + std::to_string(i) + ".w))\n";
        s += "  %1 = Add(%0, F32(1))\n  Return(%1)\n}\n";
    }
    if (!third.empty()) {
        s += "subgraph attr:\ncell_init_args: \"lazy_inline_Block" + args3 + "\"\n";
        s += "subgraph @Block_construct_2(%para7_h) {\n" + third + "}\n";
    }
    return s;
}

bool runPass(ir::Module& m, std::int64_t level, bool set = true) {
    passes::Settings s;
    if (set) {
        s.set(std::string(passes::kCellReuse), level);
    }
    passes::PassContext ctx(s);
    const bool changed = passes::makeGraphReusingPass()->run(m, ctx);
    const std::string problem = m.verify();
    if (!problem.empty()) {
        throw std::runtime_error(problem);
    }
    return changed;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::size_t reusedGraphs(const ir::Module& m) {
    std::size_t n = 0;
    for (const ir::FuncGraph* g : m.reachableGraphs()) {
        n += g->flag("cell_reuse") ? 1 : 0;
    }
    return n;
}

using test_files::readFile;

// Runs a bundled example with MS_DEV_CELL_REUSE=level (unset when negative) and returns
// its session.
std::shared_ptr<store::Session> runExample(const std::string& name, int level,
                                             std::string* out = nullptr) {
    compiler::CompilerOptions options;
    if (level >= 0) {
        options.overrides.set(std::string(passes::kCellReuse), std::int64_t{level});
    }
    const std::string path =
        std::string(IRSCOPE_SOURCE_DIR) + "/resources/examples/" + name + ".py";
    const script_test::Run r = script_test::runScript(readFile(path), std::move(options), 0, path);
    if (out != nullptr) {
        *out = r.out;
    }
    if (r.result.status != interp::RunResult::Status::Ok) {
        throw std::runtime_error(name + " failed: " + r.result.error);
    }
    return r.session;
}

// Runs `source` (a script) with MS_DEV_CELL_REUSE=1 and returns its session.
std::shared_ptr<store::Session> runSource(const std::string& source, std::string* out = nullptr) {
    compiler::CompilerOptions options;
    options.overrides.set(std::string(passes::kCellReuse), std::int64_t{1});
    const script_test::Run r = script_test::runScript(source, std::move(options));
    if (r.result.status != interp::RunResult::Status::Ok) {
        throw std::runtime_error(r.result.error);
    }
    if (out != nullptr) {
        *out = r.out;
    }
    return r.session;
}

std::size_t occurrences(const std::string& text, const std::string& part) {
    std::size_t n = 0;
    for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
        ++n;
    }
    return n;
}

std::size_t nodesAfter(const store::Session& s, std::string_view pass) {
    const passes::PassSnapshot* snap = s.compiles.at(0).find(pass);
    return snap != nullptr ? snap->counts().nodes : 0;
}


// Three Blocks in a CellList, each with a weight of its own, a Python sub-cell with a weight
// and a native Dense; `decorator` goes above Block.__init__, `extra` ends it, and `netInit`
// ends Net.__init__.
std::string threeBlocks(const std::string& decorator, const std::string& extra = {},
                        const std::string& netInit = {}) {
    return "import numpy as np\n"
           "import mindspore as ms\n"
           "from mindspore import nn, ops, Tensor, Parameter\n"
           "from mindspore.common import lazy_inline\n"
           "made = []\n"
           "class Attn(nn.Cell):\n"
           "    def __init__(self, n):\n"
           "        super().__init__()\n"
           "        self.w = Parameter(Tensor(np.full((n,), 0.5, np.float32)), name='w')\n"
           "        self.scale = 1.0\n"
           "    def construct(self, x):\n"
           "        y = x * self.w * self.scale\n"
           "        return ops.tanh(y)\n"
           "class Block(nn.Cell):\n" +
           decorator +
           "    def __init__(self, n):\n"
           "        super().__init__()\n"
           "        made.append(n)\n"
           "        self.attn = Attn(n)\n"
           "        self.fc = nn.Dense(n, n, weight_init='ones', bias_init='zeros')\n"
           "        self.b = Parameter(Tensor(np.full((n,), 0.1 * len(made), np.float32)), name='b')\n"
           "        self.k = 2.0\n" +
           extra +
           "    def construct(self, x):\n"
           "        h = self.attn(x) * self.k\n"
           "        return self.fc(h) + self.b\n"
           "class Net(nn.Cell):\n"
           "    def __init__(self):\n"
           "        super().__init__()\n"
           "        self.blocks = nn.CellList([Block(2) for _ in range(3)])\n" +
           netInit +
           "    def construct(self, x):\n"
           "        for b in self.blocks:\n"
           "            x = b(x)\n"
           "        return x\n"
           "ms.set_context(mode=ms.GRAPH_MODE)\n"
           "print(Net()(Tensor(np.ones((1, 2), np.float32))))\n";
}

// The IR without what differs between a compile with and without @lazy_inline by design:
// the cell_init_args graph attribute, the ids in debug names (CNode_<id>$x), and the order
// of the entry's weights (an instance's copy adds its weights after the first instance's
// sub-cells' ones, where resolving it on its own interleaves them), with their numbers.
std::string withoutReuseMarks(const std::string& ir) {
    std::string out;
    std::istringstream in(ir);
    std::string line;
    bool attrHeader = false;
    std::vector<std::string> params;  // the `# Params:` block, sorted when it ends
    bool inParams = false;
    while (std::getline(in, line)) {
        for (std::size_t at = line.find("%para"); at != std::string::npos; at = line.find("%para", at + 5)) {
            std::size_t end = at + 5;
            while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end])) != 0) {
                ++end;
            }
            line.erase(at + 5, end - at - 5);
        }
        if (line == "# Params:") {
            inParams = true;
        } else if (inParams && line.rfind("%para", 0) == 0) {
            params.push_back(line);
            continue;
        } else if (inParams) {
            inParams = false;
            std::sort(params.begin(), params.end());
            for (const std::string& p : params) {
                out += p + "\n";
            }
        }
        if (line == "subgraph attr:") {
            attrHeader = true;
            continue;
        }
        if (attrHeader) {
            attrHeader = false;
            if (line.rfind("cell_init_args:", 0) == 0) {
                continue;
            }
            out += "subgraph attr:\n";
        }
        for (std::size_t at = line.find("CNode_"); at != std::string::npos;
             at = line.find("CNode_", at + 6)) {
            std::size_t end = at + 6;
            while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end])) != 0) {
                ++end;
            }
            if (end < line.size() && line[end] == '$') {
                line.replace(at + 6, end - at - 6, "N");
            }
        }
        out += line + "\n";
    }
    return out;
}

// threeBlocks undecorated and with @lazy_inline, Block's `return self.fc(h) + self.b` made
// `body`: both run (the same output checked), their sessions kept.
struct PlainAndLazy {
    std::shared_ptr<store::Session> plain;
    std::shared_ptr<store::Session> lazy;
};
PlainAndLazy runBothWithBody(const std::string& body, const std::string& extra = {}) {
    const std::string use = "        return self.fc(h) + self.b\n";
    std::string script = threeBlocks("    @lazy_inline\n", extra);
    std::string plainScript = threeBlocks("    # no decorator\n", extra);
    for (std::string* text : {&script, &plainScript}) {
        text->replace(text->find(use), use.size(), body);
    }
    std::string outPlain;
    std::string outLazy;
    PlainAndLazy r{runSource(plainScript, &outPlain), runSource(script, &outLazy)};
    if (outLazy != outPlain) {
        throw std::runtime_error("the outputs differ:\n" + outPlain + "---\n" + outLazy);
    }
    return r;
}
}  // namespace

class TestGraphReusing : public QObject {
    Q_OBJECT

private slots:
    void equalInstancesShareOneGraph() {
        auto m = ir::parseIr(blocks(), "blocks.ir");
        QVERIFY(runPass(*m, 1));
        const std::string text = ir::printIr(*m);
        const ir::FuncGraph* cr = m->findGraph("CR_Block_construct");
        QVERIFY2(cr != nullptr, text.c_str());
        QCOMPARE(m->findGraph("Block_construct_1"), nullptr);
        QCOMPARE(reusedGraphs(*m), std::size_t(1));
        QVERIFY(cr->flag("no_inline"));
        QVERIFY(cr->flag("cell_reuse"));
        QVERIFY(m->entry()->flag("lazy_inline"));
        // The weight is a trailing parameter; each call passes its own instance's.
        QCOMPARE(cr->parameters().size(), std::size_t(2));
        QVERIFY2(contains(text, "call @CR_Block_construct(%para1_x, %para2_b0.w)"), text.c_str());
        QVERIFY2(contains(text, "call @CR_Block_construct(%0, %para3_b1.w)"), text.c_str());
        QVERIFY2(contains(text, "Mul(%para5_h, %para6_b0.w)"), text.c_str());
        // The module's graphs: the entry and the one reused graph, nothing left over.
        QCOMPARE(m->graphs().size(), std::size_t(2));
    }

    void offByDefaultAndAtZero() {
        for (int level : {0, -1, 3}) {
            auto m = ir::parseIr(blocks(), "blocks.ir");
            const std::string before = ir::printIr(*m);
            QVERIFY(!runPass(*m, level, level >= 0));
            QCOMPARE(ir::printIr(*m), before);
        }
    }

    void level2ReusesLikeLevel1() {
        auto m = ir::parseIr(blocks(), "blocks.ir");
        QVERIFY(runPass(*m, 2));
        QVERIFY(m->findGraph("CR_Block_construct") != nullptr);
    }

    void differentBodiesOrArgsGetTheirOwnGraph() {
        // Same cell_init_args, different body: a second reused graph.
        const std::string sub =
            "  %0 = Sub(%para7_h, $(@Net_construct:%para4_b2.w))\n  Return(%0)\n";
        auto m = ir::parseIr(blocks(sub), "blocks.ir");
        QVERIFY(runPass(*m, 1));
        QCOMPARE(reusedGraphs(*m), std::size_t(2));
        QVERIFY(m->findGraph("CR_Block_construct_2") != nullptr);
        // Same body, different cell_init_args: not merged either.
        const std::string same =
            "  %0 = Mul(%para7_h, $(@Net_construct:%para4_b2.w))\n  %1 = Add(%0, F32(1))\n"
            "  Return(%1)\n";
        auto m2 = ir::parseIr(blocks(same, "{'n': 3}"), "blocks.ir");
        QVERIFY(runPass(*m2, 1));
        QCOMPARE(reusedGraphs(*m2), std::size_t(2));
        // Same body and args: all three share one graph.
        auto m3 = ir::parseIr(blocks(same), "blocks.ir");
        QVERIFY(runPass(*m3, 1));
        QCOMPARE(reusedGraphs(*m3), std::size_t(1));
        QVERIFY(contains(ir::printIr(*m3), "call @CR_Block_construct(%1, %para4_b2.w)"));
    }

    void aConstantDifferenceIsNotEqual() {
        const std::string other =
            "  %0 = Mul(%para7_h, $(@Net_construct:%para4_b2.w))\n  %1 = Add(%0, F32(2))\n"
            "  Return(%1)\n";
        auto m = ir::parseIr(blocks(other), "blocks.ir");
        QVERIFY(runPass(*m, 1));
        QCOMPARE(reusedGraphs(*m), std::size_t(2));
    }

    void aGraphUsedAsAValueStaysAsItIs() {
        std::string text = blocks();
        // Block_construct_1 is also passed as a value: it is not reused.
        text.replace(text.find("  %1 = call @Block_construct_1(%0)\n"),
                     std::string("  %1 = call @Block_construct_1(%0)\n").size(),
                     "  %1 = call @Block_construct_1(%0)\n  %9 = Partial(@Block_construct_1, %0)\n"
                     "  %10 = MakeTuple(%1, %9)\n");
        text.replace(text.find("Return(%1)"), 10, "Return(%10)");
        auto m = ir::parseIr(text, "blocks.ir");
        QVERIFY(runPass(*m, 1));
        QVERIFY(m->findGraph("Block_construct_1") != nullptr);
        QVERIFY(m->findGraph("CR_Block_construct") != nullptr);
    }

    void weightsAreThreadedIntoOwnedSubgraphs() {
        // Each Block calls its own inner graph, which reads the weight.
        std::string s =
            "# IR entry: @Net_construct\n# Params:\n%para1_x: <Tensor[Float32], (2)>\n"
            "%para2_a: <Ref[Tensor[Float32]], (2), ref_key=:a> : has_default\n"
            "%para3_b: <Ref[Tensor[Float32]], (2), ref_key=:b> : has_default\n"
            "subgraph @Net_construct() {\n  %0 = call @Outer(%para1_x)\n"
            "  %1 = call @Outer_1(%0)\n  Return(%1)\n}\n";
        for (int i = 0; i < 2; ++i) {
            const std::string sfx = i ? "_1" : "";
            const std::string w = i ? "%para3_b" : "%para2_a";
            const std::string h = "%para" + std::to_string(4 + 2 * i) + "_h";
            const std::string k = "%para" + std::to_string(5 + 2 * i) + "_k";
            s += "subgraph attr:\ncell_init_args: \"lazy_inline_Outer{}\"\n";
            s += "subgraph @Outer" + sfx + "(" + h + ") {\n  %0 = call @Inner" + sfx + "(" + h +
                 ")\n  Return(%0)\n}\n";
            s += "subgraph @Inner" + sfx + "(" + k + ") {\n  %0 = Mul(" + k +
                 ", $(@Net_construct:" + w + "))\n  Return(%0)\n}\n";
        }
        auto m = ir::parseIr(s, "nested.ir");
        QVERIFY(runPass(*m, 1));
        const std::string text = ir::printIr(*m);
        const ir::FuncGraph* cr = m->findGraph("CR_Outer");
        const ir::FuncGraph* inner = m->findGraph("Inner");
        QVERIFY2(cr && inner, text.c_str());
        QCOMPARE(m->findGraph("Inner_1"), nullptr);
        QCOMPARE(inner->parameters().size(), std::size_t(2));
        // No graph but the entry reads a weight as a free variable any more.
        for (const ir::Use& u : m->entry()->parameters()[1]->users()) {
            QCOMPARE(u.user->graph(), m->entry());
        }
        QVERIFY2(contains(text, "call @CR_Outer(%0, %para3_b)"), text.c_str());
    }

    void gptReusesOneBlockGraph() {
        std::string outOff;
        std::string outOn;
        const auto off = runExample("lazy_inline_gpt", -1, &outOff);
        const auto zero = runExample("lazy_inline_gpt", 0);
        const auto on = runExample("lazy_inline_gpt", 1, &outOn);
        const auto backend = runExample("lazy_inline_gpt", 2);
        QCOMPARE(QString::fromStdString(outOn), QString::fromStdString(outOff));
        // Unset and 0: no reuse, every pass sees four Block graphs.
        QCOMPARE(nodesAfter(*zero, "type_inference"), nodesAfter(*off, "type_inference"));
        QVERIFY(!contains(off->compiles[0].find("graph_reusing")->text(), "CR_"));
        QVERIFY(!off->compiles[0].find("graph_reusing")->changed());
        // 1 and 2: one Block graph, analysed and optimized once.
        for (const auto& s : {on, backend}) {
            const passes::PassSnapshot* reused = s->compiles[0].find("graph_reusing");
            QVERIFY(reused->changed());
            QCOMPARE(reused->counts().graphs, std::size_t(2));
            for (std::string_view pass : {"type_inference", "opt_a"}) {
                const double ratio = static_cast<double>(nodesAfter(*s, pass)) /
                                     static_cast<double>(nodesAfter(*off, pass));
                qInfo("%s nodes after %s: %zu (unset: %zu)", s == on ? "MS_DEV_CELL_REUSE=1" : "=2",
                      pass.data(), nodesAfter(*s, pass), nodesAfter(*off, pass));
                QVERIFY2(ratio < 0.6, qPrintable(QString("%1: %2").arg(pass.data()).arg(ratio)));
            }
        }
        // 2 inlines the reused graph in the backend: task_emit's graph is flat again.
        QCOMPARE(backend->compiles[0].find("task_emit")->counts().graphs, std::size_t(1));
        QCOMPARE(on->compiles[0].find("task_emit")->counts().graphs, std::size_t(2));
    }

    void initArgsGiveTheSameIrOnEveryCompile() {
        // The GPT blocks take a config object: its address must not reach the IR, or two
        // compiles of one script would save different .ir files.
        const auto first = runExample("lazy_inline_gpt", 1);
        const auto second = runExample("lazy_inline_gpt", 1);
        const passes::CompileRecord& a = first->compiles.at(0);
        const passes::CompileRecord& b = second->compiles.at(0);
        const std::string resolved = a.find("symbol_resolve")->text();
        QVERIFY2(contains(resolved, "GPTConfig object #1>"), resolved.c_str());
        QVERIFY(!contains(resolved, "object at 0x"));
        QCOMPARE(a.snapshots.size(), b.snapshots.size());
        for (std::size_t i = 0; i < a.snapshots.size(); ++i) {
            QVERIFY2(a.snapshots[i].text() == b.snapshots[i].text(), a.snapshots[i].pass.c_str());
        }
    }

    void nestedReusesOnlyTheOutermost() {
        const auto s = runExample("lazy_inline_nested", 1);
        const std::string resolved = s->compiles[0].find("symbol_resolve")->text();
        QVERIFY(contains(resolved, "cell_init_args: lazy_inline_OuterBlock"));
        QVERIFY(!contains(resolved, "cell_init_args: lazy_inline_InnerBlock"));
        const std::string reused = s->compiles[0].find("graph_reusing")->text();
        QVERIFY(contains(reused, "subgraph @CR_OuterBlock_construct("));
        QVERIFY(!contains(reused, "@CR_InnerBlock"));
        QCOMPARE(s->compiles[0].find("graph_reusing")->counts().graphs, std::size_t(4));
    }

    void onlyARealChangeAfterInitCounts() {
        // blocks[0].k is set to the value it already had; blocks[2].k really changes.
        const auto s = runSource(
            "import mindspore as ms\n"
            "from mindspore import nn, ops, Tensor\n"
            "from mindspore.common import lazy_inline\n"
            "class Block(nn.Cell):\n"
            "    @lazy_inline\n"
            "    def __init__(self, n):\n"
            "        super().__init__()\n"
            "        self.k = n\n"
            "    def construct(self, x):\n"
            "        return x * self.k\n"
            "class Net(nn.Cell):\n"
            "    def __init__(self):\n"
            "        super().__init__()\n"
            "        self.blocks = nn.CellList([Block(1), Block(1), Block(1)])\n"
            "        self.blocks[0].k = 1\n"
            "        self.blocks[2].k = 3\n"
            "    def construct(self, x):\n"
            "        for b in self.blocks:\n"
            "            x = b(x)\n"
            "        return x\n"
            "ms.set_context(mode=ms.GRAPH_MODE)\n"
            "print(Net()(Tensor([1.0])))\n");
        const std::string resolved = s->compiles.at(0).find("symbol_resolve")->text();
        QCOMPARE(occurrences(resolved, "cell_init_args: lazy_inline_Block{'n': 1}"),
                 std::size_t(2));
        const std::string reused = s->compiles.at(0).find("graph_reusing")->text();
        QCOMPARE(occurrences(reused, "= call @CR_Block_construct("), std::size_t(2));
        QCOMPARE(occurrences(reused, "= call @Block_construct_2("), std::size_t(1));
    }

    void laterInstancesAreCopiesOfTheFirst() {
        // symbol_resolve resolves the first Block and copies it for the other two: the IR
        // is what resolving each would give (their own weights and scopes), the result too.
        std::string outPlain;
        std::string outLazy;
        const auto plain = runSource(threeBlocks("    # no decorator\n"), &outPlain);
        const auto lazy = runSource(threeBlocks("    @lazy_inline\n"), &outLazy);
        QCOMPARE(QString::fromStdString(outLazy), QString::fromStdString(outPlain));
        const std::string a = plain->compiles.at(0).find("symbol_resolve")->text();
        const std::string b = lazy->compiles.at(0).find("symbol_resolve")->text();
        QVERIFY(contains(b, "cell_init_args: lazy_inline_Block{'n': 2}"));
        QVERIFY(contains(b, "(Default/blocks-CellList/2-Block/attn-Attn)"));
        QVERIFY(contains(b, "blocks.2.attn.w"));
        QCOMPARE(QString::fromStdString(withoutReuseMarks(b)),
                 QString::fromStdString(withoutReuseMarks(a)));
        // Every debug name is its node's own: no two nodes print the same one.
        std::set<std::string> names;
        for (std::size_t at = b.find("(CNode_"); at != std::string::npos; at = b.find("(CNode_", at + 1)) {
            const std::string name = b.substr(at, b.find(')', at) - at);
            QVERIFY2(names.insert(name).second, name.c_str());
        }
        QCOMPARE(occurrences(lazy->compiles.at(0).find("graph_reusing")->text(),
                             "= call @CR_Block_construct("),
                 std::size_t(3));
    }

    void laterInstancesAreNotParsed() {
        // A later instance's graph is not parsed but copied, branch graphs included: the
        // copies are named as parsing each instance names them (the first's `if` branches,
        // then the second's...), where parsing every instance and copying afterwards
        // numbered the copies after all the parses' graphs.
        const std::string branchy =
            "        if x.sum() > 0:\n"
            "            h = h * 2.0\n"
            "        else:\n"
            "            h = h - 1.0\n"
            "        return self.fc(h) + self.b\n";
        const auto [plain, lazy] = runBothWithBody(branchy);
        const std::string a = plain->compiles.at(0).find("symbol_resolve")->text();
        const std::string b = lazy->compiles.at(0).find("symbol_resolve")->text();
        QVERIFY2(contains(b, "Block_construct_2("), b.c_str());
        QCOMPARE(QString::fromStdString(withoutReuseMarks(b)),
                 QString::fromStdString(withoutReuseMarks(a)));
    }

    void anInstanceWithOtherParametersIsResolvedOnItsOwn() {
        // The third Block holds one Parameter more than the first and adds it: it is not a
        // copy of the first, and graph_reusing gives it a reused graph of its own. The
        // second is a copy, its sub-cell's graph included.
        const std::string extra =
            "        self.extra = Parameter(Tensor(np.ones((2,), np.float32)), name='extra') "
            "if len(made) == 3 else None\n";
        const std::string replacement =
            "        out = self.fc(h) + self.b\n"
            "        if self.extra is not None:\n"
            "            out = out + self.extra\n"
            "        return out\n";
        const auto [plain, lazy] = runBothWithBody(replacement, extra);
        const std::string a = plain->compiles.at(0).find("symbol_resolve")->text();
        const std::string b = lazy->compiles.at(0).find("symbol_resolve")->text();
        QVERIFY2(contains(b, "blocks.2.extra"), b.c_str());
        QCOMPARE(QString::fromStdString(withoutReuseMarks(b)),
                 QString::fromStdString(withoutReuseMarks(a)));
        const std::string reused = lazy->compiles.at(0).find("graph_reusing")->text();
        QCOMPARE(occurrences(reused, "= call @CR_Block_construct("), std::size_t(2));
        QCOMPARE(occurrences(reused, "= call @CR_Block_construct_2("), std::size_t(1));
    }

    void anInstanceWhoseSubCellDiffersIsResolvedOnItsOwn() {
        // The third Block's sub-cell has another constant than the first's: resolved on its
        // own, it computes with its own constant, and graph_reusing keeps it apart.
        const std::string change = "        self.blocks[2].attn.scale = 3.0\n";
        std::string outPlain;
        std::string outLazy;
        const auto plain = runSource(threeBlocks("    # no decorator\n", {}, change), &outPlain);
        const auto lazy = runSource(threeBlocks("    @lazy_inline\n", {}, change), &outLazy);
        QCOMPARE(QString::fromStdString(outLazy), QString::fromStdString(outPlain));
        QCOMPARE(QString::fromStdString(withoutReuseMarks(lazy->compiles.at(0).find("symbol_resolve")->text())),
                 QString::fromStdString(withoutReuseMarks(plain->compiles.at(0).find("symbol_resolve")->text())));
        const std::string reused = lazy->compiles.at(0).find("graph_reusing")->text();
        QCOMPARE(occurrences(reused, "= call @CR_Block_construct("), std::size_t(2));
        QCOMPARE(occurrences(reused, "= call @CR_Block_construct_2("), std::size_t(1));
    }

    void attrChangedFallsOutOfReuse() {
        const auto s = runExample("lazy_inline_attr_changed", 1);
        const std::string reused = s->compiles[0].find("graph_reusing")->text();
        // blocks[0] (x changed after __init__) keeps its own graph; blocks[1..3] share one.
        QVERIFY2(contains(reused, "= call @Block_construct(%para1_h)"), reused.c_str());
        std::size_t calls = 0;
        for (std::size_t at = reused.find("= call @CR_Block_construct_1("); at != std::string::npos;
             at = reused.find("= call @CR_Block_construct_1(", at + 1)) {
            ++calls;
        }
        QCOMPARE(calls, std::size_t(3));
    }
};

QTEST_GUILESS_MAIN(TestGraphReusing)
#include "test_graph_reusing.moc"
