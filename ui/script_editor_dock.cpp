#include "script_editor_dock.h"

#include <QAction>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QListWidget>
#include <QMessageBox>
#include <QMouseEvent>
#include <QSaveFile>
#include <QSplitter>
#include <QToolBar>
#include <QVBoxLayout>

#include <utility>

#include <algorithm>

#include <Qsci/qscilexerpython.h>
#include <Qsci/qsciscintilla.h>
#include <Qsci/qscistyle.h>

namespace irscope::ui {

namespace {

// Marker numbers (QScintilla has 32; the lexer uses none).
constexpr int kErrorMarker = 0;      // margin: where the error was raised
constexpr int kFrameMarker = 1;      // margin: a call that led to it
constexpr int kErrorLineMarker = 2;  // background tint of the error's line
constexpr int kNodeLineMarker = 3;   // background of the line showLocation() highlights
constexpr int kSymbolMargin = 1;
constexpr int kErrorIndicator = 8;  // squiggle under the failing code

constexpr int kProblemLineRole = Qt::UserRole + 1;  // 1-based line, 0 when not in the script

// Breaks a long message into lines of at most `width` characters for an annotation.
QString wrapped(const QString& text, int width = 100) {
    QStringList out;
    for (const QString& para : text.split(QLatin1Char('\n'))) {
        QString line;
        for (const QString& word : para.split(QLatin1Char(' '))) {
            if (!line.isEmpty() && line.size() + 1 + word.size() > width) {
                out << line;
                line.clear();
            }
            line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
        }
        out << line;
    }
    return out.join(QLatin1Char('\n'));
}

}  // namespace

ScriptEditorDock::ScriptEditorDock(QWidget* parent) : QDockWidget(tr("Script"), parent) {
    setObjectName(QStringLiteral("scriptEditorDock"));
    auto* body = new QWidget(this);
    auto* column = new QVBoxLayout(body);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);

    auto* bar = new QToolBar(body);
    bar->setObjectName(QStringLiteral("scriptToolBar"));
    save_ = bar->addAction(tr("&Save Script"));
    save_->setObjectName(QStringLiteral("saveScript"));
    save_->setShortcut(QKeySequence::Save);
    // Only while the editor has focus: other panels may save other things.
    save_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    save_->setToolTip(tr("Save the script (Ctrl+S, in the editor)"));
    save_->setEnabled(false);
    run_ = bar->addAction(tr("&Run Script"));
    run_->setObjectName(QStringLiteral("runScript"));
    // Its key, Ctrl+R, is the Run menu's Run Again, which runs the editor's text too.
    run_->setToolTip(tr("Run the script as it is in the editor, saved or not (Ctrl+R)"));
    run_->setEnabled(false);
    addAction(save_);
    addAction(run_);
    connect(save_, &QAction::triggered, this, [this] {
        QString error;
        if (!save(&error)) {
            QMessageBox::warning(this, tr("Save Script"), error);
        }
    });
    connect(run_, &QAction::triggered, this, &ScriptEditorDock::runRequested);

    auto* split = new QSplitter(Qt::Vertical, body);
    editor_ = new QsciScintilla(split);
    editor_->setObjectName(QStringLiteral("scriptEditor"));
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    auto* lexer = new QsciLexerPython(editor_);
    lexer->setDefaultFont(mono);
    lexer->setFont(mono);
    editor_->setLexer(lexer);
    editor_->setUtf8(true);
    editor_->setIndentationsUseTabs(false);
    editor_->setTabWidth(4);
    editor_->setAutoIndent(true);
    editor_->setBraceMatching(QsciScintilla::SloppyBraceMatch);
    editor_->setMarginType(0, QsciScintilla::NumberMargin);
    editor_->setMarginLineNumbers(0, true);
    editor_->setMarginsFont(mono);
    editor_->setMarginWidth(0, QStringLiteral("00000"));
    editor_->setMarginType(kSymbolMargin, QsciScintilla::SymbolMargin);
    editor_->setMarginWidth(kSymbolMargin, 16);
    editor_->setMarginMarkerMask(kSymbolMargin, (1 << kErrorMarker) | (1 << kFrameMarker));
    editor_->setMarginMarkerMask(0, 0);
    editor_->setCaretLineVisible(true);
    editor_->markerDefine(QsciScintilla::Circle, kErrorMarker);
    editor_->setMarkerBackgroundColor(QColor(0xd0, 0x30, 0x30), kErrorMarker);
    editor_->setMarkerForegroundColor(QColor(0x90, 0x10, 0x10), kErrorMarker);
    editor_->markerDefine(QsciScintilla::RightArrow, kFrameMarker);
    editor_->setMarkerBackgroundColor(QColor(0xe0, 0x90, 0x30), kFrameMarker);
    editor_->setMarkerForegroundColor(QColor(0xa0, 0x60, 0x10), kFrameMarker);
    editor_->markerDefine(QsciScintilla::Background, kErrorLineMarker);
    editor_->markerDefine(QsciScintilla::Background, kNodeLineMarker);
    editor_->indicatorDefine(QsciScintilla::SquiggleIndicator, kErrorIndicator);
    editor_->setIndicatorForegroundColor(QColor(0xd0, 0x20, 0x20), kErrorIndicator);
    editor_->setAnnotationDisplay(QsciScintilla::AnnotationBoxed);
    annotationStyle_ = new QsciStyle(-1, QStringLiteral("error annotation"), QColor(0x7a, 0x10, 0x10),
                                     QColor(0xfd, 0xe8, 0xe8), mono);
    applyPalette();
    editor_->viewport()->installEventFilter(this);
    connect(editor_, &QsciScintilla::modificationChanged, this, &ScriptEditorDock::updateTitle);
    connect(editor_, &QsciScintilla::cursorPositionChanged, this, &ScriptEditorDock::onCursorMoved);

    problemList_ = new QListWidget(split);
    problemList_->setObjectName(QStringLiteral("scriptProblems"));
    problemList_->setFont(mono);
    problemList_->hide();
    connect(problemList_, &QListWidget::itemActivated, this, &ScriptEditorDock::activateProblem);
    connect(problemList_, &QListWidget::itemClicked, this, &ScriptEditorDock::activateProblem);
    split->addWidget(editor_);
    split->addWidget(problemList_);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);

    column->addWidget(bar);
    column->addWidget(split);
    setWidget(body);
    updateTitle();
}

ScriptEditorDock::~ScriptEditorDock() { delete annotationStyle_; }

void ScriptEditorDock::changeEvent(QEvent* event) {
    QDockWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
    }
}

void ScriptEditorDock::applyPalette() {
    const QPalette pal = palette();
    const QColor paper = pal.color(QPalette::Base);
    const QColor text = pal.color(QPalette::Text);
    const bool dark = paper.lightness() < 128;
    auto* lexer = static_cast<QsciLexerPython*>(editor_->lexer());
    // The lexer's own colours suit a white page; a dark page gets lighter ones.
    using L = QsciLexerPython;
    const std::pair<int, QColor> darkColors[] = {
        {L::Comment, QColor(0x8a, 0xa8, 0x7e)},          {L::CommentBlock, QColor(0x8a, 0xa8, 0x7e)},
        {L::Number, QColor(0xe0, 0xa0, 0x6a)},           {L::Keyword, QColor(0x82, 0xaa, 0xe8)},
        {L::DoubleQuotedString, QColor(0xe6, 0xba, 0x78)}, {L::SingleQuotedString, QColor(0xe6, 0xba, 0x78)},
        {L::TripleSingleQuotedString, QColor(0xd6, 0xae, 0x70)},
        {L::TripleDoubleQuotedString, QColor(0xd6, 0xae, 0x70)},
        {L::DoubleQuotedFString, QColor(0xe6, 0xba, 0x78)}, {L::SingleQuotedFString, QColor(0xe6, 0xba, 0x78)},
        {L::TripleSingleQuotedFString, QColor(0xd6, 0xae, 0x70)},
        {L::TripleDoubleQuotedFString, QColor(0xd6, 0xae, 0x70)},
        {L::ClassName, QColor(0x74, 0xc8, 0xb6)},        {L::FunctionMethodName, QColor(0xe8, 0xd0, 0x78)},
        {L::UnclosedString, QColor(0xff, 0x8a, 0x8a)},   {L::HighlightedIdentifier, QColor(0xc8, 0xa0, 0xe0)},
        {L::Decorator, QColor(0xc0, 0xd0, 0x60)},
    };
    for (int style = 0; style <= L::TripleDoubleQuotedFString; ++style) {
        lexer->setColor(dark ? text : lexer->defaultColor(style), style);
    }
    if (dark) {
        for (const auto& [style, color] : darkColors) {
            lexer->setColor(color, style);
        }
    }
    lexer->setPaper(paper);
    lexer->setDefaultPaper(paper);
    lexer->setDefaultColor(text);
    editor_->setCaretForegroundColor(text);
    editor_->setCaretLineBackgroundColor(dark ? QColor(0x2c, 0x31, 0x3a) : QColor(0xf2, 0xf5, 0xfa));
    editor_->setMarginsBackgroundColor(pal.color(QPalette::Window));
    editor_->setMarginsForegroundColor(pal.color(QPalette::PlaceholderText));
    editor_->setMarkerBackgroundColor(dark ? QColor(0x52, 0x24, 0x28) : QColor(0xfd, 0xe4, 0xe4), kErrorLineMarker);
    editor_->setMarkerBackgroundColor(dark ? QColor(0x24, 0x3c, 0x5e) : QColor(0xdc, 0xe9, 0xfb), kNodeLineMarker);
    annotationStyle_->setColor(dark ? QColor(0xff, 0xb4, 0xb4) : QColor(0x7a, 0x10, 0x10));
    annotationStyle_->setPaper(dark ? QColor(0x3c, 0x1e, 0x22) : QColor(0xfd, 0xe8, 0xe8));
    for (int line = 0; line < editor_->lines(); ++line) {  // annotations shown take the new colours
        if (const QString note = editor_->annotation(line); !note.isEmpty()) {
            editor_->annotate(line, note, *annotationStyle_);
        }
    }
}

bool ScriptEditorDock::openScript(const QString& path, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error != nullptr) {
            *error = tr("%1: error: cannot open file: %2").arg(path, f.errorString());
        }
        return false;
    }
    showScript(path, QString::fromUtf8(f.readAll()));
    return true;
}

void ScriptEditorDock::showScript(const QString& path, const QString& text) {
    path_ = path;
    programmatic_ = true;
    editor_->setText(text);
    editor_->setCursorPosition(0, 0);
    programmatic_ = false;
    lastLine_ = 0;
    editor_->setModified(false);
    setProblems({});
    clearLocation();
    save_->setEnabled(true);
    run_->setEnabled(true);
    updateTitle();
}

QString ScriptEditorDock::text() const { return editor_->text(); }

bool ScriptEditorDock::isModified() const { return editor_->isModified(); }

int ScriptEditorDock::cursorLine() const {
    int line = 0;
    int index = 0;
    editor_->getCursorPosition(&line, &index);
    return line + 1;
}

bool ScriptEditorDock::save(QString* error) {
    if (path_.isEmpty()) {
        if (error != nullptr) {
            *error = tr("No script is open.");
        }
        return false;
    }
    QSaveFile f(path_);
    const QByteArray bytes = editor_->text().toUtf8();
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        if (error != nullptr) {
            *error = tr("%1: error: cannot save: %2").arg(path_, f.errorString());
        }
        return false;
    }
    editor_->setModified(false);
    emit saved(path_);
    return true;
}

bool ScriptEditorDock::maybeSave() {
    if (!isModified()) {
        return true;
    }
    const auto answer = QMessageBox::question(
        this, tr("Unsaved Script"),
        tr("%1 has unsaved changes. Save them?").arg(QFileInfo(path_).fileName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel) {
        return false;
    }
    if (answer == QMessageBox::Save) {
        QString error;
        if (!save(&error)) {
            QMessageBox::warning(this, tr("Save Script"), error);
            return false;
        }
    }
    return true;
}

void ScriptEditorDock::updateTitle() {
    const QString name = path_.isEmpty() ? tr("Script") : tr("Script — %1").arg(QFileInfo(path_).fileName());
    setWindowTitle(isModified() ? name + QStringLiteral(" *") : name);
}

bool ScriptEditorDock::isScriptFile(const QString& file) const {
    if (path_.isEmpty() || file.isEmpty()) {
        return false;
    }
    if (file == path_) {
        return true;
    }
    // Locations keep the path as the run was given it (relative to the working directory).
    const QFileInfo a(file);
    const QFileInfo b(path_);
    if (a.absoluteFilePath() == b.absoluteFilePath()) {
        return true;
    }
    const QString ca = a.canonicalFilePath();
    return !ca.isEmpty() && ca == b.canonicalFilePath();
}

void ScriptEditorDock::setProblems(const QList<ScriptProblem>& problems) {
    problems_ = problems;
    editor_->markerDeleteAll(kErrorMarker);
    editor_->markerDeleteAll(kFrameMarker);
    editor_->markerDeleteAll(kErrorLineMarker);
    editor_->clearAnnotations();
    editor_->clearIndicatorRange(0, 0, std::max(0, editor_->lines() - 1),
                                 editor_->lineLength(std::max(0, editor_->lines() - 1)), kErrorIndicator);
    problemList_->clear();
    problemList_->setVisible(!problems.isEmpty());
    // The error's line in this script: the last problem raised here, else the innermost
    // frame here (the error happened in another file, called from this line).
    int primary = -1;
    for (int i = 0; i < problems.size(); ++i) {
        if (isScriptFile(problems[i].file) && problems[i].line > 0 &&
            (problems[i].raised || primary < 0 || !problems[primary].raised)) {
            primary = i;
        }
    }
    for (int i = 0; i < problems.size(); ++i) {
        const ScriptProblem& p = problems[i];
        const bool here = isScriptFile(p.file) && p.line > 0 && p.line <= editor_->lines();
        QString where = QStringLiteral("%1:%2").arg(p.file).arg(p.line);
        if (p.column > 0) {
            where += QStringLiteral(":%1").arg(p.column);
        }
        const QString in = p.function.isEmpty() ? QString() : tr(" in %1").arg(p.function);
        auto* item = new QListWidgetItem(
            i == primary || (p.raised && !here)
                ? QStringLiteral("%1%2: %3").arg(where, in, p.message.section(QLatin1Char('\n'), 0, 0))
                : tr("%1%2: called from here").arg(where, in),
            problemList_);
        item->setData(kProblemLineRole, here ? p.line : 0);
        item->setToolTip(here ? p.message : tr("%1 (not the opened script)\n%2").arg(p.file, p.message));
        if (!here) {
            item->setForeground(QColor(0x70, 0x70, 0x70));
            continue;
        }
        const int line = p.line - 1;
        if (i == primary) {
            editor_->markerAdd(line, kErrorMarker);
            editor_->markerAdd(line, kErrorLineMarker);
            editor_->annotate(line, wrapped(p.message), *annotationStyle_);
            // Underline the failing code: its columns, else the line without its indent.
            const QString text = editor_->text(line);
            int to = static_cast<int>(text.size());
            while (to > 0 && text[to - 1].isSpace()) {
                --to;
            }
            int from = 0;
            while (from < to && text[from].isSpace()) {
                ++from;
            }
            if (p.column > 0) {
                from = std::min(p.column - 1, to);
                if (p.columnEnd > p.column) {
                    to = std::min(p.columnEnd - 1, to);
                }
            }
            if (from < to) {
                editor_->fillIndicatorRange(line, from, line, to, kErrorIndicator);
            }
        } else {
            editor_->markerAdd(line, kFrameMarker);
        }
    }
    if (primary >= 0) {
        const int line = problems[primary].line - 1;
        editor_->ensureLineVisible(line);
        programmatic_ = true;
        editor_->setCursorPosition(line, 0);
        programmatic_ = false;
        lastLine_ = line;
    }
}

QList<int> ScriptEditorDock::markerLines(int marker) const {
    QList<int> out;
    for (int l = editor_->markerFindNext(0, 1 << marker); l >= 0; l = editor_->markerFindNext(l + 1, 1 << marker)) {
        out << l + 1;
    }
    return out;
}

QList<int> ScriptEditorDock::errorLines() const { return markerLines(kErrorMarker); }

QList<int> ScriptEditorDock::frameLines() const { return markerLines(kFrameMarker); }

QString ScriptEditorDock::annotationAt(int line) const { return editor_->annotation(line - 1); }

void ScriptEditorDock::activateProblem(QListWidgetItem* item) {
    const int line = item != nullptr ? item->data(kProblemLineRole).toInt() : 0;
    if (line > 0) {
        editor_->setFocus();
        goToLine(line);
    }
}

void ScriptEditorDock::showLocation(const QString& file, int line) {
    if (!isScriptFile(file) || line <= 0 || line > editor_->lines()) {
        clearLocation();
        return;
    }
    editor_->markerDeleteAll(kNodeLineMarker);
    editor_->markerAdd(line - 1, kNodeLineMarker);
    highlighted_ = line;
    programmatic_ = true;
    int cur = 0;
    int index = 0;
    editor_->getCursorPosition(&cur, &index);
    if (cur != line - 1) {
        editor_->setCursorPosition(line - 1, 0);
    }
    programmatic_ = false;
    lastLine_ = line - 1;
    editor_->ensureLineVisible(line - 1);
}

void ScriptEditorDock::clearLocation() {
    editor_->markerDeleteAll(kNodeLineMarker);
    highlighted_ = 0;
}

void ScriptEditorDock::goToLine(int line) {
    if (line <= 0 || line > editor_->lines()) {
        return;
    }
    const bool same = lastLine_ == line - 1;
    editor_->setCursorPosition(line - 1, 0);  // emits lineSelected when the line changes
    editor_->ensureLineVisible(line - 1);
    if (same) {
        emitLine(line - 1);
    }
}

void ScriptEditorDock::onCursorMoved(int line, int) {
    if (programmatic_ || line == lastLine_) {
        return;
    }
    emitLine(line);
}

void ScriptEditorDock::emitLine(int line) {
    lastLine_ = line;
    emittedSincePress_ = true;
    emit lineSelected(line + 1);
}

// A click on the line the cursor is already on selects its nodes again.
bool ScriptEditorDock::eventFilter(QObject* watched, QEvent* event) {
    if (watched == editor_->viewport()) {
        if (event->type() == QEvent::MouseButtonPress) {
            emittedSincePress_ = false;
        } else if (event->type() == QEvent::MouseButtonRelease && !emittedSincePress_ && !path_.isEmpty()) {
            emitLine(cursorLine() - 1);
        }
    }
    return QDockWidget::eventFilter(watched, event);
}

}  // namespace irscope::ui
