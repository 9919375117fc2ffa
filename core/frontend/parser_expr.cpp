// Expressions with Python's precedence, displays, comprehensions, calls, assignment targets.
#include "frontend/parser_impl.h"

namespace irscope::frontend {

using namespace ast;

ExprPtr Parser::seal(ExprPtr e) const {
    int d = 0;
    forEachChild(*e, [&d](const Expr& c) { d = std::max(d, c.depth); });
    e->depth = d + 1;
    if (e->depth > kMaxExprDepth) {
        error(*e, "expression is too deeply nested");
    }
    return e;
}

bool Parser::startsExpression(const Token& t) const {
    switch (t.kind) {
        case Tok::Name:
        case Tok::Number:
        case Tok::String:
        case Tok::LPar:
        case Tok::LSqb:
        case Tok::LBrace:
        case Tok::Minus:
        case Tok::Plus:
        case Tok::Tilde:
        case Tok::Not:
        case Tok::Lambda:
        case Tok::None:
        case Tok::True:
        case Tok::False:
        case Tok::Ellipsis:
        case Tok::Await:
        case Tok::Yield:
            return true;
        default:
            return false;
    }
}

void Parser::rejectBareStarred(const Expr& e) const {
    if (e.kind == ExprKind::Starred) {
        error(e, "can't use starred expression here");
    }
}

void Parser::checkMissingComma(const Expr& element) const {
    switch (tok().kind) {
        case Tok::String:
            if (element.kind == ExprKind::Name) {
                return;  // like CPython: probably a mistyped string prefix, not a comma
            }
            [[fallthrough]];
        case Tok::Name:
        case Tok::Number:
        case Tok::LBrace:
        case Tok::None:
        case Tok::True:
        case Tok::False:
        case Tok::Ellipsis:
            error(element, "invalid syntax. Perhaps you forgot a comma?");
        default:
            return;
    }
}

// --- the precedence ladder ------------------------------------------------------------------

ExprPtr Parser::starExpressions() {
    const Token& start = tok();
    ExprPtr first = starExpression();
    if (!at(Tok::Comma)) {
        return first;
    }
    auto t = std::make_unique<Tuple>(Span{});
    t->elts.push_back(std::move(first));
    while (accept(Tok::Comma)) {
        if (!startsExpression(tok()) && !at(Tok::Star)) {
            break;
        }
        t->elts.push_back(starExpression());
    }
    t->span = spanFrom(start);
    return seal(std::move(t));
}

ExprPtr Parser::starExpression() {
    if (!at(Tok::Star)) {
        return expression();
    }
    const Token& start = advance();
    auto s = std::make_unique<Starred>(Span{});
    s->value = binary(0);
    s->span = spanFrom(start);
    return seal(std::move(s));
}

ExprPtr Parser::namedExpression() {
    if (at(Tok::Name) && ahead().kind == Tok::ColonEqual) {
        const Token& start = advance();
        auto target = std::make_unique<Name>(spanOf(start));
        target->id = text(start);
        target->ctx = ExprContext::Store;
        advance();
        auto n = std::make_unique<NamedExpr>(Span{});
        n->target = std::move(target);
        n->value = expression();
        n->span = spanFrom(start);
        return seal(std::move(n));
    }
    return expression();
}

ExprPtr Parser::expression() {
    NestingGuard guard(*this);
    if (at(Tok::Lambda)) {
        return lambda();
    }
    const Token& start = tok();
    ExprPtr body = disjunction();
    if (!at(Tok::If)) {
        return body;
    }
    advance();
    auto e = std::make_unique<IfExp>(Span{});
    e->body = std::move(body);
    e->test = disjunction();
    if (!accept(Tok::Else)) {
        error(start, "expected 'else' after 'if' expression");
    }
    e->orelse = expression();
    e->span = spanFrom(start);
    return seal(std::move(e));
}

ExprPtr Parser::disjunction() {
    const Token& start = tok();
    ExprPtr first = conjunction();
    if (!at(Tok::Or)) {
        return first;
    }
    auto b = std::make_unique<BoolOp>(Span{});
    b->op = BoolOperator::Or;
    b->values.push_back(std::move(first));
    while (accept(Tok::Or)) {
        b->values.push_back(conjunction());
    }
    b->span = spanFrom(start);
    return seal(std::move(b));
}

ExprPtr Parser::conjunction() {
    const Token& start = tok();
    ExprPtr first = inversion();
    if (!at(Tok::And)) {
        return first;
    }
    auto b = std::make_unique<BoolOp>(Span{});
    b->op = BoolOperator::And;
    b->values.push_back(std::move(first));
    while (accept(Tok::And)) {
        b->values.push_back(inversion());
    }
    b->span = spanFrom(start);
    return seal(std::move(b));
}

ExprPtr Parser::inversion() {
    if (!at(Tok::Not)) {
        return comparison();
    }
    NestingGuard guard(*this);
    const Token& start = advance();
    auto u = std::make_unique<UnaryOp>(Span{});
    u->op = UnaryOperator::Not;
    u->operand = inversion();
    u->span = spanFrom(start);
    return seal(std::move(u));
}

namespace {
// The comparison operator at tokens (t, next), and how many tokens it spans (0: none).
int comparisonOperator(Tok t, Tok next, CmpOperator* op) {
    switch (t) {
        case Tok::EqEqual:
            *op = CmpOperator::Eq;
            return 1;
        case Tok::NotEqual:
            *op = CmpOperator::NotEq;
            return 1;
        case Tok::Less:
            *op = CmpOperator::Lt;
            return 1;
        case Tok::LessEqual:
            *op = CmpOperator::LtE;
            return 1;
        case Tok::Greater:
            *op = CmpOperator::Gt;
            return 1;
        case Tok::GreaterEqual:
            *op = CmpOperator::GtE;
            return 1;
        case Tok::In:
            *op = CmpOperator::In;
            return 1;
        case Tok::Is:
            *op = next == Tok::Not ? CmpOperator::IsNot : CmpOperator::Is;
            return next == Tok::Not ? 2 : 1;
        case Tok::Not:
            *op = CmpOperator::NotIn;
            return next == Tok::In ? 2 : 0;
        default:
            return 0;
    }
}
}  // namespace

ExprPtr Parser::comparison() {
    const Token& start = tok();
    ExprPtr left = binary(0);
    CmpOperator op;
    int width = comparisonOperator(tok().kind, ahead().kind, &op);
    if (width == 0) {
        return left;
    }
    auto c = std::make_unique<Compare>(Span{});
    c->left = std::move(left);
    while (width > 0) {
        advance();
        if (width == 2) {
            advance();
        }
        c->ops.push_back(op);
        c->comparators.push_back(binary(0));
        width = comparisonOperator(tok().kind, ahead().kind, &op);
    }
    c->span = spanFrom(start);
    return seal(std::move(c));
}

namespace {
// The level of a binary operator token, loosest first (| ^ & shifts arithmetic terms), or -1.
int binaryLevel(Tok t, Operator* op) {
    switch (t) {
        case Tok::VBar:
            *op = Operator::BitOr;
            return 0;
        case Tok::CircumFlex:
            *op = Operator::BitXor;
            return 1;
        case Tok::Amper:
            *op = Operator::BitAnd;
            return 2;
        case Tok::LeftShift:
            *op = Operator::LShift;
            return 3;
        case Tok::RightShift:
            *op = Operator::RShift;
            return 3;
        case Tok::Plus:
            *op = Operator::Add;
            return 4;
        case Tok::Minus:
            *op = Operator::Sub;
            return 4;
        case Tok::Star:
            *op = Operator::Mult;
            return 5;
        case Tok::Slash:
            *op = Operator::Div;
            return 5;
        case Tok::DoubleSlash:
            *op = Operator::FloorDiv;
            return 5;
        case Tok::Percent:
            *op = Operator::Mod;
            return 5;
        case Tok::At:
            *op = Operator::MatMult;
            return 5;
        default:
            return -1;
    }
}
}  // namespace

ExprPtr Parser::binary(int level) {
    if (level == 6) {
        return factor();
    }
    const Token& start = tok();
    ExprPtr left = binary(level + 1);
    Operator op = Operator::Add;  // set by binaryLevel before use
    while (binaryLevel(tok().kind, &op) == level) {
        advance();
        auto b = std::make_unique<BinOp>(Span{});
        b->left = std::move(left);
        b->op = op;
        b->right = binary(level + 1);
        b->span = spanFrom(start);
        left = seal(std::move(b));
    }
    return left;
}

ExprPtr Parser::factor() {
    NestingGuard guard(*this);
    UnaryOperator op;
    switch (tok().kind) {
        case Tok::Plus:
            op = UnaryOperator::UAdd;
            break;
        case Tok::Minus:
            op = UnaryOperator::USub;
            break;
        case Tok::Tilde:
            op = UnaryOperator::Invert;
            break;
        default:
            return power();
    }
    const Token& start = advance();
    auto u = std::make_unique<UnaryOp>(Span{});
    u->op = op;
    u->operand = factor();
    u->span = spanFrom(start);
    return seal(std::move(u));
}

ExprPtr Parser::power() {
    const Token& start = tok();
    ExprPtr base = primary();
    if (!accept(Tok::DoubleStar)) {
        return base;
    }
    auto b = std::make_unique<BinOp>(Span{});
    b->left = std::move(base);
    b->op = Operator::Pow;
    b->right = factor();
    b->span = spanFrom(start);
    return seal(std::move(b));
}

ExprPtr Parser::primary() {
    const Token& start = tok();
    ExprPtr e = atom();
    while (true) {
        if (accept(Tok::Dot)) {
            auto a = std::make_unique<Attribute>(Span{});
            a->value = std::move(e);
            a->attr = text(expect(Tok::Name));
            a->span = spanFrom(start);
            e = seal(std::move(a));
        } else if (at(Tok::LPar)) {
            const Token& open = advance();
            auto c = std::make_unique<Call>(Span{});
            c->func = std::move(e);
            callArguments(c->args, c->keywords, open);
            c->span = spanFrom(start);
            e = seal(std::move(c));
        } else if (accept(Tok::LSqb)) {
            auto s = std::make_unique<Subscript>(Span{});
            s->value = std::move(e);
            s->slice = subscriptSlices();
            expect(Tok::RSqb);
            s->span = spanFrom(start);
            e = seal(std::move(s));
        } else {
            return e;
        }
    }
}

ExprPtr Parser::atom() {
    const Token& t = tok();
    switch (t.kind) {
        case Tok::Name: {
            advance();
            auto n = std::make_unique<Name>(spanOf(t));
            n->id = text(t);
            return n;
        }
        case Tok::Number:
            return number();
        case Tok::String:
            return strings();
        case Tok::None:
        case Tok::True:
        case Tok::False:
        case Tok::Ellipsis: {
            advance();
            auto c = std::make_unique<Constant>(spanOf(t));
            c->type = t.kind == Tok::None       ? Constant::Type::None
                      : t.kind == Tok::Ellipsis ? Constant::Type::Ellipsis
                                                : Constant::Type::Bool;
            c->boolValue = t.kind == Tok::True;
            return c;
        }
        case Tok::LPar:
            return parenthesized();
        case Tok::LSqb:
            return listDisplay();
        case Tok::LBrace:
            return braceDisplay();
        case Tok::Yield:
            error(t, "'yield' is not supported");
        case Tok::Await:
            error(t, "'await' is not supported");
        case Tok::Async:
            error(t, "'async' is not supported");
        default:
            invalidSyntax();
    }
}

ExprPtr Parser::lambda() {
    const Token& start = advance();
    auto l = std::make_unique<Lambda>(Span{});
    parameters(l->args, Tok::Colon, false);
    expectColon();
    l->body = expression();
    l->span = spanFrom(start);
    return seal(std::move(l));
}

}  // namespace irscope::frontend
