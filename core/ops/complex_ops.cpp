// Complex64 / Complex128 tensors: the elementwise kernels Add Sub Mul Div Pow and Neg Abs
// Square Exp Log Sqrt Tanh take them (called from elementwise_arith/unary.cpp), and the
// primitives that move between complex and real: Real, Imag, Conj, Angle, Complex.
// Every other kernel refuses a complex input with "the CPU kernel does not support data type
// Complex64" (dispatchNative), never computing on the real parts alone.
#include <cmath>
#include <complex>

#include "ops/elementwise_impl.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

// x ** y: an integral real exponent up to 100 by repeated squaring (exact for Gaussian
// integers, as numpy and Python compute it), else std::pow's polar form.
template <typename C>
C complexPow(C x, C y) {
    using R = typename C::value_type;
    if (y.imag() == R(0) && y.real() == std::floor(y.real()) && std::fabs(y.real()) <= R(100)) {
        auto n = static_cast<long>(std::fabs(y.real()));
        C r{R(1), R(0)};
        C p = x;
        while (n != 0) {
            if ((n & 1) != 0) {
                r *= p;
            }
            p *= p;
            n >>= 1;
        }
        return y.real() < R(0) ? C{R(1), R(0)} / r : r;
    }
    return std::pow(x, y);
}

template <typename C>
void complexBinaryTyped(std::string_view opName, BinaryOp op, const detail::BinaryOperands& p,
                        Tensor& res) {
    const C* a = p.x.data<C>();
    const C* b = p.y.data<C>();
    C* o = res.data<C>();
    const std::size_t na = p.x.size(), nb = p.y.size(), n = res.size();
    auto run = [&](auto fn) {
        for (std::size_t i = 0; i < n; ++i) {
            o[i] = fn(a[na == 1 ? 0 : i], b[nb == 1 ? 0 : i]);
        }
    };
    switch (op) {
        case BinaryOp::Add:
            run([](C x, C y) { return x + y; });
            return;
        case BinaryOp::Sub:
            run([](C x, C y) { return x - y; });
            return;
        case BinaryOp::Mul:
            run([](C x, C y) { return x * y; });
            return;
        case BinaryOp::Div:
            run([](C x, C y) { return x / y; });
            return;
        case BinaryOp::Pow:
            run([](C x, C y) { return complexPow(x, y); });
            return;
        default:
            typeError(opName, "the CPU kernel does not support data type " +
                                  typeStr(res.dtype()) + ".");
    }
}

template <typename C>
void complexUnaryTyped(std::string_view opName, UnaryOp op, const Tensor& x, Tensor& res) {
    const C* in = x.data<C>();
    const std::size_t n = x.size();
    if (op == UnaryOp::Abs) {
        using R = typename C::value_type;
        R* out = res.data<R>();
        for (std::size_t i = 0; i < n; ++i) {
            out[i] = std::abs(in[i]);
        }
        return;
    }
    C* out = res.data<C>();
    auto run = [&](auto fn) {
        for (std::size_t i = 0; i < n; ++i) {
            out[i] = fn(in[i]);
        }
    };
    switch (op) {
        case UnaryOp::Neg:
            run([](C v) { return -v; });
            return;
        case UnaryOp::Square:
            run([](C v) { return v * v; });
            return;
        case UnaryOp::Exp:
            run([](C v) { return std::exp(v); });
            return;
        case UnaryOp::Log:
            run([](C v) { return std::log(v); });
            return;
        case UnaryOp::Sqrt:
            run([](C v) { return std::sqrt(v); });
            return;
        case UnaryOp::Tanh:
            run([](C v) { return std::tanh(v); });
            return;
        default:
            typeError(opName,
                      "the CPU kernel does not support data type " + typeStr(x.dtype()) + ".");
    }
}

// ---- Real, Imag, Conj, Angle, Complex ------------------------------------------------------

enum class Part : std::uint8_t { Real, Imag, Conj, Angle };

InferResult inferPart(const InferContext& c, Part part) {
    const AbstractPtr x = tensorInput(c, 0, "input");
    if (part == Part::Angle && !ir::isComplex(x->dtype)) {
        typeError(c.name(), "the type of 'input' must be Tensor[Complex64, Complex128], but got " +
                                typeStr(x) + ".");
    }
    const DType out = part == Part::Conj ? x->dtype : ir::complexPartType(x->dtype);
    return {ir::Abstract::tensor(out, x->shape), nullptr};
}

KernelArg runPart(const KernelContext& c, Part part) {
    const Tensor x = c.tensor(0);
    if (!ir::isComplex(x.dtype())) {
        if (part == Part::Imag) {
            return KernelArg(Tensor(x.dtype(), x.shape()));  // zeros
        }
        if (part == Part::Angle) {
            typeError(c.name(), "the type of 'input' must be Tensor[Complex64, Complex128], but "
                                "got Tensor[" + typeStr(x.dtype()) + "].");
        }
        return KernelArg(x.clone());  // Real and Conj of a real tensor
    }
    Tensor out(part == Part::Conj ? x.dtype() : ir::complexPartType(x.dtype()), x.shape());
    for (std::size_t i = 0; i < x.size(); ++i) {
        const std::complex<double> z = x.getComplex(i);
        switch (part) {
            case Part::Real:
                out.setDouble(i, z.real());
                break;
            case Part::Imag:
                out.setDouble(i, z.imag());
                break;
            case Part::Conj:
                out.setComplex(i, std::conj(z));
                break;
            case Part::Angle:
                out.setDouble(i, std::arg(z));
                break;
        }
    }
    return KernelArg(std::move(out));
}

DType complexResultType(std::string_view op, DType re, DType im) {
    if (re != im || (re != DType::Float32 && re != DType::Float64)) {
        typeError(op, "the types of 'real' and 'imag' must be both Tensor[Float32] or both "
                      "Tensor[Float64], but got Tensor[" + typeStr(re) + "] and Tensor[" +
                          typeStr(im) + "].");
    }
    return ir::complexOfPart(re);
}

InferResult inferComplex(const InferContext& c) {
    const AbstractPtr re = tensorInput(c, 0, "real");
    const AbstractPtr im = tensorInput(c, 1, "imag");
    const DType out = complexResultType(c.name(), re->dtype, im->dtype);
    return {ir::Abstract::tensor(out, broadcastShapes(c.name(), re->shape, im->shape)), nullptr};
}

KernelArg runComplex(const KernelContext& c) {
    const Tensor re = c.tensor(0), im = c.tensor(1);
    const DType dt = complexResultType(c.name(), re.dtype(), im.dtype());
    const detail::BinaryOperands p = detail::prepareBinary(c.name(), re, im);
    Tensor out(dt, p.out);
    const std::size_t na = p.x.size(), nb = p.y.size();
    for (std::size_t i = 0; i < out.size(); ++i) {
        out.setComplex(i, {p.x.getDouble(na == 1 ? 0 : i), p.y.getDouble(nb == 1 ? 0 : i)});
    }
    return KernelArg(std::move(out));
}

}  // namespace

namespace detail {

Tensor complexArith(std::string_view opName, BinaryOp op, const BinaryOperands& p) {
    Tensor res(p.x.dtype(), p.out);
    if (p.x.dtype() == DType::Complex64) {
        complexBinaryTyped<std::complex<float>>(opName, op, p, res);
    } else {
        complexBinaryTyped<std::complex<double>>(opName, op, p, res);
    }
    return res;
}

Tensor complexUnary(std::string_view opName, UnaryOp op, const Tensor& x) {
    Tensor res(op == UnaryOp::Abs ? ir::complexPartType(x.dtype()) : x.dtype(), x.shape());
    if (x.dtype() == DType::Complex64) {
        complexUnaryTyped<std::complex<float>>(opName, op, x, res);
    } else {
        complexUnaryTyped<std::complex<double>>(opName, op, x, res);
    }
    return res;
}

}  // namespace detail

void registerComplexOps(OpRegistry& reg) {
    struct PartOp {
        const char* name;
        const char* fn;
        const char* summary;
        Part part;
    };
    for (const PartOp& u :
         {PartOp{"Real", "real", "the real part (a real input unchanged)", Part::Real},
          PartOp{"Imag", "imag", "the imaginary part (zeros for a real input)", Part::Imag},
          PartOp{"Conj", "conj", "the complex conjugate (a real input unchanged)", Part::Conj},
          PartOp{"Angle", "angle", "the argument of a complex input, atan2(imag, real)",
                 Part::Angle}}) {
        OpDef d{.name = u.name, .family = "math", .summary = u.summary};
        d.inputs = {argIn("input")};
        const Part part = u.part;
        d.infer = [part](const InferContext& c) { return inferPart(c, part); };
        d.cpuKernel = [part](const KernelContext& c) { return runPart(c, part); };
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, u.fn, {toInput("input", 0)});
        addMethod(d, u.fn, {});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "Complex", .family = "math", .summary = "real + imag * 1j"};
        d.inputs = {argIn("real"), argIn("imag")};
        d.infer = inferComplex;
        d.cpuKernel = runComplex;
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "complex", {toInput("real", 0), toInput("imag", 1)});
        reg.add(std::move(d));
    }
}

}  // namespace irscope::ops
