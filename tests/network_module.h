// A generated network-shaped Module for the graph view's tests and benchmark: `blocks` dense
// residual blocks (MatMul with the block's weight, Add of a bias constant, ReLU, residual
// Add: 4 CNodes each) scoped like a Cell tree (`Default/network-Net/layers-<b/50>/
// Dense-<b%50>/...`), then a call of a helper graph whose body is an unscoped chain of
// `helperNodes` Negs.
#pragma once

#include <memory>
#include <string>

#include "ir/func_graph.h"
#include "ir/module.h"

namespace irscope::testing {

inline std::shared_ptr<ir::Module> networkModule(int blocks, int helperNodes) {
    using namespace ir;
    auto m = std::make_shared<Module>();
    const AbstractPtr act = Abstract::tensor(DType::Float32, Shape{32, 64});
    FuncGraph* helper = m->addGraph("Helper_construct");
    Node* y = m->addParameter(helper, "y");
    for (int i = 0; i < helperNodes; ++i) {
        y = m->addCNode(helper, {m->addValue(helper, Value::primitive("Neg")), y});
        y->setAbstract(act);
    }
    m->setOutput(helper, y);

    FuncGraph* g = m->addGraph("Net_construct");
    m->setEntry(g);
    Node* x = m->addParameter(g, "x");
    x->setAbstract(act);
    Node* h = x;
    for (int b = 0; b < blocks; ++b) {
        const std::string scope = "Default/network-Net/layers-" + std::to_string(b / 50) +
                                  "/Dense-" + std::to_string(b % 50) + "/";
        Node* w = m->addParameter(g, "layers." + std::to_string(b) + ".weight");
        w->setAbstract(Abstract::ref(DType::Float32, Shape{64, 64}, ":layers." + std::to_string(b)));
        auto op = [&](const char* name, std::vector<Node*> args) {
            args.insert(args.begin(), m->addValue(g, Value::primitive(name)));
            CNode* c = m->addCNode(g, args);
            c->setAbstract(act);
            c->mutableDebug().scope = scope + name + "-op" + std::to_string(b);
            return c;
        };
        CNode* mm = op("MatMul", {h, w});
        CNode* biased = op("Add", {mm, m->addValue(g, Value::floating(0.5))});
        CNode* relu = op("ReLU", {biased});
        h = op("Add", {h, relu});
    }
    CNode* call = m->addCNode(g, {m->addValue(g, Value::graphRef(helper)), h});
    m->setOutput(g, call);
    return m;
}

}  // namespace irscope::testing
