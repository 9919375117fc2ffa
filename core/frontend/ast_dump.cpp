// dumpAst: CPython ast.dump-like text for tests and debugging.
#include <cstdio>

#include "frontend/ast.h"
#include "util/py_text.h"

namespace irscope::ast {

namespace {

class Dumper {
public:
    explicit Dumper(const DumpOptions& o) : opts_(o) {}
    std::string out;

    void expr(const Expr& e);
    void stmt(const Stmt& s);

    void body(const StmtList& list) {
        out += '[';
        for (std::size_t i = 0; i < list.size(); ++i) {
            out += i ? ", " : "";
            stmt(*list[i]);
        }
        out += ']';
    }

private:
    const DumpOptions& opts_;

    // Writes "name=" before each field after the first of a node.
    struct Fields {
        Dumper& d;
        bool first = true;
        void key(const char* name) {
            d.out += first ? "" : ", ";
            first = false;
            d.out += name;
            d.out += '=';
        }
    };

    void span(const Span& s) {
        if (opts_.spans) {
            out += '@' + std::to_string(s.line) + ':' + std::to_string(s.col) + '-' +
                   std::to_string(s.endLine) + ':' + std::to_string(s.endCol);
        }
    }
    void list(const ExprList& l) {
        out += '[';
        for (std::size_t i = 0; i < l.size(); ++i) {
            out += i ? ", " : "";
            if (l[i]) {
                expr(*l[i]);
            } else {
                out += "None";
            }
        }
        out += ']';
    }
    void field(Fields& f, const char* name, const ExprPtr& e) {
        if (e) {
            f.key(name);
            expr(*e);
        }
    }
    void field(Fields& f, const char* name, const ExprList& l) {
        if (!l.empty()) {
            f.key(name);
            list(l);
        }
    }
    void field(Fields& f, const char* name, const StmtList& l) {
        if (!l.empty()) {
            f.key(name);
            body(l);
        }
    }
    void field(Fields& f, const char* name, const std::string& s) {
        f.key(name);
        out += util::pyStrRepr(s);
    }
    void ctx(Fields& f, ExprContext c) {
        if (c != ExprContext::Load) {
            f.key("ctx");
            out += name(c);
            out += "()";
        }
    }
    void opField(Fields& f, const char* key, const char* opName) {
        f.key(key);
        out += opName;
        out += "()";
    }
    void arg(const Arg& a) {
        out += "arg(";
        Fields f{*this};
        field(f, "arg", a.name);
        field(f, "annotation", a.annotation);
        out += ')';
        span(a.span);
    }
    void args(const std::vector<Arg>& l) {
        out += '[';
        for (std::size_t i = 0; i < l.size(); ++i) {
            out += i ? ", " : "";
            arg(l[i]);
        }
        out += ']';
    }
    void arguments(const Arguments& a) {
        out += "arguments(";
        Fields f{*this};
        if (!a.posonlyargs.empty()) {
            f.key("posonlyargs");
            args(a.posonlyargs);
        }
        if (!a.args.empty()) {
            f.key("args");
            args(a.args);
        }
        if (a.vararg) {
            f.key("vararg");
            arg(*a.vararg);
        }
        if (!a.kwonlyargs.empty()) {
            f.key("kwonlyargs");
            args(a.kwonlyargs);
            f.key("kw_defaults");
            list(a.kwDefaults);
        }
        if (a.kwarg) {
            f.key("kwarg");
            arg(*a.kwarg);
        }
        field(f, "defaults", a.defaults);
        out += ')';
    }
    void keywords(Fields& f, const std::vector<Keyword>& kws) {
        if (kws.empty()) {
            return;
        }
        f.key("keywords");
        out += '[';
        for (std::size_t i = 0; i < kws.size(); ++i) {
            out += i ? ", " : "";
            out += "keyword(";
            Fields kf{*this};
            if (!kws[i].arg.empty()) {
                field(kf, "arg", kws[i].arg);
            }
            field(kf, "value", kws[i].value);
            out += ')';
            span(kws[i].span);
        }
        out += ']';
    }
    void generators(Fields& f, const std::vector<Comprehension>& gens) {
        f.key("generators");
        out += '[';
        for (std::size_t i = 0; i < gens.size(); ++i) {
            out += i ? ", " : "";
            out += "comprehension(";
            Fields cf{*this};
            field(cf, "target", gens[i].target);
            field(cf, "iter", gens[i].iter);
            field(cf, "ifs", gens[i].ifs);
            out += ')';
        }
        out += ']';
    }
    void aliases(Fields& f, const std::vector<Alias>& names) {
        f.key("names");
        out += '[';
        for (std::size_t i = 0; i < names.size(); ++i) {
            out += i ? ", " : "";
            out += "alias(";
            Fields af{*this};
            field(af, "name", names[i].name);
            if (!names[i].asname.empty()) {
                field(af, "asname", names[i].asname);
            }
            out += ')';
            span(names[i].span);
        }
        out += ']';
    }
    void identifiers(Fields& f, const std::vector<std::string>& names) {
        f.key("names");
        out += '[';
        for (std::size_t i = 0; i < names.size(); ++i) {
            out += i ? ", " : "";
            out += util::pyStrRepr(names[i]);
        }
        out += ']';
    }
    void constant(const Constant& c) {
        switch (c.type) {
            case Constant::Type::None:
                out += "None";
                break;
            case Constant::Type::Bool:
                out += c.boolValue ? "True" : "False";
                break;
            case Constant::Type::Ellipsis:
                out += "Ellipsis";
                break;
            case Constant::Type::Int:
                out += c.intOverflow ? intLiteralDecimal(c.intText) : std::to_string(c.intValue);
                break;
            case Constant::Type::Float:
                out += pyRepr(c.floatValue);
                break;
            case Constant::Type::Complex: {
                std::string im = pyRepr(c.floatValue);  // 2j, not 2.0j
                if (im.size() > 2 && im.compare(im.size() - 2, 2, ".0") == 0) {
                    im.resize(im.size() - 2);
                }
                out += im + "j";
                break;
            }
            case Constant::Type::Str:
                out += util::pyStrRepr(c.strValue);
                break;
        }
    }
};

void Dumper::expr(const Expr& e) {
    out += name(e.kind);
    out += '(';
    Fields f{*this};
    switch (e.kind) {
        case ExprKind::BoolOp: {
            const auto& n = e.cast<BoolOp>();
            opField(f, "op", name(n.op));
            field(f, "values", n.values);
            break;
        }
        case ExprKind::NamedExpr: {
            const auto& n = e.cast<NamedExpr>();
            field(f, "target", n.target);
            field(f, "value", n.value);
            break;
        }
        case ExprKind::BinOp: {
            const auto& n = e.cast<BinOp>();
            field(f, "left", n.left);
            opField(f, "op", name(n.op));
            field(f, "right", n.right);
            break;
        }
        case ExprKind::UnaryOp: {
            const auto& n = e.cast<UnaryOp>();
            opField(f, "op", name(n.op));
            field(f, "operand", n.operand);
            break;
        }
        case ExprKind::Lambda: {
            const auto& n = e.cast<Lambda>();
            f.key("args");
            arguments(n.args);
            field(f, "body", n.body);
            break;
        }
        case ExprKind::IfExp: {
            const auto& n = e.cast<IfExp>();
            field(f, "test", n.test);
            field(f, "body", n.body);
            field(f, "orelse", n.orelse);
            break;
        }
        case ExprKind::Dict: {
            const auto& n = e.cast<Dict>();
            field(f, "keys", n.keys);
            field(f, "values", n.values);
            break;
        }
        case ExprKind::Set:
            field(f, "elts", e.cast<Set>().elts);
            break;
        case ExprKind::ListComp: {
            const auto& n = e.cast<ListComp>();
            field(f, "elt", n.elt);
            generators(f, n.generators);
            break;
        }
        case ExprKind::SetComp: {
            const auto& n = e.cast<SetComp>();
            field(f, "elt", n.elt);
            generators(f, n.generators);
            break;
        }
        case ExprKind::GeneratorExp: {
            const auto& n = e.cast<GeneratorExp>();
            field(f, "elt", n.elt);
            generators(f, n.generators);
            break;
        }
        case ExprKind::DictComp: {
            const auto& n = e.cast<DictComp>();
            field(f, "key", n.key);
            field(f, "value", n.value);
            generators(f, n.generators);
            break;
        }
        case ExprKind::Compare: {
            const auto& n = e.cast<Compare>();
            field(f, "left", n.left);
            f.key("ops");
            out += '[';
            for (std::size_t i = 0; i < n.ops.size(); ++i) {
                out += i ? ", " : "";
                out += name(n.ops[i]);
                out += "()";
            }
            out += ']';
            field(f, "comparators", n.comparators);
            break;
        }
        case ExprKind::Call: {
            const auto& n = e.cast<Call>();
            field(f, "func", n.func);
            field(f, "args", n.args);
            keywords(f, n.keywords);
            break;
        }
        case ExprKind::FormattedValue: {
            const auto& n = e.cast<FormattedValue>();
            field(f, "value", n.value);
            f.key("conversion");
            out += std::to_string(n.conversion);
            field(f, "format_spec", n.formatSpec);
            break;
        }
        case ExprKind::JoinedStr:
            field(f, "values", e.cast<JoinedStr>().values);
            break;
        case ExprKind::Constant:
            f.key("value");
            constant(e.cast<Constant>());
            break;
        case ExprKind::Attribute: {
            const auto& n = e.cast<Attribute>();
            field(f, "value", n.value);
            field(f, "attr", n.attr);
            ctx(f, n.ctx);
            break;
        }
        case ExprKind::Subscript: {
            const auto& n = e.cast<Subscript>();
            field(f, "value", n.value);
            field(f, "slice", n.slice);
            ctx(f, n.ctx);
            break;
        }
        case ExprKind::Starred: {
            const auto& n = e.cast<Starred>();
            field(f, "value", n.value);
            ctx(f, n.ctx);
            break;
        }
        case ExprKind::Name: {
            const auto& n = e.cast<Name>();
            field(f, "id", n.id);
            ctx(f, n.ctx);
            break;
        }
        case ExprKind::List: {
            const auto& n = e.cast<List>();
            field(f, "elts", n.elts);
            ctx(f, n.ctx);
            break;
        }
        case ExprKind::Tuple: {
            const auto& n = e.cast<Tuple>();
            field(f, "elts", n.elts);
            ctx(f, n.ctx);
            break;
        }
        case ExprKind::Slice: {
            const auto& n = e.cast<Slice>();
            field(f, "lower", n.lower);
            field(f, "upper", n.upper);
            field(f, "step", n.step);
            break;
        }
    }
    out += ')';
    span(e.span);
}

void Dumper::stmt(const Stmt& s) {
    out += name(s.kind);
    out += '(';
    Fields f{*this};
    switch (s.kind) {
        case StmtKind::FunctionDef: {
            const auto& n = s.cast<FunctionDef>();
            field(f, "name", n.name);
            f.key("args");
            arguments(n.args);
            field(f, "body", n.body);
            field(f, "decorator_list", n.decorators);
            field(f, "returns", n.returns);
            break;
        }
        case StmtKind::ClassDef: {
            const auto& n = s.cast<ClassDef>();
            field(f, "name", n.name);
            field(f, "bases", n.bases);
            keywords(f, n.keywords);
            field(f, "body", n.body);
            field(f, "decorator_list", n.decorators);
            break;
        }
        case StmtKind::Return:
            field(f, "value", s.cast<Return>().value);
            break;
        case StmtKind::Delete:
            field(f, "targets", s.cast<Delete>().targets);
            break;
        case StmtKind::Assign: {
            const auto& n = s.cast<Assign>();
            field(f, "targets", n.targets);
            field(f, "value", n.value);
            break;
        }
        case StmtKind::AugAssign: {
            const auto& n = s.cast<AugAssign>();
            field(f, "target", n.target);
            opField(f, "op", name(n.op));
            field(f, "value", n.value);
            break;
        }
        case StmtKind::AnnAssign: {
            const auto& n = s.cast<AnnAssign>();
            field(f, "target", n.target);
            field(f, "annotation", n.annotation);
            field(f, "value", n.value);
            f.key("simple");
            out += n.simple ? "1" : "0";
            break;
        }
        case StmtKind::For: {
            const auto& n = s.cast<For>();
            field(f, "target", n.target);
            field(f, "iter", n.iter);
            field(f, "body", n.body);
            field(f, "orelse", n.orelse);
            break;
        }
        case StmtKind::While: {
            const auto& n = s.cast<While>();
            field(f, "test", n.test);
            field(f, "body", n.body);
            field(f, "orelse", n.orelse);
            break;
        }
        case StmtKind::If: {
            const auto& n = s.cast<If>();
            field(f, "test", n.test);
            field(f, "body", n.body);
            field(f, "orelse", n.orelse);
            break;
        }
        case StmtKind::With: {
            const auto& n = s.cast<With>();
            f.key("items");
            out += '[';
            for (std::size_t i = 0; i < n.items.size(); ++i) {
                out += i ? ", " : "";
                out += "withitem(";
                Fields wf{*this};
                field(wf, "context_expr", n.items[i].contextExpr);
                field(wf, "optional_vars", n.items[i].optionalVars);
                out += ')';
            }
            out += ']';
            field(f, "body", n.body);
            break;
        }
        case StmtKind::Raise: {
            const auto& n = s.cast<Raise>();
            field(f, "exc", n.exc);
            field(f, "cause", n.cause);
            break;
        }
        case StmtKind::Try: {
            const auto& n = s.cast<Try>();
            field(f, "body", n.body);
            if (!n.handlers.empty()) {
                f.key("handlers");
                out += '[';
                for (std::size_t i = 0; i < n.handlers.size(); ++i) {
                    const ExceptHandler& h = n.handlers[i];
                    out += i ? ", " : "";
                    out += "ExceptHandler(";
                    Fields hf{*this};
                    field(hf, "type", h.type);
                    if (!h.name.empty()) {
                        field(hf, "name", h.name);
                    }
                    field(hf, "body", h.body);
                    out += ')';
                    span(h.span);
                }
                out += ']';
            }
            field(f, "orelse", n.orelse);
            field(f, "finalbody", n.finalbody);
            break;
        }
        case StmtKind::Assert: {
            const auto& n = s.cast<Assert>();
            field(f, "test", n.test);
            field(f, "msg", n.msg);
            break;
        }
        case StmtKind::Import:
            aliases(f, s.cast<Import>().names);
            break;
        case StmtKind::ImportFrom: {
            const auto& n = s.cast<ImportFrom>();
            if (!n.module.empty()) {
                field(f, "module", n.module);
            }
            aliases(f, n.names);
            f.key("level");
            out += std::to_string(n.level);
            break;
        }
        case StmtKind::Global:
            identifiers(f, s.cast<Global>().names);
            break;
        case StmtKind::Nonlocal:
            identifiers(f, s.cast<Nonlocal>().names);
            break;
        case StmtKind::Expr:
            field(f, "value", s.cast<ExprStmt>().value);
            break;
        case StmtKind::Pass:
        case StmtKind::Break:
        case StmtKind::Continue:
            break;
    }
    out += ')';
    span(s.span);
}

}  // namespace

std::string dumpAst(const Module& m, const DumpOptions& opts) {
    Dumper d(opts);
    d.out += "Module(";
    if (!m.body.empty()) {
        d.out += "body=";
        d.body(m.body);
    }
    d.out += ')';
    return d.out;
}

std::string dumpAst(const Stmt& s, const DumpOptions& opts) {
    Dumper d(opts);
    d.stmt(s);
    return d.out;
}

std::string dumpAst(const Expr& e, const DumpOptions& opts) {
    Dumper d(opts);
    d.expr(e);
    return d.out;
}

}  // namespace irscope::ast
