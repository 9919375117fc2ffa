// Padding and block rearranging primitives: Pad (zeros), MirrorPad (REFLECT or SYMMETRIC)
// with MirrorPadGrad for its gradient, SpaceToDepth and DepthToSpace (NCHW, the channel of a
// block element being (row * block_size + column) * C + c).
#include <algorithm>
#include <cmath>

#include "ops/bprop.h"
#include "ops/infer_util.h"
#include "ops/kernel_util.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

// ---- Pad / MirrorPad -----------------------------------------------------------------------

using Pads = std::vector<std::pair<std::int64_t, std::int64_t>>;

Pads padsOf(std::string_view op, const ValuePtr& v, std::size_t rank) {
    Pads p;
    bool ok = v && (v->kind == ir::Value::Kind::Tuple || v->kind == ir::Value::Kind::List);
    if (ok) {
        for (const ValuePtr& e : v->elements) {
            const auto pair = intsOf(e);
            if (!pair || pair->size() != 2) {
                ok = false;
                break;
            }
            p.emplace_back((*pair)[0], (*pair)[1]);
        }
    } else if (v && v->kind == ir::Value::Kind::Tensor) {
        const auto flat = intsOf(v);
        if (const Tensor t = tensorFromValue(v); t.rank() == 2 && t.shape().dims[1] == 2) {
            ok = true;
            for (std::size_t i = 0; i < t.size(); i += 2) {
                p.emplace_back(t.getInt(i), t.getInt(i + 1));
            }
        }
        (void)flat;
    }
    if (!ok) {
        typeError(op, "the 'paddings' must be a tuple of (before, after) pairs of ints.");
    }
    if (p.size() != rank) {
        valueError(op,
                   "the length of 'paddings' must be equal to the rank of 'input_x', but got "
                   "the length of 'paddings': " +
                       std::to_string(p.size()) +
                       ", the rank of 'input_x': " + std::to_string(rank) + ".");
    }
    return p;
}

Shape paddedShape(const Shape& x, const Pads& p) {
    Shape out = x;
    for (std::size_t d = 0; d < x.rank(); ++d) {
        if (x.dims[d] >= 0) {
            out.dims[d] = x.dims[d] + p[d].first + p[d].second;
        }
    }
    return out;
}

// The source coordinate of an output coordinate along one axis (-1: the constant fill).
std::int64_t sourceIndex(std::int64_t o, std::int64_t before, std::int64_t n, int mode) {
    std::int64_t i = o - before;
    if (i >= 0 && i < n) {
        return i;
    }
    if (mode == 0) {
        return -1;
    }
    const bool reflect = mode == 1;
    if (i < 0) {
        return reflect ? -i : -i - 1;
    }
    return reflect ? 2 * (n - 1) - i : 2 * n - 1 - i;
}

// mode: 0 constant zeros (Pad), 1 REFLECT, 2 SYMMETRIC.
Tensor padTensor(const Tensor& x, const Pads& p, int mode) {
    const Shape out = paddedShape(x.shape(), p);
    Tensor r(x.dtype(), out);
    const auto st = strides(x.shape());
    forEachIndex(out, [&](std::size_t flat, const std::vector<std::int64_t>& coord) {
        std::size_t src = 0;
        for (std::size_t d = 0; d < coord.size(); ++d) {
            const std::int64_t i = sourceIndex(coord[d], p[d].first, x.shape().dims[d], mode);
            if (i < 0) {
                return;
            }
            src += static_cast<std::size_t>(i) * st[d];
        }
        copyElement(x, src, r, flat);
    });
    return r;
}

void checkPads(std::string_view op, const Shape& x, const Pads& p, int mode) {
    for (std::size_t d = 0; d < p.size(); ++d) {
        if (p[d].first < 0 || p[d].second < 0) {
            valueError(op, "all elements of 'paddings' must be non-negative, but got " +
                               std::to_string(p[d].first < 0 ? p[d].first : p[d].second) + ".");
        }
        const std::int64_t limit = mode == 1 ? x.dims[d] - 1 : x.dims[d];
        if (mode != 0 && x.dims[d] >= 0 && (p[d].first > limit || p[d].second > limit)) {
            valueError(op, "the paddings of dimension " + std::to_string(d) + " must be at most " +
                               std::to_string(limit) + " in mode '" +
                               (mode == 1 ? "REFLECT" : "SYMMETRIC") + "', but got (" +
                               std::to_string(p[d].first) + ", " + std::to_string(p[d].second) +
                               ").");
        }
    }
}

int mirrorMode(std::string_view op, const ValuePtr& v) {
    const std::string m = v && v->kind == ir::Value::Kind::String ? v->text : "REFLECT";
    if (m == "REFLECT") {
        return 1;
    }
    if (m == "SYMMETRIC") {
        return 2;
    }
    valueError(op, "the 'mode' must be 'REFLECT' or 'SYMMETRIC', but got '" + m + "'.");
}

// MirrorPadGrad: each element of dy added back to the element of x it was copied from.
Tensor mirrorPadGrad(const Tensor& dy, const Pads& p, int mode) {
    Shape x = dy.shape();
    for (std::size_t d = 0; d < x.rank(); ++d) {
        x.dims[d] -= p[d].first + p[d].second;
    }
    Tensor r(dy.dtype(), x);
    const auto st = strides(x);
    forEachIndex(dy.shape(), [&](std::size_t flat, const std::vector<std::int64_t>& coord) {
        std::size_t dst = 0;
        for (std::size_t d = 0; d < coord.size(); ++d) {
            dst += static_cast<std::size_t>(sourceIndex(coord[d], p[d].first, x.dims[d], mode)) *
                   st[d];
        }
        r.setDouble(dst, r.getDouble(dst) + dy.getDouble(flat));
    });
    return r;
}

// ---- SpaceToDepth / DepthToSpace --------------------------------------------------------------

std::int64_t blockSize(std::string_view op, const ValuePtr& v) {
    const auto b = v ? intOf(v) : std::nullopt;
    if (!b) {
        typeError(op, "the 'block_size' must be an int.");
    }
    if (*b < 2) {
        valueError(op, "the 'block_size' must be greater than or equal to 2, but got " +
                           std::to_string(*b) + ".");
    }
    return *b;
}

Shape depthShape(std::string_view op, const Shape& x, std::int64_t b, bool toDepth) {
    if (x.dynamicRank) {
        return unknownShape(4);
    }
    if (x.rank() != 4) {
        valueError(op, "the rank of 'x' must be 4, but got " + std::to_string(x.rank()) + ".");
    }
    Shape out = x;
    if (toDepth) {
        for (std::size_t d : {2, 3}) {
            if (x.dims[d] >= 0 && x.dims[d] % b != 0) {
                valueError(op, "the height and width of 'x' must be divisible by 'block_size' (" +
                                   std::to_string(b) +
                                   "), but got the shape of 'x': " + shapeStr(x) + ".");
            }
            out.dims[d] = x.dims[d] < 0 ? -1 : x.dims[d] / b;
        }
        out.dims[1] = x.dims[1] < 0 ? -1 : x.dims[1] * b * b;
    } else {
        if (x.dims[1] >= 0 && x.dims[1] % (b * b) != 0) {
            valueError(op,
                       "the channels of 'x' must be divisible by 'block_size' * "
                       "'block_size' (" +
                           std::to_string(b * b) + "), but got " + std::to_string(x.dims[1]) + ".");
        }
        out.dims[1] = x.dims[1] < 0 ? -1 : x.dims[1] / (b * b);
        for (std::size_t d : {2, 3}) {
            out.dims[d] = x.dims[d] < 0 ? -1 : x.dims[d] * b;
        }
    }
    return out;
}

// The depth layout (channel = (bh * b + bw) * C + c) of the space blocks.
KernelArg runDepth(const KernelContext& c, bool toDepth) {
    const Tensor x = c.tensor(0);
    const std::int64_t b = blockSize(c.name(), c.attr("block_size"));
    const Shape out = depthShape(c.name(), x.shape(), b, toDepth);
    Tensor r(x.dtype(), out);
    const Shape& space = toDepth ? x.shape() : out;  // the [N, C, H, W] side
    const Shape& depth = toDepth ? out : x.shape();
    const auto ss = strides(space);
    const auto ds = strides(depth);
    forEachIndex(space, [&](std::size_t flat, const std::vector<std::int64_t>& p) {
        const std::int64_t bh = p[2] % b;
        const std::int64_t bw = p[3] % b;
        const std::int64_t ch = (bh * b + bw) * space.dims[1] + p[1];
        const std::size_t at =
            static_cast<std::size_t>(p[0]) * ds[0] + static_cast<std::size_t>(ch) * ds[1] +
            static_cast<std::size_t>(p[2] / b) * ds[2] + static_cast<std::size_t>(p[3] / b) * ds[3];
        (void)ss;
        if (toDepth) {
            copyElement(x, flat, r, at);
        } else {
            copyElement(x, at, r, flat);
        }
    });
    return KernelArg(r);
}

// ---- gradients ----------------------------------------------------------------------------------

void registerPadBprops(OpRegistry& reg) {
    // Pad: the unpadded block of dout.
    setBprop(reg, "Pad", [](BpropContext& c) {
        if (!c.needsGrad(0)) {
            return;
        }
        const Shape& x = c.absOf(0)->shape;
        const ValuePtr p = c.attrs().get("paddings");
        if (!x.isStatic() || !p) {
            c.fail("For 'Pad', the gradient needs a static input shape.");
        }
        const Pads pads = padsOf("Pad", p, x.rank());
        std::vector<std::int64_t> begin;
        for (const auto& [before, after] : pads) {
            begin.push_back(before);
        }
        c.setGrad(0,
                  c.emit("Slice", {c.dout(), c.constant(vInts(begin)), c.constant(vInts(x.dims))}));
    });
    setBprop(reg, "MirrorPad", [](BpropContext& c) {
        if (c.needsGrad(0)) {
            c.setGrad(0, c.emit("MirrorPadGrad", {c.dout(), c.input(1)}, c.attrs()));
        }
    });
}

}  // namespace

void registerPadOps(OpRegistry& reg) {
    {
        OpDef d{.name = "Pad", .family = "array", .summary = "x padded with zeros"};
        d.attrs = {argIn("paddings", ArgKind::Any)};
        d.inputs = {argIn("input_x")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = tensorInput(c, 0, "input_x");
            if (x->shape.dynamicRank) {
                return InferResult{ir::Abstract::tensor(x->dtype, x->shape), nullptr};
            }
            const Pads p = padsOf(c.name(), c.attr("paddings"), x->shape.rank());
            checkPads(c.name(), x->shape, p, 0);
            return InferResult{ir::Abstract::tensor(x->dtype, paddedShape(x->shape, p)), nullptr};
        };
        d.cpuKernel = [](const KernelContext& c) {
            const Tensor x = c.tensor(0);
            const Pads p = padsOf(c.name(), c.attr("paddings"), x.rank());
            checkPads(c.name(), x.shape(), p, 0);
            return KernelArg(padTensor(x, p, 0));
        };
        addClassSpellings(d);
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "MirrorPad",
                .family = "array",
                .summary = "x padded with its own reflection (REFLECT or SYMMETRIC)"};
        d.attrs = {argDefault("mode", ArgKind::String, ir::Value::string("REFLECT"))};
        d.inputs = {argIn("input_x"), argIn("paddings")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = tensorInput(c, 0, "input_x");
            const AbstractPtr p = tensorInput(c, 1, "paddings");
            if (p->dtype != DType::Int32 && p->dtype != DType::Int64) {
                typeError(c.name(),
                          "the type of 'paddings' must be Tensor[Int32, Int64], but got " +
                              typeStr(p) + ".");
            }
            const int mode = mirrorMode(c.name(), c.attr("mode"));
            const ValuePtr pv = c.arg(1).value;
            if (x->shape.dynamicRank || !pv) {
                return InferResult{
                    ir::Abstract::tensor(
                        x->dtype, x->shape.dynamicRank ? x->shape : unknownShape(x->shape.rank())),
                    nullptr};
            }
            const Pads pads = padsOf(c.name(), pv, x->shape.rank());
            checkPads(c.name(), x->shape, pads, mode);
            return InferResult{ir::Abstract::tensor(x->dtype, paddedShape(x->shape, pads)),
                               nullptr};
        };
        d.cpuKernel = [](const KernelContext& c) {
            const Tensor x = c.tensor(0);
            const int mode = mirrorMode(c.name(), c.attr("mode"));
            const Pads p = padsOf(c.name(), valueFromKernelArg(KernelArg(c.tensor(1))), x.rank());
            checkPads(c.name(), x.shape(), p, mode);
            return KernelArg(padTensor(x, p, mode));
        };
        addClassSpellings(d);
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "MirrorPadGrad",
                .family = "array",
                .summary = "the gradient of MirrorPad: dy folded back onto x's shape"};
        d.attrs = {argDefault("mode", ArgKind::String, ir::Value::string("REFLECT"))};
        d.inputs = {argIn("dy"), argIn("paddings")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr dy = tensorInput(c, 0, "dy");
            const ValuePtr pv = c.arg(1).value;
            if (dy->shape.dynamicRank || !pv) {
                return InferResult{ir::Abstract::tensor(dy->dtype, unknownShape(dy->shape.rank())),
                                   nullptr};
            }
            const Pads pads = padsOf(c.name(), pv, dy->shape.rank());
            Shape x = dy->shape;
            for (std::size_t k = 0; k < x.rank(); ++k) {
                if (x.dims[k] >= 0) {
                    x.dims[k] -= pads[k].first + pads[k].second;
                }
            }
            return InferResult{ir::Abstract::tensor(dy->dtype, x), nullptr};
        };
        d.cpuKernel = [](const KernelContext& c) {
            const Tensor dy = c.tensor(0);
            const int mode = mirrorMode(c.name(), c.attr("mode"));
            const Pads p = padsOf(c.name(), valueFromKernelArg(KernelArg(c.tensor(1))), dy.rank());
            return KernelArg(mirrorPadGrad(dy, p, mode));
        };
        addClassSpellings(d);
        reg.add(std::move(d));
    }
    for (const bool toDepth : {true, false}) {
        OpDef d{.name = toDepth ? "SpaceToDepth" : "DepthToSpace",
                .family = "array",
                .summary = toDepth ? "block_size x block_size spatial blocks moved into channels"
                                   : "channels moved into block_size x block_size spatial blocks"};
        d.attrs = {argIn("block_size", ArgKind::Int)};
        d.inputs = {argIn("x")};
        d.infer = [toDepth](const InferContext& c) {
            const AbstractPtr x = tensorInput(c, 0, "x");
            const std::int64_t b = blockSize(c.name(), c.attr("block_size"));
            return InferResult{
                ir::Abstract::tensor(x->dtype, depthShape(c.name(), x->shape, b, toDepth)),
                nullptr};
        };
        d.cpuKernel = [toDepth](const KernelContext& c) { return runDepth(c, toDepth); };
        // The inverse rearrangement on the gradient.
        d.bprop = [toDepth](BpropContext& c) {
            if (c.needsGrad(0)) {
                c.setGrad(0,
                          c.emit(toDepth ? "DepthToSpace" : "SpaceToDepth", {c.dout()}, c.attrs()));
            }
        };
        addClassSpellings(d);
        reg.add(std::move(d));
    }
    registerPadBprops(reg);
}

}  // namespace irscope::ops
