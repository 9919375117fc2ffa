#include "stats_trend_view.h"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <map>

#include "store/stats_history.h"

namespace irscope::ui {

StatsTrendView::StatsTrendView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("statisticsTrend"));
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    auto* chart = new QChart;
    chart->setTitle(tr("Compile time over runs"));
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(QMargins(4, 4, 4, 4));
    view_ = new QChartView(chart, this);
    view_->setRenderHint(QPainter::Antialiasing);
    view_->setMinimumHeight(120);
    note_ = new QLabel(this);
    note_->setWordWrap(true);
    note_->hide();
    column->addWidget(view_, 1);
    column->addWidget(note_, 0);
    watcher_ = new QFutureWatcher<Result>(this);
    connect(watcher_, &QFutureWatcher<Result>::finished, this, [this] {
        const Result r = watcher_->result();
        const QString done = running_;
        running_.clear();
        if (done != requested_) {
            setScript(requested_);  // superseded while reading: read the latest request
            return;
        }
        show(r);
    });
    show({});
}

StatsTrendView::~StatsTrendView() {
    watcher_->waitForFinished();
}

QList<QLineSeries*> StatsTrendView::graphSeries() const {
    QList<QLineSeries*> lines;
    for (QAbstractSeries* s : view_->chart()->series()) {
        if (auto* l = qobject_cast<QLineSeries*>(s)) {
            lines << l;
        }
    }
    return lines;
}

QString StatsTrendView::note() const {
    return note_->text();
}

StatsTrendView::Result StatsTrendView::read(const std::string& script) {
    Result r;
    try {
        const std::optional<std::string> path = store::statsHistoryPath();
        if (!path) {
            r.note = tr("The statistics history is off (IRSCOPE_STATS_DB=off).");
            return r;
        }
        store::StatsQuery q;
        q.script = script;
        q.last = 200;
        r.rows = store::queryStatsHistory(*path, q);
        if (r.rows.empty()) {
            r.note = tr("No compile of this script is in the statistics history yet.");
        }
    } catch (const std::exception& e) {
        r.note = tr("The statistics history cannot be read: %1").arg(QString::fromUtf8(e.what()));
    }
    return r;
}

void StatsTrendView::setScript(const QString& scriptPath) {
    requested_ = scriptPath;
    if (!running_.isNull()) {
        return;  // the finished handler reads the latest request
    }
    if (scriptPath.isEmpty()) {
        show({});
        return;
    }
    running_ = scriptPath;
    watcher_->setFuture(QtConcurrent::run(&StatsTrendView::read, scriptPath.toStdString()));
}

void StatsTrendView::show(const Result& r) {
    QChart* chart = view_->chart();
    chart->removeAllSeries();
    for (QAbstractAxis* a : chart->axes()) {
        chart->removeAxis(a);
        delete a;
    }
    std::map<std::string, QLineSeries*> lines;
    cached_ = new QScatterSeries(chart);
    cached_->setName(tr("from the compile cache"));
    cached_->setMarkerSize(8.0);
    double top = 0.0;
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
        const store::CompileStatsRow& row = r.rows[i];
        QLineSeries*& line = lines[row.graph];
        if (line == nullptr) {
            line = new QLineSeries(chart);
            line->setName(QString::fromStdString(row.graph));
            line->setPointsVisible(true);
        }
        const QPointF p(static_cast<double>(i + 1), row.totalMillis);
        line->append(p);
        if (row.fromCache) {
            cached_->append(p);
        }
        top = std::max(top, row.totalMillis);
    }
    auto* x = new QValueAxis(chart);
    x->setTitleText(tr("compile (oldest → newest)"));
    x->setLabelFormat(QStringLiteral("%d"));
    x->setRange(0.0, std::max<double>(2.0, static_cast<double>(r.rows.size()) + 1.0));
    auto* y = new QValueAxis(chart);
    y->setTitleText(tr("total ms"));
    y->setLabelFormat(QStringLiteral("%g"));
    y->setRange(0.0, top > 0.0 ? top * 1.1 : 1.0);
    y->applyNiceNumbers();
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (auto& [graph, line] : lines) {
        chart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
    }
    chart->addSeries(cached_);
    cached_->attachAxis(x);
    cached_->attachAxis(y);
    chart->legend()->setVisible(!lines.empty());
    note_->setText(r.note);
    note_->setVisible(!r.note.isEmpty());
    emit updated();
}

}  // namespace irscope::ui
