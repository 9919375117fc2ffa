// Shared internals of the built-in modules (not part of the public API).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "frontend/interp/native.h"
#include "frontend/modules/modules.h"
#include "ops/op_registry.h"
#include "ir/tensor.h"

namespace irscope::modules {

using interp::CallArgs;
using interp::Exc;
using interp::Interpreter;
using interp::Object;
using interp::PyError;
using interp::Ref;
using interp::Type;
using interp::Value;

// mindspore.Tensor, mindspore.Parameter and numpy.ndarray instances.
class TensorObject : public Object {
public:
    explicit TensorObject(Type* cls) : Object(cls, interp::ObjKind::Native) {}
    ir::Tensor t;
    // A dynamic-shape placeholder (Tensor(shape=[None, 3], dtype=...), for Cell.set_inputs):
    // its shape with -1 for each unknown dimension; empty for every other tensor.
    std::vector<std::int64_t> dynamicDims;
    // A numpy view taken by basic indexing (a[0], a[:, 1:]): the array it came from and the
    // key. Writes into the view are written back there, as numpy's shared memory does.
    Value viewParent;
    Value viewKey;
    void clearRefs() override;
    // Parameters only.
    std::string name;
    bool requiresGrad = true;
};

// A dtype object (ms.float32 / np.float32).
class DTypeObject : public Object {
public:
    explicit DTypeObject(Type* t) : Object(t, interp::ObjKind::Native) {}
    ir::DType dtype = ir::DType::Float32;
};

// The classes and state of one interpreter's modules. Types are kept alive by the module
// dicts (raw pointers are valid while the interpreter lives).
struct MsTypes {
    std::shared_ptr<MsContext> ctx;
    Type* tensor = nullptr;
    Type* parameter = nullptr;
    Type* ndarray = nullptr;
    Type* msDtype = nullptr;
    Type* npDtype = nullptr;
    Type* cell = nullptr;
    Type* primitive = nullptr;
    std::vector<Value> keep;  // the classes above (raw pointers stay valid)
    Value msDtypes[16];       // per ir::DType
    Value npDtypes[16];
    Value npScalarTypes[16];  // np.float32 ... (print as <class 'numpy.float32'>)
};
using MsPtr = std::shared_ptr<MsTypes>;

// --- conversions --------------------------------------------------------------------------
Value newTensor(Interpreter& I, const MsTypes& ms, ir::Tensor t);
Value newArray(Interpreter& I, const MsTypes& ms, ir::Tensor t);
TensorObject* asTensor(const Value& v);
bool isNumpy(const MsTypes& ms, const Value& v);
// A dtype argument (ms.float32, np.float32, the builtins float/int/bool, "float32"), or
// nullopt for None/Null. TypeError otherwise.
std::optional<ir::DType> dtypeArg(Interpreter& I, const MsTypes& ms, const Value& v);
// Python data (scalar, nested list/tuple, tensor, ndarray) to a tensor. `numpyRules`: Python
// floats default to Float64 (numpy) instead of Float32 (MindSpore).
ir::Tensor tensorFromData(Interpreter& I, const MsTypes& ms, const Value& data,
                               std::optional<ir::DType> dtype, bool numpyRules);
// An array argument of a numpy function as a tensor: a tensor or ndarray as it is, other data
// by numpy's rules.
ir::Tensor toArray(Interpreter& I, const MsTypes& ms, const Value& v);
// The operands of a numpy binary function with at least one made an ndarray (numbers stay
// numbers), so the operator that combines them follows numpy's rules.
std::pair<Value, Value> arrayOperands(Interpreter& I, const MsTypes& ms, const Value& a,
                                      const Value& b);
ir::ValuePtr toIrValue(Interpreter& I, const MsTypes& ms, const Value& v);
ops::KernelArg toKernelArg(Interpreter& I, const MsTypes& ms, const Value& v);
Value fromKernelArg(Interpreter& I, const MsTypes& ms, const ops::KernelArg& a);
Value fromIrValue(Interpreter& I, const MsTypes& ms, const ir::ValuePtr& v);
// OpError -> PyError of the same kind.
[[noreturn]] void raiseOpError(const ops::OpError& e);

// Runs a primitive on converted inputs.
Value runOp(Interpreter& I, const MsTypes& ms, const ops::OpDef& op, const ir::AttrMap& attrs,
            std::vector<ops::KernelArg> inputs, bool training = false, int outputIndex = -1);
Value runOpByName(Interpreter& I, const MsTypes& ms, std::string_view name,
                  std::vector<Value> inputs, const ir::AttrMap& attrs = {});
// A Function/Method spelling called with Python arguments (for a Method, args.pos[0] is self).
Value callSpelling(Interpreter& I, const MsTypes& ms, const ops::OpDef& op, const ops::Spelling& sp,
                   CallArgs& args);

// --- pieces ---------------------------------------------------------------------------------
void initTensorTypes(Interpreter& I, const MsPtr& ms);  // Tensor, Parameter, dtypes
void initNumpy(Interpreter& I, const MsPtr& ms, interp::ModuleObject& m);
void initNumpyExtra(Interpreter& I, const MsPtr& ms, interp::ModuleObject& m);   // numpy_extra.cpp
void initNumpyArrays(Interpreter& I, const MsPtr& ms, interp::ModuleObject& m);  // numpy_arrays.cpp
// ms_layout.cpp: MindSpore's submodule layout and the modules written in Python.
void registerLayoutModules(Interpreter& I);
void addPythonNnNames(Interpreter& I, interp::ModuleObject& nn);
// Adds the Python-written functional API (mindspore.ops.function) to `ops` or `F`: the
// names the native module does not define.
void addPythonOpsNames(Interpreter& I, interp::ModuleObject& ops);
// Adds numpy's functions written in Python (var, std; numpy.random.choice).
void addPythonNumpyNames(Interpreter& I, interp::ModuleObject& numpy, interp::ModuleObject& random);
void initNumpyRandom(Interpreter& I, const MsPtr& ms, interp::ModuleObject& m);
void initTime(Interpreter& I, const MsPtr& ms, interp::ModuleObject& m);
// os and os.path (os_module.cpp).
void initOs(Interpreter& I, interp::ModuleObject& m);
void initOsPath(Interpreter& I, interp::ModuleObject& m);
// The regex engine functions of the `re` module (re_module.cpp).
void initReEngine(Interpreter& I, interp::ModuleObject& m);
void initOpsModule(Interpreter& I, const MsPtr& ms, interp::ModuleObject& m,
                   const std::string& prefix);
void initNn(Interpreter& I, const MsPtr& ms, interp::ModuleObject& m);
void initMindSpore(Interpreter& I, const MsPtr& ms, interp::ModuleObject& m);
// MindIR files (ms_mindir.cpp): mindspore.load / export, and nn.GraphCell.
void initMindirApi(Interpreter& I, const MsPtr& ms, interp::ModuleObject& m);
void initGraphCell(Interpreter& I, const MsPtr& ms, interp::ModuleObject& m);
// Operators, indexing, printing and properties shared by Tensor and ndarray.
void addCommonTensorMethods(Interpreter& I, const MsPtr& ms, interp::ClassBuilder& b, bool numpy);
void initNumpyTypes(Interpreter& I, const MsPtr& ms);
// Python indexing of a tensor (int, slice, None, Ellipsis, tuple of those, int tensor).
ir::Tensor indexTensor(Interpreter& I, const ir::Tensor& t, const Value& key);

}  // namespace irscope::modules
