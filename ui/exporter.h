// File ▸ Export: the shown graph as SVG (Graphviz renders the module's DOT through gvc),
// PNG (the graph view's scene as drawn) or DOT (ir/export_dot.h), the shown IR text, and
// compile statistics as CSV (session/stats_csv.h). Every file is written to a temporary
// file beside the target and renamed over it (QSaveFile), so a failed export never
// leaves a half-written file.
#pragma once

#include <QByteArray>
#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <functional>

class QGraphicsScene;

namespace irscope::ui {

enum class ExportKind { Svg, Png, Dot, Ir, PassCsv, TotalsCsv };

// The file dialog's filter and default suffix of a kind ("SVG image (*.svg)", "svg").
QString exportFilter(ExportKind k);
QString exportSuffix(ExportKind k);

// Writes `bytes` to `path` atomically; returns "" or the error ("path: error: ...").
QString writeFileAtomically(const QString& path, const QByteArray& bytes);

// The scene as a PNG image, its longer side at most `maxSide` pixels (at most 2x the
// scene's own size), drawn on `background`. Call on the UI thread. Empty for an empty scene.
QByteArray renderScenePng(QGraphicsScene& scene, const QColor& background, int maxSide = 8192);

// Runs exports on a worker thread, one at a time.
class Exporter : public QObject {
    Q_OBJECT

public:
    explicit Exporter(QObject* parent = nullptr);
    ~Exporter() override;

    bool isRunning() const { return running_; }
    // Produces the bytes with `make` on a worker thread (it may throw: the message becomes
    // the error), then writes them to `path`. Returns false when an export is running.
    bool start(const QString& path, std::function<QByteArray()> make);

signals:
    // `error` is empty on success.
    void finished(const QString& path, const QString& error);

private:
    struct Result {
        QString path;
        QString error;
    };
    QFutureWatcher<Result> watcher_;
    bool running_ = false;
};

}  // namespace irscope::ui
