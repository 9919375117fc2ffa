// A structural fingerprint of what printIr shows of a module, in the manner of MLIR's
// OperationFingerPrint: the reachable graphs in printed order (Module::reachableGraphs),
// their names, attrs, parameters and bodies, each node by id with its inputs (by id), its
// abstract and constants (immutable, by identity), attrs and debug info (source traces,
// immutable too, by identity). Two states of one module with equal fingerprints print the
// same text (up to a 64-bit hash collision); a different fingerprint may still print the
// same text (an equal abstract or trace rebuilt), so the
// snapshot instrumentation compares the text then. It costs one walk of the reachable
// graphs and no printing, and gives Module::counts() from the same walk.
#pragma once

#include <cstdint>

#include "ir/module.h"

namespace irscope::ir {

struct ModuleFingerprint {
    std::uint64_t hash = 0;
    NodeCounts counts;  // equal to Module::counts()
    bool operator==(const ModuleFingerprint& o) const {
        return hash == o.hash && counts.graphs == o.counts.graphs &&
               counts.nodes == o.counts.nodes && counts.cnodes == o.counts.cnodes;
    }
};

ModuleFingerprint fingerprint(const Module& m);

}  // namespace irscope::ir
