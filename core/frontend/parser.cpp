// Statements: the module, blocks, simple and compound statements.
#include "frontend/parser.h"

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
        case Tok::At:
            out.push_back(compoundStatement());
            return;
        case Tok::Async:
            error(tok(), "'async' is not supported");
        default:
            simpleStatements(out);
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
                  "expected an indented block after " + what + " on line " +
                      std::to_string(headerLine),
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
        case Tok::Pass:
            advance();
            return node<Pass>(start);
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
        case Tok::Import:
            return importStatement();
        case Tok::From:
            return fromImportStatement();
        default:
            return assignmentOrExpression();
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
        {Tok::PlusEqual, Operator::Add},
        {Tok::MinEqual, Operator::Sub},
        {Tok::StarEqual, Operator::Mult},
        {Tok::AtEqual, Operator::MatMult},
        {Tok::SlashEqual, Operator::Div},
        {Tok::PercentEqual, Operator::Mod},
        {Tok::DoubleStarEqual, Operator::Pow},
        {Tok::LeftShiftEqual, Operator::LShift},
        {Tok::RightShiftEqual, Operator::RShift},
        {Tok::VBarEqual, Operator::BitOr},
        {Tok::CircumflexEqual, Operator::BitXor},
        {Tok::AmperEqual, Operator::BitAnd},
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
            if (!paren && at(Tok::Comma) &&
                (ahead().kind == Tok::Newline || ahead().kind == Tok::Semi)) {
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

}  // namespace irscope::frontend
