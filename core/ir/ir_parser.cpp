// The .ir reader: the printer's output, the seeds' shortened listings and real MindSpore
// 2.0-2.3 dumps. It works line by line: a pre-scan registers every `subgraph @name` so
// graphs can be referred to before they are defined, then one pass builds the Module.
// Free variables that point into a graph further down are patched at the end. This file
// reads the file structure (headers, attributes, parameters); ir_parser_body.cpp reads
// the node lines of a subgraph body.
#include "ir/ir_parser.h"

#include <algorithm>

#include "ir/ir_format.h"
#include "ir/ir_text.h"

namespace irscope::ir {

namespace text {

void Parser::splitLines(std::string_view text) {
    if (startsWith(text, "\xEF\xBB\xBF")) {
        text.remove_prefix(3);
    }
    std::size_t b = 0;
    while (b <= text.size()) {
        std::size_t e = text.find('\n', b);
        if (e == std::string_view::npos) {
            e = text.size();
        }
        std::string_view l = text.substr(b, e - b);
        while (!l.empty() && (isSpace(l.back()) || l.back() == '\r')) {
            l.remove_suffix(1);
        }
        lines_.push_back(l);
        b = e + 1;
    }
    if (!lines_.empty() && lines_.back().empty()) {
        lines_.pop_back();  // the text ended with a newline
    }
}

// Registers every graph defined by a `subgraph @name` header, in file order, following the
// same structure rules as the main pass.
void Parser::prescan() {
    bool inBody = false;
    bool inList = false;
    for (std::size_t i = 0; i < lines_.size(); ++i) {
        const std::string_view t = trimLeft(lines_[i]);
        if (inBody) {
            inBody = !startsWith(t, "}");
            continue;
        }
        if (inList) {
            if (startsWith(t, ")")) {
                inList = false;
                inBody = !t.empty() && t.back() == '{';
            }
            continue;
        }
        if (!startsWith(t, "subgraph @")) {
            continue;
        }
        LineCursor c = cursor(i);
        c.pos = lines_[i].size() - t.size() + 10;
        std::string name;
        try {
            name = c.readName();
        } catch (const ParseError&) {
            return;  // the main pass reports it at this line
        }
        auto st = std::make_unique<GraphState>();
        st->headerLine = static_cast<int>(i) + 1;
        byLine_.emplace(i, st.get());
        if (graphs_.count(name) == 0) {
            st->g = m_->addGraph(name);
            graphOrder_.push_back(st.get());
            graphs_.emplace(name, std::move(st));
        } else {
            renamed_.emplace(i, std::move(st));  // named once all names are known
        }
        inBody = t.back() == '{';
        inList = t.back() == '(';
    }
}

// A later graph with an earlier one's name is kept apart under `name.K`, the first K the file
// does not use (references to the name mean the first graph, as MindSpore's own lookups do).
void Parser::nameDuplicates() {
    std::vector<std::size_t> at;
    for (const auto& [line, st] : renamed_) {
        at.push_back(line);
    }
    std::sort(at.begin(), at.end());
    for (std::size_t line : at) {
        GraphState* st = renamed_.at(line).get();
        LineCursor c = cursor(line);
        c.pos = lines_[line].find('@') + 1;
        const std::string name = c.readName();
        std::string fresh;
        for (std::size_t k = 1;; ++k) {
            fresh = name + "." + std::to_string(k);
            if (graphs_.count(fresh) == 0) {
                break;
            }
        }
        const GraphState* first = graphs_.at(name).get();
        st->g = m_->addGraph(fresh);
        graphOrder_.push_back(st);
        warnAt(c, c.pos - name.size() - 1,
               "a second subgraph named @" + name + " (the first is at line " +
                   std::to_string(first->headerLine) + "): kept apart as @" + fresh);
        graphs_.emplace(fresh, std::move(renamed_.at(line)));
    }
}

std::unique_ptr<Module> Parser::run() {
    prescan();
    nameDuplicates();
    for (std::size_t i = 0; i < lines_.size(); ++i) {
        LineCursor c = cursor(i);
        c.skipSpaces();
        if (!started_) {
            if (c.atEnd()) {
                if (!m_->preamble().empty()) {
                    m_->preamble().emplace_back();
                }
                continue;
            }
            if (!structural(c)) {
                if (m_->preamble().empty()) {
                    firstLine_ = i;
                }
                m_->preamble().emplace_back(lines_[i]);
                continue;
            }
            started_ = true;
            while (!m_->preamble().empty() && m_->preamble().back().empty()) {
                m_->preamble().pop_back();
            }
        }
        if (cur_ != nullptr && !inHeaderList_) {
            bodyLine(i, c);
        } else if (inHeaderList_) {
            if (c.atEnd()) {
                continue;
            }
            if (headerParams(c)) {
                openBody(c);
            }
        } else {
            topLevelLine(i, c);
        }
    }
    finish();
    return std::move(m_);
}

void Parser::finish() {
    if (cur_ != nullptr) {
        LineCursor c = cursor(lines_.size() - 1);
        c.failAt(lines_.back().size(), "expected '}' to close subgraph @" + cur_->g->name() +
                                           " (opened at line " + std::to_string(openLine_) + ")");
    }
    bool any = false;
    for (const GraphState* st : graphOrder_) {
        any = any || st->done;
    }
    if (!any) {
        const std::size_t at = lines_.empty() ? 0 : firstLine_;
        LineCursor c = lines_.empty() ? LineCursor({}, 1, &file_) : cursor(at);
        c.skipSpaces();
        c.fail(started_ ? "no subgraph in this file: a MindSpore .ir dump defines its graphs "
                          "with 'subgraph @name(...) {'"
                        : "not a MindSpore .ir dump: no IR header, attributes or 'subgraph "
                          "@name(...) {' in this file");
    }
    for (const Deferred& d : deferred_) {
        Node* placeholder = d.user->input(d.index);
        m_->setInput(d.user, d.index, resolve(d));
        m_->erase(placeholder);
    }
    // A graph whose Return does not reach every node read (analyze_fail.ir stops inside a
    // body) keeps them all; asked only now, when every `$(@g:name)` input is in place.
    for (GraphState* st : graphOrder_) {
        std::unordered_set<const CNode*> reached;
        for (const CNode* n : st->g->topoOrder()) {
            reached.insert(n);
        }
        st->notes.keepAllNodes = std::any_of(st->order.begin(), st->order.end(),
                                             [&](const CNode* n) { return !reached.contains(n); });
        storeNotes(*st);
    }
    for (std::string& l : pendingLines_) {
        m_->trailer().push_back(std::move(l));
    }
    for (std::string& l : pendingAfterAttrs_) {
        m_->trailer().push_back(std::move(l));
    }
}

// Lines that start the dump proper; anything before the first of them is the banner.
bool Parser::structural(LineCursor c) const {
    if (c.lookingAt("subgraph ") || c.peek() == '%' || c.lookingAt("Node counting")) {
        return true;
    }
    if (!c.eat('#')) {
        return false;
    }
    c.skipSpaces();
    return c.lookingAt("IR entry") || c.lookingAt("Attrs:") || c.lookingAt("attrs ") ||
           c.lookingAt("attrs:") || c.lookingAt("Total params") || c.lookingAt("Total subgraph") ||
           c.lookingAt("Params:");
}

void Parser::warnAt(const LineCursor& c, std::size_t at, const std::string& msg, const char* kind) {
    if (warnings_ == nullptr) {
        return;
    }
    Diagnostic d;
    d.file = file_;
    d.line = c.lineNo();
    d.column = c.column(at);
    d.message = msg;
    d.lineText = std::string(c.line());
    d.kind = kind;
    warnings_->push_back(std::move(d));
}

void Parser::external(const LineCursor& c, std::size_t at, const std::string& name) {
    if (externals_.insert(name).second) {
        warnAt(c, at,
               "@" + name +
                   " is a graph this file does not contain: kept as an external "
                   "graph reference",
               "note");
    }
}

Node* Parser::unresolved(const LineCursor& c, std::size_t at, const std::string& text,
                         const std::string& why) {
    warnAt(c, at, why + ": kept as an unresolved reference");
    Parameter* p = m_->addParameter(nullptr, text);
    auto notes = std::make_shared<DumpNotes>();
    notes->unresolved = text;
    p->mutableDebug().dump = std::move(notes);
    return p;
}

void Parser::keepLine(std::string_view line) {
    const std::string_view t = trimLeft(line);
    if (closed_ != nullptr) {
        closed_->notes.linesAfter.emplace_back(t);
        return;
    }
    (afterAttrs_ ? pendingAfterAttrs_ : pendingLines_).emplace_back(t);
}

DumpNotes& Parser::notesOf(Node* n) {
    auto& slot = n->mutableDebug().dump;
    if (!slot) {
        slot = std::make_shared<DumpNotes>();
    }
    // The parser is the only writer and runs before anyone else sees the module.
    return const_cast<DumpNotes&>(*slot);
}

// The body's `}`.
void Parser::finishGraph() {
    GraphState* st = cur_;
    st->done = true;
    cur_ = nullptr;
    last_ = nullptr;
    closed_ = st;
    for (std::string& l : pendingNodeLines_) {
        // `#` lines in a body with no node: kept after it, but those the top level reads
        // (a source line, `# Parameters:`) would belong to the next graph there.
        LineCursor lc(l, 0, &file_);
        if (!lc.lookingAt("# In file") && !lc.lookingAt("# Parameters:") && !structural(lc)) {
            st->notes.linesAfter.push_back(std::move(l));
        }
    }
    pendingNodeLines_.clear();
    pendingFrame_ = -1;
}

void Parser::storeNotes(GraphState& st) {
    if (st.notes == DumpNotes{}) {
        st.g->debug().dump = nullptr;
    } else {
        st.g->debug().dump = std::make_shared<DumpNotes>(st.notes);
    }
}

void Parser::topLevelLine(std::size_t i, LineCursor& c) {
    if (c.atEnd()) {
        attrMode_ = AttrTarget::None;
        closed_ = nullptr;
        return;
    }
    if (closed_ != nullptr && c.peek() == '#' && !c.lookingAt("# In file") &&
        !c.lookingAt("# Parameters:") && !structural(c)) {
        keepLine(c.rest());  // the `# Order:` block right after a body
        return;
    }
    closed_ = nullptr;
    if (attrMode_ != AttrTarget::None) {
        if (text::mayContinueAttrBlock(c.rest()) && attrLine(c)) {
            return;
        }
        attrMode_ = AttrTarget::None;
    }
    if (c.peek() == '#') {
        const std::size_t b = c.pos;
        if (!commentLine(c)) {
            c.pos = b;
            keepLine(c.rest());
        }
    } else if (c.eat("subgraph attr:")) {
        attrMode_ = AttrTarget::Graph;
        pendingAttrs_ = AttrMap();
        afterAttrs_ = true;
    } else if (c.lookingAt("subgraph @")) {
        graphHeader(i, c);
    } else if (c.lookingAt("%para")) {
        headerParamLine(c);
    } else if (c.peek() == '%') {
        c.fail("node line outside of a subgraph body");
    } else if (!c.lookingAt("Node counting information") && !c.lookingAt("Total number of ")) {
        // `subgraph instance: g : 0x...`, `indirect: 1`, ...: kept with the next graph. The
        // node counts are the printer's to write.
        keepLine(c.rest());
    }
}

bool Parser::attrLine(LineCursor& c) {
    const std::size_t start = c.pos;
    std::string key = reader_.attrKey(c);
    c.skipSpaces();
    if (!c.eat(':')) {
        c.pos = start;
        return false;
    }
    ValuePtr v = reader_.lineAttrValue(c);
    (attrMode_ == AttrTarget::Module ? m_->attrs() : pendingAttrs_).set(std::move(key), v);
    return true;
}

// The comments the model reads (or the printer writes anew); false for any other, which is
// kept verbatim.
bool Parser::commentLine(LineCursor& c) {
    const std::size_t start = c.pos;
    ++c.pos;  // '#'
    c.skipSpaces();
    if (c.eat("Total params") || c.eat("Total subgraph") || c.eat("Params:")) {
        return true;
    }
    if (c.eat("IR entry")) {
        c.skipSpaces();
        if (!c.eat(':')) {
            c.fail("expected ':' after '# IR entry'");
        }
        c.skipSpaces();
        const std::size_t at = c.pos;
        if (!c.eat('@')) {
            c.fail("expected '@' before the entry graph's name");
        }
        m_->setEntry(stateAt(c, at, c.readName())->g);
        return true;
    }
    if (c.eat("Attrs") || c.eat("attrs")) {
        c.skipSpaces();
        if (c.eat(':')) {
            attrMode_ = AttrTarget::Module;
            return true;
        }
        c.pos = start;
        return false;
    }
    if (c.eat("Parameters:")) {
        // `# Parameters: 2, (<abs>, <abs> : has_default = value)`: types of the next graph's
        // parameters. A line of another shape is only a comment.
        c.skipSpaces();
        c.readUnsigned();
        c.skipSpaces();
        c.eat(',');
        c.skipSpaces();
        if (!c.eat('(')) {
            return false;
        }
        std::vector<PendingParam> ps;
        c.skipSpaces();
        while (!c.eat(')')) {
            if (c.peek() != '<') {
                return false;
            }
            PendingParam p;
            p.abs = reader_.abstract(c);
            c.skipSpaces();
            if (c.eat(':')) {
                c.skipSpaces();
                if (!c.eat("has_default")) {
                    return false;
                }
                p.hasDefault = true;
                c.skipSpaces();
                if (c.eat('=')) {
                    p.def = reader_.value(c);
                }
            }
            ps.push_back(std::move(p));
            c.skipSpaces();
            if (!c.eat(',') && c.peek() != ')') {
                return false;
            }
            c.skipSpaces();
        }
        pendingParams_ = std::move(ps);
        return true;
    }
    if (c.eat("In file ")) {
        if (auto loc = parseTrace(c.rest())) {
            pendingTrace_.push_back(std::move(*loc));
            return true;
        }
    }
    c.pos = start;
    return false;
}

// A parameter's name as MindSpore prints it after `%paraN_`: quoted, or anything up to a
// blank, ',', '(', ')', ':' or a brace, with balanced square brackets (`[Parameter]784`,
// `@[CNode]313`, `Φlr`).
std::string readParamName(LineCursor& c) {
    if (c.peek() == '"') {
        return c.readQuoted();
    }
    const std::size_t b = c.pos;
    int depth = 0;
    while (!c.atEnd()) {
        const char ch = c.peek();
        if (isSpace(ch) || ch == ',' || ch == '(' || ch == ')' || ch == '"' || ch == '{' ||
            ch == '}' || (ch == ':' && depth == 0) || (ch == ']' && depth == 0)) {
            break;
        }
        depth += ch == '[' ? 1 : ch == ']' ? -1 : 0;
        ++c.pos;
    }
    return std::string(c.slice(b, c.pos));
}

ParamToken Parser::paramToken(LineCursor& c, std::size_t at) {
    ParamToken t;
    if (!c.eat("para")) {
        c.failAt(at, "expected a node number or a parameter like %para1_x after '%'");
    }
    const std::size_t digits = c.pos;
    while (isDigit(c.peek())) {
        ++c.pos;
    }
    t.numbered = c.pos != digits;
    t.key = std::string(c.slice(digits, c.pos));
    if (!c.eat('_')) {
        c.fail("expected '_' after the parameter number");
    }
    t.name = readParamName(c);
    t.key += '_';
    t.key += t.name;
    return t;
}

Parameter* Parser::addParam(FuncGraph* g, GraphState& st, const ParamToken& t, LineCursor& c,
                            std::size_t at) {
    if (st.params.count(t.key) != 0) {
        warnAt(c, at,
               "a second parameter %para" + t.key + " of @" + g->name() +
                   ": kept apart (printed with its own number); uses of the name mean the first");
    }
    Parameter* p = m_->addParameter(g, t.name);
    st.params.emplace(t.key, p);
    allParams_.emplace(t.key, p);
    return p;
}

void Parser::headerParamLine(LineCursor& c) {
    const std::size_t at = c.pos++;
    const ParamToken t = paramToken(c, at);
    c.skipSpaces();
    if (!c.eat(':')) {
        c.fail("expected ':' after %para" + t.key);
    }
    c.skipSpaces();
    if (c.peek() != '<') {
        c.fail("expected '<' to start the type of %para" + t.key);
    }
    AbstractPtr abs = reader_.abstract(c);
    bool hasDefault = false;
    ValuePtr def;
    DumpNotes notes;
    c.skipSpaces();
    while (c.eat(':')) {
        c.skipSpaces();
        if (c.eat("has_default")) {
            hasDefault = true;
            c.skipSpaces();
            if (c.eat('=')) {
                def = reader_.value(c);
                c.skipSpaces();
            }
            continue;
        }
        if (c.peek() == '<' && !notes.hasKernel) {  // kernel graphs: the device type
            LineCursor d = c;
            d.pos = c.scanGroup(true);
            if (auto dt = parseDeviceTensor(c.slice(c.pos, d.pos))) {
                notes.hasKernel = true;
                notes.kernelOutputs.push_back(std::move(*dt));
                c.pos = d.pos;
                c.skipSpaces();
                continue;
            }
        }
        if (c.eat("IsWeight:")) {
            if (c.eat("true") || c.eat("false")) {
                notes.isWeight = c.slice(c.pos - 4, c.pos) == "true";
                c.skipSpaces();
                continue;
            }
            c.pos -= 9;
        }
        notes.suffix = std::string(c.rest());  // `: []` (2.3) and other text: kept as is
        c.pos = c.end;
    }
    // The header lists the entry graph's parameters (the first graph's without an entry).
    FuncGraph* g = m_->entry();
    if (g == nullptr) {
        if (graphOrder_.empty()) {
            c.failAt(at, "parameter %para" + t.key + " is not followed by any subgraph");
        }
        g = graphOrder_.front()->g;
    }
    Parameter* p = addParam(g, *graphs_.at(g->name()), t, c, at);
    p->setAbstract(std::move(abs));
    if (hasDefault) {
        p->setDefault(std::move(def));
    }
    if (!(notes == DumpNotes{})) {
        p->mutableDebug().dump = std::make_shared<DumpNotes>(std::move(notes));
    }
}

namespace {
// `parent: [subgraph @outer]`: the text between the brackets, or "" when there is none.
std::string readParent(LineCursor& c) {
    c.skipSpaces();
    std::string parent;
    if (c.eat("parent:")) {
        c.skipSpaces();
        if (c.peek() == '[') {
            const std::size_t b = c.pos;
            c.pos = c.scanGroup(false);
            parent = std::string(c.slice(b + 1, c.pos - 1));
        }
        c.skipSpaces();
    }
    return parent;
}
}  // namespace

void Parser::graphHeader(std::size_t i, LineCursor& c) {
    c.pos += 9;  // "subgraph "
    const std::size_t at = c.pos++;
    const std::string name = c.readName();
    GraphState* st = stateAt(c, at, name);
    if (st->headerLine != static_cast<int>(i) + 1) {
        auto it = byLine_.find(i);  // a second graph of that name, kept apart
        if (it == byLine_.end()) {
            c.failAt(at, "subgraph @" + name + " was not found by the first pass");
        }
        st = it->second;
    }
    cur_ = st;
    openLine_ = i + 1;
    headerFresh_.clear();
    attrMode_ = AttrTarget::None;
    st->notes.lines = std::move(pendingLines_);
    st->notes.linesAfterAttrs = std::move(pendingAfterAttrs_);
    pendingLines_.clear();
    pendingAfterAttrs_.clear();
    afterAttrs_ = false;
    st->notes.parent = readParent(c);
    if (!c.eat('(')) {
        c.fail("expected '(' after the name of subgraph @" + name);
    }
    if (c.atEnd()) {
        inHeaderList_ = true;  // parameters on the following lines, then `) {`
        return;
    }
    if (headerParams(c)) {
        openBody(c);
    }
}

bool Parser::headerParams(LineCursor& c) {
    for (;;) {
        c.skipSpaces();
        if (c.eat(')')) {
            return true;
        }
        if (c.atEnd()) {
            if (inHeaderList_) {
                return false;
            }
            c.fail("expected ')' to close the parameters of subgraph @" + cur_->g->name());
        }
        headerParam(c, headerFresh_);
        c.skipSpaces();
        if (c.eat(',') || c.peek() == ')' || (c.atEnd() && inHeaderList_)) {
            continue;
        }
        c.fail("expected ',' or ')' after a parameter of subgraph @" + cur_->g->name());
    }
}

void Parser::headerParam(LineCursor& c, std::unordered_set<std::string>& fresh) {
    const std::size_t at = c.pos;
    if (!c.eat('%')) {
        c.fail("expected a parameter like %para1_x");
    }
    const ParamToken t = paramToken(c, at);
    AbstractPtr abs;
    c.skipSpaces();
    const bool typed = c.eat(':');
    if (typed) {
        c.skipSpaces();
        if (c.peek() != '<') {
            c.fail("expected '<' to start the type of %para" + t.key);
        }
        abs = reader_.abstract(c);
    }
    Parameter* p = nullptr;
    auto it = cur_->params.find(t.key);
    if (it != cur_->params.end() && fresh.count(t.key) == 0) {
        p = it->second;  // the entry graph repeating a parameter of the file header
    } else {
        p = addParam(cur_->g, *cur_, t, c, at);
    }
    fresh.insert(t.key);
    if (typed) {
        p->setAbstract(std::move(abs));
    }
}

void Parser::openBody(LineCursor& c) {
    if (std::string p = readParent(c); !p.empty()) {
        cur_->notes.parent = std::move(p);
    }
    if (!c.eat('{')) {
        c.fail("expected '{' to open the body of subgraph @" + cur_->g->name());
    }
    c.skipSpaces();
    if (!c.atEnd()) {
        c.fail("unexpected text after '{'");
    }
    inHeaderList_ = false;
    FuncGraph* g = cur_->g;
    for (const auto& [k, v] : pendingAttrs_) {
        g->attrs().set(k, v);
    }
    pendingAttrs_ = AttrMap();
    g->debug().trace = std::move(pendingTrace_);
    pendingTrace_.clear();
    if (pendingParams_ && pendingParams_->size() == g->parameters().size()) {
        for (std::size_t k = 0; k < pendingParams_->size(); ++k) {
            PendingParam& pp = (*pendingParams_)[k];
            Parameter* p = g->parameters()[k];
            p->setAbstract(pp.abs);
            if (pp.hasDefault) {
                p->setDefault(pp.def);
            }
        }
    }
    pendingParams_.reset();
    last_ = nullptr;
    lastTyped_ = false;
}

}  // namespace text

std::unique_ptr<Module> parseIr(std::string_view text, const std::string& fileName,
                                std::vector<Diagnostic>* warnings) {
    return text::Parser(text, fileName, warnings).run();
}

}  // namespace irscope::ir
