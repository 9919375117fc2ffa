#include "ir_loader.h"

#include <QFile>

#include <QFileInfo>

#include "ir/ir_text.h"
#include "mindir/mindir.h"

namespace irscope::ui {

namespace {

// Fills `out` from a module read from `out.path`.
void describe(std::unique_ptr<ir::Module> module, LoadedIr& out) {
    out.text = QString::fromStdString(ir::printIr(*module));
        out.counts = module->counts();
        const QStringList lines = out.text.split(QLatin1Char('\n'));
        int line = 0;
        for (const ir::FuncGraph* g : module->reachableGraphs()) {
            GraphSummary s;
            s.name = QString::fromStdString(g->name());
            s.parameters = static_cast<int>(g->parameters().size());
            s.cnodes = static_cast<int>(g->topoOrder().size());
            const QString header = QStringLiteral("subgraph @") + s.name + QLatin1Char('(');
            for (int i = line; i < lines.size(); ++i) {
                if (lines[i].startsWith(header)) {
                    s.textLine = i;
                    line = i + 1;
                    break;
                }
            }
            out.graphs.push_back(s);
        }
        out.graph = std::make_shared<const GraphModel>(*module);
        out.module = std::move(module);
}

LoadedIr loadMindir(const QByteArray& bytes, const QString& path, const MindirKey& key) {
    LoadedIr out;
    out.path = path;
    try {
        mindir::ReadOptions o;
        o.baseDir = QFileInfo(path).absolutePath().toStdString();
        o.decKey = key.key.toStdString();
        o.decMode = key.mode.toStdString();
        mindir::Model model = mindir::readMindir(
            std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
            path.toStdString(), o);
        describe(std::move(model.module), out);
    } catch (const mindir::MindirError& e) {
        out = LoadedIr{};
        out.path = path;
        out.error = QString::fromStdString(e.what());
        out.needsKey = e.kind() == mindir::MindirError::Kind::Encrypted ||
                       e.kind() == mindir::MindirError::Kind::WrongKey;
    } catch (const std::exception& e) {
        out = LoadedIr{};
        out.path = path;
        out.error = QStringLiteral("%1: error: %2").arg(path, QString::fromUtf8(e.what()));
    }
    return out;
}

}  // namespace

LoadedIr loadIrFile(const QString& path, const MindirKey& key) {
    LoadedIr out;
    out.path = path;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        out.error = QStringLiteral("%1: error: cannot open file: %2").arg(path, f.errorString());
        return out;
    }
    const QByteArray bytes = f.readAll();
    const std::string_view view(bytes.constData(), static_cast<std::size_t>(bytes.size()));
    if (mindir::hasMindirExtension(path.toStdString()) ||
        mindir::detectEncryption(view) != mindir::Encryption::None) {
        return loadMindir(bytes, path, key);
    }
    return loadIrText(view, path);
}

LoadedIr loadIrText(std::string_view text, const QString& path) {
    LoadedIr out;
    out.path = path;
    try {
        describe(ir::parseIr(text, path.toStdString()), out);
    } catch (const ParseError& e) {
        out.error = QString::fromStdString(e.what());
    } catch (const std::exception& e) {
        out.error = QStringLiteral("%1: error: %2").arg(path, QString::fromUtf8(e.what()));
    }
    return out;
}

}  // namespace irscope::ui
