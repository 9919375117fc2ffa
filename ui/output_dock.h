// The Output dock: what the opened script printed (print(), graph prints, tracebacks).
#pragma once

#include <QDockWidget>

class QPlainTextEdit;

namespace irscope::ui {

class OutputDock : public QDockWidget {
    Q_OBJECT

public:
    explicit OutputDock(QWidget* parent = nullptr);

    void clear();
    void append(const QString& text);  // raw text, newlines included
    QString text() const;
    QPlainTextEdit* view() const { return view_; }

private:
    QPlainTextEdit* view_ = nullptr;
};

}  // namespace irscope::ui
