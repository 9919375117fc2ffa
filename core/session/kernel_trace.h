// KernelTrace: an ExecObserver that records every kernel the compiled graphs of a script run
// ran, in execution order, with a copy of its output taken right after it ran — what the
// first-divergence search (session/divergence.h) compares between two runs of a script.
//
// A kernel is recorded by where the .ir printer puts it, not by its address: the graph's
// position in print order and the node's `%N`. The trace keeps the printed text of every
// module that ran (once per distinct text), so the nodes can be found again in the module
// parsed back from it after the run, when the compiled graphs themselves may be gone.
// Graph calls (calls, Switch, Partial) are not recorded: their callees' kernels are.
//
// Output copies are deep (a Load's output is copied when the Load ran, before a later Assign
// overwrites the Parameter it aliases). A trace stops copying values past `maxBytes` and
// says so (truncated()); the kernels are still recorded, without values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/local_names.h"
#include "ir/module.h"
#include "ops/op_registry.h"
#include "runtime/executor.h"

namespace irscope::session {

// Where a kernel is in a printed module: its graph's index in print order and its `%N`.
struct KernelKey {
    std::uint32_t graph = 0;
    std::uint32_t number = 0;
    bool operator==(const KernelKey&) const = default;
};

struct TracedKernel {
    KernelKey key;
    std::uint32_t occurrence = 0;         // times this kernel ran before in the same graph run
    std::uint64_t step = 0;               // kernels started so far in the graph run (1-based)
    std::optional<ops::KernelArg> value;  // a deep copy; nullopt past the byte budget
    std::string placement;                // "cpu" or the device it ran on
};

struct TracedRun {
    std::size_t module = 0;  // index into KernelTrace::modules()
    std::vector<TracedKernel> kernels;
    // The (graph run's) position of the kernel `key` ran for the `occurrence`-th time, if it did.
    std::optional<std::size_t> find(KernelKey key, std::uint32_t occurrence) const;

    std::unordered_map<std::uint64_t, std::size_t> index;  // packKernel -> kernels[i]
};

// A deep copy of a runtime value: tensors get storage of their own.
ops::KernelArg deepCopy(const ops::KernelArg& a);
// Bytes of tensor data in a value.
std::size_t valueBytes(const ops::KernelArg& a);

// Packs a key and an occurrence into one map key.
std::uint64_t packKernel(KernelKey key, std::uint32_t occurrence);

// The printed names of a module and its kernels by key (graph in print order, %N).
class KernelIndex {
public:
    explicit KernelIndex(const ir::Module& m);
    // The CNode a key names, or nullptr.
    const ir::CNode* node(KernelKey key) const;
    std::optional<KernelKey> key(const ir::Node* n) const;
    const ir::LocalNames& names() const { return names_; }

private:
    ir::LocalNames names_;
    std::unordered_map<const ir::FuncGraph*, std::uint32_t> graphIndex_;
};

class KernelTrace final : public runtime::ExecObserver {
public:
    explicit KernelTrace(std::size_t maxBytes = std::size_t{1} << 30) : maxBytes_(maxBytes) {}

    // The printed text of each distinct module that ran.
    const std::vector<std::string>& modules() const { return modules_; }
    // Every graph run, in order (one per execution of a compiled graph).
    const std::vector<TracedRun>& runs() const { return runs_; }
    bool truncated() const { return truncated_; }
    std::size_t bytes() const { return bytes_; }

    void runStarted(const ir::Module& m, const runtime::ExecInspector& ex) override;
    void afterKernel(const runtime::KernelEvent& e, const ops::KernelArg& output,
                     const runtime::ExecInspector& ex) override;

private:
    std::size_t maxBytes_;
    std::vector<std::string> modules_;
    std::unordered_map<std::string, std::size_t> moduleIndex_;
    std::vector<TracedRun> runs_;
    // The module the current run executes, and its printed names.
    const ir::Module* current_ = nullptr;
    std::size_t currentIndex_ = 0;
    std::unique_ptr<KernelIndex> names_;
    std::unordered_map<std::uint64_t, std::uint32_t> seen_;  // key -> times run so far
    std::size_t bytes_ = 0;
    bool truncated_ = false;
};

}  // namespace irscope::session
