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
            finishGraph();
            return;
        case '%':
            nodeLine(i, c);
            return;
        case ':':
            typeLine(c);
            return;
        case '#': {
            if (c.lookingAt("#------------------------>")) {  // analyze_fail.ir's stack marker
                LineCursor m = c;
                m.pos += 26;
                m.skipSpaces();
                const auto n = m.readUnsigned();
                m.skipSpaces();
                if (n && *n <= INT32_MAX && m.atEnd()) {
                    pendingFrame_ = static_cast<int>(*n);
                    return;
                }
            }
            const std::size_t b = c.pos;
            if (last_ == nullptr) {
                pendingNodeLines_.emplace_back(c.rest());
            } else if (!debugLine(c, last_->mutableDebug())) {
                c.pos = b;
                notesOf(last_).lines.emplace_back(c.rest());
            }
            return;
        }
        default:
            break;
    }
    if (cur_->g->returnNode() != nullptr) {
        c.fail("a second Return line in subgraph @" + cur_->g->name());
    }
    CNode* ret = call(i, c, "the Return");
    m_->setReturnNode(cur_->g, ret);
    startNode(ret);
}

// A node line was read: the marker and comment lines in front of it are its own.
void Parser::startNode(CNode* n) {
    last_ = n;
    lastTyped_ = false;
    if (pendingFrame_ >= 0) {
        notesOf(n).stackFrame = pendingFrame_;
        pendingFrame_ = -1;
    }
    for (const std::string& l : pendingNodeLines_) {
        LineCursor lc(l, 0, &file_);
        if (!debugLine(lc, n->mutableDebug())) {
            notesOf(n).lines.push_back(l);
        }
    }
    pendingNodeLines_.clear();
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
        warnAt(c, at,
               "a second definition of " + label + " in @" + cur_->g->name() +
                   ": both kept (printed with their own numbers); later uses mean the second");
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
    n->mutableDebug().name = std::move(dbg);
    cur_->nodes[*num] = n;
    cur_->order.push_back(n);
    startNode(n);
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
    DumpNotes callNotes;        // the CNode's
    std::string owner;          // the callee value's `$(graph):`
    if (c.lookingAt("call")) {  // `call @graph(...)`
        const std::size_t save = c.pos;
        c.pos += 4;
        const std::size_t afterWord = c.pos;
        c.skipSpaces();
        if (c.pos > afterWord && c.peek() == '@') {
            const std::size_t at = c.pos++;
            const std::string name = c.readName();
            if (GraphState* st = findState(name)) {
                calleeValue = Value::graphRef(st->g);
            } else {  // a graph the file does not contain
                external(c, at, name);
                calleeValue = Value::opaque(std::string(c.slice(save, c.pos)));
            }
        } else {
            c.pos = save;
        }
    }
    if (!calleeValue && c.lookingAt("$(") && c.peek(2) != '@') {
        // `$(graph):MakeTuple(...)` (2.x): a primitive value node owned by another graph.
        const std::size_t b = c.pos + 2;
        const std::size_t e = c.line().find(')', b);
        if (e != std::string_view::npos && e < c.end && e + 1 < c.end && c.line()[e + 1] == ':' &&
            c.slice(b, e).find(':') == std::string_view::npos) {
            owner = std::string(c.slice(b, e));
            c.pos = e + 2;
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
            if (!calleeValue && isIdentStart(static_cast<unsigned char>(c.peek()))) {
                const std::size_t save = c.pos;
                std::string name(c.readOpName());
                LineCursor next = c;
                next.skipSpaces();
                if (next.peek() == '(' || next.peek() == '[' || next.peek() == '{') {
                    calleeValue = Value::primitive(std::move(name));
                } else {
                    c.pos = save;  // `class 'mindspore.ops.operations.math_ops.Less'()`
                }
            }
            if (!calleeValue) {
                calleeValue = reader_.value(c, 0, true);
            }
        }
    }
    // Groups after the callee, kept as written: `%5[@FuncUnion(@a, @b)]`,
    // `Depend[side_effect_propagate=I64(1)]`, `Name{prim_type=1}[attrs]` (1.x).
    c.skipSpaces();
    if (c.peek() == '[' || c.peek() == '{') {
        const std::size_t b = c.pos;
        for (;;) {
            c.pos = c.scanGroup(false);
            LineCursor next = c;
            next.skipSpaces();
            if (next.peek() != '[' && next.peek() != '{') {
                break;
            }
            c.pos = next.pos;
        }
        callNotes.calleeSuffix = std::string(c.slice(b, c.pos));
        c.skipSpaces();
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
    std::size_t instanceAt = 0;
    std::size_t primAttrsAt = 0;
    for (;;) {
        c.skipSpaces();
        if (c.atEnd()) {
            break;
        }
        const std::size_t piece = c.pos;
        if (c.lookingAt("{instance name:")) {
            instanceAt = piece;
            c.pos += 15;
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
            primAttrsAt = piece;
            attrBlock(reader_, c, primAttrs);
        } else if (c.eat("cnode_attrs:")) {
            attrBlock(reader_, c, cnodeAttrs);
        } else if (c.eat("cnode_primal_attrs:")) {
            attrBlock(reader_, c, primalAttrs);
        } else if (c.peek() == '{') {
            c.pos = c.scanGroup(false);  // e.g. `{in_strategy: ...}`: kept as written
            callNotes.lineSuffix += " " + std::string(c.slice(piece, c.pos));
        } else {
            callNotes.lineSuffix += " " + std::string(c.rest());  // kept as written
            c.pos = c.end;
        }
    }
    const bool onPrimitive = calleeValue && calleeValue->kind == Value::Kind::Primitive;
    if (!onPrimitive && (instance || !primAttrs.empty())) {
        // Only a primitive has an instance name and attributes: elsewhere they are text.
        const std::size_t from = instance ? instanceAt : primAttrsAt;
        callNotes.lineSuffix = " " + std::string(c.slice(from, c.end));
        instance.reset();
        primAttrs = AttrMap();
        cnodeAttrs = AttrMap();
        primalAttrs = AttrMap();
    }
    if (onPrimitive && (instance || !primAttrs.empty())) {
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
    if (!owner.empty()) {
        notesOf(inputs[0]).owner = std::move(owner);
    }
    CNode* n = m_->addCNode(g, inputs);
    n->attrs() = std::move(cnodeAttrs);
    n->primalAttrs() = std::move(primalAttrs);
    if (!(callNotes == DumpNotes{})) {
        n->mutableDebug().dump = std::make_shared<DumpNotes>(std::move(callNotes));
    }
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
                const std::string text(c.slice(at, c.pos));
                return {unresolved(c, at, text, "use of undefined node " + text), std::nullopt};
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
        const std::string text(c.slice(at, c.pos));
        return {unresolved(c, at, text, "use of undefined parameter " + text), std::nullopt};
    }
    c.pos += 2;  // "$("
    const std::size_t gat = c.pos;
    c.eat('@');  // 1.x wrote some without it: `$(construct.14:[CNode]5)`
    const std::string gname = c.readName();
    if (!c.eat(':')) {
        c.fail("expected ':' after the graph name in '$('");
    }
    GraphState* st = gname == "?" ? nullptr : findState(gname);
    if (gname == "?") {  // `$(?:%7)`: how the printer writes a reference of no definition
        const std::size_t b = c.pos;
        const std::size_t e = c.scanParens(")");
        if (e >= c.end) {
            c.fail("expected ')' to close '$('");
        }
        c.pos = e + 1;
        const std::string text(c.slice(b, e));
        return {unresolved(c, b, text, "unresolved reference " + text), std::nullopt};
    }
    if (st == nullptr) {  // a free variable of a graph the file does not contain
        const std::size_t e = c.scanBalanced(")", false);
        if (e >= c.end) {
            c.fail("expected ')' to close '$('");
        }
        c.pos = e + 1;
        external(c, gat, gname);
        const std::string text(c.slice(gat - 2, c.pos));
        return {
            unresolved(c, gat - 2, text, "free variable " + text + " of a graph not in this file"),
            std::nullopt};
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
        // A debug name: `$(@g:CNode_12)`. Its parentheses are balanced, so that the text
        // kept for an unresolved name reads back inside the printer's `$(?:...)`.
        c.pos = c.scanParens(")");
        d.kind = Deferred::Kind::Name;
        d.key = std::string(c.slice(b, c.pos));
    }
    d.text = std::string(c.slice(b, c.pos));
    if (!c.eat(')')) {
        c.fail("expected ')' to close '$('");
    }
    d.whole = std::string(c.slice(gat - 2, c.pos));
    if (d.kind != Deferred::Kind::Name && (st == cur_ || st->done)) {
        return {resolve(d), std::nullopt};
    }
    return {nullptr, std::move(d)};
}

Node* Parser::resolve(const Deferred& d) {
    GraphState& st = *d.target;
    const LineCursor c = cursor(d.line);
    const std::string where = " in @" + st.g->name();
    const std::string& whole = d.whole;  // printed as written
    switch (d.kind) {
        case Deferred::Kind::Node: {
            auto it = st.nodes.find(d.number);
            if (it == st.nodes.end()) {
                return unresolved(c, d.pos, whole, "use of undefined node " + d.text + where);
            }
            return it->second;
        }
        case Deferred::Kind::Param: {
            auto it = st.params.find(d.key);
            if (it == st.params.end()) {
                return unresolved(c, d.pos, whole, "use of undefined parameter " + d.text + where);
            }
            return it->second;
        }
        case Deferred::Kind::Name:
            break;
    }
    if (st.byName.empty()) {
        for (std::size_t k = 0; k < st.order.size(); ++k) {
            st.byName[st.order[k]->debug().name].push_back(st.order[k]);
            st.position.emplace(st.order[k], k);
        }
        for (Parameter* p : st.g->parameters()) {
            st.byName[p->name()].push_back(p);
        }
    }
    auto it = st.byName.find(d.key);
    if (it == st.byName.end()) {
        return unresolved(c, d.pos, whole, "no node named '" + d.key + "'" + where);
    }
    const auto user = st.position.find(d.user);
    if (user == st.position.end()) {  // a free variable: the graph's first node of that name
        return it->second.front();
    }
    // Within its own graph a name means what it last named before the use, as a Python
    // variable does (`outputs = F.cast(outputs, ...)` reads the earlier `outputs`); a node
    // never takes itself or a later node as input, which would make a cycle.
    Node* named = nullptr;
    for (Node* n : it->second) {
        const auto at = st.position.find(n);
        if (at == st.position.end()) {  // a parameter: defined before every node
            named = named != nullptr ? named : n;
        } else if (at->second < user->second) {
            named = n;
        }
    }
    if (named == nullptr) {
        return unresolved(c, d.pos, whole,
                          "no node named '" + d.key + "' before its use" + where);
    }
    return named;
}

void Parser::typeLine(LineCursor& c) {
    if (last_ == nullptr) {
        c.fail("a type line must follow a node line");
    }
    if (lastTyped_) {
        // A second line: kernel graphs' device types, then 1.x's `: (full name with scope)`.
        if (deviceTypeLine(c)) {
            return;
        }
        LineCursor f = c;
        ++f.pos;
        f.skipSpaces();
        const std::string_view r = f.rest();
        if (r.size() >= 2 && r.front() == '(' && r.back() == ')' &&
            r.find('<') == std::string_view::npos && last_->debug().scope.empty()) {
            last_->mutableDebug().scope = std::string(r.substr(1, r.size() - 2));
            return;
        }
        notesOf(last_).lines.emplace_back(c.rest());
        return;
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
        // `-> (<null>)` (analyze_fail.ir: inference never reached the node) stays printed.
        last_->setAbstract(out ? std::move(out) : Abstract::opaque("null"));
    }
}

// `: (<Float32xDefaultFormat[..]>, ...) -> (<...>)` after a node's type line.
bool Parser::deviceTypeLine(LineCursor c) {
    if (last_->debug().dump && last_->debug().dump->hasKernel) {
        return false;
    }
    ++c.pos;  // ':'
    c.skipSpaces();
    auto list = [&](std::vector<DeviceTensor>& out) {
        if (!c.eat('(')) {
            return false;
        }
        c.skipSpaces();
        if (c.eat(')')) {
            return true;
        }
        for (;;) {
            c.skipSpaces();
            if (c.peek() != '<') {
                return false;
            }
            const std::size_t e = c.scanGroup(true);
            auto t = parseDeviceTensor(c.slice(c.pos, e));
            if (!t) {
                return false;
            }
            out.push_back(std::move(*t));
            c.pos = e;
            c.skipSpaces();
            if (c.eat(')')) {
                return true;
            }
            if (!c.eat(',')) {
                return false;
            }
        }
    };
    std::vector<DeviceTensor> ins;
    std::vector<DeviceTensor> outs;
    if (!list(ins)) {
        return false;
    }
    c.skipSpaces();
    if (!c.eat("->")) {
        return false;
    }
    c.skipSpaces();
    if (!list(outs) || !(c.skipSpaces(), c.atEnd())) {
        return false;
    }
    DumpNotes& n = notesOf(last_);
    n.hasKernel = true;
    n.kernelInputs = std::move(ins);
    n.kernelOutputs = std::move(outs);
    return true;
}

bool Parser::debugLine(LineCursor& c, DebugInfo& target) {
    ++c.pos;  // '#'
    c.skipSpaces();
    if (c.eat("Fullname with scope:") || c.eat("scope:")) {
        c.skipSpaces();
        std::string_view r = c.rest();
        if (r.size() >= 2 && r.front() == '(' && r.back() == ')') {
            r = r.substr(1, r.size() - 2);
        }
        if (!target.scope.empty()) {
            return false;  // a second scope line: kept as written
        }
        target.scope = std::string(r);
        return true;
    }
    if (c.eat("In file ")) {
        if (auto loc = parseTrace(c.rest())) {
            target.trace.push_back(std::move(*loc));
            return true;
        }
    }
    return false;
}

}  // namespace irscope::ir::text
