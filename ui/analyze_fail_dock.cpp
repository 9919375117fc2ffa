#include "analyze_fail_dock.h"

#include <QColor>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QVBoxLayout>

#include "ir/func_graph.h"
#include "ir/ir_text.h"

namespace irscope::ui {

namespace {
QString q(const std::string& s) {
    return QString::fromStdString(s);
}
}  // namespace

AnalyzeFailDock::AnalyzeFailDock(QWidget* parent) : QDockWidget(tr("Failure"), parent) {
    setObjectName(QStringLiteral("analyzeFailDock"));
    auto* box = new QWidget(this);
    auto* column = new QVBoxLayout(box);
    column->setContentsMargins(4, 4, 4, 4);
    summary_ = new QLabel(box);
    summary_->setObjectName(QStringLiteral("failureSummary"));
    summary_->setWordWrap(true);
    column->addWidget(summary_);
    auto* split = new QSplitter(Qt::Vertical, box);
    exception_ = new QPlainTextEdit(split);
    exception_->setObjectName(QStringLiteral("failureException"));
    exception_->setReadOnly(true);
    exception_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    frames_ = new QListWidget(split);
    frames_->setObjectName(QStringLiteral("failureFrames"));
    frames_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    frames_->setTextElideMode(Qt::ElideMiddle);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    column->addWidget(split, 1);
    setWidget(box);
    auto activate = [this](QListWidgetItem* item) {
        if (const ir::Node* n = nodeOfRow(frames_->row(item))) {
            emit frameActivated(n);
        }
    };
    connect(frames_, &QListWidget::itemClicked, this, activate);
    connect(frames_, &QListWidget::itemActivated, this, activate);
    clear();
}

void AnalyzeFailDock::clear() {
    failure_ = {};
    frames_->clear();
    exception_->clear();
    summary_->clear();
}

const ir::Node* AnalyzeFailDock::nodeOfRow(int row) const {
    if (row < 0 || row >= static_cast<int>(failure_.frames.size())) {
        return nullptr;
    }
    return failure_.frames[static_cast<std::size_t>(row)].node;
}

bool AnalyzeFailDock::showModule(const ir::Module* m) {
    clear();
    if (m == nullptr) {
        return false;
    }
    failure_ = ir::analyzeFailure(*m);
    if (!failure_.present()) {
        return false;
    }
    summary_->setText(
        tr("Graph compilation failed: type or shape inference stopped at frame #%1 of %2 "
           "(marked ✗). Click a frame to select its node.")
            .arg(failure_.frames.empty() ? 0 : failure_.frames.back().index)
            .arg(failure_.frames.size()));
    QString text = failure_.exception.empty()
                       ? tr("This analyze_fail.ir does not contain the exception: MindSpore "
                            "before 2.2.1x writes it to the log only.")
                       : q(failure_.exception);
    if (!failure_.cppStack.empty()) {
        text += QStringLiteral("\n\n") + tr("C++ call stack:");
        for (const std::string& l : failure_.cppStack) {
            text += QStringLiteral("\n  ") + q(l);
        }
    }
    exception_->setPlainText(text);
    const ir::NodeLines lines(*m);
    for (std::size_t k = 0; k < failure_.frames.size(); ++k) {
        const ir::StackFrame& f = failure_.frames[k];
        const bool failed = k + 1 == failure_.frames.size();
        const ir::FuncGraph* g = f.node->graph();
        QString row = QStringLiteral("%1 #%2  @%3\n    %4")
                          .arg(failed ? QStringLiteral("✗") : QStringLiteral(" "))
                          .arg(f.index)
                          .arg(g != nullptr ? q(lines.graphName(*g)) : QStringLiteral("?"))
                          .arg(q(lines.line(*f.node)));
        QString tip = q(lines.line(*f.node));
        if (!f.node->debug().trace.empty()) {
            const ir::SourceLocation& loc = f.node->debug().trace.back();
            row += QStringLiteral("\n    %1:%2  %3")
                       .arg(QFileInfo(q(loc.file)).fileName())
                       .arg(loc.line)
                       .arg(q(loc.text).trimmed());
            tip +=
                QStringLiteral("\n") + q(loc.file) + QLatin1Char(':') + QString::number(loc.line);
        }
        auto* item = new QListWidgetItem(row, frames_);
        item->setToolTip(failed ? tr("Inference failed here\n") + tip : tip);
        if (failed) {
            QFont bold = frames_->font();
            bold.setBold(true);
            item->setFont(bold);
            item->setForeground(QColor(200, 30, 30));
        }
    }
    return true;
}

}  // namespace irscope::ui
