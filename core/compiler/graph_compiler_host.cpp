#include "compiler/graph_compiler_host.h"

#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <type_traits>
#include <variant>

#include "frontend/modules/ms_internal.h"
#include "frontend/modules/ms_objects.h"
#include "runtime/float_format.h"
#include "runtime/tensor_format.h"

namespace irscope::compiler::detail {

using interp::Interpreter;
using interp::Value;

namespace {

bool isTuple(const Value& v) {
    return v.is<interp::TupleObject>();
}
bool isList(const Value& v) {
    return v.is<interp::ListObject>();
}

std::string pointerText(const void* p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%p", p);
    return buf;
}

std::string tensorText(const ir::Tensor& t) {
    return "Tensor[" + std::string(ir::dtypeName(t.dtype())) + "]" + t.shape().toString();
}

Value msModule(Interpreter& I) {
    return Value(I.importModule("mindspore"));
}

}  // namespace

std::string signatureOf(Interpreter& I, const Value& v) {
    if (v.isNone() || v.isNull()) {
        return "None";
    }
    if (v.isBool()) {
        return std::string("Bool=") + (v.asBool() ? "True" : "False");
    }
    if (v.isInt()) {
        return "Int64=" + std::to_string(v.asInt());
    }
    if (v.isFloat()) {
        return "Float32=" + runtime::formatPyFloat(v.asFloat());
    }
    if (const auto* t = modules::asTensor(v)) {
        std::string s = tensorText(t->t);
        if (modules::isParameter(v)) {
            s = "Parameter(" + t->name + ")" + s;
        }
        return s;
    }
    if (const auto* s = v.as<interp::StrObject>()) {
        return "String='" + s->value + "'";
    }
    if (isTuple(v) || isList(v)) {
        std::string out = isTuple(v) ? "(" : "[";
        const std::vector<Value> items = I.toVector(v);
        for (std::size_t i = 0; i < items.size(); ++i) {
            out += (i ? ", " : "") + signatureOf(I, items[i]);
        }
        return out + (isTuple(v) ? ")" : "]");
    }
    // Cells, functions, jit_class instances...: the same object compiles the same way.
    return "<" + I.typeName(v) + " at " + pointerText(v.obj()) + ">";
}

void identityObjects(Interpreter& I, const Value& v, std::vector<Value>& out) {
    if (!v.isObj() || modules::asTensor(v) != nullptr || v.is<interp::StrObject>()) {
        return;
    }
    if (isTuple(v) || isList(v)) {
        for (const Value& e : I.toVector(v)) {
            identityObjects(I, e, out);
        }
        return;
    }
    out.push_back(v);
}

ir::AbstractPtr abstractOf(Interpreter& I, const Value& v) {
    if (v.isNone() || v.isNull()) {
        return ir::Abstract::noneAbs();
    }
    if (v.isBool()) {
        return ir::Abstract::withValue(ir::Abstract::scalar(ir::DType::Bool),
                                       ir::Value::boolean(v.asBool()));
    }
    if (v.isInt()) {
        return ir::Abstract::withValue(ir::Abstract::scalar(ir::DType::Int64),
                                       ir::Value::integer(v.asInt()));
    }
    if (v.isFloat()) {
        return ir::Abstract::withValue(ir::Abstract::scalar(ir::DType::Float32),
                                       ir::Value::floating(v.asFloat()));
    }
    if (const auto* t = modules::asTensor(v)) {
        if (modules::isParameter(v)) {
            return ir::Abstract::ref(t->t.dtype(), t->t.shape(), ":" + t->name);
        }
        return ir::Abstract::tensor(t->t.dtype(), t->t.shape());
    }
    if (const auto* s = v.as<interp::StrObject>()) {
        return ir::Abstract::withValue(ir::Abstract::scalar(ir::DType::String),
                                       ir::Value::string(s->value));
    }
    if (isTuple(v) || isList(v)) {
        std::vector<ir::AbstractPtr> elems;
        std::vector<ir::ValuePtr> values;
        bool known = true;
        for (const Value& e : I.toVector(v)) {
            elems.push_back(abstractOf(I, e));
            known = known && elems.back()->value != nullptr;
            values.push_back(elems.back()->value);
        }
        ir::AbstractPtr a = isTuple(v) ? ir::Abstract::tuple(std::move(elems))
                                       : ir::Abstract::list(std::move(elems));
        if (known) {
            a = ir::Abstract::withValue(a, isTuple(v) ? ir::Value::tuple(std::move(values))
                                                      : ir::Value::list(std::move(values)));
        }
        return a;
    }
    throw passes::CompileError("TypeError", "The graph input of type '" + I.typeName(v) +
                                                "' is not supported: pass Tensors, numbers, "
                                                "strings, None, or tuples/lists of them.");
}

const ir::Tensor* tensorStorage(const Value& v) {
    const auto* t = modules::asTensor(v);
    return t != nullptr ? &t->t : nullptr;
}

bool holdsTensor(Interpreter& I, const Value& v) {
    if (modules::asTensor(v) != nullptr) {
        return true;
    }
    if (isTuple(v) || isList(v)) {
        for (const Value& e : I.toVector(v)) {
            if (holdsTensor(I, e)) {
                return true;
            }
        }
    }
    return false;
}

ops::KernelArg kernelArgOf(Interpreter& I, const Value& v) {
    if (const auto* t = modules::asTensor(v)) {
        return ops::KernelArg(t->t);
    }
    if (isTuple(v) || isList(v)) {
        std::vector<ops::KernelArg> elems;
        bool anyTensor = false;
        std::vector<ir::ValuePtr> values;
        for (const Value& e : I.toVector(v)) {
            elems.push_back(kernelArgOf(I, e));
            anyTensor = anyTensor || !elems.back().isValue();
            values.push_back(elems.back().isValue() ? elems.back().value() : nullptr);
        }
        if (anyTensor) {
            return ops::KernelArg::tuple(std::move(elems));
        }
        return ops::KernelArg(isTuple(v) ? ir::Value::tuple(std::move(values))
                                         : ir::Value::list(std::move(values)));
    }
    const ir::AbstractPtr a = abstractOf(I, v);
    return ops::KernelArg(a->value ? a->value : ir::Value::none());
}

Value hostValueOf(Interpreter& I, const ops::KernelArg& a, const ir::AbstractPtr& abs) {
    auto element = [&](std::size_t i) -> ir::AbstractPtr {
        const bool seq = abs && (abs->kind == ir::Abstract::Kind::Tuple ||
                                 abs->kind == ir::Abstract::Kind::List);
        return seq && i < abs->elements.size() ? abs->elements[i] : nullptr;
    };
    const bool list = abs && abs->kind == ir::Abstract::Kind::List;
    if (a.isTensor()) {
        Value cls = I.getAttr(msModule(I), "Tensor");
        auto* type = cls.as<interp::Type>();
        if (type == nullptr) {
            throw interp::PyError(interp::Exc::RuntimeError,
                                  "irscope: mindspore.Tensor is missing");
        }
        interp::Ref<modules::TensorObject> o = I.make<modules::TensorObject>(type);
        o->t = a.tensor();
        return Value(o);
    }
    if (a.isTuple()) {
        std::vector<Value> items;
        for (std::size_t i = 0; i < a.elements().size(); ++i) {
            items.push_back(hostValueOf(I, a.elements()[i], element(i)));
        }
        if (list) {
            return Value(I.newList(std::move(items)));
        }
        return Value(I.newTuple(std::move(items)));
    }
    if (!a.isValue() || !a.value()) {
        return Value::none();
    }
    const ir::Value& v = *a.value();
    switch (v.kind) {
        case ir::Value::Kind::Bool:
            return Value::boolean(v.b);
        case ir::Value::Kind::Int:
            return Value::integer(v.i);
        case ir::Value::Kind::Float:
            return Value::real(v.f);
        case ir::Value::Kind::String:
            return Value(I.newStr(v.text));
        case ir::Value::Kind::Tensor:
            return hostValueOf(I, ops::kernelArgFromValue(a.value()), nullptr);
        case ir::Value::Kind::Tuple:
        case ir::Value::Kind::List: {
            std::vector<Value> items;
            for (std::size_t i = 0; i < v.elements.size(); ++i) {
                items.push_back(hostValueOf(I, ops::KernelArg(v.elements[i]), element(i)));
            }
            if (v.kind == ir::Value::Kind::List || list) {
                return Value(I.newList(std::move(items)));
            }
            return Value(I.newTuple(std::move(items)));
        }
        case ir::Value::Kind::Type: {
            std::string name = runtime::numpyDTypeName(v.dtype);
            return I.getAttr(msModule(I), name == "bool" ? "bool_" : name);
        }
        default:
            return Value::none();
    }
}

passes::Settings compileSettings(const modules::MsContext* ctx, const passes::Settings& overrides,
                                 bool readEnvironment) {
    passes::Settings s;
    if (readEnvironment) {
        for (std::string_view key :
             {passes::kSideEffectLoadElim, passes::kCellReuse, passes::kSaveGraphs,
              passes::kSaveGraphsPath, passes::kDumpIrPasses}) {
            if (const char* v = std::getenv(std::string(key).c_str())) {
                s.set(std::string(key), std::string(v));
            }
        }
    }
    if (ctx != nullptr) {
        for (const auto& [name, value] : ctx->settings) {
            std::string key;
            if (name == "save_graphs") {
                key = passes::kSaveGraphs;
            } else if (name == "save_graphs_path") {
                key = passes::kSaveGraphsPath;
            } else {
                continue;
            }
            std::visit(
                [&](const auto& x) {
                    using T = std::decay_t<decltype(x)>;
                    if constexpr (std::is_same_v<T, std::string>) {
                        s.set(key, x);
                    } else if constexpr (std::is_same_v<T, double>) {
                        s.set(key, static_cast<std::int64_t>(x));
                    } else {
                        s.set(key, static_cast<std::int64_t>(x));
                    }
                },
                value);
        }
    }
    for (const auto& [key, value] : overrides.items()) {
        std::visit([&, k = key](const auto& x) { s.set(k, x); }, value);
    }
    return s;
}

namespace {

interp::Exc excByName(const std::string& name) {
    for (int i = 0; i < static_cast<int>(interp::Exc::Count); ++i) {
        const auto e = static_cast<interp::Exc>(i);
        if (name == interp::excName(e)) {
            return e;
        }
    }
    return interp::Exc::RuntimeError;
}

// MindSpore's block under a compile error: where in the construct code it happened.
std::string constructTraceback(const ir::SourceLocation& w) {
    if (w.line <= 0) {
        return {};
    }
    std::string out =
        "\n\n----------------------------------------------------\n"
        "- The Traceback of Net Construct Code:\n"
        "----------------------------------------------------\n"
        "# 0 In file " +
        w.file + ":" + std::to_string(w.line);
    if (w.col >= 0) {
        out += ", " + std::to_string(w.col) + "~" + std::to_string(w.colEnd);
    }
    out += "\n";
    if (!w.text.empty()) {
        out += w.text + "\n";
        if (w.col >= 0 && w.colEnd > w.col && static_cast<std::size_t>(w.col) < w.text.size()) {
            out += std::string(static_cast<std::size_t>(w.col), ' ') + "^" +
                   std::string(static_cast<std::size_t>(w.colEnd - w.col - 1), '~') + "\n";
        }
    }
    while (!out.empty() && out.back() == '\n') {
        out.pop_back();
    }
    return out;
}

}  // namespace

void raiseSourceError(Interpreter& I, const ir::SourceError& e, const std::string& function) {
    const interp::Exc type = excByName(e.pyType());
    std::string message = e.message() + constructTraceback(e.where());
    if (type == interp::Exc::RuntimeError && e.pyType() != "RuntimeError") {
        message = e.pyType() + ": " + message;  // a type the interpreter does not have
    }
    interp::Ref<interp::ExceptionObject> exc =
        I.newException(I.types().exception(type), std::move(message));
    const interp::Location here = I.currentLocation();
    if (e.where().line > 0 && here.unit && here.unit->fileName() == e.where().file) {
        exc->traceback.push_back({here.unit, e.where().line, function, 0});
    }
    throw interp::PyError(Value(exc));
}

// "out = net(x) at net.py:12": the host line that made the call.
std::string triggerText(Interpreter& I) {
    const interp::Location here = I.currentLocation();
    if (!here.unit || here.line <= 0) {
        return {};
    }
    std::string_view text = here.unit->module->line(here.line);
    const auto b = text.find_first_not_of(" \t");
    const auto e = text.find_last_not_of(" \t\r\n");
    std::string line =
        b == std::string_view::npos ? std::string() : std::string(text.substr(b, e - b + 1));
    return line + " at " + here.unit->fileName() + ":" + std::to_string(here.line);
}

store::CompileCacheConfig compileCacheConfig(const modules::MsContext* ctx, bool readEnvironment) {
    store::CompileCacheConfig c;
    if (readEnvironment) {
        if (const char* v = std::getenv("MS_COMPILER_CACHE_ENABLE")) {
            c.enabled = std::string_view(v) == "1";  // MindSpore enables it with "1" only
        }
        if (const char* v = std::getenv("MS_COMPILER_CACHE_PATH")) {
            c.path = v;
        }
    }
    if (ctx != nullptr) {
        if (auto it = ctx->settings.find("enable_compile_cache"); it != ctx->settings.end()) {
            if (const auto* b = std::get_if<bool>(&it->second)) {
                c.enabled = *b;
            } else if (const auto* i = std::get_if<std::int64_t>(&it->second)) {
                c.enabled = *i != 0;
            }
        }
        if (auto it = ctx->settings.find("compile_cache_path"); it != ctx->settings.end()) {
            if (const auto* s = std::get_if<std::string>(&it->second)) {
                c.path = *s;
            }
        }
    }
    return c;
}

}  // namespace irscope::compiler::detail
