// Names (local slots, cells, globals, class namespaces), the per-script caches, assignment
// targets and unpacking.
#include "frontend/interp/evaluator.h"
#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

using namespace irscope::ast;

Evaluator::~Evaluator() {
    for (const auto& w : caches_) {
        if (auto c = w.lock()) {
            c->names.clear();
            c->constants.clear();
            c->attrNames.clear();
        }
    }
}

UnitCache& Evaluator::cacheOf(const ScriptUnit& unit) {
    if (!unit.cache) {
        unit.cache = std::make_shared<UnitCache>();
        std::erase_if(caches_, [](const std::weak_ptr<UnitCache>& w) { return w.expired(); });
        caches_.push_back(unit.cache);
    }
    return *unit.cache;
}

const NameInfo& Evaluator::nameInfo(const void* site, const std::string& name,
                                    const ScriptUnit& unit) {
    auto& names = cacheOf(unit).names;
    auto it = names.find(site);
    if (it != names.end()) {
        return it->second;
    }
    return names.emplace(site, NameInfo{unit.nameRef(site), I.intern(name)}).first->second;
}

const Ref<StrObject>& Evaluator::attrName(const Frame& f, const void* node,
                                          const std::string& name) {
    auto& names = cacheOf(*f.unit).attrNames;
    auto it = names.find(node);
    if (it != names.end()) {
        return it->second;
    }
    return names.emplace(node, I.intern(name)).first->second;
}

namespace {

[[noreturn]] void unboundLocal(const std::string& n) {
    throw PyError(Exc::UnboundLocalError, "cannot access local variable '" + n +
                                              "' where it is not associated with a value");
}

[[noreturn]] void unboundFree(const std::string& n) {
    throw PyError(Exc::NameError,
                  "cannot access free variable '" + n +
                      "' where it is not associated with a value in enclosing scope");
}

[[noreturn]] void notDefined(const std::string& n) {
    throw PyError(Exc::NameError, "name '" + n + "' is not defined");
}

}  // namespace

Value Evaluator::loadName(const Name& n, Frame& f) {
    const NameInfo& ni = nameInfo(&n, n.id, *f.unit);
    switch (ni.ref.kind) {
        case NameRef::Kind::Fast: {
            const Value& v = f.fast[static_cast<std::size_t>(ni.ref.index)];
            if (v.isNull()) {
                unboundLocal(n.id);
            }
            return v;
        }
        case NameRef::Kind::Deref: {
            const Value& v = f.cells[static_cast<std::size_t>(ni.ref.index)]->value;
            if (v.isNull()) {
                if (static_cast<std::size_t>(ni.ref.index) < f.code->cellNames.size()) {
                    unboundLocal(n.id);
                }
                unboundFree(n.id);
            }
            return v;
        }
        case NameRef::Kind::ClassDeref: {
            Value v = f.ns->getStr(n.id, ni.name->hash());
            if (!v.isNull()) {
                return v;
            }
            v = f.cells[static_cast<std::size_t>(ni.ref.index)]->value;
            if (v.isNull()) {
                unboundFree(n.id);
            }
            return v;
        }
        case NameRef::Kind::ClassName: {
            Value v = f.ns->getStr(n.id, ni.name->hash());
            if (!v.isNull()) {
                return v;
            }
            [[fallthrough]];
        }
        case NameRef::Kind::Global: {
            Value v = f.globals->getStr(n.id, ni.name->hash());
            if (v.isNull()) {
                v = I.builtins().getStr(n.id, ni.name->hash());
                if (v.isNull()) {
                    notDefined(n.id);
                }
            }
            return v;
        }
    }
    notDefined(n.id);
}

void Evaluator::storeSite(const void* site, const std::string& name, const Value& v, Frame& f) {
    const NameInfo& ni = nameInfo(site, name, *f.unit);
    switch (ni.ref.kind) {
        case NameRef::Kind::Fast:
            f.fast[static_cast<std::size_t>(ni.ref.index)] = v;
            return;
        case NameRef::Kind::Deref:
        case NameRef::Kind::ClassDeref:
            f.cells[static_cast<std::size_t>(ni.ref.index)]->value = v;
            return;
        case NameRef::Kind::ClassName:
            f.ns->setStr(ni.name, v);
            return;
        case NameRef::Kind::Global:
            f.globals->setStr(ni.name, v);
            return;
    }
}

void Evaluator::deleteSite(const void* site, const std::string& name, Frame& f, bool quiet) {
    const NameInfo& ni = nameInfo(site, name, *f.unit);
    switch (ni.ref.kind) {
        case NameRef::Kind::Fast: {
            Value& slot = f.fast[static_cast<std::size_t>(ni.ref.index)];
            if (slot.isNull() && !quiet) {
                unboundLocal(name);
            }
            slot = Value();
            return;
        }
        case NameRef::Kind::Deref:
        case NameRef::Kind::ClassDeref: {
            Value& slot = f.cells[static_cast<std::size_t>(ni.ref.index)]->value;
            if (slot.isNull() && !quiet) {
                unboundLocal(name);
            }
            slot = Value();
            return;
        }
        case NameRef::Kind::ClassName:
            if (!f.ns->removeStr(name) && !quiet) {
                notDefined(name);
            }
            return;
        case NameRef::Kind::Global:
            if (!f.globals->removeStr(name) && !quiet) {
                notDefined(name);
            }
            return;
    }
}

// --- targets ------------------------------------------------------------------------------------

void Evaluator::unpack(const ExprList& targets, const Value& v, Frame& f) {
    std::size_t star = targets.size();
    for (std::size_t i = 0; i < targets.size(); ++i) {
        if (targets[i]->kind == ExprKind::Starred) {
            star = i;
        }
    }
    std::vector<Value> items;
    if (auto* t = v.as<TupleObject>()) {
        items = t->items;
    } else if (auto* l = v.as<ListObject>()) {
        items = l->items;
    } else {
        Value it;
        try {
            it = I.iter(v);
        } catch (PyError& e) {
            if (I.isInstance(I.exceptionOf(e), Exc::TypeError) && !v.isObj()) {
                throw PyError(Exc::TypeError,
                              "cannot unpack non-iterable " + I.typeName(v) + " object");
            }
            if (I.isInstance(I.exceptionOf(e), Exc::TypeError) &&
                I.typeOf(v)->lookup("__iter__").isNull()) {
                throw PyError(Exc::TypeError,
                              "cannot unpack non-iterable " + I.typeName(v) + " object");
            }
            throw;
        }
        Value x;
        while (I.next(it, x)) {
            I.step();
            items.push_back(x);
            if (star == targets.size() && items.size() > targets.size()) {
                break;
            }
        }
    }
    const std::size_t n = targets.size();
    if (star == n) {
        if (items.size() > n) {
            throw PyError(Exc::ValueError,
                          "too many values to unpack (expected " + std::to_string(n) + ")");
        }
        if (items.size() < n) {
            throw PyError(Exc::ValueError, "not enough values to unpack (expected " +
                                               std::to_string(n) + ", got " +
                                               std::to_string(items.size()) + ")");
        }
        for (std::size_t i = 0; i < n; ++i) {
            assign(*targets[i], items[i], f);
        }
        return;
    }
    if (items.size() < n - 1) {
        throw PyError(Exc::ValueError, "not enough values to unpack (expected at least " +
                                           std::to_string(n - 1) + ", got " +
                                           std::to_string(items.size()) + ")");
    }
    std::size_t after = n - 1 - star;
    for (std::size_t i = 0; i < star; ++i) {
        assign(*targets[i], items[i], f);
    }
    std::vector<Value> middle(items.begin() + static_cast<std::ptrdiff_t>(star),
                              items.end() - static_cast<std::ptrdiff_t>(after));
    assign(*targets[star]->cast<Starred>().value, Value(I.newList(std::move(middle))), f);
    for (std::size_t i = 0; i < after; ++i) {
        assign(*targets[star + 1 + i], items[items.size() - after + i], f);
    }
}

void Evaluator::assign(const Expr& target, const Value& v, Frame& f) {
    switch (target.kind) {
        case ExprKind::Name: {
            const auto& n = target.cast<Name>();
            storeSite(&n, n.id, v, f);
            return;
        }
        case ExprKind::Attribute: {
            const auto& a = target.cast<Attribute>();
            Value obj = eval(*a.value, f);
            f.line = target.span.line;
            I.setAttr(obj, a.attr, v);
            return;
        }
        case ExprKind::Subscript: {
            const auto& s = target.cast<Subscript>();
            Value obj = eval(*s.value, f);
            Value key = eval(*s.slice, f);
            f.line = target.span.line;
            I.setItem(obj, key, v);
            return;
        }
        case ExprKind::Tuple:
            unpack(target.cast<Tuple>().elts, v, f);
            return;
        case ExprKind::List:
            unpack(target.cast<List>().elts, v, f);
            return;
        case ExprKind::Starred:
            assign(*target.cast<Starred>().value, v, f);
            return;
        default:
            throw PyError(Exc::TypeError, "cannot assign to expression");
    }
}

void Evaluator::del(const Expr& target, Frame& f) {
    switch (target.kind) {
        case ExprKind::Name: {
            const auto& n = target.cast<Name>();
            deleteSite(&n, n.id, f);
            return;
        }
        case ExprKind::Attribute: {
            const auto& a = target.cast<Attribute>();
            Value obj = eval(*a.value, f);
            I.delAttr(obj, a.attr);
            return;
        }
        case ExprKind::Subscript: {
            const auto& s = target.cast<Subscript>();
            Value obj = eval(*s.value, f);
            Value key = eval(*s.slice, f);
            I.delItem(obj, key);
            return;
        }
        case ExprKind::Tuple:
            for (const ExprPtr& e : target.cast<Tuple>().elts) {
                del(*e, f);
            }
            return;
        case ExprKind::List:
            for (const ExprPtr& e : target.cast<List>().elts) {
                del(*e, f);
            }
            return;
        default:
            throw PyError(Exc::TypeError, "cannot delete expression");
    }
}

}  // namespace irscope::interp
