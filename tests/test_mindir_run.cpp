// Running and writing MindIR files from scripts, as a user does with irscope-cli:
//  - the MNIST CNN and LeNet files of ../shared/mindir, loaded with mindspore.load and run
//    through nn.GraphCell, classify drawn digits as a plain forward pass over the file's own
//    weights (computed here in double, independently of the kernels) does, on the CPU and on
//    the OpenCL device (PoCL) with the same argmax and values within 1e-5;
//  - `irscope-cli run FILE.mindir` runs it on seeded inputs, and `debug` stops in it;
//  - mindspore.export writes a file in MindSpore 2.x's layout that loads back to the same
//    outputs; writes and reads stay in the script's folder (a located refusal otherwise);
//  - an op irscope has no kernel for is named.
// The shared files are copied into a temporary folder next to the scripts (scripts may only
// open .mindir files in their own folder or below), never into the repository.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <vector>

#include "cli_runner.h"
#include "ir/func_graph.h"
#include "ir/node.h"
#include "mindir/mindir.h"
#include "ir/tensor.h"

using cli_test::CliOptions;
using cli_test::runCli;
using namespace irscope;

namespace {

const char* const kMnist = "07_ms2.2.10_mnist.mindir";
const char* const kLenet = "04_ms2.0.0a0_lenet_ori_net.mindir";

QString shared(const char* name) {
    return QStringLiteral(IRSCOPE_SHARED_DIR "/mindir/") + QLatin1String(name);
}

// ---- an independent forward pass (double, plain loops) ----------------------------------

struct Nd {
    std::vector<std::int64_t> dims;
    std::vector<double> v;
};

Nd fromTensor(const ir::Tensor& t) {
    Nd n;
    n.dims = t.shape().dims;
    for (std::size_t i = 0; i < t.size(); ++i) {
        n.v.push_back(t.getDouble(i));
    }
    return n;
}

// Valid convolution, stride 1, NCHW (batch 1).
Nd conv(const Nd& x, const Nd& w) {
    const auto c = x.dims[1], h = x.dims[2], wd = x.dims[3];
    const auto co = w.dims[0], k = w.dims[2];
    Nd y{{1, co, h - k + 1, wd - k + 1}, {}};
    for (std::int64_t o = 0; o < co; ++o) {
        for (std::int64_t i = 0; i + k <= h; ++i) {
            for (std::int64_t j = 0; j + k <= wd; ++j) {
                double s = 0;
                for (std::int64_t ci = 0; ci < c; ++ci) {
                    for (std::int64_t a = 0; a < k; ++a) {
                        for (std::int64_t b = 0; b < k; ++b) {
                            s += x.v[static_cast<std::size_t>((ci * h + i + a) * wd + j + b)] *
                                 w.v[static_cast<std::size_t>(((o * c + ci) * k + a) * k + b)];
                        }
                    }
                }
                y.v.push_back(s);
            }
        }
    }
    return y;
}

Nd relu(Nd x) {
    for (double& e : x.v) {
        e = std::max(e, 0.0);
    }
    return x;
}

Nd pool2(const Nd& x) {  // 2x2 max, stride 2
    const auto c = x.dims[1], h = x.dims[2], w = x.dims[3];
    Nd y{{1, c, h / 2, w / 2}, {}};
    for (std::int64_t ch = 0; ch < c; ++ch) {
        for (std::int64_t i = 0; i < h / 2; ++i) {
            for (std::int64_t j = 0; j < w / 2; ++j) {
                double m = -INFINITY;
                for (int a = 0; a < 2; ++a) {
                    for (int b = 0; b < 2; ++b) {
                        m = std::max(
                            m, x.v[static_cast<std::size_t>((ch * h + 2 * i + a) * w + 2 * j + b)]);
                    }
                }
                y.v.push_back(m);
            }
        }
    }
    return y;
}

// x (flat) times w: w is [out, in] when `transposed` (Dense), else [in, out].
Nd dense(const Nd& x, const Nd& w, bool transposed, const Nd* bias) {
    const auto in = static_cast<std::int64_t>(x.v.size());
    const auto out = transposed ? w.dims[0] : w.dims[1];
    Nd y{{1, out}, {}};
    for (std::int64_t o = 0; o < out; ++o) {
        double s = bias ? bias->v[static_cast<std::size_t>(o)] : 0.0;
        for (std::int64_t i = 0; i < in; ++i) {
            s += x.v[static_cast<std::size_t>(i)] *
                 w.v[static_cast<std::size_t>(transposed ? o * in + i : i * out + o)];
        }
        y.v.push_back(s);
    }
    return y;
}

// The weights of a file: parameters by name, and the MatMul constants in graph order.
struct Weights {
    std::map<std::string, Nd> params;
    std::vector<Nd> matmulConstants;
};

Weights weightsOf(const char* file) {
    const mindir::Model model = mindir::readMindirFile(shared(file).toStdString());
    Weights w;
    const ir::FuncGraph* g = model.module->entry();
    for (const ir::Parameter* p : g->parameters()) {
        if (p->hasDefault() && p->defaultValue() && p->defaultValue()->tensor) {
            w.params[p->name()] =
                fromTensor(ir::Tensor::fromValueData(*p->defaultValue()->tensor));
        }
    }
    for (const ir::CNode* c : g->topoOrder()) {
        if (c->isPrimitive("MatMul")) {
            if (const auto* v = ir::nodeCast<ir::ValueNode>(c->input(2)); v && v->value()->tensor) {
                w.matmulConstants.push_back(
                    fromTensor(ir::Tensor::fromValueData(*v->value()->tensor)));
            }
        }
    }
    return w;
}

const Nd& param(const Weights& w, const std::string& name) {
    const auto it = w.params.find(name);
    if (it == w.params.end()) {
        qFatal("no weight %s", name.c_str());
    }
    return it->second;
}

// MNIST (07): conv-relu-pool twice, flatten, Dense 300-120-60-10 (weights [out, in], bias).
std::vector<double> mnistForward(const Weights& w, const Nd& x) {
    Nd h = pool2(relu(conv(x, param(w, "conv1.weight"))));
    h = pool2(relu(conv(h, param(w, "conv2.weight"))));
    h = relu(dense(h, param(w, "fc1.weight"), true, &param(w, "fc1.bias")));
    h = relu(dense(h, param(w, "fc2.weight"), true, &param(w, "fc2.bias")));
    return dense(h, param(w, "fc3.weight"), true, &param(w, "fc3.bias")).v;
}

// LeNet (04): conv-relu-pool twice, reshape, three MatMuls by constants [in, out], ReLU
// after the first two.
std::vector<double> lenetForward(const Weights& w, const Nd& x) {
    Nd h = pool2(relu(conv(x, param(w, "conv1.weight"))));
    h = pool2(relu(conv(h, param(w, "conv2.weight"))));
    h = relu(dense(h, w.matmulConstants.at(0), false, nullptr));
    h = relu(dense(h, w.matmulConstants.at(1), false, nullptr));
    return dense(h, w.matmulConstants.at(2), false, nullptr).v;
}

// Three drawn 32x32 digits: a "1" (vertical bar), a "7" (top bar and diagonal), a "0" (ring).
struct Digit {
    const char* name;
    const char* numpy;  // statements filling `x` (np.zeros((1, 1, 32, 32)))
    Nd pixels;
};

std::vector<Digit> digits() {
    std::vector<Digit> d;
    auto blank = [] { return Nd{{1, 1, 32, 32}, std::vector<double>(32 * 32, 0.0)}; };
    auto set = [](Nd& n, int r, int c) { n.v[static_cast<std::size_t>(r * 32 + c)] = 1.0; };
    Nd one = blank();
    for (int r = 4; r < 28; ++r) {
        for (int c = 14; c < 18; ++c) {
            set(one, r, c);
        }
    }
    d.push_back({"one", "x[0, 0, 4:28, 14:18] = 1.0\n", one});
    Nd seven = blank();
    for (int r = 5; r < 9; ++r) {
        for (int c = 6; c < 26; ++c) {
            set(seven, r, c);
        }
    }
    for (int r = 9; r < 28; ++r) {
        for (int c = 0; c < 4; ++c) {
            set(seven, r, 24 - r / 2 - c + 4);
        }
    }
    d.push_back({"seven",
                 "x[0, 0, 5:9, 6:26] = 1.0\n"
                 "for r in range(9, 28):\n"
                 "    for c in range(4):\n"
                 "        x[0, 0, r, 24 - r // 2 - c + 4] = 1.0\n",
                 seven});
    Nd zero = blank();
    for (int r = 0; r < 32; ++r) {
        for (int c = 0; c < 32; ++c) {
            const double dr = (r - 15.5) / 11.0, dc = (c - 15.5) / 7.0;
            const double rr = dr * dr + dc * dc;
            if (rr >= 0.55 && rr <= 1.0) {
                set(zero, r, c);
            }
        }
    }
    d.push_back({"zero",
                 "for r in range(32):\n"
                 "    for c in range(32):\n"
                 "        rr = ((r - 15.5) / 11.0) ** 2 + ((c - 15.5) / 7.0) ** 2\n"
                 "        if rr >= 0.55 and rr <= 1.0:\n"
                 "            x[0, 0, r, c] = 1.0\n",
                 zero});
    return d;
}

std::size_t argmax(const std::vector<double>& v) {
    return static_cast<std::size_t>(std::max_element(v.begin(), v.end()) - v.begin());
}

// The script that classifies every digit with `file`, one line per digit: its values.
QString classifyScript(const char* file) {
    QString s = QStringLiteral(
                    "import numpy as np\nimport mindspore as ms\nfrom mindspore import nn\n"
                    "net = nn.GraphCell(ms.load('%1'))\n")
                    .arg(QLatin1String(file));
    for (const Digit& d : digits()) {
        s += QStringLiteral("x = np.zeros((1, 1, 32, 32), np.float32)\n");
        s += QString::fromLatin1(d.numpy);
        s += QStringLiteral(
            "out = net(ms.Tensor(x)).asnumpy()\n"
            "print(' '.join([repr(float(v)) for v in out[0]]))\n");
    }
    return s;
}

std::vector<std::vector<double>> parseRows(const QString& text) {
    std::vector<std::vector<double>> rows;
    for (const QString& line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        std::vector<double> row;
        for (const QString& f : line.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            row.push_back(f.toDouble());
        }
        rows.push_back(row);
    }
    return rows;
}

bool writeText(const QString& path, const QString& text) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text.toUtf8()) >= 0;
}

bool openclAvailable() {
    const auto r = runCli({QStringLiteral("devices")});
    return r.status == 0 && r.outText().contains(QLatin1String("\nopencl"));
}

}  // namespace

class TestMindirRun : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    QString at(const QString& name) const { return dir_.filePath(name); }

    // Runs `script` (written into the folder as `name`) with irscope-cli run `extra`.
    cli_test::CliRun runScript(const QString& name, const QString& script,
                               const QStringList& extra = {}) {
        if (!writeText(at(name), script)) {
            qWarning() << "cannot write" << at(name);
        }
        CliOptions o;
        o.workingDirectory = dir_.path();
        return runCli(QStringList{QStringLiteral("run"), name} + extra, o);
    }

    void classifies(const char* file, bool lenet) {
        const Weights w = weightsOf(file);
        const auto r = runScript(QStringLiteral("classify.py"), classifyScript(file));
        QVERIFY2(r.status == 0, qPrintable(r.errText()));
        const auto rows = parseRows(r.outText());
        const auto ds = digits();
        QCOMPARE(rows.size(), ds.size());
        std::vector<std::size_t> classes;
        for (std::size_t i = 0; i < ds.size(); ++i) {
            const std::vector<double> want =
                lenet ? lenetForward(w, ds[i].pixels) : mnistForward(w, ds[i].pixels);
            QCOMPARE(rows[i].size(), want.size());
            double scale = 0;
            for (double v : want) {
                scale = std::max(scale, std::fabs(v));
            }
            for (std::size_t k = 0; k < want.size(); ++k) {
                QVERIFY2(std::fabs(rows[i][k] - want[k]) <= 1e-5 * std::max(1.0, scale),
                         qPrintable(QStringLiteral("%1 %2[%3]: %4, the reference %5")
                                        .arg(QLatin1String(file), QLatin1String(ds[i].name))
                                        .arg(k)
                                        .arg(rows[i][k], 0, 'g', 9)
                                        .arg(want[k], 0, 'g', 9)));
            }
            QCOMPARE(argmax(rows[i]), argmax(want));
            classes.push_back(argmax(want));
        }
        if (!lenet) {
            // The trained MNIST net reads the drawn digits as what they are.
            QCOMPARE(classes, (std::vector<std::size_t>{1, 7, 0}));
        }
        if (!openclAvailable()) {
            QSKIP("no OpenCL device (PoCL) on this machine");
        }
        const auto cl = runScript(
            QStringLiteral("classify.py"), classifyScript(file),
            {QStringLiteral("--device"), QStringLiteral("opencl"), QStringLiteral("--run-stats")});
        QVERIFY2(cl.status == 0, qPrintable(cl.errText()));
        // Conv2D and MaxPool ran on the device, not on the CPU.
        QVERIFY2(cl.errText().contains(QRegularExpression(
                     QStringLiteral("on opencl:[^\n]*Conv2D x2[^\n]*MaxPool x2"))),
                 qPrintable(cl.errText()));
        const auto clRows = parseRows(cl.outText());
        QCOMPARE(clRows.size(), rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            QCOMPARE(argmax(clRows[i]), argmax(rows[i]));
            for (std::size_t k = 0; k < rows[i].size(); ++k) {
                QVERIFY2(std::fabs(clRows[i][k] - rows[i][k]) <=
                             1e-5 * std::max(1.0, std::fabs(rows[i][k])),
                         qPrintable(QStringLiteral("opencl %1 vs cpu %2")
                                        .arg(clRows[i][k], 0, 'g', 9)
                                        .arg(rows[i][k], 0, 'g', 9)));
            }
        }
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        for (const char* f : {kMnist, kLenet}) {
            QVERIFY(QFile::copy(shared(f), at(QLatin1String(f))));
        }
        QDir(dir_.path()).mkdir(QStringLiteral("models"));
        QVERIFY(QFile::copy(shared(kMnist), at(QStringLiteral("models/mnist.mindir"))));
    }

    void mnistClassifiesOnCpuAndOpencl() { classifies(kMnist, false); }
    void lenetClassifiesOnCpuAndOpencl() { classifies(kLenet, true); }

    void runAndDebugAMindirFileDirectly() {
        CliOptions o;
        o.workingDirectory = dir_.path();
        const auto r = runCli({QStringLiteral("run"), QLatin1String(kMnist)}, o);
        QVERIFY2(r.status == 0, qPrintable(r.errText()));
        // The same seeded inputs from a script of the user's own give the same print.
        const auto s = runScript(QStringLiteral("seeded.py"),
                                 QStringLiteral("import numpy as np\nimport mindspore as ms\n"
                                                "from mindspore import nn\nnp.random.seed(0)\n"
                                                "net = nn.GraphCell(ms.load('%1'))\n"
                                                "x = np.random.uniform(0.0, 1.0, (1, 1, 32, 32))\n"
                                                "print(net(ms.Tensor(x.astype(np.float32))))\n")
                                     .arg(QLatin1String(kMnist)));
        QVERIFY2(s.status == 0, qPrintable(s.errText()));
        QCOMPARE(r.outText(), s.outText());
        QVERIFY(r.outText().startsWith(QLatin1String("[[")));
        // The debugger stops at the file's MaxPools.
        o.input = "break MaxPool\nrun\ncontinue\ncontinue\nquit\n";
        const auto d = runCli({QStringLiteral("debug"), QLatin1String(kMnist)}, o);
        QVERIFY2(d.status == 0, qPrintable(d.errText()));
        QCOMPARE(d.outText().count(
                     QRegularExpression(QStringLiteral("Breakpoint 1, %\\d+\\(x\\) = MaxPool"))),
                 2);
        QVERIFY(d.outText().contains(r.outText().left(20)));
    }

    void unsupportedOpsAreNamed() {
        CliOptions o;
        o.workingDirectory = dir_.path();
        QVERIFY(QFile::copy(shared("09_ms2.5.0_upsample_tuple_value_node.mindir"),
                            at("upsample.mindir")));
        const auto r = runCli({QStringLiteral("run"), QStringLiteral("upsample.mindir")}, o);
        QCOMPARE(r.status, 1);
        QVERIFY2(r.errText().contains(QLatin1String("'UpsampleNearest3D'")),
                 qPrintable(r.errText()));
        // The CeLU file's NonZero has a kernel now: it runs.
        QVERIFY(QFile::copy(shared("08_ms2.5.0_celu_cnode_to_fp64_v2.mindir"), at("celu.mindir")));
        const auto c = runCli({QStringLiteral("run"), QStringLiteral("celu.mindir")}, o);
        QVERIFY2(c.status == 0, qPrintable(c.errText()));
    }

    void exportLoadsBackToTheSameOutputs() {
        const QString script = QStringLiteral(R"(import numpy as np
import mindspore as ms
from mindspore import nn

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, pad_mode='pad', padding=1, has_bias=True)
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.avg = nn.AvgPool2d(kernel_size=2, stride=2, pad_mode='same')
        self.flat = nn.Flatten()
        self.fc = nn.Dense(16, 3)
        self.relu = nn.ReLU()
    def construct(self, x):
        return self.fc(self.flat(self.avg(self.pool(self.relu(self.conv(x))))))

ms.set_context(mode=ms.GRAPH_MODE)
np.random.seed(3)
net = Net()
x = ms.Tensor(np.random.uniform(0.0, 1.0, (2, 1, 8, 8)).astype(np.float32))
y = net(x)
ms.export(net, x, file_name="out/net", file_format="MINDIR")
z = nn.GraphCell(ms.load("out/net.mindir"))(x)
print(y)
print(z)
print(float((y - z).abs().max()))
)");
        QVERIFY(QDir(dir_.path()).mkpath(QStringLiteral("out")));
        const auto r = runScript(QStringLiteral("export.py"), script);
        QVERIFY2(r.status == 0, qPrintable(r.errText()));
        const QStringList lines = r.outText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 5);  // two 2x3 tensors of two lines each, the difference
        QCOMPARE(lines.mid(0, 2), lines.mid(2, 2));
        QCOMPARE(lines.last(), QStringLiteral("0.0"));
        // MindSpore's name (.mindir appended) and its 2.x layout, readable in the CLI.
        const std::string path = at(QStringLiteral("out/net.mindir")).toStdString();
        const mindir::Model m = mindir::readMindirFile(path);
        QVERIFY(m.info.modelVersion.starts_with("2."));
        QVERIFY(m.info.primitivesTable);
        QCOMPARE(m.info.parameters, std::size_t{4});  // conv weight and bias, fc weight and bias
        for (const char* op :
             {"Conv2D", "BiasAdd", "MaxPool", "AvgPool", "Flatten", "MatMul", "Load"}) {
            QVERIFY2(m.info.ops.contains(op), op);
        }
        const auto info = runCli({QStringLiteral("info"), QString::fromStdString(path)});
        QCOMPARE(info.status, 0);
        QVERIFY(info.outText().contains(QLatin1String("Conv2D x1")));
    }

    void scriptsStayInTheirFolder() {
        // Reading below the folder works; anything outside it, or not .mindir, is refused
        // with the script's line.
        const auto below = runScript(
            QStringLiteral("below.py"),
            QStringLiteral("import mindspore as ms\nprint(ms.load('models/mnist.mindir'))\n"));
        QVERIFY2(below.status == 0, qPrintable(below.errText()));
        QTemporaryDir outside;
        QVERIFY(QFile::copy(shared(kMnist), outside.filePath(QStringLiteral("m.mindir"))));
        QVERIFY(QFile::link(outside.filePath(QStringLiteral("m.mindir")),
                            at(QStringLiteral("link.mindir"))));
        const struct {
            QString call;
            QString expect;
        } refused[] = {
            {QStringLiteral("ms.load('%1')").arg(outside.filePath(QStringLiteral("m.mindir"))),
             QStringLiteral("only use .mindir files in the script's folder")},
            {QStringLiteral("ms.load('../m.mindir')"),
             QStringLiteral("only use .mindir files in the script's folder")},
            {QStringLiteral("ms.load('link.mindir')"),
             QStringLiteral("only use .mindir files in the script's folder")},
            {QStringLiteral("ms.load('classify.py')"), QStringLiteral("must end with '.mindir'")},
            {QStringLiteral("ms.export(nn.Dense(2, 2), ms.Tensor(np.ones((1, 2), np.float32)), "
                            "file_name='../net', file_format='MINDIR')"),
             QStringLiteral("only use .mindir files in the script's folder")},
        };
        for (const auto& c : refused) {
            const auto r = runScript(
                QStringLiteral("refused.py"),
                QStringLiteral(
                    "import numpy as np\nimport mindspore as ms\nfrom mindspore import nn\n"
                    "ms.set_context(mode=ms.GRAPH_MODE)\n%1\n")
                    .arg(c.call));
            QCOMPARE(r.status, 1);
            QVERIFY2(r.errText().contains(QLatin1String("refused.py\", line 5")),
                     qPrintable(r.errText()));
            QVERIFY2(r.errText().contains(QLatin1String("ValueError")), qPrintable(r.errText()));
            QVERIFY2(r.errText().contains(c.expect), qPrintable(c.call + "\n" + r.errText()));
        }
        QVERIFY(
            !QFile::exists(QDir(dir_.path()).absoluteFilePath(QStringLiteral("../net.mindir"))));
    }
};

QTEST_GUILESS_MAIN(TestMindirRun)
#include "test_mindir_run.moc"
