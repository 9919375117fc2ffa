// Statements: the module, blocks, simple and compound statements.
#include "frontend/parser.h"

#include <set>

#include "frontend/parser_impl.h"

namespace irscope::frontend {

using namespace ast;

std::unique_ptr<Module> parseModule(std::string source, std::string fileName) {
    auto m = std::make_unique<Module>(std::move(fileName), std::move(source));
    std::vector<Token> tokens = Lexer(*m).tokenize();
    Parser(*m, std::move(tokens)).parseModule();
    return m;
}

NestingGuard::NestingGuard(Parser& p) : p_(p) {
    if (++p_.nesting_ > kMaxParserNesting) {
        --p_.nesting_;
        p_.error(p_.tok(), "expression is too deeply nested");
    }
}

void Parser::error(int line, int col, const std::string& msg, const char* kind) const {
    bool prefix = fstring_ && msg.rfind("f-string", 0) != 0;
    throwSyntaxError(m_, line, col, prefix ? "f-string: " + msg : msg, kind);
}

void Parser::invalidSyntax() const {
    const Token& t = tok();
    if (t.kind == Tok::EndMarker || t.kind == Tok::Dedent || t.kind == Tok::Newline) {
        // Point just after the last real token, as CPython does at the end of a line.
        for (std::size_t k = i_; k-- > 0;) {
            Tok kind = toks_[k].kind;
            if (kind != Tok::Newline && kind != Tok::Indent && kind != Tok::Dedent) {
                if (t.kind == Tok::Newline) {
                    break;
                }
                error(toks_[k].endLine, toks_[k].endCol, "invalid syntax");
            }
        }
    }
    error(t, "invalid syntax");
}

const Token& Parser::expect(Tok k) {
    if (!at(k)) {
        if (k == Tok::Colon) {
            error(tok(), "expected ':'");
        }
        invalidSyntax();
    }
    return advance();
}

void Parser::expectColon() {
    if (!accept(Tok::Colon)) {
        error(tok(), "expected ':'");
    }
}

namespace {
Span spanTo(const Token& start, const StmtList& last) {
    const Span& e = last.back()->span;
    return {start.line, start.col, e.endLine, e.endCol};
}
}  // namespace

// --- module and blocks ----------------------------------------------------------------------

void Parser::parseModule() {
    while (!at(Tok::EndMarker)) {
        statement(m_.body);
    }
}

void Parser::statement(StmtList& out) {
    switch (tok().kind) {
        case Tok::Indent:
            error(tok().endLine, tok().endCol, "unexpected indent", "IndentationError");
        case Tok::Def:
        case Tok::Class:
        case Tok::If:
        case Tok::While:
        case Tok::For:
        case Tok::Try:
        case Tok::With:
        case Tok::At: out.push_back(compoundStatement()); return;
        case Tok::Async: error(tok(), "'async' is not supported");
        default: simpleStatements(out);
    }
}

void Parser::simpleStatements(StmtList& out) {
    while (true) {
        out.push_back(simpleStatement());
        if (!accept(Tok::Semi) || at(Tok::Newline)) {
            break;
        }
    }
    if (!accept(Tok::Newline)) {
        // Python 2 habits get CPython's hint.
        const Stmt& last = *out.back();
        if (const auto* es = last.as<ExprStmt>()) {
            const auto* n = es->value->as<Name>();
            if (n && (n->id == "print" || n->id == "exec") && startsExpression(tok())) {
                error(*n, "Missing parentheses in call to '" + n->id + "'. Did you mean " + n->id +
                              "(...)?");
            }
        }
        invalidSyntax();
    }
}

StmtList Parser::block(const std::string& what, int headerLine) {
    StmtList body;
    if (accept(Tok::Newline)) {
        if (!at(Tok::Indent)) {
            const Token& t = tok();
            int line = t.kind == Tok::EndMarker ? prev().line + 1 : t.line;
            int col = t.kind == Tok::EndMarker ? 0 : t.col;
            if (line > m_.lineCount()) {
                line = prev().line;
                col = prev().endCol;
            }
            error(line, col,
                  "expected an indented block after " + what + " on line " + std::to_string(headerLine),
                  "IndentationError");
        }
        advance();
        do {
            statement(body);
        } while (!at(Tok::Dedent) && !at(Tok::EndMarker));
        accept(Tok::Dedent);
    } else {
        simpleStatements(body);
    }
    return body;
}

// --- simple statements ----------------------------------------------------------------------

StmtPtr Parser::simpleStatement() {
    const Token& start = tok();
    auto names = [&](std::vector<std::string>& out) {
        do {
            out.emplace_back(text(expect(Tok::Name)));
        } while (accept(Tok::Comma));
    };
    switch (start.kind) {
        case Tok::Pass: advance(); return node<Pass>(start);
        case Tok::Break:
            if (loopDepth_ == 0) {
                error(start, "'break' outside loop");
            }
            advance();
            return node<Break>(start);
        case Tok::Continue:
            if (loopDepth_ == 0) {
                error(start, "'continue' not properly in loop");
            }
            advance();
            return node<Continue>(start);
        case Tok::Return: {
            if (functionDepth_ == 0) {
                error(start, "'return' outside function");
            }
            advance();
            ExprPtr value;
            if (startsExpression(tok()) || at(Tok::Star)) {
                value = starExpressions();
                rejectBareStarred(*value);
            }
            auto r = node<Return>(start);
            r->value = std::move(value);
            return r;
        }
        case Tok::Raise: {
            advance();
            auto r = std::make_unique<Raise>(Span{});
            if (startsExpression(tok())) {
                r->exc = expression();
                if (accept(Tok::From)) {
                    r->cause = expression();
                }
            }
            r->span = spanFrom(start);
            return r;
        }
        case Tok::Global: {
            advance();
            auto g = std::make_unique<Global>(Span{});
            names(g->names);
            g->span = spanFrom(start);
            return g;
        }
        case Tok::Nonlocal: {
            advance();
            auto g = std::make_unique<Nonlocal>(Span{});
            names(g->names);
            g->span = spanFrom(start);
            if (defDepth_ == 0) {
                error(start, "nonlocal declaration not allowed at module level");
            }
            return g;
        }
        case Tok::Del: {
            advance();
            auto d = std::make_unique<Delete>(Span{});
            do {
                ExprPtr target = starExpression();
                setTarget(*target, TargetUse::Del, false);
                d->targets.push_back(std::move(target));
            } while (accept(Tok::Comma) && !at(Tok::Newline) && !at(Tok::Semi));
            d->span = spanFrom(start);
            return d;
        }
        case Tok::Assert: {
            advance();
            auto a = std::make_unique<Assert>(Span{});
            a->test = expression();
            if (accept(Tok::Comma)) {
                a->msg = expression();
            }
            a->span = spanFrom(start);
            return a;
        }
        case Tok::Import: return importStatement();
        case Tok::From: return fromImportStatement();
        default: return assignmentOrExpression();
    }
}

StmtPtr Parser::assignmentOrExpression() {
    const Token& start = tok();
    ExprPtr first = starExpressions();
    if (at(Tok::Colon)) {
        if (first->kind == ExprKind::Tuple || first->kind == ExprKind::List) {
            error(*first, std::string("only single target (not ") +
                              (first->kind == ExprKind::Tuple ? "tuple" : "list") +
                              ") can be annotated");
        }
        if (first->kind != ExprKind::Name && first->kind != ExprKind::Attribute &&
            first->kind != ExprKind::Subscript) {
            error(*first, "illegal target for annotation");
        }
        setTarget(*first, TargetUse::Assign, false);
        advance();
        auto a = std::make_unique<AnnAssign>(Span{});
        a->simple = first->kind == ExprKind::Name && start.kind != Tok::LPar;
        a->target = std::move(first);
        a->annotation = expression();
        if (accept(Tok::Equal)) {
            a->value = starExpressions();
            rejectBareStarred(*a->value);
        }
        a->span = spanFrom(start);
        return a;
    }
    static constexpr std::pair<Tok, Operator> kAugmented[] = {
        {Tok::PlusEqual, Operator::Add},         {Tok::MinEqual, Operator::Sub},
        {Tok::StarEqual, Operator::Mult},        {Tok::AtEqual, Operator::MatMult},
        {Tok::SlashEqual, Operator::Div},        {Tok::PercentEqual, Operator::Mod},
        {Tok::DoubleStarEqual, Operator::Pow},   {Tok::LeftShiftEqual, Operator::LShift},
        {Tok::RightShiftEqual, Operator::RShift}, {Tok::VBarEqual, Operator::BitOr},
        {Tok::CircumflexEqual, Operator::BitXor}, {Tok::AmperEqual, Operator::BitAnd},
        {Tok::DoubleSlashEqual, Operator::FloorDiv}};
    for (const auto& [t, op] : kAugmented) {
        if (!at(t)) {
            continue;
        }
        if (first->kind != ExprKind::Name && first->kind != ExprKind::Attribute &&
            first->kind != ExprKind::Subscript) {
            error(*first, std::string("'") + describe(*first) +
                              "' is an illegal expression for augmented assignment");
        }
        setTarget(*first, TargetUse::Assign, false);
        advance();
        auto a = std::make_unique<AugAssign>(Span{});
        a->target = std::move(first);
        a->op = op;
        a->value = starExpressions();
        rejectBareStarred(*a->value);
        a->span = spanFrom(start);
        return a;
    }
    if (at(Tok::Equal)) {
        ExprList parts;
        parts.push_back(std::move(first));
        while (accept(Tok::Equal)) {
            parts.push_back(starExpressions());
        }
        auto a = std::make_unique<Assign>(Span{});
        a->value = std::move(parts.back());
        parts.pop_back();
        for (ExprPtr& target : parts) {
            setTarget(*target, TargetUse::Assign, parts.size() == 1);
        }
        rejectBareStarred(*a->value);
        a->targets = std::move(parts);
        a->span = spanFrom(start);
        return a;
    }
    rejectBareStarred(*first);
    auto s = std::make_unique<ExprStmt>(Span{});
    s->value = std::move(first);
    s->span = spanFrom(start);
    return s;
}

std::string Parser::dottedName() {
    std::string name(text(expect(Tok::Name)));
    while (accept(Tok::Dot)) {
        name += '.';
        name += text(expect(Tok::Name));
    }
    return name;
}

StmtPtr Parser::importStatement() {
    const Token& start = advance();
    auto s = std::make_unique<Import>(Span{});
    do {
        const Token& first = tok();
        Alias a;
        a.name = dottedName();
        if (accept(Tok::As)) {
            a.asname = text(expect(Tok::Name));
        }
        a.span = spanFrom(first);
        s->names.push_back(std::move(a));
    } while (accept(Tok::Comma));
    s->span = spanFrom(start);
    return s;
}

StmtPtr Parser::fromImportStatement() {
    const Token& start = advance();
    auto s = std::make_unique<ImportFrom>(Span{});
    while (at(Tok::Dot) || at(Tok::Ellipsis)) {
        s->level += at(Tok::Dot) ? 1 : 3;
        advance();
    }
    if (s->level == 0 || at(Tok::Name)) {
        s->module = dottedName();
    }
    if (!at(Tok::Import)) {
        invalidSyntax();
    }
    advance();
    if (at(Tok::Star)) {
        const Token& star = advance();
        s->names.push_back(Alias{"*", "", spanOf(star)});
    } else {
        bool paren = accept(Tok::LPar);
        do {
            if (paren && at(Tok::RPar)) {
                break;
            }
            const Token& first = expect(Tok::Name);
            Alias a;
            a.name = text(first);
            if (accept(Tok::As)) {
                a.asname = text(expect(Tok::Name));
            }
            a.span = spanFrom(first);
            s->names.push_back(std::move(a));
            if (!paren && at(Tok::Comma) && (ahead().kind == Tok::Newline || ahead().kind == Tok::Semi)) {
                advance();
                error(tok(), "trailing comma not allowed without surrounding parentheses");
            }
        } while (accept(Tok::Comma));
        if (paren) {
            expect(Tok::RPar);
        }
    }
    s->span = spanFrom(start);
    return s;
}

// --- compound statements --------------------------------------------------------------------

StmtPtr Parser::compoundStatement() {
    ExprList decorators;
    while (at(Tok::At)) {
        advance();
        decorators.push_back(namedExpression());
        expect(Tok::Newline);
    }
    if (!decorators.empty() && !at(Tok::Def) && !at(Tok::Class)) {
        if (at(Tok::Async)) {
            error(tok(), "'async' is not supported");
        }
        invalidSyntax();
    }
    switch (tok().kind) {
        case Tok::Def: return functionDef(std::move(decorators));
        case Tok::Class: return classDef(std::move(decorators));
        case Tok::If: return ifStatement(false);
        case Tok::While: return whileStatement();
        case Tok::For: return forStatement();
        case Tok::Try: return tryStatement();
        default: return withStatement();
    }
}

StmtPtr Parser::functionDef(ExprList decorators) {
    const Token& start = advance();
    auto f = std::make_unique<FunctionDef>(Span{});
    f->name = text(expect(Tok::Name));
    if (!at(Tok::LPar)) {
        error(tok(), "expected '('");
    }
    advance();
    parameters(f->args, Tok::RPar, true);
    expect(Tok::RPar);
    if (accept(Tok::Arrow)) {
        f->returns = expression();
    }
    expectColon();
    int savedLoops = loopDepth_;
    int savedFunctions = functionDepth_;
    loopDepth_ = 0;
    functionDepth_ = 1;
    ++defDepth_;
    f->body = block("function definition", start.line);
    --defDepth_;
    loopDepth_ = savedLoops;
    functionDepth_ = savedFunctions;
    f->decorators = std::move(decorators);
    f->span = spanTo(start, f->body);
    return f;
}

StmtPtr Parser::classDef(ExprList decorators) {
    const Token& start = advance();
    auto c = std::make_unique<ClassDef>(Span{});
    c->name = text(expect(Tok::Name));
    if (at(Tok::LPar)) {
        const Token& open = advance();
        callArguments(c->bases, c->keywords, open);
        for (const ExprPtr& b : c->bases) {
            if (b->kind == ExprKind::GeneratorExp) {
                error(*b, "invalid syntax");
            }
        }
    }
    expectColon();
    int savedLoops = loopDepth_;
    int savedFunctions = functionDepth_;
    loopDepth_ = 0;
    functionDepth_ = 0;
    ++defDepth_;
    c->body = block("class definition", start.line);
    --defDepth_;
    loopDepth_ = savedLoops;
    functionDepth_ = savedFunctions;
    c->decorators = std::move(decorators);
    c->span = spanTo(start, c->body);
    return c;
}

StmtPtr Parser::ifStatement(bool isElif) {
    const Token& start = advance();
    auto s = std::make_unique<If>(Span{});
    s->test = namedExpression();
    expectColon();
    s->body = block(isElif ? "'elif' statement" : "'if' statement", start.line);
    if (at(Tok::Elif)) {
        s->orelse.push_back(ifStatement(true));
    } else if (at(Tok::Else)) {
        const Token& e = advance();
        expectColon();
        s->orelse = block("'else' statement", e.line);
    }
    s->span = spanTo(start, s->orelse.empty() ? s->body : s->orelse);
    return s;
}

StmtPtr Parser::forStatement() {
    const Token& start = advance();
    auto s = std::make_unique<For>(Span{});
    s->target = targetList(Tok::In);
    setTarget(*s->target, TargetUse::For, false);
    expect(Tok::In);
    s->iter = starExpressions();
    rejectBareStarred(*s->iter);
    expectColon();
    ++loopDepth_;
    s->body = block("'for' statement", start.line);
    --loopDepth_;
    if (at(Tok::Else)) {
        const Token& e = advance();
        expectColon();
        s->orelse = block("'else' statement", e.line);
    }
    s->span = spanTo(start, s->orelse.empty() ? s->body : s->orelse);
    return s;
}

StmtPtr Parser::whileStatement() {
    const Token& start = advance();
    auto s = std::make_unique<While>(Span{});
    s->test = namedExpression();
    expectColon();
    ++loopDepth_;
    s->body = block("'while' statement", start.line);
    --loopDepth_;
    if (at(Tok::Else)) {
        const Token& e = advance();
        expectColon();
        s->orelse = block("'else' statement", e.line);
    }
    s->span = spanTo(start, s->orelse.empty() ? s->body : s->orelse);
    return s;
}

StmtPtr Parser::tryStatement() {
    const Token& start = advance();
    auto s = std::make_unique<Try>(Span{});
    expectColon();
    s->body = block("'try' statement", start.line);
    const StmtList* last = &s->body;
    while (at(Tok::Except)) {
        const Token& ex = advance();
        if (!s->handlers.empty() && !s->handlers.back().type) {
            error(s->handlers.back().span.line, s->handlers.back().span.col,
                  "default 'except:' must be last");
        }
        ExceptHandler h;
        if (!at(Tok::Colon)) {
            h.type = expression();
            if (at(Tok::Comma)) {
                error(*h.type, "multiple exception types must be parenthesized");
            }
            if (accept(Tok::As)) {
                h.name = text(expect(Tok::Name));
            }
        }
        expectColon();
        h.body = block("'except' statement", ex.line);
        h.span = spanTo(ex, h.body);
        s->handlers.push_back(std::move(h));
        last = &s->handlers.back().body;
    }
    if (!s->handlers.empty() && at(Tok::Else)) {
        const Token& e = advance();
        expectColon();
        s->orelse = block("'else' statement", e.line);
        last = &s->orelse;
    }
    if (at(Tok::Finally)) {
        const Token& f = advance();
        expectColon();
        s->finalbody = block("'finally' statement", f.line);
        last = &s->finalbody;
    }
    if (s->handlers.empty() && s->finalbody.empty()) {
        const Token& t = tok();
        if (t.kind == Tok::EndMarker || t.kind == Tok::Dedent) {
            for (std::size_t k = i_; k-- > 0;) {
                Tok kind = toks_[k].kind;
                if (kind != Tok::Newline && kind != Tok::Indent && kind != Tok::Dedent) {
                    error(toks_[k].endLine, toks_[k].endCol, "expected 'except' or 'finally' block");
                }
            }
        }
        error(t, "expected 'except' or 'finally' block");
    }
    s->span = spanTo(start, *last);
    return s;
}

bool Parser::parenthesizedWithItems(std::vector<WithItem>& items) {
    std::size_t save = i_;
    try {
        advance();  // (
        while (!at(Tok::RPar)) {
            WithItem item;
            item.contextExpr = expression();
            if (accept(Tok::As)) {
                item.optionalVars = binary(0);
                setTarget(*item.optionalVars, TargetUse::With, false);
            }
            items.push_back(std::move(item));
            if (!accept(Tok::Comma)) {
                break;
            }
        }
        expect(Tok::RPar);
        if (!at(Tok::Colon) || items.empty()) {
            invalidSyntax();
        }
        return true;
    } catch (const SyntaxError&) {
        i_ = save;
        items.clear();
        return false;
    }
}

StmtPtr Parser::withStatement() {
    const Token& start = advance();
    auto s = std::make_unique<With>(Span{});
    if (!at(Tok::LPar) || !parenthesizedWithItems(s->items)) {
        do {
            WithItem item;
            item.contextExpr = expression();
            if (accept(Tok::As)) {
                item.optionalVars = binary(0);
                setTarget(*item.optionalVars, TargetUse::With, false);
            }
            s->items.push_back(std::move(item));
        } while (accept(Tok::Comma));
    }
    expectColon();
    s->body = block("'with' statement", start.line);
    s->span = spanTo(start, s->body);
    return s;
}

// --- parameters -----------------------------------------------------------------------------

void Parser::parameters(Arguments& args, Tok close, bool annotations) {
    std::set<std::string, std::less<>> seen;
    bool seenSlash = false;
    bool seenDefault = false;
    auto param = [&]() {
        const Token& name = expect(Tok::Name);
        Arg a;
        a.name = text(name);
        if (annotations && accept(Tok::Colon)) {
            a.annotation = expression();
        }
        a.span = spanFrom(name);
        if (!seen.insert(a.name).second) {
            error(name, "duplicate argument '" + a.name + "' in function definition");
        }
        return a;
    };
    bool starSeen = false;
    while (!at(close)) {
        if (args.kwarg) {
            error(tok(), "arguments cannot follow var-keyword argument");
        }
        if (at(Tok::Slash)) {
            const Token& slash = advance();
            if (seenSlash) {
                error(slash, "/ may appear only once");
            }
            if (starSeen) {
                error(slash, "/ must be ahead of *");
            }
            if (args.args.empty()) {
                error(slash, "at least one argument must precede /");
            }
            seenSlash = true;
            args.posonlyargs = std::move(args.args);
            args.args.clear();
        } else if (at(Tok::DoubleStar)) {
            advance();
            args.kwarg = std::make_unique<Arg>(param());
            if (at(Tok::Equal)) {
                error(tok(), "var-keyword argument cannot have default value");
            }
        } else if (at(Tok::Star)) {
            const Token& star = advance();
            if (starSeen) {
                error(star, "* argument may appear only once");
            }
            starSeen = true;
            if (at(Tok::Name)) {
                args.vararg = std::make_unique<Arg>(param());
                if (at(Tok::Equal)) {
                    error(tok(), "var-positional argument cannot have default value");
                }
            } else {
                if (at(close) || at(Tok::DoubleStar) ||
                    (at(Tok::Comma) && (ahead().kind == close || ahead().kind == Tok::DoubleStar))) {
                    error(star, "named arguments must follow bare *");
                }
            }
        } else {
            if (!at(Tok::Name)) {
                invalidSyntax();
            }
            Arg a = param();
            ExprPtr def;
            if (accept(Tok::Equal)) {
                def = expression();
            }
            if (starSeen) {
                args.kwonlyargs.push_back(std::move(a));
                args.kwDefaults.push_back(std::move(def));
            } else {
                if (def) {
                    seenDefault = true;
                    args.defaults.push_back(std::move(def));
                } else if (seenDefault) {
                    error(a.span.line, a.span.col, "non-default argument follows default argument");
                }
                args.args.push_back(std::move(a));
            }
        }
        if (!accept(Tok::Comma)) {
            break;
        }
    }
}

}  // namespace irscope::frontend
