#include "busy_indicator.h"

#include <QHBoxLayout>
#include <QProgressBar>
#include <QToolButton>

namespace irscope::ui {

BusyIndicator::BusyIndicator(SessionController* controller, QWidget* parent)
    : QWidget(parent), controller_(controller) {
    setObjectName(QStringLiteral("busyIndicator"));
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    bar_ = new QProgressBar(this);
    bar_->setRange(0, 0);
    bar_->setMaximumWidth(160);
    bar_->setTextVisible(false);
    cancel_ = new QToolButton(this);
    cancel_->setObjectName(QStringLiteral("cancelButton"));
    cancel_->setText(tr("Cancel"));
    row->addWidget(bar_);
    row->addWidget(cancel_);
    hide();
    connect(cancel_, &QToolButton::clicked, controller_, &SessionController::cancel);
    connect(controller_, &SessionController::stateChanged, this, &BusyIndicator::onStateChanged);
    connect(controller_, &SessionController::folderProgress, this, [this](int done, int total) {
        bar_->setRange(0, total);
        bar_->setValue(done);
    });
}

void BusyIndicator::onStateChanged(SessionController::State s) {
    using State = SessionController::State;
    setVisible(s != State::Idle);
    cancel_->setEnabled(s == State::Running);
    cancel_->setToolTip(controller_->job() == SessionController::Job::Folder
                            ? tr("Stop reading the folder")
                            : tr("Stop the running script"));
    if (s == State::Idle) {
        bar_->setRange(0, 0);
    }
}

}  // namespace irscope::ui
