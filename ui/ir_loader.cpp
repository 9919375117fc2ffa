#include "ir_loader.h"

#include <QFile>

#include "ir/ir_text.h"

namespace irscope::ui {

LoadedIr loadIrFile(const QString& path) {
    LoadedIr out;
    out.path = path;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        out.error = QStringLiteral("%1: error: cannot open file: %2").arg(path, f.errorString());
        return out;
    }
    const QByteArray bytes = f.readAll();
    return loadIrText(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
                      path);
}

LoadedIr loadIrText(std::string_view text, const QString& path) {
    LoadedIr out;
    out.path = path;
    try {
        auto module = ir::parseIr(text, path.toStdString());
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
    } catch (const ParseError& e) {
        out.error = QString::fromStdString(e.what());
    } catch (const std::exception& e) {
        out.error = QStringLiteral("%1: error: %2").arg(path, QString::fromUtf8(e.what()));
    }
    return out;
}

}  // namespace irscope::ui
