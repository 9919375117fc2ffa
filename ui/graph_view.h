// The interactive graph view: a QGraphicsView of a dot layout of the module, computed off
// the UI thread. FuncGraphs and scopes are collapsible groups (double-click toggles; only
// what is expanded is laid out, within a node budget; the context menu collapses the group of
// a node); Ctrl+wheel and Ctrl +/- zoom,
// dragging pans, Ctrl+0 fits; a minimap shows the viewport and can be dragged; regex search
// over names, op types, attributes and shapes with next/previous; nodeSelected/selectNode
// keep other panels in sync.
#pragma once

#include <QGraphicsView>
#include <QHash>
#include <QRegularExpression>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "graph_layout.h"
#include "graph_model.h"
#include "graph_scene.h"
#include "ir/node.h"

class QAction;
class QLabel;
class QProgressBar;
class QPushButton;
class QWidget;

namespace irscope::ui {

class GraphMinimap;
class NodeItem;
struct LayoutOutcome;

class GraphView : public QGraphicsView {
    Q_OBJECT

public:
    explicit GraphView(QWidget* parent = nullptr);
    ~GraphView() override;

    // Shows `module` (kept alive by the view), first view collapsed to the node budget.
    void setModule(std::shared_ptr<const ir::Module> module, int budget = kDefaultNodeBudget);
    // The same with a model built beforehand (e.g. on the loading thread) for `module`.
    void setModel(std::shared_ptr<const ir::Module> module, GraphModel model,
                  int budget = kDefaultNodeBudget);
    // Shows a short centred message instead of a graph.
    void showMessage(const QString& text);

    const GraphModel& model() const { return model_; }
    bool hasGraph() const { return !items_.empty(); }
    bool isLayoutRunning() const { return running_ > 0; }
    const std::vector<NodeItem*>& nodeItems() const { return items_; }
    // The drawn item for model node `node` (its own, or its collapsed group's), or nullptr.
    NodeItem* itemFor(int node) const;
    GraphMinimap* minimap() const { return minimap_; }
    QString layoutError() const { return error_; }

    // Display options (graph_model.h), kept for the next module: weights and constants as
    // rows of their user's box, and state plumbing hidden (otherwise dimmed). Re-lays out.
    void setInlineInputs(bool on);
    void setStateHidden(bool on);
    bool inlineInputs() const { return model_.inlineInputs(); }
    bool stateHidden() const { return model_.stateHidden(); }
    // Groups laid out by dot in the last layout, and how many of them came from the cache.
    int lastDotLayouts() const { return lastDotLayouts_; }
    int lastCachedLayouts() const { return lastCachedLayouts_; }
    // The scale the first view of a module opens at: fitted when that is readable
    // (kReadableScale), else 1:1 on the selected node or the entry graph's output.
    static constexpr double kReadableScale = 0.8;

    // Re-lays out with groups expanded breadth-first within `budget` (0: all collapsed).
    void expandWithin(int budget);
    void setGroupExpanded(int group, bool expanded);
    // Expands `group` and every group around it, and centres on it.
    void openGroup(int group);
    void toggleGroup(int group);
    void zoomBy(double factor);
    void fitToView();
    void cancelLayout();

    // Search: a case-insensitive regex over each node's name, debug name, op type,
    // attributes, shape/dtype and scope (one per line: ^...$ matches a whole field).
    // Highlights every match and goes to the first; returns the match count, -1 for an
    // invalid pattern. Going to a match inside a collapsed group expands it.
    int setSearch(const QString& pattern);
    const std::vector<int>& searchMatches() const { return matches_; }
    int currentMatch() const { return current_; }  // index into searchMatches(), or -1
    void nextMatch();
    void previousMatch();

    // The selected node (not a collapsed group), or nullptr.
    const ir::Node* selectedNode() const;
    // Debugger marks, kept across re-layouts and cleared by setModule/setModel: nodes with a
    // breakpoint (a collapsed group holding one shows it too) and the node a run is paused at.
    void setDebugMarks(const std::vector<const ir::Node*>& breakpoints, const ir::Node* current);
    // An action shown in the context menu of a node; the node is selected before the menu
    // opens, so the action works on selectedNode().
    void addNodeAction(QAction* action);
    // Selects `node` like selectNode and zooms in to a readable scale (1:1) around it when
    // the view is zoomed out further: where a debugger stops.
    void focusNode(const ir::Node* node);
    // Compare views: one mark per model node (indexed as model().nodes(); shorter means
    // None for the rest); a collapsed group shows its members' strongest mark. Cleared by
    // setModule/setModel; kept across re-layouts.
    void setNodeMarks(std::vector<NodeMark> marks);
    const std::vector<NodeMark>& nodeMarks() const { return marks_; }
    NodeMark markOf(int node) const;

public slots:
    // Centres on `node` and selects it, expanding (and re-laying out) its groups if needed.
    void selectNode(const irscope::ir::Node* node);

public:
    // Selects every node of `nodes` (those inside collapsed groups select their group's box)
    // and centres on the first, whose groups are expanded as selectNode does. Emits nothing.
    void selectNodes(const std::vector<const ir::Node*>& nodes);

signals:
    void nodeSelected(const irscope::ir::Node* node);
    void layoutStarted();
    void layoutFinished(bool ok);

protected:
    // Follows the theme: the background and the scene's palette (graph_scene.cpp).
    void changeEvent(QEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void contextMenuEvent(QContextMenuEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    void requestLayout();
    void applyLayout(std::uint64_t generation, LayoutOutcome& outcome);
    void onSelectionChanged();
    void goToMatch(int k);
    void selectModelNodes(std::vector<int> nodes);
    void refreshHighlights();
    void placeOverlays();
    void updateMinimap();
    void openAtReadableScale();

    std::shared_ptr<const ir::Module> module_;
    GraphModel model_;
    LayoutPlan plan_;
    std::shared_ptr<LayoutCache> cache_ = std::make_shared<LayoutCache>();
    BoxSizes sizes_;  // of the current model under its options
    int lastDotLayouts_ = 0;
    int lastCachedLayouts_ = 0;
    std::optional<bool> inlineChoice_;  // the user's choices, applied to the next modules
    std::optional<bool> stateChoice_;
    std::vector<NodeItem*> items_;
    std::uint64_t generation_ = 0;
    // The newest request, read by layout tasks: one superseded before it starts skips dot.
    std::shared_ptr<std::atomic<std::uint64_t>> latest_ =
        std::make_shared<std::atomic<std::uint64_t>>(0);
    int running_ = 0;        // layout threads not finished (abandoned ones included)
    bool awaiting_ = false;  // the newest layout request has not been applied
    std::vector<int> pendingSelect_;
    std::optional<int> pendingGroup_;
    QHash<qint64, NodeItem*> itemByRef_;
    bool fitPending_ = true;
    bool selecting_ = false;
    QString error_;
    std::vector<int> matches_;
    std::vector<NodeMark> marks_;
    int current_ = -1;
    std::vector<int> breakMarks_;  // model nodes
    int currentMark_ = -1;
    std::vector<QAction*> nodeActions_;
    bool focusPending_ = false;  // the pending selection zooms in (focusNode)
    QWidget* progress_ = nullptr;
    QLabel* progressLabel_ = nullptr;
    QPushButton* cancel_ = nullptr;
    GraphMinimap* minimap_ = nullptr;
};

}  // namespace irscope::ui
