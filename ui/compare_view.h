// The Compare view: two pass snapshots side by side — by default the pass selected in the
// timeline against the one before it, either side re-selectable — as a side-by-side text
// diff (IrDiffView) and as two graph views with added (green), removed (red) and changed
// (orange) nodes marked; selecting a node on one side selects its counterpart on the
// other (blue). The comparison (parse, match, diff) runs on a worker thread, only while
// the view is visible; a newer request supersedes one in flight.
//
// The two sides may come from two sessions (the settings compare): then the passes are
// linked — choosing a pass on one side chooses the same pass on the other.
#pragma once

#include <QFutureWatcher>
#include <QWidget>

#include <memory>
#include <optional>

#include "ir_compare.h"
#include "store/session.h"

class QComboBox;
class QLabel;
class QTabWidget;

namespace irscope::ui {

class GraphView;
class IrDiffView;

struct CompareSide {
    std::shared_ptr<const store::Session> session;  // keeps the compile alive
    const passes::CompileRecord* compile = nullptr;
    QString title;  // shown above the side ("before", "MS_DEV_SIDE_EFFECT_LOAD_ELIM=1")
};

class CompareView : public QWidget {
    Q_OBJECT

public:
    explicit CompareView(QWidget* parent = nullptr);
    ~CompareView() override;

    // Both sides from one compile: passes chosen independently.
    void setCompile(std::shared_ptr<const store::Session> s, const passes::CompileRecord* compile);
    // Two compiles (linked passes: the same pass on both sides).
    void setSides(CompareSide before, CompareSide after);
    void clear(const QString& message);
    // The timeline's pass: compared with the pass before it (linked: with the same pass).
    void showSnapshot(int snapshot);
    // Chooses the snapshots to compare (indices into each side's compile->snapshots).
    void compareSnapshots(int before, int after);

    bool isBusy() const { return running_; }
    bool linked() const { return linked_; }
    const IrComparison& comparison() const { return result_; }
    int beforeSnapshot() const;
    int afterSnapshot() const;
    const CompareSide& beforeSide() const { return sides_[0]; }
    const CompareSide& afterSide() const { return sides_[1]; }

    // Widgets exposed for tests.
    QComboBox* beforeBox() const { return boxes_[0]; }
    QComboBox* afterBox() const { return boxes_[1]; }
    QLabel* summaryLabel() const { return summary_; }
    QTabWidget* modeTabs() const { return modes_; }
    IrDiffView* textDiff() const { return diff_; }
    GraphView* beforeGraph() const { return graphs_[0]; }
    GraphView* afterGraph() const { return graphs_[1]; }

signals:
    // A comparison was shown (ok) or one side could not be parsed (the summary says why).
    void comparisonShown(bool ok);
    // The user chose a pass in one of the boxes (snapshot index of that side).
    void snapshotChosen(int side, int snapshot);

protected:
    void showEvent(QShowEvent* e) override;

private:
    void fillBox(int side);
    void selectInBox(int side, int snapshot);
    void onBoxChanged(int side);
    void request();
    void onFinished();
    void onNodeSelected(int side, const ir::Node* node);
    void setSummary(const QString& text);

    CompareSide sides_[2];
    QComboBox* boxes_[2] = {nullptr, nullptr};
    QLabel* titles_[2] = {nullptr, nullptr};
    GraphView* graphs_[2] = {nullptr, nullptr};
    QLabel* summary_ = nullptr;
    QTabWidget* modes_ = nullptr;
    IrDiffView* diff_ = nullptr;
    bool linked_ = false;
    bool filling_ = false;
    bool selecting_ = false;
    bool dirty_ = false;    // a comparison waits for the view to be shown
    bool running_ = false;  // a comparison is on the worker thread (or waits to be handled)
    std::optional<std::pair<int, int>> inFlight_;
    int generation_ = 0;          // bumped when the sides change
    int inFlightGeneration_ = -1;  // the sides the comparison in flight was asked for
    std::optional<std::pair<int, int>> shown_;  // what result_ shows (reset with the sides)
    QFutureWatcher<IrComparison> watcher_;
    IrComparison result_;
};

}  // namespace irscope::ui
