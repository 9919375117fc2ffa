// The compile pipeline after the front end, in MindSpore's action order:
//
//   parse, symbol_resolve                       (compiler/frontend_passes.h)
//   graph_reusing                               lazy inline: one CR_ graph per cell_init_args
//   type_inference                              (passes/type_inference.h)
//   auto_monad                                  U/IO monads, UpdateState chains, Load
//   inline                                      calls of graphs replaced by their bodies
//   meta_fg_expand                              autodiff: GradOperation & co. expanded
//   opt_a { switch_simplify, loop_unroll,       a fixed point of simplifications
//           updatestate_eliminate, arithmetic_simplify,
//           constant_folding, cse, dce }
//   auto_monad_reorder                          load elimination (MS_DEV_SIDE_EFFECT_LOAD_ELIM)
//   validate                                    checks the IR the backend is handed
//   task_emit                                   backend inline of CR_ graphs, execution
//                                               order, memory plan (peak bytes)
//
// What the IR looks like after each pass is the contract in passes/README.md. Every pass
// reads its switches from PassContext::settings() (passes/settings.h); none of them prints,
// times or snapshots itself (the PassManager's instrumentation does).
#pragma once

#include <memory>

#include "passes/pass.h"
#include "passes/pass_manager.h"

namespace irscope::passes {

std::unique_ptr<Pass> makeGraphReusingPass();      // passes/graph_reusing*.cpp
std::unique_ptr<Pass> makeAutoMonadPass();         // passes/auto_monad*.cpp
std::unique_ptr<Pass> makeInlinePass();            // passes/inline*.cpp
std::unique_ptr<Pass> makeMetaFgExpandPass();      // passes/autodiff*.cpp
std::unique_ptr<Pass> makeOptAPass();              // passes/opt_a*.cpp (a PassGroup)
std::unique_ptr<Pass> makeAutoMonadReorderPass();  // passes/load_elim*.cpp
std::unique_ptr<Pass> makeValidatePass();          // passes/validate*.cpp
std::unique_ptr<Pass> makeTaskEmitPass();          // passes/task_emit*.cpp

// Appends the passes that follow type_inference, from auto_monad to task_emit, to `pm`.
void addOptimizerPipeline(PassManager& pm);

}  // namespace irscope::passes
