#include "export_job.h"

#include <QMessageBox>
#include <QObject>

#include "ir/export_dot.h"
#include "layout/graphviz.h"
#include "store/session.h"
#include "session/stats_csv.h"

namespace irscope::ui {

namespace {

QByteArray bytesOf(const std::string& s) {
    return QByteArray(s.data(), static_cast<qsizetype>(s.size()));
}

}  // namespace

void showExportError(QWidget* parent, const QString& error) {
    auto* box = new QMessageBox(QMessageBox::Warning, QObject::tr("Export"), error, QMessageBox::Ok,
                                parent);
    box->setObjectName(QStringLiteral("exportErrorBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

std::function<QByteArray()> exportJob(ExportKind kind, const ExportSource& src, QString* why) {
    const bool graph = kind == ExportKind::Svg || kind == ExportKind::Png ||
                       kind == ExportKind::Dot || kind == ExportKind::Ir;
    if (graph && (src.doc == nullptr || !src.doc->ok())) {
        *why = QObject::tr("Nothing to export: open an .ir file, a script or a dump folder first");
        return {};
    }
    switch (kind) {
        case ExportKind::Svg:
        case ExportKind::Dot:
            return [module = src.doc->module, svg = kind == ExportKind::Svg] {
                const std::string dot = ir::exportDot(*module);
                return bytesOf(svg ? layout::renderDot(dot, "svg") : dot);
            };
        case ExportKind::Png: {
            const QByteArray png =
                src.scene != nullptr ? renderScenePng(*src.scene, src.background) : QByteArray();
            if (png.isEmpty()) {
                *why = QObject::tr("Nothing to export: the graph view is empty");
                return {};
            }
            return [png] { return png; };
        }
        case ExportKind::Ir:
            return [text = src.doc->text] { return text.toUtf8(); };
        case ExportKind::PassCsv:
            if (src.compile == nullptr || src.session == nullptr) {
                *why = QObject::tr("Nothing to export: select a compile first");
                return {};
            }
            // The session (kept alive by the function) owns the compile.
            return [owner = src.session, c = src.compile] {
                return bytesOf(session::passStatsCsv(*c));
            };
        case ExportKind::TotalsCsv:
            if (src.session == nullptr) {
                *why = QObject::tr("Nothing to export: run a script or open a dump folder first");
                return {};
            }
            return [owner = src.session] { return bytesOf(session::compileTotalsCsv(*owner)); };
    }
    return {};
}

}  // namespace irscope::ui
