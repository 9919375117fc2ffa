#include "cl_ops.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace irscope_opencl {

namespace {

constexpr int kMaxRank = 8;

// ---------------------------------------------------------------------------------------
// Dtypes

bool isFloat(std::int32_t t) {
    return t == IRSCOPE_FLOAT16 || t == IRSCOPE_FLOAT32 || t == IRSCOPE_FLOAT64;
}

bool dtypeOk(const ClDevice& dev, std::int32_t t) {
    switch (t) {
        case IRSCOPE_BOOL:
        case IRSCOPE_INT32:
        case IRSCOPE_INT64:
        case IRSCOPE_FLOAT32:
            return true;
        case IRSCOPE_FLOAT64:
            return dev.hasFp64();
        case IRSCOPE_FLOAT16:
            return true;  // storage only: vload_half / vstore_half_rte, computed in float
        default:
            return false;
    }
}

std::size_t dtypeSize(std::int32_t t) {
    switch (t) {
        case IRSCOPE_BOOL:
        case IRSCOPE_INT8:
        case IRSCOPE_UINT8:
            return 1;
        case IRSCOPE_INT16:
        case IRSCOPE_UINT16:
        case IRSCOPE_FLOAT16:
        case IRSCOPE_BFLOAT16:
            return 2;
        case IRSCOPE_INT32:
        case IRSCOPE_UINT32:
        case IRSCOPE_FLOAT32:
            return 4;
        default:
            return 8;
    }
}

const char* dtypeName(std::int32_t t) {
    switch (t) {
        case IRSCOPE_BOOL:
            return "Bool";
        case IRSCOPE_INT32:
            return "Int32";
        case IRSCOPE_INT64:
            return "Int64";
        case IRSCOPE_FLOAT16:
            return "Float16";
        case IRSCOPE_FLOAT32:
            return "Float32";
        case IRSCOPE_FLOAT64:
            return "Float64";
        default:
            return "an unsupported dtype";
    }
}

// Storage type in OpenCL C (half is storage only: loaded and stored through float).
std::string clType(std::int32_t t) {
    switch (t) {
        case IRSCOPE_BOOL:
            return "uchar";
        case IRSCOPE_INT32:
            return "int";
        case IRSCOPE_INT64:
            return "long";
        case IRSCOPE_FLOAT16:
            return "half";
        case IRSCOPE_FLOAT32:
            return "float";
        default:
            return "double";
    }
}
// The type kernels compute in.
std::string computeType(std::int32_t t) { return t == IRSCOPE_FLOAT16 ? "float" : clType(t); }

std::string loadExpr(std::int32_t t, const std::string& ptr, const std::string& idx) {
    if (t == IRSCOPE_FLOAT16) {
        return "vload_half(" + idx + ", " + ptr + ")";
    }
    return ptr + "[" + idx + "]";
}
std::string storeStmt(std::int32_t t, const std::string& ptr, const std::string& idx,
                      const std::string& v) {
    if (t == IRSCOPE_FLOAT16) {
        return "vstore_half_rte((float)(" + v + "), " + idx + ", " + ptr + ");";
    }
    if (t == IRSCOPE_BOOL) {
        return ptr + "[" + idx + "] = (uchar)((" + v + ") != 0);";
    }
    return ptr + "[" + idx + "] = (" + clType(t) + ")(" + v + ");";
}

// numpy-like promotion over the supported dtypes (MindSpore's for these).
int promoRank(std::int32_t t) {
    switch (t) {
        case IRSCOPE_BOOL:
            return 0;
        case IRSCOPE_INT32:
            return 1;
        case IRSCOPE_INT64:
            return 2;
        case IRSCOPE_FLOAT16:
            return 3;
        case IRSCOPE_FLOAT32:
            return 4;
        default:
            return 5;
    }
}
std::int32_t promote(std::int32_t a, std::int32_t b) { return promoRank(a) >= promoRank(b) ? a : b; }

void replaceAll(std::string& s, const std::string& from, const std::string& to) {
    for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) {
        s.replace(p, from.size(), to);
    }
}

// Every kernel starts with this. FOR_ITEMS(i, n) visits this work item's share of 0..n-1:
// on a CPU device a contiguous chunk (the loop vectorizes), elsewhere a grid-stride loop
// (neighbouring work items touch neighbouring elements).
std::string prelude(const ClDevice& dev) {
    std::string s = "#pragma OPENCL FP_CONTRACT OFF\n";
    if (dev.isCpu()) {
        s += "#define FOR_ITEMS(i, n) const long i##_n = (n);"
             " const long i##_c = (i##_n + (long)get_global_size(0) - 1) / (long)get_global_size(0);"
             " const long i##_b = (long)get_global_id(0) * i##_c;"
             " const long i##_e = min(i##_b + i##_c, i##_n);"
             " for (long i = i##_b; i < i##_e; ++i)\n";
    } else {
        s += "#define FOR_ITEMS(i, n) const long i##_n = (n);"
             " for (long i = get_global_id(0); i < i##_n; i += get_global_size(0))\n";
    }
    if (dev.hasFp64()) {
        s += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
    }
    if (dev.hasFp16()) {
        s += "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";
    }
    return s;
}

// ---------------------------------------------------------------------------------------
// Launch arguments

struct Tensor {
    std::int32_t dtype = IRSCOPE_FLOAT32;
    std::vector<std::int64_t> dims;
    cl_mem mem = nullptr;
    std::uint64_t count() const {
        std::uint64_t n = 1;
        for (const auto d : dims) {
            n *= static_cast<std::uint64_t>(d);
        }
        return n;
    }
};

std::string shapeStr(const std::vector<std::int64_t>& d) {
    std::string s = "[";
    for (std::size_t i = 0; i < d.size(); ++i) {
        s += (i ? ", " : "") + std::to_string(d[i]);
    }
    return s + "]";
}

struct Launch {
    std::string op;
    std::vector<Tensor> in;
    std::vector<Tensor> out;
    const irscope_launch* raw = nullptr;
    std::vector<cl_mem> temporaries;  // released after the enqueue

    const irscope_param* param(std::string_view name) const {
        for (std::int32_t i = 0; i < raw->num_params; ++i) {
            if (raw->params[i].name && name == raw->params[i].name) {
                return &raw->params[i];
            }
        }
        return nullptr;
    }
    [[noreturn]] void fail(const std::string& msg) const {
        throw PluginError("For '" + op + "', " + msg);
    }
    [[noreturn]] void unsupported(const std::string& msg) const {
        throw Unsupported("For '" + op + "', the OpenCL device does not support " + msg);
    }
    void arity(std::size_t nin, std::size_t nout = 1) const {
        if (in.size() != nin || out.size() != nout) {
            fail("expected " + std::to_string(nin) + " tensor input(s) and " +
                 std::to_string(nout) + " output(s), but got " + std::to_string(in.size()) +
                 " and " + std::to_string(out.size()) + ".");
        }
    }
    std::optional<bool> boolParam(std::string_view name) const {
        const irscope_param* p = param(name);
        if (!p) {
            return std::nullopt;
        }
        if (p->kind == IRSCOPE_PARAM_BOOL || p->kind == IRSCOPE_PARAM_INT) {
            return p->i != 0;
        }
        fail("the '" + std::string(name) + "' must be a bool.");
    }
    // An int or a list of ints; nullopt when absent (or None).
    std::optional<std::vector<std::int64_t>> intsParam(std::string_view name) const {
        const irscope_param* p = param(name);
        if (!p) {
            return std::nullopt;
        }
        if (p->kind == IRSCOPE_PARAM_INT || p->kind == IRSCOPE_PARAM_BOOL) {
            return std::vector<std::int64_t>{p->i};
        }
        if (p->kind == IRSCOPE_PARAM_INTS) {
            return std::vector<std::int64_t>(p->ints, p->ints + p->count);
        }
        fail("the '" + std::string(name) + "' must be an int or a tuple of ints.");
    }
};

// Adds a 0-d tensor holding a scalar param (a Python number operand).
Tensor scalarTensor(ClDevice& dev, Launch& l, const irscope_param& p) {
    Tensor t;
    std::array<unsigned char, 8> bytes{};
    if (p.kind == IRSCOPE_PARAM_BOOL) {
        t.dtype = IRSCOPE_BOOL;
        bytes[0] = p.i != 0 ? 1 : 0;
    } else if (p.kind == IRSCOPE_PARAM_INT) {
        t.dtype = IRSCOPE_INT64;
        std::memcpy(bytes.data(), &p.i, 8);
    } else if (p.kind == IRSCOPE_PARAM_FLOAT) {
        t.dtype = IRSCOPE_FLOAT32;  // a Python float operand is Float32, as on the CPU
        const auto f = static_cast<float>(p.f);
        std::memcpy(bytes.data(), &f, 4);
    } else {
        l.fail("the operand '" + std::string(p.name) + "' must be a number.");
    }
    cl_int err = CL_SUCCESS;
    t.mem = clCreateBuffer(dev.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                           dtypeSize(t.dtype), bytes.data(), &err);
    check(err, "clCreateBuffer");
    l.temporaries.push_back(t.mem);
    return t;
}

// ---------------------------------------------------------------------------------------
// Elementwise kernels with numpy broadcasting

struct EwArgs {
    cl_long n;
    cl_long rank;
    cl_long mode[4];  // 0: contiguous like the output, 1: one element, 2: strided
    cl_long dims[kMaxRank];
    cl_long str[4][kMaxRank];
};

const char* kEwDecl = R"(
typedef struct { long n; long rank; long mode[4]; long dims[8]; long str[4][8]; } ew_t;
inline long ew_off(long i, const ew_t* g, int k) {
    long off = 0;
    for (int d = (int)g->rank - 1; d >= 0; --d) {
        long c = i % g->dims[d];
        i /= g->dims[d];
        off += c * g->str[k][d];
    }
    return off;
}
)";

// Input k of an elementwise kernel broadcast to `out`: its per-output-dim strides.
void setBroadcast(const Launch& l, EwArgs& a, int k, const std::vector<std::int64_t>& in,
                  const std::vector<std::int64_t>& out) {
    if (in.size() > out.size()) {
        l.fail("the input shape " + shapeStr(in) + " does not broadcast to " + shapeStr(out) + ".");
    }
    std::uint64_t count = 1;
    for (const auto d : in) {
        count *= static_cast<std::uint64_t>(d);
    }
    const auto lead = out.size() - in.size();
    bool same = true;
    std::int64_t stride = 1;
    for (std::size_t j = out.size(); j-- > 0;) {
        std::int64_t s = 0;
        if (j >= lead) {
            const auto d = in[j - lead];
            if (d == out[j]) {
                s = d == 1 ? 0 : stride;
            } else if (d == 1) {
                same = false;
            } else {
                l.fail("the input shape " + shapeStr(in) + " does not broadcast to " +
                       shapeStr(out) + ".");
            }
            stride *= d;
        } else {
            same = same && out[j] == 1;
        }
        a.str[k][j] = s;
    }
    a.mode[k] = same ? 0 : (count == 1 ? 1 : 2);
}

struct EwOperand {
    std::int32_t dtype;
    std::string compute;  // converted to this type after loading
};

// out[i] = EXPR(v0, v1, ...) where vK is operand K loaded and converted.
std::string ewSource(const ClDevice& dev, std::span<const EwOperand> ops, std::int32_t outType,
                     const std::string& helpers, const std::string& expr, const EwArgs& a) {
    std::string s = prelude(dev) + kEwDecl + helpers + "\n__kernel void ew(";
    for (std::size_t k = 0; k < ops.size(); ++k) {
        s += "__global const " + clType(ops[k].dtype) + "* in" + std::to_string(k) + ", ";
    }
    s += "__global " + clType(outType) + "* out, ew_t g) {\n";
    // The operands' index modes are part of the source: the common all-contiguous case
    // compiles to a plain vectorizable loop.
    auto offset = [&](std::size_t k) -> std::string {
        switch (a.mode[k]) {
            case 0:
                return "i";
            case 1:
                return "0";
            default:
                return "ew_off(i, &g, " + std::to_string(k) + ")";
        }
    };
    s += "  FOR_ITEMS(i, g.n) {\n";
    for (std::size_t k = 0; k < ops.size(); ++k) {
        const std::string ks = std::to_string(k);
        s += "    " + ops[k].compute + " v" + ks + " = (" + ops[k].compute + ")(" +
             loadExpr(ops[k].dtype, "in" + ks, offset(k)) + ");\n";
    }
    s += "    " + storeStmt(outType, "out", "i", expr) + "\n  }\n}\n";
    return s;
}

void runEw(ClDevice& dev, const std::string& source, std::span<const Tensor> ins,
           const Tensor& out, EwArgs& a) {
    cl_kernel k = dev.kernel(source, "ew");
    cl_uint arg = 0;
    for (const Tensor& t : ins) {
        check(clSetKernelArg(k, arg++, sizeof(cl_mem), &t.mem), "clSetKernelArg");
    }
    check(clSetKernelArg(k, arg++, sizeof(cl_mem), &out.mem), "clSetKernelArg");
    check(clSetKernelArg(k, arg++, sizeof(EwArgs), &a), "clSetKernelArg");
    dev.run1d(k, static_cast<std::uint64_t>(a.n));
}

// Elementwise over `ins` broadcast to the output's shape.
void elementwise(ClDevice& dev, const Launch& l, std::span<const Tensor> ins,
                 std::span<const EwOperand> ops, const Tensor& out, const std::string& helpers,
                 const std::string& expr) {
    if (out.dims.size() > kMaxRank) {
        l.unsupported("tensors of rank " + std::to_string(out.dims.size()) + ".");
    }
    EwArgs a{};
    a.n = static_cast<cl_long>(out.count());
    a.rank = static_cast<cl_long>(out.dims.size());
    for (std::size_t d = 0; d < out.dims.size(); ++d) {
        a.dims[d] = out.dims[d];
    }
    for (std::size_t k = 0; k < ins.size(); ++k) {
        setBroadcast(l, a, static_cast<int>(k), ins[k].dims, out.dims);
    }
    runEw(dev, ewSource(dev, ops, out.dtype, helpers, expr, a), ins, out, a);
}

// ---------------------------------------------------------------------------------------
// Op table

enum class Kind : std::uint8_t {
    Arith,
    Compare,
    Logical,
    Unary,
    Cast,
    Select,
    FillLike,  // ZerosLike, OnesLike
    Fill,      // Zeros, Ones, Fill
    Copy,      // Reshape, Squeeze, ExpandDims, TensorMove, StopGradient
    Gather,    // Transpose, BroadcastTo, Tile
    AddN,
    Join,    // Concat, Stack
    Take,    // Gather
    Slice,   // StridedSlice
    Assign,  // Assign, AssignAdd, AssignSub: the output is the variable's own buffer
    Reduce,
    MatMul,
    Softmax,
    BiasAdd,
    LayerNorm,  // outputs y, mean, variance
    Conv,       // Conv2D (NCHW)
    Pool,       // MaxPool, AvgPool (NCHW)
};

const std::map<std::string, Kind, std::less<>>& table() {
    static const std::map<std::string, Kind, std::less<>> t = {
        {"Add", Kind::Arith},
        {"Sub", Kind::Arith},
        {"Mul", Kind::Arith},
        {"Div", Kind::Arith},
        {"RealDiv", Kind::Arith},
        {"FloorDiv", Kind::Arith},
        {"Mod", Kind::Arith},
        {"FloorMod", Kind::Arith},
        {"Pow", Kind::Arith},
        {"Maximum", Kind::Arith},
        {"Minimum", Kind::Arith},
        {"Less", Kind::Compare},
        {"LessEqual", Kind::Compare},
        {"Greater", Kind::Compare},
        {"GreaterEqual", Kind::Compare},
        {"Equal", Kind::Compare},
        {"NotEqual", Kind::Compare},
        {"LogicalAnd", Kind::Logical},
        {"LogicalOr", Kind::Logical},
        {"LogicalNot", Kind::Unary},
        {"Neg", Kind::Unary},
        {"Abs", Kind::Unary},
        {"Square", Kind::Unary},
        {"Exp", Kind::Unary},
        {"Log", Kind::Unary},
        {"Sqrt", Kind::Unary},
        {"ReLU", Kind::Unary},
        {"Sigmoid", Kind::Unary},
        {"Tanh", Kind::Unary},
        {"GeLU", Kind::Unary},
        {"HSwish", Kind::Unary},
        {"Cast", Kind::Cast},
        {"Select", Kind::Select},
        {"ZerosLike", Kind::FillLike},
        {"OnesLike", Kind::FillLike},
        {"Zeros", Kind::Fill},
        {"Ones", Kind::Fill},
        {"Fill", Kind::Fill},
        {"Reshape", Kind::Copy},
        {"Squeeze", Kind::Copy},
        {"ExpandDims", Kind::Copy},
        {"TensorMove", Kind::Copy},
        {"StopGradient", Kind::Copy},
        {"Transpose", Kind::Gather},
        {"BroadcastTo", Kind::Gather},
        {"Tile", Kind::Gather},
        {"AddN", Kind::AddN},
        {"ReduceSum", Kind::Reduce},
        {"ReduceMean", Kind::Reduce},
        {"ReduceMax", Kind::Reduce},
        {"ReduceMin", Kind::Reduce},
        {"ReduceProd", Kind::Reduce},
        {"MatMul", Kind::MatMul},
        {"BatchMatMul", Kind::MatMul},
        {"MatMulExt", Kind::MatMul},
        {"Concat", Kind::Join},
        {"Stack", Kind::Join},
        {"Softmax", Kind::Softmax},
        {"BiasAdd", Kind::BiasAdd},
        {"LayerNorm", Kind::LayerNorm},
        {"Gather", Kind::Take},
        {"Assign", Kind::Assign},
        {"AssignAdd", Kind::Assign},
        {"StridedSlice", Kind::Slice},
        {"AssignSub", Kind::Assign},
        {"Conv2D", Kind::Conv},
        {"MaxPool", Kind::Pool},
        {"AvgPool", Kind::Pool},
        {"Flatten", Kind::Copy},
    };
    return t;
}

// ---- arithmetic ------------------------------------------------------------------------

// The output dtype of an arithmetic op on operands x, y; nullopt when the CPU rejects it.
std::optional<std::int32_t> arithOut(std::string_view op, std::int32_t x, std::int32_t y) {
    const std::int32_t p = promote(x, y);
    if (op == "Div" || op == "RealDiv") {
        return isFloat(p) ? p : IRSCOPE_FLOAT32;
    }
    if (p == IRSCOPE_BOOL) {
        if (op == "Add" || op == "Mul" || op == "Maximum" || op == "Minimum") {
            return IRSCOPE_BOOL;
        }
        return std::nullopt;
    }
    return p;
}

// `inline R f(C a, C b)` for the op in compute type C (unsigned UC for wrapping ints).
std::string arithHelper(std::string_view op, std::int32_t outType, const std::string& c) {
    std::string body;
    const bool flt = isFloat(outType) || c == "double" || c == "float";
    if (outType == IRSCOPE_BOOL) {
        body = (op == "Add" || op == "Maximum") ? "return (a != 0) || (b != 0);"
                                                : "return (a != 0) && (b != 0);";
    } else if (op == "Add" || op == "Sub" || op == "Mul") {
        const char* sym = op == "Add" ? "+" : (op == "Sub" ? "-" : "*");
        body = flt ? std::string("return a ") + sym + " b;"
                   : std::string("return (C)((UC)a ") + sym + " (UC)b);";
    } else if (op == "Div" || op == "RealDiv") {
        body = flt ? "return a / b;" : "return b == 0 ? (C)0 : (C)(a / b);";
    } else if (op == "FloorDiv") {
        body = flt ? "return floor(a / b);"
                   : "if (b == 0) return 0; if (b == -1) return (C)((UC)0 - (UC)a);"
                     " C q = a / b; if ((a % b) != 0 && ((a < 0) != (b < 0))) --q; return q;";
    } else if (op == "Mod") {
        body = flt ? "return fmod(a, b);" : "if (b == 0 || b == -1) return 0; return a % b;";
    } else if (op == "FloorMod") {
        body = flt ? "C m = fmod(a, b); if (m != 0) { if ((b < 0) != (m < 0)) m += b; }"
                     " else { m = copysign((C)0, b); } return m;"
                   : "C r = (b == 0 || b == -1) ? (C)0 : (C)(a % b);"
                     " if (r != 0 && ((r < 0) != (b < 0))) r = (C)(r + b); return r;";
    } else if (op == "Pow") {
        body = flt ? "return pow(a, b);"
                   : "if (b < 0) { if (a == 1) return 1; if (a == -1) return (b % 2 == 0) ? 1 : -1;"
                     " return 0; } ulong r = 1; ulong x = (ulong)(long)a; ulong e = (ulong)b;"
                     " while (e != 0) { if (e & 1) r *= x; x *= x; e >>= 1; } return (C)r;";
    } else if (op == "Maximum" || op == "Minimum") {
        const char* cmp = op == "Maximum" ? ">" : "<";
        body = std::string(flt ? "if (isnan(a) || isnan(b)) return isnan(a) ? a : b; " : "") +
               "return a " + cmp + " b ? a : b;";
    }
    std::string uc = c == "int" ? "uint" : (c == "long" ? "ulong" : c);
    std::string s = "inline C f(C a, C b) { " + body + " }\n";
    replaceAll(s, "UC", uc);
    replaceAll(s, "C ", c + " ");
    replaceAll(s, "(C)", "(" + c + ")");
    return s;
}

// Binary operands: the tensor inputs, or a scalar param standing for a missing one.
std::vector<Tensor> operands(ClDevice& dev, Launch& l, std::initializer_list<const char*> names) {
    std::vector<Tensor> ops;
    std::size_t next = 0;
    for (const char* name : names) {
        if (const irscope_param* p = l.param(name); p && l.in.size() < names.size()) {
            ops.push_back(scalarTensor(dev, l, *p));
        } else if (next < l.in.size()) {
            ops.push_back(l.in[next++]);
        } else {
            l.fail(std::string("the input '") + name + "' is missing.");
        }
    }
    if (next != l.in.size()) {
        l.fail("got " + std::to_string(l.in.size()) + " tensor inputs, expected " +
               std::to_string(names.size()) + ".");
    }
    return ops;
}

void runArith(ClDevice& dev, Launch& l) {
    const std::vector<Tensor> xy = operands(dev, l, {"x", "y"});
    const Tensor& out = l.out.at(0);
    const auto want = arithOut(l.op, xy[0].dtype, xy[1].dtype);
    // A Python scalar operand takes the tensor's dtype unless it is a float on integers.
    const bool scalarOperand = l.in.size() < 2;
    if (!want || (!scalarOperand && *want != out.dtype)) {
        l.unsupported(std::string("inputs ") + dtypeName(xy[0].dtype) + " and " +
                      dtypeName(xy[1].dtype) + " with output " + dtypeName(out.dtype) + ".");
    }
    std::string c = computeType(out.dtype);
    if ((l.op == "Div" || l.op == "RealDiv") && !isFloat(promote(xy[0].dtype, xy[1].dtype))) {
        c = dev.hasFp64() ? "double" : "float";  // exact for every integer
    }
    if (out.dtype == IRSCOPE_BOOL) {
        c = "uchar";
    }
    const EwOperand ops[] = {{xy[0].dtype, c}, {xy[1].dtype, c}};
    elementwise(dev, l, xy, ops, out, arithHelper(l.op, out.dtype, c), "f(v0, v1)");
}

void runCompare(ClDevice& dev, Launch& l, bool logical) {
    const std::vector<Tensor> xy = operands(dev, l, {"x", "y"});
    const Tensor& out = l.out.at(0);
    if (out.dtype != IRSCOPE_BOOL) {
        l.unsupported(std::string("output ") + dtypeName(out.dtype) + ".");
    }
    if (logical && (xy[0].dtype != IRSCOPE_BOOL || xy[1].dtype != IRSCOPE_BOOL)) {
        l.unsupported(std::string("inputs ") + dtypeName(xy[0].dtype) + " and " +
                      dtypeName(xy[1].dtype) + ".");
    }
    static const std::map<std::string, std::string, std::less<>> exprs = {
        {"Less", "v0 < v1"},        {"LessEqual", "v0 <= v1"},   {"Greater", "v0 > v1"},
        {"GreaterEqual", "v0 >= v1"}, {"Equal", "v0 == v1"},     {"NotEqual", "v0 != v1"},
        {"LogicalAnd", "(v0 != 0) && (v1 != 0)"}, {"LogicalOr", "(v0 != 0) || (v1 != 0)"}};
    const std::string c = computeType(promote(xy[0].dtype, xy[1].dtype));
    const EwOperand ops[] = {{xy[0].dtype, c}, {xy[1].dtype, c}};
    elementwise(dev, l, xy, ops, out, "", exprs.find(l.op)->second);
}

// ---- unary -----------------------------------------------------------------------------

std::optional<std::int32_t> unaryOut(std::string_view op, std::int32_t in) {
    if (op == "LogicalNot") {
        return in == IRSCOPE_BOOL ? std::optional<std::int32_t>(IRSCOPE_BOOL) : std::nullopt;
    }
    if (op == "GeLU" || op == "HSwish") {
        return isFloat(in) ? std::optional<std::int32_t>(in) : std::nullopt;
    }
    if (op == "Exp" || op == "Log" || op == "Sqrt" || op == "Sigmoid" || op == "Tanh") {
        return isFloat(in) ? in : IRSCOPE_FLOAT32;
    }
    return in == IRSCOPE_BOOL ? std::nullopt : std::optional<std::int32_t>(in);
}

void runUnary(ClDevice& dev, Launch& l) {
    l.arity(1);
    const Tensor& x = l.in[0];
    const Tensor& out = l.out[0];
    const auto want = unaryOut(l.op, x.dtype);
    if (!want || *want != out.dtype) {
        l.unsupported(std::string("input ") + dtypeName(x.dtype) + " with output " +
                      dtypeName(out.dtype) + ".");
    }
    const std::string c = l.op == "LogicalNot" ? "uchar" : computeType(out.dtype);
    const bool flt = isFloat(out.dtype);
    std::string e;
    if (l.op == "LogicalNot") {
        e = "v0 == 0";
    } else if (l.op == "Neg") {
        e = flt ? "-v0" : "(C)((UC)0 - (UC)v0)";
    } else if (l.op == "Abs") {
        e = flt ? "fabs(v0)" : "v0 < 0 ? (C)((UC)0 - (UC)v0) : v0";
    } else if (l.op == "Square") {
        e = flt ? "v0 * v0" : "(C)((UC)v0 * (UC)v0)";
    } else if (l.op == "Exp" || l.op == "Log" || l.op == "Sqrt" || l.op == "Tanh") {
        std::string fn = l.op;
        std::transform(fn.begin(), fn.end(), fn.begin(),
                       [](char ch) { return static_cast<char>(std::tolower(ch)); });
        e = fn + "(v0)";
    } else if (l.op == "Sigmoid") {
        e = "(C)1 / ((C)1 + exp(-v0))";
    } else if (l.op == "ReLU") {
        e = "v0 > 0 ? v0 : (C)0";
    } else if (l.op == "HSwish") {
        e = "v0 <= (C)-3 ? (C)0 : (v0 >= (C)3 ? v0 : v0 * (v0 + (C)3) / (C)6)";
    } else if (l.op == "GeLU") {
        const irscope_param* a = l.param("approximate");
        const bool exact = a && a->kind == IRSCOPE_PARAM_STRING && a->str &&
                           std::string_view(a->str) == "none";
        e = exact ? "(C)0.5 * v0 * ((C)1 + erf(v0 * (C)0.7071067811865476))"
                  : "(C)0.5 * v0 * ((C)1 + tanh((C)0.7978845608028654 * "
                    "(v0 + (C)0.044715 * v0 * v0 * v0)))";
    }
    replaceAll(e, "UC", c == "int" ? "uint" : (c == "long" ? "ulong" : c));
    replaceAll(e, "(C)", "(" + c + ")");
    const EwOperand ops[] = {{x.dtype, c}};
    elementwise(dev, l, l.in, ops, out, "", e);
}

void runCast(ClDevice& dev, Launch& l) {
    l.arity(1);
    const Tensor& x = l.in[0];
    const Tensor& out = l.out[0];
    if (x.count() != out.count()) {
        l.fail("the output has " + std::to_string(out.count()) + " elements, the input " +
               std::to_string(x.count()) + ".");
    }
    // Loaded in the input's compute type; the store converts (float->int truncates,
    // ->bool is != 0), as MindSpore's Cast.
    const EwOperand ops[] = {{x.dtype, computeType(x.dtype)}};
    Tensor flat = x;
    flat.dims = out.dims;
    elementwise(dev, l, std::span(&flat, 1), ops, out, "", "v0");
}

void runSelect(ClDevice& dev, Launch& l) {
    const std::vector<Tensor> ins = operands(dev, l, {"cond", "x", "y"});
    const Tensor& out = l.out.at(0);
    if (ins[0].dtype != IRSCOPE_BOOL) {
        l.fail(std::string("the type of 'cond' must be Tensor[Bool], but got Tensor[") +
               dtypeName(ins[0].dtype) + "].");
    }
    if (l.in.size() == 3 && promote(ins[1].dtype, ins[2].dtype) != out.dtype) {
        l.unsupported(std::string("inputs ") + dtypeName(ins[1].dtype) + " and " +
                      dtypeName(ins[2].dtype) + " with output " + dtypeName(out.dtype) + ".");
    }
    const std::string c = computeType(out.dtype);
    const EwOperand ops[] = {{IRSCOPE_BOOL, "uchar"}, {ins[1].dtype, c}, {ins[2].dtype, c}};
    elementwise(dev, l, ins, ops, out, "", "v0 ? v1 : v2");
}

// ---- fill and data movement ------------------------------------------------------------

void fillWith(ClDevice& dev, const Launch& l, const Tensor& out, double f, std::int64_t i) {
    const std::string c = computeType(out.dtype);
    const std::string src = prelude(dev) + "__kernel void fill(__global " + clType(out.dtype) +
                            "* out, long n, " + c + " v) {\n" +
                            "  FOR_ITEMS(i, n) " +
                            storeStmt(out.dtype, "out", "i", "v") + "\n}\n";
    cl_kernel k = dev.kernel(src, "fill");
    const cl_long n = static_cast<cl_long>(out.count());
    check(clSetKernelArg(k, 0, sizeof(cl_mem), &out.mem), "clSetKernelArg");
    check(clSetKernelArg(k, 1, sizeof n, &n), "clSetKernelArg");
    cl_int err = CL_SUCCESS;
    switch (out.dtype) {
        case IRSCOPE_BOOL: {
            const cl_uchar v = (f != 0.0 || i != 0) ? 1 : 0;
            err = clSetKernelArg(k, 2, sizeof v, &v);
            break;
        }
        case IRSCOPE_INT32: {
            const auto v = static_cast<cl_int>(i);
            err = clSetKernelArg(k, 2, sizeof v, &v);
            break;
        }
        case IRSCOPE_INT64: {
            const cl_long v = i;
            err = clSetKernelArg(k, 2, sizeof v, &v);
            break;
        }
        case IRSCOPE_FLOAT16:
        case IRSCOPE_FLOAT32: {
            const auto v = static_cast<cl_float>(f);
            err = clSetKernelArg(k, 2, sizeof v, &v);
            break;
        }
        case IRSCOPE_FLOAT64: {
            const cl_double v = f;
            err = clSetKernelArg(k, 2, sizeof v, &v);
            break;
        }
        default:
            l.unsupported(std::string("output ") + dtypeName(out.dtype) + ".");
    }
    check(err, "clSetKernelArg");
    dev.run1d(k, out.count());
}

void runFill(ClDevice& dev, Launch& l) {
    const Tensor& out = l.out.at(0);
    if (l.out.size() != 1) {
        l.fail("expected one output.");
    }
    if (l.op == "ZerosLike" || l.op == "OnesLike") {
        l.arity(1);
        if (l.in[0].dtype != out.dtype || l.in[0].count() != out.count()) {
            l.fail("the output must have the input's dtype and shape.");
        }
    } else if (!l.in.empty()) {
        l.fail("takes no tensor input.");
    }
    if (l.op == "Fill") {
        const irscope_param* v = l.param("value");
        if (!v || v->kind == IRSCOPE_PARAM_INTS || v->kind == IRSCOPE_PARAM_STRING) {
            l.fail("the 'value' must be a number or a bool.");
        }
        if (v->kind == IRSCOPE_PARAM_FLOAT) {
            const double f = v->f;
            // Float -> integer/bool as Cast does (truncation; != 0).
            const bool ok = std::isfinite(f) && std::fabs(f) < 9.2e18;
            fillWith(dev, l, out, f, ok ? static_cast<std::int64_t>(f) : 0);
        } else {
            fillWith(dev, l, out, static_cast<double>(v->i), v->i);
        }
        return;
    }
    const bool one = l.op == "Ones" || l.op == "OnesLike";
    fillWith(dev, l, out, one ? 1.0 : 0.0, one ? 1 : 0);
}

void runCopy(ClDevice& dev, Launch& l) {
    l.arity(1);
    const Tensor& x = l.in[0];
    const Tensor& out = l.out[0];
    if (x.dtype != out.dtype || x.count() != out.count()) {
        l.fail("the output must have the input's dtype and element count.");
    }
    const std::uint64_t bytes = x.count() * dtypeSize(x.dtype);
    if (bytes != 0 && x.mem != out.mem) {
        check(clEnqueueCopyBuffer(dev.queue(), x.mem, out.mem, 0, 0, bytes, 0, nullptr, nullptr),
              "clEnqueueCopyBuffer");
    }
}

struct GatherArgs {
    cl_long n;
    cl_long rank;
    cl_long base;  // offset of output element 0 in the input
    cl_long dims[kMaxRank];
    cl_long mod[kMaxRank];
    cl_long str[kMaxRank];
};

std::vector<std::int64_t> stridesOf(const std::vector<std::int64_t>& dims) {
    std::vector<std::int64_t> s(dims.size());
    std::int64_t acc = 1;
    for (std::size_t i = dims.size(); i-- > 0;) {
        s[i] = acc;
        acc *= dims[i];
    }
    return s;
}

void gatherStrided(ClDevice& dev, const Tensor& x, const Tensor& out, const GatherArgs& g);

void runGather(ClDevice& dev, Launch& l) {
    l.arity(1);
    const Tensor& x = l.in[0];
    const Tensor& out = l.out[0];
    if (x.dtype != out.dtype) {
        l.fail("the output must have the input's dtype.");
    }
    const std::size_t rank = out.dims.size();
    if (rank > kMaxRank) {
        l.unsupported("tensors of rank " + std::to_string(rank) + ".");
    }
    GatherArgs g{};
    g.n = static_cast<cl_long>(out.count());
    g.rank = static_cast<cl_long>(rank);
    for (std::size_t d = 0; d < rank; ++d) {
        g.dims[d] = out.dims[d];
        g.mod[d] = std::max<std::int64_t>(out.dims[d], 1);
    }
    const auto xs = stridesOf(x.dims);
    if (l.op == "Transpose") {
        auto perm = l.intsParam("input_perm");
        if (!perm) {
            perm = l.intsParam("perm");
        }
        if (!perm || perm->size() != rank || x.dims.size() != rank) {
            l.fail("the 'input_perm' must list the " + std::to_string(x.dims.size()) +
                   " axes of the input.");
        }
        std::vector<bool> used(rank, false);
        for (std::size_t k = 0; k < rank; ++k) {
            auto p = (*perm)[k];
            p = p < 0 ? p + static_cast<std::int64_t>(rank) : p;
            if (p < 0 || p >= static_cast<std::int64_t>(rank) || used[static_cast<std::size_t>(p)] ||
                x.dims[static_cast<std::size_t>(p)] != out.dims[k]) {
                l.fail("the 'input_perm' " + shapeStr(*perm) + " does not map the shape " +
                       shapeStr(x.dims) + " to " + shapeStr(out.dims) + ".");
            }
            used[static_cast<std::size_t>(p)] = true;
            g.str[k] = xs[static_cast<std::size_t>(p)];
        }
    } else if (l.op == "BroadcastTo") {
        EwArgs a{};
        setBroadcast(l, a, 0, x.dims, out.dims);
        for (std::size_t d = 0; d < rank; ++d) {
            g.str[d] = a.str[0][d];
        }
    } else {  // Tile
        if (x.dims.size() > rank) {
            l.fail("the output rank is below the input's.");
        }
        const std::size_t lead = rank - x.dims.size();
        for (std::size_t d = 0; d < rank; ++d) {
            const std::int64_t in = d < lead ? 1 : x.dims[d - lead];
            if (in == 0 ? out.dims[d] != 0 : out.dims[d] % in != 0) {
                l.fail("the output shape " + shapeStr(out.dims) + " is not a tiling of " +
                       shapeStr(x.dims) + ".");
            }
            g.mod[d] = std::max<std::int64_t>(in, 1);
            g.str[d] = d < lead ? 0 : xs[d - lead];
        }
    }
    gatherStrided(dev, x, out, g);
}

// out[i] = x[base + sum_d (c_d % mod_d) * str_d] over the output's coordinates c.
void gatherStrided(ClDevice& dev, const Tensor& x, const Tensor& out, const GatherArgs& g) {
    static const char* kElem[] = {"uchar", "ushort", "uint", "ulong"};
    const std::size_t sz = dtypeSize(x.dtype);
    const std::string e = kElem[sz == 1 ? 0 : (sz == 2 ? 1 : (sz == 4 ? 2 : 3))];
    const std::string src =
        prelude(dev) +
        "typedef struct { long n; long rank; long base; long dims[8]; long mod[8]; long str[8]; }"
        " ga_t;\n"
        "__kernel void gather(__global const " + e + "* in, __global " + e + "* out, ga_t g) {\n"
        "  FOR_ITEMS(i, g.n) {\n"
        "    long r = i, off = g.base;\n"
        "    for (int d = (int)g.rank - 1; d >= 0; --d) {\n"
        "      long c = r % g.dims[d]; r /= g.dims[d]; off += (c % g.mod[d]) * g.str[d];\n"
        "    }\n"
        "    out[i] = in[off];\n  }\n}\n";
    cl_kernel k = dev.kernel(src, "gather");
    check(clSetKernelArg(k, 0, sizeof(cl_mem), &x.mem), "clSetKernelArg");
    check(clSetKernelArg(k, 1, sizeof(cl_mem), &out.mem), "clSetKernelArg");
    check(clSetKernelArg(k, 2, sizeof g, &g), "clSetKernelArg");
    dev.run1d(k, out.count());
}

void runAddN(ClDevice& dev, Launch& l) {
    if (l.in.empty() || l.out.size() != 1) {
        l.fail("expected at least one tensor input and one output.");
    }
    const Tensor& out = l.out[0];
    for (const Tensor& t : l.in) {
        if (t.dtype != out.dtype || t.dims != out.dims) {
            l.fail("every input must have the output's dtype and shape " + shapeStr(out.dims) +
                   ", but got " + shapeStr(t.dims) + ".");
        }
    }
    if (out.dtype == IRSCOPE_BOOL) {
        l.unsupported("Bool.");
    }
    if (l.in.size() == 1) {
        runCopy(dev, l);
        return;
    }
    const std::string c = computeType(out.dtype);
    const EwOperand ops[] = {{out.dtype, c}, {out.dtype, c}};
    const std::string helper = arithHelper("Add", out.dtype, c);
    const Tensor first[] = {l.in[0], l.in[1]};
    elementwise(dev, l, first, ops, out, helper, "f(v0, v1)");
    for (std::size_t k = 2; k < l.in.size(); ++k) {
        const Tensor next[] = {out, l.in[k]};
        elementwise(dev, l, next, ops, out, helper, "f(v0, v1)");
    }
}

// Concat and Stack: one rectangular copy per input into its slab of the output.
void runJoin(ClDevice& dev, Launch& l) {
    if (l.in.empty() || l.out.size() != 1) {
        l.fail("expected at least one tensor input and one output.");
    }
    const Tensor& out = l.out[0];
    const bool stack = l.op == "Stack";
    const auto rank = static_cast<std::int64_t>(out.dims.size());
    std::int64_t axis = 0;
    if (const auto a = l.intsParam("axis"); a && !a->empty()) {
        axis = a->front();
    }
    if (rank == 0 || axis < -rank || axis >= rank) {
        l.fail("the 'axis' must be in the range [" + std::to_string(-rank) + ", " +
               std::to_string(rank) + "), but got " + std::to_string(axis) + ".");
    }
    axis = axis < 0 ? axis + rank : axis;
    const auto ax = static_cast<std::size_t>(axis);
    const std::size_t esize = dtypeSize(out.dtype);
    std::size_t outer = 1;
    std::size_t inner = esize;
    for (std::size_t d = 0; d < out.dims.size(); ++d) {
        if (d < ax) {
            outer *= static_cast<std::size_t>(out.dims[d]);
        } else if (d > ax) {
            inner *= static_cast<std::size_t>(out.dims[d]);
        }
    }
    std::int64_t offset = 0;
    for (const Tensor& t : l.in) {
        std::vector<std::int64_t> expect = out.dims;
        std::int64_t len = 1;
        if (stack) {
            expect.erase(expect.begin() + axis);
        } else if (t.dims.size() == out.dims.size()) {
            len = t.dims[ax];
            expect[ax] = len;
        }
        if (t.dtype != out.dtype || t.dims != expect || offset + len > out.dims[ax]) {
            l.fail("the inputs do not " + std::string(stack ? "stack" : "concatenate") +
                   " into the output shape " + shapeStr(out.dims) + ": got " + shapeStr(t.dims) +
                   ".");
        }
        const std::size_t row = static_cast<std::size_t>(len) * inner;
        if (row != 0 && outer != 0) {
            const std::size_t src[3] = {0, 0, 0};
            const std::size_t dst[3] = {static_cast<std::size_t>(offset) * inner, 0, 0};
            const std::size_t region[3] = {row, outer, 1};
            check(clEnqueueCopyBufferRect(dev.queue(), t.mem, out.mem, src, dst, region, row, 0,
                                          static_cast<std::size_t>(out.dims[ax]) * inner, 0, 0,
                                          nullptr, nullptr),
                  "clEnqueueCopyBufferRect");
        }
        offset += len;
    }
    if (offset != out.dims[ax]) {
        l.fail("the inputs fill " + std::to_string(offset) + " of the " +
               std::to_string(out.dims[ax]) + " entries along the axis.");
    }
}

// Gather (batch_dims 0): out[o, j, i] = params[o, indices[j], i]. An index out of range
// is reported, as the CPU's IndexError, after a blocking read of a flag the kernel sets.
void runTake(ClDevice& dev, Launch& l) {
    std::vector<Tensor> ins = operands(dev, l, {"input_params", "input_indices"});
    const Tensor& params = ins[0];
    const Tensor& indices = ins[1];
    const Tensor& out = l.out.at(0);
    if (params.dtype != out.dtype ||
        (indices.dtype != IRSCOPE_INT32 && indices.dtype != IRSCOPE_INT64)) {
        l.unsupported(std::string("params ") + dtypeName(params.dtype) + " with indices " +
                      dtypeName(indices.dtype) + ".");
    }
    if (const auto bd = l.intsParam("batch_dims"); bd && !bd->empty() && bd->front() != 0) {
        l.unsupported("'batch_dims' other than 0.");
    }
    const auto rank = static_cast<std::int64_t>(params.dims.size());
    const auto axes = l.intsParam("axis");
    if (!axes || axes->size() != 1) {
        l.fail("the 'axis' must be an int.");
    }
    std::int64_t axis = axes->front();
    if (axis < -rank || axis >= rank) {
        l.fail("the 'axis' must be in the range [" + std::to_string(-rank) + ", " +
               std::to_string(rank) + "), but got " + std::to_string(axis) + ".");
    }
    axis = axis < 0 ? axis + rank : axis;
    cl_long outer = 1, inner = 1;
    for (std::int64_t d = 0; d < rank; ++d) {
        if (d < axis) {
            outer *= params.dims[static_cast<std::size_t>(d)];
        } else if (d > axis) {
            inner *= params.dims[static_cast<std::size_t>(d)];
        }
    }
    const cl_long size = params.dims[static_cast<std::size_t>(axis)];
    const auto n = static_cast<cl_long>(indices.count());
    if (out.count() != static_cast<std::uint64_t>(outer * n * inner)) {
        l.fail("the output shape " + shapeStr(out.dims) + " does not match gathering " +
               shapeStr(indices.dims) + " from " + shapeStr(params.dims) + ".");
    }
    if (out.count() == 0) {
        return;
    }
    static const char* kElem[] = {"uchar", "ushort", "uint", "ulong"};
    const std::size_t sz = dtypeSize(params.dtype);
    const std::string e = kElem[sz == 1 ? 0 : (sz == 2 ? 1 : (sz == 4 ? 2 : 3))];
    const std::string src =
        prelude(dev) + "__kernel void take(__global const " + e + "* p, __global const " +
        clType(indices.dtype) + "* idx, __global " + e +
        "* out, __global long* bad, long outer, long n, long inner, long size) {\n"
        "  FOR_ITEMS(t, outer * n * inner) {\n"
        "    const long i = t % inner, j = (t / inner) % n, o = t / (inner * n);\n"
        "    long v = (long)idx[j];\n"
        "    if (v < -size || v >= size) { bad[0] = 1; bad[1] = v; out[t] = 0; continue; }\n"
        "    if (v < 0) v += size;\n"
        "    out[t] = p[(o * size + v) * inner + i];\n  }\n}\n";
    cl_kernel k = dev.kernel(src, "take");
    const cl_long zero[2] = {0, 0};
    cl_int err = CL_SUCCESS;
    cl_mem bad = clCreateBuffer(dev.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                sizeof zero, const_cast<cl_long*>(zero), &err);
    check(err, "clCreateBuffer");
    l.temporaries.push_back(bad);
    const cl_mem mems[] = {params.mem, indices.mem, out.mem, bad};
    cl_uint arg = 0;
    for (const cl_mem& m : mems) {
        check(clSetKernelArg(k, arg++, sizeof(cl_mem), &m), "clSetKernelArg");
    }
    for (const cl_long v : {outer, n, inner, size}) {
        check(clSetKernelArg(k, arg++, sizeof v, &v), "clSetKernelArg");
    }
    dev.run1d(k, out.count());
    cl_long flag[2] = {0, 0};
    check(clEnqueueReadBuffer(dev.queue(), bad, CL_TRUE, 0, sizeof flag, flag, 0, nullptr,
                              nullptr),
          "clEnqueueReadBuffer");
    if (flag[0] != 0) {
        l.fail("index " + std::to_string(flag[1]) + " is out of bounds for axis " +
               std::to_string(axis) + " with size " + std::to_string(size) + ".");
    }
}

// Assign/AssignAdd/AssignSub(variable, value): the host passes the variable's buffer as
// the output too (a write in place). The value has the variable's element count or one
// element; it is converted to the variable's dtype as Cast does.
void runAssign(ClDevice& dev, Launch& l) {
    const std::vector<Tensor> ins = operands(dev, l, {"variable", "value"});
    const Tensor& var = ins[0];
    const Tensor& value = ins[1];
    const Tensor& out = l.out.at(0);
    if (out.dtype != var.dtype || out.count() != var.count()) {
        l.fail("the output must be the variable (dtype " + std::string(dtypeName(var.dtype)) +
               ", shape " + shapeStr(var.dims) + ").");
    }
    const bool set = l.op == "Assign";
    if (!set && var.dtype == IRSCOPE_BOOL) {
        l.unsupported("Bool.");
    }
    if (value.count() != var.count() && value.count() != 1) {
        l.fail("the shape of 'value' " + shapeStr(value.dims) +
               " must match the variable's " + shapeStr(var.dims) + ".");
    }
    EwArgs a{};
    a.n = static_cast<cl_long>(var.count());
    a.rank = 1;
    a.dims[0] = a.n;
    a.mode[0] = 0;
    a.mode[1] = value.count() == var.count() ? 0 : 1;
    const std::string c = computeType(var.dtype);
    if (set) {
        const EwOperand ops[] = {{value.dtype, computeType(value.dtype)}};
        EwArgs one = a;
        one.mode[0] = a.mode[1];
        runEw(dev, ewSource(dev, ops, out.dtype, "", "v0", one), std::span(&value, 1), out, one);
        return;
    }
    const EwOperand ops[] = {{var.dtype, c}, {value.dtype, c}};
    runEw(dev,
          ewSource(dev, ops, out.dtype, arithHelper(set ? "Add" : l.op.substr(6), out.dtype, c),
                   "f(v0, v1)", a),
          ins, out, a);
}

// StridedSlice with MindSpore's masks (as core/ops/index_ops.cpp plans it): every output
// dim is an input dim walked from a start with a stride, or a new axis of size 1; shrunk
// dims only move the base offset.
void runStridedSlice(ClDevice& dev, Launch& l) {
    l.arity(1);
    const Tensor& x = l.in[0];
    const Tensor& out = l.out[0];
    if (x.dtype != out.dtype) {
        l.fail("the output must have the input's dtype.");
    }
    auto ints = [&](const char* name) {
        auto v = l.intsParam(name);
        if (!v) {
            l.fail(std::string("the '") + name + "' must be given.");
        }
        return *v;
    };
    auto mask = [&](const char* name) {
        const auto v = l.intsParam(name);
        return v && !v->empty() ? v->front() : std::int64_t{0};
    };
    const auto begin = ints("begin");
    const auto end = ints("end");
    const auto strides = ints("strides");
    const std::int64_t mBegin = mask("begin_mask"), mEnd = mask("end_mask"),
                       mEllipsis = mask("ellipsis_mask"), mNew = mask("new_axis_mask"),
                       mShrink = mask("shrink_axis_mask");
    if (begin.size() != end.size() || begin.size() != strides.size()) {
        l.fail("the lengths of 'begin', 'end' and 'strides' must be equal.");
    }
    auto bit = [](std::int64_t m, std::size_t i) { return ((m >> i) & 1) != 0; };
    const auto xs = stridesOf(x.dims);
    const std::size_t rank = x.dims.size();
    std::vector<std::int64_t> outDims, outStep;
    std::int64_t base = 0;
    std::size_t d = 0;
    auto full = [&](std::size_t dim) {
        outDims.push_back(x.dims[dim]);
        outStep.push_back(xs[dim]);
    };
    bool ellipsisSeen = false;
    const std::size_t n = begin.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (bit(mEllipsis, i) && !ellipsisSeen) {
            ellipsisSeen = true;
            std::size_t after = 0;
            for (std::size_t j = i + 1; j < n; ++j) {
                after += bit(mNew, j) ? 0 : 1;
            }
            while (d + after < rank) {
                full(d++);
            }
            continue;
        }
        if (bit(mNew, i)) {
            outDims.push_back(1);
            outStep.push_back(0);
            continue;
        }
        if (d >= rank) {
            l.fail("the 'begin' indexes more dimensions than the input shape " +
                   shapeStr(x.dims) + " has.");
        }
        const std::int64_t size = x.dims[d];
        const std::int64_t stride = strides[i];
        if (stride == 0) {
            l.fail("the 'strides' must not contain 0.");
        }
        if (bit(mShrink, i)) {
            std::int64_t idx = begin[i];
            if (idx < -size || idx >= size) {
                l.fail("index " + std::to_string(idx) + " is out of bounds for dimension " +
                       std::to_string(d) + " with size " + std::to_string(size) + ".");
            }
            base += (idx < 0 ? idx + size : idx) * xs[d];
            ++d;
            continue;
        }
        auto clampIndex = [&](std::int64_t v) {
            v = v < 0 ? v + size : v;
            return stride > 0 ? std::clamp<std::int64_t>(v, 0, size)
                              : std::clamp<std::int64_t>(v, -1, size - 1);
        };
        const std::int64_t start =
            bit(mBegin, i) ? (stride > 0 ? 0 : size - 1) : clampIndex(begin[i]);
        const std::int64_t stop = bit(mEnd, i) ? (stride > 0 ? size : -1) : clampIndex(end[i]);
        const std::int64_t span = stride > 0 ? stop - start : start - stop;
        const std::int64_t step = stride > 0 ? stride : -stride;
        const std::int64_t length = span <= 0 ? 0 : (span + step - 1) / step;
        if (length > 0) {
            base += start * xs[d];
        }
        outDims.push_back(length);
        outStep.push_back(stride * xs[d]);
        ++d;
    }
    while (d < rank) {
        full(d++);
    }
    if (outDims != out.dims) {
        l.fail("the output shape " + shapeStr(out.dims) + " is not the slice's " +
               shapeStr(outDims) + ".");
    }
    if (outDims.size() > kMaxRank) {
        l.unsupported("outputs of rank " + std::to_string(outDims.size()) + ".");
    }
    if (out.count() == 0) {
        return;
    }
    GatherArgs g{};
    g.n = static_cast<cl_long>(out.count());
    g.rank = static_cast<cl_long>(outDims.size());
    g.base = base;
    for (std::size_t k = 0; k < outDims.size(); ++k) {
        g.dims[k] = outDims[k];
        g.mod[k] = std::max<std::int64_t>(outDims[k], 1);
        g.str[k] = outStep[k];
    }
    gatherStrided(dev, x, out, g);
}

// ---- reductions ------------------------------------------------------------------------

struct ReduceArgs {
    cl_long nout;
    cl_long nred;
    cl_long krank;
    cl_long rrank;
    cl_long kdims[kMaxRank];
    cl_long kstr[kMaxRank];
    cl_long rdims[kMaxRank];
    cl_long rstr[kMaxRank];
};

void runReduce(ClDevice& dev, Launch& l) {
    l.arity(1);
    const Tensor& x = l.in[0];
    const Tensor& out = l.out[0];
    const std::string_view r = std::string_view(l.op).substr(6);  // Sum Mean Max Min Prod
    if (x.dtype != out.dtype || (x.dtype == IRSCOPE_BOOL && r != "Max" && r != "Min")) {
        l.unsupported(std::string("input ") + dtypeName(x.dtype) + " with output " +
                      dtypeName(out.dtype) + ".");
    }
    const auto rank = static_cast<std::int64_t>(x.dims.size());
    if (rank > kMaxRank) {
        l.unsupported("tensors of rank " + std::to_string(rank) + ".");
    }
    std::vector<bool> reduced(static_cast<std::size_t>(rank), false);
    const auto axes = l.intsParam("axis");
    if (!axes || axes->empty()) {
        reduced.assign(reduced.size(), true);
    } else {
        for (auto a : *axes) {
            const std::int64_t n = std::max<std::int64_t>(rank, 1);
            if (a < -n || a >= n) {
                l.fail("the 'axis' must be in the range [" + std::to_string(-n) + ", " +
                       std::to_string(n) + "), but got " + std::to_string(a) + ".");
            }
            if (rank > 0) {
                reduced[static_cast<std::size_t>(a < 0 ? a + rank : a)] = true;
            }
        }
    }
    ReduceArgs g{};
    const auto xs = stridesOf(x.dims);
    std::uint64_t nout = 1;
    std::uint64_t nred = 1;
    for (std::size_t d = 0; d < reduced.size(); ++d) {
        if (reduced[d]) {
            g.rdims[g.rrank] = x.dims[d];
            g.rstr[g.rrank++] = xs[d];
            nred *= static_cast<std::uint64_t>(x.dims[d]);
        } else {
            g.kdims[g.krank] = x.dims[d];
            g.kstr[g.krank++] = xs[d];
            nout *= static_cast<std::uint64_t>(x.dims[d]);
        }
    }
    if (nout != out.count()) {
        l.fail("the output shape " + shapeStr(out.dims) + " does not match reducing " +
               shapeStr(x.dims) + " over the 'axis'.");
    }
    if (nred == 0 && nout != 0 && (r == "Max" || r == "Min")) {
        l.fail("cannot reduce an empty axis with no identity, but got shape " + shapeStr(x.dims) +
               ".");
    }
    g.nout = static_cast<cl_long>(nout);
    g.nred = static_cast<cl_long>(nred);
    std::string acc = computeType(x.dtype);
    if (r == "Mean" && !isFloat(x.dtype)) {
        acc = dev.hasFp64() ? "double" : "float";
    }
    std::string init = "0";
    std::string step = "acc = acc + v;";
    std::string fin = "acc";
    if (r == "Prod") {
        init = "1";
        step = "acc = acc * v;";
    } else if (r == "Max") {
        step = "acc = (j == 0 || v > acc) ? v : acc;";
    } else if (r == "Min") {
        step = "acc = (j == 0 || v < acc) ? v : acc;";
    } else if (r == "Mean") {
        fin = "acc / (" + acc + ")g.nred";
    }
    const std::string src =
        prelude(dev) +
        "typedef struct { long nout; long nred; long krank; long rrank; long kdims[8];"
        " long kstr[8]; long rdims[8]; long rstr[8]; } red_t;\n"
        "__kernel void red(__global const " + clType(x.dtype) + "* in, __global " +
        clType(out.dtype) + "* out, red_t g) {\n"
        "  FOR_ITEMS(o, g.nout) {\n"
        "    long r = o, off = 0;\n"
        "    for (int d = (int)g.krank - 1; d >= 0; --d) {\n"
        "      long c = r % g.kdims[d]; r /= g.kdims[d]; off += c * g.kstr[d];\n"
        "    }\n"
        "    long idx[8] = {0, 0, 0, 0, 0, 0, 0, 0};\n"
        "    " + acc + " acc = (" + acc + ")" + init + ";\n"
        "    for (long j = 0; j < g.nred; ++j) {\n"
        "      " + acc + " v = (" + acc + ")(" + loadExpr(x.dtype, "in", "off") + ");\n"
        "      " + step + "\n"
        "      for (int d = (int)g.rrank - 1; d >= 0; --d) {\n"
        "        ++idx[d]; off += g.rstr[d];\n"
        "        if (idx[d] < g.rdims[d]) break;\n"
        "        off -= g.rstr[d] * g.rdims[d]; idx[d] = 0;\n"
        "      }\n"
        "    }\n"
        "    " + storeStmt(out.dtype, "out", "o", fin) + "\n  }\n}\n";
    cl_kernel k = dev.kernel(src, "red");
    check(clSetKernelArg(k, 0, sizeof(cl_mem), &x.mem), "clSetKernelArg");
    check(clSetKernelArg(k, 1, sizeof(cl_mem), &out.mem), "clSetKernelArg");
    check(clSetKernelArg(k, 2, sizeof g, &g), "clSetKernelArg");
    dev.run1d(k, nout);
}

// ---- matmul ----------------------------------------------------------------------------

struct MatMulArgs {
    cl_long M, N, K, brank;
    cl_long xr, xk, yk, yc;
    cl_long bdims[kMaxRank];
    cl_long xb[kMaxRank];
    cl_long yb[kMaxRank];
};

void runMatMul(ClDevice& dev, Launch& l) {
    l.arity(2);
    Tensor x = l.in[0];
    Tensor y = l.in[1];
    Tensor out = l.out[0];
    if (x.dtype != y.dtype || x.dtype != out.dtype || x.dtype == IRSCOPE_BOOL) {
        l.unsupported(std::string("inputs ") + dtypeName(x.dtype) + " and " +
                      dtypeName(y.dtype) + " with output " + dtypeName(out.dtype) + ".");
    }
    const bool ext = l.op == "MatMulExt";  // numpy matmul: 1-D operands promoted
    const bool batch = l.op == "BatchMatMul" || ext;
    if (ext && !x.dims.empty() && !y.dims.empty()) {
        if (x.dims.size() == 1) {
            x.dims.insert(x.dims.begin(), 1);
        }
        if (y.dims.size() == 1) {
            y.dims.push_back(1);
        }
        // The output as BatchMatMul sees it; the promoted axes are dropped from the real one.
        std::vector<std::int64_t> xb(x.dims.begin(), x.dims.end() - 2);
        std::vector<std::int64_t> yb(y.dims.begin(), y.dims.end() - 2);
        if (xb.size() < yb.size()) {
            xb.insert(xb.begin(), yb.size() - xb.size(), 1);
        }
        for (std::size_t d = 0; d < yb.size(); ++d) {
            auto& o = xb[xb.size() - yb.size() + d];
            o = o == 1 ? yb[d] : o;
        }
        xb.push_back(x.dims[x.dims.size() - 2]);
        xb.push_back(y.dims.back());
        Tensor full = out;
        full.dims = xb;
        if (full.count() != out.count()) {
            l.fail("the output shape " + shapeStr(out.dims) + " does not match the inputs " +
                   shapeStr(l.in[0].dims) + " and " + shapeStr(l.in[1].dims) + ".");
        }
        out = full;
    }
    if (x.dims.size() < 2 || y.dims.size() < 2 || out.dims.size() < 2 ||
        (!batch && (x.dims.size() != 2 || y.dims.size() != 2))) {
        l.fail("the inputs must be " + std::string(batch ? "at least 2-D" : "2-D") +
               ", but got shapes " + shapeStr(x.dims) + " and " + shapeStr(y.dims) + ".");
    }
    const bool ta = l.boolParam("transpose_a").value_or(false);
    const bool tb = l.boolParam("transpose_b").value_or(false);
    const std::int64_t xr = x.dims[x.dims.size() - 2], xc = x.dims.back();
    const std::int64_t yr = y.dims[y.dims.size() - 2], yc = y.dims.back();
    const std::int64_t M = ta ? xc : xr, K = ta ? xr : xc;
    const std::int64_t K2 = tb ? yc : yr, N = tb ? yr : yc;
    if (K != K2) {
        l.fail("the input dimensions must be equal, but got 'x1_col': " + std::to_string(K) +
               " and 'x2_row': " + std::to_string(K2) + ".");
    }
    const std::vector<std::int64_t> ob(out.dims.begin(), out.dims.end() - 2);
    if (out.dims[out.dims.size() - 2] != M || out.dims.back() != N || ob.size() > kMaxRank) {
        l.fail("the output shape " + shapeStr(out.dims) + " does not match the inputs " +
               shapeStr(x.dims) + " and " + shapeStr(y.dims) + ".");
    }
    MatMulArgs g{};
    g.M = M;
    g.N = N;
    g.K = K;
    g.brank = static_cast<cl_long>(ob.size());
    g.xr = ta ? 1 : xc;
    g.xk = ta ? xc : 1;
    g.yk = tb ? 1 : yc;
    g.yc = tb ? yc : 1;
    std::int64_t B = 1;
    for (std::size_t d = 0; d < ob.size(); ++d) {
        g.bdims[d] = ob[d];
        B *= ob[d];
    }
    for (int which = 0; which < 2; ++which) {
        const Tensor& t = which == 0 ? x : y;
        const std::vector<std::int64_t> tb2(t.dims.begin(), t.dims.end() - 2);
        EwArgs a{};
        setBroadcast(l, a, 0, tb2, ob);
        const std::int64_t mat = t.dims[t.dims.size() - 2] * t.dims.back();
        for (std::size_t d = 0; d < ob.size(); ++d) {
            (which == 0 ? g.xb : g.yb)[d] = a.str[0][d] * mat;
        }
    }
    const std::string c = computeType(out.dtype);
    // Element access as macros; the kernels are written once for every dtype.
    std::string src = prelude(dev) + "typedef " + clType(out.dtype) + " TX;\ntypedef " + c +
                      " C;\n#define LOADX(i) ((C)(" + loadExpr(out.dtype, "x", "(i)") +
                      "))\n#define LOADY(i) ((C)(" + loadExpr(out.dtype, "y", "(i)") +
                      "))\n#define STOREZ(i, v) " + storeStmt(out.dtype, "z", "(i)", "(v)") + "\n";
    src += R"(
typedef struct { long M, N, K, brank; long xr, xk, yk, yc; long bdims[8]; long xb[8]; long yb[8]; } mm_t;
#define BATCH_OFFSETS(b) long xo = 0, yo = 0, rem = (b); \
  for (int d = (int)g.brank - 1; d >= 0; --d) { \
    long c = rem % g.bdims[d]; rem /= g.bdims[d]; xo += c * g.xb[d]; yo += c * g.yb[d]; }
)";
    std::size_t local[3] = {16, 16, 1};
    std::size_t global[3] = {static_cast<std::size_t>(N), static_cast<std::size_t>(M),
                             static_cast<std::size_t>(B)};
    if (dev.isCpu()) {
        // A CPU: each work item computes an R x W block of outputs, k outermost, so the
        // inner loop runs along a row of y and vectorizes and each loaded y value serves R
        // rows; no local memory or barriers.
        src += R"(
#define R 4
#define W 16
__kernel void mm(__global const TX* x, __global const TX* y, __global TX* z, mm_t g) {
  const long j0 = get_global_id(0) * W, i0 = get_global_id(1) * R, b = get_global_id(2);
  if (i0 >= g.M || j0 >= g.N) return;
  BATCH_OFFSETS(b)
  C acc[R][W];
  for (int r = 0; r < R; ++r) for (int j = 0; j < W; ++j) acc[r][j] = 0;
  const long xrow = xo + i0 * g.xr;
  if (i0 + R <= g.M && j0 + W <= g.N) {
    for (long k = 0; k < g.K; ++k) {
      const long yrow = yo + k * g.yk + j0 * g.yc;
      C bv[W];
      for (int j = 0; j < W; ++j) bv[j] = LOADY(yrow + j * g.yc);
      for (int r = 0; r < R; ++r) {
        const C a = LOADX(xrow + r * g.xr + k * g.xk);
        for (int j = 0; j < W; ++j) acc[r][j] += a * bv[j];
      }
    }
    for (int r = 0; r < R; ++r)
      for (int j = 0; j < W; ++j) STOREZ((b * g.M + i0 + r) * g.N + j0 + j, acc[r][j]);
  } else {
    const int h = (int)min((long)R, g.M - i0), w = (int)min((long)W, g.N - j0);
    for (long k = 0; k < g.K; ++k) {
      const long yrow = yo + k * g.yk + j0 * g.yc;
      for (int r = 0; r < h; ++r) {
        const C a = LOADX(xrow + r * g.xr + k * g.xk);
        for (int j = 0; j < w; ++j) acc[r][j] += a * LOADY(yrow + j * g.yc);
      }
    }
    for (int r = 0; r < h; ++r)
      for (int j = 0; j < w; ++j) STOREZ((b * g.M + i0 + r) * g.N + j0 + j, acc[r][j]);
  }
}
)";
        global[0] = static_cast<std::size_t>((N + 15) / 16);
        global[1] = static_cast<std::size_t>((M + 3) / 4);
        local[0] = 1;
        local[1] = 8;
    } else {
        // Elsewhere: 16x16 tiles through local memory.
        src += R"(
#define TS 16
__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void mm(__global const TX* x, __global const TX* y, __global TX* z, mm_t g) {
  const long col = get_global_id(0), row = get_global_id(1), b = get_global_id(2);
  const int lc = get_local_id(0), lr = get_local_id(1);
  __local C As[TS][TS];
  __local C Bs[TS][TS + 1];
  BATCH_OFFSETS(b)
  C acc = 0;
  for (long k0 = 0; k0 < g.K; k0 += TS) {
    long ka = k0 + lc, kb = k0 + lr;
    As[lr][lc] = (row < g.M && ka < g.K) ? LOADX(xo + row * g.xr + ka * g.xk) : (C)0;
    Bs[lr][lc] = (col < g.N && kb < g.K) ? LOADY(yo + kb * g.yk + col * g.yc) : (C)0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k) acc += As[lr][k] * Bs[k][lc];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < g.M && col < g.N) { STOREZ((b * g.M + row) * g.N + col, acc); }
}
)";
    }
    cl_kernel k = dev.kernel(src, "mm");
    check(clSetKernelArg(k, 0, sizeof(cl_mem), &x.mem), "clSetKernelArg");
    check(clSetKernelArg(k, 1, sizeof(cl_mem), &y.mem), "clSetKernelArg");
    check(clSetKernelArg(k, 2, sizeof(cl_mem), &out.mem), "clSetKernelArg");
    check(clSetKernelArg(k, 3, sizeof g, &g), "clSetKernelArg");
    dev.run3d(k, global, local);
}

// ---- softmax, bias ---------------------------------------------------------------------

void runSoftmax(ClDevice& dev, Launch& l) {
    l.arity(1);
    const Tensor& x = l.in[0];
    const Tensor& out = l.out[0];
    if (!isFloat(x.dtype) || x.dtype != out.dtype || x.dims != out.dims) {
        l.unsupported(std::string("input ") + dtypeName(x.dtype) + " with output " +
                      dtypeName(out.dtype) + ".");
    }
    const auto rank = static_cast<std::int64_t>(x.dims.size());
    const auto axes = l.intsParam("axis").value_or(std::vector<std::int64_t>{-1});
    if (axes.size() != 1) {
        l.fail("the 'axis' must be an int or a tuple of one int.");
    }
    std::int64_t axis = axes[0];
    const std::int64_t n = std::max<std::int64_t>(rank, 1);
    if (axis < -n || axis >= n) {
        l.fail("the 'axis' must be in the range [" + std::to_string(-n) + ", " +
               std::to_string(n) + "), but got " + std::to_string(axis) + ".");
    }
    axis = axis < 0 ? axis + n : axis;
    if (x.count() == 0) {
        return;
    }
    cl_long outer = 1, len = 1, inner = 1;
    for (std::int64_t d = 0; d < rank; ++d) {
        (d < axis ? outer : (d == axis ? len : inner)) *= x.dims[static_cast<std::size_t>(d)];
    }
    const std::string c = computeType(x.dtype);
    const std::string ld = loadExpr(x.dtype, "x", "base + j * inner");
    const std::string src =
        prelude(dev) + "__kernel void softmax(__global const " + clType(x.dtype) +
        "* x, __global " + clType(x.dtype) + "* y, long outer, long n, long inner) {\n" +
        "  FOR_ITEMS(t, outer * inner) {\n" +
        "    long base = (t / inner) * n * inner + t % inner;\n" +
        "    " + c + " m = " + loadExpr(x.dtype, "x", "base") + ";\n" +
        "    for (long j = 1; j < n; ++j) { " + c + " v = " + ld + "; m = v > m ? v : m; }\n" +
        "    " + c + " s = 0;\n" +
        "    for (long j = 0; j < n; ++j) s += exp(" + ld + " - m);\n" +
        "    for (long j = 0; j < n; ++j) { " +
        storeStmt(x.dtype, "y", "base + j * inner", "exp(" + ld + " - m) / s") + " }\n  }\n}\n";
    cl_kernel k = dev.kernel(src, "softmax");
    check(clSetKernelArg(k, 0, sizeof(cl_mem), &x.mem), "clSetKernelArg");
    check(clSetKernelArg(k, 1, sizeof(cl_mem), &out.mem), "clSetKernelArg");
    check(clSetKernelArg(k, 2, sizeof outer, &outer), "clSetKernelArg");
    check(clSetKernelArg(k, 3, sizeof len, &len), "clSetKernelArg");
    check(clSetKernelArg(k, 4, sizeof inner, &inner), "clSetKernelArg");
    dev.run1d(k, static_cast<std::uint64_t>(outer * inner));
}

// LayerNorm over x.shape[begin_norm_axis:], with gamma and beta covering
// x.shape[begin_params_axis:]: one work item per normalized row, in the compute type.
void runLayerNorm(ClDevice& dev, Launch& l) {
    l.arity(3, 3);
    const Tensor& x = l.in[0];
    const Tensor& gamma = l.in[1];
    const Tensor& beta = l.in[2];
    const std::int32_t t = x.dtype;
    const Tensor* all[] = {&gamma, &beta, &l.out[0], &l.out[1], &l.out[2]};
    for (const Tensor* p : all) {
        if (p->dtype != t || !isFloat(t)) {
            l.unsupported(std::string("dtypes other than one float dtype for all, got ") +
                          dtypeName(p->dtype) + ".");
        }
    }
    const auto rank = static_cast<std::int64_t>(x.dims.size());
    auto axisParam = [&](const char* name) {
        const auto v = l.intsParam(name);
        std::int64_t a = v && !v->empty() ? v->front() : 1;
        if (a < -rank || a >= rank) {
            l.fail(std::string("the '") + name + "' must be in the range [" +
                   std::to_string(-rank) + ", " + std::to_string(rank) + "), but got " +
                   std::to_string(a) + ".");
        }
        return static_cast<std::size_t>(a < 0 ? a + rank : a);
    };
    const std::size_t normAxis = axisParam("begin_norm_axis");
    const std::size_t paramsAxis = axisParam("begin_params_axis");
    double eps = 1e-7;
    if (const irscope_param* e = l.param("epsilon")) {
        eps = e->kind == IRSCOPE_PARAM_FLOAT ? e->f : static_cast<double>(e->i);
    }
    // gamma and beta: exactly the trailing dims from begin_params_axis (leading 1s allowed).
    const std::vector<std::int64_t> tail(x.dims.begin() + static_cast<std::ptrdiff_t>(paramsAxis),
                                         x.dims.end());
    for (const Tensor* p : {&gamma, &beta}) {
        std::vector<std::int64_t> d = p->dims;
        while (d.size() > tail.size() && d.front() == 1) {
            d.erase(d.begin());
        }
        if (d != tail) {
            l.fail("the shape of 'gamma' and 'beta' must be " + shapeStr(tail) + ", but got " +
                   shapeStr(p->dims) + ".");
        }
    }
    cl_long outer = 1;
    cl_long inner = 1;
    for (std::size_t d = 0; d < x.dims.size(); ++d) {
        (d < normAxis ? outer : inner) *= x.dims[d];
    }
    if (l.out[0].count() != x.count() || l.out[1].count() != static_cast<std::uint64_t>(outer) ||
        l.out[2].count() != static_cast<std::uint64_t>(outer)) {
        l.fail("the outputs must be x's shape and one statistic per normalized row.");
    }
    if (x.count() == 0) {
        return;
    }
    const cl_long pcount = static_cast<cl_long>(gamma.count());
    const std::string c = computeType(t);
    const auto ld = [&](const char* p, const char* i) { return "(" + c + ")" + loadExpr(t, p, i); };
    const std::string src =
        prelude(dev) + "__kernel void ln(__global const " + clType(t) + "* x, __global const " +
        clType(t) + "* g, __global const " + clType(t) + "* b, __global " + clType(t) +
        "* y, __global " + clType(t) + "* mean, __global " + clType(t) +
        "* var, long outer, long inner, long pcount, " + c + " eps) {\n" +
        "  FOR_ITEMS(r, outer) {\n" +
        "    const long base = r * inner;\n" +
        "    " + c + " s = 0;\n" +
        "    for (long j = 0; j < inner; ++j) s += " + ld("x", "base + j") + ";\n" +
        "    const " + c + " m = s / (" + c + ")inner;\n" +
        "    " + c + " q = 0;\n" +
        "    for (long j = 0; j < inner; ++j) { " + c + " d = " + ld("x", "base + j") +
        " - m; q += d * d; }\n" +
        "    const " + c + " v = q / (" + c + ")inner;\n" +
        "    const " + c + " inv = rsqrt(v + eps);\n" +
        "    for (long j = 0; j < inner; ++j) {\n" +
        "      const long p = (base + j) % pcount;\n" +
        "      " + storeStmt(t, "y", "base + j", "(" + ld("x", "base + j") + " - m) * inv * " +
                             ld("g", "p") + " + " + ld("b", "p")) + "\n" +
        "    }\n" +
        "    " + storeStmt(t, "mean", "r", "m") + "\n" +
        "    " + storeStmt(t, "var", "r", "v") + "\n" +
        "  }\n}\n";
    cl_kernel k = dev.kernel(src, "ln");
    const cl_mem mems[] = {x.mem, gamma.mem, beta.mem, l.out[0].mem, l.out[1].mem, l.out[2].mem};
    cl_uint arg = 0;
    for (const cl_mem& m : mems) {
        check(clSetKernelArg(k, arg++, sizeof(cl_mem), &m), "clSetKernelArg");
    }
    check(clSetKernelArg(k, arg++, sizeof outer, &outer), "clSetKernelArg");
    check(clSetKernelArg(k, arg++, sizeof inner, &inner), "clSetKernelArg");
    check(clSetKernelArg(k, arg++, sizeof pcount, &pcount), "clSetKernelArg");
    if (c == "double") {
        const cl_double e = eps;
        check(clSetKernelArg(k, arg, sizeof e, &e), "clSetKernelArg");
    } else {
        const auto e = static_cast<cl_float>(eps);
        check(clSetKernelArg(k, arg, sizeof e, &e), "clSetKernelArg");
    }
    dev.run1d(k, static_cast<std::uint64_t>(outer));
}

void runBiasAdd(ClDevice& dev, Launch& l) {
    l.arity(2);
    const Tensor& x = l.in[0];
    const Tensor& b = l.in[1];
    const Tensor& out = l.out[0];
    if (x.dtype != b.dtype || x.dtype != out.dtype || x.dtype == IRSCOPE_BOOL) {
        l.unsupported(std::string("inputs ") + dtypeName(x.dtype) + " and " + dtypeName(b.dtype) +
                      ".");
    }
    const irscope_param* fmt = l.param("data_format");
    const bool last = fmt && fmt->kind == IRSCOPE_PARAM_STRING && fmt->str &&
                      std::string_view(fmt->str) == "NHWC";
    if (x.dims.size() < 2 || b.dims.size() != 1 || x.dims != out.dims ||
        x.dims.size() > kMaxRank) {
        l.fail("the rank of 'input_x' must be at least 2 and 'bias' 1-D, but got shapes " +
               shapeStr(x.dims) + " and " + shapeStr(b.dims) + ".");
    }
    const std::size_t ch = last ? x.dims.size() - 1 : 1;
    if (b.dims[0] != x.dims[ch]) {
        l.fail("the length of 'bias' must be equal to the channel dimension of 'input_x' (" +
               std::to_string(x.dims[ch]) + "), but got " + std::to_string(b.dims[0]) + ".");
    }
    EwArgs a{};
    a.n = static_cast<cl_long>(out.count());
    a.rank = static_cast<cl_long>(out.dims.size());
    for (std::size_t d = 0; d < out.dims.size(); ++d) {
        a.dims[d] = out.dims[d];
        a.str[1][d] = d == ch ? 1 : 0;
    }
    a.mode[0] = 0;
    a.mode[1] = 2;
    const std::string c = computeType(out.dtype);
    const EwOperand ops[] = {{x.dtype, c}, {b.dtype, c}};
    const Tensor ins[] = {x, b};
    runEw(dev, ewSource(dev, ops, out.dtype, arithHelper("Add", out.dtype, c), "f(v0, v1)", a),
          ins, out, a);
}

// ---- Conv2D, MaxPool, AvgPool (NCHW) -------------------------------------------------------
// The window rules of core/ops/conv_ops.cpp (pad_mode same/valid/pad, stride, dilation,
// group); one work item per output element, summing over input channel, kernel row, kernel
// column in the CPU kernel's order.

struct ConvWindow {
    cl_long n = 0, c = 0, h = 0, w = 0, kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1;
    cl_long top = 0, left = 0, oh = 0, ow = 0;
};

std::pair<cl_long, cl_long> lastTwo(const Launch& l, const char* name) {
    const auto v = l.intsParam(name);
    if (!v || v->empty()) {
        return {1, 1};
    }
    if (v->size() == 1) {
        return {(*v)[0], (*v)[0]};
    }
    const auto a = (*v)[v->size() - 2];
    const auto b = (*v)[v->size() - 1];
    if (a <= 0 || b <= 0) {
        l.fail(std::string("the '") + name + "' must be positive.");
    }
    return {a, b};
}

ConvWindow convWindow(const Launch& l, const Tensor& x, bool conv) {
    if (x.dims.size() != 4) {
        l.fail("the input 'x' must be a 4-D Tensor (NCHW), but got shape " + shapeStr(x.dims) +
               ".");
    }
    for (const char* name : {"format", "data_format"}) {
        const irscope_param* fmt = l.param(name);
        if (fmt && fmt->kind == IRSCOPE_PARAM_STRING && fmt->str &&
            std::string_view(fmt->str) != "NCHW") {
            l.unsupported(std::string("the ") + fmt->str + " format.");
        }
    }
    ConvWindow w;
    w.n = x.dims[0];
    w.c = x.dims[1];
    w.h = x.dims[2];
    w.w = x.dims[3];
    std::tie(w.kh, w.kw) = lastTwo(l, "kernel_size");
    std::tie(w.sh, w.sw) = lastTwo(l, conv ? "stride" : "strides");
    if (conv) {
        std::tie(w.dh, w.dw) = lastTwo(l, "dilation");
    }
    int mode = 2;  // 0 pad, 1 same, 2 valid
    if (const irscope_param* p = l.param("pad_mode")) {
        if (p->kind == IRSCOPE_PARAM_STRING && p->str) {
            std::string s(p->str);
            std::transform(s.begin(), s.end(), s.begin(),
                           [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
            mode = s == "same" ? 1 : s == "valid" ? 2 : 0;
        } else if (p->kind == IRSCOPE_PARAM_INT) {
            mode = p->i == 1 ? 1 : p->i == 2 ? 2 : 0;
        }
    }
    std::int64_t pads[4] = {0, 0, 0, 0};  // pad_list (MindSpore's infer), else pad
    const auto padList = l.intsParam("pad_list");
    if (const auto p = padList && padList->size() == 4 ? padList : l.intsParam("pad")) {
        if (p->size() == 1) {
            std::fill(std::begin(pads), std::end(pads), (*p)[0]);
        } else if (p->size() == 4) {
            std::copy(p->begin(), p->end(), pads);
        }
    }
    auto spatial = [&](cl_long in, cl_long k, cl_long s, cl_long d, cl_long before, cl_long after,
                       cl_long& out, cl_long& lead) {
        const cl_long span = d * (k - 1) + 1;
        if (mode == 2) {
            out = in >= span ? (in - span) / s + 1 : 0;
            lead = 0;
        } else if (mode == 1) {
            out = (in + s - 1) / s;
            lead = std::max<cl_long>((out - 1) * s + span - in, 0) / 2;
        } else {
            out = in + before + after >= span ? (in + before + after - span) / s + 1 : 0;
            lead = before;
        }
    };
    spatial(w.h, w.kh, w.sh, w.dh, pads[0], pads[1], w.oh, w.top);
    spatial(w.w, w.kw, w.sw, w.dw, pads[2], pads[3], w.ow, w.left);
    return w;
}

void setLongs(cl_kernel k, cl_uint first, std::initializer_list<cl_long> values) {
    cl_uint i = first;
    for (cl_long v : values) {
        check(clSetKernelArg(k, i++, sizeof v, &v), "clSetKernelArg");
    }
}

void runConv(ClDevice& dev, Launch& l) {
    l.arity(2);
    const Tensor& x = l.in[0];
    const Tensor& wt = l.in[1];
    const Tensor& out = l.out[0];
    if (!isFloat(x.dtype) || x.dtype != wt.dtype || x.dtype != out.dtype) {
        l.unsupported(std::string("inputs ") + dtypeName(x.dtype) + " and " + dtypeName(wt.dtype) +
                      ".");
    }
    const ConvWindow w = convWindow(l, x, true);
    cl_long group = 1;
    for (const char* name : {"group", "groups"}) {
        if (const auto g = l.intsParam(name); g && !g->empty() && (*g)[0] > 0) {
            group = (*g)[0];
            break;
        }
    }
    if (wt.dims.size() != 4 || wt.dims[1] * group != w.c || wt.dims[0] % group != 0) {
        l.fail("the 'weight' shape " + shapeStr(wt.dims) +
               " does not fit the input channels of 'x' " + shapeStr(x.dims) + ".");
    }
    const cl_long co = wt.dims[0];
    if (out.dims != std::vector<std::int64_t>{w.n, co, w.oh, w.ow}) {
        l.fail("the output shape " + shapeStr(out.dims) + " does not match the convolution.");
    }
    if (out.count() == 0) {
        return;
    }
    const std::string c = computeType(x.dtype);
    const std::string src =
        prelude(dev) + "__kernel void conv2d(__global const " + clType(x.dtype) +
        "* x, __global const " + clType(x.dtype) + "* wt, __global " + clType(x.dtype) +
        "* y, long C, long H, long W, long CO, long CIG, long KH, long KW, long SH, long SW,"
        " long DH, long DW, long TOP, long LEFT, long OH, long OW, long COG, long total) {\n"
        "  FOR_ITEMS(t, total) {\n"
        "    long ox = t % OW; long oy = (t / OW) % OH; long o = (t / (OW * OH)) % CO;"
        " long n = t / (OW * OH * CO);\n"
        "    long g = o / COG;\n"
        "    " +
        c +
        " sum = 0;\n"
        "    for (long ci = 0; ci < CIG; ++ci) {\n"
        "      long ch = g * CIG + ci;\n"
        "      for (long ky = 0; ky < KH; ++ky) {\n"
        "        long iy = oy * SH - TOP + ky * DH;\n"
        "        if (iy < 0 || iy >= H) continue;\n"
        "        for (long kx = 0; kx < KW; ++kx) {\n"
        "          long ix = ox * SW - LEFT + kx * DW;\n"
        "          if (ix < 0 || ix >= W) continue;\n"
        "          sum += " +
        loadExpr(x.dtype, "x", "((n * C + ch) * H + iy) * W + ix") + " * " +
        loadExpr(x.dtype, "wt", "((o * CIG + ci) * KH + ky) * KW + kx") +
        ";\n"
        "        }\n      }\n    }\n    " +
        storeStmt(x.dtype, "y", "t", "sum") + "\n  }\n}\n";
    cl_kernel k = dev.kernel(src, "conv2d");
    check(clSetKernelArg(k, 0, sizeof(cl_mem), &x.mem), "clSetKernelArg");
    check(clSetKernelArg(k, 1, sizeof(cl_mem), &wt.mem), "clSetKernelArg");
    check(clSetKernelArg(k, 2, sizeof(cl_mem), &out.mem), "clSetKernelArg");
    const cl_long total = static_cast<cl_long>(out.count());
    setLongs(k, 3,
             {w.c, w.h, w.w, co, wt.dims[1], w.kh, w.kw, w.sh, w.sw, w.dh, w.dw, w.top, w.left,
              w.oh, w.ow, co / group, total});
    dev.run1d(k, static_cast<std::uint64_t>(total));
}

void runPool(ClDevice& dev, Launch& l) {
    l.arity(1);
    const Tensor& x = l.in[0];
    const Tensor& out = l.out[0];
    if (!isFloat(x.dtype) || x.dtype != out.dtype) {
        l.unsupported(std::string("input ") + dtypeName(x.dtype) + ".");
    }
    const ConvWindow w = convWindow(l, x, false);
    if (out.dims != std::vector<std::int64_t>{w.n, w.c, w.oh, w.ow}) {
        l.fail("the output shape " + shapeStr(out.dims) + " does not match the pooling.");
    }
    if (out.count() == 0) {
        return;
    }
    const bool max = l.op == "MaxPool";
    const std::string c = computeType(x.dtype);
    const std::string src =
        prelude(dev) + "__kernel void pool2d(__global const " + clType(x.dtype) + "* x, __global " +
        clType(x.dtype) +
        "* y, long H, long W, long KH, long KW, long SH, long SW, long TOP, long LEFT, long OH,"
        " long OW, long total) {\n"
        "  FOR_ITEMS(t, total) {\n"
        "    long ox = t % OW; long oy = (t / OW) % OH; long nc = t / (OW * OH);\n"
        "    " +
        c + " acc = " + (max ? "-INFINITY" : "0") +
        "; long cnt = 0;\n"
        "    for (long ky = 0; ky < KH; ++ky) {\n"
        "      long iy = oy * SH - TOP + ky;\n"
        "      if (iy < 0 || iy >= H) continue;\n"
        "      for (long kx = 0; kx < KW; ++kx) {\n"
        "        long ix = ox * SW - LEFT + kx;\n"
        "        if (ix < 0 || ix >= W) continue;\n"
        "        " +
        c + " v = " + loadExpr(x.dtype, "x", "(nc * H + iy) * W + ix") + ";\n" +
        (max ? "        acc = (v > acc || isnan(v)) ? v : acc;\n" : "        acc += v;\n") +
        "        ++cnt;\n      }\n    }\n    " +
        storeStmt(x.dtype, "y", "t",
                  max ? "acc" : "(cnt > 0 ? acc / (" + c + ")cnt : (" + c + ")0)") +
        "\n  }\n}\n";
    cl_kernel k = dev.kernel(src, "pool2d");
    check(clSetKernelArg(k, 0, sizeof(cl_mem), &x.mem), "clSetKernelArg");
    check(clSetKernelArg(k, 1, sizeof(cl_mem), &out.mem), "clSetKernelArg");
    const cl_long total = static_cast<cl_long>(out.count());
    setLongs(k, 2, {w.h, w.w, w.kh, w.kw, w.sh, w.sw, w.top, w.left, w.oh, w.ow, total});
    dev.run1d(k, static_cast<std::uint64_t>(total));
}

}  // namespace

const std::vector<std::string>& opNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const auto& [name, kind] : table()) {
            v.push_back(name);
        }
        return v;
    }();
    return names;
}

// Whether `op` on float16 gives exactly the CPU's values without cl_khr_fp16. The kernels
// load halves into float and store with round-to-nearest-even, as the CPU kernels compute
// Float16 in Float32 and round: exact for one correctly rounded float operation (+ - * /,
// max/min, comparisons, negation, abs, square, relu), selections, copies, in-place writes
// and casts between float16, float32 and bool. Not for transcendental functions (the
// device's float exp/log/tanh may differ from the CPU's by an ulp), nor for reductions,
// matmuls, AddN and softmax (accumulation order), nor for kernels that move raw halves.
bool halfExactToCpu(Kind kind, std::string_view op, std::span<const std::int32_t> in,
                    std::span<const std::int32_t> out) {
    static const std::set<std::string_view> arith = {"Add", "Sub",     "Mul",    "Div",
                                                     "RealDiv", "Maximum", "Minimum"};
    static const std::set<std::string_view> unary = {"Neg", "Abs", "Square", "ReLU"};
    auto narrowOrBool = [](std::int32_t t) {
        return t == IRSCOPE_FLOAT16 || t == IRSCOPE_FLOAT32 || t == IRSCOPE_BOOL;
    };
    switch (kind) {
        case Kind::Arith:
            return arith.count(op) != 0;
        case Kind::Unary:
            return unary.count(op) != 0;
        case Kind::Compare:
        case Kind::Select:
        case Kind::Copy:
        case Kind::Assign:
            return true;
        case Kind::Cast:
            return std::all_of(in.begin(), in.end(), narrowOrBool) &&
                   std::all_of(out.begin(), out.end(), narrowOrBool);
        default:
            return false;
    }
}

bool supportsOp(const ClDevice& dev, std::string_view op, std::span<const std::int32_t> in,
                std::span<const std::int32_t> out) {
    const auto it = table().find(op);
    if (it == table().end()) {
        return false;
    }
    const auto isHalf = [](std::int32_t t) { return t == IRSCOPE_FLOAT16; };
    if ((std::any_of(in.begin(), in.end(), isHalf) || std::any_of(out.begin(), out.end(), isHalf)) &&
        !halfExactToCpu(it->second, op, in, out)) {
        return false;
    }
    for (const auto t : in) {
        if (!dtypeOk(dev, t)) {
            return false;
        }
    }
    for (const auto t : out) {
        if (!dtypeOk(dev, t)) {
            return false;
        }
    }
    if (it->second == Kind::LayerNorm) {
        return in.size() == 3 && out.size() == 3 && isFloat(in[0]) &&
               std::all_of(in.begin(), in.end(), [&](auto t) { return t == in[0]; }) &&
               std::all_of(out.begin(), out.end(), [&](auto t) { return t == in[0]; });
    }
    if (out.size() != 1) {
        return false;
    }
    const std::int32_t o = out[0];
    switch (it->second) {
        case Kind::Arith:
            if (in.size() == 2) {
                return arithOut(op, in[0], in[1]) == o;
            }
            // One tensor and a Python number: the tensor's dtype, or Float32 from a float
            // on integers (and Div's Float32).
            return in.size() == 1 && (arithOut(op, in[0], in[0]) == o ||
                                      (!isFloat(in[0]) && o == IRSCOPE_FLOAT32));
        case Kind::Compare:
            return (in.size() == 2 || in.size() == 1) && o == IRSCOPE_BOOL;
        case Kind::Logical:
            return (in.size() == 2 || in.size() == 1) && o == IRSCOPE_BOOL &&
                   std::all_of(in.begin(), in.end(), [](auto t) { return t == IRSCOPE_BOOL; });
        case Kind::Unary:
            return in.size() == 1 && unaryOut(op, in[0]) == o;
        case Kind::Cast:
            return in.size() == 1;
        case Kind::Select:
            return (in.size() == 3 && in[0] == IRSCOPE_BOOL && promote(in[1], in[2]) == o) ||
                   (in.size() == 2 && in[0] == IRSCOPE_BOOL);
        case Kind::FillLike:
            return in.size() == 1 && in[0] == o;
        case Kind::Fill:
            return in.empty();
        case Kind::Copy:
        case Kind::Gather:
        case Kind::Slice:
            return in.size() == 1 && in[0] == o;
        case Kind::AddN:
            return !in.empty() && o != IRSCOPE_BOOL &&
                   std::all_of(in.begin(), in.end(), [o](auto t) { return t == o; });
        case Kind::Join:
            return !in.empty() && std::all_of(in.begin(), in.end(), [o](auto t) { return t == o; });
        case Kind::Assign:
            return !in.empty() && in.size() <= 2 && in[0] == o &&
                   (op == "Assign" || o != IRSCOPE_BOOL);
        case Kind::Take:
            return (in.size() == 1 && in[0] == o) ||
                   (in.size() == 2 && in[0] == o &&
                    (in[1] == IRSCOPE_INT32 || in[1] == IRSCOPE_INT64));
        case Kind::Reduce:
            return in.size() == 1 && in[0] == o &&
                   (o != IRSCOPE_BOOL || op == "ReduceMax" || op == "ReduceMin");
        case Kind::MatMul:
        case Kind::BiasAdd:
            return in.size() == 2 && in[0] == o && in[1] == o && o != IRSCOPE_BOOL;
        case Kind::Conv:  // not float16: a sum of products, which the device may contract
            return in.size() == 2 && in[0] == o && in[1] == o &&
                   (o == IRSCOPE_FLOAT32 || o == IRSCOPE_FLOAT64);
        case Kind::Pool:
            return in.size() == 1 && in[0] == o && isFloat(o);
        case Kind::Softmax:
            return in.size() == 1 && in[0] == o && isFloat(o);
        case Kind::LayerNorm:
            return false;  // three outputs: answered above
    }
    return false;
}

void launchOp(ClDevice& dev, const irscope_launch& raw) {
    Launch l;
    l.op = raw.op ? raw.op : "";
    l.raw = &raw;
    const auto it = table().find(l.op);
    if (it == table().end()) {
        throw Unsupported("the OpenCL device has no kernel for '" + l.op + "'");
    }
    auto convert = [&](const irscope_tensor* ts, std::int32_t n, std::vector<Tensor>& to) {
        for (std::int32_t i = 0; i < n; ++i) {
            const irscope_tensor& t = ts[i];
            if (!dtypeOk(dev, t.dtype)) {
                l.unsupported(std::string("data type ") + dtypeName(t.dtype) + ".");
            }
            if (!t.buffer || t.rank < 0 || (t.rank > 0 && !t.dims)) {
                l.fail("tensor " + std::to_string(i) + " has no buffer or shape.");
            }
            Tensor c;
            c.dtype = t.dtype;
            c.dims.assign(t.dims, t.dims + t.rank);
            for (const auto d : c.dims) {
                if (d < 0) {
                    l.fail("the shape " + shapeStr(c.dims) + " is not static.");
                }
            }
            const auto* b = reinterpret_cast<const Buffer*>(t.buffer);
            if (c.count() * dtypeSize(c.dtype) > b->bytes) {
                l.fail("tensor " + std::to_string(i) + " of shape " + shapeStr(c.dims) +
                       " does not fit its buffer of " + std::to_string(b->bytes) + " bytes.");
            }
            c.mem = b->mem;
            to.push_back(std::move(c));
        }
    };
    convert(raw.inputs, raw.num_inputs, l.in);
    convert(raw.outputs, raw.num_outputs, l.out);
    if (l.out.empty()) {
        l.fail("no output tensor given.");
    }
    struct Release {
        Launch& l;
        ~Release() {
            for (cl_mem m : l.temporaries) {
                clReleaseMemObject(m);
            }
        }
    } release{l};
    switch (it->second) {
        case Kind::Arith:
            runArith(dev, l);
            break;
        case Kind::Compare:
            runCompare(dev, l, false);
            break;
        case Kind::Logical:
            runCompare(dev, l, true);
            break;
        case Kind::Unary:
            runUnary(dev, l);
            break;
        case Kind::Cast:
            runCast(dev, l);
            break;
        case Kind::Select:
            runSelect(dev, l);
            break;
        case Kind::FillLike:
        case Kind::Fill:
            runFill(dev, l);
            break;
        case Kind::Copy:
            runCopy(dev, l);
            break;
        case Kind::Gather:
            runGather(dev, l);
            break;
        case Kind::AddN:
            runAddN(dev, l);
            break;
        case Kind::Join:
            runJoin(dev, l);
            break;
        case Kind::Take:
            runTake(dev, l);
            break;
        case Kind::Slice:
            runStridedSlice(dev, l);
            break;
        case Kind::Assign:
            runAssign(dev, l);
            break;
        case Kind::Reduce:
            runReduce(dev, l);
            break;
        case Kind::MatMul:
            runMatMul(dev, l);
            break;
        case Kind::Softmax:
            runSoftmax(dev, l);
            break;
        case Kind::BiasAdd:
            runBiasAdd(dev, l);
            break;
        case Kind::LayerNorm:
            runLayerNorm(dev, l);
            break;
        case Kind::Conv:
            runConv(dev, l);
            break;
        case Kind::Pool:
            runPool(dev, l);
            break;
    }
}

}  // namespace irscope_opencl
