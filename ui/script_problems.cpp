#include "script_problems.h"

#include <QRegularExpression>
#include <QStringList>

namespace irscope::ui {

namespace {

// `f.py:3:6: SyntaxError: '(' was never closed` (or `: error: ...`) on the first line.
bool readDiagnostic(const QString& first, ScriptProblem* p) {
    static const QRegularExpression diag(
        QStringLiteral("^([^\\s:][^:]*):(\\d+):(\\d+): ([A-Za-z_]+): (.*)$"));
    const QRegularExpressionMatch m = diag.match(first);
    if (!m.hasMatch()) {
        return false;
    }
    p->file = m.captured(1);
    p->line = m.captured(2).toInt();
    p->column = m.captured(3).toInt();
    const QString kind = m.captured(4);
    p->message = kind == QLatin1String("error") ? m.captured(5) : kind + QStringLiteral(": ") + m.captured(5);
    p->raised = true;
    return true;
}

}  // namespace

QList<ScriptProblem> scriptProblems(const QString& error) {
    QList<ScriptProblem> out;
    const QStringList lines = error.split(QLatin1Char('\n'));
    if (lines.isEmpty()) {
        return out;
    }
    ScriptProblem diag;
    if (readDiagnostic(lines.front().trimmed(), &diag)) {
        out << diag;
        return out;
    }
    // The last traceback in the text (an exception raised while handling another prints two).
    int start = 0;
    for (int i = 0; i < lines.size(); ++i) {
        if (lines[i].startsWith(QLatin1String("Traceback (most recent call last)"))) {
            start = i;
        }
    }
    static const QRegularExpression frame(
        QStringLiteral("^\\s+File \"([^\"]+)\", line (\\d+)(?:, in (.+))?$"));
    int lastFrameLine = -1;
    for (int i = start; i < lines.size(); ++i) {
        const QRegularExpressionMatch m = frame.match(lines[i]);
        if (m.hasMatch()) {
            ScriptProblem p;
            p.file = m.captured(1);
            p.line = m.captured(2).toInt();
            p.function = m.captured(3).trimmed();
            out << p;
            lastFrameLine = i;
        }
    }
    // The exception: the first unindented line after the last frame, up to a blank line or
    // MindSpore's `----` rule.
    QStringList message;
    for (int i = lastFrameLine + 1; i < lines.size(); ++i) {
        const QString& l = lines[i];
        if (message.isEmpty()) {
            if (!l.isEmpty() && !l.front().isSpace() && !l.startsWith(QLatin1String("Traceback"))) {
                message << l.trimmed();
            }
            continue;
        }
        if (l.trimmed().isEmpty() || l.startsWith(QLatin1String("----"))) {
            break;
        }
        message << l.trimmed();
    }
    const QString text = message.join(QLatin1Char('\n'));
    for (ScriptProblem& p : out) {
        p.message = text;
    }
    if (!out.isEmpty()) {
        out.back().raised = true;
    }
    // MindSpore's construct-code block: `# 0 In file ce.py:8, 8~30` (line~lineEnd when the
    // code spans lines; 0-based columns, end exclusive). Entry 0 is where compiling failed.
    static const QRegularExpression construct(
        QStringLiteral("^# (\\d+) In file (.+):(\\d+)(?:~\\d+)?, (\\d+)~(\\d+)\\s*$"));
    for (const QString& l : lines) {
        const QRegularExpressionMatch m = construct.match(l);
        if (!m.hasMatch()) {
            continue;
        }
        ScriptProblem p;
        p.file = m.captured(2);
        p.line = m.captured(3).toInt();
        p.column = m.captured(4).toInt() + 1;
        p.columnEnd = m.captured(5).toInt() + 1;
        p.message = text;
        p.raised = m.captured(1) == QLatin1String("0");
        bool merged = false;
        for (ScriptProblem& f : out) {
            if (f.file == p.file && f.line == p.line && f.column == 0) {
                f.column = p.column;
                f.columnEnd = p.columnEnd;
                f.raised = f.raised || p.raised;
                merged = true;
                break;
            }
        }
        if (!merged) {
            out << p;
        }
    }
    if (out.isEmpty()) {
        // A located message of another shape (`f.py:12: error: ...`).
        static const QRegularExpression loose(QStringLiteral("^([^\\s:][^:\\n]*\\.py):(\\d+):"),
                                              QRegularExpression::MultilineOption);
        const QRegularExpressionMatch m = loose.match(error);
        if (m.hasMatch()) {
            ScriptProblem p;
            p.file = m.captured(1);
            p.line = m.captured(2).toInt();
            p.message = error.trimmed();
            p.raised = true;
            out << p;
        }
    }
    return out;
}

}  // namespace irscope::ui
