// FrontendState: host object table, unique graph names and the compile's budgets.
#include "compiler/frontend_state.h"

#include "passes/compile_error.h"
#include "passes/meta_ops.h"

namespace irscope::compiler {

FrontendState::FrontendState(GraphCall c) : I(*c.interp), call(std::move(c)) {}

std::int64_t FrontendState::sequenceLength(const ir::Node* n) const {
    if (n == nullptr) {
        return -1;
    }
    if (auto it = paramLengths.find(n); it != paramLengths.end()) {
        return it->second;
    }
    if (const auto* c = ir::nodeCast<ir::CNode>(n);
        c != nullptr && (c->isPrimitive(passes::meta::kMakeTuple) || c->isPrimitive(passes::meta::kMakeList))) {
        return static_cast<std::int64_t>(c->size()) - 1;
    }
    if (const auto* v = ir::nodeCast<ir::ValueNode>(n);
        v != nullptr && (v->value()->kind == ir::Value::Kind::Tuple || v->value()->kind == ir::Value::Kind::List)) {
        return static_cast<std::int64_t>(v->value()->elements.size());
    }
    return -1;
}

ir::ValuePtr FrontendState::hostValue(HostEntry e, std::string text) {
    hosts_.push_back(std::move(e));
    return ir::Value::hostObject(std::make_shared<HostRef>(hosts_.size() - 1, std::move(text)));
}

const HostEntry* FrontendState::host(const ir::Value& v) const {
    if (v.kind != ir::Value::Kind::Host) {
        return nullptr;
    }
    const auto* ref = dynamic_cast<const HostRef*>(v.host.get());
    if (ref == nullptr || ref->id() >= hosts_.size()) {
        return nullptr;
    }
    return &hosts_[ref->id()];
}

std::string FrontendState::uniqueGraphName(const std::string& base) {
    // Suffixes below the last one tried for this base are all taken: start after it.
    std::string name = base;
    for (int& k = lastSuffix_[base]; names_.count(name) != 0;) {
        name = base + "_" + std::to_string(++k);
    }
    names_.insert(name);
    return name;
}

void FrontendState::countGraph() {
    if (++graphs_ > call.limits.maxGraphs) {
        throw passes::CompileError("RuntimeError", "The program needs more than " +
                                                       std::to_string(call.limits.maxGraphs) +
                                                       " graphs (CompileLimits::maxGraphs).");
    }
}

void FrontendState::countUnroll(const ir::SourceLocation& where) {
    if (++unrolled_ > call.limits.maxUnroll) {
        throw passes::CompileError(
            "RuntimeError",
            "The for loop unrolls more than " + std::to_string(call.limits.maxUnroll) +
                " iterations in this compile (the limit is irscope-cli run --max-unroll); use a "
                "while loop for long iterations.",
            where);
    }
}

ir::SourceLocation sourceLocation(const interp::ScriptUnit& unit, const ast::Span& s) {
    ir::SourceLocation l;
    l.file = unit.fileName();
    l.line = s.line;
    l.lineEnd = s.endLine == 0 ? s.line : s.endLine;
    l.col = s.col;
    l.colEnd = s.endCol;
    l.text = std::string(unit.module->line(s.line));
    return l;
}

}  // namespace irscope::compiler
