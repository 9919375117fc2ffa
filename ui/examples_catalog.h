// Help ▸ Examples: the bundled examples (resources/examples) with what to look at in each.
// The text lives with the examples, once: the menu title is the script's `Shows` cell in
// resources/examples/README.md, the explanation its opening comment; examples.json gives
// the menu order and what to select once the example is open (compile, pass) and the run
// settings it needs (an .ir file's explanation is its `note` there).
#pragma once

#include <QList>
#include <QMap>
#include <QString>

namespace irscope::ui {

struct ExampleInfo {
    QString file;         // absolute path
    QString name;         // "if_vs_select.py"
    QString title;        // "`ops.select` instead of `if` on a tensor" (README), or the name
    QString explanation;  // the opening comment without its '#' marks, or the note
    int compile = -1;     // the compile to select, -1: none
    QString pass;         // the pass to select in it ("" : none)
    QMap<QString, int> settings;  // MS_DEV_* the example must run with
};

// The folder holding the bundled examples: $IRSCOPE_EXAMPLES_DIR if set, else
// <app dir>/../share/irscope/examples if it exists, else the source tree's.
QString examplesDir();

// Reads examples.json and README.md of `dir`. On a problem (missing or malformed
// manifest, a listed file that does not exist) returns what it could and sets `error`.
QList<ExampleInfo> loadExamples(const QString& dir, QString* error);

// The guide banner's text for `e`: its name, title, explanation and run settings (HTML).
QString guideHtml(const ExampleInfo& e);

// The leading comment block of a script: '#' and one space stripped per line; the first
// line that is not a comment ends it.
QString openingComment(const QString& scriptText);

}  // namespace irscope::ui
