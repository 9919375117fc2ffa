// Registration entry points of the op families, called in this order by the registry's
// constructor (explicitly, so nothing depends on static initialisation order across TUs).
#pragma once

namespace irscope::ops {

class OpRegistry;

void registerMathOps(OpRegistry& reg);             // math_ops.cpp
void registerCompareOps(OpRegistry& reg);          // compare_ops.cpp
void registerMatMulOps(OpRegistry& reg);           // matmul_ops.cpp
void registerReduceOps(OpRegistry& reg);           // reduce_ops.cpp
void registerArrayOps(OpRegistry& reg);            // array_ops.cpp
void registerIndexOps(OpRegistry& reg);            // index_ops.cpp
void registerFillOps(OpRegistry& reg);             // fill_ops.cpp
void registerNnOps(OpRegistry& reg);               // nn_ops.cpp
void registerStateOps(OpRegistry& reg);            // state_ops.cpp
void registerOptimizerOps(OpRegistry& reg);        // optimizer_ops.cpp
void registerElementwiseMathOps(OpRegistry& reg);  // elementwise_math.cpp
void registerStructuralOps(OpRegistry& reg);       // structural_ops.cpp
void registerScalarOps(OpRegistry& reg);           // scalar_ops.cpp
void registerBinaryMathOps(OpRegistry& reg);       // binary_math_ops.cpp
void registerAxisOps(OpRegistry& reg);             // axis_ops.cpp
void registerArrayMoreOps(OpRegistry& reg);        // array_more_ops.cpp
void registerNnMoreOps(OpRegistry& reg);           // nn_more_ops.cpp
void registerConvOps(OpRegistry& reg);             // conv_ops.cpp
void registerScatterOps(OpRegistry& reg);          // scatter_ops.cpp
void registerSegmentOps(OpRegistry& reg);          // segment_ops.cpp
void registerNnLossOps(OpRegistry& reg);           // nn_loss_ops.cpp
void registerNnActivationOps(OpRegistry& reg);     // nn_activation_ops.cpp
void registerPadOps(OpRegistry& reg);              // pad_ops.cpp
void registerSelectOps(OpRegistry& reg);           // select_ops.cpp
void registerComplexOps(OpRegistry& reg);          // complex_ops.cpp

}  // namespace irscope::ops
