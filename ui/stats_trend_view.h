// The Statistics dock's trend: how long the open script's compiles took, run after run,
// from the statistics history (store/stats_history.h) — e.g. the compile time before and
// after adding @lazy_inline, or a first run against one that used the compile cache. One
// line per graph: x is the compile's place in the script's history (oldest first), y its
// total ms; compiles that came from the compile cache are also marked as dots. The history
// is read on a worker thread; updated() says the chart shows the latest request.
#pragma once

#include <QFutureWatcher>
#include <QList>
#include <QString>
#include <QWidget>

#include <string>
#include <vector>

#include "store/stats_history.h"

class QChartView;
class QLabel;
class QLineSeries;
class QScatterSeries;

namespace irscope::ui {

class StatsTrendView : public QWidget {
    Q_OBJECT

public:
    explicit StatsTrendView(QWidget* parent = nullptr);
    ~StatsTrendView() override;

    // Shows the history of `scriptPath` (the history IRSCOPE_STATS_DB names, or the
    // per-user default); empty clears the chart.
    void setScript(const QString& scriptPath);

    // For tests: the chart, the line per graph, the cache dots, and the note shown when
    // there is nothing to chart (history off or unreadable, no compile recorded).
    QChartView* chartView() const { return view_; }
    QList<QLineSeries*> graphSeries() const;
    QScatterSeries* cacheSeries() const { return cached_; }
    QString note() const;

signals:
    void updated();

private:
    struct Result {
        std::vector<store::CompileStatsRow> rows;
        QString note;  // empty when rows were read
    };
    static Result read(const std::string& script);
    void show(const Result& r);

    QChartView* view_ = nullptr;
    QLabel* note_ = nullptr;
    QScatterSeries* cached_ = nullptr;
    QFutureWatcher<Result>* watcher_ = nullptr;
    QString requested_;  // the script of the latest setScript()
    QString running_;    // the script the worker is reading
};

}  // namespace irscope::ui
