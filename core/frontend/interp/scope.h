// Scope analysis of a parsed script (CPython's symtable, reduced to what execution needs).
//
// Every code block (the module, each def, lambda, class body and comprehension) gets a
// CodeInfo: its local slots, the cells it owns (locals captured by inner functions), the
// free variables it takes from enclosing functions, and its parameter layout. Every place
// that reads, binds or deletes a name gets a NameRef saying where the name lives there.
// The graph builder uses the same tables to resolve the free names of a function it
// compiles (see FunctionObject::resolveFreeName).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "frontend/ast.h"

namespace irscope::interp {

struct UnitCache;  // the interpreter's per-script caches (evaluator.h)

struct NameRef {
    enum class Kind : std::uint8_t {
        Fast,        // a plain local: frame slot `index`
        Deref,       // a cell: frame cell `index` (own cells first, then free variables)
        Global,      // the module namespace, then builtins
        ClassName,   // a class body: the class namespace, then globals, then builtins
        ClassDeref,  // a class body reading a variable of an enclosing function: the class
                     // namespace, then cell `index`
    };
    Kind kind = Kind::Global;
    int index = -1;
};

struct CodeInfo {
    enum class Kind : std::uint8_t { Module, Function, Lambda, Class, Comprehension };
    Kind kind = Kind::Module;
    std::string name;            // "<module>", "f", "<lambda>", "Net", "<listcomp>", "<genexpr>"
    std::string qualname;        // "Net.construct", "f.<locals>.g"
    const void* node = nullptr;  // the ast::Module / FunctionDef / Lambda / ClassDef / *Comp
    int firstLine = 1;

    // Local slots. Parameters come first, in binding order: positional (positional-only
    // ones first), keyword-only, then *args, then **kwargs.
    std::vector<std::string> varNames;
    int posOnlyCount = 0;
    int posCount = 0;  // positional parameters, positional-only included
    int kwOnlyCount = 0;
    bool hasVarArgs = false;
    bool hasVarKw = false;
    int paramCount() const {
        return posCount + kwOnlyCount + (hasVarArgs ? 1 : 0) + (hasVarKw ? 1 : 0);
    }

    // Cells this block owns (captured by inner blocks), then the free variables it receives.
    std::vector<std::string> cellNames;
    std::vector<int> cellParam;  // per cellNames entry: the parameter slot copied into it, or -1
    std::vector<std::string> freeNames;
    // Per freeNames entry: the index in the enclosing block's cells array it comes from.
    std::vector<int> closureSource;
    int cellCount() const { return static_cast<int>(cellNames.size() + freeNames.size()); }

    int classCell = -1;     // class body: cell index of __class__ (for zero-argument super())
    int classFreeVar = -1;  // function: cell index of its __class__ free variable, or -1

    // Where a name of this block lives (-1 if the block never mentions it).
    int slotOf(std::string_view name) const;       // index in varNames
    int cellIndexOf(std::string_view name) const;  // index in the cells array
};

// A parsed script with its scope analysis. Function and class objects keep it alive.
struct ScriptUnit {
    std::unique_ptr<ast::Module> module;
    std::unordered_map<const void*, std::unique_ptr<CodeInfo>> codes;
    // Name nodes, and binding sites that are not Name nodes: FunctionDef / ClassDef (their
    // name), Alias (import ... as), ExceptHandler (except ... as name).
    std::unordered_map<const void*, NameRef> names;

    const std::string& fileName() const { return module->fileName(); }
    const CodeInfo* codeOf(const void* node) const {
        auto it = codes.find(node);
        return it == codes.end() ? nullptr : it->second.get();
    }
    NameRef nameRef(const void* site) const {
        auto it = names.find(site);
        return it == names.end() ? NameRef{} : it->second;
    }
    const CodeInfo& moduleCode() const { return *codeOf(module.get()); }

    // Owned by the interpreter that runs the script: interned names and constants per node.
    // Cleared when that interpreter is destroyed.
    mutable std::shared_ptr<UnitCache> cache;
};

// Analyses a parsed module. Throws frontend::SyntaxError for scoping errors CPython reports
// at compile time ("no binding for nonlocal 'x' found", ...).
std::shared_ptr<ScriptUnit> analyzeScopes(std::unique_ptr<ast::Module> module);

}  // namespace irscope::interp
