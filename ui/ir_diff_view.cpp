#include "ir_diff_view.h"

#include <QAction>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSplitter>
#include <QTextBlock>
#include <QToolBar>
#include <QVBoxLayout>

#include "graph_scene.h"

namespace irscope::ui {

namespace {

QPlainTextEdit* makeSide(QWidget* parent, const QString& name) {
    auto* e = new QPlainTextEdit(parent);
    e->setObjectName(name);
    e->setReadOnly(true);
    e->setLineWrapMode(QPlainTextEdit::NoWrap);
    e->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    e->setCenterOnScroll(false);
    return e;
}

QColor rowColor(ir::DiffKind k) {
    switch (k) {
        case ir::DiffKind::Same: return Qt::transparent;
        // Paler than the graph's fills, for text on them.
        case ir::DiffKind::Changed: return NodeItem::markColor(NodeMark::Changed).lighter(185);
        case ir::DiffKind::Added: return NodeItem::markColor(NodeMark::Added).lighter(190);
        case ir::DiffKind::Removed: return NodeItem::markColor(NodeMark::Removed).lighter(185);
    }
    return Qt::transparent;
}

}  // namespace

IrDiffView::IrDiffView(QWidget* parent) : QWidget(parent) {
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    auto* bar = new QToolBar(this);
    bar->setObjectName(QStringLiteral("diffToolBar"));
    previous_ = bar->addAction(tr("Previous change"), this, [this] {
        if (!hunks_.empty()) {
            const int n = changeCount();
            goToChange(current_ <= 0 ? n - 1 : current_ - 1);
        }
    });
    previous_->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Up));
    previous_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    previous_->setToolTip(tr("Previous change (Alt+Up)"));
    next_ = bar->addAction(tr("Next change"), this, [this] {
        if (!hunks_.empty()) {
            goToChange(current_ + 1 >= changeCount() ? 0 : current_ + 1);
        }
    });
    next_->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Down));
    next_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    next_->setToolTip(tr("Next change (Alt+Down)"));
    addAction(previous_);
    addAction(next_);
    status_ = new QLabel(bar);
    status_->setObjectName(QStringLiteral("diffStatus"));
    bar->addSeparator();
    bar->addWidget(status_);
    auto* split = new QSplitter(Qt::Horizontal, this);
    before_ = makeSide(split, QStringLiteral("diffBefore"));
    after_ = makeSide(split, QStringLiteral("diffAfter"));
    split->addWidget(before_);
    split->addWidget(after_);
    column->addWidget(bar);
    column->addWidget(split);
    connect(before_->verticalScrollBar(), &QScrollBar::valueChanged, this, [this] { syncScroll(before_, after_); });
    connect(after_->verticalScrollBar(), &QScrollBar::valueChanged, this, [this] { syncScroll(after_, before_); });
    connect(before_->horizontalScrollBar(), &QScrollBar::valueChanged, after_->horizontalScrollBar(),
            &QScrollBar::setValue);
    connect(after_->horizontalScrollBar(), &QScrollBar::valueChanged, before_->horizontalScrollBar(),
            &QScrollBar::setValue);
    for (QPlainTextEdit* side : {before_, after_}) {
        connect(side, &QPlainTextEdit::cursorPositionChanged, this, [this, side] {
            if (!syncing_) {
                emit rowActivated(side->textCursor().blockNumber());
            }
        });
    }
}

void IrDiffView::syncScroll(QPlainTextEdit* from, QPlainTextEdit* to) {
    if (syncing_) {
        return;
    }
    syncing_ = true;
    to->verticalScrollBar()->setValue(from->verticalScrollBar()->value());
    syncing_ = false;
}

void IrDiffView::showMessage(const QString& text) {
    rows_.clear();
    hunks_.clear();
    current_ = -1;
    before_->setExtraSelections({});
    after_->setExtraSelections({});
    before_->setPlainText(text);
    after_->clear();
    status_->clear();
}

void IrDiffView::setDiff(const QString& before, const QString& after, const ir::TextDiff& diff) {
    rows_ = diff.rows;
    hunks_ = diff.hunks;
    current_ = -1;
    const QStringList la = before.split(QLatin1Char('\n'));
    const QStringList lb = after.split(QLatin1Char('\n'));
    const int width = static_cast<int>(QString::number(std::max(la.size(), lb.size())).size());
    auto lineText = [width](const QStringList& lines, int k) {
        if (k < 0 || k >= lines.size()) {
            return QString();
        }
        return QStringLiteral("%1  %2").arg(k + 1, width).arg(lines[k]);
    };
    QStringList left;
    QStringList right;
    left.reserve(static_cast<qsizetype>(rows_.size()));
    right.reserve(static_cast<qsizetype>(rows_.size()));
    for (const ir::DiffRow& r : rows_) {
        left << lineText(la, r.before);
        right << lineText(lb, r.after);
    }
    syncing_ = true;
    before_->setPlainText(left.join(QLatin1Char('\n')));
    after_->setPlainText(right.join(QLatin1Char('\n')));
    // Full-width row colours; a filler row gets a light hatch of its counterpart's colour.
    for (QPlainTextEdit* side : {before_, after_}) {
        QList<QTextEdit::ExtraSelection> marks;
        QTextBlock block = side->document()->firstBlock();
        for (std::size_t i = 0; i < rows_.size() && block.isValid(); ++i, block = block.next()) {
            const ir::DiffRow& r = rows_[i];
            if (r.kind == ir::DiffKind::Same) {
                continue;
            }
            const bool filler = (side == before_ ? r.before : r.after) < 0;
            QTextEdit::ExtraSelection sel;
            sel.cursor = QTextCursor(block);
            sel.format.setProperty(QTextFormat::FullWidthSelection, true);
            sel.format.setBackground(filler ? QBrush(rowColor(r.kind), Qt::BDiagPattern) : QBrush(rowColor(r.kind)));
            marks << sel;
        }
        side->setExtraSelections(marks);
    }
    syncing_ = false;
    status_->setText(hunks_.empty() ? tr("No difference")
                                    : tr("%n change(s): %1 changed, %2 removed, %3 added lines", nullptr,
                                         changeCount())
                                          .arg(diff.lines.changed)
                                          .arg(diff.lines.removed)
                                          .arg(diff.lines.added));
    next_->setEnabled(!hunks_.empty());
    previous_->setEnabled(!hunks_.empty());
}

int IrDiffView::currentRow() const {
    return (after_->hasFocus() ? after_ : before_)->textCursor().blockNumber();
}

void IrDiffView::goToRow(int row) {
    if (row < 0 || row >= static_cast<int>(rows_.size())) {
        return;
    }
    syncing_ = true;
    for (QPlainTextEdit* side : {before_, after_}) {
        QTextCursor c(side->document()->findBlockByNumber(row));
        side->setTextCursor(c);
    }
    // A few rows of context above the change.
    const int top = std::max(0, row - 3);
    before_->verticalScrollBar()->setValue(top);
    after_->verticalScrollBar()->setValue(top);
    syncing_ = false;
}

void IrDiffView::goToChange(int k) {
    if (k < 0 || k >= changeCount()) {
        return;
    }
    current_ = k;
    goToRow(static_cast<int>(hunks_[static_cast<std::size_t>(k)]));
    status_->setText(tr("Change %1 of %2").arg(k + 1).arg(changeCount()));
}

}  // namespace irscope::ui
