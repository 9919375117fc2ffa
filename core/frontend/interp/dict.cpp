// dict and set storage, and the hash functions of the immutable builtins.
//
// The dict is ordered (entries in insertion order, an open-addressing index into them). The
// set follows CPython's set table (size 8 growing at 60% fill to 4x the active count, nine
// linear probes then perturbation) so iteration order of int sets matches CPython's.
#include <cmath>
#include <limits>

#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

// --- hashes -----------------------------------------------------------------------------------

namespace {
constexpr std::uint64_t kModulus = (std::uint64_t{1} << 61) - 1;  // Python's numeric hash prime
}

std::int64_t strHash(std::string_view s) {
    std::uint64_t h = 14695981039346656037ull;
    for (unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ull;
    }
    auto r = static_cast<std::int64_t>(h);
    return r == -1 ? -2 : r;
}

std::int64_t hashInt(std::int64_t v) {
    std::uint64_t mag =
        v < 0 ? static_cast<std::uint64_t>(-(v + 1)) + 1 : static_cast<std::uint64_t>(v);
    auto r = static_cast<std::int64_t>(mag % kModulus);
    if (v < 0) {
        r = -r;
    }
    return r == -1 ? -2 : r;
}

// hash(x) = m * 2**e reduced modulo 2**61 - 1 (so that hash(2.0) == hash(2)); multiplying by
// a power of two modulo a Mersenne prime is a rotation of the 61-bit residue.
std::int64_t hashFloat(double d) {
    if (std::isinf(d)) {
        return d > 0 ? 314159 : -314159;
    }
    if (std::isnan(d)) {
        return 0;
    }
    int e = 0;
    double m = std::frexp(std::fabs(d), &e);
    std::uint64_t x = 0;
    while (m != 0.0) {
        x = ((x << 28) & kModulus) | (x >> (61 - 28));
        m *= 268435456.0;  // 2**28
        e -= 28;
        auto y = static_cast<std::uint64_t>(m);
        m -= static_cast<double>(y);
        x += y;
        if (x >= kModulus) {
            x -= kModulus;
        }
    }
    e = e >= 0 ? e % 61 : 61 - 1 - ((-1 - e) % 61);
    x = ((x << e) & kModulus) | (x >> (61 - e));
    auto r = static_cast<std::int64_t>(x);
    if (d < 0) {
        r = -r;
    }
    return r == -1 ? -2 : r;
}

std::int64_t hashTuple(Interpreter& I, const std::vector<Value>& items) {
    constexpr std::uint64_t p1 = 11400714785074694791ull, p2 = 14029467366897019727ull,
                            p5 = 2870177450012600261ull;
    std::uint64_t acc = p5;
    for (const Value& v : items) {
        auto lane = static_cast<std::uint64_t>(I.hash(v));
        acc += lane * p2;
        acc = (acc << 31) | (acc >> 33);
        acc *= p1;
    }
    acc += items.size() ^ (p5 ^ 3527539ull);
    if (acc == ~std::uint64_t{0}) {
        return 1546275796;
    }
    return static_cast<std::int64_t>(acc);
}

// Equality without running Python code when the answer is obvious: 1 equal, 0 different,
// -1 undecided (ask the interpreter).
int quickEquals(const Value& a, const Value& b) {
    if (a.identical(b)) {
        return 1;
    }
    if (a.isNumber() && b.isNumber()) {
        return numbersEqual(a, b) ? 1 : 0;
    }
    const StrObject* sa = a.as<StrObject>();
    const StrObject* sb = b.as<StrObject>();
    if (sa && sb) {
        return sa->value == sb->value ? 1 : 0;
    }
    if (!a.isObj() && !b.isObj()) {
        return 0;  // None vs a number, ...
    }
    if ((sa && !b.isObj()) || (sb && !a.isObj())) {
        return 0;
    }
    return -1;
}

// --- dict -------------------------------------------------------------------------------------

std::size_t DictObject::findSlot(Interpreter* I, const Value& key, std::int64_t hash,
                                 std::int32_t* entry) {
restart:
    const std::size_t mask = index_.size() - 1;
    std::size_t i = static_cast<std::size_t>(hash) & mask;
    std::uint64_t perturb = static_cast<std::uint64_t>(hash);
    std::size_t freeSlot = static_cast<std::size_t>(-1);
    for (;;) {
        std::int32_t ix = index_[i];
        if (ix == kEmpty) {
            *entry = -1;
            return freeSlot != static_cast<std::size_t>(-1) ? freeSlot : i;
        }
        if (ix == kDummy) {
            if (freeSlot == static_cast<std::size_t>(-1)) {
                freeSlot = i;
            }
        } else if (entries_[static_cast<std::size_t>(ix)].hash == hash) {
            const Value& k = entries_[static_cast<std::size_t>(ix)].key;
            int q = quickEquals(k, key);
            if (q < 0 && I) {
                Value held = k;
                std::uint64_t version = version_;
                std::size_t size = index_.size();
                q = I->eq(held, key) ? 1 : 0;
                if (version != version_ || size != index_.size()) {
                    goto restart;  // __eq__ changed the dict
                }
            }
            if (q == 1) {
                *entry = ix;
                return i;
            }
        }
        perturb >>= 5;
        i = (i * 5 + perturb + 1) & mask;
    }
}

std::size_t DictObject::findStrSlot(std::string_view key, std::int64_t hash,
                                    std::int32_t* entry) const {
    const std::size_t mask = index_.size() - 1;
    std::size_t i = static_cast<std::size_t>(hash) & mask;
    std::uint64_t perturb = static_cast<std::uint64_t>(hash);
    for (;;) {
        std::int32_t ix = index_[i];
        if (ix == kEmpty) {
            *entry = -1;
            return i;
        }
        if (ix >= 0) {
            const Entry& e = entries_[static_cast<std::size_t>(ix)];
            if (e.hash == hash) {
                const auto* s = e.key.as<StrObject>();
                if (s && s->value == key) {
                    *entry = ix;
                    return i;
                }
            }
        }
        perturb >>= 5;
        i = (i * 5 + perturb + 1) & mask;
    }
}

void DictObject::rebuild(std::size_t minUsed) {
    std::vector<Entry> live;
    live.reserve(used_ + 1);
    for (Entry& e : entries_) {
        if (!e.key.isNull()) {
            live.push_back(std::move(e));
        }
    }
    entries_ = std::move(live);
    std::size_t size = 8;
    while (size * 2 < (minUsed + 1) * 3) {
        size *= 2;
    }
    index_.assign(size, kEmpty);
    deletedSlots_ = 0;
    const std::size_t mask = size - 1;
    for (std::size_t k = 0; k < entries_.size(); ++k) {
        std::size_t i = static_cast<std::size_t>(entries_[k].hash) & mask;
        std::uint64_t perturb = static_cast<std::uint64_t>(entries_[k].hash);
        while (index_[i] != kEmpty) {
            perturb >>= 5;
            i = (i * 5 + perturb + 1) & mask;
        }
        index_[i] = static_cast<std::int32_t>(k);
    }
}

void DictObject::insertNew(std::size_t slot, Value key, Value value, std::int64_t hash) {
    if (index_.empty() || (entries_.size() + 1) * 3 > index_.size() * 2) {
        rebuild(used_ + 1);
        const std::size_t mask = index_.size() - 1;
        std::size_t i = static_cast<std::size_t>(hash) & mask;
        std::uint64_t perturb = static_cast<std::uint64_t>(hash);
        while (index_[i] != kEmpty) {
            perturb >>= 5;
            i = (i * 5 + perturb + 1) & mask;
        }
        slot = i;
    } else if (index_[slot] == kDummy) {
        --deletedSlots_;
    }
    if (entries_.size() >= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
        throw PyError(Exc::MemoryError, "dict too large");
    }
    index_[slot] = static_cast<std::int32_t>(entries_.size());
    entries_.push_back({std::move(key), std::move(value), hash});
    ++used_;
    ++version_;
}

void DictObject::eraseAt(std::size_t slot, std::int32_t entry) {
    index_[slot] = kDummy;
    ++deletedSlots_;
    Entry& e = entries_[static_cast<std::size_t>(entry)];
    Value k = std::move(e.key), v = std::move(e.value);  // released after the update
    e.key = Value();
    e.value = Value();
    --used_;
    ++version_;
    while (!entries_.empty() && entries_.back().key.isNull() && used_ == 0) {
        entries_.pop_back();
    }
}

Value DictObject::get(Interpreter& I, const Value& key) {
    std::int64_t h = I.hash(key);
    if (used_ == 0) {
        return {};
    }
    std::int32_t entry;
    findSlot(&I, key, h, &entry);
    return entry < 0 ? Value() : entries_[static_cast<std::size_t>(entry)].value;
}

void DictObject::set(Interpreter& I, const Value& key, Value value) {
    std::int64_t h = I.hash(key);
    if (index_.empty()) {
        rebuild(1);
    }
    std::int32_t entry;
    std::size_t slot = findSlot(&I, key, h, &entry);
    if (entry >= 0) {
        Value old = std::move(entries_[static_cast<std::size_t>(entry)].value);
        entries_[static_cast<std::size_t>(entry)].value = std::move(value);
        return;
    }
    insertNew(slot, key, std::move(value), h);
}

bool DictObject::remove(Interpreter& I, const Value& key, Value* removedValue) {
    std::int64_t h = I.hash(key);
    if (used_ == 0) {
        return false;
    }
    std::int32_t entry;
    std::size_t slot = findSlot(&I, key, h, &entry);
    if (entry < 0) {
        return false;
    }
    if (removedValue) {
        *removedValue = entries_[static_cast<std::size_t>(entry)].value;
    }
    eraseAt(slot, entry);
    return true;
}

Value DictObject::getStr(std::string_view key) const {
    return getStr(key, strHash(key));
}

Value DictObject::getStr(std::string_view key, std::int64_t hash) const {
    if (used_ == 0) {
        return {};
    }
    std::int32_t entry;
    findStrSlot(key, hash, &entry);
    return entry < 0 ? Value() : entries_[static_cast<std::size_t>(entry)].value;
}

void DictObject::setStr(Ref<StrObject> key, Value value) {
    std::int64_t h = key->hash();
    if (index_.empty()) {
        rebuild(1);
    }
    std::int32_t entry;
    std::size_t slot = findSlot(nullptr, Value(key), h, &entry);
    if (entry >= 0) {
        Value old = std::move(entries_[static_cast<std::size_t>(entry)].value);
        entries_[static_cast<std::size_t>(entry)].value = std::move(value);
        return;
    }
    insertNew(slot, Value(key), std::move(value), h);
}

bool DictObject::removeStr(std::string_view key) {
    if (used_ == 0) {
        return false;
    }
    std::int32_t entry;
    std::size_t slot = findStrSlot(key, strHash(key), &entry);
    if (entry < 0) {
        return false;
    }
    eraseAt(slot, entry);
    return true;
}

void DictObject::clear() {
    std::vector<Entry> old = std::move(entries_);
    entries_.clear();
    index_.clear();
    used_ = 0;
    deletedSlots_ = 0;
    ++version_;
}

void DictObject::clearRefs() {
    clear();
    Object::clearRefs();
}

// --- set --------------------------------------------------------------------------------------

namespace {
constexpr std::size_t kLinearProbes = 9;
}

// CPython's set_add_entry probe: the slot holding `key` (>= 0), or -1 - the slot to insert
// into (the first dummy passed, else the empty slot that ended the search).
std::int64_t SetObject::find(Interpreter& I, const Value& key, std::int64_t hash) {
restart:
    const std::size_t mask = table_.size() - 1;
    std::size_t i = static_cast<std::size_t>(hash) & mask;
    std::uint64_t perturb = static_cast<std::uint64_t>(hash);
    std::int64_t freeSlot = -1;
    for (;;) {
        std::size_t probes = i + kLinearProbes <= mask ? kLinearProbes : 0;
        std::size_t j = i;
        for (;;) {
            Slot& s = table_[j];
            if (s.key.isNull() && !s.dummy) {
                return -1 - (freeSlot >= 0 ? freeSlot : static_cast<std::int64_t>(j));
            }
            if (s.dummy) {
                if (freeSlot < 0) {
                    freeSlot = static_cast<std::int64_t>(j);
                }
            } else if (s.hash == hash) {
                int q = quickEquals(s.key, key);
                if (q < 0) {
                    Value held = s.key;
                    std::uint64_t version = version_;
                    std::size_t size = table_.size();
                    q = I.eq(held, key) ? 1 : 0;
                    if (version != version_ || size != table_.size()) {
                        goto restart;
                    }
                }
                if (q == 1) {
                    return static_cast<std::int64_t>(j);
                }
            }
            if (probes-- == 0) {
                break;
            }
            ++j;
        }
        perturb >>= 5;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

void SetObject::insertClean(Value key, std::int64_t hash) {
    const std::size_t mask = table_.size() - 1;
    std::size_t i = static_cast<std::size_t>(hash) & mask;
    std::uint64_t perturb = static_cast<std::uint64_t>(hash);
    for (;;) {
        if (table_[i].key.isNull()) {
            table_[i] = {std::move(key), hash, false};
            return;
        }
        if (i + kLinearProbes <= mask) {
            for (std::size_t j = 1; j <= kLinearProbes; ++j) {
                if (table_[i + j].key.isNull()) {
                    table_[i + j] = {std::move(key), hash, false};
                    return;
                }
            }
        }
        perturb >>= 5;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

void SetObject::resize(std::size_t minUsed) {
    std::size_t size = 8;
    while (size <= minUsed) {
        size <<= 1;
    }
    std::vector<Slot> old = std::move(table_);
    table_.assign(size, Slot{});
    for (Slot& s : old) {
        if (!s.key.isNull()) {
            insertClean(std::move(s.key), s.hash);
        }
    }
    fill_ = used_;
}

bool SetObject::add(Interpreter& I, const Value& key) {
    std::int64_t h = I.hash(key);
    std::int64_t r = find(I, key, h);
    if (r >= 0) {
        return false;
    }
    auto j = static_cast<std::size_t>(-1 - r);
    const bool reuse = table_[j].dummy;
    table_[j] = {key, h, false};
    ++used_;
    ++version_;
    if (reuse) {
        return true;  // a dummy slot: the fill does not change
    }
    ++fill_;
    const std::size_t mask = table_.size() - 1;
    if (fill_ * 5 >= mask * 3) {
        resize(used_ > 50000 ? used_ * 2 : used_ * 4);
    }
    return true;
}

bool SetObject::contains(Interpreter& I, const Value& key) {
    std::int64_t h = I.hash(key);
    return used_ > 0 && find(I, key, h) >= 0;
}

bool SetObject::discard(Interpreter& I, const Value& key) {
    std::int64_t h = I.hash(key);
    if (used_ == 0) {
        return false;
    }
    std::int64_t r = find(I, key, h);
    if (r < 0) {
        return false;
    }
    Slot& s = table_[static_cast<std::size_t>(r)];
    Value old = std::move(s.key);
    s = Slot{Value(), -1, true};
    --used_;
    ++version_;
    return true;
}

Value SetObject::pop() {
    if (used_ == 0) {
        return {};
    }
    const std::size_t mask = table_.size() - 1;
    std::size_t i = finger_ & mask;
    while (table_[i].key.isNull()) {
        i = (i + 1) & mask;
    }
    Value k = std::move(table_[i].key);
    table_[i] = Slot{Value(), -1, true};
    --used_;
    ++version_;
    finger_ = i + 1;
    return k;
}

void SetObject::swapTable(SetObject& other) {
    std::swap(table_, other.table_);
    std::swap(fill_, other.fill_);
    std::swap(used_, other.used_);
    ++version_;
    ++other.version_;
}

void SetObject::clear() {
    std::vector<Slot> old = std::move(table_);
    table_.assign(8, Slot{});
    fill_ = used_ = 0;
    ++version_;
}

std::vector<Value> SetObject::items() const {
    std::vector<Value> out;
    out.reserve(used_);
    forEach([&](const Value& k) { out.push_back(k); });
    return out;
}

void SetObject::clearRefs() {
    clear();
    Object::clearRefs();
}

// CPython's set_merge: an empty set with the other's table size copies the table as is.
void SetObject::mergeFrom(Interpreter& I, const SetObject& other) {
    if (other.used_ == 0 || &other == this) {
        return;
    }
    if ((fill_ + other.used_) * 5 >= (table_.size() - 1) * 3) {
        resize((used_ + other.used_) * 2);
    }
    ++version_;
    if (fill_ == 0 && table_.size() == other.table_.size() && other.fill_ == other.used_) {
        for (std::size_t i = 0; i < table_.size(); ++i) {
            if (!other.table_[i].key.isNull()) {
                table_[i] = {other.table_[i].key, other.table_[i].hash, false};
            }
        }
        fill_ = used_ = other.used_;
        return;
    }
    if (fill_ == 0) {
        for (const Slot& s : other.table_) {
            if (!s.key.isNull()) {
                insertClean(s.key, s.hash);
                ++fill_;
                ++used_;
            }
        }
        return;
    }
    for (const Value& k : other.items()) {
        add(I, k);
    }
}

}  // namespace irscope::interp
