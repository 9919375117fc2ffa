// Compound statements: def, class, if, for, while, try, with, and parameter lists.
#include <set>

#include "frontend/parser_impl.h"

namespace irscope::frontend {

using namespace ast;

namespace {
Span spanTo(const Token& start, const StmtList& last) {
    const Span& e = last.back()->span;
    return {start.line, start.col, e.endLine, e.endCol};
}
}  // namespace

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
        case Tok::Def:
            return functionDef(std::move(decorators));
        case Tok::Class:
            return classDef(std::move(decorators));
        case Tok::If:
            return ifStatement(false);
        case Tok::While:
            return whileStatement();
        case Tok::For:
            return forStatement();
        case Tok::Try:
            return tryStatement();
        default:
            return withStatement();
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
                    error(toks_[k].endLine, toks_[k].endCol,
                          "expected 'except' or 'finally' block");
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
                    (at(Tok::Comma) &&
                     (ahead().kind == close || ahead().kind == Tok::DoubleStar))) {
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
