// One selection across the window's panels: a node selected in the graph view, on its line of
// the IR text, in the node inspector or through its script line in the editor is selected in
// all of them (the graph view selects it, the IR text shows its line, the inspector its
// details, the editor its innermost script location). Widget-free itself: it links the panels.
#pragma once

#include <QObject>
#include <QStringList>

#include <vector>

#include "ir_loader.h"

class QPlainTextEdit;

namespace irscope::store {
struct Session;
}

namespace irscope::ui {

class GraphView;
class NodeInspectorDock;
class ScriptEditorDock;

class SelectionSync : public QObject {
    Q_OBJECT

public:
    enum class Origin { Graph, IrText, Source, Inspector };

    SelectionSync(GraphView* graph, QPlainTextEdit* irText, NodeInspectorDock* inspector,
                  ScriptEditorDock* editor, QObject* parent = nullptr);

    // The document shown (its text is in the IR text view); null: none. Not owned.
    void setDocument(const LoadedIr* doc);
    // `nodes` (the first one current) are selected everywhere but in `from`.
    void sync(const std::vector<const ir::Node*>& nodes, Origin from);
    // The script's line `line` (1-based): selects the nodes created from it in the IR shown,
    // unless `ran` (the session shown) ran another text than the editor's.
    void selectSourceLine(int line, const store::Session* ran);
    // After another IR of the same script is shown: the line selected last, again (what the
    // pass made of its nodes). False when no line was selected last.
    bool reselectSourceLine();
    void forgetSourceLine() { sourceLine_ = 0; }
    // Scrolls the IR text to the graph `row` (in LoadedIr::graphs).
    void jumpToGraph(int row);

signals:
    void message(const QString& text);

private:
    void showNodeInText(const ir::Node* node);
    void selectNodeAtCursor();
    std::vector<const ir::Node*> nodesAtSourceLine(int line) const;

    GraphView* graph_;
    QPlainTextEdit* irText_;
    NodeInspectorDock* inspector_;
    ScriptEditorDock* editor_;
    const LoadedIr* doc_ = nullptr;
    QStringList textLines_;
    bool syncing_ = false;
    // The script line whose nodes were selected last (0: the selection came from elsewhere).
    int sourceLine_ = 0;
};

}  // namespace irscope::ui
