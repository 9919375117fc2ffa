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

// Python's text of a tuple or list of `n` elements ("(a, b)", "[a, b]", "(a,)"), element i
// given by part(i, budget): once the text is past `limit`, the elements left are not asked
// for and the text so far (a prefix of the whole) is returned; `budget` is what the limit
// leaves for the element.
template <typename Part>
std::string joinSequence(std::size_t n, bool list, std::size_t limit, const Part& part) {
    std::string out = list ? "[" : "(";
    for (std::size_t i = 0; i < n; ++i) {
        if (out.size() > limit) {
            return out;
        }
        out += i ? ", " : "";
        out += part(i, limit > out.size() ? limit - out.size() : 0);
    }
    if (!list && n == 1) {
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
            return joinSequence(v.elements.size(), v.kind == K::List, std::string::npos,
                                [&v](std::size_t i, std::size_t) {
                                    return v.elements[i] ? elementText(*v.elements[i]) : "None";
                                });
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
        const auto& elements = a.elements();
        return joinSequence(elements.size(), false, limit,
                            [&elements](std::size_t i, std::size_t budget) {
                                const ops::KernelArg& e = elements[i];
                                return e.isValue() && e.value() ? elementText(*e.value())
                                                                : formatPrintInputPrefix(e, budget);
                            });
    }
    return "None";
}

}  // namespace irscope::runtime
