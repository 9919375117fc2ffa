#include "compare_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "graph_view.h"
#include "ir_diff_view.h"
#include "session/pass_stats.h"

namespace irscope::ui {

namespace {

QString snapshotName(const CompareSide& side, int snapshot) {
    const passes::PassSnapshot& s = side.compile->snapshots[static_cast<std::size_t>(snapshot)];
    return QStringLiteral("%1@%2.ir")
        .arg(QString::fromStdString(side.compile->graphName),
             QString::fromStdString(s.pass).replace(QLatin1Char('/'), QLatin1Char('.')));
}

bool validSnapshot(const CompareSide& side, int snapshot) {
    return side.compile != nullptr && snapshot >= 0 &&
           snapshot < static_cast<int>(side.compile->snapshots.size());
}

QString legendHtml() {
    QString html;
    const std::pair<NodeMark, QString> marks[] = {{NodeMark::Added, QObject::tr("added")},
                                                  {NodeMark::Removed, QObject::tr("removed")},
                                                  {NodeMark::Changed, QObject::tr("changed")},
                                                  {NodeMark::Matched, QObject::tr("counterpart")}};
    for (const auto& [mark, name] : marks) {
        html += QStringLiteral("<span style='background:%1; border:2px solid %2'>&nbsp;%3&nbsp;</span> ")
                    .arg(NodeItem::markFill(mark).name(), NodeItem::markColor(mark).name(), name);
    }
    return html;
}

}  // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("compareView"));
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(4, 4, 4, 0);
    column->setSpacing(4);
    auto* row = new QHBoxLayout;
    for (int side = 0; side < 2; ++side) {
        titles_[side] = new QLabel(side == 0 ? tr("Before:") : tr("After:"), this);
        boxes_[side] = new QComboBox(this);
        boxes_[side]->setObjectName(side == 0 ? QStringLiteral("compareBefore") : QStringLiteral("compareAfter"));
        boxes_[side]->setMinimumContentsLength(16);
        boxes_[side]->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        boxes_[side]->setToolTip(side == 0 ? tr("The snapshot on the left") : tr("The snapshot on the right"));
        row->addWidget(titles_[side]);
        row->addWidget(boxes_[side], 1);
        connect(boxes_[side], &QComboBox::currentIndexChanged, this, [this, side] { onBoxChanged(side); });
    }
    column->addLayout(row);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("compareSummary"));
    summary_->setTextFormat(Qt::RichText);
    summary_->setWordWrap(true);

    modes_ = new QTabWidget(this);
    modes_->setObjectName(QStringLiteral("compareModes"));
    modes_->setDocumentMode(true);
    diff_ = new IrDiffView(modes_);
    diff_->setObjectName(QStringLiteral("compareTextDiff"));
    auto* graphPanel = new QWidget(modes_);
    auto* graphColumn = new QVBoxLayout(graphPanel);
    graphColumn->setContentsMargins(0, 0, 0, 0);
    auto* legendRow = new QHBoxLayout;
    auto* legend = new QLabel(legendHtml(), graphPanel);
    legend->setObjectName(QStringLiteral("compareLegend"));
    legend->setToolTip(tr("Selecting a node selects its counterpart on the other side"));
    legendRow->addWidget(legend);
    legendRow->addWidget(summary_, 1);
    graphColumn->addLayout(legendRow);
    auto* split = new QSplitter(Qt::Horizontal, graphPanel);
    for (int side = 0; side < 2; ++side) {
        graphs_[side] = new GraphView(split);
        graphs_[side]->setObjectName(side == 0 ? QStringLiteral("compareGraphBefore")
                                               : QStringLiteral("compareGraphAfter"));
        split->addWidget(graphs_[side]);
        connect(graphs_[side], &GraphView::nodeSelected, this,
                [this, side](const ir::Node* n) { onNodeSelected(side, n); });
    }
    split->setSizes({1000, 1000});
    graphColumn->addWidget(split, 1);
    modes_->addTab(graphPanel, tr("Graphs"));
    modes_->addTab(diff_, tr("IR text"));
    column->addWidget(modes_, 1);
    connect(&watcher_, &QFutureWatcher<IrComparison>::finished, this, &CompareView::onFinished);
    clear(tr("Run a script, then choose a pass: it is compared with the pass before it."));
}

CompareView::~CompareView() { watcher_.waitForFinished(); }

void CompareView::clear(const QString& message) {
    sides_[0] = CompareSide();
    sides_[1] = CompareSide();
    dirty_ = false;
    for (int side = 0; side < 2; ++side) {
        fillBox(side);
        graphs_[side]->showMessage(side == 0 ? message : QString());
    }
    diff_->showMessage(message);
    result_ = IrComparison();
    setSummary(QString());
}

void CompareView::setCompile(std::shared_ptr<const store::Session> s, const passes::CompileRecord* compile) {
    if (compile == nullptr) {
        clear(tr("No compile selected."));
        return;
    }
    linked_ = false;
    titles_[0]->setText(tr("Before:"));
    titles_[1]->setText(tr("After:"));
    sides_[0] = CompareSide{s, compile, tr("before")};
    sides_[1] = CompareSide{std::move(s), compile, tr("after")};
    fillBox(0);
    fillBox(1);
}

void CompareView::setSides(CompareSide before, CompareSide after) {
    linked_ = true;
    titles_[0]->setText(before.title + QLatin1Char(':'));
    titles_[1]->setText(after.title + QLatin1Char(':'));
    sides_[0] = std::move(before);
    sides_[1] = std::move(after);
    fillBox(0);
    fillBox(1);
}

void CompareView::fillBox(int side) {
    shown_.reset();
    ++generation_;
    filling_ = true;
    QComboBox* box = boxes_[side];
    box->clear();
    const passes::CompileRecord* c = sides_[side].compile;
    if (c != nullptr) {
        for (std::size_t i : session::passDisplayOrder(*c)) {
            const passes::PassSnapshot& s = c->snapshots[i];
            const std::optional<long long> delta = session::nodeDelta(*c, i);
            QString text = QString(s.depth * 4, QLatin1Char(' ')) + QString::fromStdString(s.pass);
            if (s.depth > 0) {
                text += tr(" (round %1)").arg(s.round + 1);
            }
            if (delta && *delta != 0) {
                text += QStringLiteral("  %1%2").arg(*delta > 0 ? QStringLiteral("+") : QString()).arg(*delta);
            }
            if (s.changed()) {
                text += QStringLiteral("  *");
            }
            box->addItem(text, static_cast<int>(i));
        }
    }
    box->setEnabled(c != nullptr);
    filling_ = false;
}

int CompareView::beforeSnapshot() const { return boxes_[0]->currentData().isValid() ? boxes_[0]->currentData().toInt() : -1; }
int CompareView::afterSnapshot() const { return boxes_[1]->currentData().isValid() ? boxes_[1]->currentData().toInt() : -1; }

void CompareView::selectInBox(int side, int snapshot) {
    const int row = boxes_[side]->findData(snapshot);
    if (row >= 0) {
        boxes_[side]->setCurrentIndex(row);
    }
}

void CompareView::showSnapshot(int snapshot) {
    if (!validSnapshot(sides_[1], snapshot)) {
        return;
    }
    if (linked_) {
        filling_ = true;
        selectInBox(1, snapshot);
        filling_ = false;
        onBoxChanged(1);
        return;
    }
    const std::optional<std::size_t> before = session::previousSnapshot(*sides_[1].compile, static_cast<std::size_t>(snapshot));
    compareSnapshots(before ? static_cast<int>(*before) : snapshot, snapshot);
}

void CompareView::compareSnapshots(int before, int after) {
    filling_ = true;
    selectInBox(0, before);
    selectInBox(1, after);
    filling_ = false;
    request();
}

void CompareView::onBoxChanged(int side) {
    if (filling_) {
        return;
    }
    if (linked_) {
        // The same pass (and round) on the other side.
        const int other = 1 - side;
        const int mine = side == 0 ? beforeSnapshot() : afterSnapshot();
        if (validSnapshot(sides_[side], mine) && sides_[other].compile != nullptr) {
            const passes::PassSnapshot& s = sides_[side].compile->snapshots[static_cast<std::size_t>(mine)];
            int match = -1;
            const auto& theirs = sides_[other].compile->snapshots;
            for (std::size_t i = 0; i < theirs.size() && match < 0; ++i) {
                if (theirs[i].pass == s.pass && theirs[i].round == s.round) {
                    match = static_cast<int>(i);
                }
            }
            if (match >= 0) {
                filling_ = true;
                selectInBox(other, match);
                filling_ = false;
            }
        }
    }
    emit snapshotChosen(side, side == 0 ? beforeSnapshot() : afterSnapshot());
    request();
}

void CompareView::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    if (dirty_) {
        request();
    }
}

void CompareView::request() {
    const int a = beforeSnapshot();
    const int b = afterSnapshot();
    if (!validSnapshot(sides_[0], a) || !validSnapshot(sides_[1], b)) {
        return;
    }
    if (!isVisible()) {
        dirty_ = true;
        return;
    }
    dirty_ = false;
    if (!running_ && shown_ == std::make_pair(a, b)) {
        return;  // already on screen
    }
    if (running_) {
        return;  // onFinished sees the boxes changed and asks again
    }
    running_ = true;
    inFlight_ = std::make_pair(a, b);
    inFlightGeneration_ = generation_;
    setSummary(tr("Comparing…"));
    const CompareSide& x = sides_[0];
    const CompareSide& y = sides_[1];
    watcher_.setFuture(QtConcurrent::run(
        [ownerA = x.session, ownerB = y.session,
         textA = x.compile->snapshots[static_cast<std::size_t>(a)].compressed(),
         textB = y.compile->snapshots[static_cast<std::size_t>(b)].compressed(), nameA = snapshotName(x, a),
         nameB = snapshotName(y, b), whyA = x.compile->snapshots[static_cast<std::size_t>(a)].failure(),
         whyB = y.compile->snapshots[static_cast<std::size_t>(b)].failure()] {
            if (!textA || !textB) {
                IrComparison failed;
                const std::string& why = !textA ? whyA : whyB;
                failed.error = QStringLiteral("%1: error: %2")
                                   .arg(!textA ? nameA : nameB,
                                        why.empty() ? QStringLiteral("the IR could not be printed after this pass")
                                                    : QString::fromStdString(why));
                return failed;
            }
            return compareIr(textA->text(), nameA, textB->text(), nameB);
        }));
}

void CompareView::onFinished() {
    running_ = false;
    IrComparison r = watcher_.result();
    if (inFlight_ != std::make_pair(beforeSnapshot(), afterSnapshot()) || inFlightGeneration_ != generation_) {
        request();  // the choice changed meanwhile
        return;
    }
    result_ = std::move(r);
    shown_ = inFlight_;
    if (!result_.ok()) {
        setSummary(QStringLiteral("<span style='color:#7a1010'>%1</span>").arg(result_.error.toHtmlEscaped()));
        diff_->showMessage(result_.error);
        emit comparisonShown(false);
        return;
    }
    diff_->setDiff(result_.before.text, result_.after.text, result_.text);
    graphs_[0]->setModel(result_.before.module, *result_.before.graph);
    graphs_[0]->setNodeMarks(result_.beforeMarks);
    graphs_[1]->setModel(result_.after.module, *result_.after.graph);
    graphs_[1]->setNodeMarks(result_.afterMarks);
    const ir::DiffCounts& n = result_.matching->counts();
    auto part = [](NodeMark m, const QString& text) {
        return QStringLiteral("<span style='color:%1'><b>%2</b></span>").arg(NodeItem::markColor(m).name(), text);
    };
    setSummary(n.identical() ? tr("The two snapshots are the same IR.")
                             : tr("Nodes: %1, %2, %3, %4 same")
                                   .arg(part(NodeMark::Added, tr("+%1 added").arg(n.added)),
                                        part(NodeMark::Removed, tr("−%1 removed").arg(n.removed)),
                                        part(NodeMark::Changed, tr("~%1 changed").arg(n.changed)))
                                   .arg(n.same));
    emit comparisonShown(true);
}

void CompareView::onNodeSelected(int side, const ir::Node* node) {
    if (selecting_ || !result_.ok()) {
        return;
    }
    GraphView* other = graphs_[1 - side];
    std::vector<NodeMark> marks = side == 0 ? result_.afterMarks : result_.beforeMarks;
    const ir::Node* counterpart = result_.counterpart(node, side == 0);
    const int k = counterpart != nullptr ? other->model().indexOf(counterpart) : -1;
    if (k >= 0 && static_cast<std::size_t>(k) < marks.size()) {
        marks[static_cast<std::size_t>(k)] = NodeMark::Matched;
    }
    other->setNodeMarks(std::move(marks));
    if (counterpart != nullptr) {
        selecting_ = true;
        other->selectNode(counterpart);
        selecting_ = false;
    }
}

void CompareView::setSummary(const QString& text) { summary_->setText(text); }

}  // namespace irscope::ui
