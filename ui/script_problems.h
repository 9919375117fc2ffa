// The located problems of a failed script run, read from the error text the interpreter
// wrote: a syntax error's `file:line:col: SyntaxError: message`, every frame of a Python
// traceback (`File "f.py", line N, in fn`) with the exception line, and the entries of
// MindSpore's "The Traceback of Net Construct Code" block (`# 0 In file f.py:8, 8~30`),
// which add the column range of the construct code that failed to compile.
#pragma once

#include <QList>
#include <QString>

namespace irscope::ui {

struct ScriptProblem {
    QString file;
    int line = 0;       // 1-based
    int column = 0;     // 1-based first column; 0 when unknown
    int columnEnd = 0;  // 1-based column after the last; 0 when unknown
    QString message;    // "ZeroDivisionError: division by zero"; the error's message on every frame
    QString function;   // the frame's function ("<module>", "construct"); empty for a diagnostic
    // Where the error was raised (a diagnostic, the innermost frame, a construct-code
    // entry); false for the frames that called it.
    bool raised = false;
};

// In the order the text lists them (a traceback's outermost frame first); duplicates (a
// construct-code entry naming a frame's line) are merged into the frame. Empty when the
// text names no location.
QList<ScriptProblem> scriptProblems(const QString& error);

}  // namespace irscope::ui
