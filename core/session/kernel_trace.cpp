#include "session/kernel_trace.h"

#include "ir/ir_text.h"

namespace irscope::session {

std::uint64_t packKernel(KernelKey key, std::uint32_t occurrence) {
    // 16 bits of graph, 24 of %N, 24 of occurrence: hashed, so an overflow only costs a
    // collision that find() rejects.
    return (static_cast<std::uint64_t>(key.graph) << 48) ^
           (static_cast<std::uint64_t>(key.number) << 24) ^ occurrence;
}

std::optional<std::size_t> TracedRun::find(KernelKey key, std::uint32_t occurrence) const {
    const auto it = index.find(packKernel(key, occurrence));
    if (it == index.end()) {
        return std::nullopt;
    }
    const TracedKernel& k = kernels[it->second];
    if (k.key != key || k.occurrence != occurrence) {
        return std::nullopt;
    }
    return it->second;
}

ops::KernelArg deepCopy(const ops::KernelArg& a) {
    if (a.isTensor()) {
        return ops::KernelArg(a.tensor().clone());
    }
    if (a.isTuple()) {
        std::vector<ops::KernelArg> elems;
        elems.reserve(a.elements().size());
        for (const ops::KernelArg& e : a.elements()) {
            elems.push_back(deepCopy(e));
        }
        return ops::KernelArg::tuple(std::move(elems));
    }
    return a;  // None, or an immutable value
}

std::size_t valueBytes(const ops::KernelArg& a) {
    if (a.isTensor()) {
        return a.tensor().nbytes();
    }
    std::size_t n = 0;
    if (a.isTuple()) {
        for (const ops::KernelArg& e : a.elements()) {
            n += valueBytes(e);
        }
    }
    return n;
}

KernelIndex::KernelIndex(const ir::Module& m) : names_(ir::localNames(m)) {
    for (std::size_t i = 0; i < names_.order.size(); ++i) {
        graphIndex_.emplace(names_.order[i], static_cast<std::uint32_t>(i));
    }
}

const ir::CNode* KernelIndex::node(KernelKey key) const {
    if (key.graph >= names_.order.size()) {
        return nullptr;
    }
    const auto& body = names_.body(names_.order[key.graph]);
    return key.number < body.size() ? body[key.number] : nullptr;
}

std::optional<KernelKey> KernelIndex::key(const ir::Node* n) const {
    const auto* c = ir::nodeCast<ir::CNode>(n);
    if (c == nullptr) {
        return std::nullopt;
    }
    const auto g = graphIndex_.find(c->graph());
    const auto num = names_.number.find(c);
    if (g == graphIndex_.end() || num == names_.number.end()) {
        return std::nullopt;
    }
    return KernelKey{g->second, static_cast<std::uint32_t>(num->second)};
}

void KernelTrace::runStarted(const ir::Module& m, const runtime::ExecInspector&) {
    if (&m != current_ || !names_) {
        std::string text = ir::printIr(m);
        const auto [it, added] = moduleIndex_.try_emplace(text, modules_.size());
        if (added) {
            modules_.push_back(std::move(text));
        }
        currentIndex_ = it->second;
        current_ = &m;
        names_ = std::make_unique<KernelIndex>(m);
    }
    runs_.emplace_back();
    runs_.back().module = currentIndex_;
    seen_.clear();
}

void KernelTrace::afterKernel(const runtime::KernelEvent& e, const ops::KernelArg& output,
                              const runtime::ExecInspector&) {
    if (e.callsGraph || runs_.empty() || !names_) {
        return;
    }
    const std::optional<KernelKey> key = names_->key(e.node);
    if (!key) {
        return;
    }
    const std::uint64_t seenKey = packKernel(*key, 0);
    TracedRun& run = runs_.back();
    TracedKernel k;
    k.key = *key;
    k.occurrence = seen_[seenKey]++;
    k.step = e.step;
    k.placement = std::string(e.placement);
    const std::size_t bytes = valueBytes(output);
    if (!truncated_ && bytes_ + bytes <= maxBytes_) {
        k.value = deepCopy(output);
        bytes_ += bytes;
    } else {
        truncated_ = true;
    }
    run.index.emplace(packKernel(k.key, k.occurrence), run.kernels.size());
    run.kernels.push_back(std::move(k));
}

}  // namespace irscope::session
