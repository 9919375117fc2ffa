// Reading values, abstracts and attribute maps of the .ir text format (the inverse of
// formatValue / formatAbstract). Structured forms become typed Values and Abstracts; any
// other bracket-balanced text becomes Opaque, so a real dump with unfamiliar values opens.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>

#include "ir/abstract.h"
#include "ir/ir_lexer.h"
#include "ir/value.h"
#include "util/string_hash.h"

namespace irscope::ir::text {

// Resolves `@name`; returns nullptr when the file defines no such graph.
using GraphFinder = std::function<FuncGraph*(const std::string&)>;

class ValueReader {
public:
    explicit ValueReader(GraphFinder find) : find_(std::move(find)) {}
    // Called for `@name` naming no graph of the file; such a reference is kept as Opaque
    // text (`@name`, an external graph). Without a handler it is an error.
    using ExternalHandler =
        std::function<void(const LineCursor&, std::size_t at, const std::string& name)>;
    void onExternalGraph(ExternalHandler h) { external_ = std::move(h); }

    // The value at c.pos (leading blanks skipped). Text that is not a structured value, up
    // to the next ',' ')' ']' '}' at depth 0 or the end (also '(' and '[' in callee
    // position), is kept as Opaque. Throws on unbalanced brackets, an unterminated string,
    // an unknown graph or nesting deeper than kMaxNesting.
    ValuePtr value(LineCursor& c, int depth = 0, bool callee = false) const;
    // c.pos is just past `Prim`, at '(': `Prim(Name[, instance name: "i"][, primitive_attrs:
    // {...}])`. Returns nullptr (pos unspecified) when the text is not of that form.
    ValuePtr primBody(LineCursor& c, int depth) const;
    // The abstract at c.pos, which must be '<'; nullptr for `<null>`.
    AbstractPtr abstract(LineCursor& c, int depth = 0) const;
    // `{key: value, ...}` at c.pos, which must be '{'; entries are added to `out`.
    void attrMap(LineCursor& c, AttrMap& out, int depth = 0) const;
    // An attribute key: quoted, or the text up to ':' (blanks trimmed).
    std::string attrKey(LineCursor& c) const;
    // A whole-line attribute value as `subgraph attr:` and `# Attrs:` print them: empty ->
    // String "", 0/1 -> Bool, other integers -> Int64, a structured value (not a bare name)
    // -> that value, anything else -> the raw text as a String.
    ValuePtr lineAttrValue(LineCursor& c) const;

private:
    ValuePtr structured(LineCursor& c, int depth, bool callee) const;
    ValuePtr tensorBody(LineCursor& c, int depth) const;
    ValuePtr scalarBody(LineCursor& c, std::string_view prefix) const;
    AbstractPtr structuredAbstract(LineCursor c, int depth) const;

    GraphFinder find_;
    ExternalHandler external_;
    // The abstracts read so far, by their text (`<Tensor[Float32], (6, 8)>`): a large dump
    // spells a few hundred distinct abstracts hundreds of thousands of times. Texts naming
    // a graph are not kept (reading them resolves it), nor long ones (tensor values).
    mutable std::unordered_map<std::string, AbstractPtr, util::StringHash, std::equal_to<>>
        abstracts_;
};

}  // namespace irscope::ir::text
