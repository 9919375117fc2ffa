// File ▸ Export's content: what each kind writes of what the window shows, as a function
// the Exporter runs on a worker thread (SVG renders through Graphviz, DOT and CSV print).
#pragma once

#include <QByteArray>
#include <QColor>
#include <QString>

#include <functional>
#include <memory>

#include "exporter.h"
#include "ir_loader.h"

class QGraphicsScene;
class QWidget;

namespace irscope::passes {
struct CompileRecord;
}  // namespace irscope::passes
namespace irscope::store {
struct Session;
}  // namespace irscope::store

namespace irscope::ui {

struct ExportSource {
    const LoadedIr* doc = nullptr;    // the IR shown (SVG, DOT, IR text)
    QGraphicsScene* scene = nullptr;  // the graph view's scene (PNG), drawn on `background`
    QColor background;
    std::shared_ptr<const store::Session> session;  // compile totals
    const passes::CompileRecord* compile = nullptr;  // of `session`: its pass statistics
};

// A failed export's message box: window-modal but not blocking (the window stays responsive).
void showExportError(QWidget* parent, const QString& error);

// The bytes of `kind` (PNG is drawn now, on the UI thread; the rest later, by the returned
// function, on a worker thread). Null, with the reason in *why, when there is nothing to export.
std::function<QByteArray()> exportJob(ExportKind kind, const ExportSource& src, QString* why);

}  // namespace irscope::ui
