#include "output_dock.h"

#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextCursor>

namespace irscope::ui {

OutputDock::OutputDock(QWidget* parent) : QDockWidget(tr("Output"), parent) {
    setObjectName(QStringLiteral("outputDock"));
    view_ = new QPlainTextEdit(this);
    view_->setObjectName(QStringLiteral("outputView"));
    view_->setReadOnly(true);
    view_->setLineWrapMode(QPlainTextEdit::NoWrap);
    view_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    view_->setMaximumBlockCount(100000);
    view_->setPlaceholderText(tr("What the script prints appears here."));
    setWidget(view_);
}

void OutputDock::clear() { view_->clear(); }

void OutputDock::append(const QString& text) {
    QTextCursor c(view_->document());
    c.movePosition(QTextCursor::End);
    c.insertText(text);
    view_->verticalScrollBar()->setValue(view_->verticalScrollBar()->maximum());
}

QString OutputDock::text() const { return view_->toPlainText(); }

}  // namespace irscope::ui
