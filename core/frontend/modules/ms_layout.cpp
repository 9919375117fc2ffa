// MindSpore's module layout: the submodules real scripts import from
// (mindspore.common.parameter, mindspore.common.initializer, mindspore.common.api,
// mindspore.nn.cell, mindspore.nn.loss, mindspore.nn.optim, mindspore.nn.wrap, ...) resolve to
// the same objects as the top-level names, and numpy.testing. The modules written in Python
// (frontend/modules/py/*.py, compiled in) run in the interpreter like a script's own code, so
// their Cells' construct methods compile in GRAPH_MODE exactly as user code does.
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "frontend/interp/evaluator.h"
#include "frontend/interp/scope.h"
#include "frontend/modules/ms_internal.h"
#include "frontend/parser.h"
#include "runtime/random.h"

namespace irscope::modules {

namespace {

struct PySource {
    std::string_view stem;
    std::string_view text;
};

#include "py_sources.inc"

std::string_view pySource(std::string_view stem) {
    for (const PySource& s : kPySources) {
        if (s.stem == stem) {
            // The arrays are not NUL-terminated; sizeof covers the text exactly.
            return s.text;
        }
    }
    return {};
}

// Runs Python source as the body of module `m` (file `fileName` in tracebacks). The body runs
// on an evaluator of its own; the functions and classes it defines are ordinary script
// objects afterwards.
void runSourceInModule(Interpreter& I, const std::string& source, const std::string& fileName,
                       interp::ModuleObject& m) {
    std::shared_ptr<interp::ScriptUnit> unit;
    try {
        unit = interp::analyzeScopes(frontend::parseModule(source, fileName));
    } catch (const frontend::SyntaxError& e) {
        throw PyError(Exc::RuntimeError,
                      std::string("irscope: built-in module does not parse: ") + e.what());
    }
    m.dict()->setStr(I.intern("__file__"), Value(I.newStr(fileName)));
    m.dict()->setStr(I.intern("__builtins__"), Value(&I.builtinsModule()));
    interp::Evaluator body(I);
    body.runModule(unit, m);
}

// Registers `name` as a module running frontend/modules/py/<stem>.py.
void registerPython(Interpreter& I, const std::string& name, std::string_view stem,
                    std::string fileName) {
    const std::string_view text = pySource(stem);
    I.registerModule(name, [text, fileName](Interpreter& J, interp::ModuleObject& m) {
        runSourceInModule(J, std::string(text), fileName, m);
    });
}

// Copies every public name of module `from` into `to` (names not starting with '_' that are
// not modules imported by `from`).
void copyPublic(Interpreter& I, interp::ModuleObject& from, interp::ModuleObject& to) {
    std::vector<std::pair<std::string, Value>> items;
    from.dict()->forEach([&](const Value& k, const Value& v) { items.emplace_back(I.str(k), v); });
    for (const auto& [key, v] : items) {
        if (key.empty() || key[0] == '_') {
            continue;
        }
        if (v.is<interp::ModuleObject>() || !to.dict()->getStr(key).isNull()) {
            continue;
        }
        // Only what the module defines (classes and functions whose __module__ is it).
        Value mod = I.getAttrOrNull(v, "__module__");
        if (mod.isNull() || I.str(mod) != from.name) {
            continue;
        }
        interp::addToModule(I, to, key, v);
    }
}

// Copies the public functions of module `from` into `to` where `to` lacks the name.
void copyFunctions(Interpreter& I, interp::ModuleObject& from, interp::ModuleObject& to) {
    std::vector<std::pair<std::string, Value>> items;
    from.dict()->forEach([&](const Value& k, const Value& v) { items.emplace_back(I.str(k), v); });
    for (const auto& [key, v] : items) {
        if (!key.empty() && key[0] != '_' && !v.is<interp::ModuleObject>() &&
            !v.is<interp::Type>() && to.dict()->getStr(key).isNull()) {
            interp::addToModule(I, to, key, v);
        }
    }
}

// A module whose names are those of another module (an alias like mindspore.nn.optim.momentum).
void registerAlias(Interpreter& I, const std::string& name, const std::string& of) {
    I.registerModule(name, [of](Interpreter& J, interp::ModuleObject& m) {
        Ref<interp::ModuleObject> src = J.importModule(of);
        std::vector<std::pair<std::string, Value>> items;
        src->dict()->forEach(
            [&](const Value& k, const Value& v) { items.emplace_back(J.str(k), v); });
        for (const auto& [key, v] : items) {
            if (key.rfind("__", 0) != 0) {
                m.dict()->setStr(J.intern(key), v);
            }
        }
    });
}

// A native module made of names copied from already-registered modules: {module, name}.
void registerNames(Interpreter& I, const std::string& name,
                   std::vector<std::pair<std::string, std::string>> names) {
    I.registerModule(name, [names](Interpreter& J, interp::ModuleObject& m) {
        for (const auto& [mod, n] : names) {
            Value v = J.getAttr(Value(J.importModule(mod)), n);
            interp::addToModule(J, m, n, v);
        }
    });
}

}  // namespace

// Adds the Python-written names of mindspore.nn (losses, optimizers, wrappers) to `nn`.
void addPythonNnNames(Interpreter& I, interp::ModuleObject& nn) {
    for (const char* sub : {"mindspore.nn.loss", "mindspore.nn.optim", "mindspore.nn.wrap",
                            "mindspore.nn.wrap.loss_scale", "mindspore.nn.layer",
                            "mindspore.nn.layer.normalization"}) {
        copyPublic(I, *I.importModule(sub), nn);
    }
}

void addPythonOpsNames(Interpreter& I, interp::ModuleObject& ops) {
    copyPublic(I, *I.importModule("mindspore.ops._function"), ops);
    copyPublic(I, *I.importModule("mindspore.ops._array_function"), ops);
    copyPublic(I, *I.importModule("mindspore.ops.primitive"), ops);  // ops.constexpr
}

void addPythonNumpyNames(Interpreter& I, interp::ModuleObject& numpy, interp::ModuleObject& random) {
    interp::ModuleObject& more = *I.importModule("numpy._irscope_more");
    copyPublic(I, more, numpy);
    interp::addToModule(I, random, "choice", I.getAttr(Value(&more), "_choice"));
}

void registerLayoutModules(Interpreter& I) {
    registerPython(I, "numpy._irscope_more", "numpy_more", "numpy/_irscope_more.py");
    registerPython(I, "tempfile", "tempfile_module", "tempfile.py");
    registerPython(I, "stat", "stat_module", "stat.py");
    // The Python-written functions run in modules of their own: mindspore.ops.function also
    // holds ops.range, ops.max, ..., which must not shadow the builtins that code uses.
    registerPython(I, "mindspore.ops._array_function", "ms_ops_array", "mindspore/ops/function/array_func.py");
    I.registerModule("mindspore.ops._function",
                     [text = pySource("ms_ops_function")](Interpreter& J, interp::ModuleObject& m) {
                         // Tensor is a native (immutable) class: its Python-written methods
                         // are added here.
                         interp::addFunction(J, m, "_add_tensor_method", [](Interpreter& K, CallArgs& a) {
                             Value cls = K.getAttr(Value(K.importModule("mindspore")), "Tensor");
                             if (auto* t = cls.as<interp::Type>()) {
                                 t->dict()->setStr(K.intern(K.str(interp::argAt(a, 0, "name"))),
                                                   interp::argAt(a, 1, "fn"));
                             }
                             return Value::none();
                         });
                         runSourceInModule(J, std::string(text), "mindspore/ops/function/__init__.py", m);
                         // ops.functional (F) re-exports them (F.max): importing mindspore.ops
                         // has finished F's own names before this module runs.
                         copyPublic(J, m, *J.importModule("mindspore.ops.functional"));
                         copyPublic(J, *J.importModule("mindspore.ops._array_function"),
                                    *J.importModule("mindspore.ops.functional"));
                     });
    // MindSpore's ops.function: every functional op (tanh, gather, ...) and the ones above.
    I.registerModule("mindspore.ops.function", [](Interpreter& J, interp::ModuleObject& m) {
        copyPublic(J, *J.importModule("mindspore.ops._function"), m);
        copyPublic(J, *J.importModule("mindspore.ops._array_function"), m);
        copyFunctions(J, *J.importModule("mindspore.ops.functional"), m);
    });
    registerPython(I, "numpy.testing", "numpy_testing", "numpy/testing/__init__.py");
    registerPython(I, "mindspore.common.initializer", "ms_initializer",
                   "mindspore/common/initializer.py");
    registerPython(I, "mindspore.nn.loss", "ms_nn_loss", "mindspore/nn/loss/loss.py");
    registerAlias(I, "mindspore.nn.loss.loss", "mindspore.nn.loss");
    registerPython(I, "mindspore.nn.optim", "ms_nn_optim", "mindspore/nn/optim/optimizer.py");
    for (const char* sub : {"optimizer", "momentum", "sgd", "adam", "rmsprop"}) {
        registerAlias(I, std::string("mindspore.nn.optim.") + sub, "mindspore.nn.optim");
    }
    registerPython(I, "mindspore.nn.wrap", "ms_nn_wrap", "mindspore/nn/wrap/cell_wrapper.py");
    registerAlias(I, "mindspore.nn.wrap.cell_wrapper", "mindspore.nn.wrap");
    registerPython(I, "mindspore.nn.wrap.loss_scale", "ms_nn_loss_scale",
                   "mindspore/nn/wrap/loss_scale.py");
    registerPython(I, "mindspore.dataset", "ms_dataset", "mindspore/dataset/__init__.py");
    registerPython(I, "mindspore.numpy", "ms_numpy", "mindspore/numpy/__init__.py");
    registerPython(I, "mindspore.train", "ms_train", "mindspore/train/model.py");
    registerAlias(I, "mindspore.train.model", "mindspore.train");
    registerPython(I, "mindspore.amp", "ms_amp", "mindspore/amp.py");
    registerPython(I, "pytest", "pytest_module", "pytest/__init__.py");
    // MindSpore's test tree marks tests with tests.mark_utils.arg_mark (a package of its own).
    I.registerModule("tests", [](Interpreter&, interp::ModuleObject&) {});
    registerPython(I, "tests.mark_utils", "tests_mark_utils", "tests/mark_utils.py");
    // Its control-flow tests register each function with tests.st.control.cases_register.
    I.registerModule("tests.st", [](Interpreter&, interp::ModuleObject&) {});
    I.registerModule("tests.st.control", [](Interpreter&, interp::ModuleObject&) {});
    registerPython(I, "tests.st.control.cases_register", "tests_cases_register",
                   "tests/st/control/cases_register.py");
    I.registerModule("os", [](Interpreter& J, interp::ModuleObject& m) { initOs(J, m); });
    I.registerModule("os.path", [](Interpreter& J, interp::ModuleObject& m) { initOsPath(J, m); });
    I.registerModule("sys",
                     [text = pySource("sys_module")](Interpreter& J, interp::ModuleObject& m) {
                         interp::addFunction(J, m, "_write_error", [](Interpreter& K, CallArgs& a) {
                             K.writeError(K.str(interp::argAt(a, 0, "text")));
                             return Value::none();
                         });
                         runSourceInModule(J, std::string(text), "sys.py", m);
                     });
    I.registerModule("random", [text = pySource("random_module")](Interpreter& J, interp::ModuleObject& m) {
        // The module's own MT19937 (CPython's random is a generator of its own, not numpy's).
        auto rs = std::make_shared<runtime::RandomState>();
        interp::addFunction(J, m, "_seed", [rs](Interpreter& K, CallArgs& a) {
            const Value words = interp::argAt(a, 0, "words");
            if (words.isNone()) {
                *rs = runtime::RandomState();
            } else {
                std::vector<std::uint32_t> key;
                for (const Value& w : K.toVector(words)) {
                    key.push_back(static_cast<std::uint32_t>(K.toIndex(w)));
                }
                rs->seedArray(key);
            }
            return Value::none();
        });
        interp::addFunction(J, m, "_u32", [rs](Interpreter&, CallArgs&) {
            return Value::integer(static_cast<std::int64_t>(rs->nextUInt32()));
        });
        interp::addFunction(J, m, "_random", [rs](Interpreter&, CallArgs&) { return Value::real(rs->randomSample()); });
        runSourceInModule(J, std::string(text), "random.py", m);
    });
    I.registerModule("re", [text = pySource("re_module")](Interpreter& J, interp::ModuleObject& m) {
        initReEngine(J, m);
        runSourceInModule(J, std::string(text), "re.py", m);
    });
    registerPython(I, "mindspore.nn.layer", "ms_nn_conv", "mindspore/nn/layer/conv.py");
    for (const char* sub : {"conv", "pooling", "basic", "embedding"}) {
        registerAlias(I, std::string("mindspore.nn.layer.") + sub, "mindspore.nn.layer");
    }
    registerPython(I, "mindspore.nn.layer.normalization", "ms_nn_norm_act",
                   "mindspore/nn/layer/normalization.py");
    for (const char* sub : {"activation", "padding"}) {
        registerAlias(I, std::string("mindspore.nn.layer.") + sub,
                      "mindspore.nn.layer.normalization");
    }
    // MindSpore's primitive classes live in submodules of mindspore.ops.operations; each
    // submodule name gives the whole set.
    for (const char* sub : {"array_ops", "math_ops", "nn_ops", "other_ops", "comm_ops", "random_ops",
                            "image_ops", "debug_ops", "control_ops", "_inner_ops"}) {
        registerAlias(I, std::string("mindspore.ops.operations.") + sub,
                      "mindspore.ops.operations");
    }
    registerPython(I, "mindspore.ops.primitive", "ms_ops_primitive", "mindspore/ops/primitive.py");
    registerNames(I, "mindspore.nn.cell", {{"mindspore.nn", "Cell"}});
    registerNames(I, "mindspore.common.parameter",
                  {{"mindspore", "Parameter"}, {"mindspore", "ParameterTuple"}});
    registerNames(I, "mindspore.common.tensor", {{"mindspore", "Tensor"}});
    registerNames(I, "mindspore.common.api",
                  {{"mindspore", "jit"}, {"mindspore", "ms_function"}, {"mindspore", "jit_class"},
                   {"mindspore", "ms_class"}});
    registerNames(I, "mindspore.common.seed",
                  {{"mindspore", "set_seed"}, {"mindspore", "get_seed"}});
}

}  // namespace irscope::modules
