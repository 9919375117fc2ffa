// Loads an .ir file off the UI thread: read, parse, print normalised text, count nodes.
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <memory>

#include "ir/module.h"

namespace irscope::ui {

struct GraphSummary {
    QString name;
    int parameters = 0;
    int cnodes = 0;
    int textLine = 0;  // 0-based line of `subgraph @name` in the normalised text
};

struct LoadedIr {
    QString path;
    std::shared_ptr<const ir::Module> module;  // null when loading failed
    QString text;                              // normalised .ir text
    QList<GraphSummary> graphs;                // in printed order
    ir::NodeCounts counts;
    QByteArray svg;       // the graph drawn by Graphviz; empty when too large or not drawn
    QString graphNote;    // why there is no drawing, when there is none
    QString error;  // `file:line:col: error: ...` with the source line and caret
    bool ok() const { return module != nullptr; }
};

// Largest module (in CNodes) drawn when a file is opened. Bigger ones need the grouped,
// collapsible graph view of the desktop-app issue: dot takes seconds to minutes past this.
inline constexpr std::size_t kMaxDrawnCNodes = 1500;

// Blocking; call it from a worker thread. Never throws.
LoadedIr loadIrFile(const QString& path);

}  // namespace irscope::ui
