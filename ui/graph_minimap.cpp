#include "graph_minimap.h"

#include <QMouseEvent>
#include <QPainter>

namespace irscope::ui {

GraphMinimap::GraphMinimap(QGraphicsView* main) : QGraphicsView(main), main_(main) {
    setObjectName(QStringLiteral("graphMinimap"));
    setScene(main->scene());
    setInteractive(false);  // clicks move the main view, they do not select
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setFrameShape(QFrame::Box);
    setBackgroundBrush(QColor(255, 255, 255, 230));
    setRenderHints(QPainter::Antialiasing);
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Click or drag to move the view"));
    resize(200, 150);
}

void GraphMinimap::refit() {
    resetTransform();
    if (scene() != nullptr && !scene()->sceneRect().isEmpty()) {
        fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
    }
    viewport()->update();
}

QRectF GraphMinimap::viewportRect() const {
    return main_->mapToScene(main_->viewport()->rect()).boundingRect();
}

void GraphMinimap::drawForeground(QPainter* p, const QRectF&) {
    QPen pen(QColor(0xff, 0x6d, 0x00), 2.0);
    pen.setCosmetic(true);
    p->setPen(pen);
    p->setBrush(QColor(0xff, 0x6d, 0x00, 40));
    p->drawRect(viewportRect().intersected(sceneRect()));
}

void GraphMinimap::centreMainOn(const QPoint& pos) {
    main_->centerOn(mapToScene(pos));
    viewport()->update();
}

void GraphMinimap::mousePressEvent(QMouseEvent* e) {
    centreMainOn(e->position().toPoint());
    e->accept();
}

void GraphMinimap::mouseMoveEvent(QMouseEvent* e) {
    if (e->buttons() & Qt::LeftButton) {
        centreMainOn(e->position().toPoint());
    }
    e->accept();
}

void GraphMinimap::resizeEvent(QResizeEvent* e) {
    QGraphicsView::resizeEvent(e);
    refit();
}

}  // namespace irscope::ui
