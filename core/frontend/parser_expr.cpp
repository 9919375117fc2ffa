// Expressions with Python's precedence, displays, comprehensions, calls, assignment targets.
#include <set>

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
        case Tok::Yield: return true;
        default: return false;
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
        case Tok::Ellipsis: error(element, "invalid syntax. Perhaps you forgot a comma?");
        default: return;
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

ExprPtr Parser::expressionList() {
    const Token& start = tok();
    ExprPtr first = expression();
    if (!at(Tok::Comma)) {
        return first;
    }
    auto t = std::make_unique<Tuple>(Span{});
    t->elts.push_back(std::move(first));
    while (accept(Tok::Comma) && startsExpression(tok())) {
        t->elts.push_back(expression());
    }
    t->span = spanFrom(start);
    return seal(std::move(t));
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
        case Tok::EqEqual: *op = CmpOperator::Eq; return 1;
        case Tok::NotEqual: *op = CmpOperator::NotEq; return 1;
        case Tok::Less: *op = CmpOperator::Lt; return 1;
        case Tok::LessEqual: *op = CmpOperator::LtE; return 1;
        case Tok::Greater: *op = CmpOperator::Gt; return 1;
        case Tok::GreaterEqual: *op = CmpOperator::GtE; return 1;
        case Tok::In: *op = CmpOperator::In; return 1;
        case Tok::Is:
            *op = next == Tok::Not ? CmpOperator::IsNot : CmpOperator::Is;
            return next == Tok::Not ? 2 : 1;
        case Tok::Not:
            *op = CmpOperator::NotIn;
            return next == Tok::In ? 2 : 0;
        default: return 0;
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
        case Tok::VBar: *op = Operator::BitOr; return 0;
        case Tok::CircumFlex: *op = Operator::BitXor; return 1;
        case Tok::Amper: *op = Operator::BitAnd; return 2;
        case Tok::LeftShift: *op = Operator::LShift; return 3;
        case Tok::RightShift: *op = Operator::RShift; return 3;
        case Tok::Plus: *op = Operator::Add; return 4;
        case Tok::Minus: *op = Operator::Sub; return 4;
        case Tok::Star: *op = Operator::Mult; return 5;
        case Tok::Slash: *op = Operator::Div; return 5;
        case Tok::DoubleSlash: *op = Operator::FloorDiv; return 5;
        case Tok::Percent: *op = Operator::Mod; return 5;
        case Tok::At: *op = Operator::MatMult; return 5;
        default: return -1;
    }
}
}  // namespace

ExprPtr Parser::binary(int level) {
    if (level == 6) {
        return factor();
    }
    const Token& start = tok();
    ExprPtr left = binary(level + 1);
    Operator op;
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
        case Tok::Plus: op = UnaryOperator::UAdd; break;
        case Tok::Minus: op = UnaryOperator::USub; break;
        case Tok::Tilde: op = UnaryOperator::Invert; break;
        default: return power();
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
        case Tok::Number: return number();
        case Tok::String: return strings();
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
        case Tok::LPar: return parenthesized();
        case Tok::LSqb: return listDisplay();
        case Tok::LBrace: return braceDisplay();
        case Tok::Yield: error(t, "'yield' is not supported");
        case Tok::Await: error(t, "'await' is not supported");
        case Tok::Async: error(t, "'async' is not supported");
        default: invalidSyntax();
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
        case ExprKind::Attribute: return "attribute";
        case ExprKind::Subscript: return "subscript";
        case ExprKind::Starred: return "starred";
        case ExprKind::Name: return "name";
        case ExprKind::List: return "list";
        case ExprKind::Tuple: return "tuple";
        case ExprKind::Lambda: return "lambda";
        case ExprKind::Call: return "function call";
        case ExprKind::BoolOp:
        case ExprKind::BinOp:
        case ExprKind::UnaryOp: return "expression";
        case ExprKind::GeneratorExp: return "generator expression";
        case ExprKind::ListComp: return "list comprehension";
        case ExprKind::SetComp: return "set comprehension";
        case ExprKind::DictComp: return "dict comprehension";
        case ExprKind::Dict: return "dict literal";
        case ExprKind::Set: return "set display";
        case ExprKind::JoinedStr:
        case ExprKind::FormattedValue: return "f-string expression";
        case ExprKind::Compare: return "comparison";
        case ExprKind::IfExp: return "conditional expression";
        case ExprKind::NamedExpr: return "named expression";
        case ExprKind::Slice: return "slice";
        case ExprKind::Constant: {
            const auto& c = e.cast<Constant>();
            switch (c.type) {
                case Constant::Type::None: return "None";
                case Constant::Type::Bool: return c.boolValue ? "True" : "False";
                case Constant::Type::Ellipsis: return "ellipsis";
                default: return "literal";
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
        case ExprKind::Name: e.cast<Name>().ctx = ctx; return;
        case ExprKind::Attribute: e.cast<Attribute>().ctx = ctx; return;
        case ExprKind::Subscript: e.cast<Subscript>().ctx = ctx; return;
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
        default: break;
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
