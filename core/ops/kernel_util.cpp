#include "ops/kernel_util.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <unsupported/Eigen/CXX11/Tensor>

namespace irscope::ops {

namespace {

constexpr int kMaxRank = 8;  // MindSpore's limit, and the rank of the Eigen views below
using Index = Eigen::Index;
using Dims = Eigen::array<Index, kMaxRank>;

Dims padded(const std::vector<std::int64_t>& d) {
    Dims out;
    const std::size_t pad = kMaxRank - d.size();
    for (std::size_t i = 0; i < kMaxRank; ++i) {
        out[i] = i < pad ? 1 : static_cast<Index>(d[i - pad]);
    }
    return out;
}

}  // namespace

bool isHalf(DType t) {
    return t == DType::Float16 || t == DType::BFloat16;
}

DType computeType(DType t) {
    return isHalf(t) ? DType::Float32 : t;
}

Tensor castTo(const Tensor& t, DType dtype) {
    return t.dtype() == dtype ? t : t.cast(dtype);
}

Tensor tensorFromValue(const ValuePtr& v) {
    if (!v || v->kind != ir::Value::Kind::Tensor || !v->tensor->hasData()) {
        throw OpError(ErrorKind::RuntimeError, "a tensor constant without data was used");
    }
    return Tensor::fromValueData(*v->tensor);
}

Tensor tensorAs(std::string_view op, const KernelArg& a, DType dtype) {
    if (a.isTensor()) {
        return castTo(a.tensor(), dtype);
    }
    if (a.isValue() && a.value()) {
        const auto& v = *a.value();
        switch (v.kind) {
            case ir::Value::Kind::Int: {
                std::int64_t x = v.i;
                return Tensor::fromInts(dtype, Shape{}, std::span<const std::int64_t>(&x, 1));
            }
            case ir::Value::Kind::Bool: {
                std::int64_t x = v.b ? 1 : 0;
                return Tensor::fromInts(dtype, Shape{}, std::span<const std::int64_t>(&x, 1));
            }
            case ir::Value::Kind::Float:
                return Tensor::scalar(dtype, v.f);
            case ir::Value::Kind::Tensor:
                return castTo(tensorFromValue(a.value()), dtype);
            default:
                break;
        }
    }
    typeError(op, "expected a Tensor or a number, but got a non-numeric input.");
}

Operand operandOfArg(std::string_view op, std::string_view argName, const KernelArg& a) {
    if (a.isTensor()) {
        return Operand{true, a.tensor().dtype(), a.tensor().shape()};
    }
    if (a.isValue() && a.value()) {
        const auto& v = *a.value();
        switch (v.kind) {
            case ir::Value::Kind::Int:
            case ir::Value::Kind::Float:
                return Operand{false, v.dtype, Shape{}};
            case ir::Value::Kind::Bool:
                return Operand{false, DType::Bool, Shape{}};
            case ir::Value::Kind::Tensor:
                return Operand{true, v.tensor->dtype, v.tensor->shape};
            default:
                break;
        }
    }
    typeError(op, "the input '" + std::string(argName) + "' must be a Tensor, a number or a bool.");
}

std::vector<Tensor> tensorList(std::string_view op, const KernelArg& a) {
    std::vector<Tensor> out;
    if (a.isTuple()) {
        for (const auto& e : a.elements()) {
            if (e.isTensor()) {
                out.push_back(e.tensor());
            } else if (e.isValue() && e.value() && e.value()->kind == ir::Value::Kind::Tensor) {
                out.push_back(tensorFromValue(e.value()));
            } else {
                typeError(op, "every element of the input tuple must be a Tensor.");
            }
        }
        return out;
    }
    if (a.isValue() && a.value() &&
        (a.value()->kind == ir::Value::Kind::Tuple || a.value()->kind == ir::Value::Kind::List)) {
        for (const auto& e : a.value()->elements) {
            if (!e || e->kind != ir::Value::Kind::Tensor) {
                typeError(op, "every element of the input tuple must be a Tensor.");
            }
            out.push_back(tensorFromValue(e));
        }
        return out;
    }
    typeError(op, "the input must be a tuple or list of Tensors.");
}

Tensor broadcastTo(std::string_view op, const Tensor& t, const Shape& to) {
    if (t.shape() == to) {
        return t;
    }
    if (!broadcastsTo(t.shape(), to)) {
        valueError(op, "the input with shape " + shapeStr(t.shape()) +
                           " can not broadcast to shape " + shapeStr(to) + ".");
    }
    Tensor out(t.dtype(), to);
    if (out.size() == 0) {
        return out;
    }
    // Align ranks, drop unit output dims and merge neighbours that broadcast alike.
    const std::size_t rank = to.rank();
    const std::size_t off = rank - t.rank();
    std::vector<std::int64_t> inDims;
    std::vector<std::int64_t> outDims;
    bool lastBroadcast = false;
    for (std::size_t i = 0; i < rank; ++i) {
        const std::int64_t a = i < off ? 1 : t.shape().dims[i - off];
        const std::int64_t b = to.dims[i];
        if (b == 1) {
            continue;
        }
        const bool bc = a == 1;
        if (!outDims.empty() && bc == lastBroadcast) {
            inDims.back() *= a;
            outDims.back() *= b;
        } else {
            inDims.push_back(a);
            outDims.push_back(b);
        }
        lastBroadcast = bc;
    }
    if (outDims.size() > static_cast<std::size_t>(kMaxRank)) {
        valueError(op, "broadcasting needs more than " + std::to_string(kMaxRank) +
                           " dimensions, which the CPU kernel does not support.");
    }
    const Dims in = padded(inDims);
    const Dims od = padded(outDims);
    Dims factors;
    for (int i = 0; i < kMaxRank; ++i) {
        factors[i] = od[i] / in[i];
    }
    dispatchBySize(ir::dtypeSize(t.dtype()), [&](auto tag) {
        using E = decltype(tag);
        Eigen::TensorMap<const Eigen::Tensor<E, kMaxRank, Eigen::RowMajor>> src(t.data<E>(), in);
        Eigen::TensorMap<Eigen::Tensor<E, kMaxRank, Eigen::RowMajor>> dst(out.data<E>(), od);
        dst = src.broadcast(factors);
    });
    return out;
}

Tensor transposeTensor(const Tensor& t, std::span<const std::int64_t> perm) {
    const std::size_t rank = t.rank();
    std::vector<std::int64_t> outShape(rank);
    for (std::size_t k = 0; k < rank; ++k) {
        outShape[k] = t.shape().dims[static_cast<std::size_t>(perm[k])];
    }
    Tensor out(t.dtype(), Shape(outShape));
    if (out.size() == 0) {
        return out;
    }
    // Drop unit axes, then merge runs of output axes that are consecutive input axes.
    std::vector<std::int64_t> newIndex(rank, -1);
    std::vector<std::int64_t> dims;
    for (std::size_t i = 0; i < rank; ++i) {
        if (t.shape().dims[i] != 1) {
            newIndex[i] = static_cast<std::int64_t>(dims.size());
            dims.push_back(t.shape().dims[i]);
        }
    }
    std::vector<std::int64_t> p;
    for (std::size_t k = 0; k < rank; ++k) {
        const auto ni = newIndex[static_cast<std::size_t>(perm[k])];
        if (ni >= 0) {
            p.push_back(ni);
        }
    }
    struct Group {
        std::int64_t first;
        std::int64_t size;
    };
    std::vector<Group> groups;  // in output order
    for (std::size_t k = 0; k < p.size(); ++k) {
        const auto d = dims[static_cast<std::size_t>(p[k])];
        if (k > 0 && p[k] == p[k - 1] + 1) {
            groups.back().size *= d;
        } else {
            groups.push_back({p[k], d});
        }
    }
    std::vector<std::size_t> inOrder(groups.size());
    std::iota(inOrder.begin(), inOrder.end(), 0);
    std::sort(inOrder.begin(), inOrder.end(),
              [&](std::size_t a, std::size_t b) { return groups[a].first < groups[b].first; });
    if (groups.size() <= 1 || std::is_sorted(inOrder.begin(), inOrder.end())) {
        std::memcpy(out.bytes(), t.bytes(), t.nbytes());
        return out;
    }
    if (groups.size() > static_cast<std::size_t>(kMaxRank)) {
        throw OpError(ErrorKind::ValueError,
                      "For 'Transpose', the CPU kernel supports at most 8 dimensions.");
    }
    std::vector<std::int64_t> inDims(groups.size());
    std::vector<std::size_t> position(groups.size());  // group -> input position
    for (std::size_t pos = 0; pos < inOrder.size(); ++pos) {
        inDims[pos] = groups[inOrder[pos]].size;
        position[inOrder[pos]] = pos;
    }
    const std::size_t pad = kMaxRank - groups.size();
    Eigen::array<Index, kMaxRank> shuffle;
    for (std::size_t i = 0; i < kMaxRank; ++i) {
        shuffle[i] = i < pad ? static_cast<Index>(i) : static_cast<Index>(pad + position[i - pad]);
    }
    const Dims in = padded(inDims);
    dispatchBySize(ir::dtypeSize(t.dtype()), [&](auto tag) {
        using E = decltype(tag);
        Eigen::TensorMap<const Eigen::Tensor<E, kMaxRank, Eigen::RowMajor>> src(t.data<E>(), in);
        Dims od;
        for (int i = 0; i < kMaxRank; ++i) {
            od[i] = in[shuffle[i]];
        }
        Eigen::TensorMap<Eigen::Tensor<E, kMaxRank, Eigen::RowMajor>> dst(out.data<E>(), od);
        dst = src.shuffle(shuffle);
    });
    return out;
}

Tensor concatTensors(std::span<const Tensor> ts, std::int64_t axis, const Shape& outShape) {
    const DType dtype = ts.empty() ? DType::Float32 : ts.front().dtype();
    Tensor out(dtype, outShape);
    if (out.size() == 0) {
        return out;
    }
    const auto ax = static_cast<std::size_t>(axis);
    const auto outer = product(std::span(outShape.dims).first(ax));
    const auto inner = product(std::span(outShape.dims).subspan(ax + 1));
    const Index width = static_cast<Index>(outShape.dims[ax] * inner);
    dispatchBySize(ir::dtypeSize(dtype), [&](auto tag) {
        using E = decltype(tag);
        using Mat = Eigen::Matrix<E, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
        Eigen::Map<Mat> dst(out.data<E>(), outer, width);
        Index col = 0;
        for (const auto& t : ts) {
            const Index w = static_cast<Index>(t.shape().dims[ax] * inner);
            if (w == 0) {
                continue;
            }
            Eigen::Map<const Mat> src(t.data<E>(), outer, w);
            dst.middleCols(col, w) = src;
            col += w;
        }
    });
    return out;
}

}  // namespace irscope::ops
