// Reading abstracts: `<Tensor[Float32], (2, 3)>` and the other 2.x forms, the older
// `<Tensor[Float32]x[const vector][2, 3]>`, MindSpore's tuple form
// `<Tuple[Int64*2], TupleShape(NoShape, NoShape)>` and irscope's per-element tuple form.
// Anything else between the angle brackets is kept as an Opaque abstract.
#include <vector>

#include "ir/ir_value_reader.h"

namespace irscope::ir::text {

namespace {

[[noreturn]] void tooDeep(const LineCursor& c) {
    c.fail("nesting deeper than " + std::to_string(kMaxNesting) + " levels");
}

Shape shapeFromDims(std::vector<std::int64_t> dims) {
    Shape s;
    if (dims.size() == 1 && dims[0] == -2) {
        s.dynamicRank = true;
    } else {
        s.dims = std::move(dims);
    }
    return s;
}

// --- abstracts ------------------------------------------------------------------------

struct TypeSpec {
    enum class K { Tensor, Ref, Scalar, Func, UMonad, IOMonad, None, TypeType, Tuple, List };
    K k = K::None;
    DType dt = DType::Float32;
    // Tuple/List elements as runs: `Int64*4` is one run of four.
    std::vector<TypeSpec> runTypes;
    std::vector<std::uint64_t> runCounts;
};

struct ShapeSpec {
    enum class K { NoShape, Dims, Tuple, List };
    K k = K::NoShape;
    std::vector<std::int64_t> dims;
    std::vector<ShapeSpec> elems;
};

bool parseType(LineCursor& c, TypeSpec& t, int depth);

bool parseTypeRuns(LineCursor& c, TypeSpec& t, int depth) {
    c.skipSpaces();
    if (c.eat(']')) {
        return true;
    }
    for (;;) {
        TypeSpec e;
        if (!parseType(c, e, depth + 1)) {
            return false;
        }
        std::uint64_t n = 1;
        if (c.eat('*')) {
            auto k = c.readUnsigned();
            // Every element needs its own shape text, so no valid run is longer than the line.
            if (!k || *k == 0 || *k > c.line().size()) {
                return false;
            }
            n = *k;
        }
        t.runTypes.push_back(std::move(e));
        t.runCounts.push_back(n);
        c.skipSpaces();
        if (c.eat(']')) {
            return true;
        }
        if (!c.eat(',')) {
            return false;
        }
        c.skipSpaces();
    }
}

bool parseType(LineCursor& c, TypeSpec& t, int depth) {
    if (depth >= kMaxNesting) {
        tooDeep(c);
    }
    const std::size_t b = c.pos;
    while (!c.atEnd() && isNameByte(static_cast<unsigned char>(c.peek()))) {
        ++c.pos;
    }
    const std::string_view id = c.slice(b, c.pos);
    using K = TypeSpec::K;
    auto bracketedDType = [&](DType& out) {
        if (!c.eat('[')) {
            return false;
        }
        const std::size_t nb = c.pos;
        while (!c.atEnd() && isNameByte(static_cast<unsigned char>(c.peek()))) {
            ++c.pos;
        }
        auto dt = dtypeFromName(c.slice(nb, c.pos));
        if (!dt || !c.eat(']')) {
            return false;
        }
        out = *dt;
        return true;
    };
    if (id == "Tensor") {
        t.k = K::Tensor;
        return bracketedDType(t.dt);
    }
    if (id == "Ref") {
        t.k = K::Ref;
        return c.eat("[Tensor") && bracketedDType(t.dt) && c.eat(']');
    }
    if (id == "Tuple" || id == "List") {
        t.k = id == "Tuple" ? K::Tuple : K::List;
        return c.eat('[') && parseTypeRuns(c, t, depth);
    }
    if (id == "Func") {
        t.k = K::Func;
    } else if (id == "UMonad") {
        t.k = K::UMonad;
    } else if (id == "IOMonad") {
        t.k = K::IOMonad;
    } else if (id == "None") {
        t.k = K::None;
    } else if (id == "TypeType") {
        t.k = K::TypeType;
    } else if (auto dt = dtypeFromName(id)) {
        t.k = K::Scalar;
        t.dt = *dt;
    } else {
        return false;
    }
    return true;
}

bool parseShape(LineCursor& c, ShapeSpec& s, int depth) {
    if (depth >= kMaxNesting) {
        tooDeep(c);
    }
    if (c.eat("NoShape")) {
        s.k = ShapeSpec::K::NoShape;
        return true;
    }
    if (c.eat('(')) {
        s.k = ShapeSpec::K::Dims;
        return c.readDims(')', s.dims);
    }
    if (c.eat("TupleShape(")) {
        s.k = ShapeSpec::K::Tuple;
    } else if (c.eat("ListShape(")) {
        s.k = ShapeSpec::K::List;
    } else {
        return false;
    }
    c.skipSpaces();
    if (c.eat(')')) {
        return true;
    }
    for (;;) {
        ShapeSpec e;
        if (!parseShape(c, e, depth + 1)) {
            return false;
        }
        s.elems.push_back(std::move(e));
        c.skipSpaces();
        if (c.eat(')')) {
            return true;
        }
        if (!c.eat(',')) {
            return false;
        }
        c.skipSpaces();
    }
}

AbstractPtr combine(const TypeSpec& t, const ShapeSpec& s) {
    using K = TypeSpec::K;
    const bool noShape = s.k == ShapeSpec::K::NoShape;
    switch (t.k) {
        case K::Tensor:
            return s.k == ShapeSpec::K::Dims ? Abstract::tensor(t.dt, shapeFromDims(s.dims))
                                             : nullptr;
        case K::Ref:
            return s.k == ShapeSpec::K::Dims ? Abstract::ref(t.dt, shapeFromDims(s.dims), {})
                                             : nullptr;
        case K::Scalar:
            return noShape ? Abstract::scalar(t.dt) : nullptr;
        case K::Func:
            return noShape ? Abstract::func() : nullptr;
        case K::UMonad:
            return noShape ? Abstract::monadAbs(MonadKind::U) : nullptr;
        case K::IOMonad:
            return noShape ? Abstract::monadAbs(MonadKind::IO) : nullptr;
        case K::None:
            return noShape ? Abstract::noneAbs() : nullptr;
        case K::TypeType:
            return noShape ? Abstract::typeAbs() : nullptr;
        case K::Tuple:
        case K::List: {
            const auto want = t.k == K::Tuple ? ShapeSpec::K::Tuple : ShapeSpec::K::List;
            if (s.k != want) {
                return nullptr;
            }
            std::vector<AbstractPtr> elems;
            std::size_t next = 0;
            for (std::size_t r = 0; r < t.runTypes.size(); ++r) {
                for (std::uint64_t k = 0; k < t.runCounts[r]; ++k) {
                    if (next >= s.elems.size()) {
                        return nullptr;
                    }
                    AbstractPtr e = combine(t.runTypes[r], s.elems[next++]);
                    if (!e) {
                        return nullptr;
                    }
                    elems.push_back(std::move(e));
                }
            }
            if (next != s.elems.size()) {
                return nullptr;
            }
            return t.k == K::Tuple ? Abstract::tuple(std::move(elems))
                                   : Abstract::list(std::move(elems));
        }
    }
    return nullptr;
}

}  // namespace

AbstractPtr ValueReader::abstract(LineCursor& c, int depth) const {
    if (depth > kMaxNesting) {
        tooDeep(c);
    }
    const std::size_t b = c.pos;
    const std::size_t e = c.scanGroup(true);
    c.pos = e;
    const std::string_view text = c.slice(b, e);
    const std::string_view inner = text.substr(1, text.size() - 2);
    if (inner == "null") {
        return nullptr;
    }
    // What is read depends on the text alone (a reference to a graph aside).
    constexpr std::size_t kMemoText = 256;
    constexpr std::size_t kMemoEntries = 1 << 16;
    const bool memo = text.size() <= kMemoText && text.find('@') == std::string_view::npos;
    if (memo) {
        if (auto it = abstracts_.find(text); it != abstracts_.end()) {
            return it->second;
        }
    }
    AbstractPtr a = structuredAbstract(c.sub(b + 1, e - 1), depth);
    if (!a) {
        a = Abstract::opaque(std::string(inner));
    }
    if (memo && abstracts_.size() < kMemoEntries) {
        abstracts_.emplace(std::string(text), a);
    }
    return a;
}

AbstractPtr ValueReader::structuredAbstract(LineCursor c, int depth) const {
    // The per-element form for tuples whose elements carry more than type and shape:
    // `<Tuple[<Ref[...], (), ref_key=w>, <Tensor[Float32], (), value=...>]>`.
    const bool perTuple = c.lookingAt("Tuple[<");
    if (perTuple || c.lookingAt("List[<")) {
        c.pos += perTuple ? 6 : 5;
        std::vector<AbstractPtr> elems;
        for (;;) {
            if (c.peek() != '<') {
                return nullptr;
            }
            elems.push_back(abstract(c, depth + 1));
            c.skipSpaces();
            if (c.eat(']')) {
                break;
            }
            if (!c.eat(',')) {
                return nullptr;
            }
            c.skipSpaces();
        }
        if (!c.atEnd()) {
            return nullptr;
        }
        return perTuple ? Abstract::tuple(std::move(elems)) : Abstract::list(std::move(elems));
    }
    TypeSpec t;
    if (!parseType(c, t, depth)) {
        return nullptr;
    }
    using K = TypeSpec::K;
    if (t.k == K::Tensor && c.eat('x')) {
        // MindSpore 1.x-2.0: `Tensor[Float32]x()`, `Tensor[Float32]x[const vector][2, 3]`.
        std::vector<std::int64_t> dims;
        bool ok = false;
        if (c.eat('(')) {
            ok = c.readDims(')', dims);
        } else {
            c.eat("[const vector]");
            ok = c.eat('[') && c.readDims(']', dims);
        }
        return ok && c.atEnd() ? Abstract::tensor(t.dt, shapeFromDims(std::move(dims))) : nullptr;
    }
    ShapeSpec s;
    if (c.atEnd()) {  // `<Int64>`-style: type only, for kinds that have no shape
        if (t.k == K::Tensor || t.k == K::Ref || t.k == K::Tuple || t.k == K::List) {
            return nullptr;
        }
    } else {
        if (!c.eat(',')) {
            return nullptr;
        }
        c.skipSpaces();
        if (!parseShape(c, s, depth)) {
            return nullptr;
        }
    }
    AbstractPtr a = combine(t, s);
    if (!a) {
        return nullptr;
    }
    bool valueKnown = false;
    std::string refKey;
    while (!c.atEnd()) {
        if (c.eat(", value=...")) {
            if (t.k != K::Tensor && t.k != K::Ref) {
                return nullptr;
            }
            valueKnown = t.k == K::Tensor;
        } else if (c.eat(", ref_key=") && t.k == K::Ref) {
            refKey = std::string(c.rest());
            c.pos = c.end;
        } else {
            return nullptr;
        }
    }
    if (valueKnown) {
        return Abstract::tensor(a->dtype, a->shape, true);
    }
    if (!refKey.empty()) {
        return Abstract::ref(a->dtype, a->shape, std::move(refKey));
    }
    return a;
}

}  // namespace irscope::ir::text
