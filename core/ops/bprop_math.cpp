// Bprop rules of the arithmetic primitives: Add Sub Mul Div RealDiv Neg Square Sqrt Exp
// Log Pow Maximum Minimum AddN Select, and the comparisons (no gradient).
#include "ops/bprop.h"
#include "ops/infer_util.h"

namespace irscope::ops {

using ir::Node;

namespace {

ir::DType dtypeOf(const Node* n) {
    return n->abstract()->dtype;
}

void bpropAdd(BpropContext& c) {
    for (std::size_t i = 0; i < 2; ++i) {
        if (c.needsGrad(i)) {
            c.setGradReduced(i, c.dout());
        }
    }
}

void bpropSub(BpropContext& c) {
    if (c.needsGrad(0)) {
        c.setGradReduced(0, c.dout());
    }
    if (c.needsGrad(1)) {
        c.setGradReduced(1, c.emit("Neg", {c.dout()}));
    }
}

void bpropMul(BpropContext& c) {
    if (c.needsGrad(0)) {
        c.setGradReduced(0, c.emit("Mul", {c.dout(), c.input(1)}));
    }
    if (c.needsGrad(1)) {
        c.setGradReduced(1, c.emit("Mul", {c.input(0), c.dout()}));
    }
}

// out = x / y: dx = dout / y, dy = -dx * out.
void bpropDiv(BpropContext& c) {
    Node* dx = c.emit("RealDiv", {c.dout(), c.input(1)});
    if (c.needsGrad(0)) {
        c.setGradReduced(0, dx);
    }
    if (c.needsGrad(1)) {
        c.setGradReduced(1, c.emit("Neg", {c.emit("Mul", {dx, c.out()})}));
    }
}

void bpropNeg(BpropContext& c) {
    c.setGrad(0, c.emit("Neg", {c.dout()}));
}

void bpropSquare(BpropContext& c) {
    Node* twoX = c.emit("Mul", {c.input(0), c.scalar(dtypeOf(c.input(0)), 2.0)});
    c.setGrad(0, c.emit("Mul", {c.dout(), twoX}));
}

// out = sqrt(x): dx = dout * 0.5 / out.
void bpropSqrt(BpropContext& c) {
    Node* half = c.emit("Mul", {c.dout(), c.scalar(dtypeOf(c.dout()), 0.5)});
    c.setGrad(0, c.emit("RealDiv", {half, c.out()}));
}

void bpropExp(BpropContext& c) {
    c.setGrad(0, c.emit("Mul", {c.dout(), c.out()}));
}

void bpropLog(BpropContext& c) {
    c.setGrad(0, c.emit("RealDiv", {c.dout(), c.input(0)}));
}

// out = x ** y: dx = dout * y * x ** (y - 1), dy = dout * out * log(x).
void bpropPow(BpropContext& c) {
    Node* x = c.input(0);
    Node* y = c.input(1);
    if (c.needsGrad(0)) {
        Node* ym1 = c.emit("Sub", {y, c.scalar(dtypeOf(y), 1.0)});
        Node* d = c.emit("Mul", {y, c.emit("Pow", {x, ym1})});
        c.setGradReduced(0, c.emit("Mul", {c.dout(), d}));
    }
    if (c.needsGrad(1)) {
        Node* d = c.emit("Mul", {c.out(), c.emit("Log", {x})});
        c.setGradReduced(1, c.emit("Mul", {c.dout(), d}));
    }
}

// Maximum: x gets dout where x >= y, y where x < y (Minimum: x <= y, x > y).
void bpropMinMax(BpropContext& c, bool max) {
    const ir::DType t = dtypeOf(c.dout());
    if (c.needsGrad(0)) {
        Node* m = c.mask(c.emit(max ? "GreaterEqual" : "LessEqual", {c.input(0), c.input(1)}), t);
        c.setGradReduced(0, c.emit("Mul", {c.dout(), m}));
    }
    if (c.needsGrad(1)) {
        Node* m = c.mask(c.emit(max ? "Less" : "Greater", {c.input(0), c.input(1)}), t);
        c.setGradReduced(1, c.emit("Mul", {c.dout(), m}));
    }
}

// AddN(MakeTuple(a, b, ...)): every element gets dout.
void bpropAddN(BpropContext& c) {
    const ir::AbstractPtr& a = c.absOf(0);
    c.setGradElements(0, std::vector<Node*>(a->elements.size(), c.dout()));
}

// Select(cond, x, y): x gets dout where cond, y elsewhere.
void bpropSelect(BpropContext& c) {
    Node* zeros = c.zerosLike(c.out()->abstract());
    if (c.needsGrad(1)) {
        c.setGradReduced(1, c.emit("Select", {c.input(0), c.dout(), zeros}));
    }
    if (c.needsGrad(2)) {
        c.setGradReduced(2, c.emit("Select", {c.input(0), zeros, c.dout()}));
    }
}

// out = x mod y (floored): dx = dout, dy = -dout * floor(x / y).
void bpropFloorMod(BpropContext& c) {
    if (c.needsGrad(0)) {
        c.setGradReduced(0, c.dout());
    }
    if (c.needsGrad(1)) {
        Node* q = c.emit("FloorDiv", {c.input(0), c.input(1)});
        c.setGradReduced(1, c.emit("Neg", {c.emit("Mul", {c.dout(), q})}));
    }
}

// out = fmod(x, y) = x - trunc(x / y) * y: dx = dout, dy = -dout * trunc(x / y), with the
// quotient read back exactly as (x - out) / y.
void bpropMod(BpropContext& c) {
    if (c.needsGrad(0)) {
        c.setGradReduced(0, c.dout());
    }
    if (c.needsGrad(1)) {
        Node* q = c.emit("RealDiv", {c.emit("Sub", {c.input(0), c.out()}), c.input(1)});
        c.setGradReduced(1, c.emit("Neg", {c.emit("Mul", {c.dout(), q})}));
    }
}

void noGradient(BpropContext&) {}

}  // namespace

void registerMathBprops(OpRegistry& reg) {
    setBprop(reg, "Add", bpropAdd);
    setBprop(reg, "Sub", bpropSub);
    setBprop(reg, "Mul", bpropMul);
    setBprop(reg, "Div", bpropDiv);
    setBprop(reg, "RealDiv", bpropDiv);
    setBprop(reg, "Neg", bpropNeg);
    setBprop(reg, "Square", bpropSquare);
    setBprop(reg, "Sqrt", bpropSqrt);
    setBprop(reg, "Exp", bpropExp);
    setBprop(reg, "Log", bpropLog);
    setBprop(reg, "Pow", bpropPow);
    setBprop(reg, "Maximum", [](BpropContext& c) { bpropMinMax(c, true); });
    setBprop(reg, "Minimum", [](BpropContext& c) { bpropMinMax(c, false); });
    setBprop(reg, "AddN", bpropAddN);
    setBprop(reg, "Select", bpropSelect);
    setBprop(reg, "FloorMod", bpropFloorMod);
    setBprop(reg, "Mod", bpropMod);
    // Comparisons, logic, constant producers, Python-scalar arithmetic and status flags: their
    // output carries no gradient.
    for (const char* name : {"Less",
                             "LessEqual",
                             "Greater",
                             "GreaterEqual",
                             "Equal",
                             "NotEqual",
                             "LogicalAnd",
                             "LogicalOr",
                             "LogicalXor",
                             "LogicalNot",
                             "BoolNot",
                             "OnesLike",
                             "ZerosLike",
                             "Ones",
                             "Zeros",
                             "Fill",
                             "FloorDiv",
                             "ScalarAdd",
                             "ScalarSub",
                             "ScalarMul",
                             "ScalarDiv",
                             "ScalarFloorDiv",
                             "ScalarMod",
                             "ScalarPow",
                             "ScalarEq",
                             "ScalarNe",
                             "ScalarLt",
                             "ScalarLe",
                             "ScalarGt",
                             "ScalarGe",
                             "ScalarUsub",
                             "NPUAllocFloatStatus",
                             "NPUGetFloatStatus",
                             "NPUClearFloatStatus"}) {
        setBprop(reg, name, noGradient);
    }
}

}  // namespace irscope::ops
