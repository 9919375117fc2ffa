// The .ir reader: the printer's output, the seeds' shortened listings and real MindSpore
// 2.0-2.3 dumps. It works line by line: a pre-scan registers every `subgraph @name` so
// graphs can be referred to before they are defined, then one pass builds the Module.
// Free variables that point into a graph further down are patched at the end. This file
// reads the file structure (headers, attributes, parameters); ir_parser_body.cpp reads
// the node lines of a subgraph body.
#include "ir/ir_parser.h"

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
        if (graphs_.count(name) == 0) {
            auto st = std::make_unique<GraphState>();
            st->g = m_->addGraph(name);
            st->headerLine = static_cast<int>(i) + 1;
            graphOrder_.push_back(st.get());
            graphs_.emplace(name, std::move(st));
        }
        inBody = t.back() == '{';
        inList = t.back() == '(';
    }
}

std::unique_ptr<Module> Parser::run() {
    prescan();
    for (std::size_t i = 0; i < lines_.size(); ++i) {
        LineCursor c = cursor(i);
        c.skipSpaces();
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
    if (cur_ != nullptr) {
        LineCursor c = cursor(lines_.size() - 1);
        c.failAt(lines_.back().size(), "expected '}' to close subgraph @" + cur_->g->name() +
                                           " (opened at line " + std::to_string(openLine_) + ")");
    }
    for (const Deferred& d : deferred_) {
        Node* placeholder = d.user->input(d.index);
        m_->setInput(d.user, d.index, resolve(d));
        m_->erase(placeholder);
    }
    return std::move(m_);
}

void Parser::topLevelLine(std::size_t i, LineCursor& c) {
    if (c.atEnd()) {
        attrMode_ = AttrTarget::None;
        return;
    }
    if (attrMode_ != AttrTarget::None) {
        const char ch = c.peek();
        if (ch != '#' && ch != '%' && ch != '}' && !c.lookingAt("subgraph ") && attrLine(c)) {
            return;
        }
        attrMode_ = AttrTarget::None;
    }
    if (c.peek() == '#') {
        commentLine(c);
    } else if (c.eat("subgraph attr:")) {
        attrMode_ = AttrTarget::Graph;
        pendingAttrs_ = AttrMap();
    } else if (c.lookingAt("subgraph @")) {
        graphHeader(i, c);
    } else if (c.lookingAt("%para")) {
        headerParamLine(c);
    } else if (c.peek() == '%') {
        c.fail("node line outside of a subgraph body");
    }
    // Anything else outside a body (`Node counting information:`, `subgraph instance:`,
    // `indirect: 1`, ...) carries nothing the model keeps.
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

void Parser::commentLine(LineCursor& c) {
    ++c.pos;  // '#'
    c.skipSpaces();
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
    } else if (c.eat("Attrs") || c.eat("attrs")) {
        c.skipSpaces();
        if (c.eat(':')) {
            attrMode_ = AttrTarget::Module;
        }
    } else if (c.eat("Parameters:")) {
        // `# Parameters: 2, (<abs>, <abs> : has_default = value)`: types of the next graph's
        // parameters. A line of another shape is only a comment.
        c.skipSpaces();
        c.readUnsigned();
        c.skipSpaces();
        c.eat(',');
        c.skipSpaces();
        if (!c.eat('(')) {
            return;
        }
        std::vector<PendingParam> ps;
        c.skipSpaces();
        while (!c.eat(')')) {
            if (c.peek() != '<') {
                return;
            }
            PendingParam p;
            p.abs = reader_.abstract(c);
            c.skipSpaces();
            if (c.eat(':')) {
                c.skipSpaces();
                if (!c.eat("has_default")) {
                    return;
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
                return;
            }
            c.skipSpaces();
        }
        pendingParams_ = std::move(ps);
    } else if (c.eat("In file ")) {
        if (auto loc = parseTrace(c.rest())) {
            pendingTrace_.push_back(std::move(*loc));
        }
    }
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
    t.name = c.readName();
    t.key += '_';
    t.key += t.name;
    return t;
}

Parameter* Parser::addParam(FuncGraph* g, GraphState& st, const ParamToken& t, LineCursor& c,
                            std::size_t at) {
    if (st.params.count(t.key) != 0) {
        c.failAt(at, "duplicate definition of %para" + t.key);
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
    c.skipSpaces();
    while (c.eat(':')) {
        c.skipSpaces();
        if (!c.eat("has_default")) {
            break;  // kernel info (old dumps) or `: []` (2.3): nothing the model keeps
        }
        hasDefault = true;
        c.skipSpaces();
        if (c.eat('=')) {
            def = reader_.value(c);
            c.skipSpaces();
        }
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
}

namespace {
void skipParent(LineCursor& c) {
    c.skipSpaces();
    if (c.eat("parent:")) {  // `parent: [subgraph @outer]`
        c.skipSpaces();
        if (c.peek() == '[') {
            c.pos = c.scanGroup(false);
        }
        c.skipSpaces();
    }
}
}  // namespace

void Parser::graphHeader(std::size_t i, LineCursor& c) {
    c.pos += 9;  // "subgraph "
    const std::size_t at = c.pos++;
    const std::string name = c.readName();
    GraphState* st = stateAt(c, at, name);
    if (st->headerLine != static_cast<int>(i) + 1) {
        c.failAt(at, "duplicate definition of subgraph @" + name + " (first defined at line " +
                         std::to_string(st->headerLine) + ")");
    }
    cur_ = st;
    openLine_ = i + 1;
    headerFresh_.clear();
    attrMode_ = AttrTarget::None;
    skipParent(c);
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
    if (it != cur_->params.end()) {
        if (fresh.count(t.key) != 0) {
            c.failAt(at, "duplicate parameter %para" + t.key);
        }
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
    skipParent(c);
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

std::unique_ptr<Module> parseIr(std::string_view text, const std::string& fileName) {
    return text::Parser(text, fileName).run();
}

}  // namespace irscope::ir
