#include "selection_sync.h"

#include <QFileInfo>
#include <QHash>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QTextBlock>

#include <algorithm>
#include <limits>

#include "graph_view.h"
#include "node_inspector_dock.h"
#include "script_editor_dock.h"
#include "store/session.h"

namespace irscope::ui {

SelectionSync::SelectionSync(GraphView* graph, QPlainTextEdit* irText, NodeInspectorDock* inspector,
                             ScriptEditorDock* editor, QObject* parent)
    : QObject(parent), graph_(graph), irText_(irText), inspector_(inspector), editor_(editor) {
    connect(graph_, &GraphView::nodeSelected, this,
            [this](const ir::Node* n) { sync({n}, Origin::Graph); });
    connect(irText_, &QPlainTextEdit::cursorPositionChanged, this,
            &SelectionSync::selectNodeAtCursor);
    connect(inspector_, &NodeInspectorDock::nodeActivated, this,
            [this](const ir::Node* n) { sync({n}, Origin::Inspector); });
}

void SelectionSync::setDocument(const LoadedIr* doc) {
    doc_ = doc;
    textLines_ = doc != nullptr ? doc->text.split(QLatin1Char('\n')) : QStringList();
}

void SelectionSync::jumpToGraph(int row) {
    if (doc_ == nullptr || row < 0 || row >= doc_->graphs.size()) {
        return;
    }
    QTextCursor cursor(irText_->document()->findBlockByNumber(doc_->graphs[row].textLine));
    irText_->setTextCursor(cursor);
    irText_->centerCursor();
}

void SelectionSync::showNodeInText(const ir::Node* node) {
    if (node == nullptr || syncing_ || doc_ == nullptr) {
        return;
    }
    const GraphModel& model = graph_->model();
    const int k = model.indexOf(node);
    if (k < 0) {
        return;
    }
    const ModelNode& mn = model.nodes()[static_cast<std::size_t>(k)];
    // A constant has no line of its own: show its user's.
    const int named = mn.user != nullptr ? model.indexOf(mn.user) : k;
    const ModelNode& target = model.nodes()[static_cast<std::size_t>(named)];
    int from = 0;
    for (int g = target.group; g >= 0; g = model.group(g).parent) {
        if (model.group(g).isGraph) {
            for (const GraphSummary& s : doc_->graphs) {
                if (QStringLiteral("@") + s.name == model.group(g).title) {
                    from = s.textLine;
                }
            }
        }
    }
    const int line = findNodeLine(textLines_, from, target.name);
    if (line < 0) {
        return;
    }
    syncing_ = true;
    irText_->setTextCursor(QTextCursor(irText_->document()->findBlockByNumber(line)));
    irText_->centerCursor();
    syncing_ = false;
}

void SelectionSync::selectNodeAtCursor() {
    if (syncing_ || doc_ == nullptr || !doc_->ok()) {
        return;
    }
    const int line = irText_->textCursor().blockNumber();
    static const QRegularExpression lead(QStringLiteral("^\\s*(%[A-Za-z0-9_]+)[ (:]"));
    const QRegularExpressionMatch m = lead.match(irText_->textCursor().block().text());
    if (!m.hasMatch()) {
        return;
    }
    // The graph whose section holds the line.
    QString graph;
    for (const GraphSummary& s : doc_->graphs) {
        if (s.textLine <= line) {
            graph = QStringLiteral("@") + s.name;
        }
    }
    const QString name = m.captured(1);
    const GraphModel& model = graph_->model();
    for (const ModelNode& mn : model.nodes()) {
        if (mn.name != name || mn.user != nullptr) {
            continue;
        }
        int g = mn.group;
        while (g >= 0 && !model.group(g).isGraph) {
            g = model.group(g).parent;
        }
        if (name.startsWith(QStringLiteral("%para")) || (g >= 0 && model.group(g).title == graph)) {
            sync({mn.node}, Origin::IrText);
            return;
        }
    }
}

void SelectionSync::sync(const std::vector<const ir::Node*>& nodes, Origin from) {
    if (nodes.empty() || nodes.front() == nullptr || doc_ == nullptr || !doc_->ok()) {
        return;
    }
    const ir::Node* node = nodes.front();
    if (from != Origin::Source) {
        sourceLine_ = 0;
    }
    if (from != Origin::Graph) {
        syncing_ = true;
        graph_->selectNodes(nodes);
        syncing_ = false;
    }
    if (from != Origin::IrText) {
        showNodeInText(node);
    }
    const GraphModel& model = graph_->model();
    inspector_->showNode(node, model);
    if (from == Origin::Source) {
        return;
    }
    // The node's innermost location in the script (a constant: its user's).
    const ir::Node* located = node;
    if (const int k = model.indexOf(node); node->debug().trace.empty() && k >= 0) {
        if (const ir::CNode* user = model.nodes()[static_cast<std::size_t>(k)].user) {
            located = user;
        }
    }
    const auto& trace = located->debug().trace;
    for (auto it = trace.rbegin(); it != trace.rend(); ++it) {
        if (it->line > 0 && editor_->isScriptFile(QString::fromStdString(it->file))) {
            editor_->showLocation(QString::fromStdString(it->file), it->line);
            return;
        }
    }
    // An .ir file opened with no script: open the script its node names, when it is here.
    if (editor_->path().isEmpty() && !trace.empty() && trace.back().line > 0) {
        const QString file = QString::fromStdString(trace.back().file);
        if (QFileInfo(file).isFile() && editor_->openScript(file)) {
            editor_->showLocation(file, trace.back().line);
            return;
        }
    }
    editor_->clearLocation();
}

std::vector<const ir::Node*> SelectionSync::nodesAtSourceLine(int line) const {
    // Nodes whose location starts on the line; failing that, those whose span covers it
    // most narrowly (a statement over several lines).
    std::vector<const ir::Node*> exact;
    std::vector<const ir::Node*> covering;
    int narrowest = std::numeric_limits<int>::max();
    QHash<QString, bool> isScript;  // per file name seen
    for (const ModelNode& mn : graph_->model().nodes()) {
        if (mn.user != nullptr) {
            continue;  // a constant's use: not created by a line of its own
        }
        bool onLine = false;
        int span = std::numeric_limits<int>::max();
        for (const ir::SourceLocation& loc : mn.node->debug().trace) {
            const int end = std::max(loc.line, loc.lineEnd);
            if (loc.line <= 0 || line < loc.line || line > end) {
                continue;
            }
            const QString file = QString::fromStdString(loc.file);
            auto known = isScript.find(file);
            if (known == isScript.end()) {
                known = isScript.insert(file, editor_->isScriptFile(file));
            }
            if (!*known) {
                continue;
            }
            onLine = onLine || loc.line == line;
            span = std::min(span, end - loc.line);
        }
        if (onLine) {
            exact.push_back(mn.node);
        } else if (span < narrowest) {
            narrowest = span;
            covering.assign(1, mn.node);
        } else if (span == narrowest && span != std::numeric_limits<int>::max()) {
            covering.push_back(mn.node);
        }
    }
    return exact.empty() ? covering : exact;
}

void SelectionSync::selectSourceLine(int line, const store::Session* ran) {
    if (doc_ == nullptr || !doc_->ok()) {
        return;
    }
    if (ran != nullptr && editor_->isScriptFile(QString::fromStdString(ran->scriptPath)) &&
        editor_->text().toStdString() != ran->scriptText) {
        // The lines no longer say where the IR's nodes came from.
        emit message(
            tr("The script was edited since it ran: run it again (Ctrl+R) to select by line"));
        return;
    }
    const std::vector<const ir::Node*> nodes = nodesAtSourceLine(line);
    if (nodes.empty()) {
        emit message(tr("Line %1 created no node in this IR").arg(line));
        return;
    }
    emit message(
        tr("Line %1: %n node(s) selected", nullptr, static_cast<int>(nodes.size())).arg(line));
    sourceLine_ = line;
    sync(nodes, Origin::Source);
}

bool SelectionSync::reselectSourceLine() {
    if (sourceLine_ <= 0) {
        return false;
    }
    sync(nodesAtSourceLine(sourceLine_), Origin::Source);
    return true;
}

}  // namespace irscope::ui
