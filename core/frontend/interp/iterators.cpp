// The builtin iterators: over lists (live), tuples, strs, ranges, dicts and sets, and the
// enumerate / zip / map / filter / reversed objects.
#include <algorithm>

#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

namespace {

class ListIter : public NativeIterator {
public:
    ListIter(Type* t, Ref<ListObject> l, bool reversed)
        : NativeIterator(t),
          list_(std::move(l)),
          reversed_(reversed),
          i_(reversed ? list_->items.size() : 0) {}
    bool next(Interpreter&, Value& out) override {
        if (!list_) {
            return false;
        }
        if (reversed_) {
            if (i_ > 0 && i_ <= list_->items.size()) {
                out = list_->items[--i_];
                return true;
            }
        } else if (i_ < list_->items.size()) {
            out = list_->items[i_++];
            return true;
        }
        list_.reset();
        return false;
    }
    void clearRefs() override {
        list_.reset();
        NativeIterator::clearRefs();
    }

private:
    Ref<ListObject> list_;
    bool reversed_;
    std::size_t i_;
};

class VectorIter : public NativeIterator {
public:
    VectorIter(Type* t, std::vector<Value> items) : NativeIterator(t), items_(std::move(items)) {}
    bool next(Interpreter&, Value& out) override {
        if (i_ < items_.size()) {
            out = std::move(items_[i_++]);
            return true;
        }
        items_.clear();
        return false;
    }
    void clearRefs() override {
        items_.clear();
        NativeIterator::clearRefs();
    }

private:
    std::vector<Value> items_;
    std::size_t i_ = 0;
};

class TupleIter : public NativeIterator {
public:
    TupleIter(Type* t, Ref<TupleObject> tu) : NativeIterator(t), t_(std::move(tu)) {}
    bool next(Interpreter&, Value& out) override {
        if (t_ && i_ < t_->items.size()) {
            out = t_->items[i_++];
            return true;
        }
        t_.reset();
        return false;
    }
    void clearRefs() override {
        t_.reset();
        NativeIterator::clearRefs();
    }

private:
    Ref<TupleObject> t_;
    std::size_t i_ = 0;
};

class StrIter : public NativeIterator {
public:
    StrIter(Type* t, Ref<StrObject> s) : NativeIterator(t), s_(std::move(s)) {}
    bool next(Interpreter& I, Value& out) override {
        if (!s_ || i_ >= s_->value.size()) {
            s_.reset();
            return false;
        }
        std::size_t len = 1;
        util::decodeUtf8(s_->value, i_, &len);
        out = Value(I.newStr(s_->value.substr(i_, len)));
        i_ += len;
        return true;
    }
    void clearRefs() override {
        s_.reset();
        NativeIterator::clearRefs();
    }

private:
    Ref<StrObject> s_;
    std::size_t i_ = 0;
};

class RangeIter : public NativeIterator {
public:
    RangeIter(Type* t, std::int64_t start, std::int64_t step, std::int64_t n)
        : NativeIterator(t), cur_(start), step_(step), left_(n) {}
    bool next(Interpreter&, Value& out) override {
        if (left_ <= 0) {
            return false;
        }
        out = Value::integer(cur_);
        --left_;
        if (left_ > 0) {
            cur_ += step_;
        }
        return true;
    }

private:
    std::int64_t cur_, step_, left_;
};

class DictIter : public NativeIterator {
public:
    DictIter(Type* t, Ref<DictObject> d, DictViewObject::Which w)
        : NativeIterator(t), d_(std::move(d)), which_(w), size_(d_->size()) {}
    bool next(Interpreter& I, Value& out) override {
        if (!d_) {
            return false;
        }
        if (d_->size() != size_) {
            size_ = static_cast<std::size_t>(-1);
            throw PyError(Exc::RuntimeError, "dictionary changed size during iteration");
        }
        const auto& entries = d_->entries();
        while (i_ < entries.size() && entries[i_].key.isNull()) {
            ++i_;
        }
        if (i_ >= entries.size()) {
            d_.reset();
            return false;
        }
        const auto& e = entries[i_++];
        switch (which_) {
            case DictViewObject::Which::Keys:
                out = e.key;
                break;
            case DictViewObject::Which::Values:
                out = e.value;
                break;
            case DictViewObject::Which::Items:
                out = Value(I.newTuple({e.key, e.value}));
                break;
        }
        return true;
    }
    void clearRefs() override {
        d_.reset();
        NativeIterator::clearRefs();
    }

private:
    Ref<DictObject> d_;
    DictViewObject::Which which_;
    std::size_t size_;
    std::size_t i_ = 0;
};

class SetIter : public NativeIterator {
public:
    SetIter(Type* t, Ref<SetObject> s) : NativeIterator(t), s_(std::move(s)), size_(s_->size()) {}
    bool next(Interpreter&, Value& out) override {
        if (!s_) {
            return false;
        }
        if (s_->size() != size_) {
            size_ = static_cast<std::size_t>(-1);
            throw PyError(Exc::RuntimeError, "Set changed size during iteration");
        }
        const auto& table = s_->table();
        while (i_ < table.size() && table[i_].key.isNull()) {
            ++i_;
        }
        if (i_ >= table.size()) {
            s_.reset();
            return false;
        }
        out = table[i_++].key;
        return true;
    }
    void clearRefs() override {
        s_.reset();
        NativeIterator::clearRefs();
    }

private:
    Ref<SetObject> s_;
    std::size_t size_;
    std::size_t i_ = 0;
};

// enumerate, zip, map, filter over other iterators.
class ComposedIter : public NativeIterator {
public:
    enum class Kind : std::uint8_t { Enumerate, Zip, Map, Filter };
    ComposedIter(Type* t, Kind k, std::vector<Value> its, Value fn, std::int64_t start)
        : NativeIterator(t), kind_(k), its_(std::move(its)), fn_(std::move(fn)), count_(start) {}
    bool next(Interpreter& I, Value& out) override {
        if (done_) {
            return false;
        }
        switch (kind_) {
            case Kind::Enumerate: {
                Value x;
                if (!I.next(its_[0], x)) {
                    return finish();
                }
                out = Value(I.newTuple({Value::integer(count_), x}));
                count_ = checkedAdd(count_, 1);
                return true;
            }
            case Kind::Zip:
            case Kind::Map: {
                std::vector<Value> items;
                for (const Value& it : its_) {
                    Value x;
                    if (!I.next(it, x)) {
                        return finish();
                    }
                    items.push_back(std::move(x));
                }
                if (kind_ == Kind::Zip) {
                    out = Value(I.newTuple(std::move(items)));
                } else {
                    out = I.call(fn_, CallArgs(std::move(items)));
                }
                return !its_.empty() || finish();
            }
            case Kind::Filter: {
                Value x;
                while (I.next(its_[0], x)) {
                    I.step();
                    bool keep = fn_.isNone() ? I.truthy(x) : I.truthy(I.call(fn_, {x}));
                    if (keep) {
                        out = x;
                        return true;
                    }
                }
                return finish();
            }
        }
        return false;
    }
    void clearRefs() override {
        its_.clear();
        fn_ = Value();
        NativeIterator::clearRefs();
    }

private:
    bool finish() {
        done_ = true;
        its_.clear();
        fn_ = Value();
        return false;
    }
    Kind kind_;
    std::vector<Value> its_;
    Value fn_;
    std::int64_t count_;
    bool done_ = false;
};

}  // namespace

Value makeSnapshotIterator(Interpreter& I, std::vector<Value> items, const char* typeName) {
    return Value(I.make<VectorIter>(I.iteratorType(typeName), std::move(items)));
}

Value builtinIterator(Interpreter& I, const Value& v) {
    if (!v.isObj()) {
        return {};
    }
    Object* o = v.obj();
    switch (o->kind()) {
        case ObjKind::List:
            return Value(I.make<ListIter>(I.iteratorType("list_iterator"),
                                          Ref<ListObject>(static_cast<ListObject*>(o)), false));
        case ObjKind::Tuple:
            return Value(I.make<TupleIter>(I.iteratorType("tuple_iterator"),
                                           Ref<TupleObject>(static_cast<TupleObject*>(o))));
        case ObjKind::Str: {
            auto* s = static_cast<StrObject*>(o);
            return Value(I.make<StrIter>(
                I.iteratorType(s->isAscii() ? "str_ascii_iterator" : "str_iterator"),
                Ref<StrObject>(s)));
        }
        case ObjKind::Range: {
            auto* r = static_cast<RangeObject*>(o);
            return Value(I.make<RangeIter>(I.iteratorType("range_iterator"), r->start, r->step,
                                           r->length()));
        }
        case ObjKind::Dict:
            return Value(I.make<DictIter>(I.iteratorType("dict_keyiterator"),
                                          Ref<DictObject>(static_cast<DictObject*>(o)),
                                          DictViewObject::Which::Keys));
        case ObjKind::DictView: {
            auto* dv = static_cast<DictViewObject*>(o);
            const char* name = dv->which == DictViewObject::Which::Keys     ? "dict_keyiterator"
                               : dv->which == DictViewObject::Which::Values ? "dict_valueiterator"
                                                                            : "dict_itemiterator";
            return Value(I.make<DictIter>(I.iteratorType(name), dv->mapping, dv->which));
        }
        case ObjKind::Set:
            return Value(I.make<SetIter>(I.iteratorType("set_iterator"),
                                         Ref<SetObject>(static_cast<SetObject*>(o))));
        default:
            return {};
    }
}

void setUpIterators(Interpreter& I) {
    DictObject& b = I.builtins();
    auto def = [&](const char* name, NativeFn fn) {
        b.setStr(I.intern(name), Value(I.newNative(name, std::move(fn))));
    };
    def("enumerate", [](Interpreter& J, CallArgs& a) {
        static const Signature sig =
            Signature("enumerate").arg("iterable").arg("start", Value::integer(0));
        auto v = sig.bind(J, a);
        return Value(
            J.make<ComposedIter>(J.iteratorType("enumerate"), ComposedIter::Kind::Enumerate,
                                 std::vector<Value>{J.iter(v[0])}, Value(), J.toIndex(v[1])));
    });
    def("zip", [](Interpreter& J, CallArgs& a) {
        for (const KwArg& k : a.kw) {
            if (k.name != "strict") {
                throw PyError(Exc::TypeError,
                              "zip() got an unexpected keyword argument '" + k.name + "'");
            }
        }
        std::vector<Value> its;
        for (std::size_t i = 0; i < a.pos.size(); ++i) {
            try {
                its.push_back(J.iter(a.pos[i]));
            } catch (PyError& e) {
                if (J.isInstance(J.exceptionOf(e), Exc::TypeError)) {
                    throw PyError(Exc::TypeError, "zip argument #" + std::to_string(i + 1) +
                                                      " must support iteration");
                }
                throw;
            }
        }
        return Value(J.make<ComposedIter>(J.iteratorType("zip"), ComposedIter::Kind::Zip,
                                          std::move(its), Value(), 0));
    });
    def("map", [](Interpreter& J, CallArgs& a) {
        noKeywords(a, "map");
        if (a.pos.size() < 2) {
            throw PyError(Exc::TypeError, "map() must have at least two arguments.");
        }
        std::vector<Value> its;
        for (std::size_t i = 1; i < a.pos.size(); ++i) {
            its.push_back(J.iter(a.pos[i]));
        }
        return Value(J.make<ComposedIter>(J.iteratorType("map"), ComposedIter::Kind::Map,
                                          std::move(its), a.pos[0], 0));
    });
    def("filter", [](Interpreter& J, CallArgs& a) {
        noKeywords(a, "filter");
        expectArgs(a, 2, 2, "filter");
        return Value(J.make<ComposedIter>(J.iteratorType("filter"), ComposedIter::Kind::Filter,
                                          std::vector<Value>{J.iter(a.pos[1])}, a.pos[0], 0));
    });
    def("reversed", [](Interpreter& J, CallArgs& a) {
        noKeywords(a, "reversed");
        expectArgs(a, 1, 1, "reversed");
        const Value& v = a.pos[0];
        if (auto* l = v.as<ListObject>()) {
            return Value(
                J.make<ListIter>(J.iteratorType("list_reverseiterator"), Ref<ListObject>(l), true));
        }
        if (auto* r = v.as<RangeObject>()) {
            std::int64_t n = r->length();
            std::int64_t last = n > 0 ? r->at(n - 1) : r->start;
            return Value(J.make<RangeIter>(J.iteratorType("range_iterator"), last, -r->step, n));
        }
        Value rev = J.typeOf(v)->lookup("__reversed__");
        if (!rev.isNull() && !rev.isNone()) {
            return J.call(rev, {v});
        }
        if (v.is<TupleObject>() || v.is<StrObject>() || v.is<DictObject>() ||
            v.is<DictViewObject>() ||
            (!J.typeOf(v)->lookup("__getitem__").isNull() &&
             !J.typeOf(v)->lookup("__len__").isNull())) {
            std::vector<Value> items;
            if (v.is<TupleObject>() || v.is<StrObject>() || v.is<DictObject>() ||
                v.is<DictViewObject>()) {
                items = J.toVector(v);
            } else {
                std::int64_t n = J.len(v);
                for (std::int64_t i = 0; i < n; ++i) {
                    items.push_back(J.getItem(v, Value::integer(i)));
                }
            }
            std::reverse(items.begin(), items.end());
            return makeSnapshotIterator(J, std::move(items), "reversed");
        }
        throw PyError(Exc::TypeError, "'" + J.typeName(v) + "' object is not reversible");
    });
}

}  // namespace irscope::interp
