// The .ir reader's internals (see ir_parser.cpp): line-structure state, graph bookkeeping
// and the Parser class shared by ir_parser.cpp (file structure, headers) and
// ir_parser_body.cpp (node lines inside a subgraph body).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/dump_notes.h"
#include "ir/ir_lexer.h"
#include "ir/ir_value_reader.h"
#include "ir/module.h"
#include "util/diagnostic.h"

namespace irscope::ir::text {

struct GraphState {
    FuncGraph* g = nullptr;
    DumpNotes notes;     // moved into the graph's DebugInfo when its body closes
    int headerLine = 0;  // the line of its `subgraph @` header found by the pre-scan
    bool done = false;   // its body has been read
    std::unordered_map<std::uint64_t, CNode*> nodes;     // %N
    std::unordered_map<std::string, Parameter*> params;  // "K_name" of %paraK_name
    std::vector<CNode*> order;                           // body nodes in file order
    // Debug names, built on demand: each name's CNodes in file order, then its parameters.
    std::unordered_map<std::string, std::vector<Node*>> byName;
    std::unordered_map<const Node*, std::size_t> position;  // a body node's index in `order`
};

// `%paraK_name` as a lookup key; K is empty for MindSpore's unnumbered `%para_name`.
struct ParamToken {
    std::string key;
    std::string name;
    bool numbered = false;
};

// A `$(@g:...)` reference that can only be resolved once graph g has been read.
struct Deferred {
    CNode* user = nullptr;
    std::size_t index = 0;
    GraphState* target = nullptr;
    enum class Kind { Node, Param, Name } kind = Kind::Node;
    std::uint64_t number = 0;
    std::string key;       // Param: the token key; Name: the text
    std::string text;      // as written, for messages
    std::string whole;     // the whole `$(...)` as written
    std::size_t line = 0;  // 0-based line index
    std::size_t pos = 0;
};

// What `$(@g:...)` or a `%` reference turned into.
struct NodeRef {
    Node* node = nullptr;              // resolved
    std::optional<Deferred> deferred;  // or to be patched
};

struct PendingParam {
    AbstractPtr abs;
    bool hasDefault = false;
    ValuePtr def;
};

inline std::string_view trimLeft(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size() && isSpace(s[i])) {
        ++i;
    }
    return s.substr(i);
}

inline bool startsWith(std::string_view s, std::string_view p) {
    return s.substr(0, p.size()) == p;
}

// `# In file f.py:15~20, 4~16/    text/<~~note` (2.x) or `# In file train.py(34)/ text/`
// (old), without the `# In file ` prefix; nullopt when no location is found.
std::optional<SourceLocation> parseTrace(std::string_view s);
// A parameter name after `%paraN_` (see ir_parser.cpp).
std::string readParamName(LineCursor& c);

class Parser {
public:
    Parser(std::string_view text, std::string file, std::vector<Diagnostic>* warnings)
        : file_(std::move(file)),
          warnings_(warnings),
          m_(std::make_unique<Module>()),
          reader_([this](const std::string& n) { return findGraph(n); }) {
        reader_.onExternalGraph([this](const LineCursor& c, std::size_t at, const std::string& n) {
            external(c, at, n);
        });
        splitLines(text);
    }

    std::unique_ptr<Module> run();

private:
    void splitLines(std::string_view text);
    LineCursor cursor(std::size_t i) const {
        return LineCursor(lines_[i], static_cast<int>(i) + 1, &file_);
    }
    FuncGraph* findGraph(const std::string& name) const {
        auto it = graphs_.find(name);
        return it == graphs_.end() ? nullptr : it->second->g;
    }
    GraphState* stateAt(LineCursor& c, std::size_t at, const std::string& name) {
        auto it = graphs_.find(name);
        if (it == graphs_.end()) {
            c.failAt(at, "unknown graph @" + name);
        }
        return it->second.get();
    }
    GraphState* findState(const std::string& name) const {
        auto it = graphs_.find(name);
        return it == graphs_.end() ? nullptr : it->second.get();
    }
    // Diagnostics that do not stop the reading (undefined references, duplicate names).
    void warnAt(const LineCursor& c, std::size_t at, const std::string& msg,
                const char* kind = "warning");
    // A call of or reference to a graph the file does not contain (reported once per name).
    void external(const LineCursor& c, std::size_t at, const std::string& name);
    // A stand-in of no graph for a reference the file does not define, printed as written.
    Node* unresolved(const LineCursor& c, std::size_t at, const std::string& text,
                     const std::string& why);
    // Verbatim lines that belong to the next graph (or, at the end, to the module).
    void keepLine(std::string_view line);
    DumpNotes& notesOf(Node* n);
    void finishGraph();
    void storeNotes(GraphState& st);
    bool structural(LineCursor c) const;
    void finish();

    void prescan();
    void nameDuplicates();
    void topLevelLine(std::size_t i, LineCursor& c);
    bool attrLine(LineCursor& c);
    bool commentLine(LineCursor& c);
    void headerParamLine(LineCursor& c);
    void graphHeader(std::size_t i, LineCursor& c);
    bool headerParams(LineCursor& c);  // true when the list is closed on this line
    void headerParam(LineCursor& c, std::unordered_set<std::string>& fresh);
    void openBody(LineCursor& c);
    void bodyLine(std::size_t i, LineCursor& c);
    void nodeLine(std::size_t i, LineCursor& c);
    void startNode(CNode* n);
    CNode* call(std::size_t i, LineCursor& c, const std::string& label);
    void typeLine(LineCursor& c);
    bool deviceTypeLine(LineCursor c);
    bool debugLine(LineCursor& c, DebugInfo& target);

    ParamToken paramToken(LineCursor& c, std::size_t at);
    NodeRef nodeRef(std::size_t i, LineCursor& c);
    Node* resolve(const Deferred& d);
    Parameter* addParam(FuncGraph* g, GraphState& st, const ParamToken& t, LineCursor& c,
                        std::size_t at);

    std::string file_;
    std::vector<Diagnostic>* warnings_;
    std::unique_ptr<Module> m_;
    ValueReader reader_;
    std::vector<std::string_view> lines_;
    std::unordered_map<std::string, std::unique_ptr<GraphState>> graphs_;
    // Graphs whose name an earlier `subgraph @` header already used, by 0-based header line.
    std::unordered_map<std::size_t, std::unique_ptr<GraphState>> renamed_;
    std::unordered_map<std::size_t, GraphState*> byLine_;  // every graph by header line
    std::unordered_set<std::string> externals_;
    std::vector<GraphState*> graphOrder_;
    std::unordered_map<std::string, Parameter*> allParams_;  // first definition of each key
    std::unordered_map<std::string, Parameter*> orphans_;    // %para_name of no graph
    std::vector<Deferred> deferred_;

    // reading state
    enum class AttrTarget { None, Module, Graph } attrMode_ = AttrTarget::None;
    AttrMap pendingAttrs_;
    std::vector<SourceLocation> pendingTrace_;
    std::optional<std::vector<PendingParam>> pendingParams_;
    GraphState* cur_ = nullptr;  // the graph whose body (or header list) is being read
    bool inHeaderList_ = false;  // a multi-line `subgraph @g(` parameter list
    std::unordered_set<std::string> headerFresh_;
    CNode* last_ = nullptr;  // the node that type and debug lines belong to
    bool lastTyped_ = false;
    std::size_t openLine_ = 0;
    // The dump's structure (header, attributes, graphs) has begun: lines before it are the
    // module's preamble (analyze_fail.ir's banner).
    bool started_ = false;
    std::size_t firstLine_ = 0;     // 0-based index of the first non-blank line
    GraphState* closed_ = nullptr;  // the graph whose `}` was the last line read
    bool afterAttrs_ = false;       // the pending graph's `subgraph attr:` has been read
    std::vector<std::string> pendingLines_;
    std::vector<std::string> pendingAfterAttrs_;
    std::vector<std::string> pendingNodeLines_;  // `#` lines in a body before any node
    int pendingFrame_ = -1;                      // a `#------------------------> N` marker
};

}  // namespace irscope::ir::text
