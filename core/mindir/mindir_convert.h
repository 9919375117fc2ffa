// Internal to core/mindir: conversions between MindIR's protobuf messages and irscope's
// values, abstracts and tensors, shared by the reader and the writer.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "ir/abstract.h"
#include "ir/value.h"
#include "mindir.pb.h"
#include "mindir/mindir.h"

namespace irscope::mindir::detail {

namespace pb = irscope::mindir::pb;

// TensorProto.data_type codes <-> DType. Complex and 4-bit types have no DType.
std::optional<ir::DType> dtypeFromTensorCode(int code);
int tensorCodeOf(ir::DType t);
// AttributeProto.type codes of scalars <-> DType (the same numbering up to 16).
std::optional<ir::DType> dtypeFromAttrCode(int code);
int attrCodeOf(ir::DType t);
// "Complex64", "Float32", ... or "DataType(N)" for a code irscope does not know.
std::string tensorCodeName(int code);

// Everything value conversion needs from the reader around it.
struct ConvertContext {
    std::string fileName;
    bool littleEndian = true;  // the writer's byte order (ModelProto.little_endian)
    // Reads external data (location, offset, length) into `out`; throws MindirError.
    std::function<void(const pb::TensorProto::ExternalData&, std::size_t expect,
                       std::string_view tensorName, std::vector<std::byte>& out)>
        readExternal;
    // A graph by its MindIR name, or nullptr.
    std::function<ir::FuncGraph*(std::string_view)> findGraph;
    std::uint64_t* externalBytes = nullptr;  // counts bytes read from external files
};

// A tensor's dtype, shape and data (raw_data, typed fields or external data). nullopt for a
// dtype irscope has no DType for. Throws MindirError when the data does not fit the shape.
std::optional<ir::TensorData> tensorFromProto(const pb::TensorProto& t, const ConvertContext& cx);
// The abstract a tensor proto describes (shape and dtype, no data).
ir::AbstractPtr abstractFromTensor(const pb::TensorProto& t);

// An attribute's value: 2.x typed attributes (`type` + `values`) and 1.x ones (the type in
// `ref_attr_name`, elements spread over ints/floats/strings/tensors).
ir::ValuePtr valueFromAttr(const pb::AttributeProto& a, const ConvertContext& cx);
// A node's output abstract from its "shape" attribute (2.x) or "shape:..." ref (1.x); nullptr
// when the attribute says nothing irscope can show.
ir::AbstractPtr abstractFromAttr(const pb::AttributeProto& a);
// Whether a NodeProto attribute is the node's output abstract rather than a primitive attr.
bool isShapeAttr(const pb::AttributeProto& a, bool typedStyle);

// The writer's direction: values and abstracts into attributes (2.x layout). Returns false
// for a value MindIR cannot hold (the attribute is then left out).
bool attrFromValue(const ir::Value& v, pb::AttributeProto& a,
                   const std::function<std::string(const ir::FuncGraph*)>& graphName);
void attrFromAbstract(const ir::Abstract& abs, pb::AttributeProto& a);
void tensorToProto(const ir::TensorData& t, pb::TensorProto& out, bool withData);

}  // namespace irscope::mindir::detail
