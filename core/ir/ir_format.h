// Formatting shared by the .ir printer and by views (formatValue, formatAbstract): values
// in MindSpore's spellings, abstracts in the 2.x `<Type, Shape>` form. Internal to core/ir.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "ir/abstract.h"
#include "ir/value.h"

namespace irscope::ir::text {

// How a graph reference is spelled (the printer makes names unique before using them).
using GraphNamer = std::function<std::string(const FuncGraph*)>;
std::string defaultGraphName(const FuncGraph* g);

class ValueFormatter {
public:
    explicit ValueFormatter(GraphNamer namer) : namer_(std::move(namer)) {}

    std::string value(const Value& v) const;
    // `{key: value, ...}` appended to out.
    void attrs(const AttrMap& m, std::string& out) const;
    // The callee of a CNode whose input 0 is a value: a primitive's name (or `Prim("...")`),
    // `call @graph`, or the value itself.
    std::string callee(const Value& v) const;

private:
    void append(const Value& v, std::string& out) const;
    void tensor(const TensorData& t, std::string& out) const;
    void primitive(const PrimitiveData& p, std::string& out) const;

    GraphNamer namer_;
};

// Element i of a tensor as the .ir text spells it: `True`, `-3`, `0.1` (shortest at the
// dtype's precision), `1+2j`; `...` for a string tensor.
std::string elementText(const TensorData& t, std::size_t i);

// formatAbstract, or `<null>` for a missing abstract.
std::string abstractOrNull(const AbstractPtr& a);
// Whether a String attribute of `subgraph attr:` / `# Attrs:` can be printed without quotes
// and still read back as the same String (see ValueReader::lineAttrValue).
bool rawAttrString(std::string_view s);
// Whether a line (its indentation trimmed) that follows a `subgraph attr:` / `# Attrs:` line
// is tried as one more `key: value` of that block: any line except a comment, a node or
// parameter, a body's end and a graph header.
bool mayContinueAttrBlock(std::string_view line);

}  // namespace irscope::ir::text
