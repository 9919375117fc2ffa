// The Node inspector dock: everything the IR keeps about the selected node — its printed
// name and debug name, kind (CNode, Parameter, ValueNode) and how the graph view draws it,
// the op it calls, its abstract (dtype and shape), value or default, the graph it belongs
// to, its scope, its attributes (primitive_attrs, cnode attrs, primal attrs), its source
// locations with the lines' text, and its inputs and users as rows; clicking (or pressing
// Enter on) an input or user emits nodeActivated() so the window selects it everywhere, and
// a source location emits locationActivated() so the script shows that line.
#pragma once

#include <QDockWidget>

#include "graph_model.h"
#include "ir/node.h"

class QTreeWidget;
class QTreeWidgetItem;

namespace irscope::ui {

class NodeInspectorDock : public QDockWidget {
    Q_OBJECT

public:
    explicit NodeInspectorDock(QWidget* parent = nullptr);

    // Shows `node`, a node of the module `model` was built from (for the printed names).
    void showNode(const ir::Node* node, const GraphModel& model);
    void clear();
    const ir::Node* node() const { return node_; }

    QTreeWidget* tree() const { return tree_; }
    // The value shown for a property of the Node section ("Abstract", "Op", "Graph"...), or
    // an empty string.
    QString property(const QString& name) const;
    // Rows of the Inputs, Users, Attributes and Source sections (null when absent).
    QTreeWidgetItem* section(const QString& title) const;
    // The node a row stands for (an input or a user), or null.
    static const ir::Node* nodeOfRow(const QTreeWidgetItem* item);

signals:
    void nodeActivated(const irscope::ir::Node* node);
    // A Source row was clicked: its file and 1-based line.
    void locationActivated(const QString& file, int line);

private:
    void activate(QTreeWidgetItem* item);

    QTreeWidget* tree_ = nullptr;
    const ir::Node* node_ = nullptr;
};

}  // namespace irscope::ui
