#include "passes/opt_bisect.h"

#include "ir/module.h"

namespace irscope::passes {

bool OptBisect::shouldRun(const PassRun& run, const ir::Module& m, const PassContext&) {
    Decision d;
    d.number = count() + 1;
    d.pass = run.path;
    d.graph = m.entry() != nullptr ? m.entry()->name() : std::string();
    d.pipeline = pipelines_ == 0 ? 0 : pipelines_ - 1;
    d.round = run.round;
    d.ran = limit_ < 0 || d.number <= limit_;
    if (print_) {
        print_(describe(d));
    }
    decisions_.push_back(std::move(d));
    return decisions_.back().ran;
}

std::string OptBisect::describe(const Decision& d) {
    return std::string("BISECT: ") + (d.ran ? "running" : "NOT running") + " pass (" +
           std::to_string(d.number) + ") " + d.pass + " on " +
           (d.graph.empty() ? std::string("the module") : "@" + d.graph);
}

}  // namespace irscope::passes
