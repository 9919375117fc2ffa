// The MindIR reader on the 10 real files in ../shared/mindir (read in place): every version
// from 1.3 to 2.5 opens with its graphs, weights, constants, primitive attributes, scopes and
// sub-graph calls; the encrypted one opens with its key only; truncated, corrupt and foreign
// input gets a clear error; the CLI's info/dump on .mindir.
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <QFile>
#include <QTemporaryDir>

#include "cli_runner.h"
#include "ir/export_json.h"
#include "ir/ir_text.h"
#include "mindir.pb.h"
#include "mindir/mindir.h"

using namespace irscope;
using irscope::mindir::MindirError;

namespace {

const std::string kDir = std::string(IRSCOPE_SHARED_DIR) + "/mindir/";
const std::string kEncrypted = "10_encrypted_aesgcm_add_encrpty_key_0123456789ABCDEF.mindir";

std::string path(const std::string& name) {
    return kDir + name;
}

std::string slurp(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

mindir::Model read(const std::string& name) {
    return mindir::readMindirFile(path(name));
}

// Every CNode of the module whose callee is the primitive `op`.
std::vector<const ir::CNode*> nodesOf(const ir::Module& m, std::string_view op) {
    std::vector<const ir::CNode*> out;
    m.forEachNode([&](const ir::Node* n) {
        if (const auto* c = ir::nodeCast<ir::CNode>(n); c && c->isPrimitive(op)) {
            out.push_back(c);
        }
    });
    return out;
}

std::vector<const ir::ValueNode*> constants(const ir::Module& m) {
    std::vector<const ir::ValueNode*> out;
    m.forEachNode([&](const ir::Node* n) {
        if (const auto* v = ir::nodeCast<ir::ValueNode>(n);
            v && v->value()->kind != ir::Value::Kind::Primitive &&
            v->value()->kind != ir::Value::Kind::Graph) {
            out.push_back(v);
        }
    });
    return out;
}

std::vector<std::int64_t> ints(const ir::Value& v) {
    std::vector<std::int64_t> out;
    for (const auto& e : v.elements) {
        out.push_back(e->i);
    }
    return out;
}

const ir::Parameter* weight(const ir::Module& m, std::string_view name) {
    for (const ir::Parameter* p : m.entry()->parameters()) {
        if (p->name() == name) {
            return p;
        }
    }
    return nullptr;
}

}  // namespace

class TestMindir : public QObject {
    Q_OBJECT

private slots:
    // Figures per file: graphs, operations, constants, weights, weight bytes.
    void figures_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("graphs");
        QTest::addColumn<int>("weights");
        QTest::addColumn<qulonglong>("bytes");
        QTest::addColumn<QString>("modelVersion");
        QTest::addColumn<int>("mindIrVersion");
        QTest::newRow("01") << "01_ms1.3dev_add_no_encrpty.mindir" << 1 << 0 << 0ULL << "1.1.0"
                            << 0;
        QTest::newRow("02") << "02_ms1.6.1_lstm_old_version_mindir_2.mindir" << 1 << 6
                            << 4ULL * (4 + 4 * 50 + 200 * 10 + 200 * 50 + 200 + 200) << "1.6.1"
                            << 0;
        QTest::newRow("03") << "03_ms1.10.0_tbnet.mindir" << 1 << 2
                            << 4ULL * (5233 * 26 + 4 * 26 * 26) << "1.10.0" << 1;
        QTest::newRow("04") << "04_ms2.0.0a0_lenet_ori_net.mindir" << 1 << 2
                            << 4ULL * (6 * 1 * 5 * 5 + 16 * 6 * 5 * 5) << "2.0.0a0" << 1;
        QTest::newRow("05") << "05_ms2.0.0_MatMul_bprop.mindir" << 20 << 0 << 0ULL << "2.0.0" << 1;
        QTest::newRow("06") << "06_ms2.2.0_mlp_model.mindir" << 1 << 6
                            << 4ULL * (512 * 784 + 512 + 512 * 512 + 512 + 10 * 512 + 10) << "2.2.0"
                            << 1;
        QTest::newRow("07") << "07_ms2.2.10_mnist.mindir" << 1 << 8 << 0ULL << "2.2.10.20231214"
                            << 1;
        QTest::newRow("08") << "08_ms2.5.0_celu_cnode_to_fp64_v2.mindir" << 1 << 0 << 0ULL
                            << "2.5.0" << 3;
        QTest::newRow("09") << "09_ms2.5.0_upsample_tuple_value_node.mindir" << 1 << 0 << 0ULL
                            << "2.5.0" << 3;
    }
    void figures() {
        QFETCH(QString, file);
        QFETCH(int, graphs);
        QFETCH(int, weights);
        QFETCH(qulonglong, bytes);
        QFETCH(QString, modelVersion);
        QFETCH(int, mindIrVersion);
        const mindir::Model model = read(file.toStdString());
        QCOMPARE(model.info.producerName, std::string("MindSpore"));
        QCOMPARE(QString::fromStdString(model.info.modelVersion), modelVersion);
        QCOMPARE(model.info.mindIrVersion, mindIrVersion);
        QCOMPARE(static_cast<int>(model.module->graphCount()), graphs);
        QCOMPARE(static_cast<int>(model.info.parameters), weights);
        if (bytes != 0) {
            QCOMPARE(static_cast<qulonglong>(model.info.weightBytes), bytes);
        }
        QCOMPARE(model.module->verify(), std::string());
        // Every weight carries its data, and a Ref abstract keyed by its name.
        int withData = 0;
        for (const ir::Parameter* p : model.module->entry()->parameters()) {
            if (p->hasDefault()) {
                QVERIFY(p->defaultValue() && p->defaultValue()->tensor);
                QVERIFY(p->defaultValue()->tensor->hasData());
                QCOMPARE(p->abstract()->kind, ir::Abstract::Kind::Ref);
                ++withData;
            }
        }
        QCOMPARE(withData, weights);
        // The module prints as .ir and that text reads back to the same text.
        const std::string text = ir::printIr(*model.module);
        QCOMPARE(ir::printIr(*ir::parseIr(text, "mindir.ir")), text);
    }

    // 1.3: bare op_type with its attributes on the node, types in ref_attr_name.
    void oldStyleAttributes() {
        const auto model = read("01_ms1.3dev_add_no_encrpty.mindir");
        const auto adds = nodesOf(*model.module, "Add");
        QCOMPARE(adds.size(), std::size_t{1});
        const ir::PrimitiveData* p = adds[0]->primitive();
        const ir::ValuePtr names = p->attrs.get("input_names");
        QVERIFY(names);
        QCOMPARE(names->kind, ir::Value::Kind::List);
        QCOMPARE(names->elements.size(), std::size_t{2});
        QCOMPARE(names->elements[1]->text, std::string("y"));
        QCOMPARE(adds[0]->debug().scope, std::string("Default/Add-op5"));
        QCOMPARE(ir::formatAbstract(*adds[0]->abstract()),
                 std::string("<Tensor[Float32], (2, 2)>"));
        QCOMPARE(model.module->entry()->parameters().size(), std::size_t{2});
        QCOMPARE(model.module->entry()->output(), static_cast<const ir::Node*>(adds[0]));
    }

    // 1.6: tuple constants as ints + "scalar:Tuple[...]", scalar attributes, monads.
    void oldStyleConstants() {
        const auto model = read("02_ms1.6.1_lstm_old_version_mindir_2.mindir");
        std::set<std::vector<std::int64_t>> tuples;
        for (const ir::ValueNode* v : constants(*model.module)) {
            if (v->value()->kind == ir::Value::Kind::Tuple) {
                tuples.insert(ints(*v->value()));
            }
        }
        QVERIFY(tuples.count({1, 0, 2}));
        QVERIFY(tuples.count({-1, 1, 1}));
        const auto slices = nodesOf(*model.module, "StridedSlice");
        QCOMPARE(slices.size(), std::size_t{3});
        QCOMPARE(slices[0]->primitive()->attrs.get("begin_mask")->i, std::int64_t{6});
        const auto lstm = nodesOf(*model.module, "LSTM");
        QCOMPARE(lstm.size(), std::size_t{1});
        QCOMPARE(lstm[0]->abstract()->kind, ir::Abstract::Kind::Tuple);
        QCOMPARE(lstm[0]->abstract()->elements.size(), std::size_t{5});
        const auto* u = ir::nodeCast<ir::ValueNode>(nodesOf(*model.module, "Load")[0]->input(2));
        QVERIFY(u && u->value()->kind == ir::Value::Kind::Monad);
        QCOMPARE(u->abstract()->kind, ir::Abstract::Kind::Monad);
        const ir::Parameter* w = weight(*model.module, "lstm.weight_ih_l0");
        QVERIFY(w);
        QCOMPARE(w->abstract()->refKey, std::string(":lstm.weight_ih_l0"));
        QCOMPARE(w->defaultValue()->tensor->shape, (ir::Shape{200, 10}));
    }

    // 2.0: primitives table with typed attributes; tuple attributes read from `values`
    // (kernel_size is (1, 1, 2, 2), not 0); FC weights as Constant tensors in `tensors`.
    void primitivesTableAndTensorConstants() {
        const auto model = read("04_ms2.0.0a0_lenet_ori_net.mindir");
        const auto pools = nodesOf(*model.module, "MaxPool");
        QCOMPARE(pools.size(), std::size_t{2});
        QCOMPARE(ints(*pools[0]->primitive()->attrs.get("kernel_size")),
                 (std::vector<std::int64_t>{1, 1, 2, 2}));
        QCOMPARE(pools[0]->primitive()->attrs.get("pad_mode")->text, std::string("VALID"));
        const auto matmuls = nodesOf(*model.module, "MatMul");
        QCOMPARE(matmuls.size(), std::size_t{3});
        const auto* fc1 = ir::nodeCast<ir::ValueNode>(matmuls[0]->input(2));
        QVERIFY(fc1 && fc1->value()->tensor);
        QCOMPARE(fc1->value()->tensor->shape, (ir::Shape{400, 120}));
        QCOMPARE(fc1->value()->tensor->data.size(), std::size_t{400 * 120 * 4});
        QCOMPARE(nodesOf(*model.module, "Conv2D")[0]->debug().scope,
                 std::string("Default/conv1-Conv2d/Conv2D-op1"));
        QCOMPARE(nodesOf(*model.module, "UpdateState")[0]->abstract()->kind,
                 ir::Abstract::Kind::Monad);
    }

    // 2.0 bprop: 19 function graphs, graph calls (REF::<graph>), calls of a node's result
    // (REF::<node>), closures using an enclosing graph's parameters, non-ASCII names.
    void subGraphsAndClosures() {
        const auto model = read("05_ms2.0.0_MatMul_bprop.mindir");
        const ir::Module& m = *model.module;
        QCOMPARE(m.entry()->name(), std::string("bprop_matmul.1041"));
        QVERIFY(
            m.findGraph("\xE2\x86\xB0"
                        "bprop_matmul.1083"));  // ↰bprop_matmul.1083
        int graphCalls = 0;
        int nodeCalls = 0;
        int freeVariables = 0;
        m.forEachNode([&](const ir::Node* n) {
            const auto* c = ir::nodeCast<ir::CNode>(n);
            if (!c || c->size() == 0) {
                return;
            }
            graphCalls += c->calledGraph() != nullptr;
            nodeCalls += c->callee()->isCNode();
            for (const ir::Node* in : c->inputs()) {
                freeVariables += in->isParameter() && in->graph() != c->graph();
            }
        });
        QVERIFY(graphCalls >= 5);
        QCOMPARE(nodeCalls, 14);
        QVERIFY(freeVariables > 0);
        QCOMPARE(nodesOf(m, "Switch").size(), std::size_t{7});
    }

    // 2.5: None constant, a tuple of floats in values[i].floats, float64 inputs, graph flags,
    // node attributes (node_attr), scalar abstracts.
    void version25Values() {
        const auto model = read("09_ms2.5.0_upsample_tuple_value_node.mindir");
        bool none = false;
        std::vector<double> floats;
        for (const ir::ValueNode* v : constants(*model.module)) {
            none |= v->value()->kind == ir::Value::Kind::None;
            if (v->value()->kind == ir::Value::Kind::Tuple) {
                for (const auto& e : v->value()->elements) {
                    floats.push_back(e->f);
                }
            }
        }
        QVERIFY(none);
        QCOMPARE(floats, (std::vector<double>{0.5, 1.5, 2.5}));
        const ir::FuncGraph* g = model.module->entry();
        QCOMPARE(g->parameters()[0]->abstract()->dtype, ir::DType::Float64);
        QCOMPARE(g->attrs().get("phase")->text, std::string("tests"));
        const auto ups = nodesOf(*model.module, "UpsampleNearest3D");
        QCOMPARE(ups.size(), std::size_t{1});
        QVERIFY(ups[0]->attrs().get("checkpoint")->b);

        const auto celu = read("08_ms2.5.0_celu_cnode_to_fp64_v2.mindir");
        const auto mul = nodesOf(*celu.module, "ScalarMul");
        QCOMPARE(mul.size(), std::size_t{1});
        QCOMPARE(mul[0]->abstract()->kind, ir::Abstract::Kind::Scalar);
        const auto* y = ir::nodeCast<ir::ValueNode>(mul[0]->input(2));
        QVERIFY(y);
        QCOMPARE(y->value()->f, 0.5);
    }

    void infoCountsOps() {
        const auto model = read("03_ms1.10.0_tbnet.mindir");
        QCOMPARE(model.info.ops.at("Gather"), std::size_t{5});
        QCOMPARE(model.module->entry()->parameters().size(), std::size_t{6 + 2});
        const std::string text = mindir::formatInfo(model.info, "tbnet.mindir");
        QVERIFY(text.find("1.10.0") != std::string::npos);
        QVERIFY(text.find("2 weights, 555048 bytes") != std::string::npos);
    }

    // The AES-GCM file: refused without a key (saying it is encrypted and how to open it),
    // opened with it, refused with a wrong key or the wrong mode.
    void encrypted() {
        try {
            read(kEncrypted);
            QFAIL("an encrypted file opened without a key");
        } catch (const MindirError& e) {
            QCOMPARE(e.kind(), MindirError::Kind::Encrypted);
            QVERIFY(std::string(e.what()).find("encrypted (AES-GCM)") != std::string::npos);
            QVERIFY(std::string(e.what()).find("--dec-key") != std::string::npos);
        }
        mindir::ReadOptions o;
        o.decKey = "0123456789ABCDEF";
        const auto model = mindir::readMindirFile(path(kEncrypted), o);
        QCOMPARE(model.info.encryption, mindir::Encryption::AesGcm);
        QCOMPARE(nodesOf(*model.module, "Add").size(), std::size_t{1});
        o.decKey = "0123456789ABCDEX";
        try {
            mindir::readMindirFile(path(kEncrypted), o);
            QFAIL("a wrong key decrypted the file");
        } catch (const MindirError& e) {
            QCOMPARE(e.kind(), MindirError::Kind::WrongKey);
        }
        o.decKey = "0123456789ABCDEF";
        o.decMode = "AES-CBC";
        QVERIFY_THROWS_EXCEPTION(MindirError, mindir::readMindirFile(path(kEncrypted), o));
        // What encrypt writes, decrypt reads, for every mode and key length.
        const std::string plain = slurp(path("01_ms1.3dev_add_no_encrpty.mindir"));
        for (auto mode :
             {mindir::Encryption::AesGcm, mindir::Encryption::AesCbc, mindir::Encryption::Sm4Cbc}) {
            const std::string key = mode == mindir::Encryption::Sm4Cbc
                                        ? "0123456789abcdef"
                                        : "0123456789abcdef0123456789abcdef";
            const std::string cipher = mindir::encrypt(plain, key, mode);
            QCOMPARE(mindir::detectEncryption(cipher), mode);
            QCOMPARE(mindir::decrypt(cipher, key, mode, "x"), plain);
        }
    }

    // Every prefix of every file, and files with bytes flipped: an error or a module, never
    // a crash (the fuzz target goes further).
    void truncatedAndCorrupt() {
        for (const auto& entry : std::filesystem::directory_iterator(kDir)) {
            if (entry.path().extension() != ".mindir") {
                continue;
            }
            const std::string bytes = slurp(entry.path().string());
            const std::size_t step = std::max<std::size_t>(1, bytes.size() / 97);
            for (std::size_t n = 0; n < bytes.size(); n += step) {
                try {
                    mindir::ReadOptions o;
                    o.decKey = "0123456789ABCDEF";
                    mindir::readMindir(std::string_view(bytes).substr(0, n), "cut.mindir", o);
                } catch (const MindirError& e) {
                    QVERIFY(std::string(e.what()).starts_with("cut.mindir: error: "));
                }
            }
        }
        const std::string lenet = slurp(path("04_ms2.0.0a0_lenet_ori_net.mindir"));
        try {
            mindir::readMindir(std::string_view(lenet).substr(0, lenet.size() / 2), "half.mindir");
            QFAIL("half a file opened");
        } catch (const MindirError& e) {
            QCOMPARE(e.kind(), MindirError::Kind::Corrupt);
            QVERIFY2(std::string(e.what()).find("truncated") != std::string::npos, e.what());
        }
    }

    void foreignFiles() {
        const std::pair<std::string, std::string> cases[] = {
            {std::string("\x89PNG\r\n\x1a\n", 8) + std::string(40, 'x'), "a PNG image"},
            {"# IR entry: @main\n", ".ir text dump"},
            {std::string("SQLite format 3\0", 16), "SQLite"},
            {"", "empty file"},
        };
        for (const auto& [bytes, says] : cases) {
            try {
                mindir::readMindir(bytes, "f.mindir");
                QFAIL("foreign bytes opened");
            } catch (const MindirError& e) {
                QCOMPARE(e.kind(), MindirError::Kind::Foreign);
                QVERIFY2(std::string(e.what()).find(says) != std::string::npos, e.what());
            }
        }
        // MindSpore 1.0 wrote ONNX's schema: ir_version (field 1) is a number there.
        mindir::pb::ModelProto onnxLike;
        onnxLike.GetReflection()->MutableUnknownFields(&onnxLike)->AddVarint(1, 6);
        try {
            mindir::readMindir(onnxLike.SerializeAsString(), "ms10.mindir");
            QFAIL("an ONNX-schema file opened");
        } catch (const MindirError& e) {
            QVERIFY2(std::string(e.what()).find("MindSpore 1.0") != std::string::npos, e.what());
        }
    }

    // Weights in `<prefix>_variables/data_N`-style external files: read and checked against
    // their lengths; a path leaving the model's folder is refused.
    void externalWeights() {
        const QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        std::filesystem::create_directories(dir + "/net_variables");
        std::string data(64, '\0');  // a 64-byte header, then the tensor, 64-byte aligned
        const float values[6] = {1, 2, 3, 4, 5, 6};
        data.append(reinterpret_cast<const char*>(values), sizeof values);
        std::ofstream(dir + "/net_variables/data_0", std::ios::binary) << data;

        mindir::pb::ModelProto m;
        m.set_producer_name("MindSpore");
        m.set_model_version("2.2.0");
        auto* g = m.mutable_graph();
        g->set_name("g");
        auto* in = g->add_input();
        in->set_name("g:x");
        auto* w = g->add_parameter();
        w->set_name("g:w");
        w->set_ref_key("w");
        w->set_data_type(1);
        w->add_dims(2);
        w->add_dims(3);
        auto* ext = w->mutable_external_data();
        ext->set_location("net_variables/data_0");
        ext->set_offset(64);
        ext->set_length(24);
        auto* n = g->add_node();
        n->set_op_type("Add");
        n->set_name("g:add:1");
        n->add_output("g:add:1");
        n->add_input("g:x");
        n->add_input("g:w");
        g->add_output()->set_name("g:add:1");
        std::ofstream(dir + "/net.mindir", std::ios::binary) << m.SerializeAsString();

        const auto model = mindir::readMindirFile(dir + "/net.mindir");
        const ir::Parameter* p = weight(*model.module, "w");
        QVERIFY(p);
        QCOMPARE(p->defaultValue()->tensor->elementAsDouble(5), 6.0);
        QCOMPARE(model.info.externalBytes, std::uint64_t{24});
        QCOMPARE(model.info.externalFiles, std::size_t{1});

        auto refused = [&](const std::string& says) {
            std::ofstream(dir + "/bad.mindir", std::ios::binary) << m.SerializeAsString();
            try {
                mindir::readMindirFile(dir + "/bad.mindir");
                QFAIL("bad external data accepted");
            } catch (const MindirError& e) {
                QCOMPARE(e.kind(), MindirError::Kind::External);
                QVERIFY2(std::string(e.what()).find(says) != std::string::npos, e.what());
            }
        };
        ext->set_offset(80);
        refused("too short");
        ext->set_offset(64);
        ext->set_length(20);
        refused("does not match");
        ext->set_length(24);
        ext->set_location("../elsewhere/data_0");
        refused("inside the model's folder");
        ext->set_location("net_variables/data_1");
        refused("cannot open");
    }

    // writeMindir (2.x layout) reads back to the same graph: the same .ir text, for every
    // file, and the same again after a second round; encrypted with a key as export does.
    void writeReadsBack_data() {
        QTest::addColumn<QString>("file");
        for (const auto& entry : std::filesystem::directory_iterator(kDir)) {
            const std::string name = entry.path().filename().string();
            if (entry.path().extension() == ".mindir" && !name.starts_with("10_")) {
                QTest::newRow(name.substr(0, 2).c_str()) << QString::fromStdString(name);
            }
        }
    }
    void writeReadsBack() {
        QFETCH(QString, file);
        const auto first = read(file.toStdString());
        const std::string bytes = mindir::writeMindir(*first.module);
        const auto second = mindir::readMindir(bytes, "written.mindir");
        QCOMPARE(ir::printIr(*second.module), ir::printIr(*first.module));
        QCOMPARE(second.info.parameters, first.info.parameters);
        QCOMPARE(second.info.weightBytes, first.info.weightBytes);
        QCOMPARE(second.info.ops, first.info.ops);
        QVERIFY(second.info.primitivesTable);
        QCOMPARE(second.info.mindIrVersion, std::int64_t{1});
        QCOMPARE(mindir::writeMindir(*second.module), bytes);

        mindir::WriteOptions o;
        o.encKey = "0123456789ABCDEF";
        const std::string sealed = mindir::writeMindir(*first.module, o);
        QCOMPARE(mindir::detectEncryption(sealed), mindir::Encryption::AesGcm);
        mindir::ReadOptions r;
        r.decKey = o.encKey;
        QCOMPARE(ir::printIr(*mindir::readMindir(sealed, "sealed.mindir", r).module),
                 ir::printIr(*first.module));
    }

    void cliInfoAndDump() {
        using cli_test::runCli;
        const auto info =
            runCli({"info", QString::fromStdString(path("07_ms2.2.10_mnist.mindir"))});
        QVERIFY(info.finished);
        QCOMPARE(info.status, 0);
        QVERIFY2(info.outText().contains("2.2.10.20231214"), qPrintable(info.outText()));
        QVERIFY(info.outText().contains("8 weights"));
        QVERIFY(info.outText().contains("Conv2D x2"));
        const auto dump =
            runCli({"dump", QString::fromStdString(path("07_ms2.2.10_mnist.mindir"))});
        QCOMPARE(dump.status, 0);
        QVERIFY(dump.outText().contains("Conv2D("));
        QVERIFY(dump.outText().contains("Default/conv1-Conv2d/Conv2D-op130"));
        const auto refused = runCli({"dump", QString::fromStdString(path(kEncrypted))});
        QCOMPARE(refused.status, 1);
        QVERIFY(refused.errText().contains("encrypted (AES-GCM)"));
        const auto opened = runCli(
            {"info", QString::fromStdString(path(kEncrypted)), "--dec-key", "0123456789ABCDEF"});
        QCOMPARE(opened.status, 0);
        QVERIFY(opened.outText().contains("AES-GCM"));
        const auto json =
            runCli({"json", QString::fromStdString(path("04_ms2.0.0a0_lenet_ori_net.mindir"))});
        QCOMPARE(json.status, 0);
        QVERIFY(json.outText().contains("MaxPool"));
    }
};

QTEST_GUILESS_MAIN(TestMindir)
#include "test_mindir.moc"
