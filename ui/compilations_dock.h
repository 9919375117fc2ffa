// The Compilations dock: every compile the opened script's run triggered, in order.
// Selecting one shows its passes in the Pass timeline.
#pragma once

#include <QDockWidget>

#include <memory>

#include "compilations_model.h"

class QTableView;

namespace irscope::ui {

class CompilationsDock : public QDockWidget {
    Q_OBJECT

public:
    explicit CompilationsDock(QWidget* parent = nullptr);

    void setSession(std::shared_ptr<const store::Session> s);
    CompilationsModel* model() const { return model_; }
    QTableView* view() const { return view_; }
    int currentRow() const;
    void selectRow(int row);

signals:
    // `index` is the compile's in the session last set (its row); -1 when the selection is cleared.
    void compileSelected(int index);

private:
    CompilationsModel* model_ = nullptr;
    QTableView* view_ = nullptr;
};

}  // namespace irscope::ui
