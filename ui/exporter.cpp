#include "exporter.h"

#include <QBuffer>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <exception>

namespace irscope::ui {

QString exportFilter(ExportKind k) {
    switch (k) {
    case ExportKind::Svg: return QObject::tr("SVG image (*.svg)");
    case ExportKind::Png: return QObject::tr("PNG image (*.png)");
    case ExportKind::Dot: return QObject::tr("Graphviz DOT (*.dot *.gv)");
    case ExportKind::Ir: return QObject::tr("IR text (*.ir)");
    case ExportKind::PassCsv:
    case ExportKind::TotalsCsv: return QObject::tr("CSV (*.csv)");
    }
    return {};
}

QString exportSuffix(ExportKind k) {
    switch (k) {
    case ExportKind::Svg: return QStringLiteral("svg");
    case ExportKind::Png: return QStringLiteral("png");
    case ExportKind::Dot: return QStringLiteral("dot");
    case ExportKind::Ir: return QStringLiteral("ir");
    case ExportKind::PassCsv:
    case ExportKind::TotalsCsv: return QStringLiteral("csv");
    }
    return {};
}

QString writeFileAtomically(const QString& path, const QByteArray& bytes) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        return QObject::tr("%1: error: cannot write: %2").arg(path, f.errorString());
    }
    if (f.write(bytes) != bytes.size()) {
        const QString why = f.errorString();
        f.cancelWriting();
        return QObject::tr("%1: error: cannot write: %2").arg(path, why);
    }
    if (!f.commit()) {
        return QObject::tr("%1: error: cannot write: %2").arg(path, f.errorString());
    }
    return {};
}

QByteArray renderScenePng(QGraphicsScene& scene, const QColor& background, int maxSide) {
    const QRectF source = scene.itemsBoundingRect().adjusted(-12, -12, 12, 12);
    if (scene.items().isEmpty() || source.isEmpty()) {
        return {};
    }
    const double longer = std::max(source.width(), source.height());
    const double scale = std::min(2.0, static_cast<double>(maxSide) / longer);
    const QSize size(std::max(1, static_cast<int>(source.width() * scale)),
                     std::max(1, static_cast<int>(source.height() * scale)));
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(background);
    {
        QPainter p(&image);
        p.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        scene.render(&p, QRectF(QPointF(0, 0), QSizeF(size)), source, Qt::KeepAspectRatio);
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

Exporter::Exporter(QObject* parent) : QObject(parent) {
    connect(&watcher_, &QFutureWatcher<Result>::finished, this, [this] {
        running_ = false;
        const Result r = watcher_.result();
        emit finished(r.path, r.error);
    });
}

Exporter::~Exporter() { watcher_.waitForFinished(); }

bool Exporter::start(const QString& path, std::function<QByteArray()> make) {
    if (running_) {
        return false;
    }
    running_ = true;
    watcher_.setFuture(QtConcurrent::run([path, make = std::move(make)] {
        Result r;
        r.path = path;
        try {
            r.error = writeFileAtomically(path, make());
        } catch (const std::exception& e) {
            r.error = QObject::tr("%1: error: %2").arg(path, QString::fromUtf8(e.what()));
        }
        return r;
    }));
    return true;
}

}  // namespace irscope::ui
