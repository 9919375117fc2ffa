// A zoomable, pannable view of an SVG drawing (the Graphviz rendering of a module).
// Ctrl+wheel or Ctrl +/- zooms, dragging pans, Ctrl+0 fits the drawing to the view.
#pragma once

#include <QGraphicsView>

class QGraphicsSvgItem;
class QSvgRenderer;

namespace irscope::ui {

class SvgGraphView : public QGraphicsView {
    Q_OBJECT

public:
    explicit SvgGraphView(QWidget* parent = nullptr);

    // Shows `svg`; returns false (and shows nothing) when it is not a valid SVG.
    bool setSvg(const QByteArray& svg);
    // Shows a short centred message instead of a drawing.
    void showMessage(const QString& text);
    bool hasDrawing() const { return item_ != nullptr; }
    void zoomBy(double factor);
    void fitToView();

protected:
    void wheelEvent(QWheelEvent* e) override;

private:
    void clearScene();
    QSvgRenderer* renderer_ = nullptr;
    QGraphicsSvgItem* item_ = nullptr;
};

}  // namespace irscope::ui
