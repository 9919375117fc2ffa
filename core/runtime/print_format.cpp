#include "runtime/print_format.h"

#include "ir/ir_text.h"
#include "runtime/float_format.h"
#include "runtime/tensor_format.h"

namespace irscope::runtime {

namespace {

// repr() of an element inside a printed tuple: strings quoted as Python does.
std::string elementText(const ir::Value& v) {
    if (v.kind == ir::Value::Kind::String) {
        return "'" + v.text + "'";
    }
    return formatPrintValue(v);
}

std::string joinTuple(const std::vector<std::string>& parts, bool list) {
    std::string out = list ? "[" : "(";
    for (std::size_t i = 0; i < parts.size(); ++i) {
        out += (i ? ", " : "") + parts[i];
    }
    if (!list && parts.size() == 1) {
        out += ",";
    }
    return out + (list ? "]" : ")");
}

}  // namespace

std::string formatPrintValue(const ir::Value& v) {
    using K = ir::Value::Kind;
    switch (v.kind) {
        case K::None:
            return "None";
        case K::Bool:
            return v.b ? "True" : "False";
        case K::Int:
            return std::to_string(v.i);
        case K::Float:
            // A Python float in the graph is MindSpore's FP32Imm: the shortest text that
            // identifies it as a float32 ("0.1", "1.5", "3.0").
            return formatNumpyFloatScalar(v.f, FloatKind::Float);
        case K::String:
            return v.text;
        case K::Tensor:
            if (v.tensor && v.tensor->hasData()) {
                return formatGraphPrint(Tensor::fromValueData(*v.tensor));
            }
            return "Tensor(shape=" + formatShapeList(v.tensor ? v.tensor->shape : Shape{}) +
                   ", value=...)";
        case K::Tuple:
        case K::List: {
            std::vector<std::string> parts;
            for (const auto& e : v.elements) {
                parts.push_back(e ? elementText(*e) : "None");
            }
            return joinTuple(parts, v.kind == K::List);
        }
        case K::Type:
            return std::string(ir::dtypeName(v.dtype));
        case K::Monad:
            return "";
        default:
            return ir::formatValue(v);
    }
}

bool isPrintSkipped(const ops::KernelArg& a) {
    return a.isValue() && a.value() && a.value()->kind == ir::Value::Kind::Monad;
}

std::string formatPrintInput(const ops::KernelArg& a) {
    return formatPrintInputPrefix(a, std::string::npos);
}

std::string formatPrintInputPrefix(const ops::KernelArg& a, std::size_t limit) {
    if (a.isTensor()) {
        return formatGraphPrint(a.tensor());
    }
    if (a.isValue()) {
        return a.value() ? formatPrintValue(*a.value()) : "None";
    }
    if (a.isTuple()) {
        // joinTuple's text, element by element, stopping once past the limit.
        std::string out = "(";
        const auto& elements = a.elements();
        for (std::size_t i = 0; i < elements.size(); ++i) {
            if (out.size() > limit) {
                return out;
            }
            const ops::KernelArg& e = elements[i];
            out += i ? ", " : "";
            out += e.isValue() && e.value()
                       ? elementText(*e.value())
                       : formatPrintInputPrefix(e, limit > out.size() ? limit - out.size() : 0);
        }
        return out + (elements.size() == 1 ? ",)" : ")");
    }
    return "None";
}

}  // namespace irscope::runtime
