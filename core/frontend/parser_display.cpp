// Displays ((), [], {}), comprehensions, subscripts, call arguments and assignment targets.
#include <set>

#include "frontend/parser_impl.h"

namespace irscope::frontend {

using namespace ast;

// --- displays -------------------------------------------------------------------------------

ExprPtr Parser::parenthesized() {
    const Token& open = advance();
    if (accept(Tok::RPar)) {
        auto t = std::make_unique<Tuple>(spanFrom(open));
        return t;
    }
    ExprPtr first = at(Tok::Star) ? starExpression() : namedExpression();
    if (at(Tok::For)) {
        if (first->kind == ExprKind::Starred) {
            error(*first, "iterable unpacking cannot be used in comprehension");
        }
        auto g = std::make_unique<GeneratorExp>(Span{});
        g->elt = std::move(first);
        g->generators = comprehensionClauses();
        expect(Tok::RPar);
        g->span = spanFrom(open);
        return seal(std::move(g));
    }
    if (accept(Tok::RPar)) {
        if (first->kind == ExprKind::Starred) {
            error(*first, "cannot use starred expression here");
        }
        return first;  // a parenthesized expression keeps its own span
    }
    if (!at(Tok::Comma)) {
        checkMissingComma(*first);
        invalidSyntax();
    }
    auto t = std::make_unique<Tuple>(Span{});
    t->elts.push_back(std::move(first));
    while (accept(Tok::Comma) && !at(Tok::RPar)) {
        t->elts.push_back(at(Tok::Star) ? starExpression() : namedExpression());
        checkMissingComma(*t->elts.back());
    }
    expect(Tok::RPar);
    t->span = spanFrom(open);
    return seal(std::move(t));
}

ExprPtr Parser::listDisplay() {
    const Token& open = advance();
    if (accept(Tok::RSqb)) {
        return std::make_unique<List>(spanFrom(open));
    }
    ExprPtr first = at(Tok::Star) ? starExpression() : namedExpression();
    if (at(Tok::For)) {
        if (first->kind == ExprKind::Starred) {
            error(*first, "iterable unpacking cannot be used in comprehension");
        }
        auto c = std::make_unique<ListComp>(Span{});
        c->elt = std::move(first);
        c->generators = comprehensionClauses();
        expect(Tok::RSqb);
        c->span = spanFrom(open);
        return seal(std::move(c));
    }
    checkMissingComma(*first);
    auto l = std::make_unique<List>(Span{});
    l->elts.push_back(std::move(first));
    while (accept(Tok::Comma) && !at(Tok::RSqb)) {
        l->elts.push_back(at(Tok::Star) ? starExpression() : namedExpression());
        checkMissingComma(*l->elts.back());
    }
    expect(Tok::RSqb);
    l->span = spanFrom(open);
    return seal(std::move(l));
}

ExprPtr Parser::braceDisplay() {
    const Token& open = advance();
    if (accept(Tok::RBrace)) {
        return std::make_unique<Dict>(spanFrom(open));
    }
    ExprPtr firstKey;
    ExprPtr firstValue;
    bool isDict = false;
    if (at(Tok::DoubleStar)) {
        advance();
        firstValue = binary(0);
        isDict = true;
        if (at(Tok::For)) {
            error(*firstValue, "dict unpacking cannot be used in dict comprehension");
        }
    } else {
        firstKey = at(Tok::Star) ? starExpression() : namedExpression();
        if (firstKey->kind != ExprKind::Starred && accept(Tok::Colon)) {
            isDict = true;
            firstValue = expression();
            if (at(Tok::For)) {
                auto c = std::make_unique<DictComp>(Span{});
                c->key = std::move(firstKey);
                c->value = std::move(firstValue);
                c->generators = comprehensionClauses();
                expect(Tok::RBrace);
                c->span = spanFrom(open);
                return seal(std::move(c));
            }
        }
    }
    if (isDict) {
        auto d = std::make_unique<Dict>(Span{});
        d->keys.push_back(std::move(firstKey));
        d->values.push_back(std::move(firstValue));
        checkMissingComma(*d->values.back());
        while (accept(Tok::Comma) && !at(Tok::RBrace)) {
            if (accept(Tok::DoubleStar)) {
                d->keys.push_back(nullptr);
                d->values.push_back(binary(0));
            } else {
                ExprPtr key = expression();
                if (!accept(Tok::Colon)) {
                    error(*key, "':' expected after dictionary key");
                }
                d->keys.push_back(std::move(key));
                d->values.push_back(expression());
            }
            checkMissingComma(*d->values.back());
        }
        expect(Tok::RBrace);
        d->span = spanFrom(open);
        return seal(std::move(d));
    }
    if (at(Tok::For)) {
        if (firstKey->kind == ExprKind::Starred) {
            error(*firstKey, "iterable unpacking cannot be used in comprehension");
        }
        auto c = std::make_unique<SetComp>(Span{});
        c->elt = std::move(firstKey);
        c->generators = comprehensionClauses();
        expect(Tok::RBrace);
        c->span = spanFrom(open);
        return seal(std::move(c));
    }
    checkMissingComma(*firstKey);
    auto s = std::make_unique<Set>(Span{});
    s->elts.push_back(std::move(firstKey));
    while (accept(Tok::Comma) && !at(Tok::RBrace)) {
        s->elts.push_back(at(Tok::Star) ? starExpression() : namedExpression());
        checkMissingComma(*s->elts.back());
    }
    expect(Tok::RBrace);
    s->span = spanFrom(open);
    return seal(std::move(s));
}

std::vector<Comprehension> Parser::comprehensionClauses() {
    std::vector<Comprehension> gens;
    while (at(Tok::For)) {
        advance();
        Comprehension c;
        c.target = targetList(Tok::In);
        setTarget(*c.target, TargetUse::Comprehension, false);
        expect(Tok::In);
        c.iter = disjunction();
        while (accept(Tok::If)) {
            c.ifs.push_back(disjunction());
        }
        gens.push_back(std::move(c));
    }
    if (at(Tok::Async)) {
        error(tok(), "'async' is not supported");
    }
    return gens;
}

ExprPtr Parser::targetList(Tok stop) {
    const Token& start = tok();
    auto one = [this]() { return at(Tok::Star) ? starExpression() : binary(0); };
    ExprPtr first = one();
    if (!at(Tok::Comma)) {
        return first;
    }
    auto t = std::make_unique<Tuple>(Span{});
    t->elts.push_back(std::move(first));
    while (accept(Tok::Comma) && !at(stop)) {
        t->elts.push_back(one());
    }
    t->span = spanFrom(start);
    return seal(std::move(t));
}

// --- subscripts and calls -------------------------------------------------------------------

ExprPtr Parser::subscriptSlices() {
    const Token& start = tok();
    ExprPtr first = slice();
    if (!at(Tok::Comma) && first->kind != ExprKind::Starred) {
        return first;
    }
    auto t = std::make_unique<Tuple>(Span{});
    t->elts.push_back(std::move(first));
    while (accept(Tok::Comma) && !at(Tok::RSqb)) {
        t->elts.push_back(slice());
    }
    t->span = spanFrom(start);
    return seal(std::move(t));
}

ExprPtr Parser::slice() {
    const Token& start = tok();
    if (at(Tok::Star)) {
        return starExpression();
    }
    ExprPtr lower;
    if (!at(Tok::Colon)) {
        lower = namedExpression();
        if (!at(Tok::Colon)) {
            checkMissingComma(*lower);
            return lower;
        }
    }
    advance();  // :
    auto s = std::make_unique<Slice>(Span{});
    s->lower = std::move(lower);
    if (!at(Tok::Colon) && !at(Tok::Comma) && !at(Tok::RSqb)) {
        s->upper = expression();
    }
    if (accept(Tok::Colon) && !at(Tok::Comma) && !at(Tok::RSqb)) {
        s->step = expression();
    }
    s->span = spanFrom(start);
    return seal(std::move(s));
}

void Parser::callArguments(ExprList& args, std::vector<Keyword>& keywords, const Token& open) {
    bool sawKeyword = false;
    bool sawUnpack = false;
    std::set<std::string, std::less<>> names;
    while (!at(Tok::RPar)) {
        const Token& start = tok();
        if (accept(Tok::Star)) {
            auto s = std::make_unique<Starred>(Span{});
            s->value = expression();
            s->span = spanFrom(start);
            if (sawUnpack) {
                error(start, "iterable argument unpacking follows keyword argument unpacking");
            }
            args.push_back(seal(std::move(s)));
        } else if (accept(Tok::DoubleStar)) {
            Keyword k;
            k.value = expression();
            k.span = spanFrom(start);
            keywords.push_back(std::move(k));
            sawUnpack = true;
        } else if (at(Tok::Name) && ahead().kind == Tok::Equal) {
            advance();
            advance();
            Keyword k;
            k.arg = text(start);
            k.value = expression();
            k.span = spanFrom(start);
            if (!names.insert(k.arg).second) {
                error(start, "keyword argument repeated: " + k.arg);
            }
            keywords.push_back(std::move(k));
            sawKeyword = true;
        } else {
            ExprPtr e = namedExpression();
            if (at(Tok::For)) {
                auto g = std::make_unique<GeneratorExp>(Span{});
                g->elt = std::move(e);
                g->generators = comprehensionClauses();
                bool sole = args.empty() && keywords.empty() && at(Tok::RPar);
                if (!sole) {
                    error(*g->elt, "Generator expression must be parenthesized");
                }
                expect(Tok::RPar);
                g->span = spanFrom(open);
                args.push_back(seal(std::move(g)));
                return;
            }
            if (at(Tok::Equal)) {
                error(*e, "expression cannot contain assignment, perhaps you meant \"==\"?");
            }
            if (sawUnpack) {
                error(*e, "positional argument follows keyword argument unpacking");
            }
            if (sawKeyword) {
                error(*e, "positional argument follows keyword argument");
            }
            checkMissingComma(*e);
            args.push_back(std::move(e));
        }
        if (!accept(Tok::Comma)) {
            break;
        }
    }
    expect(Tok::RPar);
}

// --- assignment targets ---------------------------------------------------------------------

const char* Parser::describe(const Expr& e) {
    switch (e.kind) {
        case ExprKind::Attribute:
            return "attribute";
        case ExprKind::Subscript:
            return "subscript";
        case ExprKind::Starred:
            return "starred";
        case ExprKind::Name:
            return "name";
        case ExprKind::List:
            return "list";
        case ExprKind::Tuple:
            return "tuple";
        case ExprKind::Lambda:
            return "lambda";
        case ExprKind::Call:
            return "function call";
        case ExprKind::BoolOp:
        case ExprKind::BinOp:
        case ExprKind::UnaryOp:
            return "expression";
        case ExprKind::GeneratorExp:
            return "generator expression";
        case ExprKind::ListComp:
            return "list comprehension";
        case ExprKind::SetComp:
            return "set comprehension";
        case ExprKind::DictComp:
            return "dict comprehension";
        case ExprKind::Dict:
            return "dict literal";
        case ExprKind::Set:
            return "set display";
        case ExprKind::JoinedStr:
        case ExprKind::FormattedValue:
            return "f-string expression";
        case ExprKind::Compare:
            return "comparison";
        case ExprKind::IfExp:
            return "conditional expression";
        case ExprKind::NamedExpr:
            return "named expression";
        case ExprKind::Slice:
            return "slice";
        case ExprKind::Constant: {
            const auto& c = e.cast<Constant>();
            switch (c.type) {
                case Constant::Type::None:
                    return "None";
                case Constant::Type::Bool:
                    return c.boolValue ? "True" : "False";
                case Constant::Type::Ellipsis:
                    return "ellipsis";
                default:
                    return "literal";
            }
        }
    }
    return "expression";
}

void Parser::setTarget(Expr& e, TargetUse use, bool hint) const {
    if (e.kind == ExprKind::Starred && use != TargetUse::Del) {
        error(e, "starred assignment target must be in a list or tuple");
    }
    setTargetInner(e, use, hint);
}

void Parser::setTargetInner(Expr& e, TargetUse use, bool hint) const {
    ExprContext ctx = use == TargetUse::Del ? ExprContext::Del : ExprContext::Store;
    switch (e.kind) {
        case ExprKind::Name:
            e.cast<Name>().ctx = ctx;
            return;
        case ExprKind::Attribute:
            e.cast<Attribute>().ctx = ctx;
            return;
        case ExprKind::Subscript:
            e.cast<Subscript>().ctx = ctx;
            return;
        case ExprKind::Starred:
            if (use == TargetUse::Del) {
                error(e, "cannot delete starred");
            }
            e.cast<Starred>().ctx = ctx;
            setTargetInner(*e.cast<Starred>().value, use, false);
            return;
        case ExprKind::Tuple:
        case ExprKind::List: {
            ExprList& elts = e.kind == ExprKind::Tuple ? e.cast<Tuple>().elts : e.cast<List>().elts;
            if (e.kind == ExprKind::Tuple) {
                e.cast<Tuple>().ctx = ctx;
            } else {
                e.cast<List>().ctx = ctx;
            }
            const Expr* starred = nullptr;
            for (ExprPtr& elt : elts) {
                if (elt->kind == ExprKind::Starred && use != TargetUse::Del) {
                    if (starred) {
                        error(*elt, "multiple starred expressions in assignment");
                    }
                    starred = elt.get();
                }
                setTargetInner(*elt, use, false);
            }
            return;
        }
        default:
            break;
    }
    std::string what = describe(e);
    if (use == TargetUse::Del) {
        error(e, "cannot delete " + what);
    }
    bool keywordConstant = what == "None" || what == "True" || what == "False";
    error(e, "cannot assign to " + what +
                 (hint && !keywordConstant ? " here. Maybe you meant '==' instead of '='?" : ""));
}

}  // namespace irscope::frontend
