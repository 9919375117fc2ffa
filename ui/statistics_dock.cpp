#include "statistics_dock.h"

#include <QBarCategoryAxis>
#include <QHorizontalBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHeaderView>
#include <QLocale>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

#include "session/pass_stats.h"
#include "store/session.h"
#include "stats_trend_view.h"
#include "theme.h"

namespace irscope::ui {

namespace {

struct BarChart {
    QChartView* view = nullptr;
    QBarSet* set = nullptr;
    QBarCategoryAxis* categories = nullptr;
};

BarChart makeBarChart(const QString& title, const QString& setName, const QString& unit,
                      QWidget* parent) {
    BarChart c;
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->legend()->hide();
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(QMargins(4, 4, 4, 4));
    c.set = new QBarSet(setName);
    // Horizontal bars: the pass names stay readable on the category axis.
    auto* series = new QHorizontalBarSeries(chart);
    series->append(c.set);
    chart->addSeries(series);
    c.categories = new QBarCategoryAxis(chart);
    c.categories->setTruncateLabels(false);
    chart->addAxis(c.categories, Qt::AlignLeft);
    series->attachAxis(c.categories);
    auto* values = new QValueAxis(chart);
    values->setTitleText(unit);
    values->setLabelFormat(QStringLiteral("%g"));
    chart->addAxis(values, Qt::AlignBottom);
    series->attachAxis(values);
    c.view = new QChartView(chart, parent);
    c.view->setRenderHint(QPainter::Antialiasing);
    c.view->setMinimumHeight(120);
    return c;
}

// Rescales the value axis of `set`'s chart to 0 .. the largest value (with headroom).
void fitValues(QBarSet* set, QChartView* view) {
    double top = 0.0;
    for (int i = 0; i < set->count(); ++i) {
        top = std::max(top, set->at(i));
    }
    const auto axes = view->chart()->axes(Qt::Horizontal);
    if (!axes.isEmpty()) {
        axes.first()->setRange(0.0, top > 0.0 ? top * 1.1 : 1.0);
        if (auto* v = qobject_cast<QValueAxis*>(axes.first())) {
            v->applyNiceNumbers();
        }
    }
}

QTableWidgetItem* numberItem(const QString& text) {
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QTableWidgetItem* nodesItem(const passes::CompileRecord& rec, const char* pass) {
    const passes::PassSnapshot* s = rec.find(pass, true);
    return numberItem(s != nullptr ? QString::number(s->counts().nodes) : QStringLiteral("–"));
}

}  // namespace

StatisticsDock::StatisticsDock(QWidget* parent) : QDockWidget(tr("Statistics"), parent) {
    setObjectName(QStringLiteral("statisticsDock"));
    // Two tabs: the selected compile (two charts side by side, the totals of every compile
    // under them) and the script's compiles over time (the statistics history).
    auto* tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("statisticsTabs"));
    tabs->setDocumentMode(true);
    auto* panel = new QWidget(tabs);
    auto* column = new QVBoxLayout(panel);
    column->setContentsMargins(0, 0, 0, 0);
    auto* charts = new QSplitter(Qt::Horizontal, panel);
    BarChart time = makeBarChart(tr("Wall time per pass"), tr("wall ms"), tr("ms"), charts);
    time.view->setObjectName(QStringLiteral("statisticsTimeChart"));
    timeView_ = time.view;
    timeSet_ = time.set;
    timeAxis_ = time.categories;
    BarChart nodes = makeBarChart(tr("Nodes after each pass"), tr("nodes"), tr("nodes"), charts);
    nodes.view->setObjectName(QStringLiteral("statisticsNodeChart"));
    nodeView_ = nodes.view;
    nodeSet_ = nodes.set;
    nodeAxis_ = nodes.categories;

    totals_ = new QTableWidget(0, ColumnCount, panel);
    totals_->setObjectName(QStringLiteral("statisticsTotals"));
    totals_->setHorizontalHeaderLabels({tr("Graph"), tr("Total ms"), tr("Nodes after parse"),
                                        tr("Nodes after opt_a"), tr("Nodes at end"),
                                        tr("Peak bytes")});
    totals_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    totals_->setSelectionBehavior(QAbstractItemView::SelectRows);
    totals_->setAlternatingRowColors(true);
    totals_->verticalHeader()->hide();
    totals_->setWordWrap(false);

    charts->addWidget(timeView_);
    charts->addWidget(nodeView_);
    column->addWidget(charts, 1);
    column->addWidget(totals_, 0);
    // Extra height goes to the charts; the table keeps what its rows need.
    tabs->addTab(panel, tr("Passes and totals"));
    trend_ = new StatsTrendView(tabs);
    tabs->addTab(trend_, tr("Over time"));
    setWidget(tabs);
}

void StatisticsDock::setSession(std::shared_ptr<const store::Session> s) {
    session_ = std::move(s);
    setCompile(nullptr);
    totals_->setRowCount(0);
    trend_->setScript(session_ != nullptr ? QString::fromStdString(session_->scriptPath) : QString());
    if (session_ == nullptr) {
        return;
    }
    const QLocale locale;
    totals_->setRowCount(static_cast<int>(session_->compiles.size()));
    int row = 0;
    for (const passes::CompileRecord& rec : session_->compiles) {
        auto* graph = new QTableWidgetItem(QString::fromStdString(rec.graphName));
        graph->setToolTip(QString::fromStdString(rec.graphName + rec.signature));
        totals_->setItem(row, Graph, graph);
        totals_->setItem(row, TotalMs, numberItem(QString::number(rec.totalMillis, 'f', 2)));
        totals_->setItem(row, NodesParse, nodesItem(rec, "parse"));
        totals_->setItem(row, NodesOptA, nodesItem(rec, "opt_a"));
        totals_->setItem(row, NodesFinal,
                         numberItem(rec.snapshots.empty()
                                        ? QStringLiteral("–")
                                        : QString::number(rec.snapshots.back().counts().nodes)));
        std::optional<std::uint64_t> peak;
        for (const passes::PassSnapshot& snap : rec.snapshots) {
            if (snap.peakBytes && (!peak || *snap.peakBytes > *peak)) {
                peak = snap.peakBytes;
            }
        }
        totals_->setItem(row, PeakBytes, numberItem(peak ? locale.toString(static_cast<qulonglong>(*peak))
                                                         : QStringLiteral("–")));
        ++row;
    }
    totals_->resizeColumnsToContents();
    // Tall enough for every row (a few at most per script); the charts get the rest.
    int height = totals_->horizontalHeader()->height() + 2 * totals_->frameWidth() + 2;
    for (int r = 0; r < totals_->rowCount(); ++r) {
        height += totals_->rowHeight(r);
    }
    totals_->setMaximumHeight(std::max(height, totals_->horizontalHeader()->height() * 3));
}

void StatisticsDock::setCompile(const passes::CompileRecord* compile) {
    timeSet_->remove(0, timeSet_->count());
    nodeSet_->remove(0, nodeSet_->count());
    timeAxis_->clear();
    nodeAxis_->clear();
    QStringList names;
    if (compile != nullptr) {
        // A horizontal bar chart puts its first category at the bottom: appended last
        // first, the passes read top-down in pass order.
        const std::vector<std::size_t> order = session::passDisplayOrder(*compile);
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            const passes::PassSnapshot& snap = compile->snapshots[*it];
            if (snap.depth != 0) {
                continue;
            }
            names << QString::fromStdString(snap.pass);
            timeSet_->append(snap.millis);
            nodeSet_->append(static_cast<double>(snap.counts().nodes));
        }
    }
    timeAxis_->append(names);
    nodeAxis_->append(names);
    fitValues(timeSet_, timeView_);
    fitValues(nodeSet_, nodeView_);
    const QString graph = compile != nullptr ? QString::fromStdString(compile->graphName) : QString();
    timeView_->chart()->setTitle(graph.isEmpty() ? tr("Wall time per pass")
                                                 : tr("Wall time per pass — %1").arg(graph));
    nodeView_->chart()->setTitle(graph.isEmpty() ? tr("Nodes after each pass")
                                                 : tr("Nodes after each pass — %1").arg(graph));
}

void StatisticsDock::changeEvent(QEvent* e) {
    QDockWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange) {
        const QChart::ChartTheme theme = isDark(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight;
        for (QChartView* v : {timeView_, nodeView_}) {
            if (v->chart()->theme() != theme) {
                v->chart()->setTheme(theme);
            }
        }
    }
}

}  // namespace irscope::ui
