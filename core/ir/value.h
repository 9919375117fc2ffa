// Immutable values held by ValueNodes, attributes and constant abstracts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "ir/types.h"

namespace irscope::ir {

class FuncGraph;
struct Value;
using ValuePtr = std::shared_ptr<const Value>;

// Ordered name -> value attributes (primitive attrs, cnode attrs, graph attrs). Order is
// kept because the .ir printer must write them back in the order they were given.
class AttrMap {
public:
    const ValuePtr* find(std::string_view key) const;
    ValuePtr get(std::string_view key) const;  // nullptr when absent
    void set(std::string key, ValuePtr v);      // replaces in place or appends
    bool erase(std::string_view key);
    bool empty() const { return items_.empty(); }
    std::size_t size() const { return items_.size(); }
    auto begin() const { return items_.begin(); }
    auto end() const { return items_.end(); }
    bool operator==(const AttrMap& o) const;

private:
    std::vector<std::pair<std::string, ValuePtr>> items_;
};

enum class MonadKind : std::uint8_t { U, IO };

// A tensor constant. `data` holds elementCount * dtypeSize bytes in row-major order, or is
// empty when the value is not known (a dump that printed `value=...`).
struct TensorData {
    DType dtype = DType::Float32;
    Shape shape;
    std::vector<std::byte> data;
    bool hasData() const { return !data.empty() || shape.elementCount() == 0; }
    // Element i converted to double (Float16/BFloat16 decoded). Precondition: hasData().
    double elementAsDouble(std::size_t i) const;
    std::int64_t elementAsInt(std::size_t i) const;
    bool operator==(const TensorData&) const = default;
};

// An object of the host program (a Cell, a function, a module namespace, a jit_class
// instance) referenced from the IR before symbol_resolve replaces it. core/ir knows only its
// printed text; the front end subclasses it to keep the object alive.
struct HostObject {
    virtual ~HostObject() = default;
    // Printed form, e.g. "NameSpace[ClassMember: 'Net']".
    virtual std::string text() const = 0;
};

struct PrimitiveData {
    std::string name;          // "Add", "Load", "Return", or any opaque op name
    std::string instanceName;  // `{instance name: add}`; empty when absent
    AttrMap attrs;             // `primitive_attrs: {...}`
    bool operator==(const PrimitiveData& o) const {
        return name == o.name && instanceName == o.instanceName && attrs == o.attrs;
    }
};

struct Value {
    enum class Kind : std::uint8_t {
        None,       // None
        Bool,       // Bool(1)
        Int,        // I64(3), I32(0), U8(1)
        Float,      // F32(1.5)
        String,     // "text"
        Tensor,     // Tensor(shape=[], dtype=Int32, value=0)
        Tuple,      // (I64(1), I64(2))
        List,       // [I64(1), I64(2)]
        Type,       // a dtype used as a value, e.g. Cast's destination: Float32
        Primitive,  // the callee of a CNode
        Graph,      // @graph_name
        Monad,      // U, IO
        Opaque,     // text the reader kept verbatim (unknown value syntax in a real dump)
        Slice,      // slice(start, stop, step): elements are 3 values, each None or Int
        Host,       // a host-program object (HostObject), only before symbol_resolve
    };

    Kind kind = Kind::None;
    DType dtype = DType::Int64;  // Int, Float, Type
    bool b = false;              // Bool
    std::int64_t i = 0;          // Int
    double f = 0.0;              // Float
    std::string text;            // String, Opaque
    MonadKind monad = MonadKind::U;
    FuncGraph* graph = nullptr;  // Graph (owned by the Module)
    std::vector<ValuePtr> elements;  // Tuple, List, Slice (start, stop, step)
    std::shared_ptr<const HostObject> host;  // Host
    std::shared_ptr<const TensorData> tensor;
    std::shared_ptr<const PrimitiveData> prim;

    // Constructors for each kind.
    static ValuePtr none();
    static ValuePtr boolean(bool v);
    static ValuePtr integer(std::int64_t v, DType t = DType::Int64);
    static ValuePtr floating(double v, DType t = DType::Float32);
    static ValuePtr string(std::string s);
    static ValuePtr tensorValue(TensorData t);
    static ValuePtr tuple(std::vector<ValuePtr> elems);
    static ValuePtr list(std::vector<ValuePtr> elems);
    static ValuePtr type(DType t);
    static ValuePtr primitive(std::string name, AttrMap attrs = {}, std::string instanceName = {});
    static ValuePtr primitive(PrimitiveData p);
    static ValuePtr graphRef(FuncGraph* g);
    static ValuePtr monadValue(MonadKind m);
    static ValuePtr opaque(std::string text);
    // Each bound is None or an Int value.
    static ValuePtr slice(ValuePtr start, ValuePtr stop, ValuePtr step);
    static ValuePtr hostObject(std::shared_ptr<const HostObject> obj);

    bool isPrimitive(std::string_view name) const {
        return kind == Kind::Primitive && prim->name == name;
    }
    // Deep structural equality; graphs compare by identity.
    bool equals(const Value& o) const;
};

// Element i of row-major `data` of dtype t, converted to double (Float16/BFloat16 decoded,
// Bool as 0/1, String as 0). Shared by TensorData and ir::Tensor.
double loadElementAsDouble(DType t, const std::byte* data, std::size_t i);

// A scalar tensor of the given dtype holding `v` (converted).
TensorData scalarTensor(DType t, double v);

// IEEE half and bfloat16 conversions used by tensors.
float halfToFloat(std::uint16_t h);
std::uint16_t floatToHalf(float f);
float bfloat16ToFloat(std::uint16_t h);
std::uint16_t floatToBFloat16(float f);

}  // namespace irscope::ir
