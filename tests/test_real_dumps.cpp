// Real MindSpore dumps (IRSCOPE_SHARED_DIR/realdumps, read in place): every file opens, prints
// text that reads back to the same text, keeps its subgraphs, node lines and annotation lines,
// and renders; plus the dump forms they taught the reader (external graphs, duplicate names,
// undefined references, kernel device types, analyze_fail.ir's banner and traced stack), and
// garbage is a located error with exit status 1.
#include <QDir>
#include <QtTest>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>

#include "cli_runner.h"
#include "ir/dump_notes.h"
#include "ir/export_dot.h"
#include "ir/ir_text.h"
#include "test_files.h"

using namespace irscope;
using namespace irscope::ir;

namespace {

QString dumpsDir() {
    return QStringLiteral(IRSCOPE_SHARED_DIR "/realdumps");
}

using test_files::readFile;

// What a reader of a dump counts: subgraphs, node lines (Return included) and annotation
// lines (type and device-type lines, scope and source lines, stack markers, `# Order:`
// blocks). CR before a line end does not count.
struct LineCounts {
    int subgraphs = 0;
    int nodes = 0;
    int annotations = 0;
    int markers = 0;
    bool operator==(const LineCounts&) const = default;
};

LineCounts countLines(const std::string& text) {
    LineCounts n;
    std::istringstream in(text);
    std::string l;
    bool body = false;
    while (std::getline(in, l)) {
        if (!l.empty() && l.back() == '\r') {
            l.pop_back();
        }
        if (l.rfind("subgraph @", 0) == 0) {
            ++n.subgraphs;
            body = true;
            continue;
        }
        if (l.rfind("}", 0) == 0) {
            body = false;
            continue;
        }
        const std::size_t ind = l.find_first_not_of(' ');
        if (ind == std::string::npos) {
            continue;
        }
        if (body && ind == 2 && l[2] != '#' && l[2] != ':') {
            ++n.nodes;
        }
        const char c = l[ind];
        if (l.rfind("#------------------------>", 0) == 0) {
            ++n.markers;
            ++n.annotations;
        } else if ((ind > 2 && (c == ':' || c == '#')) || l.rfind("# Order:", 0) == 0 ||
                   (l.rfind("#  ", 0) == 0 && l.find(": @") != std::string::npos)) {
            ++n.annotations;
        }
    }
    return n;
}

std::unique_ptr<Module> parse(const std::string& text, std::vector<Diagnostic>* w = nullptr) {
    return parseIr(text, "t.ir", w);
}

}  // namespace

class TestRealDumps : public QObject {
    Q_OBJECT

private slots:
    void realDumps_data();
    void realDumps();
    void realDumpsInTheCli();
    void namesMindSporePrints();
    void externalGraphs();
    void duplicateNamesKeptApart();
    void undefinedReferencesFlagged();
    void annotationsKeptVerbatim();
    void kernelDeviceTypes();
    void analyzeFailTrace();
    void crlfAndLongLines();
    void noGraphIsAnError_data();
    void noGraphIsAnError();
    void mutatedDumpsFailLocated();
};

void TestRealDumps::realDumps_data() {
    QTest::addColumn<QString>("path");
    const QStringList files = QDir(dumpsDir()).entryList({"*.ir"}, QDir::Files, QDir::Name);
    QVERIFY2(files.size() >= 24, qPrintable(dumpsDir()));
    for (const QString& f : files) {
        QTest::newRow(qPrintable(f)) << dumpsDir() + "/" + f;
    }
}

void TestRealDumps::realDumps() {
    QFETCH(QString, path);
    const std::string text = readFile(path.toStdString());
    std::unique_ptr<Module> m;
    try {
        m = parseIr(text, path.toStdString());
    } catch (const ParseError& e) {
        QFAIL(e.what());
    }
    QCOMPARE(QString::fromStdString(m->verify()), QString());
    const std::string first = printIr(*m);
    const std::string second = printIr(*parseIr(first, "printed.ir"));
    QVERIFY2(first == second, "print(parse(print(x))) differs from print(x)");
    const LineCounts before = countLines(text);
    const LineCounts after = countLines(first);
    QCOMPARE(after.subgraphs, before.subgraphs);
    QCOMPARE(after.nodes, before.nodes);
    QCOMPARE(after.markers, before.markers);
    QCOMPARE(after.annotations, before.annotations);
    // A banner is kept line for line (analyze_fail.ir).
    const AnalyzeFailure f = analyzeFailure(*m);
    QCOMPARE(static_cast<int>(f.frames.size()), before.markers);
    // Renders: the DOT the svg command lays out names every graph.
    const std::string dot = exportDot(*m);
    QVERIFY(dot.rfind("digraph", 0) == 0);
}

void TestRealDumps::realDumpsInTheCli() {
    // As a user tries them: dump, dump of that output, svg; exit 0 each.
    const QStringList files = QDir(dumpsDir()).entryList({"*.ir"}, QDir::Files, QDir::Name);
    const QString tmp = QDir::temp().filePath("irscope-realdumps");
    QDir().mkpath(tmp);
    for (const QString& name : files) {
        const QString in = dumpsDir() + "/" + name;
        const QString out = tmp + "/" + name;
        const auto d = cli_test::runCli({"dump", in, "-o", out});
        QVERIFY2(d.finished && d.status == 0, qPrintable(name + ": " + d.errText()));
        const auto again = cli_test::runCli({"dump", out});
        QVERIFY2(again.finished && again.status == 0, qPrintable(name + ": " + again.errText()));
        QCOMPARE(again.out, QByteArray::fromStdString(readFile(out.toStdString())));
        const auto svg = cli_test::runCli({"svg", in, "-o", out + ".svg"}, {.timeoutMs = 280000});
        QVERIFY2(svg.finished && svg.status == 0, qPrintable(name + ": " + svg.errText()));
        QVERIFY(readFile((out + ".svg").toStdString()).find("<svg") != std::string::npos);
        QFile::remove(out);
        QFile::remove(out + ".svg");
    }
}

void TestRealDumps::namesMindSporePrints() {
    // Parameter names with brackets, '@' and other scripts; a class as a callee; a primitive
    // value node owned by another graph (`$(graph):Prim`); a free variable without '@'.
    const std::string text =
        "#IR entry      : @g.1\n"
        "subgraph @g.1(%para1_@[CNode]313, %para2_Φlr, %para3_[Parameter]784) {\n"
        "  %0([CNode]5) = class 'mindspore.ops.operations.math_ops.Less'()\n"
        "  %1([CNode]6) = $(h.2):MakeTuple(%para1_@[CNode]313, %para2_Φlr, %0)\n"
        "  %2 = Depend[side_effect_propagate=I64(1)](%1, %para3_[Parameter]784)\n"
        "  Return(%2)\n"
        "}\n"
        "subgraph @h.2() {\n"
        "  %0(x) = Add(I64(1), I64(2))\n"
        "  Return($(h.2:x))\n"
        "}\n";
    const auto m = parse(text);
    const FuncGraph* g = m->findGraph("g.1");
    QVERIFY(g != nullptr);
    QCOMPARE(g->parameters().size(), std::size_t(3));
    QCOMPARE(QString::fromStdString(g->parameters()[0]->name()), QString("@[CNode]313"));
    QCOMPARE(QString::fromStdString(g->parameters()[1]->name()), QString("Φlr"));
    QCOMPARE(QString::fromStdString(g->parameters()[2]->name()), QString("[Parameter]784"));
    const std::string out = printIr(*m);
    QVERIFY(out.find("= class 'mindspore.ops.operations.math_ops.Less'()") != std::string::npos);
    QVERIFY(out.find("= $(h.2):MakeTuple(") != std::string::npos);
    QVERIFY(out.find("Depend[side_effect_propagate=I64(1)](") != std::string::npos);
    const CNode* ret = m->findGraph("h.2")->returnNode();
    QVERIFY(ret->input(1)->isCNode());
    QCOMPARE(printIr(*parse(out)), out);
}

void TestRealDumps::externalGraphs() {
    const std::string text =
        "subgraph @g() {\n"
        "  %0 = call @fill.11(I64(1))\n"
        "  %1 = Partial(@print_.31, %0)\n"
        "  Return(%1)\n"
        "}\n";
    std::vector<Diagnostic> w;
    const auto m = parse(text, &w);
    QCOMPARE(m->graphCount(), std::size_t(1));
    const std::string out = printIr(*m);
    QVERIFY(out.find("= call @fill.11(I64(1))") != std::string::npos);
    QVERIFY(out.find("= Partial(@print_.31, %0)") != std::string::npos);
    QCOMPARE(w.size(), std::size_t(2));
    QCOMPARE(w[0].kind, std::string("note"));
    QVERIFY(w[0].message.find("@fill.11 is a graph this file does not contain") == 0);
    QCOMPARE(w[0].line, 2);
    QCOMPARE(w[0].column, 13);  // at @fill.11
    QCOMPARE(printIr(*parse(out)), out);
}

void TestRealDumps::duplicateNamesKeptApart() {
    const std::string text =
        "# IR entry: @g\n"
        "subgraph @g() {\n"
        "  %0 = call @f(I64(1), I64(2))\n"
        "  Return(%0)\n"
        "}\n"
        "subgraph @f(%para0_x, %para0_x) {\n"
        "  %0 = Add(%para0_x, I64(1))\n"
        "  Return(%0)\n"
        "}\n"
        "subgraph @g() {\n"
        "  Return(I64(7))\n"
        "}\n";
    std::vector<Diagnostic> w;
    const auto m = parse(text, &w);
    QCOMPARE(m->graphCount(), std::size_t(3));
    QVERIFY(m->findGraph("g.1") != nullptr);
    QCOMPARE(m->entry(), m->findGraph("g"));
    const FuncGraph* f = m->findGraph("f");
    QCOMPARE(f->parameters().size(), std::size_t(2));
    QCOMPARE(w.size(), std::size_t(2));
    QVERIFY(w[0].message.find("a second subgraph named @g (the first is at line 2): kept apart "
                              "as @g.1") == 0);
    QCOMPARE(w[0].line, 10);
    QVERIFY(w[1].message.find("a second parameter %para0_x of @f") == 0);
    const std::string out = printIr(*m);
    QVERIFY(out.find("subgraph @g.1()") != std::string::npos);
    QVERIFY(out.find("subgraph @f(%para1_x, %para2_x)") != std::string::npos);
    QCOMPARE(printIr(*parse(out)), out);
}

void TestRealDumps::undefinedReferencesFlagged() {
    const std::string text =
        "subgraph @g(%para1_x) {\n"
        "  %0 = TupleGetItem(%para11_27, I64(0))\n"
        "  %1 = Add(%0, %7)\n"
        "  %2 = Mul(%1, $(@g:%9))\n"
        "  Return(%2)\n"
        "}\n";
    std::vector<Diagnostic> w;
    const auto m = parse(text, &w);
    QCOMPARE(w.size(), std::size_t(3));
    QCOMPARE(w[0].kind, std::string("warning"));
    QVERIFY(w[0].message.find("use of undefined parameter %para11_27") == 0);
    QCOMPARE(w[0].line, 2);
    QCOMPARE(w[0].column, 21);  // at %para11_27
    QVERIFY(w[1].message.find("use of undefined node %7") == 0);
    QVERIFY(w[2].message.find("use of undefined node %9 in @g") == 0);
    const std::string out = printIr(*m);
    QVERIFY(out.find("TupleGetItem($(?:%para11_27), I64(0))") != std::string::npos);
    QVERIFY(out.find("Add(%0, $(?:%7))") != std::string::npos);
    QVERIFY(out.find("Mul(%1, $(?:$(@g:%9)))") != std::string::npos);
    // Re-read, the printed stand-ins stay unresolved (the printer's own %7 is another node).
    std::vector<Diagnostic> again;
    parse(out, &again);
    QCOMPARE(again.size(), std::size_t(3));
    QCOMPARE(QString::fromStdString(m->verify()), QString());
    QCOMPARE(printIr(*parse(out)), out);
}

void TestRealDumps::annotationsKeptVerbatim() {
    const std::string text =
        "# IR entry: @g\n"
        "\n"
        "indirect: 1\n"
        "subgraph attr:\n"
        "training: 1\n"
        "subgraph instance: g : 0xaaaae0ca0250\n"
        "subgraph @g() {\n"
        "  %0 = call @h()\n"
        "      #scope: (Default)\n"
        "      # Corresponding forward node candidate:\n"
        "  %1 = %0[@FuncUnion(@h, @k)]() {in_strategy: ((1))}\n"
        "  Return(%1)\n"
        "}\n"
        "# Order:\n"
        "#   1: @g:CNode_1{[0]: ValueNode<FuncGraph> h}\n"
        "\n"
        "subgraph @h parent: [subgraph @g]() {\n"
        "  Return(U)\n"
        "}\n"
        "subgraph @k parent: [subgraph @g]() {\n"
        "  Return(U)\n"
        "}\n"
        "\n"
        "#====\n"
        "# num of function graphs in stack: 1\n";
    const auto m = parse(text);
    const std::string out = printIr(*m);
    for (const char* kept :
         {"indirect: 1\nsubgraph attr:\ntraining: 1\nsubgraph instance: g : 0xaaaae0ca0250\n",
          "      # Fullname with scope: (Default)\n"
          "      # Corresponding forward node candidate:\n",
          "%1 = %0[@FuncUnion(@h, @k)]() {in_strategy: ((1))}\n",
          "}\n# Order:\n#   1: @g:CNode_1{[0]: ValueNode<FuncGraph> h}\n",
          "subgraph @h parent: [subgraph @g]() {",
          "\n#====\n# num of function graphs in stack: 1\n"}) {
        QVERIFY2(out.find(kept) != std::string::npos, kept);
    }
    QCOMPARE(printIr(*parse(out)), out);
}

void TestRealDumps::kernelDeviceTypes() {
    const std::string text =
        "#IR entry      : @kernel_graph_0\n"
        "#Total params  : 1\n"
        "\n"
        "%para1_x : <Tensor[Float32], (2, 3)>  :  <Float32xNC1HWC0[const vector][2, 1, 1, 1, "
        "16]>  :  IsWeight:false\n"
        "\n"
        "subgraph attr:\n"
        "subgraph @kernel_graph_0() {\n"
        "  %0(out) = ReLU(%para1_x)\n"
        "      : (<Tensor[Float32], (2, 3)>) -> (<Tensor[Float32], (2, 3)>)\n"
        "      : (<Float32xNC1HWC0[const vector][2, 1, 1, 1, 16]>) -> "
        "(<Float16xDefaultFormat[const vector][2, 3]>)\n"
        "      : (Default/ReLU-op1)\n"
        "  Return(%0)\n"
        "      : (<Tensor[Float32], (2, 3)>)\n"
        "}\n";
    const auto m = parse(text);
    const FuncGraph* g = m->entry();
    const CNode* relu = g->returnNode()->input(1)->isCNode()
                            ? static_cast<const CNode*>(g->returnNode()->input(1))
                            : nullptr;
    QVERIFY(relu != nullptr);
    QCOMPARE(QString::fromStdString(relu->debug().scope), QString("Default/ReLU-op1"));
    const DumpNotes* n = relu->debug().dump.get();
    QVERIFY(n != nullptr && n->hasKernel);
    QCOMPARE(n->kernelInputs.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(n->kernelInputs[0].type), QString("Float32"));
    QCOMPARE(QString::fromStdString(n->kernelInputs[0].format), QString("NC1HWC0"));
    QCOMPARE(QString::fromStdString(n->kernelOutputs[0].type), QString("Float16"));
    QCOMPARE(QString::fromStdString(n->kernelOutputs[0].shape), QString("[const vector][2, 3]"));
    const DumpNotes* p = g->parameters()[0]->debug().dump.get();
    QVERIFY(p != nullptr && p->isWeight.has_value() && !*p->isWeight);
    QCOMPARE(QString::fromStdString(p->kernelOutputs.at(0).format), QString("NC1HWC0"));
    const std::string out = printIr(*m);
    QVERIFY(out.find("      : (<Float32xNC1HWC0[const vector][2, 1, 1, 1, 16]>) -> "
                     "(<Float16xDefaultFormat[const vector][2, 3]>)\n") != std::string::npos);
    QVERIFY(out.find("  :  <Float32xNC1HWC0[const vector][2, 1, 1, 1, 16]>  :  IsWeight:false") !=
            std::string::npos);
    QCOMPARE(printIr(*parse(out)), out);
    QVERIFY(!parseDeviceTensor("<Float32 x NCHW[2]>"));
    QCOMPARE(formatDeviceTensor(*parseDeviceTensor("<Int32>")), std::string("<Int32>"));
}

void TestRealDumps::analyzeFailTrace() {
    const std::string text =
        "# ====\n"
        "# The following shows the last analyze fail log message.\n"
        "# ====\n"
        "\n"
        "----------------------------------------------------\n"
        "- Caught exception:\n"
        "----------------------------------------------------\n"
        "Labels shape value must be equal to the Features\n"
        "\n"
        "----------------------------------------------------\n"
        "- C++ Call Stack: (For framework developers)\n"
        "----------------------------------------------------\n"
        "mindspore/ops/infer/x.cc:49 XInferShape\n"
        "\n"
        "# IR entry: @main\n"
        "subgraph @main() {\n"
        "#------------------------> 0\n"
        "  %0(CNode_1) = call @loss()\n"
        "      #scope: (Default)\n"
        "  Return(%0)\n"
        "}\n"
        "subgraph @loss() {\n"
        "  %0(CNode_2) = Neg(I64(1))\n"
        "#------------------------> 1\n"
        "  %1(CNode_3) = SparseSoftmaxCrossEntropyWithLogits(%0, %0)\n"
        "      : (<Int64, NoShape>, <Int64, NoShape>) -> (<null>)\n"
        "      # In file train.py:31, 15~42/        return "
        "self.loss_fn(logits, label)/\n"
        "  %2(CNode_4) = Add(%0, %0)\n"
        "}\n";
    const auto m = parse(text);
    const AnalyzeFailure f = analyzeFailure(*m);
    QCOMPARE(QString::fromStdString(f.exception),
             QString("Labels shape value must be equal to the Features"));
    QCOMPARE(f.cppStack.size(), std::size_t(1));
    QCOMPARE(f.frames.size(), std::size_t(2));
    QCOMPARE(f.frames[0].node->debug().name, std::string("CNode_1"));
    QCOMPARE(f.failed()->debug().name, std::string("CNode_3"));
    // The body stops where inference failed: its nodes are all kept, the Return-less graph too.
    const std::string out = printIr(*m);
    QVERIFY(out.rfind("# ====\n# The following shows", 0) == 0);
    QVERIFY(out.find("#------------------------> 1\n  %1(CNode_3) = "
                     "SparseSoftmaxCrossEntropyWithLogits(%0, %0)") != std::string::npos);
    QVERIFY(out.find("  %2(CNode_4) = Add(%0, %0)\n}") != std::string::npos);
    QCOMPARE(printIr(*parse(out)), out);
    const std::string trace = formatFailure(*m, f);
    QVERIFY(trace.find("  Labels shape value must be equal to the Features\n") !=
            std::string::npos);
    QVERIFY(trace.find("> #1 @loss\n      %1(CNode_3) = SparseSoftmaxCrossEntropyWithLogits(%0, "
                       "%0)\n      at train.py:31: return self.loss_fn(logits, label)\n") !=
            std::string::npos);

    // The CLI on a real analyze_fail.ir (MindSpore 2.4).
    const auto r =
        cli_test::runCli({"dump", "--trace", dumpsDir() + "/21_ms24_analyze_fail_segnet.ir"});
    QVERIFY2(r.finished && r.status == 0, qPrintable(r.errText()));
    QVERIFY(
        r.outText().contains("Labels shape value must be equal to the Features except the "
                             "last dimension of Features"));
    QVERIFY(r.outText().contains("Traced call stack: 16 frames"));
    QVERIFY(r.outText().contains("> #15 @"));
    // 2.0 wrote no exception into the file.
    const auto old =
        cli_test::runCli({"dump", "--trace", dumpsDir() + "/14_ms20_analyze_fail_ptcr.ir"});
    QVERIFY(old.outText().contains("not in this file"));
    QVERIFY(old.outText().contains("> #3 @construct.PTCRLoss.7"));
}

void TestRealDumps::crlfAndLongLines() {
    std::string params;
    for (int k = 0; k < 20000; ++k) {
        params += (k ? ", %para" : "%para") + std::to_string(k + 1) + "_w" + std::to_string(k);
    }
    const std::string text = "subgraph @g(" + params + ") {\r\n  Return(%para7_w6)\r\n}\r\n";
    const auto m = parse(text);
    QCOMPARE(m->findGraph("g")->parameters().size(), std::size_t(20000));
    QCOMPARE(printIr(*parse(printIr(*m))), printIr(*m));
}

void TestRealDumps::noGraphIsAnError_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("message");
    QTest::newRow("random bytes") << QByteArray("\x89PNG\r\n\x1a\n\x00\x00\xff\xfe garbage", 20)
                                  << 1 << "not a MindSpore .ir dump";
    QTest::newRow("prose") << QByteArray("\n\nhello world\nsecond line\n") << 3
                           << "not a MindSpore .ir dump";
    QTest::newRow("header only") << QByteArray(
                                        "# IR entry: @g\n# Total params: 1\n"
                                        "# Params:\n")
                                 << 1 << "unknown graph @g";
    QTest::newRow("params, no subgraph")
        << QByteArray("# Total params: 0\n\n# Attrs:\ntraining: 1\n") << 1
        << "no subgraph in this file";
    QTest::newRow("empty") << QByteArray() << 1 << "not a MindSpore .ir dump";
}

void TestRealDumps::noGraphIsAnError() {
    QFETCH(QByteArray, bytes);
    QFETCH(int, line);
    QFETCH(QString, message);
    try {
        parseIr(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
                "bad.ir");
        QFAIL("parsed without an error");
    } catch (const ParseError& e) {
        QVERIFY2(QString::fromStdString(e.diagnostic().message).contains(message), e.what());
        QCOMPARE(e.diagnostic().line, line);
    }
    // The CLI: a located error on stderr, exit status 1.
    const QString path = QDir::temp().filePath("irscope-garbage.ir");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
    f.close();
    const auto r = cli_test::runCli({"dump", path});
    QVERIFY(r.finished);
    QCOMPARE(r.status, 1);
    QVERIFY2(r.errText().startsWith(path + ":" + QString::number(line) + ":"),
             qPrintable(r.errText()));
    QVERIFY(r.out.isEmpty());
    QFile::remove(path);
}

// Every real dump, damaged at random (bytes overwritten, lines cut, swapped or repeated,
// the file truncated): the reader either reads it or throws a ParseError located inside the
// damaged text, and what it read prints and reads back. Never a crash or another exception.
void TestRealDumps::mutatedDumpsFailLocated() {
    constexpr int kMutantsPerFile = 12;
    std::mt19937 rng(20261127);
    const QStringList files = QDir(dumpsDir()).entryList({QStringLiteral("*.ir")}, QDir::Files);
    QVERIFY(files.size() >= 24);
    int rejected = 0;
    int read = 0;
    for (const QString& name : files) {
        const std::string original = readFile((dumpsDir() + "/" + name).toStdString());
        for (int k = 0; k < kMutantsPerFile; ++k) {
            std::string text = original;
            const auto pick = [&](std::size_t n) {
                return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
            };
            const int edits = 1 + static_cast<int>(pick(4));
            for (int e = 0; e < edits && !text.empty(); ++e) {
                const std::size_t at = pick(text.size());
                switch (pick(5)) {
                    case 0:  // bytes overwritten
                        for (std::size_t i = at; i < std::min(text.size(), at + 1 + pick(8)); ++i) {
                            text[i] = static_cast<char>(pick(256));
                        }
                        break;
                    case 1:  // truncated
                        text.resize(at);
                        break;
                    case 2: {  // a line cut out
                        const std::size_t b = text.rfind('\n', at);
                        const std::size_t end = text.find('\n', at);
                        text.erase(b == std::string::npos ? 0 : b,
                                   end == std::string::npos
                                       ? std::string::npos
                                       : end - (b == std::string::npos ? 0 : b));
                        break;
                    }
                    case 3: {  // a line repeated elsewhere
                        const std::size_t b = text.rfind('\n', at);
                        const std::size_t end = text.find('\n', at);
                        const std::size_t from = b == std::string::npos ? 0 : b;
                        const std::string line = text.substr(
                            from, end == std::string::npos ? std::string::npos : end - from);
                        text.insert(pick(text.size()), line);
                        break;
                    }
                    default:  // a bracket or sigil dropped in
                        text.insert(at, 1, "(){}%@$#:,\"<>"[pick(14)]);
                        break;
                }
            }
            const int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
            try {
                const auto m = parseIr(text, "mutant.ir");
                const std::string out = printIr(*m);
                QCOMPARE(printIr(*parseIr(out, "printed.ir")), out);
                ++read;
            } catch (const ParseError& e) {
                const Diagnostic& d = e.diagnostic();
                QVERIFY2(d.line >= 1 && d.line <= lines && d.column >= 1,
                         qPrintable(QStringLiteral("%1 mutant %2: %3")
                                        .arg(name)
                                        .arg(k)
                                        .arg(QString::fromStdString(e.what()))));
                ++rejected;
            } catch (const std::exception& e) {
                QFAIL(qPrintable(QStringLiteral("%1 mutant %2: not a located error: %3")
                                     .arg(name)
                                     .arg(k)
                                     .arg(QString::fromStdString(e.what()))));
            }
        }
    }
    qInfo("%d mutants read, %d rejected with a located error", read, rejected);
    QVERIFY(rejected > 0);
}

QTEST_GUILESS_MAIN(TestRealDumps)
#include "test_real_dumps.moc"
