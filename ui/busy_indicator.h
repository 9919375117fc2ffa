// The status bar's busy indicator: shown while the session controller runs a job, with a
// progress bar (a folder read's files; otherwise indefinite) and Cancel.
#pragma once

#include <QWidget>

#include "session_controller.h"

class QProgressBar;
class QToolButton;

namespace irscope::ui {

class BusyIndicator : public QWidget {
    Q_OBJECT

public:
    // Follows `controller`'s state and progress; Cancel cancels its job.
    BusyIndicator(SessionController* controller, QWidget* parent = nullptr);
    QToolButton* cancelButton() const { return cancel_; }

private:
    void onStateChanged(SessionController::State s);

    SessionController* controller_;
    QProgressBar* bar_ = nullptr;
    QToolButton* cancel_ = nullptr;
};

}  // namespace irscope::ui
