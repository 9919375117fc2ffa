// The "First difference" panel of Compare ▸ Settings: what session::DivergenceFinder found
// when the script ran under both settings — the first kernel whose outputs differ, with each
// side's node line, value, placement and the nodes feeding it (with the values they held, and
// what a stale Load was read as), the difference and the explanation of a known pattern.
#pragma once

#include <QTreeWidget>

#include <array>

#include "session/divergence.h"

namespace irscope::ui {

// The node a divergent kernel names ("%14" in @BackwardNet_construct) in `m`, a module
// parsed from the same compile's final snapshot; null when there is none.
const ir::Node* findDivergentNode(const ir::Module& m, const session::DivergentKernel& k);

class FirstDifferencePanel : public QTreeWidget {
    Q_OBJECT

public:
    explicit FirstDifferencePanel(QWidget* parent = nullptr);

    void showMessage(const QString& text);
    void showResult(const session::DivergenceResult& r);
    // The value column of the top-level row titled `title` ("Kernel", "Difference", "Why",
    // or a side's label), or an empty string.
    QString row(const QString& title) const;
    // A side's row (0: a, 1: b); null when there is none.
    QTreeWidgetItem* sideRow(int side) const;

private:
    // Sides in different modes (r.byLine): the first divergent line and the prints.
    void showLineResult(const session::DivergenceResult& r);
    QTreeWidgetItem* add(const QString& title, const QString& value);
    std::array<QTreeWidgetItem*, 2> sides_{};
};

}  // namespace irscope::ui
