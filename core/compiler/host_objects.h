// Host objects in the IR between `parse` and `symbol_resolve`: the namespaces a
// `resolve(NameSpace, "symbol")` CNode looks a name up in, and host objects parse already
// knows (a bare `self`). The IR holds only an index and the printed text; the objects stay
// in the FrontendState, so a Module never keeps interpreter values alive past the compile.
#pragma once

#include <cstddef>
#include <string>

#include "frontend/interp/interpreter.h"
#include "ir/value.h"

namespace irscope::compiler {

struct HostEntry {
    enum class Kind : std::uint8_t {
        ClassMember,  // attributes of `obj` (self): NameSpace[ClassMember: 'Net']
        Symbol,       // free names of function `obj`: NameSpace[SymbolStr: 'Namespace:__main__']
        Builtins,     // the builtins: NameSpace[CommonOPS: 'Namespace:builtins']
        Object,       // `obj` itself (a bare `self`)
    };
    Kind kind = Kind::Object;
    interp::Value obj;
    std::string scope;  // ClassMember/Object of a Cell: the cell's scope ("Default/fc-Dense")
    // @lazy_inline cell reuse: constant attributes are read from this instance (the first
    // cell called of the same class and cell_init_args), as MindSpore's reused graph was
    // compiled from it; Parameters and sub-cells stay the instance's own. Null otherwise.
    interp::Value constantsFrom;
};

// The IR-side handle: printed as MindSpore prints the namespace.
class HostRef final : public ir::HostObject {
public:
    HostRef(std::size_t id, std::string text) : id_(id), text_(std::move(text)) {}
    std::string text() const override { return text_; }
    std::size_t id() const { return id_; }

private:
    std::size_t id_;
    std::string text_;
};

}  // namespace irscope::compiler
