#include "mindir_key_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace irscope::ui {

MindirKeyDialog::MindirKeyDialog(const QString& file, const QString& reason, QWidget* parent)
    : QDialog(parent), file_(file) {
    setObjectName(QStringLiteral("mindirKeyDialog"));
    setWindowTitle(tr("Encrypted MindIR: %1").arg(QFileInfo(file).fileName()));
    auto* layout = new QVBoxLayout(this);
    reason_ = new QLabel(reason, this);
    reason_->setObjectName(QStringLiteral("reason"));
    reason_->setWordWrap(true);
    reason_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(reason_);
    auto* form = new QFormLayout;
    keyEdit_ = new QLineEdit(this);
    keyEdit_->setObjectName(QStringLiteral("key"));
    keyEdit_->setEchoMode(QLineEdit::Password);
    keyEdit_->setPlaceholderText(tr("the enc_key it was exported with (16, 24 or 32 bytes)"));
    form->addRow(tr("&Key:"), keyEdit_);
    auto* show = new QCheckBox(tr("&Show the key"), this);
    connect(show, &QCheckBox::toggled, this, [this](bool on) {
        keyEdit_->setEchoMode(on ? QLineEdit::Normal : QLineEdit::Password);
    });
    form->addRow(QString(), show);
    layout->addLayout(form);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    open_ = buttons->button(QDialogButtonBox::Open);
    open_->setEnabled(false);
    connect(keyEdit_, &QLineEdit::textChanged, this,
            [this](const QString& t) { open_->setEnabled(!t.isEmpty()); });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

QByteArray MindirKeyDialog::key() const {
    return keyEdit_->text().toUtf8();
}

}  // namespace irscope::ui
