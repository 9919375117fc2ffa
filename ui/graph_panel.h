// The Graph tab: the graph view under its toolbar (node search with previous/next and a
// match count, Fit, Collapse all, Overview, the "Weights inside" and "Hide state" toggles
// and the legend of the node styles).
#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;

namespace irscope::ui {

class GraphView;

class GraphPanel : public QWidget {
    Q_OBJECT

public:
    explicit GraphPanel(QWidget* parent = nullptr);

    GraphView* view() const { return view_; }
    QLineEdit* search() const { return search_; }
    // Clears the search and its match count (a new graph is shown).
    void clearSearch();
    // Edit ▸ Find: focuses the search field with its text selected.
    void focusSearch();

private:
    void runSearch();

    GraphView* view_ = nullptr;
    QLineEdit* search_ = nullptr;
    QLabel* status_ = nullptr;
};

}  // namespace irscope::ui
