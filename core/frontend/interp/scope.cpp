// Scope analysis: pass 1 collects, per block, the names it binds, declares and uses, and
// every site mentioning a name; pass 2 decides for each name whether it is local, a cell,
// free or global (CPython's rules), then numbers slots and cells and resolves every site.
#include "frontend/interp/scope.h"

#include <algorithm>
#include <unordered_set>

#include "frontend/lexer.h"

namespace irscope::interp {

using namespace irscope::ast;

int CodeInfo::slotOf(std::string_view n) const {
    for (std::size_t i = 0; i < varNames.size(); ++i) {
        if (varNames[i] == n) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

int CodeInfo::cellIndexOf(std::string_view n) const {
    for (std::size_t i = 0; i < cellNames.size(); ++i) {
        if (cellNames[i] == n) {
            return static_cast<int>(i);
        }
    }
    for (std::size_t i = 0; i < freeNames.size(); ++i) {
        if (freeNames[i] == n) {
            return static_cast<int>(cellNames.size() + i);
        }
    }
    return -1;
}

namespace {

enum Flag : unsigned {
    kBound = 1,  // assigned, imported, def/class name, for target, deleted...
    kParam = 2,
    kGlobal = 4,    // `global` statement
    kNonlocal = 8,  // `nonlocal` statement (or a walrus in a comprehension)
    kUsed = 16,
};

enum class Resolution : std::uint8_t { Local, Cell, Free, GlobalExplicit, GlobalImplicit, ClassNs };

struct Block {
    CodeInfo* info = nullptr;
    Block* parent = nullptr;
    std::vector<std::unique_ptr<Block>> children;
    std::vector<std::string> order;  // names in first-mention order (parameters first)
    std::unordered_map<std::string, unsigned> flags;
    std::vector<std::pair<const void*, std::string>> sites;
    std::unordered_map<std::string, Resolution> res;
    std::unordered_set<std::string> childFree;         // free names the children need from here
    std::unordered_map<std::string, Span> nonlocalAt;  // where `nonlocal name` is

    bool functionLike() const {
        return info->kind == CodeInfo::Kind::Function || info->kind == CodeInfo::Kind::Lambda ||
               info->kind == CodeInfo::Kind::Comprehension;
    }
    void mark(const std::string& n, unsigned f) {
        auto [it, inserted] = flags.emplace(n, 0u);
        if (inserted) {
            order.push_back(n);
        }
        it->second |= f;
    }
};

class Analyzer {
public:
    explicit Analyzer(ScriptUnit& u) : unit_(u) {}

    void run() {
        Module& m = *unit_.module;
        root_ = newBlock(nullptr, CodeInfo::Kind::Module, "<module>", "<module>", &m, 1);
        for (const StmtPtr& s : m.body) {
            stmt(*s, root_.get());
        }
        analyze(root_.get(), {});
        assign(root_.get());
    }

private:
    std::unique_ptr<Block> newBlock(Block* parent, CodeInfo::Kind k, std::string name,
                                    std::string qualname, const void* node, int line) {
        auto b = std::make_unique<Block>();
        auto info = std::make_unique<CodeInfo>();
        info->kind = k;
        info->name = std::move(name);
        info->qualname = std::move(qualname);
        info->node = node;
        info->firstLine = line;
        b->info = info.get();
        b->parent = parent;
        unit_.codes.emplace(node, std::move(info));
        return b;
    }

    Block* child(Block* parent, CodeInfo::Kind k, const std::string& name, const void* node,
                 int line) {
        std::string qual;
        if (parent->info->kind == CodeInfo::Kind::Module) {
            qual = name;
        } else if (parent->info->kind == CodeInfo::Kind::Class) {
            qual = parent->info->qualname + "." + name;
        } else {
            qual = parent->info->qualname + ".<locals>." + name;
        }
        parent->children.push_back(newBlock(parent, k, name, qual, node, line));
        return parent->children.back().get();
    }

    static void site(Block* b, const void* node, const std::string& n, unsigned f) {
        b->mark(n, f);
        b->sites.emplace_back(node, n);
    }

    void params(const Arguments& a, Block* b) {
        CodeInfo& c = *b->info;
        for (const Arg& p : a.posonlyargs) {
            b->mark(p.name, kParam | kBound);
        }
        for (const Arg& p : a.args) {
            b->mark(p.name, kParam | kBound);
        }
        for (const Arg& p : a.kwonlyargs) {
            b->mark(p.name, kParam | kBound);
        }
        if (a.vararg) {
            b->mark(a.vararg->name, kParam | kBound);
        }
        if (a.kwarg) {
            b->mark(a.kwarg->name, kParam | kBound);
        }
        c.posOnlyCount = static_cast<int>(a.posonlyargs.size());
        c.posCount = static_cast<int>(a.posonlyargs.size() + a.args.size());
        c.kwOnlyCount = static_cast<int>(a.kwonlyargs.size());
        c.hasVarArgs = a.vararg != nullptr;
        c.hasVarKw = a.kwarg != nullptr;
    }

    void defaults(const Arguments& a, Block* b) {
        for (const ExprPtr& d : a.defaults) {
            expr(*d, b);
        }
        for (const ExprPtr& d : a.kwDefaults) {
            if (d) {
                expr(*d, b);
            }
        }
    }

    void body(const StmtList& list, Block* b) {
        for (const StmtPtr& s : list) {
            stmt(*s, b);
        }
    }

    void stmt(const Stmt& s, Block* b) {
        switch (s.kind) {
            case StmtKind::FunctionDef: {
                const auto& f = s.cast<FunctionDef>();
                for (const ExprPtr& d : f.decorators) {
                    expr(*d, b);
                }
                defaults(f.args, b);
                site(b, &f, f.name, kBound);
                Block* c = child(b, CodeInfo::Kind::Function, f.name, &f, f.span.line);
                if (!f.decorators.empty()) {
                    c->info->firstLine = f.decorators.front()->span.line;
                }
                params(f.args, c);
                body(f.body, c);
                return;
            }
            case StmtKind::ClassDef: {
                const auto& k = s.cast<ClassDef>();
                for (const ExprPtr& d : k.decorators) {
                    expr(*d, b);
                }
                for (const ExprPtr& e : k.bases) {
                    expr(*e, b);
                }
                for (const Keyword& kw : k.keywords) {
                    expr(*kw.value, b);
                }
                site(b, &k, k.name, kBound);
                Block* c = child(b, CodeInfo::Kind::Class, k.name, &k, k.span.line);
                body(k.body, c);
                return;
            }
            case StmtKind::AnnAssign: {  // annotations are not evaluated
                const auto& a = s.cast<AnnAssign>();
                expr(*a.target, b);
                if (a.value) {
                    expr(*a.value, b);
                }
                return;
            }
            case StmtKind::Import:
                for (const Alias& a : s.cast<Import>().names) {
                    std::string bound =
                        a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname;
                    site(b, &a, bound, kBound);
                }
                return;
            case StmtKind::ImportFrom:
                for (const Alias& a : s.cast<ImportFrom>().names) {
                    if (a.name != "*") {
                        site(b, &a, a.asname.empty() ? a.name : a.asname, kBound);
                    }
                }
                return;
            case StmtKind::Global:
                for (const std::string& n : s.cast<Global>().names) {
                    b->mark(n, kGlobal);
                }
                return;
            case StmtKind::Nonlocal:
                for (const std::string& n : s.cast<Nonlocal>().names) {
                    b->mark(n, kNonlocal);
                    b->nonlocalAt.emplace(n, s.span);
                }
                return;
            case StmtKind::Try: {
                const auto& t = s.cast<Try>();
                body(t.body, b);
                for (const ExceptHandler& h : t.handlers) {
                    if (h.type) {
                        expr(*h.type, b);
                    }
                    if (!h.name.empty()) {
                        site(b, &h, h.name, kBound);
                    }
                    body(h.body, b);
                }
                body(t.orelse, b);
                body(t.finalbody, b);
                return;
            }
            default:
                forEachChild(
                    s, [&](const Expr& e) { expr(e, b); }, [&](const Stmt& c) { stmt(c, b); });
        }
    }

    void comprehension(const Expr& e, const std::vector<Comprehension>& gens,
                       std::vector<const Expr*> results, const char* name, Block* b) {
        expr(*gens.front().iter, b);  // the first iterable belongs to the enclosing block
        Block* c = child(b, CodeInfo::Kind::Comprehension, name, &e, e.span.line);
        for (std::size_t i = 0; i < gens.size(); ++i) {
            if (i > 0) {
                expr(*gens[i].iter, c);
            }
            expr(*gens[i].target, c);
            for (const ExprPtr& cond : gens[i].ifs) {
                expr(*cond, c);
            }
        }
        for (const Expr* r : results) {
            expr(*r, c);
        }
    }

    void expr(const Expr& e, Block* b) {
        switch (e.kind) {
            case ExprKind::Name: {
                const auto& n = e.cast<Name>();
                site(b, &n, n.id, n.ctx == ExprContext::Load ? kUsed : kBound);
                if (n.ctx == ExprContext::Load && (n.id == "super") && b->functionLike()) {
                    b->mark("__class__", kUsed);
                }
                return;
            }
            case ExprKind::NamedExpr: {
                const auto& n = e.cast<NamedExpr>();
                expr(*n.value, b);
                const auto& target = n.target->cast<Name>();
                if (b->info->kind != CodeInfo::Kind::Comprehension) {
                    site(b, &target, target.id, kBound);
                    return;
                }
                // A walrus in a comprehension binds in the nearest enclosing non-comprehension
                // block; the comprehensions in between see it as free (or global).
                Block* owner = b;
                while (owner->info->kind == CodeInfo::Kind::Comprehension) {
                    owner = owner->parent;
                }
                if (owner->info->kind == CodeInfo::Kind::Class) {
                    frontend::throwSyntaxError(*unit_.module, e.span.line, e.span.col,
                                               "assignment expression within a comprehension "
                                               "cannot be used in a class body");
                }
                unsigned f = owner->info->kind == CodeInfo::Kind::Module ? kGlobal : kNonlocal;
                owner->mark(target.id, kBound);
                for (Block* c = b; c != owner; c = c->parent) {
                    c->mark(target.id, f);
                }
                b->sites.emplace_back(&target, target.id);
                return;
            }
            case ExprKind::Lambda: {
                const auto& l = e.cast<Lambda>();
                defaults(l.args, b);
                Block* c = child(b, CodeInfo::Kind::Lambda, "<lambda>", &l, l.span.line);
                params(l.args, c);
                expr(*l.body, c);
                return;
            }
            case ExprKind::ListComp: {
                const auto& c = e.cast<ListComp>();
                comprehension(e, c.generators, {c.elt.get()}, "<listcomp>", b);
                return;
            }
            case ExprKind::SetComp: {
                const auto& c = e.cast<SetComp>();
                comprehension(e, c.generators, {c.elt.get()}, "<setcomp>", b);
                return;
            }
            case ExprKind::GeneratorExp: {
                const auto& c = e.cast<GeneratorExp>();
                comprehension(e, c.generators, {c.elt.get()}, "<genexpr>", b);
                return;
            }
            case ExprKind::DictComp: {
                const auto& c = e.cast<DictComp>();
                comprehension(e, c.generators, {c.key.get(), c.value.get()}, "<dictcomp>", b);
                return;
            }
            default:
                forEachChild(e, [&](const Expr& c) { expr(c, b); });
        }
    }

    // --- pass 2 -----------------------------------------------------------------------------

    // `visible`: names bound in enclosing function blocks (what a free name can refer to).
    void analyze(Block* b, const std::unordered_set<std::string>& visible) {
        const CodeInfo::Kind kind = b->info->kind;
        for (const std::string& n : b->order) {
            unsigned f = b->flags[n];
            Resolution r;
            if (f & kGlobal) {
                r = Resolution::GlobalExplicit;
            } else if (f & kNonlocal) {
                if (!visible.count(n)) {
                    failNonlocal(b, n);
                }
                r = Resolution::Free;
            } else if (kind == CodeInfo::Kind::Module) {
                r = Resolution::GlobalImplicit;
            } else if (f & kBound) {
                r = kind == CodeInfo::Kind::Class ? Resolution::ClassNs : Resolution::Local;
            } else if (visible.count(n)) {
                r = Resolution::Free;
            } else {
                r = kind == CodeInfo::Kind::Class ? Resolution::ClassNs
                                                  : Resolution::GlobalImplicit;
            }
            b->res[n] = r;
        }
        // What the children can see.
        std::unordered_set<std::string> childVisible = visible;
        if (b->functionLike()) {
            for (const auto& [n, r] : b->res) {
                if (r == Resolution::Local || r == Resolution::Free) {
                    childVisible.insert(n);
                } else if (r == Resolution::GlobalExplicit) {
                    childVisible.erase(n);
                }
            }
        } else if (kind == CodeInfo::Kind::Class) {
            childVisible.insert("__class__");
        }
        for (auto& c : b->children) {
            analyze(c.get(), childVisible);
            for (const std::string& n : c->info->freeNames) {
                b->childFree.insert(n);
            }
        }
        // Children's free names: our locals become cells; others pass through us (a class
        // body keeps using its namespace for its own sites of such a name).
        std::vector<std::string> passThrough;
        for (const std::string& n : sorted(b->childFree)) {
            if (kind == CodeInfo::Kind::Class && n == "__class__") {
                continue;  // provided by the class cell
            }
            auto it = b->res.find(n);
            if (it != b->res.end() && it->second == Resolution::Local) {
                it->second = Resolution::Cell;
            } else if (it == b->res.end() || it->second != Resolution::Free) {
                passThrough.push_back(n);
            }
        }
        // Number cells and free variables.
        CodeInfo& c = *b->info;
        if (kind == CodeInfo::Kind::Class && b->childFree.count("__class__")) {
            c.classCell = static_cast<int>(c.cellNames.size());
            c.cellNames.push_back("__class__");
            c.cellParam.push_back(-1);
        }
        for (const std::string& n : b->order) {
            if (b->res[n] == Resolution::Cell) {
                c.cellNames.push_back(n);
                c.cellParam.push_back(-1);
            }
        }
        for (const std::string& n : b->order) {
            if (b->res[n] == Resolution::Free) {
                c.freeNames.push_back(n);
            }
        }
        for (const std::string& n : passThrough) {
            c.freeNames.push_back(n);
        }
    }

    static std::vector<std::string> sorted(const std::unordered_set<std::string>& s) {
        std::vector<std::string> v(s.begin(), s.end());
        std::sort(v.begin(), v.end());
        return v;
    }

    [[noreturn]] void failNonlocal(Block* b, const std::string& n) {
        auto it = b->nonlocalAt.find(n);
        int line = it != b->nonlocalAt.end() ? it->second.line : b->info->firstLine;
        int col = it != b->nonlocalAt.end() ? it->second.col : 0;
        frontend::throwSyntaxError(*unit_.module, line, col,
                                   "no binding for nonlocal '" + n + "' found");
    }

    // Slots, closure sources and site resolutions.
    void assign(Block* b) {
        CodeInfo& c = *b->info;
        if (b->functionLike()) {
            for (const std::string& n : b->order) {  // parameters were marked first
                if (b->flags[n] & kParam) {
                    c.varNames.push_back(n);
                }
            }
            for (const std::string& n : b->order) {
                if (!(b->flags[n] & kParam) && b->res[n] == Resolution::Local) {
                    c.varNames.push_back(n);
                }
            }
            for (std::size_t i = 0; i < c.cellNames.size(); ++i) {
                c.cellParam[i] = c.slotOf(c.cellNames[i]);
            }
        }
        if (b->parent) {
            for (const std::string& n : c.freeNames) {
                c.closureSource.push_back(b->parent->info->cellIndexOf(n));
            }
        }
        if (b->functionLike()) {
            c.classFreeVar = c.cellIndexOf("__class__");
        }
        for (const auto& [node, n] : b->sites) {
            NameRef ref;
            switch (b->res[n]) {
                case Resolution::Local:
                    ref = {NameRef::Kind::Fast, c.slotOf(n)};
                    break;
                case Resolution::Cell:
                case Resolution::Free:
                    ref = {c.kind == CodeInfo::Kind::Class ? NameRef::Kind::ClassDeref
                                                           : NameRef::Kind::Deref,
                           c.cellIndexOf(n)};
                    break;
                case Resolution::GlobalExplicit:
                case Resolution::GlobalImplicit:
                    ref = {NameRef::Kind::Global, -1};
                    break;
                case Resolution::ClassNs:
                    ref = {NameRef::Kind::ClassName, -1};
                    break;
            }
            unit_.names[node] = ref;
        }
        for (auto& ch : b->children) {
            assign(ch.get());
        }
    }

    ScriptUnit& unit_;
    std::unique_ptr<Block> root_;
};

}  // namespace

std::shared_ptr<ScriptUnit> analyzeScopes(std::unique_ptr<ast::Module> module) {
    auto unit = std::make_shared<ScriptUnit>();
    unit->module = std::move(module);
    Analyzer(*unit).run();
    return unit;
}

}  // namespace irscope::interp
