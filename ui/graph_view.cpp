#include "graph_view.h"

#include <QContextMenuEvent>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

#include "graph_minimap.h"
#include "graph_scene.h"
#include "ir/func_graph.h"
#include "ir/prim_names.h"
#include "theme.h"

namespace irscope::ui {

// What a layout thread hands back: the DOT it laid out (with its item mapping) and the
// geometry, or Graphviz's error.
struct LayoutOutcome {
    LayoutPlan plan;
    std::vector<GeometryPtr> geometry;
    int dotLayouts = 0;
    int cached = 0;
    QString error;
};

namespace {

qint64 refKey(VisibleRef r) {
    return (qint64(r.isGroup ? 1 : 0) << 32) | qint64(r.index);
}

}  // namespace

GraphView::GraphView(QWidget* parent) : QGraphicsView(parent) {
    setScene(new QGraphicsScene(this));
    setDragMode(QGraphicsView::ScrollHandDrag);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setBackgroundBrush(isDark(palette()) ? palette().color(QPalette::Base) : QColor(Qt::white));
    scene()->setPalette(palette());
    auto* zoomIn = new QShortcut(QKeySequence::ZoomIn, this);
    connect(zoomIn, &QShortcut::activated, this, [this] { zoomBy(1.25); });
    auto* zoomIn2 = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Equal), this);
    connect(zoomIn2, &QShortcut::activated, this, [this] { zoomBy(1.25); });
    auto* zoomOut = new QShortcut(QKeySequence::ZoomOut, this);
    connect(zoomOut, &QShortcut::activated, this, [this] { zoomBy(0.8); });
    auto* fit = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_0), this);
    connect(fit, &QShortcut::activated, this, &GraphView::fitToView);
    auto* cancel = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    connect(cancel, &QShortcut::activated, this, &GraphView::cancelLayout);
    connect(scene(), &QGraphicsScene::selectionChanged, this, &GraphView::onSelectionChanged);

    progress_ = new QFrame(this);
    progress_->setObjectName(QStringLiteral("layoutProgress"));
    progress_->setStyleSheet(QStringLiteral(
        "#layoutProgress { background: #fffbe6; border: 1px solid #d0c080; border-radius: 4px; }"));
    auto* row = new QHBoxLayout(progress_);
    row->setContentsMargins(8, 4, 8, 4);
    progressLabel_ = new QLabel(tr("Laying out…"), progress_);
    auto* bar = new QProgressBar(progress_);
    bar->setRange(0, 0);  // Graphviz reports no progress: a busy indicator
    bar->setFixedWidth(120);
    cancel_ = new QPushButton(tr("Cancel"), progress_);
    cancel_->setObjectName(QStringLiteral("cancelLayout"));
    connect(cancel_, &QPushButton::clicked, this, &GraphView::cancelLayout);
    row->addWidget(progressLabel_);
    row->addWidget(bar);
    row->addWidget(cancel_);
    progress_->hide();

    minimap_ = new GraphMinimap(this);
    minimap_->hide();
}

// Layout threads still running keep only their own copies (DOT text in, geometry out), so
// the view can go away while Graphviz finishes an abandoned layout. The scene, deleted after
// this object's members, must not report its items' deselection to a half-destroyed view.
GraphView::~GraphView() {
    disconnect(scene(), nullptr, this, nullptr);
}

void GraphView::setModule(std::shared_ptr<const ir::Module> module, int budget) {
    GraphModel model;
    if (module) {
        model = GraphModel(*module);
    }
    setModel(std::move(module), std::move(model), budget);
}

void GraphView::setModel(std::shared_ptr<const ir::Module> module, GraphModel model, int budget) {
    module_ = std::move(module);
    model_ = std::move(model);
    sizes_.clear();
    model_.setOptions(inlineChoice_.value_or(model_.inlineInputs()),
                      stateChoice_.value_or(model_.stateHidden()));
    model_.expandWithin(budget);
    matches_.clear();
    marks_.clear();
    current_ = -1;
    breakMarks_.clear();
    currentMark_ = -1;
    focusPending_ = false;
    pendingSelect_.clear();
    pendingGroup_.reset();
    fitPending_ = true;
    requestLayout();
}

void GraphView::showMessage(const QString& text) {
    latest_->store(++generation_);  // abandon any layout in flight
    awaiting_ = false;
    progress_->hide();
    scene()->clear();
    items_.clear();
    itemByRef_.clear();
    minimap_->hide();
    auto* label = scene()->addSimpleText(text);
    scene()->setSceneRect(label->boundingRect().adjusted(-20, -20, 20, 20));
    resetTransform();
}

void GraphView::requestLayout() {
    const std::uint64_t gen = ++generation_;
    LayoutPlan plan = makePlan(model_, [this](VisibleRef ref, const GroupPorts& ports) {
        return sizes_(model_, ref, ports);
    });
    std::size_t drawnCount = 0;
    for (const PlanGroup& g : plan.groups) {
        drawnCount += g.items.size();
    }
    progressLabel_->setText(tr("Laying out %1 items…").arg(drawnCount));
    progress_->adjustSize();
    progress_->show();
    placeOverlays();
    ++running_;
    awaiting_ = true;
    emit layoutStarted();
    auto* watcher = new QFutureWatcher<LayoutOutcome>(this);
    connect(watcher, &QFutureWatcher<LayoutOutcome>::finished, this, [this, watcher, gen] {
        --running_;
        watcher->deleteLater();
        if (gen != generation_) {
            return;  // superseded or cancelled: Graphviz could not be stopped, drop its work
        }
        LayoutOutcome outcome = watcher->result();
        applyLayout(gen, outcome);
    });
    latest_->store(gen);
    watcher->setFuture(QtConcurrent::run(
        [plan = std::move(plan), gen, latest = latest_, cache = cache_]() mutable {
            LayoutOutcome out;
            auto superseded = [&] { return latest->load() != gen; };
            if (superseded()) {
                out.error = QStringLiteral("superseded");  // a newer request came before it started
                return out;
            }
            try {
                const std::size_t misses = cache->misses();
                const std::size_t hits = cache->hits();
                out.geometry = layOutPlan(plan, *cache, superseded);
                out.dotLayouts = static_cast<int>(cache->misses() - misses);
                out.cached = static_cast<int>(cache->hits() - hits);
                if (superseded()) {
                    out.error = QStringLiteral("superseded");
                }
            } catch (const std::exception& e) {
                out.error = QString::fromUtf8(e.what());
            }
            out.plan = std::move(plan);
            return out;
        }));
}

void GraphView::setInlineInputs(bool on) {
    inlineChoice_ = on;
    if (module_ != nullptr && on != model_.inlineInputs()) {
        model_.setOptions(on, model_.stateHidden());
        requestLayout();
    }
}

void GraphView::setStateHidden(bool on) {
    stateChoice_ = on;
    if (module_ != nullptr && on != model_.stateHidden()) {
        model_.setOptions(model_.inlineInputs(), on);
        requestLayout();
    }
}

void GraphView::cancelLayout() {
    if (!awaiting_) {
        return;
    }
    awaiting_ = false;
    latest_->store(++generation_);
    progress_->hide();
    emit layoutFinished(false);
}

void GraphView::applyLayout(std::uint64_t, LayoutOutcome& outcome) {
    awaiting_ = false;
    progress_->hide();
    if (!outcome.error.isEmpty()) {
        error_ = tr("Graphviz could not lay out this graph: %1").arg(outcome.error);
        showMessage(error_);
        emit layoutFinished(false);
        return;
    }
    error_.clear();
    plan_ = std::move(outcome.plan);
    lastDotLayouts_ = outcome.dotLayouts;
    lastCachedLayouts_ = outcome.cached;
    selecting_ = true;
    items_ = populateScene(*scene(), model_, plan_, outcome.geometry);
    selecting_ = false;
    itemByRef_.clear();
    for (NodeItem* item : items_) {
        if (item != nullptr) {
            itemByRef_.insert(refKey(item->ref()), item);
        }
    }
    refreshHighlights();
    if (fitPending_) {
        fitPending_ = false;
        openAtReadableScale();
    }
    if (pendingGroup_) {
        const int g = *pendingGroup_;
        pendingGroup_.reset();
        if (NodeItem* box = itemByRef_.value(refKey({true, g}))) {
            centerOn(box);
        } else {
            for (QGraphicsItem* it : scene()->items()) {
                if (it->type() == kClusterItemType && static_cast<ClusterItem*>(it)->group() == g) {
                    centerOn(it->sceneBoundingRect().topLeft() +
                             QPointF(viewport()->width() / 3.0, viewport()->height() / 3.0));
                    break;
                }
            }
        }
    }
    if (!pendingSelect_.empty()) {
        selectModelNodes(std::exchange(pendingSelect_, {}));
    }
    minimap_->refit();
    placeOverlays();
    updateMinimap();
    emit layoutFinished(true);
}

NodeItem* GraphView::itemFor(int node) const {
    if (node < 0 || node >= static_cast<int>(model_.nodes().size())) {
        return nullptr;
    }
    return itemByRef_.value(refKey(model_.visibleFor(node)));
}

void GraphView::expandWithin(int budget) {
    if (module_ == nullptr) {
        return;
    }
    model_.expandWithin(budget);
    fitPending_ = true;
    requestLayout();
}

void GraphView::setGroupExpanded(int group, bool expanded) {
    if (group < 0 || group >= static_cast<int>(model_.groups().size()) ||
        model_.group(group).expanded == expanded) {
        return;
    }
    model_.setExpanded(group, expanded);
    pendingGroup_ = group;
    requestLayout();
}

void GraphView::openGroup(int group) {
    if (group < 0 || group >= static_cast<int>(model_.groups().size())) {
        return;
    }
    for (int g = group; g >= 0; g = model_.group(g).parent) {
        model_.setExpanded(g, true);
    }
    pendingGroup_ = group;
    requestLayout();
}

void GraphView::toggleGroup(int group) {
    if (group >= 0 && group < static_cast<int>(model_.groups().size())) {
        setGroupExpanded(group, !model_.group(group).expanded);
    }
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* e) {
    for (QGraphicsItem* it : items(e->position().toPoint())) {
        if (it->type() == kNodeItemType) {
            const auto* node = static_cast<NodeItem*>(it);
            if (node->isGroup()) {
                toggleGroup(node->ref().index);
                e->accept();
                return;
            }
            break;  // a node: nothing to toggle
        }
        if (it->type() == kClusterItemType) {
            toggleGroup(static_cast<ClusterItem*>(it)->group());
            e->accept();
            return;
        }
    }
    QGraphicsView::mouseDoubleClickEvent(e);
}

void GraphView::contextMenuEvent(QContextMenuEvent* e) {
    QMenu menu(this);
    for (QGraphicsItem* it : items(e->pos())) {
        if (it->type() == kNodeItemType) {
            auto* node = static_cast<NodeItem*>(it);
            if (!node->isGroup() && !nodeActions_.empty()) {
                scene()->clearSelection();
                node->setSelected(true);
                for (QAction* a : nodeActions_) {
                    menu.addAction(a);
                }
                menu.addSeparator();
            }
            const int g = node->isGroup()
                              ? node->ref().index
                              : model_.nodes()[static_cast<std::size_t>(node->ref().index)].group;
            if (node->isGroup()) {
                menu.addAction(tr("Expand %1").arg(model_.group(g).title), this,
                               [this, g] { setGroupExpanded(g, true); });
            } else if (g >= 0) {
                menu.addAction(tr("Collapse %1").arg(model_.group(g).title), this,
                               [this, g] { setGroupExpanded(g, false); });
            }
            break;
        }
        if (it->type() == kClusterItemType) {
            const int g = static_cast<ClusterItem*>(it)->group();
            menu.addAction(tr("Collapse %1").arg(model_.group(g).title), this,
                           [this, g] { setGroupExpanded(g, false); });
            break;
        }
    }
    if (!menu.isEmpty()) {
        menu.addSeparator();
    }
    menu.addAction(tr("Fit"), QKeySequence(Qt::CTRL | Qt::Key_0), this, &GraphView::fitToView);
    QAction* inl = menu.addAction(tr("Weights and constants inside their user's box"));
    inl->setCheckable(true);
    inl->setChecked(inlineInputs());
    connect(inl, &QAction::toggled, this, &GraphView::setInlineInputs);
    QAction* state = menu.addAction(tr("Hide state plumbing (monads, UpdateState, Load, Depend)"));
    state->setCheckable(true);
    state->setChecked(stateHidden());
    connect(state, &QAction::toggled, this, &GraphView::setStateHidden);
    menu.exec(e->globalPos());
}

void GraphView::onSelectionChanged() {
    if (selecting_) {
        return;
    }
    for (QGraphicsItem* it : scene()->selectedItems()) {
        if (it->type() == kNodeItemType) {
            const auto* node = static_cast<NodeItem*>(it);
            if (!node->isGroup()) {
                emit nodeSelected(model_.nodes()[static_cast<std::size_t>(node->ref().index)].node);
                return;
            }
        }
    }
}

void GraphView::selectNode(const ir::Node* node) {
    selectNodes({node});
}

void GraphView::selectNodes(const std::vector<const ir::Node*>& nodes) {
    std::vector<int> indices;
    for (const ir::Node* node : nodes) {
        if (const int n = model_.indexOf(node); n >= 0) {
            indices.push_back(n);
        }
    }
    if (!indices.empty()) {
        selectModelNodes(std::move(indices));
    }
}

void GraphView::selectModelNodes(std::vector<int> nodes) {
    if (model_.reveal(nodes.front())) {
        pendingSelect_ = std::move(nodes);
        requestLayout();
        return;
    }
    // While a layout is in flight the items are the previous layout's (maybe of another
    // module): select once the new one is applied.
    NodeItem* first = awaiting_ ? nullptr : itemFor(nodes.front());
    if (first == nullptr) {
        pendingSelect_ = std::move(nodes);  // its layout is still running
        return;
    }
    selecting_ = true;
    scene()->clearSelection();
    for (int n : nodes) {
        if (NodeItem* item = itemFor(n)) {
            item->setSelected(true);
        }
    }
    selecting_ = false;
    if (focusPending_) {
        focusPending_ = false;
        if (transform().m11() < 1.0) {
            setTransform(QTransform());
            updateMinimap();
        }
    }
    centerOn(first);
}

void GraphView::focusNode(const ir::Node* node) {
    const int n = model_.indexOf(node);
    if (n >= 0) {
        focusPending_ = true;
        selectModelNodes({n});
    }
}

int GraphView::setSearch(const QString& pattern) {
    matches_.clear();
    current_ = -1;
    const QRegularExpression re(
        pattern, QRegularExpression::CaseInsensitiveOption | QRegularExpression::MultilineOption);
    if (!re.isValid()) {
        refreshHighlights();
        return -1;
    }
    matches_ = model_.search(re);
    refreshHighlights();
    if (!matches_.empty()) {
        goToMatch(0);
    }
    return static_cast<int>(matches_.size());
}

void GraphView::nextMatch() {
    if (!matches_.empty()) {
        goToMatch((current_ + 1) % static_cast<int>(matches_.size()));
    }
}

void GraphView::previousMatch() {
    if (!matches_.empty()) {
        const int n = static_cast<int>(matches_.size());
        goToMatch((current_ - 1 + n) % n);
    }
}

void GraphView::goToMatch(int k) {
    current_ = k;
    selectModelNodes({matches_[static_cast<std::size_t>(k)]});
}

void GraphView::setNodeMarks(std::vector<NodeMark> marks) {
    marks_ = std::move(marks);
    refreshHighlights();
}

NodeMark GraphView::markOf(int node) const {
    return node >= 0 && node < static_cast<int>(marks_.size())
               ? marks_[static_cast<std::size_t>(node)]
               : NodeMark::None;
}

void GraphView::refreshHighlights() {
    for (NodeItem* item : items_) {
        if (item != nullptr) {
            item->setHighlighted(false);
            item->setDebugMarks(false, false);
            item->setMark(NodeMark::None);
        }
    }
    for (std::size_t k = 0; k < marks_.size(); ++k) {
        if (marks_[k] == NodeMark::None) {
            continue;
        }
        if (NodeItem* item = itemFor(static_cast<int>(k));
            item != nullptr && item->mark() < marks_[k]) {
            item->setMark(marks_[k]);
        }
    }
    for (int m : matches_) {
        if (NodeItem* item = itemFor(m)) {
            item->setHighlighted(true);  // a collapsed group holding a match lights up too
        }
    }
    for (int b : breakMarks_) {
        if (NodeItem* item = itemFor(b)) {
            item->setDebugMarks(true, item->isCurrentMark());
        }
    }
    if (NodeItem* item = currentMark_ >= 0 ? itemFor(currentMark_) : nullptr) {
        item->setDebugMarks(item->hasBreakpointMark(), true);
    }
}

const ir::Node* GraphView::selectedNode() const {
    for (QGraphicsItem* it : scene()->selectedItems()) {
        if (it->type() == kNodeItemType) {
            const auto* node = static_cast<NodeItem*>(it);
            if (!node->isGroup()) {
                return model_.nodes()[static_cast<std::size_t>(node->ref().index)].node;
            }
        }
    }
    return nullptr;
}

void GraphView::setDebugMarks(const std::vector<const ir::Node*>& breakpoints,
                              const ir::Node* current) {
    breakMarks_.clear();
    for (const ir::Node* n : breakpoints) {
        if (const int k = model_.indexOf(n); k >= 0) {
            breakMarks_.push_back(k);
        }
    }
    currentMark_ = current != nullptr ? model_.indexOf(current) : -1;
    refreshHighlights();
}

void GraphView::addNodeAction(QAction* action) {
    nodeActions_.push_back(action);
}

void GraphView::zoomBy(double factor) {
    const double next = transform().m11() * factor;
    if (next < 0.01 || next > 20.0) {
        return;
    }
    scale(factor, factor);
    updateMinimap();
}

void GraphView::fitToView() {
    const QRectF r = scene()->sceneRect();
    if (r.isEmpty()) {
        return;
    }
    resetTransform();
    // Fit, but never enlarge a small drawing past its natural size.
    if (r.width() > viewport()->width() || r.height() > viewport()->height()) {
        fitInView(r, Qt::KeepAspectRatio);
    }
    centerOn(r.center());
    updateMinimap();
}

// Fitted when fitting keeps labels readable; otherwise 1:1 on the pending selection, or on
// the output of the entry graph (the last graph's when there is no entry), its top in view.
void GraphView::openAtReadableScale() {
    const QRectF r = scene()->sceneRect();
    if (r.isEmpty()) {
        return;
    }
    const double fit = std::min(viewport()->width() / r.width(), viewport()->height() / r.height());
    if (fit >= kReadableScale || items_.empty()) {
        fitToView();
        return;
    }
    resetTransform();
    if (!pendingSelect_.empty()) {
        updateMinimap();
        return;  // selectModelNodes centres on it
    }
    NodeItem* target = nullptr;
    if (module_ != nullptr) {
        const ir::FuncGraph* entry = module_->entry();
        if (entry != nullptr && entry->output() != nullptr) {
            // The Return's box: the user of the output.
            for (int k = 0; k < static_cast<int>(model_.nodes().size()) && target == nullptr; ++k) {
                const auto* c =
                    ir::nodeCast<ir::CNode>(model_.nodes()[static_cast<std::size_t>(k)].node);
                if (c != nullptr && c->graph() == entry && c->isPrimitive(ir::prim::kReturn)) {
                    target = itemFor(k);
                }
            }
            if (target == nullptr) {
                target = itemFor(model_.indexOf(entry->output()));
            }
        }
    }
    if (target == nullptr) {
        target = items_.back();
    }
    // The output low in the window, what leads to it above.
    const QRectF box = target->sceneBoundingRect();
    centerOn(QPointF(box.center().x(), box.bottom() - viewport()->height() * 0.35));
    updateMinimap();
}

// The minimap shows only when part of the graph is out of view.
void GraphView::updateMinimap() {
    const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
    const bool needed =
        !items_.empty() && !visible.contains(scene()->sceneRect().adjusted(15, 15, -15, -15));
    if (needed != minimap_->isVisible()) {
        minimap_->setVisible(needed);
        if (needed) {
            minimap_->refit();
        }
    }
    minimap_->viewport()->update();
}

void GraphView::wheelEvent(QWheelEvent* e) {
    if (e->modifiers() & Qt::ControlModifier) {
        zoomBy(e->angleDelta().y() > 0 ? 1.15 : 1.0 / 1.15);
        e->accept();
        return;
    }
    QGraphicsView::wheelEvent(e);
}

void GraphView::resizeEvent(QResizeEvent* e) {
    QGraphicsView::resizeEvent(e);
    placeOverlays();
    updateMinimap();
}

void GraphView::scrollContentsBy(int dx, int dy) {
    QGraphicsView::scrollContentsBy(dx, dy);
    updateMinimap();
}

void GraphView::placeOverlays() {
    const QRect vp = viewport()->geometry();
    progress_->move(vp.left() + (vp.width() - progress_->width()) / 2, vp.top() + 8);
    progress_->raise();
    const int w = std::max(120, std::min(220, vp.width() / 4));
    const int h = w * 3 / 4;
    minimap_->setGeometry(vp.right() - w - 8, vp.bottom() - h - 8, w, h);
    minimap_->raise();
}

void GraphView::changeEvent(QEvent* e) {
    QGraphicsView::changeEvent(e);
    if (e->type() == QEvent::PaletteChange) {
        setBackgroundBrush(isDark(palette()) ? palette().color(QPalette::Base) : QColor(Qt::white));
        scene()->setPalette(palette());
        scene()->update();
    }
}

}  // namespace irscope::ui
