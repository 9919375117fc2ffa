// numpy's array reshuffling functions that MindSpore's tests use: flip, cumsum, sort, pad
// (constant, reflect, symmetric, edge), arctan2, ndenumerate, meshgrid, insert, delete,
// broadcast_to, and the np.bool alias of np.bool_ (numpy before 1.24).
#include <algorithm>
#include <cmath>

#include "frontend/ast.h"
#include "frontend/modules/ms_internal.h"

namespace irscope::modules {

using interp::Signature;
using ir::Tensor;

namespace {

// An axis argument normalized against `rank`, numpy's AxisError text otherwise.
std::size_t npAxis(Interpreter& I, const Value& v, std::size_t rank) {
    std::int64_t ax = I.toIndex(v);
    const auto r = static_cast<std::int64_t>(rank);
    if (ax < -r || ax >= r) {
        throw PyError(Exc::ValueError, "axis " + std::to_string(ax) +
                                           " is out of bounds for array of dimension " +
                                           std::to_string(r));
    }
    return static_cast<std::size_t>(ax < 0 ? ax + r : ax);
}

// The element offsets of each 1-D line of `s` along `axis`: calls f(offsets) per line.
template <typename F>
void forEachLine(const ir::Shape& s, std::size_t axis, F f) {
    std::size_t inner = 1;
    for (std::size_t d = axis + 1; d < s.rank(); ++d) {
        inner *= static_cast<std::size_t>(s.dims[d]);
    }
    const auto n = static_cast<std::size_t>(s.dims[axis]);
    const std::size_t total = static_cast<std::size_t>(s.elementCount());
    const std::size_t outer = n == 0 || inner == 0 ? 0 : total / (n * inner);
    std::vector<std::size_t> offs(n);
    for (std::size_t o = 0; o < outer; ++o) {
        for (std::size_t i = 0; i < inner; ++i) {
            for (std::size_t k = 0; k < n; ++k) {
                offs[k] = (o * n + k) * inner + i;
            }
            f(offs);
        }
    }
}

// Copies element `from` of src into element `to` of dst (same dtype).
void copyAt(const Tensor& src, std::size_t from, Tensor& dst, std::size_t to) {
    const std::size_t w = ir::dtypeSize(src.dtype());
    std::copy_n(src.bytes() + from * w, w, dst.bytes() + to * w);
}

std::string dimsText(const std::vector<std::int64_t>& d) {
    std::string s = "(";
    for (std::size_t i = 0; i < d.size(); ++i) {
        s += (i ? "," : "") + std::to_string(d[i]);
    }
    return s + (d.size() == 1 ? ",)" : ")");
}

// np.insert(arr, index, values, axis=None) for one index: numpy gives `values` arr's rank
// (leading 1s), moves its first axis to `axis` and broadcasts it into the new slices.
Tensor insertAt(Interpreter& I, Tensor arr, const Value& obj, const Tensor& valuesIn,
                const Value& axisV) {
    if (axisV.isNone()) {
        arr = arr.reshaped(ir::Shape({static_cast<std::int64_t>(arr.size())}));
    }
    const std::size_t rank = arr.rank();
    const std::size_t axis = axisV.isNone() ? 0 : npAxis(I, axisV, rank);
    if (!obj.isIntLike()) {
        throw PyError(
            Exc::NotImplementedError,
            "irscope: np.insert with a sequence or slice of indices is not supported yet");
    }
    const std::int64_t n = arr.shape().dims[axis];
    std::int64_t index = obj.intLike();
    if (index < -n || index > n) {
        throw PyError(Exc::IndexError, "index " + std::to_string(index) +
                                           " is out of bounds for axis " + std::to_string(axis) +
                                           " with size " + std::to_string(n));
    }
    index = index < 0 ? index + n : index;
    const Tensor values = valuesIn.cast(arr.dtype());
    std::vector<std::int64_t> pre = values.shape().dims;  // ndmin=rank, then moveaxis(0, axis)
    while (pre.size() < rank) {
        pre.insert(pre.begin(), 1);
    }
    std::vector<std::int64_t> post(pre.begin() + 1, pre.end());
    post.insert(post.begin() + static_cast<std::ptrdiff_t>(axis), pre[0]);
    const std::int64_t added = post.size() == rank ? post[axis] : 0;
    std::vector<std::int64_t> slot = arr.shape().dims;
    slot[axis] = added;
    if (post.size() != rank) {
        throw PyError(Exc::ValueError, "could not broadcast input array from shape " +
                                           dimsText(values.shape().dims) + " into shape " +
                                           dimsText(slot));
    }
    for (std::size_t d = 0; d < rank; ++d) {
        if (post[d] != 1 && post[d] != slot[d]) {
            throw PyError(Exc::ValueError, "could not broadcast input array from shape " +
                                               dimsText(post) + " into shape " + dimsText(slot));
        }
    }
    std::vector<std::int64_t> outDims = arr.shape().dims;
    outDims[axis] += added;
    Tensor out(arr.dtype(), ir::Shape(outDims));
    // Row-major strides of arr and of `values` in its pre-move layout.
    auto stridesOf = [](const std::vector<std::int64_t>& d) {
        std::vector<std::size_t> st(d.size(), 1);
        for (std::size_t i = d.size(); i-- > 1;) {
            st[i - 1] = st[i] * static_cast<std::size_t>(d[i]);
        }
        return st;
    };
    const auto arrSt = stridesOf(arr.shape().dims);
    const auto valSt = stridesOf(pre);
    std::vector<std::int64_t> coord(rank, 0);
    for (std::size_t flat = 0; flat < out.size(); ++flat) {
        const std::int64_t c = coord[axis];
        if (c >= index && c < index + added) {
            std::size_t from = 0;
            for (std::size_t d = 0; d < rank; ++d) {
                const std::int64_t at = d == axis ? c - index : coord[d];
                const std::size_t preAxis = d == axis ? 0 : (d < axis ? d + 1 : d);
                from += post[d] == 1 ? 0 : static_cast<std::size_t>(at) * valSt[preAxis];
            }
            copyAt(values, from, out, flat);
        } else {
            std::size_t from = 0;
            for (std::size_t d = 0; d < rank; ++d) {
                const std::int64_t at = d == axis && c >= index ? c - added : coord[d];
                from += static_cast<std::size_t>(at) * arrSt[d];
            }
            copyAt(arr, from, out, flat);
        }
        for (std::size_t d = rank; d-- > 0;) {
            if (++coord[d] < outDims[d]) {
                break;
            }
            coord[d] = 0;
        }
    }
    return out;
}

// np.delete(arr, obj, axis=None): drops the slices at the indices in `obj` (an int or a
// sequence of ints) along `axis` (the flattened array when None).
Tensor deleteAt(Interpreter& I, Tensor arr, const Value& obj, const Value& axisV) {
    if (axisV.isNone()) {
        arr = arr.reshaped(ir::Shape({static_cast<std::int64_t>(arr.size())}));
    }
    const std::size_t axis = axisV.isNone() ? 0 : npAxis(I, axisV, arr.rank());
    const std::int64_t n = arr.shape().dims[axis];
    std::vector<bool> drop(static_cast<std::size_t>(n), false);
    const std::vector<Value> items = obj.isIntLike() ? std::vector<Value>{obj} : I.toVector(obj);
    for (const Value& item : items) {
        std::int64_t k = I.toIndex(item);
        if (k < -n || k >= n) {
            throw PyError(Exc::IndexError,
                          "index " + std::to_string(k) + " is out of bounds for axis " +
                              std::to_string(axis) + " with size " + std::to_string(n));
        }
        drop[static_cast<std::size_t>(k < 0 ? k + n : k)] = true;
    }
    std::vector<std::int64_t> keep;
    for (std::int64_t k = 0; k < n; ++k) {
        if (!drop[static_cast<std::size_t>(k)]) {
            keep.push_back(k);
        }
    }
    std::vector<std::int64_t> outDims = arr.shape().dims;
    outDims[axis] = static_cast<std::int64_t>(keep.size());
    Tensor out(arr.dtype(), ir::Shape(outDims));
    std::size_t inner = 1;
    for (std::size_t d = axis + 1; d < arr.rank(); ++d) {
        inner *= static_cast<std::size_t>(arr.shape().dims[d]);
    }
    const std::size_t outer = out.size() == 0 ? 0 : out.size() / (keep.size() * inner);
    std::size_t flat = 0;
    for (std::size_t o = 0; o < outer; ++o) {
        for (const std::int64_t k : keep) {
            for (std::size_t e = 0; e < inner; ++e) {
                copyAt(arr,
                       (o * static_cast<std::size_t>(n) + static_cast<std::size_t>(k)) * inner + e,
                       out, flat++);
            }
        }
    }
    return out;
}

}  // namespace

void initNumpyArrays(Interpreter& I, const MsPtr& ms, interp::ModuleObject& m) {
    interp::addToModule(I, m, "bool", ms->npScalarTypes[static_cast<int>(ir::DType::Bool)]);
    interp::addFunction(I, m, "flip", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig = Signature("flip").arg("m").arg("axis", Value::none());
        auto v = sig.bind(J, a);
        Tensor t = toArray(J, *ms, v[0]);
        std::vector<bool> rev(t.rank(), v[1].isNone());
        if (!v[1].isNone()) {
            for (const Value& ax : v[1].isIntLike() ? std::vector<Value>{v[1]} : J.toVector(v[1])) {
                rev[npAxis(J, ax, t.rank())] = true;
            }
        }
        // Reverse one axis at a time.
        Tensor cur = t.clone();
        for (std::size_t d = 0; d < t.rank(); ++d) {
            if (!rev[d]) {
                continue;
            }
            Tensor next(cur.dtype(), cur.shape());
            forEachLine(cur.shape(), d, [&](const std::vector<std::size_t>& offs) {
                for (std::size_t k = 0; k < offs.size(); ++k) {
                    copyAt(cur, offs[k], next, offs[offs.size() - 1 - k]);
                }
            });
            cur = next;
        }
        return newArray(J, *ms, std::move(cur));
    });
    interp::addFunction(I, m, "cumsum", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig =
            Signature("cumsum").arg("a").arg("axis", Value::none()).arg("dtype", Value::none());
        auto v = sig.bind(J, a);
        Tensor t = toArray(J, *ms, v[0]);
        if (v[1].isNone()) {
            t = t.reshaped(ir::Shape({static_cast<std::int64_t>(t.size())}));
        }
        const std::size_t axis = v[1].isNone() ? 0 : npAxis(J, v[1], t.rank());
        // numpy accumulates integers and bools in the platform integer (int64).
        const ir::DType out =
            dtypeArg(J, *ms, v[2]).value_or(ir::isFloat(t.dtype()) ? t.dtype() : ir::DType::Int64);
        Tensor r = t.cast(out);
        forEachLine(r.shape(), axis, [&](const std::vector<std::size_t>& offs) {
            for (std::size_t k = 1; k < offs.size(); ++k) {
                if (ir::isFloat(out)) {
                    r.setDouble(offs[k], r.getDouble(offs[k]) + r.getDouble(offs[k - 1]));
                } else {
                    r.setInt(offs[k], r.getInt(offs[k]) + r.getInt(offs[k - 1]));
                }
            }
        });
        return newArray(J, *ms, std::move(r));
    });
    interp::addFunction(I, m, "sort", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig =
            Signature("sort").arg("a").arg("axis", Value::integer(-1)).varKw();
        auto v = sig.bind(J, a);
        Tensor t = toArray(J, *ms, v[0]);
        if (v[1].isNone()) {
            t = t.reshaped(ir::Shape({static_cast<std::int64_t>(t.size())}));
        }
        if (t.rank() == 0) {
            throw PyError(Exc::ValueError, "axis -1 is out of bounds for array of dimension 0");
        }
        const std::size_t axis = v[1].isNone() ? 0 : npAxis(J, v[1], t.rank());
        Tensor r(t.dtype(), t.shape());
        std::vector<std::size_t> order;
        forEachLine(t.shape(), axis, [&](const std::vector<std::size_t>& offs) {
            order.resize(offs.size());
            for (std::size_t k = 0; k < offs.size(); ++k) {
                order[k] = offs[k];
            }
            // NaN sorts last, as numpy does.
            std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
                const double p = t.getDouble(x), q = t.getDouble(y);
                return std::isnan(q) ? !std::isnan(p) : p < q;
            });
            for (std::size_t k = 0; k < offs.size(); ++k) {
                copyAt(t, order[k], r, offs[k]);
            }
        });
        return newArray(J, *ms, std::move(r));
    });
    interp::addFunction(I, m, "arctan2", [ms](Interpreter& J, CallArgs& a) {
        auto [x, y] = arrayOperands(J, *ms, interp::argAt(a, 0, "x1"), interp::argAt(a, 1, "x2"));
        // Broadcast both by adding zeros of the other's shape, in float.
        const Tensor x0 = toArray(J, *ms, x), y0 = toArray(J, *ms, y);
        const bool single = (x0.dtype() == ir::DType::Float32 || x0.dtype() == ir::DType::Float16 ||
                             !asTensor(x)) &&
                            (y0.dtype() == ir::DType::Float32 || y0.dtype() == ir::DType::Float16 ||
                             !asTensor(y)) &&
                            (asTensor(x) || asTensor(y));
        // numpy keeps float16 when every array operand is float16.
        const bool half = (x0.dtype() == ir::DType::Float16 || !asTensor(x)) &&
                          (y0.dtype() == ir::DType::Float16 || !asTensor(y)) &&
                          (asTensor(x) || asTensor(y));
        const ir::DType ft = half     ? ir::DType::Float16
                             : single ? ir::DType::Float32
                                      : ir::DType::Float64;
        Value xb = J.binaryOp(ast::Operator::Add, newArray(J, *ms, x0.cast(ir::DType::Float64)),
                              newArray(J, *ms, Tensor(ir::DType::Float64, y0.shape())));
        Value yb = J.binaryOp(ast::Operator::Add, newArray(J, *ms, y0.cast(ir::DType::Float64)),
                              newArray(J, *ms, Tensor(ir::DType::Float64, x0.shape())));
        const Tensor& xs = asTensor(xb)->t;
        const Tensor& ys = asTensor(yb)->t;
        Tensor out(ft, xs.shape());
        for (std::size_t i = 0; i < out.size(); ++i) {
            out.setDouble(i, std::atan2(xs.getDouble(i), ys.getDouble(i)));
        }
        return newArray(J, *ms, std::move(out));
    });
    interp::addFunction(I, m, "pad", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig = Signature("pad")
                                         .arg("array")
                                         .arg("pad_width")
                                         .arg("mode", Value(J.newStr("constant")))
                                         .kwOnly("constant_values", Value::integer(0));
        auto v = sig.bind(J, a);
        Tensor t = toArray(J, *ms, v[0]);
        const std::size_t rank = t.rank();
        // pad_width: n, (before, after), or one (before, after) per axis.
        std::vector<std::pair<std::int64_t, std::int64_t>> pads(rank);
        if (v[1].isIntLike()) {
            const std::int64_t n = J.toIndex(v[1]);
            pads.assign(rank, {n, n});
        } else {
            std::vector<Value> outer = J.toVector(v[1]);
            auto pairOf = [&](const Value& e) -> std::pair<std::int64_t, std::int64_t> {
                if (e.isIntLike()) {
                    return {J.toIndex(e), J.toIndex(e)};
                }
                std::vector<Value> p = J.toVector(e);
                if (p.size() == 1) {
                    return {J.toIndex(p[0]), J.toIndex(p[0])};
                }
                if (p.size() != 2) {
                    throw PyError(Exc::ValueError,
                                  "operands could not be broadcast together "
                                  "with remapped shapes");
                }
                return {J.toIndex(p[0]), J.toIndex(p[1])};
            };
            if (outer.size() == 1 || (outer.size() == 2 && outer[0].isIntLike())) {
                pads.assign(rank, pairOf(outer.size() == 1 ? outer[0] : v[1]));
            } else if (outer.size() == rank) {
                for (std::size_t d = 0; d < rank; ++d) {
                    pads[d] = pairOf(outer[d]);
                }
            } else {
                throw PyError(Exc::ValueError,
                              "operands could not be broadcast together with remapped shapes");
            }
        }
        const std::string mode = J.str(v[2]);
        if (mode != "constant" && mode != "reflect" && mode != "symmetric" && mode != "edge") {
            throw PyError(Exc::ValueError, "mode '" + mode + "' is not supported");
        }
        std::vector<std::int64_t> dims = t.shape().dims;
        for (std::size_t d = 0; d < rank; ++d) {
            if (pads[d].first < 0 || pads[d].second < 0) {
                throw PyError(Exc::ValueError, "index can't contain negative values");
            }
            dims[d] += pads[d].first + pads[d].second;
        }
        Tensor out(t.dtype(), ir::Shape(dims));
        const double fill = interp::toDouble(J, v[3]);
        std::vector<std::size_t> st(rank, 1);
        for (std::size_t d = rank; d-- > 1;) {
            st[d - 1] = st[d] * static_cast<std::size_t>(t.shape().dims[d]);
        }
        std::vector<std::int64_t> coord(rank, 0);
        for (std::size_t flat = 0; flat < out.size(); ++flat) {
            std::size_t src = 0;
            bool inside = true;
            for (std::size_t d = 0; d < rank; ++d) {
                const std::int64_t n = t.shape().dims[d];
                std::int64_t i = coord[d] - pads[d].first;
                if (i < 0 || i >= n) {
                    if (mode == "constant") {
                        inside = false;
                        break;
                    }
                    // Reflections repeat for pads wider than the axis (numpy's rule).
                    const std::int64_t period = mode == "reflect" ? 2 * (n - 1) : 2 * n;
                    if (mode == "edge" || period == 0) {
                        i = i < 0 ? 0 : n - 1;
                    } else {
                        i = ((i % period) + period) % period;
                        if (i >= n) {
                            i = mode == "reflect" ? period - i : period - 1 - i;
                        }
                    }
                }
                src += static_cast<std::size_t>(i) * st[d];
            }
            if (inside) {
                copyAt(t, src, out, flat);
            } else {
                out.setDouble(flat, fill);
            }
            for (std::size_t d = rank; d-- > 0;) {
                if (++coord[d] < dims[d]) {
                    break;
                }
                coord[d] = 0;
            }
        }
        return newArray(J, *ms, std::move(out));
    });
    // ndenumerate: the (index tuple, element) pairs in row-major order.
    interp::addFunction(I, m, "ndenumerate", [ms](Interpreter& J, CallArgs& a) {
        const Tensor t = toArray(J, *ms, interp::argAt(a, 0, "arr"));
        std::vector<Value> items;
        std::vector<std::int64_t> coord(t.rank(), 0);
        for (std::size_t flat = 0; flat < t.size(); ++flat) {
            std::vector<Value> idx;
            for (std::int64_t c : coord) {
                idx.push_back(Value::integer(c));
            }
            const Value elem = ir::isFloat(t.dtype())         ? Value::real(t.getDouble(flat))
                               : t.dtype() == ir::DType::Bool ? Value::boolean(t.getInt(flat) != 0)
                                                              : Value::integer(t.getInt(flat));
            items.push_back(J.newTuple({J.newTuple(std::move(idx)), elem}));
            for (std::size_t d = t.rank(); d-- > 0;) {
                if (++coord[d] < t.shape().dims[d]) {
                    break;
                }
                coord[d] = 0;
            }
        }
        return J.newList(std::move(items));
    });
    interp::addFunction(I, m, "insert", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig =
            Signature("insert").arg("arr").arg("obj").arg("values").arg("axis", Value::none());
        auto v = sig.bind(J, a);
        return newArray(J, *ms,
                        insertAt(J, toArray(J, *ms, v[0]), v[1], toArray(J, *ms, v[2]), v[3]));
    });
    interp::addFunction(I, m, "delete", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig =
            Signature("delete").arg("arr").arg("obj").arg("axis", Value::none());
        auto v = sig.bind(J, a);
        return newArray(J, *ms, deleteAt(J, toArray(J, *ms, v[0]), v[1], v[2]));
    });
    // broadcast_to(array, shape): numpy's broadcasting rules, a new array here.
    interp::addFunction(I, m, "broadcast_to", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig =
            Signature("broadcast_to").arg("array").arg("shape").arg("subok", Value::boolean(false));
        auto v = sig.bind(J, a);
        const Tensor t = toArray(J, *ms, v[0]);
        std::vector<std::int64_t> to;
        if (v[1].isIntLike()) {
            to.push_back(v[1].intLike());
        } else {
            for (const Value& d : J.toVector(v[1])) {
                to.push_back(J.toIndex(d));
            }
        }
        const auto& from = t.shape().dims;
        bool ok = from.size() <= to.size();
        for (std::size_t i = 0; ok && i < from.size(); ++i) {
            const std::int64_t f = from[from.size() - 1 - i], d = to[to.size() - 1 - i];
            ok = f == d || f == 1;
        }
        if (!ok) {
            throw PyError(Exc::ValueError,
                          "operands could not be broadcast together with remapped shapes "
                          "[original->remapped]: " +
                              dimsText(from) + "  and requested shape " + dimsText(to));
        }
        Tensor out(t.dtype(), ir::Shape(to));
        const std::size_t offset = to.size() - from.size();
        std::vector<std::int64_t> coord(to.size(), 0);
        for (std::size_t flat = 0; flat < out.size(); ++flat) {
            std::size_t src = 0;
            for (std::size_t d = 0; d < from.size(); ++d) {
                src = src * static_cast<std::size_t>(from[d]) +
                      (from[d] == 1 ? 0 : static_cast<std::size_t>(coord[offset + d]));
            }
            copyAt(t, src, out, flat);
            for (std::size_t d = to.size(); d-- > 0;) {
                if (++coord[d] < to[d]) {
                    break;
                }
                coord[d] = 0;
            }
        }
        return newArray(J, *ms, std::move(out));
    });
    // meshgrid(*xi, indexing='xy'): a list of N-d grids ('xy' swaps the first two axes).
    interp::addFunction(I, m, "meshgrid", [ms](Interpreter& J, CallArgs& a) {
        std::string indexing = "xy";
        for (const auto& kw : a.kw) {
            if (kw.name == "indexing") {
                indexing = J.str(kw.value);
            } else if (kw.name != "copy" && kw.name != "sparse") {
                throw PyError(Exc::TypeError,
                              "meshgrid() got an unexpected keyword argument '" + kw.name + "'");
            }
        }
        if (indexing != "xy" && indexing != "ij") {
            throw PyError(Exc::ValueError, "Valid values for `indexing` are 'xy' and 'ij'.");
        }
        std::vector<Tensor> in;
        std::vector<std::int64_t> dims;
        for (const Value& v : a.pos) {
            Tensor t = toArray(J, *ms, v);
            in.push_back(t.reshaped(ir::Shape({static_cast<std::int64_t>(t.size())})));
            dims.push_back(static_cast<std::int64_t>(t.size()));
        }
        const bool xy = indexing == "xy" && dims.size() >= 2;
        if (xy) {
            std::swap(dims[0], dims[1]);
        }
        const ir::Shape shape(dims);
        std::vector<Value> out;
        for (std::size_t k = 0; k < in.size(); ++k) {
            const std::size_t axis = xy && k < 2 ? 1 - k : k;
            Tensor r(in[k].dtype(), shape);
            std::vector<std::int64_t> coord(dims.size(), 0);
            for (std::size_t flat = 0; flat < r.size(); ++flat) {
                copyAt(in[k], static_cast<std::size_t>(coord[axis]), r, flat);
                for (std::size_t d = dims.size(); d-- > 0;) {
                    if (++coord[d] < dims[d]) {
                        break;
                    }
                    coord[d] = 0;
                }
            }
            out.push_back(newArray(J, *ms, std::move(r)));
        }
        return Value(J.newList(std::move(out)));
    });
}

}  // namespace irscope::modules
