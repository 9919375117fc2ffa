// Convolution and pooling: Conv2D, MaxPool, AvgPool (NCHW, MindSpore's attributes and
// pad_mode rules) and Flatten, the ops of MindSpore's LeNet/MNIST networks. Direct loops,
// summing over input channel, kernel row, kernel column in that order (the OpenCL plugin sums
// in the same order, so both devices give the same bits).
#include <algorithm>
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

struct Window {
    std::int64_t n = 0, c = 0, h = 0, w = 0;  // input
    std::int64_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1;
    std::int64_t top = 0, left = 0;  // padding before
    std::int64_t oh = 0, ow = 0;     // output
};

// Output size and leading padding of one spatial dimension.
void spatial(PadMode mode, std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t d,
             std::int64_t padBefore, std::int64_t padAfter, std::int64_t& out,
             std::int64_t& before) {
    const std::int64_t span = d * (k - 1) + 1;
    switch (mode) {
        case PadMode::Valid:
            out = in >= span ? (in - span) / s + 1 : 0;
            before = 0;
            break;
        case PadMode::Same: {
            out = (in + s - 1) / s;
            const std::int64_t total = std::max<std::int64_t>((out - 1) * s + span - in, 0);
            before = total / 2;
            break;
        }
        case PadMode::Pad:
            out =
                in + padBefore + padAfter >= span ? (in + padBefore + padAfter - span) / s + 1 : 0;
            before = padBefore;
            break;
    }
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

template <typename Ctx>
Shape requiredShape(const Ctx& ctx, std::size_t i, const char* name) {
    std::optional<Shape> s = shapeInput(ctx, i);
    if (!s || s->rank() != 4) {
        valueError(ctx.name(), std::string("the '") + name + "' must be a constant 4-D shape.");
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

// ---- MaxPool / AvgPool --------------------------------------------------------------------

InferResult inferPool(const InferContext& ctx) {
    const AbstractPtr x = ctx.abs(0);
    if (!isTensorAbs(x)) {
        typeError(ctx.name(), "the input 'x' must be a Tensor, but got " + typeStr(x) + ".");
    }
    checkFloat(ctx.name(), "x", x->dtype);
    if (x->shape.dynamicRank || !x->shape.isStatic()) {
        return {ir::Abstract::tensor(x->dtype, unknownShape(4)), nullptr};
    }
    const Window win = windowOf(ctx, x->shape, false);
    return {ir::Abstract::tensor(x->dtype, Shape{win.n, win.c, win.oh, win.ow}), nullptr};
}

template <typename T>
void pool(const Tensor& x, Tensor& out, const Window& win, bool max) {
    const T* xp = x.data<T>();
    T* op = out.data<T>();
    for (std::int64_t nc = 0; nc < win.n * win.c; ++nc) {
        for (std::int64_t oy = 0; oy < win.oh; ++oy) {
            for (std::int64_t ox = 0; ox < win.ow; ++ox) {
                T acc = max ? -std::numeric_limits<T>::infinity() : T(0);
                std::int64_t count = 0;
                for (std::int64_t ky = 0; ky < win.kh; ++ky) {
                    const std::int64_t iy = oy * win.sh - win.top + ky;
                    if (iy < 0 || iy >= win.h) {
                        continue;
                    }
                    for (std::int64_t kx = 0; kx < win.kw; ++kx) {
                        const std::int64_t ix = ox * win.sw - win.left + kx;
                        if (ix < 0 || ix >= win.w) {
                            continue;
                        }
                        const T v = xp[(nc * win.h + iy) * win.w + ix];
                        acc = max ? (v > acc || std::isnan(v) ? v : acc) : acc + v;
                        ++count;
                    }
                }
                op[(nc * win.oh + oy) * win.ow + ox] =
                    max ? acc : (count > 0 ? acc / static_cast<T>(count) : T(0));
            }
        }
    }
}

KernelArg runPool(const KernelContext& ctx) {
    const Tensor x0 = ctx.tensor(0);
    checkFloat(ctx.name(), "x", x0.dtype());
    const Window win = windowOf(ctx, x0.shape(), false);
    const DType compute = computeType(x0.dtype());
    const Tensor x = castTo(x0, compute);
    Tensor out(compute, Shape{win.n, win.c, win.oh, win.ow});
    const bool max = ctx.name() == "MaxPool";
    if (compute == DType::Float64) {
        pool<double>(x, out, win, max);
    } else {
        pool<float>(x, out, win, max);
    }
    return KernelArg(castTo(out, x0.dtype()));
}

// ---- MaxPoolGrad / AvgPoolGrad (G.*): the pools' backward ------------------------------------
// Inputs x, the pool's output and its gradient; dx has x's shape. AvgPool spreads each output's
// gradient evenly over the input elements its window covered (the forward's divisor: the
// elements inside the input); MaxPool gives it to the element the forward picked (the first
// maximum of the window, or its first NaN).

InferResult inferPoolGrad(const InferContext& ctx) {
    const AbstractPtr x = ctx.abs(0);
    if (!isTensorAbs(x)) {
        typeError(ctx.name(), "the input 'x' must be a Tensor, but got " + typeStr(x) + ".");
    }
    checkFloat(ctx.name(), "x", x->dtype);
    return {ir::Abstract::tensor(x->dtype, x->shape), nullptr};
}

template <typename T>
void poolGrad(const Tensor& x, const Tensor& dy, Tensor& dx, const Window& win, bool max) {
    const T* xp = x.data<T>();
    const T* dp = dy.data<T>();
    T* gp = dx.data<T>();
    std::fill(gp, gp + dx.size(), T(0));
    for (std::int64_t nc = 0; nc < win.n * win.c; ++nc) {
        for (std::int64_t oy = 0; oy < win.oh; ++oy) {
            for (std::int64_t ox = 0; ox < win.ow; ++ox) {
                const T d = dp[(nc * win.oh + oy) * win.ow + ox];
                std::vector<std::int64_t> cells;  // the window's elements inside the input
                for (std::int64_t ky = 0; ky < win.kh; ++ky) {
                    const std::int64_t iy = oy * win.sh - win.top + ky;
                    for (std::int64_t kx = 0; iy >= 0 && iy < win.h && kx < win.kw; ++kx) {
                        const std::int64_t ix = ox * win.sw - win.left + kx;
                        if (ix >= 0 && ix < win.w) {
                            cells.push_back((nc * win.h + iy) * win.w + ix);
                        }
                    }
                }
                if (cells.empty()) {
                    continue;
                }
                if (max) {
                    std::int64_t best = cells[0];
                    for (std::int64_t k : cells) {
                        if (std::isnan(xp[best])) {
                            break;
                        }
                        if (xp[k] > xp[best] || std::isnan(xp[k])) {
                            best = k;
                        }
                    }
                    gp[best] += d;
                } else {
                    const T share = d / static_cast<T>(cells.size());
                    for (std::int64_t k : cells) {
                        gp[k] += share;
                    }
                }
            }
        }
    }
}

KernelArg runPoolGrad(const KernelContext& ctx) {
    const Tensor x0 = ctx.tensor(0);
    checkFloat(ctx.name(), "x", x0.dtype());
    const Window win = windowOf(ctx, x0.shape(), false);
    const Tensor dy0 = ctx.tensor(2);
    if (dy0.shape() != Shape{win.n, win.c, win.oh, win.ow}) {
        valueError(ctx.name(), "the shape of 'dout' must be the pool's output shape " +
                                   shapeStr(Shape{win.n, win.c, win.oh, win.ow}) + ", but got " +
                                   shapeStr(dy0.shape()) + ".");
    }
    const DType compute = computeType(x0.dtype());
    const Tensor x = castTo(x0, compute);
    const Tensor dy = castTo(dy0, compute);
    Tensor dx(compute, x.shape());
    const bool max = ctx.name() == "MaxPoolGrad";
    if (compute == DType::Float64) {
        poolGrad<double>(x, dy, dx, win, max);
    } else {
        poolGrad<float>(x, dy, dx, win, max);
    }
    return KernelArg(castTo(dx, x0.dtype()));
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
    for (const char* name : {"MaxPoolGrad", "AvgPoolGrad"}) {
        OpDef d{.name = name,
                .family = "grad",
                .summary = std::string(name) == "MaxPoolGrad"
                               ? "MaxPool's backward: dout to the element each window picked"
                               : "AvgPool's backward: dout spread evenly over each window"};
        d.attrs = {argDefault("kernel_size", ArgKind::IntOrTuple, vInt(1)),
                   argDefault("strides", ArgKind::IntOrTuple, vInt(1)),
                   argDefault("pad_mode", ArgKind::String, ir::Value::string("VALID")),
                   argDefault("data_format", ArgKind::String, ir::Value::string("NCHW"))};
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
