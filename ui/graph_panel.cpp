#include "graph_panel.h"

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QToolBar>
#include <QVBoxLayout>

#include "graph_scene.h"
#include "graph_view.h"

namespace irscope::ui {

namespace {

// The legend of the node styles, as coloured chips.
QLabel* legend(QWidget* parent) {
    QString text;
    const std::pair<NodeStyle, QString> styles[] = {
        {NodeStyle::Primitive, GraphPanel::tr("op")},
        {NodeStyle::SideEffect, GraphPanel::tr("side effect")},
        {NodeStyle::Monad, GraphPanel::tr("monad/state")},
        {NodeStyle::GraphCall, GraphPanel::tr("graph call")},
        {NodeStyle::Parameter, GraphPanel::tr("parameter")},
        {NodeStyle::Constant, GraphPanel::tr("constant")}};
    for (const auto& [style, name] : styles) {
        text += QStringLiteral(
                    "<span style='background:%1; border:1px solid %2'>&nbsp;%3&nbsp;</span> ")
                    .arg(NodeItem::fillFor(style).name(), NodeItem::borderFor(style).name(), name);
    }
    auto* label = new QLabel(text, parent);
    label->setObjectName(QStringLiteral("graphLegend"));
    label->setToolTip(
        GraphPanel::tr("Data edges are solid, monad/control edges dashed; a stacked box is "
                       "a collapsed group"));
    return label;
}

}  // namespace

GraphPanel::GraphPanel(QWidget* parent) : QWidget(parent) {
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    auto* bar = new QToolBar(this);
    bar->setObjectName(QStringLiteral("graphToolBar"));
    view_ = new GraphView(this);
    view_->setObjectName(QStringLiteral("graphView"));
    view_->showMessage(tr("Open an .ir file to see its graph."));
    search_ = new QLineEdit(bar);
    search_->setObjectName(QStringLiteral("graphSearch"));
    search_->setPlaceholderText(tr("Search nodes (regex over name, op, attributes, shape)"));
    search_->setClearButtonEnabled(true);
    search_->setMinimumWidth(220);
    search_->setMaximumWidth(420);
    bar->addWidget(search_);
    QAction* prev = bar->addAction(tr("Previous"), view_, &GraphView::previousMatch);
    prev->setShortcut(QKeySequence::FindPrevious);
    prev->setToolTip(tr("Previous match (Shift+F3)"));
    QAction* next = bar->addAction(tr("Next"), view_, &GraphView::nextMatch);
    next->setShortcut(QKeySequence::FindNext);
    next->setToolTip(tr("Next match (F3)"));
    status_ = new QLabel(bar);
    bar->addWidget(status_);
    bar->addSeparator();
    bar->addAction(tr("Fit"), view_, &GraphView::fitToView)->setToolTip(tr("Fit (Ctrl+0)"));
    bar->addAction(tr("Collapse all"), this, [this] { view_->expandWithin(0); })
        ->setToolTip(tr("Show every graph as one box (double-click a box to expand it)"));
    bar->addAction(tr("Overview"), this, [this] { view_->expandWithin(kDefaultNodeBudget); })
        ->setToolTip(
            tr("Expand groups breadth-first up to %1 drawn items").arg(kDefaultNodeBudget));
    QAction* inlineInputs = bar->addAction(tr("Weights inside"));
    inlineInputs->setObjectName(QStringLiteral("graphInlineInputs"));
    inlineInputs->setCheckable(true);
    inlineInputs->setChecked(true);
    inlineInputs->setToolTip(
        tr("Draw weights and constants inside the box of the op using them "
           "(off: as nodes of their own)"));
    connect(inlineInputs, &QAction::toggled, view_, &GraphView::setInlineInputs);
    QAction* hideState = bar->addAction(tr("Hide state"));
    hideState->setObjectName(QStringLiteral("graphHideState"));
    hideState->setCheckable(true);
    hideState->setToolTip(tr("Hide state plumbing: monads, UpdateState, Load and Depend's ordering "
                             "(off: dimmed). Graphs of more than %1 CNodes open with it hidden")
                              .arg(kHideStateAbove));
    connect(hideState, &QAction::toggled, view_, &GraphView::setStateHidden);
    bar->addSeparator();
    bar->addWidget(legend(bar));
    connect(search_, &QLineEdit::returnPressed, this, [this] {
        if (view_->searchMatches().empty()) {
            runSearch();
        } else {
            view_->nextMatch();
        }
    });
    connect(search_, &QLineEdit::textChanged, this, &GraphPanel::runSearch);
    // The toggles follow the view: a big module opens with state hidden, a search may show it.
    connect(view_, &GraphView::layoutFinished, hideState, [this, hideState, inlineInputs] {
        const QSignalBlocker b1(hideState);
        const QSignalBlocker b2(inlineInputs);
        hideState->setChecked(view_->stateHidden());
        inlineInputs->setChecked(view_->inlineInputs());
    });
    column->addWidget(bar);
    column->addWidget(view_);
}

void GraphPanel::clearSearch() {
    search_->clear();
    status_->clear();
}

void GraphPanel::focusSearch() {
    search_->setFocus();
    search_->selectAll();
}

void GraphPanel::runSearch() {
    const QString pattern = search_->text();
    if (pattern.isEmpty()) {
        view_->setSearch(QString());
        status_->clear();
        return;
    }
    const int n = view_->setSearch(pattern);
    status_->setText(n < 0    ? tr("invalid regular expression")
                     : n == 0 ? tr("no match")
                              : tr("%n match(es)", nullptr, n));
}

}  // namespace irscope::ui
