// A generator of random Modules for round-trip tests of the .ir format: every value kind,
// every abstract kind, primitives with attributes, graph calls, Partial/Switch of graphs,
// node callees, free variables (including parent nodes only the child uses), debug info,
// graph and module attributes, weights with defaults, and names that need quoting.
//
// What the text format cannot express is avoided, not hidden: value nodes are never shared
// between uses (each use prints on its own), graph names are unique, a Return node has no
// debug name, debug texts are single lines whose notes start with "<~~".
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/module.h"

namespace irscope::testing {

class RandomModuleBuilder {
public:
    explicit RandomModuleBuilder(std::uint64_t seed) : rng_(seed) {}

    std::unique_ptr<ir::Module> build() {
        using namespace ir;
        m_ = std::make_unique<Module>();
        const int ngraphs = 1 + pick(5);
        for (int k = 0; k < ngraphs; ++k) {
            graphs_.push_back(m_->addGraph(graphName(k)));
        }
        m_->setEntry(graphs_[pick(ngraphs)]);
        if (chance(40)) {
            randomAttrs(m_->attrs(), 1 + pick(3), true);
        }
        for (FuncGraph* g : graphs_) {
            const int nparams = pick(4);
            for (int k = 0; k < nparams; ++k) {
                Parameter* p = m_->addParameter(g, oneOf(kParamNames));
                if (chance(85)) {
                    p->setAbstract(randomAbstract(0));
                }
                if (chance(g == m_->entry() ? 40 : 10)) {
                    p->setDefault(chance(50) ? randomValue(1) : nullptr);
                }
            }
            if (chance(50)) {
                randomAttrs(g->attrs(), 1 + pick(4), true);
            }
            if (chance(60)) {
                randomTrace(g->debug());
            }
        }
        // Bodies are built in a shuffled order so free variables point both ways.
        std::vector<FuncGraph*> order = graphs_;
        std::shuffle(order.begin(), order.end(), rng_);
        for (FuncGraph* g : order) {
            body(g);
        }
        return std::move(m_);
    }

private:
    using Strings = std::vector<std::string>;

    int pick(int n) { return n <= 0 ? 0 : std::uniform_int_distribution<int>(0, n - 1)(rng_); }
    bool chance(int percent) { return pick(100) < percent; }
    template <typename T>
    const T& oneOf(const std::vector<T>& v) {
        return v[static_cast<std::size_t>(pick(static_cast<int>(v.size())))];
    }

    std::string graphName(int k) {
        static const Strings prefixes = {"", "", "✓", "✗", "↓", "↵", "↻", "▸", "◂", "CR_"};
        static const Strings bases = {
            "BackwardNet_construct", "Net_construct",          "func",
            "1_construct_wrapper",   "__main___Net_construct", "Block.construct"};
        if (chance(8)) {
            static const Strings odd = {"sub graph", "g:x", "", "a(b)", "\"q\"", "tab\there"};
            return oneOf(odd) + "#" + std::to_string(k);
        }
        return std::to_string(k + 1) + "_" + oneOf(prefixes) + oneOf(bases) + "." +
               std::to_string(20 + k);
    }

    inline static const Strings kParamNames = {
        "x", "y", "inputs0", "param", "fc.weight", "Parameter_320", "w", "", "a b", "x:1"};

    // --- values ---------------------------------------------------------------------
    ir::ValuePtr randomValue(int depth) {
        using namespace ir;
        static const std::vector<DType> ints = {DType::Int8,   DType::Int16, DType::Int32,
                                                DType::Int64,  DType::UInt8, DType::UInt16,
                                                DType::UInt32, DType::UInt64};
        static const std::vector<DType> floats = {DType::Float16, DType::BFloat16, DType::Float32,
                                                  DType::Float64};
        switch (pick(depth > 2 ? 11 : 13)) {
            case 0:
                return Value::none();
            case 1:
                return Value::boolean(chance(50));
            case 2: {
                static const std::vector<std::int64_t> specials = {
                    0,
                    1,
                    -1,
                    3,
                    30,
                    std::numeric_limits<std::int64_t>::min(),
                    std::numeric_limits<std::int64_t>::max()};
                return Value::integer(chance(50) ? oneOf(specials) : pick(100000) - 500,
                                      oneOf(ints));
            }
            case 3:
                return Value::floating(randomDouble(), oneOf(floats));
            case 4:
                return Value::string(randomString());
            case 5:
                return Value::tensorValue(randomTensor());
            case 6:
                return Value::type(static_cast<DType>(pick(16)));
            case 7:
                return randomPrimitive(depth);
            case 8:
                return Value::graphRef(oneOf(graphs_));
            case 9:
                return Value::monadValue(chance(50) ? MonadKind::U : MonadKind::IO);
            case 10: {
                static const Strings opaque = {
                    "NameSpace[CommonOPS: 'Namespace:mindspore._extends.parse.trope']",
                    "<ValueAny>",
                    "ClassType<Net>",
                    "1.5e3",
                    "Keyword[key: I64(1)]",
                    "{a: b}",
                    "Ellipsis x",
                    "-",
                    "Dictionary[[a, b], [I64(1), I64(2)]]"};
                return Value::opaque(oneOf(opaque));
            }
            default: {
                std::vector<ValuePtr> elems;
                const int n = pick(4);
                for (int k = 0; k < n; ++k) {
                    elems.push_back(randomValue(depth + 1));
                }
                return chance(50) ? Value::tuple(std::move(elems)) : Value::list(std::move(elems));
            }
        }
    }

    double randomDouble() {
        static const std::vector<double> specials = {0.0,
                                                     -0.0,
                                                     1.5,
                                                     0.1,
                                                     -2.25,
                                                     1e-8,
                                                     3.4e38,
                                                     1e300,
                                                     std::numeric_limits<double>::infinity(),
                                                     -std::numeric_limits<double>::infinity(),
                                                     std::numeric_limits<double>::quiet_NaN(),
                                                     5e-324};
        if (chance(40)) {
            return oneOf(specials);
        }
        return std::uniform_real_distribution<double>(-1e6, 1e6)(rng_);
    }

    std::string randomString() {
        static const Strings strs = {"data_format", "NCHW",        "",         "with \"quotes\"",
                                     "back\\slash", "line\nbreak", "tab\t",    "✓ unicode ↻",
                                     "{brace}",     "a, b)",       "\x01\x7f", "782039"};
        if (chance(80)) {
            return oneOf(strs);
        }
        std::string s;
        const int n = pick(12);
        for (int k = 0; k < n; ++k) {
            s += static_cast<char>(pick(256));
        }
        return s;
    }

    ir::TensorData randomTensor() {
        using namespace ir;
        TensorData t;
        t.dtype = static_cast<DType>(pick(16));
        const int rank = pick(4);
        for (int k = 0; k < rank; ++k) {
            t.shape.dims.push_back(chance(5) ? -1 : pick(5));
        }
        if (chance(3)) {
            t.shape.dims = {300};  // more than the printer writes out: `value=...`
        }
        const std::int64_t n = t.shape.elementCount();
        if (n >= 0 && chance(80) && t.dtype != DType::String) {
            t.data.resize(static_cast<std::size_t>(n) * dtypeSize(t.dtype));
            for (std::size_t k = 0; k < t.data.size(); ++k) {
                t.data[k] = static_cast<std::byte>(pick(256));
            }
            if (t.dtype == DType::Bool) {
                for (auto& b : t.data) {
                    b = static_cast<std::byte>(static_cast<unsigned>(b) & 1u);
                }
            }
        }
        return t;
    }

    ir::ValuePtr randomPrimitive(int depth) {
        using namespace ir;
        static const Strings names = {"Add",
                                      "MatMul",
                                      "S-Prim-MakeTuple",
                                      "PrimFunc_Sub",
                                      "Load",
                                      "hyper_map",
                                      "None",
                                      "Prim",
                                      "5x",
                                      "a b",
                                      "Primitive::Return",
                                      ""};
        PrimitiveData p;
        p.name = oneOf(names);
        if (chance(30)) {
            static const Strings inst = {"add", "relu", "with }brace", " padded "};
            p.instanceName = oneOf(inst);
        }
        if (chance(30) && depth < 3) {
            randomAttrs(p.attrs, 1 + pick(3), false, depth + 1);
        }
        return Value::primitive(std::move(p));
    }

    void randomAttrs(ir::AttrMap& attrs, int n, bool lineStyle, int depth = 1) {
        using namespace ir;
        static const Strings keys = {"input_names", "side_effect_mem", "checkpoint", "unique_id",
                                     "no_inline",   "instance name",   "k.1",        "",
                                     "jit_level",   "cell_reuse"};
        for (int k = 0; k < n; ++k) {
            ValuePtr v;
            if (lineStyle && chance(50)) {
                static const Strings strs = {"O0",  "",      "1",    "I64(3)", "@x",     "None",
                                             "a b", " lead", "x(1)", "Prim",   "trail ", "\"q\""};
                switch (pick(4)) {
                    case 0:
                        v = Value::boolean(chance(50));
                        break;
                    case 1:
                        v = Value::integer(pick(7) - 2);
                        break;
                    default:
                        v = Value::string(oneOf(strs));
                        break;
                }
            } else {
                v = randomValue(depth + 1);
            }
            attrs.set(oneOf(keys), std::move(v));
        }
    }

    // --- abstracts ------------------------------------------------------------------------
    ir::Shape randomShape() {
        ir::Shape s;
        if (chance(5)) {
            s.dynamicRank = true;
            return s;
        }
        const int rank = pick(4);
        for (int k = 0; k < rank; ++k) {
            s.dims.push_back(chance(10) ? -1 : pick(4097));
        }
        return s;
    }

    ir::AbstractPtr randomAbstract(int depth) {
        using namespace ir;
        switch (pick(depth > 2 ? 9 : 11)) {
            case 0:
                return Abstract::tensor(static_cast<DType>(pick(16)), randomShape(), chance(30));
            case 1: {
                static const Strings keys = {":param", "w", "", "model.layers.0.wq.weight"};
                return Abstract::ref(static_cast<DType>(pick(16)), randomShape(), oneOf(keys));
            }
            case 2:
                return Abstract::scalar(static_cast<DType>(pick(16)));
            case 3:
                return Abstract::func();
            case 4:
                return Abstract::monadAbs(chance(50) ? MonadKind::U : MonadKind::IO);
            case 5:
                return Abstract::noneAbs();
            case 6:
                return Abstract::typeAbs();
            case 7: {
                static const Strings opaque = {
                    "Keyword[key, Int64], NoShape", "Problem, NoShape", "",
                    "Slice[Int64:Int64:Int64], NoShape",
                    "Tuple[Int64*2], TupleShape(NoShape, NoShape), elements_use_flags={[const "
                    "vector]{1, 1}}"};
                return Abstract::opaque(oneOf(opaque));
            }
            case 8:
                return Abstract::tensor(DType::Float32, Shape{2, 3});
            default: {
                std::vector<AbstractPtr> elems;
                const int n = pick(4);
                const bool same = chance(40);
                AbstractPtr first = randomAbstract(depth + 1);
                for (int k = 0; k < n; ++k) {
                    elems.push_back(same ? first
                                         : (chance(5) ? nullptr : randomAbstract(depth + 1)));
                }
                return chance(70) ? Abstract::tuple(std::move(elems))
                                  : Abstract::list(std::move(elems));
            }
        }
    }

    // --- debug info ---------------------------------------------------------------------
    void randomTrace(ir::DebugInfo& d) {
        static const Strings files = {"f.py", "/home/user/net work/train.py", "C:\\proj\\t6.py",
                                      "✓mod.py"};
        static const Strings texts = {"    a = ops.sub(x, 1)", "        return x / y", "",
                                      "def construct(self, x, y):", "  /x/  "};
        const int n = 1 + pick(3);
        for (int k = 0; k < n; ++k) {
            ir::SourceLocation loc;
            loc.file = oneOf(files);
            loc.line = pick(300);
            loc.lineEnd = chance(30) ? loc.line + pick(5) : loc.line;
            if (chance(70)) {
                loc.col = pick(40);
                loc.colEnd = loc.col + pick(40);
            }
            loc.text = oneOf(texts);
            if (chance(25)) {
                loc.note =
                    "<~~This line of code can be shared by multiple nodes, and may be "
                    "duplicated./";
            }
            d.trace.push_back(std::move(loc));
        }
    }

    void randomDebug(ir::DebugInfo& d, bool withName) {
        static const Strings names = {
            "CNode_12$a",   "[CNode]5", "a",          "output", "equiv_180_CNode_16165",
            "weird (name)", " spaced",  "\"quoted\"", ""};
        static const Strings scopes = {"Default", "Default/network-Net/Add-op0", "(5)",
                                       "Gradients/Default/Grad_Mul/Mul-op3", "a (b) c"};
        if (withName && chance(70)) {
            d.name = oneOf(names);
        }
        if (chance(60)) {
            d.scope = oneOf(scopes);
        }
        if (chance(50)) {
            randomTrace(d);
        }
    }

    // --- graph bodies ---------------------------------------------------------------------
    ir::Node* freeVariable(ir::FuncGraph* self) {
        std::vector<ir::Node*> pool;
        for (ir::FuncGraph* g : graphs_) {
            if (g == self) {
                continue;
            }
            for (ir::Parameter* p : g->parameters()) {
                pool.push_back(p);
            }
            for (ir::CNode* c : cnodes_[g]) {
                pool.push_back(c);
            }
        }
        return pool.empty() ? nullptr : oneOf(pool);
    }

    ir::Node* argument(ir::FuncGraph* g) {
        using namespace ir;
        const auto& mine = cnodes_[g];
        const int r = pick(100);
        if (r < 35 && !mine.empty()) {
            // Mostly recent nodes, so chains form and some nodes stay unused.
            const int n = static_cast<int>(mine.size());
            return mine[static_cast<std::size_t>(std::max(0, n - 1 - pick(4)))];
        }
        if (r < 50 && !g->parameters().empty()) {
            return oneOf(g->parameters());
        }
        if (r < 62) {
            if (Node* fv = freeVariable(g)) {
                return fv;
            }
        }
        ValueNode* v = m_->addValue(g, randomValue(0));
        if (chance(60)) {
            v->setAbstract(randomAbstract(0));
        }
        return v;
    }

    ir::Node* callee(ir::FuncGraph* g, std::vector<ir::Node*>& args) {
        using namespace ir;
        const int r = pick(100);
        if (r < 55) {
            return m_->addValue(g, randomPrimitive(0));
        }
        if (r < 65) {
            return m_->addValue(g, Value::graphRef(oneOf(graphs_)));
        }
        if (r < 75) {  // Partial(@g, args...)
            args.insert(args.begin(), m_->addValue(g, Value::graphRef(oneOf(graphs_))));
            return m_->addValue(g, Value::primitive("Partial"));
        }
        if (r < 82) {  // Switch(cond, @a, @b)
            args = {argument(g), m_->addValue(g, Value::graphRef(oneOf(graphs_))),
                    m_->addValue(g, Value::graphRef(oneOf(graphs_)))};
            return m_->addValue(g, Value::primitive("Switch"));
        }
        if (r < 92 && !cnodes_[g].empty()) {
            return oneOf(cnodes_[g]);
        }
        if (r < 96 && !g->parameters().empty()) {
            return oneOf(g->parameters());
        }
        if (Node* fv = freeVariable(g)) {
            return fv;
        }
        return m_->addValue(g, Value::primitive("Add"));
    }

    void body(ir::FuncGraph* g) {
        using namespace ir;
        const int n = 1 + pick(10);
        for (int k = 0; k < n; ++k) {
            std::vector<Node*> args;
            const int nargs = pick(5);
            for (int a = 0; a < nargs; ++a) {
                args.push_back(argument(g));
            }
            Node* fn = callee(g, args);
            std::vector<Node*> inputs{fn};
            inputs.insert(inputs.end(), args.begin(), args.end());
            CNode* c = m_->addCNode(g, inputs);
            if (chance(70)) {
                c->setAbstract(randomAbstract(0));
            }
            randomDebug(c->mutableDebug(), true);
            if (chance(20)) {
                randomAttrs(c->attrs(), 1 + pick(2), false);
            }
            if (chance(10)) {
                randomAttrs(c->primalAttrs(), 1 + pick(2), false);
            }
            cnodes_[g].push_back(c);
        }
        if (g != m_->entry() && chance(5)) {
            return;  // a graph without a Return (still being built)
        }
        Node* out = chance(80) ? static_cast<Node*>(cnodes_[g].back()) : argument(g);
        CNode* ret = m_->setOutput(g, out);
        if (chance(60)) {
            ret->setAbstract(out->abstract() && chance(80) ? out->abstract() : randomAbstract(0));
        }
        randomDebug(ret->mutableDebug(), false);
        if (chance(15)) {
            randomAttrs(ret->attrs(), 1, false);
        }
    }

    std::mt19937_64 rng_;
    std::unique_ptr<ir::Module> m_;
    std::vector<ir::FuncGraph*> graphs_;
    std::unordered_map<ir::FuncGraph*, std::vector<ir::CNode*>> cnodes_;
};

inline std::unique_ptr<ir::Module> randomModule(std::uint64_t seed) {
    return RandomModuleBuilder(seed).build();
}

}  // namespace irscope::testing
