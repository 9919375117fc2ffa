#include <stdexcept>

#include "ir/prim_names.h"
#include "passes/autodiff.h"

namespace irscope::passes::autodiff {

using ir::Value;

bool isGradPrimitive(std::string_view name) {
    return name == ir::prim::kGradOperation || name == "grad" || name == "value_and_grad";
}

std::optional<GradSpec> GradSpec::of(const ir::PrimitiveData& p, bool hasWeights) {
    if (!isGradPrimitive(p.name)) {
        return std::nullopt;
    }
    GradSpec s;
    s.name = p.name;
    s.hasWeights = hasWeights;
    auto flag = [&](std::string_view key) {
        const ir::ValuePtr v = p.attrs.get(key);
        return v && v->kind == Value::Kind::Bool && v->b;
    };
    if (p.name == ir::prim::kGradOperation) {
        s.kind = Kind::GradOperation;
        s.getAll = flag("get_all");
        s.getByList = flag("get_by_list");
        s.sensParam = flag("sens_param");
        return s;
    }
    s.kind = p.name == "grad" ? Kind::Grad : Kind::ValueAndGrad;
    s.hasAux = flag("has_aux");
    const ir::ValuePtr pos = p.attrs.get("grad_position");
    if (!pos) {
        s.positions = std::vector<std::int64_t>{0};
    } else if (pos->kind == Value::Kind::Int) {
        s.positions = std::vector<std::int64_t>{pos->i};
    } else if (pos->kind == Value::Kind::Tuple || pos->kind == Value::Kind::List) {
        s.positions.emplace();
        s.positionTuple = true;
        for (const ir::ValuePtr& e : pos->elements) {
            s.positions->push_back(e->i);
        }
    }
    return s;
}

GradLayout layoutOf(const GradSpec& spec, std::size_t inputCount) {
    GradLayout l;
    const auto n = static_cast<std::int64_t>(inputCount);
    if (spec.kind == GradSpec::Kind::GradOperation) {
        l.withWeights = spec.getByList;
        l.withInputs = spec.getAll || !spec.getByList;
        l.inputsTuple = spec.getAll;
        if (l.withInputs && !spec.getAll && inputCount == 0) {
            throw std::invalid_argument(
                "For 'GradOperation', the function to differentiate has no input, so the gradient "
                "of "
                "its first input cannot be taken (use get_by_list for the weights).");
        }
        for (std::size_t i = 0; l.withInputs && i < (spec.getAll ? inputCount : 1); ++i) {
            l.inputs.push_back(i);
        }
        return l;
    }
    l.withWeights = spec.hasWeights;
    l.withInputs = spec.positions.has_value();
    l.inputsTuple = spec.positionTuple;
    if (spec.positions) {
        for (std::int64_t p : *spec.positions) {
            if (p < -n || p >= n) {
                throw std::invalid_argument("For '" + spec.name +
                                            "', the 'grad_position' must be in [" +
                                            std::to_string(-n) + ", " + std::to_string(n) +
                                            "), but got " + std::to_string(p) + ".");
            }
            l.inputs.push_back(static_cast<std::size_t>(p < 0 ? p + n : p));
        }
    }
    return l;
}

}  // namespace irscope::passes::autodiff
