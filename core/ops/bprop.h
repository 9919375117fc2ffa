// Bprop rules: how each differentiable primitive sends the gradient of its output back to
// its inputs. A rule (OpDef::bprop) reads the forward node through a BpropContext and emits
// the gradient computation with ctx.emit(): registry primitives only, each node typed by the
// registry and carrying the forward node's debug info. The autodiff pass
// (passes/autodiff*.cpp) implements the context; the rules never see the IR's Module.
//
// Conventions, as MindSpore's bprops:
//  - dout has the forward output's abstract (a tensor; for a tuple-valued primitive the
//    rule reads doutElement(i));
//  - a rule sets the gradient of every input that needsGrad(i) and that has one; an input
//    left unset gets none (a constant, an index, a mask);
//  - elementwise binary ops reduce the gradient back to each input's shape under
//    broadcasting (reduceToShape).
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "ir/abstract.h"
#include "ir/node.h"
#include "ops/op_registry.h"

namespace irscope::ops {

struct BpropContext {
    virtual ~BpropContext() = default;

    // The forward primitive: its attrs, inputs (callee excluded, monads excluded) and output.
    virtual const ir::AttrMap& attrs() const = 0;
    virtual std::size_t inputCount() const = 0;
    virtual ir::Node* input(std::size_t i) const = 0;
    virtual ir::Node* out() const = 0;
    // The gradient of the output, and of element i of a tuple output (nullptr: none).
    virtual ir::Node* dout() = 0;
    virtual ir::Node* doutElement(std::size_t i) = 0;

    // Whether input i needs a gradient (it depends on what is differentiated).
    virtual bool needsGrad(std::size_t i) const = 0;
    virtual void setGrad(std::size_t i, ir::Node* grad) = 0;
    // Input i is a tuple (AddN's, Concat's): the gradient of each element.
    virtual void setGradElements(std::size_t i, const std::vector<ir::Node*>& grads) = 0;

    // A registry primitive applied to inputs, typed, with the forward node's debug info.
    virtual ir::Node* emit(std::string_view op, const std::vector<ir::Node*>& inputs,
                           const ir::AttrMap& attrs = {}) = 0;
    virtual ir::Node* constant(ir::ValuePtr v) = 0;
    // A CompileError at the forward node.
    [[noreturn]] virtual void fail(const std::string& message) const = 0;

    // ---- helpers (bprop_util.cpp) ----------------------------------------------------------
    const ir::AbstractPtr& absOf(std::size_t i) const { return input(i)->abstract(); }
    // A 0-d tensor constant of dtype t holding v.
    ir::Node* scalar(ir::DType t, double v);
    // A tensor constant of zeros / ones with abstract a's dtype and shape.
    ir::Node* zerosLike(const ir::AbstractPtr& a);
    ir::Node* onesLike(const ir::AbstractPtr& a);
    // g summed over the axes broadcasting added to reach g's shape from `shape`, reshaped to it.
    ir::Node* reduceToShape(ir::Node* g, const ir::Shape& shape);
    // g broadcast to `shape` (a gradient flowing back through a reduction over `axes`).
    ir::Node* broadcastTo(ir::Node* g, const ir::Shape& shape);
    // Cast of a Bool mask to dtype t.
    ir::Node* mask(ir::Node* boolTensor, ir::DType t);
    // Sets input i's gradient to g reduced to the input's shape.
    void setGradReduced(std::size_t i, ir::Node* g);
};

// Fills OpDef::bprop for every differentiable primitive (bprop_*.cpp); called once by the
// registry's constructor.
void registerBprops(OpRegistry& reg);

// Per family (bprop_math.cpp, bprop_nn.cpp, bprop_array.cpp, bprop_index.cpp).
void registerMathBprops(OpRegistry& reg);
void registerNnBprops(OpRegistry& reg);
void registerArrayBprops(OpRegistry& reg);
void registerIndexBprops(OpRegistry& reg);  // bprop_index.cpp
// Sets op `name`'s rule (the op must exist).
void setBprop(OpRegistry& reg, std::string_view name, BpropFn fn);

}  // namespace irscope::ops
