// The .ir text format: MindSpore-2.x-style dumps written by printIr and read by parseIr.
// parseIr also reads the seeds' shortened listings and real MindSpore 2.0-2.3 dumps.
// Invariant (tested): printIr(*parseIr(printIr(m))) == printIr(m).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "util/diagnostic.h"

namespace irscope::ir {

struct PrintOptions {
    bool debugInfo = true;  // `# Fullname with scope:` and `# In file` lines
};

std::string printIr(const Module& m, const PrintOptions& opts = {});

// One node's first line as printIr writes it in `m` (`%3(CNode_5) = Add(%1, %2)`, or
// `Return(%4)`), without its type and debug lines: for views that show single nodes (the
// debugger's listing). Built once per module, as it numbers the nodes the way printIr does.
class NodeLines {
public:
    explicit NodeLines(const Module& m);
    ~NodeLines();
    NodeLines(const NodeLines&) = delete;
    NodeLines& operator=(const NodeLines&) = delete;

    std::string line(const CNode& c) const;
    // The graph's name as printIr writes it after `@` (duplicates get `.N`).
    std::string graphName(const FuncGraph& g) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Parses .ir text. `fileName` is used in diagnostics only. Throws ParseError with the
// line and column of the first problem and what was expected there; a text without any
// `subgraph @name(...) {` is such an error. What real dumps need but is no error is added to
// `warnings` (when given): references the file does not define (kept as stand-ins that print
// as written), graphs it calls but does not contain (kept as external `@name` references),
// a name defined twice (both kept).
std::unique_ptr<Module> parseIr(std::string_view text, const std::string& fileName = {},
                                std::vector<Diagnostic>* warnings = nullptr);

// Formatting helpers shared by the printer and other views (inspector, DOT labels).
std::string formatValue(const Value& v);
std::string formatAbstract(const Abstract& a);  // "<Tensor[Float32], (2, 3)>"

}  // namespace irscope::ir
