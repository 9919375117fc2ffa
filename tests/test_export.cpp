// Exports a user sees: the DOT picture (clusters, node kinds, solid data vs dashed state
// edges, dotted graph references), Graphviz rendering and layout in process, and JSON.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <atomic>
#include <map>
#include <set>
#include <stdexcept>
#include <thread>

#include "ir/export_dot.h"
#include "ir/export_json.h"
#include "ir/ir_text.h"
#include "ir/local_names.h"
#include "ir/module.h"
#include "layout/graphviz.h"
#include "random_module.h"

using namespace irscope::ir;
using irscope::layout::layoutDot;
using irscope::layout::renderDot;

namespace {

AbstractPtr i32() {
    return Abstract::tensor(DType::Int32, Shape{});
}

// The seed's LOAD_ELIM=3 listing (static_graph_expert_programming, "%0 = Assign ...").
struct SeedChain {
    std::unique_ptr<Module> m = std::make_unique<Module>();
    FuncGraph* g = nullptr;
    Parameter* x = nullptr;
    Parameter* w = nullptr;
    std::vector<CNode*> body;  // %0 .. %17
    CNode* ret = nullptr;

    SeedChain() {
        g = m->addGraph("BackwardNet_construct");
        m->setEntry(g);
        x = m->addParameter(g, "inputs0");
        x->setAbstract(i32());
        w = m->addParameter(g, "param");
        w->setAbstract(Abstract::ref(DType::Int32, Shape{}, ":param"));
        w->setDefault(Value::tensorValue(scalarTensor(DType::Int32, 0)));
        auto op = [&](const char* name, std::vector<Node*> args, AbstractPtr abs = i32()) {
            args.insert(args.begin(), m->addValue(g, Value::primitive(name)));
            CNode* c = m->addCNode(g, args);
            c->setAbstract(std::move(abs));
            body.push_back(c);
            return c;
        };
        auto u = [&] { return m->addValue(g, Value::monadValue(MonadKind::U)); };
        auto t = [&](int v) {
            return m->addValue(g, Value::tensorValue(scalarTensor(DType::Int32, v)));
        };
        const AbstractPtr um = Abstract::monadAbs(MonadKind::U);
        CNode* a0 = op("Assign", {w, t(0), u()});
        CNode* s1 = op("UpdateState", {u(), a0}, um);
        CNode* l2 = op("Load", {w, s1});
        CNode* s3 = op("UpdateState", {s1, l2}, um);
        CNode* a4 = op("Assign", {w, t(1), s3});
        CNode* s5 = op("UpdateState", {s3, a4}, um);
        CNode* l6 = op("Load", {w, s5});
        CNode* s7 = op("UpdateState", {s5, l6}, um);
        CNode* a8 = op("Assign", {w, t(2), s7});
        CNode* s9 = op("UpdateState", {s7, a8}, um);
        CNode* l10 = op("Load", {w, s9});
        CNode* t11 = op("MakeTuple", {l10, l6}, Abstract::tuple({i32(), i32()}));
        CNode* n12 = op("AddN", {t11});
        CNode* t13 = op("MakeTuple", {n12, l2}, Abstract::tuple({i32(), i32()}));
        CNode* n14 = op("AddN", {t13});
        CNode* t15 = op("MakeTuple", {n14}, Abstract::tuple({i32()}));
        CNode* s16 = op("UpdateState", {s9, l10}, um);
        CNode* d17 = op("Depend", {t15, s16}, Abstract::tuple({i32()}));
        ret = m->setOutput(g, d17);
    }
};

// Control flow: Net(x, y) switches between ✓ and ✗ branches; ✓ calls @helper directly and
// uses x as a free variable, ✗ builds Partial(@helper, y) and calls it.
struct SwitchModule {
    std::unique_ptr<Module> m = std::make_unique<Module>();
    FuncGraph *entry, *tb, *fb, *helper;
    Parameter *x, *y;
    CNode *sw, *callHelper, *partial;

    SwitchModule() {
        entry = m->addGraph("Net_construct");
        tb = m->addGraph("\xE2\x9C\x93Net_construct");  // ✓
        fb = m->addGraph("\xE2\x9C\x97Net_construct");  // ✗
        helper = m->addGraph("helper");
        m->setEntry(entry);
        auto prim = [&](FuncGraph* g, const char* n) {
            return m->addValue(g, Value::primitive(n));
        };
        auto ref = [&](FuncGraph* g, FuncGraph* target) {
            return m->addValue(g, Value::graphRef(target));
        };

        Parameter* a = m->addParameter(helper, "a");
        m->setOutput(helper, m->addCNode(helper, {prim(helper, "Neg"), a}));

        x = m->addParameter(entry, "x");
        y = m->addParameter(entry, "y");
        CNode* less = m->addCNode(entry, {prim(entry, "Less"), x, y});
        sw = m->addCNode(entry, {prim(entry, "Switch"), less, ref(entry, tb), ref(entry, fb)});
        CNode* call = m->addCNode(entry, {sw});
        m->setOutput(entry, call);

        CNode* mul = m->addCNode(tb, {prim(tb, "Mul"), x, x});
        callHelper = m->addCNode(tb, {ref(tb, helper), mul});
        m->setOutput(tb, callHelper);

        partial = m->addCNode(fb, {prim(fb, "Partial"), ref(fb, helper), y});
        m->setOutput(fb, m->addCNode(fb, {partial}));
    }
};

// outer(x) calls inner(); inner uses outer's Neg(Add(x, x)) and Square(x) as free
// variables, and Add/Neg are used by nothing else: the printer numbers them after the body.
struct FreeVariableModule {
    std::unique_ptr<Module> m = std::make_unique<Module>();
    FuncGraph *outer, *inner;

    FreeVariableModule() {
        outer = m->addGraph("outer");
        inner = m->addGraph("inner");
        m->setEntry(outer);
        auto prim = [&](FuncGraph* g, const char* n) {
            return m->addValue(g, Value::primitive(n));
        };
        Parameter* x = m->addParameter(outer, "x");
        CNode* add = m->addCNode(outer, {prim(outer, "Add"), x, x});
        CNode* neg = m->addCNode(outer, {prim(outer, "Neg"), add});
        CNode* sq = m->addCNode(outer, {prim(outer, "Square"), x});
        m->setOutput(inner, m->addCNode(inner, {prim(inner, "Mul"), neg, sq}));
        CNode* call = m->addCNode(outer, {m->addValue(outer, Value::graphRef(inner))});
        m->setOutput(outer, m->addCNode(outer, {prim(outer, "Sub"), call, sq}));
    }
};

struct DotEdge {
    std::string from, to, attrs;
};

std::vector<DotEdge> dotEdges(const std::string& dot) {
    std::vector<DotEdge> out;
    static const QRegularExpression re(QStringLiteral(R"(^\s*(\w+) -> (\w+) \[(.*)\];$)"),
                                       QRegularExpression::MultilineOption);
    auto it = re.globalMatch(QString::fromStdString(dot));
    while (it.hasNext()) {
        auto mt = it.next();
        out.push_back({mt.captured(1).toStdString(), mt.captured(2).toStdString(),
                       mt.captured(3).toStdString()});
    }
    return out;
}

// Node statements: `  n12 [label=...` (not edges, not graph/node/edge defaults).
std::map<std::string, std::string> dotNodes(const std::string& dot) {
    std::map<std::string, std::string> out;
    static const QRegularExpression re(QStringLiteral(R"(^\s*([nc][0-9_]+|g\d+_empty) \[(.*)\];$)"),
                                       QRegularExpression::MultilineOption);
    auto it = re.globalMatch(QString::fromStdString(dot));
    while (it.hasNext()) {
        auto mt = it.next();
        out[mt.captured(1).toStdString()] = mt.captured(2).toStdString();
    }
    return out;
}

bool has(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

std::string nid(const Node* n) {
    return "n" + std::to_string(n->id());
}

const DotEdge* findEdge(const std::vector<DotEdge>& es, const std::string& from,
                        const std::string& to) {
    for (const auto& e : es) {
        if (e.from == from && e.to == to) {
            return &e;
        }
    }
    return nullptr;
}

int countOf(const std::string& s, const std::string& part) {
    int n = 0;
    for (auto p = s.find(part); p != std::string::npos; p = s.find(part, p + part.size())) {
        ++n;
    }
    return n;
}

QJsonObject parseJson(const std::string& text) {
    QJsonParseError err;
    auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(text), &err);
    if (err.error != QJsonParseError::NoError) {
        qWarning() << err.errorString();
    }
    return doc.object();
}

}  // namespace

class TestExport : public QObject {
    Q_OBJECT

private slots:
    void dotSeedChainClustersNodesAndEdges() {
        SeedChain s;
        const std::string dot = exportDot(*s.m);
        QVERIFY(dot.rfind("digraph", 0) == 0);
        QCOMPARE(countOf(dot, "subgraph cluster_"), 1);
        QVERIFY(has(dot, "label=\"BackwardNet_construct\""));
        QVERIFY(has(dot, "compound=true"));

        const auto nodes = dotNodes(dot);
        int graphNodes = 0;
        int constants = 0;
        for (const auto& [id, attrs] : nodes) {
            (id[0] == 'n' ? graphNodes : constants)++;
        }
        QCOMPARE(graphNodes, 2 + 19);  // two parameters, %0..%17 and Return
        QCOMPARE(constants, 5);        // three tensors and two U monads, one per use

        // Local numbers follow the printer: topoOrder index.
        QVERIFY(has(nodes.at(nid(s.body[2])), "label=\"%2 Load"));
        QVERIFY(has(nodes.at(nid(s.body[17])), "label=\"%17 Depend"));
        QVERIFY(has(nodes.at(nid(s.ret)), "label=\"Return"));
        QVERIFY(has(nodes.at(nid(s.body[12])), "Int32 ()"));
        QVERIFY(has(nodes.at(nid(s.x)), "label=\"%para1_inputs0\\nInt32 ()\""));
        QVERIFY(has(nodes.at(nid(s.w)), "label=\"%para2_param\\nRef Int32 ()\""));
        // The weight looks different from the input.
        QVERIFY(has(nodes.at(nid(s.w)), "cylinder"));
        QVERIFY(!has(nodes.at(nid(s.x)), "cylinder"));

        const auto edges = dotEdges(dot);
        int dashed = 0;
        int solid = 0;
        for (const auto& e : edges) {
            (has(e.attrs, "style=dashed") ? dashed : solid)++;
        }
        QCOMPARE(solid, 18);
        QCOMPARE(dashed, 19);
        // Load's state input, Depend's second input and UpdateState's inputs are dashed ...
        QVERIFY(has(findEdge(edges, nid(s.body[1]), nid(s.body[2]))->attrs, "dashed"));
        QVERIFY(has(findEdge(edges, nid(s.body[16]), nid(s.body[17]))->attrs, "dashed"));
        QVERIFY(has(findEdge(edges, nid(s.body[2]), nid(s.body[3]))->attrs, "dashed"));
        // ... while the loaded values flowing into MakeTuple and the weight into Load are not.
        QVERIFY(!has(findEdge(edges, nid(s.body[10]), nid(s.body[11]))->attrs, "dashed"));
        QVERIFY(!has(findEdge(edges, nid(s.w), nid(s.body[2]))->attrs, "dashed"));
        QVERIFY(!has(findEdge(edges, nid(s.body[15]), nid(s.body[17]))->attrs, "dashed"));
        // Stable ids.
        QVERIFY(has(dot, "id=\"e" + std::to_string(s.body[2]->id()) + "_2\""));
        QCOMPARE(exportDot(*s.m), dot);
    }

    void dotWithoutConstants() {
        SeedChain s;
        DotOptions o;
        o.includeConstants = false;
        o.rankdir = "LR";
        const std::string dot = exportDot(*s.m, o);
        QVERIFY(has(dot, "rankdir=LR"));
        const auto nodes = dotNodes(dot);
        for (const auto& [id, attrs] : nodes) {
            QVERIFY2(id[0] == 'n', id.c_str());
        }
        QCOMPARE(dotEdges(dot).size(), std::size_t(37 - 5));
        o.rankdir = "sideways\"];";  // not a rankdir: the default, nothing injected
        QVERIFY(has(exportDot(*s.m, o), "rankdir=TB"));
    }

    void classifyInputFollowsStateRules() {
        SeedChain s;
        QCOMPARE(classifyInput(*s.body[0], 1), EdgeKind::Data);     // Assign's target
        QCOMPARE(classifyInput(*s.body[0], 2), EdgeKind::Data);     // Assign's value
        QCOMPARE(classifyInput(*s.body[0], 3), EdgeKind::Control);  // U
        QCOMPARE(classifyInput(*s.body[1], 2), EdgeKind::Control);  // UpdateState's attach
        QCOMPARE(classifyInput(*s.body[2], 2), EdgeKind::Control);  // Load's state
        QCOMPARE(classifyInput(*s.body[17], 1), EdgeKind::Data);
        QCOMPARE(classifyInput(*s.body[17], 2), EdgeKind::Control);
        QCOMPARE(classifyInput(*s.body[17], 0), EdgeKind::Data);
    }

    void dotControlFlowClustersAndGraphReferences() {
        SwitchModule s;
        const std::string dot = exportDot(*s.m);
        // Printer order: entry, then graphs depth-first as referenced: ✓, helper, ✗.
        QCOMPARE(countOf(dot, "subgraph cluster_"), 4);
        QVERIFY(has(dot, "subgraph cluster_1 {\n    label=\"\xE2\x9C\x93Net_construct\";"));
        QVERIFY(has(dot, "subgraph cluster_2 {\n    label=\"helper\";"));
        QVERIFY(has(dot, "subgraph cluster_3 {\n    label=\"\xE2\x9C\x97Net_construct\";"));

        const auto edges = dotEdges(dot);
        std::vector<const DotEdge*> dotted;
        for (const auto& e : edges) {
            if (has(e.attrs, "style=dotted")) {
                dotted.push_back(&e);
            }
        }
        QCOMPARE(dotted.size(), std::size_t(4));
        auto dottedFrom = [&](const Node* n, const char* lhead) {
            for (const DotEdge* e : dotted) {
                if (e->from == nid(n) && has(e->attrs, std::string("lhead=") + lhead)) {
                    return true;
                }
            }
            return false;
        };
        QVERIFY(dottedFrom(s.sw, "cluster_1"));
        QVERIFY(dottedFrom(s.sw, "cluster_3"));
        QVERIFY(dottedFrom(s.callHelper, "cluster_2"));
        QVERIFY(dottedFrom(s.partial, "cluster_2"));
        // The graph call is labelled with its callee; the call of the Switch result with it.
        QVERIFY(has(dotNodes(dot).at(nid(s.callHelper)), "label=\"%1 call @helper"));
        QVERIFY(has(dotNodes(dot).at(nid(s.entry->returnNode()->input(1))), "%2 call %1"));

        // Free variables: x twice into ✓'s Mul, y into ✗'s Partial, drawn across clusters.
        int fv = 0;
        for (const auto& e : edges) {
            if (has(e.attrs, "#1f77b4")) {
                ++fv;
                QVERIFY(e.from == nid(s.x) || e.from == nid(s.y));
            }
        }
        QCOMPARE(fv, 3);
    }

    void dotSelectedGraphsAndEscaping() {
        SwitchModule s;
        s.tb->setName("say \"hi\" \\ \xE2\x9C\x93");
        DotOptions o;
        o.graphs = {s.tb->name()};
        const std::string dot = exportDot(*s.m, o);
        QCOMPARE(countOf(dot, "subgraph cluster_"), 1);
        QVERIFY(has(dot, "label=\"say \\\"hi\\\" \\\\ \xE2\x9C\x93\""));
        // x belongs to a graph that is not drawn: a stub outside the clusters.
        QVERIFY(has(dotNodes(dot).at(nid(s.x)), "(of @Net_construct)"));
        // helper is not drawn: the call names it, no dangling edge to a cluster.
        QVERIFY(!has(dot, "lhead"));
        const std::string svg = renderDot(dot, "svg");
        QVERIFY(has(svg, "say &quot;hi&quot; \\ \xE2\x9C\x93"));
        // Invalid UTF-8 in a name does not make the output invalid.
        s.tb->setName("bad\xFF\xC3(name");
        o.graphs = {s.tb->name()};
        QVERIFY(has(exportDot(*s.m, o),
                    "label=\"bad?"
                    "?(name\""));
    }

    void namesMatchThePrinter() {
        SeedChain seed;
        SwitchModule sw;
        FreeVariableModule fv;
        for (const Module* m : {seed.m.get(), sw.m.get(), fv.m.get()}) {
            const std::string text = printIr(*m);
            const std::string dot = exportDot(*m);
            const auto nodes = dotNodes(dot);
            const QJsonObject json = parseJson(exportJson(*m));
            std::map<qint64, QString> jsonLocal;
            for (const auto& v : json["nodes"].toArray()) {
                jsonLocal[v.toObject()["id"].toInteger()] = v.toObject()["local"].toString();
            }
            int checked = 0;
            m->forEachNode([&](const Node* n) {
                const auto* c = nodeCast<CNode>(n);
                if (c == nullptr || c->primitive() == nullptr || c->isPrimitive("Return")) {
                    return;
                }
                const std::string section =
                    text.substr(text.find("subgraph @" + c->graph()->name() + "("));
                const std::string local = localNames(*m).of(*c);
                const std::string op = c->primitive()->name;
                QVERIFY2(
                    has(section.substr(0, section.find("\n}")), "  " + local + " = " + op + "("),
                    (local + " " + op).c_str());
                QVERIFY2(has(nodes.at(nid(c)), "label=\"" + local + " " + op),
                         (local + " " + op).c_str());
                QCOMPARE(jsonLocal.at(qint64(c->id())), QString::fromStdString(local));
                ++checked;
            });
            QVERIFY(checked > 0);
        }
        // Nodes only the inner graph uses stay in the outer cluster, numbered after its body.
        const std::string dot = exportDot(*fv.m);
        const std::string outer = dot.substr(0, dot.find("subgraph cluster_1"));
        QVERIFY(has(outer, "label=\"%3 Add\"") && has(outer, "label=\"%4 Neg\""));
        QCOMPARE(int(dotEdges(dot).size()), 11);
    }

    // Random modules (every value and abstract kind, free variables, names that need
    // quoting): the DOT is always valid for Graphviz and the JSON for a JSON reader.
    void randomModulesExportCleanly() {
        for (std::uint64_t seed = 1; seed <= 60; ++seed) {
            auto m = irscope::testing::randomModule(seed);
            const std::string dot = exportDot(*m);
            const auto nodes = dotNodes(dot);
            irscope::layout::Layout lay;
            try {
                lay = layoutDot(dot);
            } catch (const std::exception& e) {
                QFAIL(qPrintable(QStringLiteral("seed %1: %2").arg(seed).arg(e.what())));
            }
            QCOMPARE(lay.nodes.size(), nodes.size());
            QCOMPARE(lay.edges.size(), dotEdges(dot).size());

            QJsonParseError err;
            const auto doc =
                QJsonDocument::fromJson(QByteArray::fromStdString(exportJson(*m)), &err);
            QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString()));
            std::set<qint64> ids;
            for (const auto& v : doc["nodes"].toArray()) {
                QVERIFY(ids.insert(v.toObject()["id"].toInteger()).second);
            }
            for (const auto& v : doc["edges"].toArray()) {
                QVERIFY(ids.count(v.toObject()["from"].toInteger()));
                QVERIFY(ids.count(v.toObject()["to"].toInteger()));
            }
        }
    }

    void renderSvgContainsEveryOp() {
        SeedChain s;
        const std::string svg = renderDot(exportDot(*s.m), "svg");
        QVERIFY(has(svg, "<svg"));
        for (const char* op : {"Assign", "UpdateState", "Load", "MakeTuple", "AddN", "Depend",
                               "Return", "BackwardNet_construct", "inputs0", "param"}) {
            QVERIFY2(has(svg, op), op);
        }
        QVERIFY(has(svg, ">%2 Load<"));
        QVERIFY(has(svg, "stroke-dasharray"));  // the dashed state edges

        SwitchModule c;
        const std::string svg2 = renderDot(exportDot(*c.m), "svg");
        QVERIFY(has(svg2, "\xE2\x9C\x93Net_construct"));
        QVERIFY(has(svg2, "Switch"));

        const std::string png = renderDot(exportDot(*s.m), "png");
        QVERIFY(png.rfind("\x89PNG", 0) == 0);
        QVERIFY(has(renderDot(exportDot(*s.m), "plain"), "graph "));
        QVERIFY(has(renderDot(exportDot(*s.m), "dot"), "pos=\""));
    }

    void malformedDotIsAnErrorNotACrash() {
        for (const char* bad : {"digraph { a -> ", "graph { a -> b }", "}{", "",
                                "digraph { a [label=\"unterminated] }"}) {
            bool threw = false;
            try {
                renderDot(bad, "svg");
            } catch (const std::runtime_error& e) {
                threw = true;
                QVERIFY(std::string(e.what()).rfind("graphviz: ", 0) == 0);
                QVERIFY(std::string(e.what()).size() > 10);
            }
            QVERIFY2(threw, bad);
            QVERIFY_THROWS_EXCEPTION(std::runtime_error, layoutDot(bad));
        }
        try {
            renderDot("digraph { a -> }", "svg");
            QFAIL("no error");
        } catch (const std::runtime_error& e) {
            QVERIFY2(has(e.what(), "syntax error"), e.what());
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, renderDot("digraph { a }", "bmp"));
        // Graphviz is usable again after errors.
        QVERIFY(has(renderDot("digraph { a -> b }", "svg"), "<svg"));
    }

    void layoutGeometry() {
        SeedChain s;
        const auto lay = layoutDot(exportDot(*s.m));
        QVERIFY(lay.bbox.width() > 0 && lay.bbox.height() > 0);
        QCOMPARE(lay.nodes.size(), std::size_t(21 + 5));
        QCOMPARE(lay.edges.size(), std::size_t(37));
        QCOMPARE(lay.clusters.size(), std::size_t(1));
        QCOMPARE(lay.clusters[0].name, std::string("cluster_0"));
        QCOMPARE(lay.clusters[0].label, std::string("BackwardNet_construct"));
        std::set<std::string> names;
        for (const auto& n : lay.nodes) {
            names.insert(n.name);
            QVERIFY(n.width > 0 && n.height > 0);
            QVERIFY(n.x >= lay.clusters[0].bbox.x0 && n.x <= lay.clusters[0].bbox.x1);
            QVERIFY(n.y >= lay.clusters[0].bbox.y0 && n.y <= lay.clusters[0].bbox.y1);
        }
        QVERIFY(names.count(nid(s.body[17])));
        for (const auto& e : lay.edges) {
            QVERIFY(e.points.size() >= 2);
            QVERIFY(!e.id.empty());
            QVERIFY(e.hasArrowHead);
        }
        // In TB layouts inputs sit above their users (y grows upward).
        auto y = [&](const Node* n) {
            for (const auto& ln : lay.nodes) {
                if (ln.name == nid(n)) {
                    return ln.y;
                }
            }
            return -1.0;
        };
        QVERIFY(y(s.body[0]) > y(s.body[2]));
        QVERIFY(y(s.body[17]) > y(s.ret));
    }

    void largeGraphsGetFastSettings() {
        std::string dot = "digraph big {\n";
        for (int i = 0; i < 1600; ++i) {
            dot += "  v" + std::to_string(i) + " -> v" + std::to_string((i * 7 + 3) % 1600) + ";\n";
        }
        dot += "}\n";
        const std::string out = renderDot(dot, "dot");
        QVERIFY(has(out, "nslimit=0.1"));
        QVERIFY(has(out, "splines=line"));
        // Small graphs keep Graphviz's defaults, and explicit settings win.
        QVERIFY(!has(renderDot("digraph { a -> b }", "dot"), "nslimit"));
        dot.insert(dot.find('\n') + 1, "  splines=ortho;\n");
        QVERIFY(!has(renderDot(dot, "dot"), "splines=line"));
    }

    void concurrentCallsAreSerialised() {
        SeedChain s;
        const std::string dot = exportDot(*s.m);
        std::atomic<int> ok{0};
        std::vector<std::thread> threads;
        for (int i = 0; i < 4; ++i) {
            threads.emplace_back([&, i] {
                if (i % 2 == 0) {
                    ok += has(renderDot(dot, "svg"), "</svg>") ? 1 : 0;
                } else {
                    ok += layoutDot(dot).nodes.size() == 26 ? 1 : 0;
                }
            });
        }
        for (auto& t : threads) {
            t.join();
        }
        QCOMPARE(ok.load(), 4);
    }

    void jsonSeedChain() {
        SeedChain s;
        const QJsonObject doc = parseJson(exportJson(*s.m));
        QCOMPARE(doc["format"].toString(), QStringLiteral("irscope-ir"));
        QCOMPARE(doc["entry"].toString(), QStringLiteral("BackwardNet_construct"));
        const QJsonArray graphs = doc["graphs"].toArray();
        QCOMPARE(graphs.size(), 1);
        const QJsonObject g = graphs[0].toObject();
        QCOMPARE(g["name"].toString(), QStringLiteral("BackwardNet_construct"));
        QCOMPARE(g["parameters"].toArray().size(), 2);
        QCOMPARE(g["parameters"].toArray()[1].toInteger(), qint64(s.w->id()));
        QCOMPARE(g["body"].toArray().size(), 19);
        QCOMPARE(g["return"].toInteger(), qint64(s.ret->id()));

        std::map<qint64, QJsonObject> nodes;
        for (const auto& v : doc["nodes"].toArray()) {
            nodes[v.toObject()["id"].toInteger()] = v.toObject();
        }
        // 2 parameters, 19 CNodes, 19 primitive callees, 3 tensors, 2 U.
        QCOMPARE(nodes.size(), std::size_t(2 + 19 + 19 + 5));
        const QJsonObject load = nodes.at(qint64(s.body[2]->id()));
        QCOMPARE(load["kind"].toString(), QStringLiteral("cnode"));
        QCOMPARE(load["op"].toString(), QStringLiteral("Load"));
        QCOMPARE(load["local"].toString(), QStringLiteral("%2"));
        QCOMPARE(load["graph"].toString(), QStringLiteral("BackwardNet_construct"));
        QCOMPARE(load["inputs"].toArray().size(), 3);
        QCOMPARE(load["inputs"].toArray()[1].toInteger(), qint64(s.w->id()));
        QCOMPARE(load["inputs"].toArray()[2].toInteger(), qint64(s.body[1]->id()));
        QVERIFY(load["abstract"].toString().contains("Int32"));
        QVERIFY(nodes.at(qint64(s.ret->id()))["local"].isNull());
        const QJsonObject w = nodes.at(qint64(s.w->id()));
        QCOMPARE(w["kind"].toString(), QStringLiteral("parameter"));
        QCOMPARE(w["name"].toString(), QStringLiteral("param"));
        QVERIFY(w["has_default"].toBool());
        QVERIFY(w["abstract"].toString().contains("Ref"));
        const QJsonObject u = nodes.at(qint64(s.body[0]->input(3)->id()));
        QCOMPARE(u["kind"].toString(), QStringLiteral("value"));
        QCOMPARE(u["value"].toString(), QStringLiteral("U"));

        const QJsonArray edges = doc["edges"].toArray();
        QCOMPARE(edges.size(), 37 + 19);  // plus the callee edges
        int control = 0;
        for (const auto& v : edges) {
            const QJsonObject e = v.toObject();
            QVERIFY(nodes.count(e["from"].toInteger()) && nodes.count(e["to"].toInteger()));
            if (e["kind"].toString() == QStringLiteral("control")) {
                ++control;
            } else {
                QCOMPARE(e["kind"].toString(), QStringLiteral("data"));
            }
        }
        QCOMPARE(control, 19);
    }

    void jsonControlFlowAndBadText() {
        SwitchModule s;
        s.fb->setName("bad\xFFname");
        s.m->addGraph("orphan");
        const QJsonObject doc = parseJson(exportJson(*s.m));
        const QJsonArray graphs = doc["graphs"].toArray();
        QCOMPARE(graphs.size(), 5);
        QCOMPARE(graphs[1].toObject()["name"].toString(),
                 QString::fromUtf8("\xE2\x9C\x93Net_construct"));
        QVERIFY(graphs[3].toObject()["name"].toString().startsWith(QStringLiteral("bad")));
        QCOMPARE(graphs[4].toObject()["reachable"].toBool(), false);
        QVERIFY(graphs[4].toObject()["return"].isNull());
        bool sawCall = false;
        for (const auto& v : doc["nodes"].toArray()) {
            if (v.toObject()["call"].toString() == QStringLiteral("helper")) {
                sawCall = true;
                QCOMPARE(v.toObject()["local"].toString(), QStringLiteral("%1"));
            }
        }
        QVERIFY(sawCall);
    }
};

QTEST_GUILESS_MAIN(TestExport)
#include "test_export.moc"
