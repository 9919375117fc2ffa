// Asks for the key of an encrypted MindIR file (the enc_key it was exported with), showing
// why: the file is encrypted, or the last key did not decrypt it. The cipher comes from the
// file's magic number (AES-GCM, AES-CBC, SM4-CBC), so only the key is asked for.
#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;

namespace irscope::ui {

class MindirKeyDialog : public QDialog {
    Q_OBJECT

public:
    // `file` is the file's path, `reason` the reader's message (encrypted / wrong key).
    MindirKeyDialog(const QString& file, const QString& reason, QWidget* parent = nullptr);

    QByteArray key() const;  // the key as typed, UTF-8 (MindSpore's enc_key is bytes of text)
    QString file() const { return file_; }
    QLineEdit* keyEdit() const { return keyEdit_; }
    QPushButton* openButton() const { return open_; }
    QLabel* reasonLabel() const { return reason_; }

private:
    QString file_;
    QLabel* reason_ = nullptr;
    QLineEdit* keyEdit_ = nullptr;
    QPushButton* open_ = nullptr;
};

}  // namespace irscope::ui
