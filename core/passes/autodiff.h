// Automatic differentiation: what `GradOperation{get_all, get_by_list, sens_param}`,
// `grad{grad_position, has_aux}` and `value_and_grad{...}` (the primitives symbol_resolve
// makes of MindSpore's GradOperation, ops.grad and ops.value_and_grad) ask for, and how the
// gradients are arranged in their result. Shared by type_inference (the result's abstract)
// and meta_fg_expand (the result's nodes), so both agree on the layout.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/value.h"

namespace irscope::passes::autodiff {

// "GradOperation", "grad", "value_and_grad".
bool isGradPrimitive(std::string_view name);

// The attr of a GradOperation with get_by_list and no weights input (PyNative's
// `GradOperation(get_by_list=True)(net)`): type_inference gives it the weights the specialized
// forward reads, in the order it first reads them.
inline constexpr std::string_view kForwardWeightsAttr = "forward_weights";

struct GradSpec {
    enum class Kind : std::uint8_t { GradOperation, Grad, ValueAndGrad };
    Kind kind = Kind::GradOperation;
    std::string name;  // the primitive's name, for messages
    bool getAll = false;
    bool getByList = false;
    bool sensParam = false;
    // grad / value_and_grad: the positions (nullopt: grad_position=None) and whether they
    // were given as a tuple.
    std::optional<std::vector<std::int64_t>> positions;
    bool positionTuple = false;
    bool hasAux = false;
    bool hasWeights = false;  // the primitive has a weights input (input 2)
    bool returnsValue() const { return kind == Kind::ValueAndGrad; }

    // Reads a grad primitive's attrs; nullopt when `p` is not one.
    static std::optional<GradSpec> of(const ir::PrimitiveData& p, bool hasWeights);
};

// Which inputs' gradients the result holds and how it nests them.
struct GradLayout {
    std::vector<std::size_t> inputs;  // indices of the differentiated inputs, in order
    bool inputsTuple = false;         // the input gradients form a tuple (else one gradient)
    bool withInputs = false;
    bool withWeights = false;
};

// The layout for a call with `inputCount` inputs (sens excluded). Throws std::invalid_argument
// with MindSpore's message for a position out of range or a GradOperation of no input.
GradLayout layoutOf(const GradSpec& spec, std::size_t inputCount);

// Arranges the gradients as the layout says: `inputGrads[k]` is the gradient of input
// layout.inputs[k], `weightsGrad` the weights' (already a tuple when the weights were one),
// `tuple` builds a tuple of T. For value_and_grad the caller pairs it with the value.
template <typename T>
T arrangeGrads(const GradLayout& layout, const std::vector<T>& inputGrads, const T& weightsGrad,
               const std::function<T(std::vector<T>)>& tuple) {
    T inputsPart{};
    if (layout.withInputs) {
        inputsPart = layout.inputsTuple ? tuple(inputGrads) : inputGrads.at(0);
    }
    if (layout.withInputs && layout.withWeights) {
        return tuple({inputsPart, weightsGrad});
    }
    return layout.withInputs ? inputsPart : weightsGrad;
}

}  // namespace irscope::passes::autodiff
