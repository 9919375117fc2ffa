// What is a state (monad) value, asked of a node. One answer for the whole code base: the
// passes, the .dot exporter and the graph view all hide or route state the same way.
//
// A node is a monad when it is a U or IO monad constant, when its abstract is a monad, or
// when it is an UpdateState: the result of UpdateState is a state by definition, also before
// type inference has typed it (an UpdateState built by a pass, or read from a dump without
// abstracts).
#pragma once

#include "ir/node.h"
#include "ir/prim_names.h"

namespace irscope::ir {

inline bool isMonad(const Node* n) {
    if (const auto* v = nodeCast<ValueNode>(n)) {
        return v->value()->kind == Value::Kind::Monad;
    }
    if (const auto* c = nodeCast<CNode>(n); c != nullptr && c->isPrimitive(prim::kUpdateState)) {
        return true;
    }
    return n->abstract() != nullptr && n->abstract()->kind == Abstract::Kind::Monad;
}

// A monad of one kind: a constant U or IO, or a node typed as that monad (an UpdateState is
// typed U or IO by what it threads).
inline bool isMonadOf(const Node* n, MonadKind kind) {
    if (const auto* v = nodeCast<ValueNode>(n)) {
        return v->value()->kind == Value::Kind::Monad && v->value()->monad == kind;
    }
    return n->abstract() != nullptr && n->abstract()->kind == Abstract::Kind::Monad &&
           n->abstract()->monad == kind;
}

}  // namespace irscope::ir
