// JSON export of a Module for other tools (scripts, diffing, web viewers).
//
// Schema (format "irscope-ir", version 1); every id is a node's stable Node::id():
//
// {
//   "format": "irscope-ir", "version": 1,
//   "entry": "BackwardNet_construct" | null,
//   "attrs": { "<key>": "<value text>" },              // module attributes
//   "graphs": [{                                       // the .ir printer's order:
//     "name": "...", "reachable": true,                //  reachable graphs first
//     "attrs": { "<key>": "<value text>" },
//     "parameters": [id, ...],
//     "return": id | null,
//     "body": [id, ...],                               // printed order, Return last;
//                                                      //  index i is the local name %i
//     "source": [location, ...]
//   }],
//   "nodes": [{                                        // every node a listed graph uses,
//     "id": 7, "kind": "parameter" | "value" | "cnode", //  sorted by id
//     "graph": "name" | null,
//     "name": "param",              // parameters: the name; others: the debug name
//     "debug_name": "CNode_12$a",
//     "local": "%3" | "%para2_param" | null,  // the printer's name (Return has none)
//     "op": "Load" | null,          // CNodes calling a primitive
//     "call": "graph name" | null,  // CNodes calling a graph directly
//     "inputs": [id, ...],          // CNodes: input 0 is the callee
//     "abstract": "<Tensor[Int32], ()>" | null,  // formatAbstract
//     "value": "I64(3)" | null,     // value nodes: formatValue; weights: default value
//     "has_default": true,          // parameters only
//     "attrs": {...}, "primal_attrs": {...},      // CNodes only, when not empty
//     "scope": "Default/..." ,
//     "source": [location, ...]
//   }],
//   "edges": [{ "from": id, "to": id, "index": 1, "kind": "data" | "control" }]
// }
//
// location: { "file", "line", "line_end", "col", "col_end", "text" } (col -1 if unknown).
// Edge kinds follow classifyInput() in export_dot.h; index 0 edges are the callee.
#pragma once

#include <string>

#include "ir/module.h"

namespace irscope::ir {

// `indent` < 0 writes everything on one line.
std::string exportJson(const Module& m, int indent = 2);

}  // namespace irscope::ir
