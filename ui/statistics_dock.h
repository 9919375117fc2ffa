// The Statistics dock: for the selected compile (the Compilations dock's selection), a bar
// chart of each top-level pass's wall time and one of the node count after each top-level
// pass (Qt Charts); below, a totals table with one row per compile of the session (graph,
// total ms, nodes after parse / after opt_a / at the end, peak bytes), so the compiles of
// one run sit side by side; beside the charts, the script's compile times over its runs
// from the statistics history (stats_trend_view.h).
#pragma once

#include <QDockWidget>

#include <memory>

class QBarCategoryAxis;
class QBarSet;
class QChartView;
class QTableWidget;

namespace irscope::passes {
struct CompileRecord;
}  // namespace irscope::passes
namespace irscope::store {
struct Session;
}  // namespace irscope::store

namespace irscope::ui {

class StatsTrendView;

class StatisticsDock : public QDockWidget {
    Q_OBJECT

public:
    explicit StatisticsDock(QWidget* parent = nullptr);

    // Fills the totals table from `s` (null clears it) and clears the charts.
    void setSession(std::shared_ptr<const store::Session> s);
    // Charts the top-level passes of `compile` (one of the session's; null clears them).
    void setCompile(const passes::CompileRecord* compile);

    // Widgets exposed for tests.
    QTableWidget* totalsTable() const { return totals_; }
    QChartView* timeChart() const { return timeView_; }
    QChartView* nodeChart() const { return nodeView_; }
    // The bars: one value per top-level pass, named by the axis, in reverse display order
    // (a horizontal chart draws its first category at the bottom: the chart reads top-down).
    QBarSet* timeBars() const { return timeSet_; }
    QBarSet* nodeBars() const { return nodeSet_; }
    QBarCategoryAxis* timeAxis() const { return timeAxis_; }
    // The open script's compile times over its runs (the statistics history).
    StatsTrendView* trendView() const { return trend_; }

    // Columns of the totals table.
    enum Column { Graph, TotalMs, NodesParse, NodesOptA, NodesFinal, PeakBytes, ColumnCount };

protected:
    // The charts follow the theme (Qt Charts' dark theme on a dark palette).
    void changeEvent(QEvent* e) override;

private:
    std::shared_ptr<const store::Session> session_;
    QChartView* timeView_ = nullptr;
    QChartView* nodeView_ = nullptr;
    QBarSet* timeSet_ = nullptr;
    QBarSet* nodeSet_ = nullptr;
    QBarCategoryAxis* timeAxis_ = nullptr;
    QBarCategoryAxis* nodeAxis_ = nullptr;
    QTableWidget* totals_ = nullptr;
    StatsTrendView* trend_ = nullptr;
};

}  // namespace irscope::ui
