// The minimap of the graph view: the whole scene small in a corner, the main view's visible
// area outlined; clicking or dragging in it moves the main view there.
#pragma once

#include <QGraphicsView>

namespace irscope::ui {

class GraphMinimap : public QGraphicsView {
    Q_OBJECT

public:
    explicit GraphMinimap(QGraphicsView* main);

    // Refits the scene after the main view's scene changed.
    void refit();
    // The main view's visible scene area, as outlined.
    QRectF viewportRect() const;

protected:
    void drawForeground(QPainter* p, const QRectF& rect) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    void centreMainOn(const QPoint& pos);
    QGraphicsView* main_;
};

}  // namespace irscope::ui
