// A side-by-side diff of two IR texts: the before text on the left, the after text on the
// right, aligned row by row (a blank filler row faces an added or removed line), removed
// lines red, added lines green, changed lines orange, each with its line number. The two
// sides scroll together; next/previous change (Alt+Down / Alt+Up) walk the runs of changes.
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

#include "ir/ir_diff.h"

class QAction;
class QLabel;
class QPlainTextEdit;

namespace irscope::ui {

class IrDiffView : public QWidget {
    Q_OBJECT

public:
    explicit IrDiffView(QWidget* parent = nullptr);

    // Shows `diff` of `before` and `after` (the texts it was computed from).
    void setDiff(const QString& before, const QString& after, const ir::TextDiff& diff);
    // Shows `text` on both sides instead of a diff.
    void showMessage(const QString& text);

    QPlainTextEdit* beforeEdit() const { return before_; }
    QPlainTextEdit* afterEdit() const { return after_; }
    QAction* nextAction() const { return next_; }
    QAction* previousAction() const { return previous_; }
    int changeCount() const { return static_cast<int>(hunks_.size()); }
    int currentChange() const { return current_; }  // -1 before the first step
    // The rows on screen, as aligned: kind and line numbers (0-based, -1 for a filler).
    const std::vector<ir::DiffRow>& rows() const { return rows_; }
    // The row at the text cursor of the side that has focus last.
    int currentRow() const;
    void goToChange(int k);
    void goToRow(int row);

signals:
    // The user put the cursor on a row (either side).
    void rowActivated(int row);

private:
    void syncScroll(QPlainTextEdit* from, QPlainTextEdit* to);

    QPlainTextEdit* before_ = nullptr;
    QPlainTextEdit* after_ = nullptr;
    QLabel* status_ = nullptr;
    QAction* next_ = nullptr;
    QAction* previous_ = nullptr;
    std::vector<ir::DiffRow> rows_;
    std::vector<std::size_t> hunks_;
    int current_ = -1;
    bool syncing_ = false;
};

}  // namespace irscope::ui
