// The Pass timeline dock: the passes of the selected compile (opt_a's sub-passes indented)
// with Δnodes, time and a changed mark, a "Hide passes that changed nothing" toggle, step
// backward/forward actions (Alt+Left / Alt+Right) and the selected pass's plain-language
// description below the list.
#pragma once

#include <QDockWidget>

#include <memory>

#include "pass_timeline_model.h"

class QAction;
class QCheckBox;
class QLabel;
class QTableView;

namespace irscope::ui {

class PassTimelineDock : public QDockWidget {
    Q_OBJECT

public:
    explicit PassTimelineDock(QWidget* parent = nullptr);

    void setCompile(std::shared_ptr<const store::Session> owner,
                    const passes::CompileRecord* compile);
    PassTimelineModel* model() const { return model_; }
    QTableView* view() const { return view_; }
    QCheckBox* hideUnchangedBox() const { return hideUnchanged_; }
    QLabel* descriptionLabel() const { return description_; }
    // Alt+Left / Alt+Right; the main window puts them in its Passes menu.
    QAction* previousAction() const { return previous_; }
    QAction* nextAction() const { return next_; }

    int currentRow() const;
    void selectRow(int row);
    // The snapshot index (in the compile) of the selected row, or -1.
    int currentSnapshot() const;
    void step(int delta);

signals:
    // `snapshot` indexes the compile's snapshots (the compile last set).
    void snapshotSelected(int snapshot);

private:
    void onCurrentChanged();
    void updateActions();

    PassTimelineModel* model_ = nullptr;
    QTableView* view_ = nullptr;
    QCheckBox* hideUnchanged_ = nullptr;
    QLabel* description_ = nullptr;
    QAction* previous_ = nullptr;
    QAction* next_ = nullptr;
};

}  // namespace irscope::ui
