// What the graph compiler's front end (core/compiler) needs to see inside the built-in
// modules' objects: the registry op behind `ops.add` / `ops.ReduceSum(keep_dims=True)`, the
// composites' contents (MultitypeFuncGraph registrations, HyperMap's function, vmap's
// axes), Cells and Parameters. The modules keep their own classes private; this is the
// read-only window onto them.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frontend/interp/interpreter.h"
#include "ops/op_registry.h"
#include "ir/tensor.h"

namespace irscope::modules {

// ops.ReduceSum(keep_dims=True): the primitive instance's op and constructor attributes.
class PrimitiveObject : public interp::Object {
public:
    explicit PrimitiveObject(interp::Type* t) : Object(t, interp::ObjKind::Native) {}
    const ops::OpDef* op = nullptr;
    const ops::Spelling* classSpelling = nullptr;
    ir::AttrMap attrs;
};

// A native object holding Python values (composites, ParameterTuple).
class HolderObject : public interp::Object {
public:
    explicit HolderObject(interp::Type* t) : Object(t, interp::ObjKind::Native) {}
    std::vector<interp::Value> items;
    std::vector<std::vector<std::string>> typeKeys;  // MultitypeFuncGraph registrations
    std::string name;
    interp::Value extra;
    void clearRefs() override {
        items.clear();
        extra = interp::Value();
        Object::clearRefs();
    }
};

// `ops.vmap(fn, in_axes, out_axes)` returns a native function carrying this.
struct VmapData {
    interp::Value fn, inAxes, outAxes;
};

// A grad function made on the host (`ops.value_and_grad(net, None, weights)` in __init__,
// `GradOperation(...)(net)`): what to differentiate and how, for the graph compiler. The
// function itself runs only in graph mode.
struct GradData {
    std::string kind;  // "GradOperation", "grad", "value_and_grad"
    interp::Value fn, weights;
    interp::Value gradPosition, hasAux, returnIds;  // grad / value_and_grad
    bool getAll = false, getByList = false, sensParam = false;  // GradOperation
};

// ops.add / F.assign: the registry spelling a module function stands for, else nullopt.
std::optional<ops::SpellingRef> opFunctionOf(const interp::Value& v);
const PrimitiveObject* primitiveOf(const interp::Value& v);
const VmapData* vmapOf(const interp::Value& v);
const GradData* gradOf(const interp::Value& v);

// The composite kind of a mindspore.ops.composite object ("MultitypeFuncGraph",
// "HyperMap", "GradOperation") and its holder, or "" / null.
std::string compositeKind(const interp::Value& v);
const HolderObject* holderOf(const interp::Value& v);

bool isCell(const interp::Value& v);
// @lazy_inline (limitation 1): records a cell's plain attributes as its __init__ left them;
// cellChangedSinceInit tells whether one was set, rebound or deleted since (false when
// nothing was recorded).
void recordCellInitState(interp::Interpreter& I, const interp::Value& cell);
bool cellChangedSinceInit(interp::Interpreter& I, const interp::Value& cell);
// Every Parameter a cell holds, its own and its sub-cells' (depth first, in registration
// order), each with its attribute path from the cell ("query.weight"); a Parameter held
// twice is listed twice. Empty for a value that is not a Cell.
std::vector<std::pair<std::string, interp::Value>> cellParameterPaths(const interp::Value& cell);
// The sub-cells of a cell (depth first, by attribute path) with their types, training
// flags and constant plain attributes (None, numbers, strings, tuples and lists of those),
// as text: equal for two cells whose sub-cells were built alike.
std::string subCellConstants(interp::Interpreter& I, const interp::Value& cell);
bool isParameter(const interp::Value& v);
// A Tensor / Parameter / ndarray's storage (shared with the host object), or null.
const ir::Tensor* tensorOf(const interp::Value& v);
// Parameter.name ("" for other values).
std::string parameterName(const interp::Value& v);
// An ms / np dtype object's element type.
std::optional<ir::DType> dtypeOf(const interp::Value& v);
// @jit_class marker on a class.
bool isJitClass(const interp::Type* t);
// The Python function behind `v`: v itself, or the function a @jit / @ms_function wrapper
// holds (graph code calling a @jit function, and a Cell whose construct is @jit, compile
// that function as any other, as MindSpore does); null for anything else.
interp::FunctionObject* pythonFunctionOf(const interp::Value& v);

}  // namespace irscope::modules
