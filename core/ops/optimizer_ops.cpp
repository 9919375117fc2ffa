// Optimizer update primitives: Adam, ApplyMomentum, ApplyAdagrad, ApplyFtrl, ApplyRMSProp, SGD,
// the SparseApply* and FusedSparse* row-wise forms, ... Each writes its state tensors (var,
// accum, m, v, linear, ...) in place, as MindSpore's RW-signature inputs: they stay Parameter
// references (no Load) and the op is ordered on the U monad like Assign (OpDef::writes).
//
// Every op is one element-wise update rule (Step) over its inputs; a scalar input (lr, beta1,
// ...) applies to every element. The sparse forms apply the same kind of rule to the rows of
// var named by `indices`, with the gradient rows of a repeated index summed first.
#include <cmath>
#include <limits>
#include <map>

#include "ops/infer_util.h"
#include "ops/kernel_util.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

// What the op returns: var alone, all its states as a tuple, or (FusedSparse*) one
// placeholder Tensor of shape [1] per state, the states being the result.
enum class Out : std::uint8_t { Var, States, Placeholders };
// How a sparse op applies: not sparse; to the indexed rows only; or to every row with the
// gradient rows scattered into a zero gradient (FusedSparseAdam updates every m and v).
enum class Rows : std::uint8_t { None, Indexed, Scattered };

// x: the op's inputs at one element, in call order (indices excluded), states updated in
// place. a: the numeric attributes in declared order (bools as 0/1).
using Step = void (*)(double* x, const double* a);

struct AttrSpec {
    const char* name;
    ArgKind kind;
    double defaultValue;  // NaN: required
};

struct Spec {
    const char* name;
    const char* summary;
    std::vector<const char*> inputs;  // call inputs ("indices" last for sparse ops)
    std::vector<std::size_t> states;  // the inputs written in place (states[0] is var)
    std::vector<AttrSpec> attrs;
    Out out;
    Rows rows;
    Step step;
};

constexpr double kRequired = std::numeric_limits<double>::quiet_NaN();

double sign(double v) {
    return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0);
}

// The proximal step shared by the ProximalAdagrad and ProximalGradientDescent rules.
double proximal(double prox, double lr, double l1, double l2) {
    return sign(prox) / (1.0 + lr * l2) * std::max(std::abs(prox) - lr * l1, 0.0);
}

// FTRL-proximal: var, accum, linear updated from grad (shrinkage: the V2 form's l2 term).
void ftrl(double& var, double& accum, double& linear, double g, double lr, double l1, double l2,
          double lrPower, double shrinkage) {
    const double accumNew = accum + g * g;
    const double gs = g + 2.0 * shrinkage * var;
    linear += gs - (std::pow(accumNew, -lrPower) - std::pow(accum, -lrPower)) / lr * var;
    const double quadratic = std::pow(accumNew, -lrPower) / lr + 2.0 * l2;
    var = std::abs(linear) > l1 ? (sign(linear) * l1 - linear) / quadratic : 0.0;
    accum = accumNew;
}

// Adam on (var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad);
// attrs (use_locking, use_nesterov).
void adam(double* x, const double* a) {
    double& var = x[0];
    double& m = x[1];
    double& v = x[2];
    const double b1p = x[3], b2p = x[4], lr = x[5], b1 = x[6], b2 = x[7], eps = x[8], g = x[9];
    m += (g - m) * (1.0 - b1);
    v += (g * g - v) * (1.0 - b2);
    const double lrT = lr * std::sqrt(1.0 - b2p) / (1.0 - b1p);
    const double num = a[1] != 0 ? m * b1 + (1.0 - b1) * g : m;
    var -= lrT * num / (std::sqrt(v) + eps);
}

// Proximal Adagrad on (var, accum, lr, l1, l2, grad): the dense and both sparse forms.
void proximalAdagrad(double* x, const double*) {
    const double lr = x[2], l1 = x[3], l2 = x[4], g = x[5];
    x[1] += g * g;
    x[0] = proximal(x[0] - lr * g / std::sqrt(x[1]), lr, l1, l2);
}

// FTRL on (var, accum, linear, grad) with attrs (lr, l1, l2, lr_power): the sparse forms.
void sparseFtrl(double* x, const double* a) {
    ftrl(x[0], x[1], x[2], x[3], a[0], a[1], a[2], a[3], 0.0);
}

const std::vector<Spec>& specs() {
    static const AttrSpec locking{"use_locking", ArgKind::Bool, 0};
    static const std::vector<AttrSpec> ftrlAttrs = {{"lr", ArgKind::Float, kRequired},
                                                    {"l1", ArgKind::Float, kRequired},
                                                    {"l2", ArgKind::Float, kRequired},
                                                    {"lr_power", ArgKind::Float, kRequired},
                                                    locking};
    static const std::vector<const char*> adamInputs = {
        "var",   "m",     "v",       "beta1_power", "beta2_power", "lr",
        "beta1", "beta2", "epsilon", "grad",        "indices"};
    static const std::vector<const char*> rowFtrlInputs = {"var", "accum", "linear", "grad",
                                                           "indices"};
    static const std::vector<const char*> rowProximalInputs = {"var", "accum", "lr",     "l1",
                                                               "l2",  "grad",  "indices"};
    static const std::vector<Spec> all = {
        {"Adam",
         "Adam: m, v moving averages; var -= lr_t * m / (sqrt(v) + eps)",
         {"var", "m", "v", "beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon",
          "gradient"},
         {0, 1, 2},
         {locking, {"use_nesterov", ArgKind::Bool, 0}},
         Out::States,
         Rows::None,
         adam},
        {"ApplyAdaMax",
         "AdaMax: v = max(beta2 * v, |g|); var -= lr / (1 - beta1_power) * m / (v + eps)",
         {"var", "m", "v", "beta1_power", "lr", "beta1", "beta2", "epsilon", "grad"},
         {0, 1, 2},
         {},
         Out::States,
         Rows::None,
         [](double* x, const double*) {
             const double b1p = x[3], lr = x[4], b1 = x[5], b2 = x[6], eps = x[7], g = x[8];
             x[1] = b1 * x[1] + (1.0 - b1) * g;
             x[2] = std::max(b2 * x[2], std::abs(g));
             x[0] -= lr / (1.0 - b1p) * (x[1] / (x[2] + eps));
         }},
        {"ApplyAdadelta",
         "Adadelta: var -= lr * sqrt(accum_update + eps) / sqrt(accum + eps) * g",
         {"var", "accum", "accum_update", "lr", "rho", "epsilon", "grad"},
         {0, 1, 2},
         {locking},
         Out::States,
         Rows::None,
         [](double* x, const double*) {
             const double lr = x[3], rho = x[4], eps = x[5], g = x[6];
             x[1] = rho * x[1] + (1.0 - rho) * g * g;
             const double update = std::sqrt(x[2] + eps) / std::sqrt(x[1] + eps) * g;
             x[2] = rho * x[2] + (1.0 - rho) * update * update;
             x[0] -= lr * update;
         }},
        {"ApplyAdagrad",
         "Adagrad: accum += g^2; var -= lr * g / sqrt(accum)",
         {"var", "accum", "lr", "grad"},
         {0, 1},
         {{"update_slots", ArgKind::Bool, 1}},
         Out::States,
         Rows::None,
         [](double* x, const double* a) {
             if (a[0] != 0) {
                 x[1] += x[3] * x[3];
             }
             x[0] -= x[2] * x[3] / std::sqrt(x[1]);
         }},
        {"ApplyAdagradV2",
         "Adagrad: accum += g^2; var -= lr * g / (sqrt(accum) + epsilon)",
         {"var", "accum", "lr", "grad"},
         {0, 1},
         {{"epsilon", ArgKind::Float, kRequired}, {"update_slots", ArgKind::Bool, 1}},
         Out::States,
         Rows::None,
         [](double* x, const double* a) {
             if (a[1] != 0) {
                 x[1] += x[3] * x[3];
             }
             x[0] -= x[2] * x[3] / (std::sqrt(x[1]) + a[0]);
         }},
        {"ApplyAddSign",
         "AddSign: var -= lr * (alpha + sign_decay * sign(g) * sign(m)) * g",
         {"var", "m", "lr", "alpha", "sign_decay", "beta", "grad"},
         {0, 1},
         {},
         Out::States,
         Rows::None,
         [](double* x, const double*) {
             const double lr = x[2], alpha = x[3], decay = x[4], beta = x[5], g = x[6];
             x[1] = beta * x[1] + (1.0 - beta) * g;
             x[0] -= lr * (alpha + decay * sign(g) * sign(x[1])) * g;
         }},
        {"ApplyPowerSign",
         "PowerSign: var -= lr * exp(logbase * sign_decay * sign(g) * sign(m)) * g",
         {"var", "m", "lr", "logbase", "sign_decay", "beta", "grad"},
         {0, 1},
         {},
         Out::States,
         Rows::None,
         [](double* x, const double*) {
             const double lr = x[2], logbase = x[3], decay = x[4], beta = x[5], g = x[6];
             x[1] = beta * x[1] + (1.0 - beta) * g;
             x[0] -= lr * std::exp(logbase * decay * sign(g) * sign(x[1])) * g;
         }},
        {"ApplyCenteredRMSProp",
         "centered RMSProp: moment = momentum * moment + lr * g / sqrt(ms - mg^2 + eps); var -= "
         "moment",
         {"var", "mean_gradient", "mean_square", "moment", "grad", "learning_rate", "decay",
          "momentum", "epsilon"},
         {0, 1, 2, 3},
         {locking},
         Out::Var,
         Rows::None,
         [](double* x, const double*) {
             const double g = x[4], lr = x[5], decay = x[6], momentum = x[7], eps = x[8];
             x[1] = decay * x[1] + (1.0 - decay) * g;
             x[2] = decay * x[2] + (1.0 - decay) * g * g;
             x[3] = momentum * x[3] + lr * g / std::sqrt(x[2] - x[1] * x[1] + eps);
             x[0] -= x[3];
         }},
        {"ApplyRMSProp",
         "RMSProp: moment = momentum * moment + lr * g / sqrt(ms + eps); var -= moment",
         {"var", "mean_square", "moment", "learning_rate", "grad", "decay", "momentum", "epsilon"},
         {0, 1, 2},
         {locking},
         Out::Var,
         Rows::None,
         [](double* x, const double*) {
             const double lr = x[3], g = x[4], decay = x[5], momentum = x[6], eps = x[7];
             x[1] = decay * x[1] + (1.0 - decay) * g * g;
             x[2] = momentum * x[2] + lr * g / std::sqrt(x[1] + eps);
             x[0] -= x[2];
         }},
        {"ApplyFtrl",
         "FTRL-proximal update of var, accum and linear",
         {"var", "accum", "linear", "grad", "lr", "l1", "l2", "lr_power"},
         {0, 1, 2},
         {locking},
         Out::Var,
         Rows::None,
         [](double* x, const double*) {
             ftrl(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], 0.0);
         }},
        {"ApplyGradientDescent",
         "var -= alpha * delta",
         {"var", "alpha", "delta"},
         {0},
         {},
         Out::Var,
         Rows::None,
         [](double* x, const double*) { x[0] -= x[1] * x[2]; }},
        {"ApplyMomentum",
         "momentum: accum = accum * momentum + grad; var -= lr * accum",
         {"variable", "accumulation", "learning_rate", "gradient", "momentum"},
         {0, 1},
         {locking, {"use_nesterov", ArgKind::Bool, 0}, {"gradient_scale", ArgKind::Float, 1.0}},
         Out::Var,
         Rows::None,
         [](double* x, const double* a) {
             const double lr = x[2], g = x[3], momentum = x[4];
             x[1] = x[1] * momentum + g;
             x[0] -= a[1] != 0 ? g * lr + x[1] * momentum * lr : lr * x[1];
         }},
        {"ApplyProximalAdagrad",
         "proximal Adagrad: accum += g^2; var = prox(var - lr * g / sqrt(accum))",
         {"var", "accum", "lr", "l1", "l2", "grad"},
         {0, 1},
         {locking},
         Out::States,
         Rows::None,
         proximalAdagrad},
        {"ApplyProximalGradientDescent",
         "var = prox(var - alpha * delta)",
         {"var", "alpha", "l1", "l2", "delta"},
         {0},
         {},
         Out::Var,
         Rows::None,
         [](double* x, const double*) { x[0] = proximal(x[0] - x[1] * x[4], x[1], x[2], x[3]); }},
        {"SGD",
         "SGD with momentum, dampening, weight decay and Nesterov",
         {"parameters", "gradient", "learning_rate", "accum", "momentum", "stat"},
         {0, 3, 5},
         {{"dampening", ArgKind::Float, 0.0},
          {"weight_decay", ArgKind::Float, 0.0},
          {"nesterov", ArgKind::Bool, 0}},
         Out::Var,
         Rows::None,
         [](double* x, const double* a) {
             const double lr = x[2], momentum = x[4];
             double g = x[1] + (a[1] > 0 ? x[0] * a[1] : 0.0);
             if (momentum > 0) {
                 if (x[5] > 0) {
                     x[3] = g;
                     x[5] = 0;
                 } else {
                     x[3] = x[3] * momentum + (1.0 - a[0]) * g;
                 }
                 g = a[2] != 0 ? g + x[3] * momentum : x[3];
             }
             x[0] -= lr * g;
         }},
        {"SparseApplyAdagrad",
         "Adagrad on the rows of var named by indices",
         {"var", "accum", "grad", "indices"},
         {0, 1},
         {{"lr", ArgKind::Float, kRequired}, {"update_slots", ArgKind::Bool, 1}, locking},
         Out::States,
         Rows::Indexed,
         [](double* x, const double* a) {
             if (a[1] != 0) {
                 x[1] += x[2] * x[2];
             }
             x[0] -= a[0] * x[2] / std::sqrt(x[1]);
         }},
        {"SparseApplyAdagradV2",
         "Adagrad (with epsilon) on the rows of var named by indices",
         {"var", "accum", "grad", "indices"},
         {0, 1},
         {{"lr", ArgKind::Float, kRequired},
          {"epsilon", ArgKind::Float, kRequired},
          locking,
          {"update_slots", ArgKind::Bool, 1}},
         Out::States,
         Rows::Indexed,
         [](double* x, const double* a) {
             if (a[3] != 0) {
                 x[1] += x[2] * x[2];
             }
             x[0] -= a[0] * x[2] / (std::sqrt(x[1]) + a[1]);
         }},
        {"SparseApplyFtrl",
         "FTRL-proximal on the rows of var named by indices",
         rowFtrlInputs,
         {0, 1, 2},
         ftrlAttrs,
         Out::States,
         Rows::Indexed,
         sparseFtrl},
        {"SparseApplyFtrlV2",
         "FTRL-proximal with l2 shrinkage on the rows named by indices",
         {"var", "accum", "linear", "grad", "indices"},
         {0, 1, 2},
         {{"lr", ArgKind::Float, kRequired},
          {"l1", ArgKind::Float, kRequired},
          {"l2", ArgKind::Float, kRequired},
          {"l2_shrinkage", ArgKind::Float, kRequired},
          {"lr_power", ArgKind::Float, kRequired},
          locking},
         Out::States,
         Rows::Indexed,
         [](double* x, const double* a) {
             ftrl(x[0], x[1], x[2], x[3], a[0], a[1], a[2], a[4], a[3]);
         }},
        {"SparseApplyProximalAdagrad",
         "proximal Adagrad on the rows of var named by indices",
         rowProximalInputs,
         {0, 1},
         {locking},
         Out::States,
         Rows::Indexed,
         proximalAdagrad},
        {"FusedSparseAdam",
         "Adam with a sparse gradient (every row's m and v decay)",
         adamInputs,
         {0, 1, 2},
         {locking, {"use_nesterov", ArgKind::Bool, 0}},
         Out::Placeholders,
         Rows::Scattered,
         adam},
        {"FusedSparseLazyAdam",
         "Adam on the rows of var named by indices only",
         adamInputs,
         {0, 1, 2},
         {locking, {"use_nesterov", ArgKind::Bool, 0}},
         Out::Placeholders,
         Rows::Indexed,
         adam},
        {"FusedSparseFtrl",
         "FTRL-proximal on the rows of var named by indices",
         rowFtrlInputs,
         {0, 1, 2},
         ftrlAttrs,
         Out::Placeholders,
         Rows::Indexed,
         sparseFtrl},
        {"FusedSparseProximalAdagrad",
         "proximal Adagrad on the rows of var named by indices",
         rowProximalInputs,
         {0, 1},
         {locking},
         Out::Placeholders,
         Rows::Indexed,
         proximalAdagrad},
    };
    return all;
}

bool isState(const Spec& s, std::size_t i) {
    return std::find(s.states.begin(), s.states.end(), i) != s.states.end();
}

// The inputs a sparse op reads by row: its states and the gradient before `indices`.
bool isRowInput(const Spec& s, std::size_t i) {
    return isState(s, i) || (s.rows != Rows::None && i + 2 == s.inputs.size());
}

std::size_t valueInputs(const Spec& s) {
    return s.rows == Rows::None ? s.inputs.size() : s.inputs.size() - 1;
}

// ---- infer ------------------------------------------------------------------------------

// A state (or a dense gradient) has var's shape.
void checkSameShape(const Spec& s, std::size_t i, const Shape& var, const Shape& shape) {
    if (shape.dims != var.dims) {
        valueError(s.name, "the shape of '" + std::string(s.inputs[i]) +
                               "' must be the same as the shape of '" + std::string(s.inputs[0]) +
                               "' " + shapeStr(var) + ", but got " + shapeStr(shape) + ".");
    }
}

InferResult inferOptimizer(const Spec& s, const InferContext& ctx) {
    const std::string op = s.name;
    const AbstractPtr var = ctx.abs(0);
    if (!isTensorAbs(var) || !ir::isFloat(var->dtype)) {
        typeError(op, "the '" + std::string(s.inputs[0]) +
                          "' must be a Parameter of a float type, but got " + typeStr(var) + ".");
    }
    const bool staticVar = !var->shape.dynamicRank && var->shape.isStatic();
    for (std::size_t i = 1; i < valueInputs(s); ++i) {
        const AbstractPtr a = ctx.abs(i);
        const std::string name = s.inputs[i];
        if (isState(s, i) || isRowInput(s, i)) {
            if (!isTensorAbs(a)) {
                typeError(op, "the '" + name + "' must be a Tensor, but got " + typeStr(a) + ".");
            }
            if (a->dtype != var->dtype) {
                typeError(op, "the dtype of '" + name + "' must be the same as '" +
                                  std::string(s.inputs[0]) + "' (" + typeStr(var->dtype) +
                                  "), but got " + typeStr(a->dtype) + ".");
            }
            const bool sparseGrad = !isState(s, i);
            if (staticVar && a->shape.isStatic() && !sparseGrad) {
                checkSameShape(s, i, var->shape, a->shape);
            }
            continue;
        }
        if (isTensorAbs(a)) {
            const std::int64_t n = a->shape.isStatic() ? a->shape.elementCount() : -1;
            if (staticVar && n != -1 && n != 1 && a->shape.dims != var->shape.dims) {
                valueError(op, "the '" + name + "' must be a scalar or have the shape of '" +
                                   std::string(s.inputs[0]) + "' " + shapeStr(var->shape) +
                                   ", but got " + shapeStr(a->shape) + ".");
            }
        } else if (!isScalarAbs(a)) {
            typeError(
                op, "the '" + name + "' must be a Tensor or a number, but got " + typeStr(a) + ".");
        }
    }
    if (s.rows != Rows::None) {
        const AbstractPtr idx = ctx.abs(s.inputs.size() - 1);
        if (!isTensorAbs(idx) || !ir::isInteger(idx->dtype) || idx->shape.rank() != 1) {
            typeError(op, "the 'indices' must be a 1-D Tensor of int32 or int64, but got " +
                              typeStr(idx) + ".");
        }
    }
    auto stateAbs = [&](std::size_t i) {
        const AbstractPtr a = ctx.abs(i);
        return ir::Abstract::tensor(a->dtype, a->shape);
    };
    switch (s.out) {
        case Out::Var:
            return {stateAbs(0), nullptr};
        case Out::States: {
            std::vector<AbstractPtr> elems;
            for (std::size_t i : s.states) {
                elems.push_back(stateAbs(i));
            }
            return {ir::Abstract::tuple(std::move(elems)), nullptr};
        }
        case Out::Placeholders: {
            std::vector<AbstractPtr> elems(s.states.size(),
                                           ir::Abstract::tensor(var->dtype, Shape{1}));
            return {ir::Abstract::tuple(std::move(elems)), nullptr};
        }
    }
    return {};
}

// ---- kernel -----------------------------------------------------------------------------

struct Operands {
    std::vector<Tensor> t;  // per value input
    std::vector<bool> perElement;
};

std::vector<double> numericAttrs(const Spec& s, const KernelContext& ctx) {
    std::vector<double> a;
    for (const AttrSpec& spec : s.attrs) {
        const ValuePtr v = ctx.attr(spec.name);
        const std::optional<double> n = v ? numberOf(v) : std::nullopt;
        if (!n) {
            typeError(s.name, "the attribute '" + std::string(spec.name) + "' must be a number.");
        }
        a.push_back(*n);
    }
    return a;
}

// Runs step over `count` elements; element e of value input k is at at(k, e).
template <typename At>
void runSteps(const Spec& s, Operands& ops, const std::vector<double>& attrs, std::size_t count,
              At at) {
    const std::size_t n = ops.t.size();
    std::vector<double> x(n);
    for (std::size_t e = 0; e < count; ++e) {
        for (std::size_t k = 0; k < n; ++k) {
            x[k] = at(k, e);
        }
        s.step(x.data(), attrs.data());
        for (std::size_t k : s.states) {
            ops.t[k].setDouble(ops.perElement[k] ? e : 0, x[k]);
        }
    }
}

KernelArg runOptimizer(const Spec& s, const KernelContext& ctx) {
    const std::string op = s.name;
    Operands ops;
    for (std::size_t k = 0; k < valueInputs(s); ++k) {
        KernelArg arg = ctx.input(k);
        if (isState(s, k) && !arg.isTensor()) {
            typeError(op, "the '" + std::string(s.inputs[k]) + "' must be a Tensor to update.");
        }
        ops.t.push_back(isState(s, k) ? arg.tensor() : ctx.tensor(k));
    }
    const Tensor& var = ops.t[0];
    const std::size_t n = var.size();
    for (std::size_t k = 0; k < ops.t.size(); ++k) {
        const std::size_t size = ops.t[k].size();
        const bool rowInput = s.rows != Rows::None && isRowInput(s, k) && !isState(s, k);
        if (isState(s, k) || (isRowInput(s, k) && !rowInput)) {
            checkSameShape(s, k, var.shape(), ops.t[k].shape());
        }
        if (!rowInput && size != n && size != 1) {
            valueError(op, "the '" + std::string(s.inputs[k]) + "' has " + std::to_string(size) +
                               " elements where '" + std::string(s.inputs[0]) + "' has " +
                               std::to_string(n) + ".");
        }
        ops.perElement.push_back(size == n && n != 1);
    }
    const std::vector<double> attrs = numericAttrs(s, ctx);
    if (s.rows == Rows::None) {
        runSteps(s, ops, attrs, n, [&](std::size_t k, std::size_t e) {
            return ops.t[k].getDouble(ops.perElement[k] ? e : 0);
        });
    } else {
        const std::size_t gradAt = s.inputs.size() - 2;
        const Tensor indices = ctx.tensor(s.inputs.size() - 1);
        const std::int64_t rows = var.rank() == 0 ? 1 : var.shape().dims[0];
        const std::size_t rowSize = rows > 0 ? n / static_cast<std::size_t>(rows) : 0;
        const Tensor& grad = ops.t[gradAt];
        if (grad.size() != indices.size() * rowSize) {
            valueError(op, "the 'grad' must have " + std::to_string(indices.size()) + " rows of " +
                               std::to_string(rowSize) + " elements (one per index), but has " +
                               std::to_string(grad.size()) + " elements.");
        }
        // The gradient rows by index, those of a repeated index summed, in first-seen order.
        std::map<std::int64_t, std::vector<double>> summed;
        std::vector<std::int64_t> order;
        for (std::size_t i = 0; i < indices.size(); ++i) {
            const std::int64_t r = indices.getInt(i);
            if (r < 0 || r >= rows) {
                valueError(op, "the 'indices' value " + std::to_string(r) +
                                   " is out of range [0, " + std::to_string(rows) + ").");
            }
            auto [it, fresh] = summed.try_emplace(r, rowSize, 0.0);
            if (fresh) {
                order.push_back(r);
            }
            for (std::size_t j = 0; j < rowSize; ++j) {
                it->second[j] += grad.getDouble(i * rowSize + j);
            }
        }
        if (s.rows == Rows::Scattered) {
            order.clear();
            for (std::int64_t r = 0; r < rows; ++r) {
                order.push_back(r);
            }
        }
        const std::vector<double> zeros(rowSize, 0.0);
        for (std::int64_t r : order) {
            auto it = summed.find(r);
            const std::vector<double>& g = it != summed.end() ? it->second : zeros;
            const std::size_t base = static_cast<std::size_t>(r) * rowSize;
            std::vector<double> x(ops.t.size());
            for (std::size_t j = 0; j < rowSize; ++j) {
                for (std::size_t k = 0; k < ops.t.size(); ++k) {
                    x[k] =
                        k == gradAt ? g[j] : ops.t[k].getDouble(ops.perElement[k] ? base + j : 0);
                }
                s.step(x.data(), attrs.data());
                for (std::size_t k : s.states) {
                    ops.t[k].setDouble(base + j, x[k]);
                }
            }
        }
    }
    switch (s.out) {
        case Out::Var:
            return KernelArg(ops.t[0]);
        case Out::States: {
            std::vector<KernelArg> elems;
            for (std::size_t k : s.states) {
                elems.emplace_back(ops.t[k]);
            }
            return KernelArg::tuple(std::move(elems));
        }
        case Out::Placeholders: {
            std::vector<KernelArg> elems;
            for (std::size_t i = 0; i < s.states.size(); ++i) {
                elems.emplace_back(Tensor(var.dtype(), Shape{1}));
            }
            return KernelArg::tuple(std::move(elems));
        }
    }
    return {};
}

OpDef optimizerDef(const Spec& s) {
    OpDef d{.name = s.name, .family = "optimizer", .summary = s.summary};
    d.sideEffectMem = true;
    d.foldable = false;
    d.writes = s.states;
    for (const AttrSpec& a : s.attrs) {
        if (std::isnan(a.defaultValue)) {
            d.attrs.push_back(argIn(a.name, a.kind));
        } else if (a.kind == ArgKind::Bool) {
            d.attrs.push_back(argDefault(a.name, a.kind, vBool(a.defaultValue != 0)));
        } else {
            d.attrs.push_back(argDefault(a.name, a.kind, vFloat(a.defaultValue)));
        }
    }
    for (std::size_t i = 0; i < s.inputs.size(); ++i) {
        const bool tensorOnly = isRowInput(s, i) || std::string_view(s.inputs[i]) == "indices";
        d.inputs.push_back(argIn(s.inputs[i], tensorOnly ? ArgKind::Tensor : ArgKind::Number));
    }
    d.inputs.push_back(argMonad("u"));
    d.infer = [&s](const InferContext& c) { return inferOptimizer(s, c); };
    d.cpuKernel = [&s](const KernelContext& c) { return runOptimizer(s, c); };
    addClassSpellings(d);
    return d;
}

}  // namespace

void registerOptimizerOps(OpRegistry& reg) {
    for (const Spec& s : specs()) {
        reg.add(optimizerDef(s));
    }
}

}  // namespace irscope::ops
