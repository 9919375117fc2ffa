// The executor's state (internal): executor.cpp runs graphs, executor_device.cpp places
// kernels on the device and keeps the host and device copies of each buffer in step.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "runtime/executor.h"
#include "runtime/executor_plan.h"
#include "runtime/executor_values.h"

namespace irscope::runtime {

// The op of a primitive, also under MindSpore 2.3's generated names (`PrimFunc_Mul`).
const ops::OpDef* findOp(std::string_view name);

// What a primitive does in the executor, worked out once per primitive.
struct ResolvedPrim {
    enum class Kind : std::uint8_t {
        MakeTuple,
        TupleGetItem,
        Forward,
        UpdateState,
        Switch,
        Partial,
        Print,
        Kernel
    };
    Kind kind = Kind::Kernel;
    const ops::OpDef* op = nullptr;  // Kernel: the registry's op (null: none)
    bool variadic = false;           // Kernel: the op takes a variadic input
};

// What the run really holds: every buffer a kernel produced (weights and inputs excluded),
// counted (aligned as the memory plan aligns) from its kernel until its storage is freed.
class MemoryMeter {
public:
    void exclude(const Tensor& t);
    void produced(const ops::KernelArg& a);  // a kernel's output
    void collect();                          // forgets the buffers nobody holds any more
    void maybeFreed() { dirty_ = true; }     // values were dropped: collect before the next
    void reset();
    std::uint64_t peakBytes() const { return peakBytes_; }

private:
    struct Entry {
        std::weak_ptr<ir::Storage> storage;
        std::uint64_t bytes = 0;
    };
    std::unordered_map<const void*, Entry> live_;
    // The counted buffers freed since the last collect (each is watched once counted), so
    // collecting costs what was freed, not what is live.
    std::shared_ptr<ir::ReleaseLog> released_ = std::make_shared<ir::ReleaseLog>();
    std::unordered_set<const void*> excluded_;
    std::uint64_t liveBytes_ = 0;
    std::uint64_t peakBytes_ = 0;
    bool dirty_ = false;
};

// The device copy of one host buffer, and which side holds the current contents.
struct Mirror {
    DeviceTensor device;
    bool hostValid = true;
    bool deviceValid = false;
    std::weak_ptr<ir::Storage> host;  // to drop the mirror when the host buffer is gone
};

struct Executor::Impl : ExecInspector {
    Impl(const ir::Module& m, ExecOptions o, std::shared_ptr<const ModulePlan> plan);

    ops::KernelArg run(std::span<const ops::KernelArg> inputs,
                       const std::map<std::string, Tensor, std::less<>>& weights, RunStats* stats);

    // ExecInspector
    std::optional<ops::KernelArg> valueOf(const ir::Node* n) const override;
    std::span<const ir::CNode* const> order(const ir::FuncGraph* g) const override;

    // executor.cpp
    const detail::GraphPlan& plan(const ir::FuncGraph* g);
    void step(const ir::Node& n);
    void checkDepth(const ir::CNode* site);
    detail::FramePtr closureParent(const ir::FuncGraph* g, const detail::FramePtr& cur);
    detail::RValue constant(const ir::ValuePtr& v, const detail::FramePtr& frame);
    detail::RValue valueIn(const ir::Node* n, const detail::FramePtr& frame);
    void trackFrame(const detail::FramePtr& frame);
    void releaseRunFrames();
    detail::RValue runGraph(const ir::FuncGraph* g, detail::FramePtr parent,
                            std::vector<detail::RValue> args, const ir::CNode* site);
    std::vector<detail::RValue> callArgs(const ir::CNode& c, const detail::FramePtr& frame);
    detail::RValue callValue(const ir::CNode& site, const detail::RValue& f,
                             std::vector<detail::RValue> args);
    detail::RValue evalCNode(const ir::CNode& c, const detail::FramePtr& frame,
                             const detail::GraphPlan* p);
    KernelEvent event(const ir::CNode& c, const detail::GraphPlan& p, bool callsGraph);
    detail::RValue print(const std::vector<detail::RValue>& args, const ir::CNode& site);
    const ResolvedPrim& resolve(const ir::PrimitiveData& prim);
    detail::RValue applyPrimitive(const ir::CNode& site, const ir::PrimitiveData& prim,
                                  std::vector<detail::RValue> args);
    ops::KernelArg runOnCpu(const ir::CNode& site, const ops::OpDef& op, const ir::AttrMap& attrs,
                            std::span<const ops::KernelArg> inputs);

    // executor_device.cpp
    std::string_view placementName(const ir::CNode& c) const;
    ops::KernelArg runKernel(const ir::CNode& site, const ops::OpDef& op, const ir::AttrMap& attrs,
                             std::vector<ops::KernelArg> inputs);
    // A value with every tensor's current contents on the host (device results copied
    // back). `quiet`: functions become None instead of an error.
    ops::KernelArg hostValue(const detail::RValue& v, bool quiet = false) const;
    ops::KernelArg hostArg(const ir::CNode& site, const detail::RValue& v) const;
    detail::RValue hostCondition(const detail::RValue& v) const;
    void collectMirrors();  // drops the mirrors of freed host buffers
    void beginDeviceRun();
    void endDeviceRun();
    void fillDeviceStats(RunStats& s) const;

    const ir::Module& m_;
    ExecOptions opts_;
    std::shared_ptr<const ModulePlan> plan_;
    std::unordered_map<const ir::PrimitiveData*, ResolvedPrim> resolved_;

    // One run's state.
    std::unordered_map<const ir::Parameter*, detail::RValue> globals_;
    std::vector<StackFrame> stack_;
    std::vector<const detail::Frame*> frames_;  // parallel to stack_
    // Every frame the run made that may still be alive. A frame can hold a closure over
    // itself (a Switch's chosen branch kept in its values while that branch runs as a tail
    // call), a reference cycle shared_ptr alone never frees; the run's end breaks those, so
    // no frame outlives its run. Expired entries are pruned as the list doubles.
    std::vector<std::weak_ptr<detail::Frame>> runFrames_;
    std::size_t pruneFramesAt_ = 0;
    std::size_t depth_ = 0;
    std::uint64_t steps_ = 0;
    std::uint64_t kernels_ = 0;
    const char* stackLimit_ = nullptr;  // the running thread's stack end (checkDepth)
    MemoryMeter meter_;

    // Device state (executor_device.cpp).
    mutable std::unordered_map<const void*, Mirror> mirrors_;
    mutable RunStats deviceStats_;
    mutable std::unordered_map<const ir::CNode*, bool> supported_;
    std::unordered_set<std::string> failedThisRun_;
};

}  // namespace irscope::runtime
