// The Execution dock's breakpoints: the Breakpoints tab (list with enable and remove, a
// location field, watch conditions), toggling a breakpoint on the graph view's selected
// node, and the marks the graph view draws for breakpoints and the paused node.
#include <algorithm>

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "execution_dock.h"
#include "graph_view.h"

namespace irscope::ui {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// A FILE:LINE location (the debugger's own parser decides; this only picks the marks).
const QRegularExpression kSourceLine(QStringLiteral("^(.+\\.py):(\\d+)$"));

// The innermost graph group holding model node `k`: its title ("@graph"), or "".
QString graphTitleOf(const GraphModel& m, int k) {
    for (int g = m.nodes()[static_cast<std::size_t>(k)].group; g >= 0; g = m.group(g).parent) {
        if (m.group(g).isGraph) {
            return m.group(g).title;
        }
    }
    return {};
}

}  // namespace

QWidget* ExecutionDock::buildBreakpointsTab() {
    auto* panel = new QWidget(this);
    auto* column = new QVBoxLayout(panel);
    column->setContentsMargins(0, 2, 0, 0);
    points_ = new QTreeWidget(panel);
    points_->setObjectName(QStringLiteral("breakpointList"));
    points_->setColumnCount(3);
    points_->setHeaderLabels({tr("#"), tr("Where"), tr("Hits")});
    points_->setRootIsDecorated(false);
    points_->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    points_->header()->setStretchLastSection(false);
    connect(points_, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* item, int col) {
        if (col != 0) {
            return;
        }
        try {
            dbg_.setEnabled(item->data(0, Qt::UserRole).toInt(),
                            item->checkState(0) == Qt::Checked);
            ++pointsGeneration_;
        } catch (const runtime::DebugError& e) {
            showNote(qs(e.what()));
        }
        refreshMarks();
    });
    column->addWidget(points_, 1);

    auto* addRow = new QHBoxLayout;
    pointEdit_ = new QLineEdit(panel);
    pointEdit_->setObjectName(QStringLiteral("breakpointEdit"));
    pointEdit_->setPlaceholderText(tr("AddN, net.py:12, @GRAPH:%3 (empty: the selected node)"));
    pointEdit_->setClearButtonEnabled(true);
    auto* breakButton = new QPushButton(tr("Break"), panel);
    breakButton->setObjectName(QStringLiteral("addBreakpoint"));
    watchCondition_ = new QComboBox(panel);
    watchCondition_->setObjectName(QStringLiteral("watchCondition"));
    watchCondition_->addItems({QStringLiteral("nan"), QStringLiteral("inf"), QStringLiteral("zero"),
                               QStringLiteral("changed"), QStringLiteral("above"),
                               QStringLiteral("below")});
    watchThreshold_ = new QLineEdit(QStringLiteral("0"), panel);
    watchThreshold_->setObjectName(QStringLiteral("watchThreshold"));
    watchThreshold_->setMaximumWidth(70);
    watchThreshold_->setToolTip(tr("The threshold of above / below"));
    auto* watchButton = new QPushButton(tr("Watch"), panel);
    watchButton->setObjectName(QStringLiteral("addWatchpoint"));
    auto* removeButton = new QPushButton(tr("Remove"), panel);
    removeButton->setObjectName(QStringLiteral("removeBreakpoint"));
    addRow->addWidget(pointEdit_, 1);
    addRow->addWidget(breakButton);
    addRow->addWidget(watchCondition_);
    addRow->addWidget(watchThreshold_);
    addRow->addWidget(watchButton);
    addRow->addWidget(removeButton);
    column->addLayout(addRow);

    // An empty field means the node selected in the graph view.
    auto target = [this]() -> QString {
        const QString typed = pointEdit_->text().trimmed();
        if (!typed.isEmpty() || graph_ == nullptr) {
            return typed;
        }
        return locationOf(graph_->model(), graph_->selectedNode());
    };
    auto add = [this, target] {
        const QString where = target();
        if (where.isEmpty()) {
            showNote(tr("Type a location, or select a node in the graph view."));
        } else if (addBreakpoint(where)) {
            pointEdit_->clear();
        }
    };
    connect(breakButton, &QPushButton::clicked, this, add);
    connect(pointEdit_, &QLineEdit::returnPressed, this, add);
    connect(watchButton, &QPushButton::clicked, this, [this, target] {
        const QString where = target();
        QString cond = watchCondition_->currentText();
        if (cond == QStringLiteral("above") || cond == QStringLiteral("below")) {
            cond += QLatin1Char(' ') + watchThreshold_->text().trimmed();
        }
        if (where.isEmpty()) {
            showNote(tr("Type a location, or select a node in the graph view."));
        } else if (addWatchpoint(where, cond)) {
            pointEdit_->clear();
        }
    });
    connect(removeButton, &QPushButton::clicked, this, [this] {
        for (QTreeWidgetItem* item : points_->selectedItems()) {
            try {
                dbg_.remove(item->data(0, Qt::UserRole).toInt());
            } catch (const runtime::DebugError&) {
            }
        }
        ++pointsGeneration_;
        refreshBreakpoints();
        refreshMarks();
    });
    return panel;
}

bool ExecutionDock::addPoint(const std::function<int(std::string*)>& add,
                             const std::function<QString(int)>& describe) {
    try {
        std::string pending;
        const int id = add(&pending);
        showNote(describe(id) +
                 (pending.empty() ? QString() : QStringLiteral(" (%1)").arg(qs(pending))));
    } catch (const runtime::DebugError& e) {
        showNote(qs(e.what()));
        return false;
    }
    ++pointsGeneration_;
    refreshBreakpoints();
    refreshMarks();
    return true;
}

bool ExecutionDock::addBreakpoint(const QString& location) {
    return addPoint(
        [&](std::string* note) { return dbg_.addBreakpoint(location.toStdString(), note); },
        [&](int id) { return tr("Breakpoint %1 at %2").arg(id).arg(location); });
}

bool ExecutionDock::addWatchpoint(const QString& location, const QString& condition) {
    return addPoint(
        [&](std::string* note) {
            return dbg_.addWatchpoint(location.toStdString(), condition.toStdString(), note);
        },
        [&](int id) { return tr("Watchpoint %1 on %2 (%3)").arg(id).arg(location, condition); });
}

void ExecutionDock::showNote(const QString& text) {
    note_->setText(text);
    note_->show();
}

void ExecutionDock::toggleBreakpointAtSelection() {
    const ir::Node* node = graph_ != nullptr ? graph_->selectedNode() : nullptr;
    if (node == nullptr) {
        showNote(tr("Select a node in the graph view to toggle its breakpoint."));
        return;
    }
    const QString loc = node->isCNode() ? locationOf(graph_->model(), node) : QString();
    if (loc.isEmpty()) {
        showNote(tr("Only a kernel (a CNode) can have a breakpoint."));
        return;
    }
    for (const runtime::Breakpoint& b : dbg_.breakpoints()) {
        if (!b.watch && qs(b.location) == loc) {
            dbg_.remove(b.id);
            ++pointsGeneration_;
            showNote(tr("Breakpoint %1 at %2 removed").arg(b.id).arg(loc));
            refreshBreakpoints();
            refreshMarks();
            return;
        }
    }
    addBreakpoint(loc);
}

void ExecutionDock::refreshBreakpoints() {
    points_->blockSignals(true);
    points_->clear();
    for (const runtime::Breakpoint& b : dbg_.breakpoints()) {
        QString what = qs(b.location);
        if (!b.graph.empty()) {
            what += tr(" in @%1").arg(qs(b.graph));
        }
        if (b.watch) {
            what += QStringLiteral(" — %1").arg(
                qs(std::string(runtime::watchConditionName(b.condition))));
            if (b.condition == runtime::WatchCondition::Above ||
                b.condition == runtime::WatchCondition::Below) {
                what += QStringLiteral(" %1").arg(b.threshold);
            }
        }
        auto* item = new QTreeWidgetItem(
            points_, {QString::number(b.id), (b.watch ? tr("watch ") : tr("break ")) + what,
                      QString::number(b.hits)});
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(0, b.enabled ? Qt::Checked : Qt::Unchecked);
        item->setData(0, Qt::UserRole, b.id);
        item->setToolTip(1, qs(b.describe()));
    }
    points_->blockSignals(false);
}

void ExecutionDock::refreshMarks() {
    if (graph_ == nullptr) {
        return;
    }
    const GraphModel& m = graph_->model();
    std::vector<const ir::Node*> marks;
    for (const runtime::Breakpoint& b : dbg_.breakpoints()) {
        if (!b.enabled) {
            continue;
        }
        const QString loc = qs(b.location);
        if (loc.startsWith(QLatin1Char('@')) && loc.contains(QStringLiteral(":%"))) {
            const qsizetype colon = loc.lastIndexOf(QStringLiteral(":%"));
            if (const ir::Node* n = findNode(m, loc.mid(1, colon - 1), loc.mid(colon + 1))) {
                marks.push_back(n);
            }
        } else if (loc.startsWith(QLatin1Char('%'))) {
            const QString graph = !b.graph.empty() ? qs(b.graph)
                                  : stop_          ? qs(stop_->entryGraph)
                                                   : QString();
            if (const ir::Node* n = findNode(m, graph, loc)) {
                marks.push_back(n);
            }
        } else if (const QRegularExpressionMatch line = kSourceLine.match(loc); line.hasMatch()) {
            // FILE:LINE: the kernels from that line (the run stops where it arrives at it).
            const std::string file = line.captured(1).toStdString();
            const int number = line.captured(2).toInt();
            for (const ModelNode& mn : m.nodes()) {
                if (mn.user != nullptr || !mn.node->isCNode()) {
                    continue;
                }
                const auto& trace = mn.node->debug().trace;
                const auto inner =
                    std::find_if(trace.rbegin(), trace.rend(),
                                 [](const ir::SourceLocation& s) { return s.line > 0; });
                if (inner != trace.rend() && inner->line == number &&
                    runtime::sourceFileMatches(inner->file, file)) {
                    marks.push_back(mn.node);
                }
            }
        } else if (!loc.contains(QLatin1Char(':'))) {
            // An op type: every kernel of it.
            const std::string op = b.location;
            for (const ModelNode& mn : m.nodes()) {
                const auto* c = ir::nodeCast<ir::CNode>(mn.node);
                if (c != nullptr && mn.user == nullptr && c->primitive() != nullptr &&
                    c->primitive()->name == op) {
                    marks.push_back(mn.node);
                }
            }
        }
    }
    // The paused node, when the view shows the executed IR (an earlier pass's %N is another node).
    const ir::Node* current = state_ == State::Paused && stop_ && ir_
                                  ? findNode(m, qs(stop_->graph), qs(stop_->nodeName))
                                  : nullptr;
    if (current != nullptr && ir_->graph->indexOf(current) < 0) {
        current = nullptr;
    }
    graph_->setDebugMarks(marks, current);
}

QString ExecutionDock::locationOf(const GraphModel& model, const ir::Node* node) {
    const int k = node != nullptr ? model.indexOf(node) : -1;
    if (k < 0) {
        return {};
    }
    const ModelNode& mn = model.nodes()[static_cast<std::size_t>(k)];
    if (mn.name.startsWith(QStringLiteral("%para"))) {
        return mn.name;
    }
    if (!node->isCNode() || !mn.name.startsWith(QLatin1Char('%'))) {
        return {};
    }
    const QString graph = graphTitleOf(model, k);
    return graph.isEmpty() ? mn.name : graph + QLatin1Char(':') + mn.name;
}

const ir::Node* ExecutionDock::findNode(const GraphModel& model, const QString& graph,
                                        const QString& name) {
    const QString title = graph.startsWith(QLatin1Char('@')) ? graph : QStringLiteral("@") + graph;
    for (std::size_t k = 0; k < model.nodes().size(); ++k) {
        const ModelNode& mn = model.nodes()[k];
        if (mn.user != nullptr || mn.name != name) {
            continue;
        }
        if (name.startsWith(QStringLiteral("%para")) ||
            graphTitleOf(model, static_cast<int>(k)) == title) {
            return mn.node;
        }
    }
    return nullptr;
}

}  // namespace irscope::ui
