#include "ir_loader.h"

#include <QFile>

#include "ir/export_dot.h"
#include "ir/ir_text.h"
#include "layout/graphviz.h"

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
    try {
        auto module = ir::parseIr(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
                                  path.toStdString());
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
        if (out.counts.cnodes <= kMaxDrawnCNodes) {
            try {
                const std::string svg = layout::renderDot(ir::exportDot(*module), "svg");
                out.svg = QByteArray(svg.data(), static_cast<qsizetype>(svg.size()));
            } catch (const std::exception& e) {
                out.graphNote = QStringLiteral("Graphviz could not draw this graph: %1")
                                    .arg(QString::fromUtf8(e.what()));
            }
        } else {
            out.graphNote = QStringLiteral("%1 CNodes is more than the %2 drawn at once.")
                                .arg(out.counts.cnodes)
                                .arg(kMaxDrawnCNodes);
        }
        out.module = std::move(module);
    } catch (const ParseError& e) {
        out.error = QString::fromStdString(e.what());
    } catch (const std::exception& e) {
        out.error = QStringLiteral("%1: error: %2").arg(path, QString::fromUtf8(e.what()));
    }
    return out;
}

}  // namespace irscope::ui
