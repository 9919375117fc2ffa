// Text forms of tensors, exactly as MindSpore (and the numpy under it) prints them.
//
//   print(t) in PyNative / host code: formatNumpy(t), i.e. str(t.asnumpy())
//   repr(t), e.g. inside a tuple:     formatTensorRepr(t), Tensor(shape=[], dtype=Int32, value= 3)
//   the Print operator in a graph:    formatGraphPrint(t), Tensor(shape=[3], ..., value=[...])
//   a tensor constant in an IR dump:  formatTensorString(t), the same but "[...]" from 30 elements
#pragma once

#include <cstddef>
#include <string>

#include "runtime/float_format.h"
#include "ir/tensor.h"

namespace irscope::runtime {

// The runtime computes on the IR's tensors (ir/tensor.h).
using ir::DType;
using ir::Shape;
using ir::Tensor;

// numpy's print options; the defaults are numpy's defaults.
struct NumpyPrintOptions {
    enum class FloatMode : std::uint8_t { Fixed, Unique, MaxPrec, MaxPrecEqual };
    int precision = 8;
    std::size_t threshold = 1000;  // summarise ("...") arrays with more elements than this
    std::size_t edgeitems = 3;
    int linewidth = 75;
    bool suppress = false;
    FloatMode floatmode = FloatMode::MaxPrec;
    char sign = '-';  // '-', '+' or ' '
    // numpy >= 2.3 switches float16/float32 arrays to scientific notation earlier (at 1e3 and
    // 1e6 instead of 1e8). Off: numpy 1.x / 2.0-2.2 behaviour, what MindSpore 2.x ships with.
    bool dtypeAwareExpCutoff = false;
};

// str(ndarray): "[[10. 10. 10.]\n [10. 10. 10.]]", "[1 2 3]", "[ True False]", "3.5", "[]".
// BFloat16 prints as float32 (MindSpore converts it before asnumpy()).
std::string formatNumpy(const Tensor& t, const NumpyPrintOptions& opt = {});
// repr(ndarray) as numpy 1.x writes it: "array([1, 2, 3], dtype=int32)", "array(1.5)".
std::string formatNumpyRepr(const Tensor& t, const NumpyPrintOptions& opt = {});
// str() of element i as a numpy scalar (np.float32(1.5) -> "1.5", np.int64(3) -> "3").
std::string formatNumpyScalar(const Tensor& t, std::size_t i);
// numpy's dtype name: "float32", "int64", "bool" (BFloat16: "bfloat16").
std::string numpyDTypeName(DType t);

// MindSpore's repr(Tensor) (Tensor::ToStringRepr): its own C++ layout, with commas:
// "Tensor(shape=[3], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00,  3.00000000e+00])".
std::string formatTensorRepr(const Tensor& t);
// What the Print operator writes for a tensor in graph mode (Tensor::ToStringNoLimit).
std::string formatGraphPrint(const Tensor& t);
// Tensor::ToString: as formatGraphPrint, but "value=[...]" once the tensor has `limit` or more
// elements (0: no limit). This is the form tensor constants take in MindSpore IR dumps.
std::string formatTensorString(const Tensor& t, std::size_t limit = 30);
// "[2, 3]", "[]" (MindSpore's ShapeToString).
std::string formatShapeList(const Shape& s);

}  // namespace irscope::runtime
