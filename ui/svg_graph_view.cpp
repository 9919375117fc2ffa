#include "svg_graph_view.h"

#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsSvgItem>
#include <QShortcut>
#include <QSvgRenderer>
#include <QWheelEvent>

namespace irscope::ui {

SvgGraphView::SvgGraphView(QWidget* parent) : QGraphicsView(parent) {
    setScene(new QGraphicsScene(this));
    setDragMode(QGraphicsView::ScrollHandDrag);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setBackgroundBrush(Qt::white);
    auto* zoomIn = new QShortcut(QKeySequence::ZoomIn, this);
    connect(zoomIn, &QShortcut::activated, this, [this] { zoomBy(1.25); });
    auto* zoomOut = new QShortcut(QKeySequence::ZoomOut, this);
    connect(zoomOut, &QShortcut::activated, this, [this] { zoomBy(0.8); });
    auto* fit = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_0), this);
    connect(fit, &QShortcut::activated, this, &SvgGraphView::fitToView);
}

void SvgGraphView::clearScene() {
    scene()->clear();
    item_ = nullptr;
    delete renderer_;
    renderer_ = nullptr;
    resetTransform();
}

bool SvgGraphView::setSvg(const QByteArray& svg) {
    clearScene();
    renderer_ = new QSvgRenderer(svg, this);
    if (!renderer_->isValid()) {
        delete renderer_;
        renderer_ = nullptr;
        return false;
    }
    item_ = new QGraphicsSvgItem();
    item_->setSharedRenderer(renderer_);
    scene()->addItem(item_);
    scene()->setSceneRect(item_->boundingRect());
    fitToView();
    return true;
}

void SvgGraphView::showMessage(const QString& text) {
    clearScene();
    auto* label = scene()->addSimpleText(text);
    scene()->setSceneRect(label->boundingRect().adjusted(-20, -20, 20, 20));
}

void SvgGraphView::zoomBy(double factor) {
    const double current = transform().m11();
    const double next = current * factor;
    if (next < 0.02 || next > 20.0) {
        return;
    }
    scale(factor, factor);
}

void SvgGraphView::fitToView() {
    if (item_ == nullptr) {
        return;
    }
    resetTransform();
    const QRectF r = item_->boundingRect();
    // Fit, but never enlarge a small drawing past its natural size.
    if (r.width() > viewport()->width() || r.height() > viewport()->height()) {
        fitInView(r, Qt::KeepAspectRatio);
    }
    centerOn(r.center());
}

void SvgGraphView::wheelEvent(QWheelEvent* e) {
    if (e->modifiers() & Qt::ControlModifier) {
        zoomBy(e->angleDelta().y() > 0 ? 1.15 : 1.0 / 1.15);
        e->accept();
        return;
    }
    QGraphicsView::wheelEvent(e);
}

}  // namespace irscope::ui
