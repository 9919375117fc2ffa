#include "node_inspector_dock.h"

#include <QFileInfo>
#include <QFontDatabase>
#include <QHeaderView>
#include <QTreeWidget>

#include <algorithm>

#include "dump_notes_rows.h"
#include "ir/func_graph.h"
#include "ir/ir_text.h"

namespace irscope::ui {

namespace {

constexpr int kNodeRole = Qt::UserRole + 1;
constexpr int kFileRole = Qt::UserRole + 2;  // a Source row: its file and line
constexpr int kLineRole = Qt::UserRole + 3;

QString q(const std::string& s) { return QString::fromStdString(s); }
QString q(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

QString kindText(const ir::Node& n, NodeStyle style) {
    if (n.isParameter()) {
        return QStringLiteral("Parameter");
    }
    if (n.isValue()) {
        return QStringLiteral("ValueNode");
    }
    switch (style) {
        case NodeStyle::SideEffect: return QStringLiteral("CNode (side-effecting op)");
        case NodeStyle::Monad: return QStringLiteral("CNode (monad / state op)");
        case NodeStyle::GraphCall: return QStringLiteral("CNode (graph call)");
        default: return QStringLiteral("CNode (primitive)");
    }
}

// The model's entry for `n`, or null when the model does not draw it.
const ModelNode* entryOf(const GraphModel& model, const ir::Node* n) {
    const int k = model.indexOf(n);
    return k < 0 ? nullptr : &model.nodes()[static_cast<std::size_t>(k)];
}

// "%2 = Load  <Tensor[Int32], ()>" for a node drawn by the model; a constant's value.
QString rowText(const GraphModel& model, const ir::Node* n, const ir::FuncGraph* home) {
    if (const auto* v = ir::nodeCast<ir::ValueNode>(n)) {
        return q(ir::formatValue(*v->value()));
    }
    const ModelNode* mn = entryOf(model, n);
    QString name = mn != nullptr && !mn->name.isEmpty() ? mn->name : QString();
    const QString op = mn != nullptr ? mn->label.section(QLatin1Char('\n'), 0, 0) : QString();
    QString text;
    if (n->isParameter()) {
        text = name.isEmpty() ? q(static_cast<const ir::Parameter*>(n)->name()) : name;
    } else {
        text = name.isEmpty() ? op : name + QStringLiteral(" = ") + op;
    }
    if (n->graph() != nullptr && n->graph() != home) {
        text += QStringLiteral(" in @") + q(n->graph()->name());
    }
    if (n->abstract()) {
        text += QStringLiteral("  ") + q(ir::formatAbstract(*n->abstract()));
    }
    return text;
}

QTreeWidgetItem* addRow(QTreeWidgetItem* parent, const QString& key, const QString& value) {
    auto* item = new QTreeWidgetItem(parent, {key, value});
    item->setToolTip(1, value);
    return item;
}

void addAttrs(QTreeWidgetItem* section, const ir::AttrMap& attrs, const QString& kind) {
    for (const auto& [key, value] : attrs) {
        QTreeWidgetItem* row = addRow(section, q(key), value ? q(ir::formatValue(*value)) : QString());
        row->setToolTip(0, kind);
    }
}

}  // namespace

NodeInspectorDock::NodeInspectorDock(QWidget* parent) : QDockWidget(tr("Node Inspector"), parent) {
    setObjectName(QStringLiteral("nodeInspectorDock"));
    tree_ = new QTreeWidget(this);
    tree_->setObjectName(QStringLiteral("nodeInspector"));
    tree_->setColumnCount(2);
    tree_->setHeaderLabels({tr("Property"), tr("Value")});
    tree_->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    tree_->setUniformRowHeights(true);
    tree_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    tree_->setRootIsDecorated(true);
    connect(tree_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) { activate(item); });
    connect(tree_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) { activate(item); });
    setWidget(tree_);
    clear();
}

void NodeInspectorDock::clear() {
    node_ = nullptr;
    tree_->clear();
    auto* hint = new QTreeWidgetItem(tree_, {tr("Select a node in the graph, the IR text or the script.")});
    hint->setFirstColumnSpanned(true);
    hint->setDisabled(true);
}

const ir::Node* NodeInspectorDock::nodeOfRow(const QTreeWidgetItem* item) {
    if (item == nullptr) {
        return nullptr;
    }
    return reinterpret_cast<const ir::Node*>(item->data(0, kNodeRole).value<quintptr>());
}

void NodeInspectorDock::activate(QTreeWidgetItem* item) {
    if (const ir::Node* n = nodeOfRow(item)) {
        emit nodeActivated(n);
    } else if (item != nullptr && item->data(0, kLineRole).toInt() > 0) {
        emit locationActivated(item->data(0, kFileRole).toString(), item->data(0, kLineRole).toInt());
    }
}

QTreeWidgetItem* NodeInspectorDock::section(const QString& title) const {
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = tree_->topLevelItem(i);
        if (item->text(0) == title) {
            return item;
        }
    }
    return nullptr;
}

QString NodeInspectorDock::property(const QString& name) const {
    const QTreeWidgetItem* node = section(tr("Node"));
    for (int i = 0; node != nullptr && i < node->childCount(); ++i) {
        if (node->child(i)->text(0) == name) {
            return node->child(i)->text(1);
        }
    }
    return {};
}

void NodeInspectorDock::showNode(const ir::Node* node, const GraphModel& model) {
    if (node == nullptr) {
        clear();
        return;
    }
    node_ = node;
    tree_->clear();
    const ModelNode* mn = entryOf(model, node);
    const ir::FuncGraph* home = node->graph();

    auto* props = new QTreeWidgetItem(tree_, {tr("Node")});
    QString name = mn != nullptr ? mn->name : QString();
    if (const auto* p = ir::nodeCast<ir::Parameter>(node); p != nullptr && name.isEmpty()) {
        name = q(p->name());
    }
    if (name.isEmpty() && node->isCNode() && home != nullptr && home->returnNode() == node) {
        name = QStringLiteral("Return");
    }
    addRow(props, tr("Name"), name);
    if (!node->debug().name.empty()) {
        addRow(props, tr("Debug name"), q(node->debug().name));
    }
    addRow(props, tr("Kind"), kindText(*node, mn != nullptr ? mn->style : NodeStyle::Primitive));
    if (const auto* c = ir::nodeCast<ir::CNode>(node)) {
        QString op = mn != nullptr ? mn->label.section(QLatin1Char('\n'), 0, 0) : QString();
        if (const ir::PrimitiveData* prim = c->primitive()) {
            op = q(prim->name);
            if (!prim->instanceName.empty()) {
                op += tr("  (instance name: %1)").arg(q(prim->instanceName));
            }
        } else if (const ir::FuncGraph* g = c->calledGraph()) {
            op = QStringLiteral("call @") + q(g->name());
        }
        addRow(props, tr("Op"), op);
    }
    if (const ir::AbstractPtr& a = node->abstract()) {
        addRow(props, tr("Abstract"), q(ir::formatAbstract(*a)));
        using K = ir::Abstract::Kind;
        if (a->kind == K::Tensor || a->kind == K::Ref || a->kind == K::Scalar) {
            addRow(props, tr("DType"), q(ir::dtypeName(a->dtype)));
        }
        if (a->kind == K::Tensor || a->kind == K::Ref) {
            addRow(props, tr("Shape"), q(a->shape.toString()));
        }
    }
    if (const auto* v = ir::nodeCast<ir::ValueNode>(node)) {
        addRow(props, tr("Value"), q(ir::formatValue(*v->value())));
    }
    if (const auto* p = ir::nodeCast<ir::Parameter>(node); p != nullptr && p->hasDefault()) {
        addRow(props, tr("Default"), p->defaultValue() ? q(ir::formatValue(*p->defaultValue())) : tr("(unknown)"));
    }
    if (home != nullptr) {
        addRow(props, tr("Graph"), QStringLiteral("@") + q(home->name()));
    } else if (mn != nullptr && mn->user != nullptr && mn->user->graph() != nullptr) {
        addRow(props, tr("Graph"), QStringLiteral("@") + q(mn->user->graph()->name()));
    }
    addRow(props, tr("Scope"), q(node->debug().scope));

    if (const auto* c = ir::nodeCast<ir::CNode>(node)) {
        const ir::PrimitiveData* prim = c->primitive();
        if ((prim != nullptr && !prim->attrs.empty()) || !c->attrs().empty() || !c->primalAttrs().empty()) {
            auto* attrs = new QTreeWidgetItem(tree_, {tr("Attributes")});
            if (prim != nullptr) {
                addAttrs(attrs, prim->attrs, QStringLiteral("primitive_attrs"));
            }
            addAttrs(attrs, c->attrs(), QStringLiteral("cnode_attrs"));
            addAttrs(attrs, c->primalAttrs(), QStringLiteral("cnode_primal_attrs"));
        }
    }

    // A constant has no location of its own: its user's is where it came from.
    const ir::Node* located = node->debug().trace.empty() && mn != nullptr && mn->user != nullptr ? mn->user : node;
    if (!located->debug().trace.empty()) {
        auto* source = new QTreeWidgetItem(tree_, {tr("Source")});
        for (const ir::SourceLocation& loc : located->debug().trace) {
            // The file's name only (the full path is in the tooltip), as `# In file` has it.
            QString where = QStringLiteral("%1:%2").arg(QFileInfo(q(loc.file)).fileName()).arg(loc.line);
            if (loc.lineEnd > loc.line) {
                where += QStringLiteral("~%1").arg(loc.lineEnd);
            }
            if (loc.col >= 0) {
                where += QStringLiteral(", %1~%2").arg(loc.col).arg(loc.colEnd);
            }
            QTreeWidgetItem* row = addRow(source, where, q(loc.text).trimmed());
            row->setToolTip(0, q(loc.file));
            row->setData(0, kFileRole, q(loc.file));
            row->setData(0, kLineRole, loc.line);
            row->setToolTip(1, q(loc.text) + (loc.note.empty() ? QString() : QLatin1Char('\n') + q(loc.note)));
        }
    }

    addDumpSections(tree_, node);  // a real dump's device types, stack frame, ...

    auto addNodeRow = [&](QTreeWidgetItem* section, const QString& key, const ir::Node* n) {
        QTreeWidgetItem* row = addRow(section, key, rowText(model, n, home));
        if (model.indexOf(n) >= 0) {
            row->setData(0, kNodeRole, QVariant::fromValue(reinterpret_cast<quintptr>(n)));
            row->setToolTip(1, tr("Click to select it"));
        }
    };
    if (const auto* c = ir::nodeCast<ir::CNode>(node)) {
        auto* inputs = new QTreeWidgetItem(tree_, {tr("Inputs")});
        // Input 0 is the callee: shown as the Op unless it is a node (a closure, a Partial).
        const std::size_t first = c->primitive() != nullptr || c->calledGraph() != nullptr ? 1 : 0;
        for (std::size_t i = first; i < c->size(); ++i) {
            addNodeRow(inputs, QString::number(i), c->input(i));
        }
    }
    auto* users = new QTreeWidgetItem(tree_, {tr("Users")});
    for (const ir::Use& u : node->users()) {
        addNodeRow(users, tr("input %1 of").arg(u.index), u.user);
    }
    tree_->expandAll();
    // Keys fit, but leave the values at least half of the width.
    tree_->resizeColumnToContents(0);
    tree_->setColumnWidth(0, std::min(tree_->columnWidth(0), std::max(80, tree_->viewport()->width() / 2)));
}

}  // namespace irscope::ui
