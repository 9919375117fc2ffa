#include "pass_timeline_dock.h"

#include <QAction>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace irscope::ui {

PassTimelineDock::PassTimelineDock(QWidget* parent) : QDockWidget(tr("Pass timeline"), parent) {
    setObjectName(QStringLiteral("passTimelineDock"));
    model_ = new PassTimelineModel(this);

    auto* panel = new QWidget(this);
    auto* column = new QVBoxLayout(panel);
    column->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    previous_ = new QAction(tr("◀ Previous pass"), this);
    previous_->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Left));
    previous_->setToolTip(tr("Step back to the previous pass (Alt+Left)"));
    next_ = new QAction(tr("Next pass ▶"), this);
    next_->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Right));
    next_->setToolTip(tr("Step forward to the next pass (Alt+Right)"));
    connect(previous_, &QAction::triggered, this, [this] { step(-1); });
    connect(next_, &QAction::triggered, this, [this] { step(1); });
    for (QAction* a : {previous_, next_}) {
        auto* b = new QToolButton(panel);
        b->setDefaultAction(a);
        bar->addWidget(b);
    }
    hideUnchanged_ = new QCheckBox(tr("Hide passes that changed nothing"), panel);
    hideUnchanged_->setObjectName(QStringLiteral("hideUnchanged"));
    bar->addWidget(hideUnchanged_);
    bar->addStretch(1);
    column->addLayout(bar);

    auto* split = new QSplitter(Qt::Vertical, panel);
    view_ = new QTableView(split);
    view_->setObjectName(QStringLiteral("passTimelineView"));
    view_->setModel(model_);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);
    view_->horizontalHeader()->setSectionResizeMode(PassTimelineModel::Pass, QHeaderView::Stretch);
    view_->setWordWrap(false);
    description_ = new QLabel(split);
    description_->setObjectName(QStringLiteral("passDescription"));
    description_->setWordWrap(true);
    description_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    description_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    description_->setMargin(6);
    description_->setText(tr("Open a script to see its compiles' passes."));
    split->addWidget(view_);
    split->addWidget(description_);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    column->addWidget(split);
    setWidget(panel);

    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &PassTimelineDock::onCurrentChanged);
    connect(hideUnchanged_, &QCheckBox::toggled, this, [this](bool hide) {
        // Keep the selected pass when it stays visible, else the nearest shown before it.
        const int snapshot = currentSnapshot();
        model_->setHideUnchanged(hide);
        int row = model_->rowOfSnapshot(snapshot);
        if (row < 0 && snapshot >= 0) {
            for (int s = snapshot; s >= 0 && row < 0; --s) {
                row = model_->rowOfSnapshot(s);
            }
        }
        selectRow(row >= 0 ? row : model_->rowCount() - 1);
    });
    updateActions();
}

void PassTimelineDock::setCompile(std::shared_ptr<const store::Session> owner,
                                  const passes::CompileRecord* compile) {
    model_->setCompile(std::move(owner), compile);
    view_->resizeColumnToContents(PassTimelineModel::Delta);
    view_->resizeColumnToContents(PassTimelineModel::Millis);
    view_->resizeColumnToContents(PassTimelineModel::Changed);
    if (compile == nullptr) {
        description_->clear();
    } else if (compile->status != passes::CompileStatus::Ok) {
        description_->setText(tr("The compile stopped at %1: %2")
                                  .arg(QString::fromStdString(compile->failedPass),
                                       QString::fromStdString(compile->error)));
    }
    // Start on the last pass: the IR as the compile left it.
    selectRow(model_->rowCount() - 1);
    updateActions();
}

int PassTimelineDock::currentRow() const { return view_->currentIndex().row(); }

int PassTimelineDock::currentSnapshot() const { return model_->snapshotIndex(currentRow()); }

void PassTimelineDock::selectRow(int row) {
    if (row < 0 || row >= model_->rowCount()) {
        view_->setCurrentIndex({});
        return;
    }
    view_->setCurrentIndex(model_->index(row, 0));
    view_->scrollTo(model_->index(row, 0));
}

void PassTimelineDock::step(int delta) {
    const int row = currentRow() + delta;
    if (row >= 0 && row < model_->rowCount()) {
        selectRow(row);
    }
}

void PassTimelineDock::onCurrentChanged() {
    updateActions();
    const passes::PassSnapshot* s = model_->snapshot(currentRow());
    if (s == nullptr) {
        return;
    }
    QString text = QStringLiteral("<b>%1</b>").arg(QString::fromStdString(s->pass).toHtmlEscaped());
    if (!s->description.empty()) {
        text += QStringLiteral(": ") + QString::fromStdString(s->description).toHtmlEscaped();
    }
    if (!s->error.empty()) {
        text += QStringLiteral("<br><span style='color:#a01010'>%1</span>")
                    .arg(QString::fromStdString(s->error).toHtmlEscaped());
    }
    description_->setText(text);
    emit snapshotSelected(currentSnapshot());
}

void PassTimelineDock::updateActions() {
    const int row = currentRow();
    previous_->setEnabled(row > 0);
    next_->setEnabled(row >= 0 && row + 1 < model_->rowCount());
}

}  // namespace irscope::ui
