// Convolution and pooling: Conv2D, MaxPool, AvgPool, MaxPool3D, AvgPool3D (NCHW and NCDHW,
// MindSpore's attributes and pad_mode rules) and Flatten, the ops of MindSpore's LeNet/MNIST networks. Direct loops,
// summing over input channel, kernel row, kernel column in that order (the OpenCL plugin sums
// in the same order, so both devices give the same bits).
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "ops/infer_util.h"
#include "ops/kernel_util.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

using ir::Tensor;

enum class PadMode { Pad, Same, Valid };

// pad_mode as MindSpore stores it: a string in any case, or 0 (pad), 1 (same), 2 (valid).
PadMode padModeOf(std::string_view op, const ValuePtr& v, PadMode fallback) {
    if (!v) {
        return fallback;
    }
    if (v->kind == ir::Value::Kind::String) {
        std::string s = v->text;
        std::transform(s.begin(), s.end(), s.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (s == "same") {
            return PadMode::Same;
        }
        if (s == "valid") {
            return PadMode::Valid;
        }
        if (s == "pad" || s == "calculated") {
            return PadMode::Pad;
        }
        valueError(op,
                   "the 'pad_mode' must be 'same', 'valid' or 'pad', but got '" + v->text + "'.");
    }
    if (const auto i = intOf(v)) {
        return *i == 1 ? PadMode::Same : *i == 2 ? PadMode::Valid : PadMode::Pad;
    }
    return fallback;
}

// The last two of an int or a tuple of 2 or 4 ints (kernel_size, stride, dilation).
std::pair<std::int64_t, std::int64_t> hw(std::string_view op, const char* name, const ValuePtr& v,
                                         std::int64_t fallback) {
    if (!v) {
        return {fallback, fallback};
    }
    if (const auto i = intOf(v)) {
        return {*i, *i};
    }
    const auto list = intsOf(v);
    if (!list || list->size() < 2) {
        valueError(op, std::string("the '") + name + "' must be an int or a tuple of 2 or 4 ints.");
    }
    const auto& l = *list;
    const auto a = l[l.size() - 2];
    const auto b = l[l.size() - 1];
    if (a <= 0 || b <= 0) {
        valueError(op,
                   std::string("the '") + name + "' must be positive, but got " + listStr(l) + ".");
    }
    return {a, b};
}

// A convolution's or pool's window over NCHW, or NCDHW for the 3-D pools (a 2-D window has
// depth 1).
struct Window {
    std::int64_t n = 0, c = 0, d = 1, h = 0, w = 0;  // input
    std::int64_t kd = 1, kh = 1, kw = 1, sd = 1, sh = 1, sw = 1, dh = 1, dw = 1;
    std::int64_t front = 0, top = 0, left = 0;   // padding before
    std::int64_t back = 0, bottom = 0, right = 0;  // padding after (the 3-D pools)
    std::int64_t od = 1, oh = 0, ow = 0;           // output
    bool volumetric = false;  // NCDHW
    // An average's divisor: the window's elements inside the input (MindSpore's AvgPool), or
    // with the padding it covers (AvgPool3D's count_include_pad), or divisor_override.
    bool countPad = false;
    std::int64_t divisorOverride = 0;

    Shape outShape() const {
        return volumetric ? Shape{n, c, od, oh, ow} : Shape{n, c, oh, ow};
    }
};

// Output size and leading padding of one spatial dimension.
// `ceil`: the last window may start inside the input without fitting (ceil_mode), never
// inside the trailing padding only. `after` (optional) gets the padding after.
void spatial(PadMode mode, std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t d,
             std::int64_t padBefore, std::int64_t padAfter, std::int64_t& out,
             std::int64_t& before, std::int64_t* after = nullptr, bool ceil = false) {
    const std::int64_t span = d * (k - 1) + 1;
    auto count = [&](std::int64_t padded, std::int64_t lead) {
        if (padded < span) {
            return std::int64_t{0};
        }
        std::int64_t n = (padded - span + (ceil ? s - 1 : 0)) / s + 1;
        if (ceil && n > 1 && (n - 1) * s >= in + lead) {
            --n;
        }
        return n;
    };
    std::int64_t tail = 0;
    switch (mode) {
        case PadMode::Valid:
            out = count(in, 0);
            before = 0;
            break;
        case PadMode::Same: {
            out = (in + s - 1) / s;
            const std::int64_t total = std::max<std::int64_t>((out - 1) * s + span - in, 0);
            before = total / 2;
            tail = total - before;
            break;
        }
        case PadMode::Pad:
            out = count(in + padBefore + padAfter, padBefore);
            before = padBefore;
            tail = padAfter;
            break;
    }
    if (after != nullptr) {
        *after = tail;
    }
}

// The last three of an int or a tuple of 1, 3 or 5 ints (the 3-D pools' kernel_size, strides).
std::array<std::int64_t, 3> dhw(std::string_view op, const char* name, const ValuePtr& v,
                                std::int64_t fallback) {
    std::array<std::int64_t, 3> out{fallback, fallback, fallback};
    if (!v) {
        return out;
    }
    if (const auto i = intOf(v)) {
        out = {*i, *i, *i};
    } else if (const auto l = intsOf(v); l && l->size() == 1) {
        out = {(*l)[0], (*l)[0], (*l)[0]};
    } else if (l && (l->size() == 3 || l->size() == 5)) {
        std::copy(l->end() - 3, l->end(), out.begin());
    } else {
        valueError(op, std::string("the '") + name + "' must be an int or a tuple of 1, 3 or 5 ints.");
    }
    if (out[0] <= 0 || out[1] <= 0 || out[2] <= 0) {
        valueError(op, std::string("the '") + name + "' must be positive, but got " +
                           listStr(std::vector<std::int64_t>(out.begin(), out.end())) + ".");
    }
    return out;
}

// The window of a 3-D pool (AvgPool3D, MaxPool3D and their gradients) on an NCDHW shape.
template <typename Ctx>
Window window3dOf(const Ctx& ctx, const Shape& x) {
    const std::string_view op = ctx.name();
    if (x.rank() != 5) {
        valueError(op, "the input 'x' must be a 5-D Tensor (NCDHW), but got shape " + shapeStr(x) + ".");
    }
    if (const ValuePtr f = ctx.attr("data_format");
        f && f->kind == ir::Value::Kind::String && f->text != "NCDHW") {
        valueError(op, "the 'data_format' must be 'NCDHW', but got '" + f->text + "'.");
    }
    Window win;
    win.volumetric = true;
    win.n = x.dims[0];
    win.c = x.dims[1];
    win.d = x.dims[2];
    win.h = x.dims[3];
    win.w = x.dims[4];
    const auto k = dhw(op, "kernel_size", ctx.attr("kernel_size"), 1);
    const auto st = dhw(op, "strides", ctx.attr("strides"), 1);
    win.kd = k[0];
    win.kh = k[1];
    win.kw = k[2];
    win.sd = st[0];
    win.sh = st[1];
    win.sw = st[2];
    const PadMode mode = padModeOf(op, ctx.attr("pad_mode"), PadMode::Valid);
    std::int64_t pads[6] = {0, 0, 0, 0, 0, 0};  // head, tail, top, bottom, left, right
    for (const char* name : {"pad_list", "pad"}) {
        const ValuePtr p = ctx.attr(name);
        if (const auto i = intOf(p); i && *i != 0) {
            std::fill(std::begin(pads), std::end(pads), *i);
            break;
        }
        if (const auto l = intsOf(p); l && l->size() == 6) {
            std::copy(l->begin(), l->end(), pads);
            break;
        }
    }
    if (std::any_of(std::begin(pads), std::end(pads), [](std::int64_t v) { return v < 0; })) {
        valueError(op, "the 'pad' must be non-negative.");
    }
    const bool ceil = boolOf(ctx.attr("ceil_mode")).value_or(false);
    spatial(mode, win.d, win.kd, win.sd, 1, pads[0], pads[1], win.od, win.front, &win.back, ceil);
    spatial(mode, win.h, win.kh, win.sh, 1, pads[2], pads[3], win.oh, win.top, &win.bottom, ceil);
    spatial(mode, win.w, win.kw, win.sw, 1, pads[4], pads[5], win.ow, win.left, &win.right, ceil);
    if (win.od <= 0 || win.oh <= 0 || win.ow <= 0) {
        valueError(op, "the kernel " + listStr(std::vector<std::int64_t>{win.kd, win.kh, win.kw}) +
                           " does not fit the input of shape " + shapeStr(x) + ".");
    }
    win.countPad = boolOf(ctx.attr("count_include_pad")).value_or(true);
    win.divisorOverride = intOf(ctx.attr("divisor_override")).value_or(0);
    return win;
}

// The window of a conv/pool primitive on an NCHW input shape.
template <typename Ctx>
Window windowOf(const Ctx& ctx, const Shape& x, bool conv) {
    const std::string_view op = ctx.name();
    if (x.rank() != 4) {
        valueError(op,
                   "the input 'x' must be a 4-D Tensor (NCHW), but got shape " + shapeStr(x) + ".");
    }
    // MindSpore keeps the layout as `format` (and BiasAdd also as `data_format`, the
    // constructor's name); a script's primitive has the constructor's `data_format`.
    for (const char* name : {"format", "data_format"}) {
        if (const ValuePtr f = ctx.attr(name);
            f && f->kind == ir::Value::Kind::String && f->text != "NCHW") {
            valueError(op, "the '" + std::string(name) + "' must be 'NCHW', but got '" + f->text +
                               "' (irscope runs NCHW only).");
        }
    }
    Window win;
    win.n = x.dims[0];
    win.c = x.dims[1];
    win.h = x.dims[2];
    win.w = x.dims[3];
    std::tie(win.kh, win.kw) = hw(op, "kernel_size", ctx.attr("kernel_size"), 1);
    std::tie(win.sh, win.sw) =
        hw(op, conv ? "stride" : "strides", ctx.attr(conv ? "stride" : "strides"), 1);
    if (conv) {
        std::tie(win.dh, win.dw) = hw(op, "dilation", ctx.attr("dilation"), 1);
    }
    const PadMode mode = padModeOf(op, ctx.attr("pad_mode"), PadMode::Valid);
    std::int64_t pads[4] = {0, 0, 0, 0};  // top, bottom, left, right
    // pad_mode 'pad': the pad_list MindSpore's infer stores (what an exported file holds),
    // else the constructor's pad (one int or four).
    const ValuePtr padList = ctx.attr("pad_list");
    if (const ValuePtr p = padList && intsOf(padList) && intsOf(padList)->size() == 4
                               ? padList
                               : ctx.attr("pad")) {
        if (const auto i = intOf(p)) {
            std::fill(std::begin(pads), std::end(pads), *i);
        } else if (const auto l = intsOf(p); l && l->size() == 4) {
            std::copy(l->begin(), l->end(), pads);
        }
    }
    spatial(mode, win.h, win.kh, win.sh, win.dh, pads[0], pads[1], win.oh, win.top);
    spatial(mode, win.w, win.kw, win.sw, win.dw, pads[2], pads[3], win.ow, win.left);
    if (win.oh <= 0 || win.ow <= 0) {
        valueError(op, "the kernel " + listStr(std::vector<std::int64_t>{win.kh, win.kw}) +
                           " does not fit the input of shape " + shapeStr(x) + ".");
    }
    return win;
}

std::int64_t groupOf(const auto& ctx) {
    for (const char* name : {"group", "groups"}) {
        if (const auto g = intOf(ctx.attr(name)); g && *g > 0) {
            return *g;
        }
    }
    return 1;
}

void checkFloat(std::string_view op, const char* name, DType t) {
    if (!ir::isFloat(t)) {
        typeError(op, std::string("the type of '") + name +
                          "' must be Tensor[Float16, Float32, Float64], but got Tensor[" +
                          typeStr(t) + "].");
    }
}

// ---- Conv2D -----------------------------------------------------------------------------

InferResult inferConv2D(const InferContext& ctx) {
    const AbstractPtr x = ctx.abs(0);
    const AbstractPtr w = ctx.abs(1);
    if (!isTensorAbs(x) || !isTensorAbs(w)) {
        typeError(ctx.name(), "the inputs 'x' and 'weight' must be Tensors.");
    }
    checkFloat(ctx.name(), "x", x->dtype);
    if (x->dtype != w->dtype) {
        typeError(ctx.name(), "the dtypes of 'x' and 'weight' must be the same, but got " +
                                  typeStr(x) + " and " + typeStr(w) + ".");
    }
    if (x->shape.dynamicRank || w->shape.dynamicRank || !x->shape.isStatic() ||
        !w->shape.isStatic()) {
        return {ir::Abstract::tensor(x->dtype, unknownShape(4)), nullptr};
    }
    const Window win = windowOf(ctx, x->shape, true);
    if (w->shape.rank() != 4 || w->shape.dims[1] * groupOf(ctx) != win.c) {
        valueError(ctx.name(), "the 'weight' shape " + shapeStr(w->shape) +
                                   " does not fit the input channels of 'x' " + shapeStr(x->shape) +
                                   ".");
    }
    return {ir::Abstract::tensor(x->dtype, Shape{win.n, w->shape.dims[0], win.oh, win.ow}),
            nullptr};
}

// Every product of a convolution: f(out, x, w) with the flat indices of the output element,
// the input element and the weight that meet there, outputs in order and, within one, in the
// order of the sum. `ws` is the weight's shape [Cout, Cin/group, kh, kw].
template <typename F>
void forEachTap(const Window& win, const Shape& ws, std::int64_t group, F&& f) {
    const std::int64_t co = ws.dims[0];
    const std::int64_t cig = ws.dims[1];  // input channels per group
    const std::int64_t cog = co / group;
    for (std::int64_t n = 0; n < win.n; ++n) {
        for (std::int64_t o = 0; o < co; ++o) {
            const std::int64_t g = o / cog;
            for (std::int64_t oy = 0; oy < win.oh; ++oy) {
                for (std::int64_t ox = 0; ox < win.ow; ++ox) {
                    const std::int64_t oi = ((n * co + o) * win.oh + oy) * win.ow + ox;
                    for (std::int64_t ci = 0; ci < cig; ++ci) {
                        const std::int64_t c = g * cig + ci;
                        for (std::int64_t ky = 0; ky < win.kh; ++ky) {
                            const std::int64_t iy = oy * win.sh - win.top + ky * win.dh;
                            for (std::int64_t kx = 0; iy >= 0 && iy < win.h && kx < win.kw; ++kx) {
                                const std::int64_t ix = ox * win.sw - win.left + kx * win.dw;
                                if (ix >= 0 && ix < win.w) {
                                    f(oi, ((n * win.c + c) * win.h + iy) * win.w + ix,
                                      ((o * cig + ci) * win.kh + ky) * win.kw + kx);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

template <typename T>
void conv2d(const Tensor& x, const Tensor& w, Tensor& out, const Window& win, std::int64_t group) {
    const T* xp = x.data<T>();
    const T* wp = w.data<T>();
    T* op = out.data<T>();
    std::fill(op, op + out.size(), T(0));
    forEachTap(win, w.shape(), group,
               [&](std::int64_t oi, std::int64_t xi, std::int64_t wi) { op[oi] += xp[xi] * wp[wi]; });
}

KernelArg runConv2D(const KernelContext& ctx) {
    const Tensor x0 = ctx.tensor(0);
    const Tensor w0 = ctx.tensor(1);
    checkFloat(ctx.name(), "x", x0.dtype());
    if (x0.dtype() != w0.dtype()) {
        typeError(ctx.name(), "the dtypes of 'x' and 'weight' must be the same.");
    }
    const Window win = windowOf(ctx, x0.shape(), true);
    const std::int64_t group = groupOf(ctx);
    if (w0.rank() != 4 || w0.shape().dims[1] * group != win.c || w0.shape().dims[0] % group != 0) {
        valueError(ctx.name(), "the 'weight' shape " + shapeStr(w0.shape()) +
                                   " does not fit the input channels of 'x' " +
                                   shapeStr(x0.shape()) + ".");
    }
    const DType compute = computeType(x0.dtype());
    const Tensor x = castTo(x0, compute);
    const Tensor w = castTo(w0, compute);
    Tensor out(compute, Shape{win.n, w.shape().dims[0], win.oh, win.ow});
    if (compute == DType::Float64) {
        conv2d<double>(x, w, out, win, group);
    } else {
        conv2d<float>(x, w, out, win, group);
    }
    return KernelArg(castTo(out, x0.dtype()));
}

// ---- Conv2DBackpropInput / Conv2DBackpropFilter: Conv2D's backward --------------------------
// (dout, weight, x's shape) -> dx and (dout, x, weight's shape) -> dweight, with Conv2D's
// attributes: every product conv2d adds into an output element goes back to the two factors.

// The constant shape input `i` (a tuple of ints), or nullopt.
template <typename Ctx>
std::optional<Shape> shapeInput(const Ctx& ctx, std::size_t i);

template <>
std::optional<Shape> shapeInput(const InferContext& ctx, std::size_t i) {
    const ValuePtr v = ctx.arg(i).value;
    const auto dims = v ? intsOf(v) : std::nullopt;
    return dims ? std::optional<Shape>(Shape(*dims)) : std::nullopt;
}

template <>
std::optional<Shape> shapeInput(const KernelContext& ctx, std::size_t i) {
    const KernelArg a = ctx.input(i);
    const auto dims = a.isValue() ? intsOf(a.value()) : std::nullopt;
    return dims ? std::optional<Shape>(Shape(*dims)) : std::nullopt;
}

// The constant shape input `i` of rank `rank`; anything else is a ValueError naming it.
template <typename Ctx>
Shape requiredShape(const Ctx& ctx, std::size_t i, const char* name, std::size_t rank = 4) {
    std::optional<Shape> s = shapeInput(ctx, i);
    if (!s || s->rank() != rank) {
        valueError(ctx.name(), std::string("the '") + name + "' must be a constant " +
                                   std::to_string(rank) + "-D shape.");
    }
    return *s;
}

InferResult inferConvBackprop(const InferContext& ctx) {
    const AbstractPtr d = ctx.abs(0);
    if (!isTensorAbs(d)) {
        typeError(ctx.name(), "the input 'out_backprop' must be a Tensor, but got " + typeStr(d) + ".");
    }
    checkFloat(ctx.name(), "out_backprop", d->dtype);
    const bool input = ctx.name() == "Conv2DBackpropInput";
    return {ir::Abstract::tensor(d->dtype, requiredShape(ctx, 2, input ? "input_size" : "filter_size")),
            nullptr};
}

// dx (toInput) or dw from dout, with `other` the weight (toInput) or x.
template <typename T>
void conv2dBackward(const Tensor& dout, const Tensor& other, Tensor& grad, const Window& win,
                    std::int64_t group, bool toInput) {
    const T* dp = dout.data<T>();
    const T* op = other.data<T>();
    T* gp = grad.data<T>();
    std::fill(gp, gp + grad.size(), T(0));
    forEachTap(win, toInput ? other.shape() : grad.shape(), group,
               [&](std::int64_t oi, std::int64_t xi, std::int64_t wi) {
                   if (toInput) {
                       gp[xi] += dp[oi] * op[wi];
                   } else {
                       gp[wi] += dp[oi] * op[xi];
                   }
               });
}

KernelArg runConvBackprop(const KernelContext& ctx) {
    const bool toInput = ctx.name() == "Conv2DBackpropInput";
    const Tensor d0 = ctx.tensor(0);
    const Tensor other0 = ctx.tensor(1);
    checkFloat(ctx.name(), "out_backprop", d0.dtype());
    const Shape target = requiredShape(ctx, 2, toInput ? "input_size" : "filter_size");
    const Shape& xShape = toInput ? target : other0.shape();
    const Shape& wShape = toInput ? other0.shape() : target;
    const Window win = windowOf(ctx, xShape, true);
    const std::int64_t group = groupOf(ctx);
    if (wShape.rank() != 4 || wShape.dims[1] * group != win.c || wShape.dims[0] % group != 0 ||
        d0.shape() != Shape{win.n, wShape.dims[0], win.oh, win.ow}) {
        valueError(ctx.name(), "the shapes of 'out_backprop' " + shapeStr(d0.shape()) + ", 'x' " +
                                   shapeStr(xShape) + " and 'weight' " + shapeStr(wShape) +
                                   " do not fit the convolution.");
    }
    const DType compute = computeType(d0.dtype());
    const Tensor d = castTo(d0, compute);
    const Tensor other = castTo(other0, compute);
    Tensor grad(compute, target);
    if (compute == DType::Float64) {
        conv2dBackward<double>(d, other, grad, win, group, toInput);
    } else {
        conv2dBackward<float>(d, other, grad, win, group, toInput);
    }
    return KernelArg(castTo(grad, d0.dtype()));
}

// ---- MaxPool / AvgPool and the 3-D pools ---------------------------------------------------

bool isVolumetric(std::string_view op) {
    return op.find("3D") != std::string_view::npos;
}

template <typename Ctx>
Window poolWindowOf(const Ctx& ctx, const Shape& x) {
    return isVolumetric(ctx.name()) ? window3dOf(ctx, x) : windowOf(ctx, x, false);
}

bool isMaxPool(std::string_view op) {
    return op.starts_with("MaxPool");
}

InferResult inferPool(const InferContext& ctx) {
    const AbstractPtr x = ctx.abs(0);
    if (!isTensorAbs(x)) {
        typeError(ctx.name(), "the input 'x' must be a Tensor, but got " + typeStr(x) + ".");
    }
    checkFloat(ctx.name(), "x", x->dtype);
    if (x->shape.dynamicRank || !x->shape.isStatic()) {
        return {ir::Abstract::tensor(x->dtype, unknownShape(isVolumetric(ctx.name()) ? 5 : 4)), nullptr};
    }
    return {ir::Abstract::tensor(x->dtype, poolWindowOf(ctx, x->shape).outShape()), nullptr};
}

// Calls f(outIndex, inputIndices, divisor) for every output element: the input elements its
// window covers (inside the input, in depth, row, column order) and an average's divisor.
template <typename F>
void forEachPoolWindow(const Window& win, F&& f) {
    std::vector<std::int64_t> cells;
    // One dimension: the window's start and end in the padded input, then clipped to it.
    auto span = [](std::int64_t o, std::int64_t s, std::int64_t k, std::int64_t before,
                   std::int64_t in, std::int64_t after) {
        const std::int64_t start = o * s - before;
        const std::int64_t end = std::min(start + k, in + after);
        return std::array<std::int64_t, 3>{std::max<std::int64_t>(start, 0), std::min(end, in), end - start};
    };
    std::int64_t oi = 0;
    for (std::int64_t nc = 0; nc < win.n * win.c; ++nc) {
        for (std::int64_t oz = 0; oz < win.od; ++oz) {
            const auto z = span(oz, win.sd, win.kd, win.front, win.d, win.back);
            for (std::int64_t oy = 0; oy < win.oh; ++oy) {
                const auto y = span(oy, win.sh, win.kh, win.top, win.h, win.bottom);
                for (std::int64_t ox = 0; ox < win.ow; ++ox, ++oi) {
                    const auto x = span(ox, win.sw, win.kw, win.left, win.w, win.right);
                    cells.clear();
                    for (std::int64_t iz = z[0]; iz < z[1]; ++iz) {
                        for (std::int64_t iy = y[0]; iy < y[1]; ++iy) {
                            for (std::int64_t ix = x[0]; ix < x[1]; ++ix) {
                                cells.push_back(((nc * win.d + iz) * win.h + iy) * win.w + ix);
                            }
                        }
                    }
                    const std::int64_t divisor =
                        win.divisorOverride > 0 ? win.divisorOverride
                        : win.countPad          ? z[2] * y[2] * x[2]
                                                : static_cast<std::int64_t>(cells.size());
                    f(oi, cells, divisor);
                }
            }
        }
    }
}

// The element a max pool picks among `cells`: the first maximum, or the first NaN.
template <typename T>
std::int64_t maxCell(const T* xp, const std::vector<std::int64_t>& cells) {
    std::int64_t best = cells[0];
    for (std::int64_t k : cells) {
        if (std::isnan(xp[best])) {
            break;
        }
        if (xp[k] > xp[best] || std::isnan(xp[k])) {
            best = k;
        }
    }
    return best;
}

template <typename T>
void pool(const Tensor& x, Tensor& out, const Window& win, bool max) {
    const T* xp = x.data<T>();
    T* op = out.data<T>();
    forEachPoolWindow(win, [&](std::int64_t oi, const std::vector<std::int64_t>& cells, std::int64_t divisor) {
        if (cells.empty()) {
            op[oi] = max ? -std::numeric_limits<T>::infinity() : T(0);
        } else if (max) {
            op[oi] = xp[maxCell(xp, cells)];
        } else {
            T acc = T(0);
            for (std::int64_t k : cells) {
                acc += xp[k];
            }
            op[oi] = acc / static_cast<T>(divisor);
        }
    });
}

KernelArg runPool(const KernelContext& ctx) {
    const Tensor x0 = ctx.tensor(0);
    checkFloat(ctx.name(), "x", x0.dtype());
    const Window win = poolWindowOf(ctx, x0.shape());
    const DType compute = computeType(x0.dtype());
    const Tensor x = castTo(x0, compute);
    Tensor out(compute, win.outShape());
    const bool max = isMaxPool(ctx.name());
    if (compute == DType::Float64) {
        pool<double>(x, out, win, max);
    } else {
        pool<float>(x, out, win, max);
    }
    return KernelArg(castTo(out, x0.dtype()));
}

// ---- the pools' backward: MaxPoolGrad / AvgPoolGrad (G.*), MaxPool3DGrad, AvgPool3DGrad ------
// MaxPoolGrad and MaxPool3DGrad take x, the pool's output and its gradient, AvgPoolGrad the
// same; AvgPool3DGrad takes x's shape and the gradient, as MindSpore's do. dx has x's shape.
// An average spreads each output's gradient over the input elements its window covered (over
// the forward's divisor); a max gives it to the element the forward picked.

bool takesShape(std::string_view op) {
    return op == "AvgPool3DGrad";
}

InferResult inferPoolGrad(const InferContext& ctx) {
    if (takesShape(ctx.name())) {
        const AbstractPtr g = ctx.abs(1);
        if (!isTensorAbs(g)) {
            typeError(ctx.name(), "the input 'grads' must be a Tensor, but got " + typeStr(g) + ".");
        }
        checkFloat(ctx.name(), "grads", g->dtype);
        return {ir::Abstract::tensor(g->dtype, requiredShape(ctx, 0, "origin_input_shape", 5)),
                nullptr};
    }
    const AbstractPtr x = ctx.abs(0);
    if (!isTensorAbs(x)) {
        typeError(ctx.name(), "the input 'x' must be a Tensor, but got " + typeStr(x) + ".");
    }
    checkFloat(ctx.name(), "x", x->dtype);
    return {ir::Abstract::tensor(x->dtype, x->shape), nullptr};
}

template <typename T>
void poolGrad(const Tensor* x, const Tensor& dy, Tensor& dx, const Window& win, bool max) {
    const T* dp = dy.data<T>();
    T* gp = dx.data<T>();
    std::fill(gp, gp + dx.size(), T(0));
    forEachPoolWindow(win, [&](std::int64_t oi, const std::vector<std::int64_t>& cells, std::int64_t divisor) {
        if (cells.empty()) {
            return;
        }
        if (max) {
            gp[maxCell(x->data<T>(), cells)] += dp[oi];
            return;
        }
        const T share = dp[oi] / static_cast<T>(divisor);
        for (std::int64_t k : cells) {
            gp[k] += share;
        }
    });
}

KernelArg runPoolGrad(const KernelContext& ctx) {
    const std::string_view op = ctx.name();
    const bool shapeOnly = takesShape(op);
    const std::size_t gradAt = shapeOnly ? 1 : 2;
    if (!shapeOnly) {
        checkFloat(op, "x", ctx.tensor(0).dtype());
    }
    const Shape xShape =
        shapeOnly ? requiredShape(ctx, 0, "origin_input_shape", 5) : ctx.tensor(0).shape();
    const Window win = poolWindowOf(ctx, xShape);
    const Tensor dy0 = ctx.tensor(gradAt);
    if (dy0.shape() != win.outShape()) {
        valueError(op, "the shape of 'dout' must be the pool's output shape " + shapeStr(win.outShape()) +
                           ", but got " + shapeStr(dy0.shape()) + ".");
    }
    const DType out = shapeOnly ? dy0.dtype() : ctx.tensor(0).dtype();
    const DType compute = computeType(out);
    const std::optional<Tensor> x = shapeOnly ? std::nullopt : std::optional<Tensor>(castTo(ctx.tensor(0), compute));
    const Tensor dy = castTo(dy0, compute);
    Tensor dx(compute, xShape);
    const bool max = isMaxPool(op);
    const Tensor* xp = x ? &*x : nullptr;
    if (compute == DType::Float64) {
        poolGrad<double>(xp, dy, dx, win, max);
    } else {
        poolGrad<float>(xp, dy, dx, win, max);
    }
    return KernelArg(castTo(dx, out));
}

// ---- Flatten ------------------------------------------------------------------------------

Shape flatShape(std::string_view op, const Shape& s) {
    if (s.dynamicRank) {
        return unknownShape(2);
    }
    if (s.rank() == 0) {
        valueError(op, "the input 'x' must have at least 1 dimension, but got shape [].");
    }
    std::int64_t rest = 1;
    for (std::size_t i = 1; i < s.rank(); ++i) {
        if (s.dims[i] < 0) {
            return Shape{s.dims[0], -1};
        }
        rest *= s.dims[i];
    }
    return Shape{s.dims[0], rest};
}

}  // namespace

void registerConvOps(OpRegistry& reg) {
    {
        OpDef d{.name = "Conv2D", .family = "nn", .summary = "2-D convolution (NCHW)"};
        d.attrs = {argDefault("out_channel", ArgKind::Int, vInt(1)),
                   argDefault("kernel_size", ArgKind::IntOrTuple, vInt(1)),
                   argDefault("mode", ArgKind::Int, vInt(1)),
                   argDefault("pad_mode", ArgKind::String, ir::Value::string("valid")),
                   argDefault("pad", ArgKind::IntOrTuple, vInt(0)),
                   argDefault("stride", ArgKind::IntOrTuple, vInt(1)),
                   argDefault("dilation", ArgKind::IntOrTuple, vInt(1)),
                   argDefault("group", ArgKind::Int, vInt(1)),
                   argDefault("data_format", ArgKind::String, ir::Value::string("NCHW"))};
        d.inputs = {argIn("x"), argIn("weight")};
        d.infer = inferConv2D;
        d.cpuKernel = runConv2D;
        addClassSpellings(d);
        reg.add(std::move(d));
    }
    for (const char* name : {"Conv2DBackpropInput", "Conv2DBackpropFilter"}) {
        const bool input = std::string_view(name) == "Conv2DBackpropInput";
        OpDef d{.name = name,
                .family = "grad",
                .summary = input ? "Conv2D's gradient for its input" : "Conv2D's gradient for its weight"};
        d.attrs = reg.find("Conv2D")->attrs;
        d.inputs = {argIn("out_backprop"), argIn(input ? "filter" : "input"),
                    argIn(input ? "input_size" : "filter_size")};
        d.infer = inferConvBackprop;
        d.cpuKernel = runConvBackprop;
        if (input) {
            addClassSpellings(d);  // P.Conv2DBackpropInput, as MindSpore exports it
        } else {
            d.spellings.push_back(Spelling{.kind = SpellingKind::Class, .text = "G.Conv2DBackpropFilter"});
        }
        reg.add(std::move(d));
    }
    for (const char* name : {"MaxPool", "AvgPool"}) {
        OpDef d{.name = name,
                .family = "nn",
                .summary = std::string(name) == "MaxPool" ? "2-D max pooling (NCHW)"
                                                          : "2-D average pooling (NCHW)"};
        d.attrs = {argDefault("kernel_size", ArgKind::IntOrTuple, vInt(1)),
                   argDefault("strides", ArgKind::IntOrTuple, vInt(1)),
                   argDefault("pad_mode", ArgKind::String, ir::Value::string("VALID")),
                   argDefault("data_format", ArgKind::String, ir::Value::string("NCHW"))};
        d.inputs = {argIn("x")};
        d.infer = inferPool;
        d.cpuKernel = runPool;
        addClassSpellings(d);
        reg.add(std::move(d));
    }
    for (const char* name : {"MaxPool3D", "AvgPool3D"}) {
        const bool max = std::string_view(name) == "MaxPool3D";
        OpDef d{.name = name,
                .family = "nn",
                .summary = max ? "3-D max pooling (NCDHW)" : "3-D average pooling (NCDHW)"};
        d.attrs = {argDefault("kernel_size", ArgKind::IntOrTuple, vInt(1)),
                   argDefault("strides", ArgKind::IntOrTuple, vInt(1)),
                   argDefault("pad_mode", ArgKind::String, ir::Value::string(max ? "VALID" : "valid")),
                   argDefault(max ? "pad_list" : "pad", ArgKind::IntOrTuple, vInt(0)),
                   argDefault("ceil_mode", ArgKind::Any, max ? ir::Value::none() : ir::Value::boolean(false))};
        if (!max) {
            d.attrs.push_back(argDefault("count_include_pad", ArgKind::Bool, ir::Value::boolean(true)));
            d.attrs.push_back(argDefault("divisor_override", ArgKind::Int, vInt(0)));
        }
        d.attrs.push_back(argDefault("data_format", ArgKind::String, ir::Value::string("NCDHW")));
        d.inputs = {argIn("x")};
        d.infer = inferPool;
        d.cpuKernel = runPool;
        addClassSpellings(d);
        reg.add(std::move(d));
    }
    for (const char* name : {"MaxPool3DGrad", "AvgPool3DGrad"}) {
        const bool max = std::string_view(name) == "MaxPool3DGrad";
        OpDef d{.name = name,
                .family = "grad",
                .summary = max ? "MaxPool3D's backward: dout to the element each window picked"
                               : "AvgPool3D's backward: dout spread over each window"};
        d.attrs = reg.find(max ? "MaxPool3D" : "AvgPool3D")->attrs;
        d.inputs = max ? std::vector<ArgSpec>{argIn("x_origin"), argIn("out_origin"), argIn("grads")}
                       : std::vector<ArgSpec>{argIn("origin_input_shape"), argIn("grads")};
        d.infer = inferPoolGrad;
        d.cpuKernel = runPoolGrad;
        d.spellings.push_back(Spelling{.kind = SpellingKind::Class, .text = std::string("G.") + name});
        reg.add(std::move(d));
    }
    for (const char* name : {"MaxPoolGrad", "AvgPoolGrad"}) {
        const bool max = std::string_view(name) == "MaxPoolGrad";
        OpDef d{.name = name,
                .family = "grad",
                .summary = max ? "MaxPool's backward: dout to the element each window picked"
                               : "AvgPool's backward: dout spread evenly over each window"};
        d.attrs = reg.find(max ? "MaxPool" : "AvgPool")->attrs;
        d.inputs = {argIn("x_origin"), argIn("out_origin"), argIn("grad")};
        d.infer = inferPoolGrad;
        d.cpuKernel = runPoolGrad;
        d.spellings.push_back(Spelling{.kind = SpellingKind::Class, .text = std::string("G.") + name});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "Flatten", .family = "array", .summary = "(N, ...) -> (N, rest)"};
        d.inputs = {argIn("input_x")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = c.abs(0);
            if (!isTensorAbs(x)) {
                typeError(c.name(),
                          "the input 'input_x' must be a Tensor, but got " + typeStr(x) + ".");
            }
            return InferResult{ir::Abstract::tensor(x->dtype, flatShape(c.name(), x->shape)),
                               nullptr};
        };
        d.cpuKernel = [](const KernelContext& c) {
            const Tensor x = c.tensor(0);
            return KernelArg(x.reshaped(flatShape(c.name(), x.shape())));
        };
        addClassSpellings(d);
        reg.add(std::move(d));
    }
}

}  // namespace irscope::ops
