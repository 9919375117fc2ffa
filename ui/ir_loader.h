// Loads an .ir or MindIR (.mindir) file off the UI thread: read, parse or convert, print
// normalised text, count nodes and build what the graph view draws.
#pragma once

#include <QList>
#include <QString>

#include <memory>
#include <string_view>

#include "graph_model.h"
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
    std::shared_ptr<const GraphModel> graph;  // the graph view's model of `module`
    QString error;  // `file:line:col: error: ...` with the source line and caret
    // An encrypted MindIR file given no key, or a key (or mode) that does not decrypt it:
    // the window asks for the key (MindirKeyDialog) and loads again.
    bool needsKey = false;
    bool ok() const { return module != nullptr; }
};

// The key of an encrypted MindIR file: its bytes and MindSpore's dec_mode ("AES-GCM",
// "AES-CBC", "SM4-CBC"; empty: from the file's magic number).
struct MindirKey {
    QByteArray key;
    QString mode;
};

// Blocking; call it from a worker thread. Never throws. `key` opens an encrypted MindIR file.
LoadedIr loadIrFile(const QString& path, const MindirKey& key = {});
// The same for .ir text already in memory (a pass snapshot); `name` locates parse errors.
LoadedIr loadIrText(std::string_view text, const QString& name);

}  // namespace irscope::ui
