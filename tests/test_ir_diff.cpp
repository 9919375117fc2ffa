// Comparing two modules (core/ir/ir_diff.h): node matching that sees past renumbering,
// added/removed/changed nodes, and the side-by-side line diff of the .ir texts; on the
// seed's load-elimination listings and on a real compile's pass snapshots.
#include <QtTest>

#include <fstream>
#include <sstream>

#include "ir/ir_diff.h"
#include "ir/ir_text.h"
#include "script_fixture.h"
#include "test_files.h"

using namespace irscope;
using namespace irscope::ir;

namespace {

using test_files::readFile;

const char* const kHeader =
    "# IR entry: @f\n"
    "# Total subgraphs: 1\n"
    "# Total params: 2\n"
    "# Params:\n"
    "%para1_x : <Tensor[Int32], ()>\n"
    "%para2_p : <Ref[Tensor[Int32]], (), ref_key=:p>  :  has_default\n\n";

std::unique_ptr<Module> parse(const std::string& body) {
    return parseIr(std::string(kHeader) + "subgraph @f() {\n" + body + "}\n", "t.ir");
}

// The CNodes of `m`'s entry graph calling primitive `op`, in body order.
std::vector<const CNode*> calls(const Module& m, std::string_view op) {
    std::vector<const CNode*> out;
    for (const CNode* c : m.entry()->topoOrder()) {
        if (c->isPrimitive(op)) {
            out.push_back(c);
        }
    }
    return out;
}

struct Compared {
    std::unique_ptr<Module> a, b;
    std::string ta, tb;
    NodeMatching matching;
    TextDiff text;
};

Compared compare(std::unique_ptr<Module> a, std::unique_ptr<Module> b) {
    Compared c;
    c.a = std::move(a);
    c.b = std::move(b);
    c.ta = printIr(*c.a);
    c.tb = printIr(*c.b);
    c.matching = matchModules(*c.a, *c.b);
    c.text = diffIrText(c.ta, c.tb, *c.a, *c.b, c.matching);
    return c;
}

// The rows of a text diff that are not Same, as "-line", "+line" and "~before => after".
QStringList changedRows(const Compared& c) {
    const auto la = splitLines(c.ta);
    const auto lb = splitLines(c.tb);
    QStringList out;
    for (const DiffRow& r : c.text.rows) {
        const QString before = r.before >= 0 ? QString::fromStdString(std::string(la[r.before])).trimmed() : QString();
        const QString after = r.after >= 0 ? QString::fromStdString(std::string(lb[r.after])).trimmed() : QString();
        if (r.kind == DiffKind::Removed) {
            out << "-" + before;
        } else if (r.kind == DiffKind::Added) {
            out << "+" + after;
        } else if (r.kind == DiffKind::Changed) {
            out << "~" + before + " => " + after;
        }
    }
    return out;
}

}  // namespace

class TestIrDiff : public QObject {
    Q_OBJECT

private slots:
    void equalModulesMatchFully() {
        const std::string body =
            "  %0 = Load(%para2_p, U)\n"
            "  %1 = Add(%0, %para1_x)\n"
            "  %2 = Mul(%1, %0)\n"
            "  Return(%2)\n";
        Compared c = compare(parse(body), parse(body));
        QVERIFY(c.matching.counts().identical());
        QCOMPARE(c.matching.counts().same, std::size_t{6});  // 2 parameters, 3 nodes, Return
        QVERIFY(c.text.hunks.empty());
        QCOMPARE(c.text.lines.same, splitLines(c.ta).size());
        for (const CNode* n : c.a->entry()->topoOrder()) {
            const Node* m = c.matching.after(n);
            QVERIFY(m != nullptr);
            QCOMPARE(c.matching.before(m), n);
        }
    }

    // The same graph with its independent nodes in another order: every node is numbered
    // differently, and still all of them match and no line differs once renamed.
    void renumberedGraphsMatchFully() {
        Compared c = compare(parse("  %0 = Load(%para2_p, U)\n"
                                   "  %1 = Neg(%para1_x)\n"
                                   "  %2 = Abs(%para1_x)\n"
                                   "  %3 = Add(%1, %2)\n"
                                   "  %4 = Mul(%3, %0)\n"
                                   "  Return(%4)\n"),
                             parse("  %0 = Neg(%para1_x)\n"
                                   "  %1 = Abs(%para1_x)\n"
                                   "  %2 = Add(%0, %1)\n"
                                   "  %3 = Load(%para2_p, U)\n"
                                   "  %4 = Mul(%2, %3)\n"
                                   "  Return(%4)\n"));
        QVERIFY2(c.matching.counts().identical(), qPrintable(changedRows(c).join('\n')));
        const CNode* load = calls(*c.a, "Load").at(0);
        QCOMPARE(c.matching.after(load), calls(*c.b, "Load").at(0));
        QCOMPARE(c.matching.after(calls(*c.a, "Neg").at(0)), calls(*c.b, "Neg").at(0));
        // The lines moved: the diff shows the Load's lines moved, nothing changed.
        QCOMPARE(c.text.lines.changed, std::size_t{0});
        for (const QString& row : changedRows(c)) {
            QVERIFY2(row.contains("Load"), qPrintable(row));
        }
    }

    void insertedTensorMoveIsAdded() {
        Compared c = compare(parse("  %0 = Load(%para2_p, U)\n"
                                   "  %1 = Add(%0, %para1_x)\n"
                                   "  %2 = Mul(%1, %1)\n"
                                   "  Return(%2)\n"),
                             parse("  %0 = Load(%para2_p, U)\n"
                                   "  %1 = TensorMove(%0)\n"
                                   "  %2 = Add(%1, %para1_x)\n"
                                   "  %3 = Mul(%2, %2)\n"
                                   "  Return(%3)\n"));
        const CNode* move = calls(*c.b, "TensorMove").at(0);
        QCOMPARE(c.matching.kind(move), DiffKind::Added);
        QCOMPARE(c.matching.before(move), nullptr);
        QCOMPARE(c.matching.kind(calls(*c.a, "Load").at(0)), DiffKind::Same);
        QCOMPARE(c.matching.kind(calls(*c.a, "Add").at(0)), DiffKind::Changed);  // its input
        QCOMPARE(c.matching.after(calls(*c.a, "Add").at(0)), calls(*c.b, "Add").at(0));
        // Mul is %2 before and %3 after, with the same (renamed) inputs: Same.
        QCOMPARE(c.matching.kind(calls(*c.b, "Mul").at(0)), DiffKind::Same);
        const DiffCounts& n = c.matching.counts();
        QCOMPARE(n.added, std::size_t{1});
        QCOMPARE(n.removed, std::size_t{0});
        QCOMPARE(n.changed, std::size_t{1});
        QCOMPARE(changedRows(c), QStringList({"~Total number of nodes: 11 => Total number of nodes: 13",
                                              "~Total number of cnodes: 4 => Total number of cnodes: 5",
                                              "+%1 = TensorMove(%0)",
                                              "~%1 = Add(%0, %para1_x) => %2 = Add(%1, %para1_x)"}));
        QCOMPARE(c.text.hunks.size(), std::size_t{2});
    }

    void removedLoadIsRemoved() {
        Compared c = compare(parse("  %0(a) = Load(%para2_p, U)\n"
                                   "  %1(b) = Load(%para2_p, U)\n"
                                   "  %2(s) = Add(%0, %1)\n"
                                   "  %3(t) = Neg(%2)\n"
                                   "  Return(%3)\n"),
                             parse("  %0(a) = Load(%para2_p, U)\n"
                                   "  %1(s) = Add(%0, %0)\n"
                                   "  %2(t) = Neg(%1)\n"
                                   "  Return(%2)\n"));
        const std::vector<const CNode*> loads = calls(*c.a, "Load");
        QCOMPARE(c.matching.kind(loads[0]), DiffKind::Same);
        QCOMPARE(c.matching.kind(loads[1]), DiffKind::Removed);
        QCOMPARE(c.matching.after(loads[1]), nullptr);
        QCOMPARE(c.matching.kind(calls(*c.a, "Add").at(0)), DiffKind::Changed);
        QCOMPARE(c.matching.kind(calls(*c.a, "Neg").at(0)), DiffKind::Same);  // %3 -> %2
        QCOMPARE(c.matching.counts().removed, std::size_t{1});
        QCOMPARE(c.matching.counts().added, std::size_t{0});
        QCOMPARE(changedRows(c).mid(2), QStringList({"-%1(b) = Load(%para2_p, U)",
                                              "~%2(s) = Add(%0, %1) => %1(s) = Add(%0, %0)"}));
    }

    void changedAttributeOrTypeIsChanged() {
        Compared c = compare(parse("  %0 = Neg(%para1_x)\n"
                                   "  %1 = Add(%0, Tensor(shape=[], dtype=Int32, value=1))\n"
                                   "  Return(%1)\n"),
                             parse("  %0 = Neg(%para1_x)\n"
                                   "  %1 = Add(%0, Tensor(shape=[], dtype=Int32, value=2))\n"
                                   "  Return(%1)\n"));
        QCOMPARE(c.matching.kind(calls(*c.a, "Add").at(0)), DiffKind::Changed);
        QCOMPARE(c.matching.kind(calls(*c.b, "Add").at(0)), DiffKind::Changed);
        QCOMPARE(c.matching.kind(calls(*c.a, "Neg").at(0)), DiffKind::Same);
        QCOMPARE(c.text.lines.changed, std::size_t{1});
    }

    // The seed's load-elimination listings: level 0 copies each of the three Loads with a
    // TensorMove, level 3 does not. Everything else corresponds, though renumbered.
    void seedLevel0AgainstLevel3() {
        const std::string dir = std::string(IRSCOPE_SOURCE_DIR) + "/resources/examples/";
        Compared c = compare(parseIr(readFile(dir + "load_elim_level0.ir"), "level0.ir"),
                             parseIr(readFile(dir + "load_elim_level3.ir"), "level3.ir"));
        const DiffCounts& n = c.matching.counts();
        QCOMPARE(n.removed, std::size_t{3});
        QCOMPARE(n.added, std::size_t{0});
        for (const CNode* move : calls(*c.a, "TensorMove")) {
            QCOMPARE(c.matching.kind(move), DiffKind::Removed);
        }
        const auto loadsA = calls(*c.a, "Load");
        const auto loadsB = calls(*c.b, "Load");
        QCOMPARE(loadsA.size(), std::size_t{3});
        for (std::size_t i = 0; i < 3; ++i) {
            QCOMPARE(c.matching.after(loadsA[i]), loadsB[i]);
        }
        // Every Assign and AddN corresponds to its counterpart, in order.
        for (const char* op : {"Assign", "AddN", "UpdateState", "MakeTuple", "Depend"}) {
            const auto xa = calls(*c.a, op);
            const auto xb = calls(*c.b, op);
            QCOMPARE(xa.size(), xb.size());
            for (std::size_t i = 0; i < xa.size(); ++i) {
                QVERIFY2(c.matching.after(xa[i]) == xb[i], op);
            }
        }
        QCOMPARE(c.text.lines.removed, std::size_t{3});  // the three TensorMove lines
        QCOMPARE(c.text.lines.added, std::size_t{0});
    }

    // A real compile: auto_monad_reorder at the default level adds a TensorMove for each of
    // the three Loads of load_elim_fwd_bwd.py; the diff against the pass before says so.
    void compileSnapshotsBeforeAndAfterLoadElimination() {
        const std::string path = std::string(IRSCOPE_SOURCE_DIR) + "/resources/examples/load_elim_fwd_bwd.py";
        compiler::CompilerOptions options;
        options.overrides.set(std::string(passes::kSideEffectLoadElim), 1);
        script_test::Run run = script_test::runScript(readFile(path), options, 0, path);
        QVERIFY2(run.result.status == interp::RunResult::Status::Ok, run.out.c_str());
        const passes::CompileRecord& rec = run.session->compiles.at(0);
        std::size_t at = rec.snapshots.size();
        for (std::size_t i = 0; i < rec.snapshots.size(); ++i) {
            if (rec.snapshots[i].pass == "auto_monad_reorder") {
                at = i;
            }
        }
        QVERIFY(at > 0 && at < rec.snapshots.size());
        auto before = rec.snapshots[at - 1].module();
        auto after = rec.snapshots[at].module();
        const std::size_t movesBefore = calls(*before, "TensorMove").size();
        const std::size_t movesAfter = calls(*after, "TensorMove").size();
        QCOMPARE(movesAfter - movesBefore, std::size_t{3});
        Compared c = compare(std::move(before), std::move(after));
        QCOMPARE(c.ta, rec.snapshots[at - 1].text());  // the snapshot text is printIr's
        std::size_t addedMoves = 0;
        for (const CNode* move : calls(*c.b, "TensorMove")) {
            addedMoves += c.matching.kind(move) == DiffKind::Added ? 1 : 0;
        }
        QCOMPARE(addedMoves, std::size_t{3});
        for (const CNode* load : calls(*c.a, "Load")) {
            QVERIFY(c.matching.after(load) != nullptr);
        }
        QVERIFY(!c.text.hunks.empty());
    }
};

QTEST_GUILESS_MAIN(TestIrDiff)
#include "test_ir_diff.moc"
