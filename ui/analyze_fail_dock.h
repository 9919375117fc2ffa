// The Failure dock: what analyze_fail.ir says about a compile that failed — the exception
// MindSpore caught (2.2.1x and later write it into the file) and the traced call stack as a
// list of frames, one per `#------------------------> N` marker, outermost first. The frame
// where inference failed (the last) is marked. Clicking a frame emits frameActivated(), so
// the window selects its node in the graph and its line in the IR text. Hidden for files
// that are no analyze_fail.ir.
#pragma once

#include <QDockWidget>

#include "ir/dump_notes.h"

class QLabel;
class QListWidget;
class QPlainTextEdit;

namespace irscope::ui {

class AnalyzeFailDock : public QDockWidget {
    Q_OBJECT

public:
    explicit AnalyzeFailDock(QWidget* parent = nullptr);

    // Reads the failure of `m` (null: none); true when there is one to show.
    bool showModule(const ir::Module* m);
    void clear();

    QListWidget* frames() const { return frames_; }
    QPlainTextEdit* exception() const { return exception_; }
    const ir::AnalyzeFailure& failure() const { return failure_; }
    // The node of a row of frames(), or null.
    const ir::Node* nodeOfRow(int row) const;

signals:
    void frameActivated(const irscope::ir::Node* node);

private:
    QLabel* summary_ = nullptr;
    QPlainTextEdit* exception_ = nullptr;
    QListWidget* frames_ = nullptr;
    ir::AnalyzeFailure failure_;
};

}  // namespace irscope::ui
