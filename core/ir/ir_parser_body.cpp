// The .ir reader, inside a subgraph body: node lines, the Return line, type lines and debug
// lines, and the references between nodes (including free variables `$(@g:...)`).
#include "ir/ir_parser.h"

#include <fmt/format.h>

namespace irscope::ir::text {

// `# In file f.py:15~20, 4~16/    text/<~~note` (2.x) or `# In file train.py(34)/ text/` (old).
std::optional<SourceLocation> parseTrace(std::string_view s) {
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != ':' && s[i] != '(') {
            continue;
        }
        LineCursor c(s, 0, nullptr);
        c.pos = i + 1;
        SourceLocation loc;
        auto line = c.readUnsigned();
        if (!line || *line > INT32_MAX) {
            continue;
        }
        loc.line = loc.lineEnd = static_cast<int>(*line);
        if (s[i] == '(') {
            if (!c.eat(')')) {
                continue;
            }
        } else {
            if (c.eat('~')) {
                auto e = c.readUnsigned();
                if (!e || *e > INT32_MAX) {
                    continue;
                }
                loc.lineEnd = static_cast<int>(*e);
            }
            if (c.eat(", ")) {
                auto b = c.readInt();
                std::optional<std::int64_t> e;
                if (b && c.eat('~')) {
                    e = c.readInt();
                }
                if (!e || *b < INT32_MIN || *b > INT32_MAX || *e < INT32_MIN || *e > INT32_MAX) {
                    continue;
                }
                loc.col = static_cast<int>(*b);
                loc.colEnd = static_cast<int>(*e);
            }
        }
        if (!c.atEnd() && !c.eat('/')) {
            continue;
        }
        loc.file = std::string(s.substr(0, i));
        const std::string_view r = c.rest();
        const std::size_t k = r.find("/<~~");
        if (k != std::string_view::npos) {
            loc.text = std::string(r.substr(0, k));
            loc.note = std::string(r.substr(k + 1));
        } else if (!r.empty() && r.back() == '/') {
            loc.text = std::string(r.substr(0, r.size() - 1));
        } else {
            loc.text = std::string(r);
        }
        return loc;
    }
    return std::nullopt;
}

void Parser::bodyLine(std::size_t i, LineCursor& c) {
    if (c.atEnd()) {
        return;
    }
    switch (c.peek()) {
        case '}':
            cur_->done = true;
            cur_ = nullptr;
            last_ = nullptr;
            return;
        case '%':
            nodeLine(i, c);
            return;
        case ':':
            typeLine(c);
            return;
        case '#':
            if (last_ != nullptr) {
                debugLine(c, last_->debug());
            }
            return;
        default:
            break;
    }
    if (cur_->g->returnNode() != nullptr) {
        c.fail("a second Return line in subgraph @" + cur_->g->name());
    }
    CNode* ret = call(i, c, "the Return");
    m_->setReturnNode(cur_->g, ret);
    last_ = ret;
    lastTyped_ = false;
}

void Parser::nodeLine(std::size_t i, LineCursor& c) {
    const std::size_t at = c.pos++;
    const auto num = c.readUnsigned();
    if (!num) {
        if (c.lookingAt("para")) {
            c.failAt(at, "a parameter cannot be defined inside a subgraph body");
        }
        c.fail("expected a node number after '%'");
    }
    const std::string label = fmt::format("%{}", *num);
    if (cur_->nodes.count(*num) != 0) {
        c.failAt(at, "duplicate definition of " + label);
    }
    std::string dbg;
    if (c.eat('(')) {
        if (c.peek() == '"') {
            dbg = c.readQuoted();
        } else {
            const std::size_t b = c.pos;
            while (!c.atEnd() && c.peek() != ')') {
                ++c.pos;
            }
            dbg = std::string(c.slice(b, c.pos));
        }
        if (!c.eat(')')) {
            c.fail("expected ')' after the debug name of " + label);
        }
    }
    c.skipSpaces();
    if (!c.eat('=')) {
        c.fail("expected '=' after " + label);
    }
    CNode* n = call(i, c, label);
    n->debug().name = std::move(dbg);
    cur_->nodes.emplace(*num, n);
    cur_->order.push_back(n);
    last_ = n;
    lastTyped_ = false;
}

namespace {
void attrBlock(const ValueReader& r, LineCursor& c, AttrMap& out) {
    c.skipSpaces();
    if (c.peek() != '{') {
        c.fail("expected '{' to start an attribute map");
    }
    r.attrMap(c, out);
}
}  // namespace

CNode* Parser::call(std::size_t i, LineCursor& c, const std::string& label) {
    FuncGraph* g = cur_->g;
    c.skipSpaces();
    ValuePtr calleeValue;
    std::optional<NodeRef> calleeRef;
    if (c.lookingAt("call")) {  // `call @graph(...)`
        const std::size_t save = c.pos;
        c.pos += 4;
        const std::size_t afterWord = c.pos;
        c.skipSpaces();
        if (c.pos > afterWord && c.peek() == '@') {
            const std::size_t at = c.pos++;
            calleeValue = Value::graphRef(stateAt(c, at, c.readName())->g);
        } else {
            c.pos = save;
        }
    }
    if (!calleeValue) {
        if (c.peek() == '%' || c.lookingAt("$(")) {
            calleeRef = nodeRef(i, c);
        } else {
            if (c.lookingAt("Prim(")) {  // a primitive whose name needs quotes
                const std::size_t save = c.pos;
                c.pos += 4;
                calleeValue = reader_.primBody(c, 0);
                if (!calleeValue) {
                    c.pos = save;
                }
            }
            if (!calleeValue) {
                calleeValue = isIdentStart(static_cast<unsigned char>(c.peek()))
                                  ? Value::primitive(std::string(c.readOpName()))
                                  : reader_.value(c, 0, true);
            }
        }
    }
    // Annotations dropped: `%5[@FuncUnion(@a, @b)]`, `Name{prim_type=1}[attrs]` (1.x).
    for (;;) {
        c.skipSpaces();
        if (c.peek() != '[' && c.peek() != '{') {
            break;
        }
        c.pos = c.scanGroup(false);
    }
    if (!c.eat('(')) {
        c.fail("expected '(' after the callee of " + label);
    }
    std::vector<NodeRef> refs;  // inputs 1.. as references
    std::vector<ValuePtr> values;
    c.skipSpaces();
    if (!c.eat(')')) {
        for (;;) {
            c.skipSpaces();
            if (c.peek() == '%' || c.lookingAt("$(")) {
                refs.push_back(nodeRef(i, c));
                values.emplace_back();
            } else {
                values.push_back(reader_.value(c));
                refs.emplace_back();
            }
            c.skipSpaces();
            if (c.eat(',')) {
                continue;
            }
            if (c.eat(')')) {
                break;
            }
            c.fail(c.atEnd() ? "expected ')' to close the inputs of " + label
                             : "expected ',' or ')' after an input of " + label);
        }
    }
    std::optional<std::string> instance;
    AttrMap primAttrs;
    AttrMap cnodeAttrs;
    AttrMap primalAttrs;
    for (;;) {
        c.skipSpaces();
        if (c.atEnd()) {
            break;
        }
        if (c.eat("{instance name:")) {
            c.skipSpaces();
            if (c.peek() == '"') {
                instance = c.readQuoted();
            } else {
                const std::size_t b = c.pos;
                while (!c.atEnd() && c.peek() != '}') {
                    ++c.pos;
                }
                instance = std::string(c.slice(b, c.pos));
            }
            if (!c.eat('}')) {
                c.fail("expected '}' after the instance name");
            }
        } else if (c.eat("primitive_attrs:")) {
            attrBlock(reader_, c, primAttrs);
        } else if (c.eat("cnode_attrs:")) {
            attrBlock(reader_, c, cnodeAttrs);
        } else if (c.eat("cnode_primal_attrs:")) {
            attrBlock(reader_, c, primalAttrs);
        } else if (c.peek() == '{') {
            c.pos = c.scanGroup(false);  // e.g. `{in_strategy: ...}`: not part of the model
        } else {
            c.fail("unexpected text after the inputs of " + label);
        }
    }
    if (calleeValue && calleeValue->kind == Value::Kind::Primitive &&
        (instance || !primAttrs.empty())) {
        PrimitiveData p = *calleeValue->prim;
        if (instance) {
            p.instanceName = std::move(*instance);
        }
        for (const auto& [k, v] : primAttrs) {
            p.attrs.set(k, v);
        }
        calleeValue = Value::primitive(std::move(p));
    }
    std::vector<Node*> inputs;
    std::vector<Deferred> pending;
    auto place = [&](NodeRef& r) -> Node* {
        if (r.node != nullptr) {
            return r.node;
        }
        r.deferred->index = inputs.size();
        pending.push_back(std::move(*r.deferred));
        return m_->addValue(nullptr, Value::none());  // replaced at the end
    };
    inputs.reserve(refs.size() + 1);
    inputs.push_back(calleeValue ? m_->addValue(g, calleeValue) : place(*calleeRef));
    for (std::size_t k = 0; k < refs.size(); ++k) {
        inputs.push_back(values[k] ? m_->addValue(g, values[k]) : place(refs[k]));
    }
    CNode* n = m_->addCNode(g, inputs);
    n->attrs() = std::move(cnodeAttrs);
    n->primalAttrs() = std::move(primalAttrs);
    for (Deferred& d : pending) {
        d.user = n;
        deferred_.push_back(std::move(d));
    }
    return n;
}

NodeRef Parser::nodeRef(std::size_t i, LineCursor& c) {
    const std::size_t at = c.pos;
    if (c.eat('%')) {
        if (isDigit(c.peek())) {
            const auto num = c.readUnsigned();
            auto it = num ? cur_->nodes.find(*num) : cur_->nodes.end();
            if (it == cur_->nodes.end()) {
                c.failAt(at, "use of undefined node " + std::string(c.slice(at, c.pos)));
            }
            return {it->second, std::nullopt};
        }
        const ParamToken t = paramToken(c, at);
        if (auto it = cur_->params.find(t.key); it != cur_->params.end()) {
            return {it->second, std::nullopt};
        }
        if (auto it = allParams_.find(t.key); it != allParams_.end()) {
            return {it->second, std::nullopt};
        }
        if (!t.numbered) {  // MindSpore's `%para_x`: a parameter of no graph
            auto [it, fresh] = orphans_.emplace(t.name, nullptr);
            if (fresh) {
                it->second = m_->addParameter(nullptr, t.name);
            }
            return {it->second, std::nullopt};
        }
        c.failAt(at, "use of undefined parameter %para" + t.key);
    }
    c.pos += 2;  // "$("
    const std::size_t gat = c.pos;
    if (!c.eat('@')) {
        c.fail("expected '@' after '$('");
    }
    GraphState* st = stateAt(c, gat, c.readName());
    if (!c.eat(':')) {
        c.fail("expected ':' after the graph name in '$('");
    }
    Deferred d;
    d.target = st;
    d.line = i;
    d.pos = c.pos;
    const std::size_t b = c.pos;
    if (c.eat('%')) {
        if (isDigit(c.peek())) {
            const auto num = c.readUnsigned();
            if (!num) {
                c.fail("node number too large");
            }
            d.kind = Deferred::Kind::Node;
            d.number = *num;
        } else {
            d.kind = Deferred::Kind::Param;
            d.key = paramToken(c, b).key;
        }
    } else if (c.lookingAt("para") && (isDigit(c.peek(4)) || c.peek(4) == '_')) {
        d.kind = Deferred::Kind::Param;  // MindSpore prints `$(@g:para3_x)`
        d.key = paramToken(c, b).key;
    } else {
        while (!c.atEnd() && c.peek() != ')') {  // a debug name: `$(@g:CNode_12)`
            ++c.pos;
        }
        d.kind = Deferred::Kind::Name;
        d.key = std::string(c.slice(b, c.pos));
    }
    d.text = std::string(c.slice(b, c.pos));
    if (!c.eat(')')) {
        c.fail("expected ')' to close '$('");
    }
    if (d.kind != Deferred::Kind::Name && (st == cur_ || st->done)) {
        return {resolve(d), std::nullopt};
    }
    return {nullptr, std::move(d)};
}

Node* Parser::resolve(const Deferred& d) {
    GraphState& st = *d.target;
    const LineCursor c = cursor(d.line);
    const std::string where = " in @" + st.g->name();
    switch (d.kind) {
        case Deferred::Kind::Node: {
            auto it = st.nodes.find(d.number);
            if (it == st.nodes.end()) {
                c.failAt(d.pos, "use of undefined node " + d.text + where);
            }
            return it->second;
        }
        case Deferred::Kind::Param: {
            auto it = st.params.find(d.key);
            if (it == st.params.end()) {
                c.failAt(d.pos, "use of undefined parameter " + d.text + where);
            }
            return it->second;
        }
        case Deferred::Kind::Name:
            break;
    }
    if (st.byName.empty()) {
        for (CNode* n : st.order) {
            st.byName.emplace(n->debug().name, n);
        }
        for (Parameter* p : st.g->parameters()) {
            st.byName.emplace(p->name(), p);
        }
    }
    auto it = st.byName.find(d.key);
    if (it == st.byName.end()) {
        c.failAt(d.pos, "no node named '" + d.key + "'" + where);
    }
    return it->second;
}

void Parser::typeLine(LineCursor& c) {
    if (last_ == nullptr) {
        c.fail("a type line must follow a node line");
    }
    if (lastTyped_) {
        return;  // a second line (device formats after kernel select) is not an abstract
    }
    lastTyped_ = true;
    ++c.pos;  // ':'
    c.skipSpaces();
    if (!c.eat('(')) {
        c.fail("expected '(' after ':' in a type line");
    }
    auto oneAbstract = [&]() {
        c.skipSpaces();
        const bool tick = c.eat('`');  // 1.x wrote `<null>` in backquotes
        if (c.peek() != '<') {
            c.fail("expected '<' to start an abstract");
        }
        AbstractPtr a = reader_.abstract(c);
        if (tick) {
            c.eat('`');
        }
        c.skipSpaces();
        return a;
    };
    std::vector<AbstractPtr> ins;
    c.skipSpaces();
    if (!c.eat(')')) {
        for (;;) {
            ins.push_back(oneAbstract());
            if (c.eat(',')) {
                continue;
            }
            if (c.eat(')')) {
                break;
            }
            c.fail("expected ',' or ')' in a type line");
        }
    }
    const bool isReturn = last_ == cur_->g->returnNode();
    AbstractPtr out;
    c.skipSpaces();
    if (c.eat("->")) {
        c.skipSpaces();
        if (!c.eat('(')) {
            c.fail("expected '(' after '->'");
        }
        out = oneAbstract();
        if (!c.eat(')')) {
            c.fail("expected ')' after the output type");
        }
    } else if (!isReturn) {
        c.fail("expected '->' after the input types");
    }
    if (ins.size() + 1 == last_->size()) {
        for (std::size_t k = 0; k < ins.size(); ++k) {
            Node* in = last_->input(k + 1);
            // Value nodes are printed inline, so their type is only here. A parameter
            // without one (2.0 dumps have no `# Parameters:` line) learns it here too.
            if ((in->isValue() || in->isParameter()) && !in->abstract()) {
                in->setAbstract(ins[k]);
            }
        }
    }
    if (isReturn) {
        // Only the returned value's type is printed; the Return node has the same one.
        last_->setAbstract(ins.size() == 1 && ins[0] ? ins[0] : Abstract::opaque({}));
    } else {
        last_->setAbstract(std::move(out));
    }
}

void Parser::debugLine(LineCursor& c, DebugInfo& target) {
    ++c.pos;  // '#'
    c.skipSpaces();
    if (c.eat("Fullname with scope:") || c.eat("scope:")) {
        c.skipSpaces();
        std::string_view r = c.rest();
        if (r.size() >= 2 && r.front() == '(' && r.back() == ')') {
            r = r.substr(1, r.size() - 2);
        }
        target.scope = std::string(r);
    } else if (c.eat("In file ")) {
        if (auto loc = parseTrace(c.rest())) {
            target.trace.push_back(std::move(*loc));
        }
    }
}

}  // namespace irscope::ir::text
