// The Script dock: the opened .py script in a QScintilla editor (Python lexer, line numbers,
// current-line highlight) that can be edited, saved (Ctrl+S) and run again (Ctrl+R; the run uses
// the editor's text, saved or not, under the script's path, so tracebacks name the lines
// shown). A failed run's problems are marked on their lines: a red margin marker, the line
// tinted, the failing code underlined and the message in an annotation below it; frames
// that called it get an arrow. Every problem, those in other files included, is listed
// under the editor (a click goes to the line). showLocation() highlights a line from
// outside (the selected node's source line, the current node of a run); putting the cursor
// on a line, or clicking one, emits lineSelected() so the window selects that line's nodes.
// The colours follow the palette: a dark palette gets a dark editor.
#pragma once

#include <QDockWidget>
#include <QList>

#include "script_problems.h"

class QAction;
class QLabel;
class QListWidget;
class QListWidgetItem;
class QsciScintilla;
class QsciStyle;

namespace irscope::ui {

class ScriptEditorDock : public QDockWidget {
    Q_OBJECT

public:
    explicit ScriptEditorDock(QWidget* parent = nullptr);
    ~ScriptEditorDock() override;

    // Loads `path` into the editor (unmodified, problems cleared). False, with the reason in
    // *error, when it cannot be read; the editor keeps what it had.
    bool openScript(const QString& path, QString* error = nullptr);
    // Shows `text` as the script at `path` (unmodified): a saved session's copy of its script.
    void showScript(const QString& path, const QString& text);
    QString path() const { return path_; }
    QString text() const;
    bool isModified() const;
    // Writes the text to path(); false (the reason in *error) when it cannot.
    bool save(QString* error = nullptr);
    // When modified, asks whether to save, discard or cancel: false on cancel (or a failed
    // save), true when the caller may go on.
    bool maybeSave();

    // Marks `problems` (from the last run; replaces earlier ones) and scrolls to the line of
    // the first one raised in this script. Empty clears them.
    void setProblems(const QList<ScriptProblem>& problems);
    const QList<ScriptProblem>& problems() const { return problems_; }
    // 1-based lines carrying the error marker (where the error was raised) and the frame
    // marker (a call that led to it).
    QList<int> errorLines() const;
    QList<int> frameLines() const;
    // The annotation shown under 1-based `line` (empty when none).
    QString annotationAt(int line) const;

    // Whether `file`, as a node location or traceback names it, is the opened script.
    bool isScriptFile(const QString& file) const;
    // The 1-based line showLocation() highlights, 0 when none.
    int highlightedLine() const { return highlighted_; }
    // The 1-based line of the cursor.
    int cursorLine() const;

    QsciScintilla* editor() const { return editor_; }
    QListWidget* problemList() const { return problemList_; }
    QAction* saveAction() const { return save_; }
    QAction* runAction() const { return run_; }

public slots:
    // Highlights 1-based `line` of `file` and moves the cursor there when `file` is the
    // opened script (without emitting lineSelected); otherwise clears the highlight.
    void showLocation(const QString& file, int line);
    void clearLocation();
    // Moves the cursor to 1-based `line` as a user would, emitting lineSelected.
    void goToLine(int line);

signals:
    // The Run action: the window runs text() as path().
    void runRequested();
    // The user put the cursor on (or clicked) 1-based `line`.
    void lineSelected(int line);
    void saved(const QString& path);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void updateTitle();
    // Colours of the text, margins, caret line and markers for the palette (light or dark).
    void applyPalette();
    QList<int> markerLines(int marker) const;  // 1-based lines carrying `marker`
    void onCursorMoved(int line, int index);
    void emitLine(int line);
    void activateProblem(QListWidgetItem* item);

    QsciScintilla* editor_ = nullptr;
    QListWidget* problemList_ = nullptr;
    QsciStyle* annotationStyle_ = nullptr;
    QAction* save_ = nullptr;
    QAction* run_ = nullptr;
    QString path_;
    QList<ScriptProblem> problems_;
    int highlighted_ = 0;
    int lastLine_ = -1;          // 0-based line of the last cursor move seen
    bool programmatic_ = false;  // the cursor is being moved by showLocation
    bool emittedSincePress_ = false;
};

}  // namespace irscope::ui
