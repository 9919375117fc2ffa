// mindspore.load, nn.GraphCell and mindspore.export (MindIR files, core/mindir):
//
//   graph = ms.load("lenet.mindir")           # a graph read from a file next to the script
//   out = nn.GraphCell(graph)(x)              # runs it (the GraphCompiler: irscope-cli run,
//                                             # the debugger, the Execution dock)
//   ms.export(net, x, file_name="net", file_format="MINDIR")   # writes net.mindir
//
// Scripts stay confined: load reads and export writes only `.mindir` files in the running
// script's folder or below it.
#include <filesystem>
#include <fstream>

#include "frontend/modules/ms_internal.h"
#include "ir/module.h"
#include "mindir/mindir.h"

namespace irscope::modules {

interp::Value GraphCompiler::runLoaded(interp::Interpreter&,
                                       const std::shared_ptr<const ir::Module>&, const std::string&,
                                       interp::CallArgs&) {
    throw PyError(Exc::RuntimeError,
                  "irscope: running a loaded MindIR graph is not available here");
}

std::unique_ptr<ir::Module> GraphCompiler::exportGraph(interp::Interpreter&, const interp::Value&,
                                                       interp::CallArgs&) {
    throw PyError(Exc::RuntimeError, "irscope: exporting a graph is not available here");
}

namespace {

namespace fs = std::filesystem;
using interp::ClassBuilder;
using interp::Signature;

// What mindspore.load returns (MindSpore's FuncGraph of the file).
class LoadedGraphObject : public Object {
public:
    explicit LoadedGraphObject(Type* t) : Object(t, interp::ObjKind::Native) {}
    std::shared_ptr<const ir::Module> module;
    std::string file;
};

class GraphCellObject : public Object {
public:
    explicit GraphCellObject(Type* t) : Object(t, interp::ObjKind::Native) {}
    std::shared_ptr<const ir::Module> module;
    std::string file;
};

// The running script's folder (absolute, normalised).
fs::path scriptFolder(Interpreter& I) {
    const interp::Location where = I.currentLocation();
    const std::string file = where.unit ? where.unit->fileName() : std::string();
    std::error_code ec;
    fs::path dir = fs::path(file).parent_path();
    if (dir.empty()) {
        dir = fs::current_path(ec);
    }
    return fs::weakly_canonical(fs::absolute(dir, ec), ec);
}

// Whether `p` is `base` or below it, component by component.
bool isBelow(const fs::path& p, const fs::path& base) {
    auto it = p.begin();
    for (const fs::path& part : base) {
        if (part.empty()) {
            continue;  // a trailing separator
        }
        if (it == p.end() || *it != part) {
            return false;
        }
        ++it;
    }
    return true;
}

// `name` resolved against the script's folder, refused outside it or without `.mindir`.
fs::path confinedPath(Interpreter& I, const std::string& api, const std::string& name) {
    if (!mindir::hasMindirExtension(name)) {
        throw PyError(Exc::ValueError, "For '" + api + "', the argument 'file_name'(" + name +
                                           ") must end with '.mindir', please input the correct "
                                           "'file_name'.");
    }
    const fs::path base = scriptFolder(I);
    std::error_code ec;
    const fs::path target = fs::weakly_canonical(base / fs::path(name), ec);
    if (ec || !isBelow(target, base)) {
        throw PyError(Exc::ValueError, "For '" + api +
                                           "', irscope scripts may only use .mindir "
                                           "files in the script's folder or below it, but got '" +
                                           name + "'.");
    }
    return target;
}

std::string keyArg(Interpreter& I, const Value& v) {
    if (v.isNull() || v.isNone()) {
        return {};
    }
    if (auto* s = v.as<interp::StrObject>()) {
        return s->value;
    }
    throw PyError(Exc::TypeError, "The key must be a str, but got " + I.typeName(v) + ".");
}

}  // namespace

void initMindirApi(Interpreter& I, const MsPtr& ms, interp::ModuleObject& m) {
    // One FuncGraph class per interpreter, kept alive by its module state (scripts of
    // several interpreters may run at once: no static).
    const Ref<Type> graphType =
        ClassBuilder(I, "FuncGraph", "mindspore")
            .layout<LoadedGraphObject>()
            .method(
                "__repr__",
                [](Interpreter& J, CallArgs& a) -> Value {
                    auto* g = a.pos.at(0).as<LoadedGraphObject>();
                    return Value(J.newStr(
                        "FuncGraph(" + (g && g->module ? g->module->entry()->name() : "") + ")"));
                })
            .build();
    ms->keep.push_back(Value(graphType));
    interp::addToModule(I, m, "FuncGraph", Value(graphType));
    Type* const graphClass = graphType.get();
    interp::addFunction(I, m, "load", [graphClass](Interpreter& J, CallArgs& a) -> Value {
        static const Signature sig = Signature("load")
                                         .arg("file_name")
                                         .kwOnly("dec_key", Value::none())
                                         .kwOnly("dec_mode", Value::none())
                                         .kwOnly("obf_func", Value::none());
        auto v = sig.bind(J, a);
        const std::string name = interp::toStr(J, v[0], "file_name");
        const fs::path path = confinedPath(J, "load", name);
        std::error_code ec;
        if (!fs::is_regular_file(path, ec)) {
            throw PyError(Exc::ValueError, "For 'load', the argument 'file_name'(" + name +
                                               ") does not exist, please check whether the "
                                               "'file_name' is correct.");
        }
        mindir::ReadOptions o;
        o.decKey = keyArg(J, v[1]);
        if (!v[2].isNone() && !v[2].isNull()) {
            o.decMode = interp::toStr(J, v[2], "dec_mode");
        }
        try {
            mindir::Model model = mindir::readMindirFile(path.string(), o);
            Ref<LoadedGraphObject> g = J.make<LoadedGraphObject>(graphClass);
            g->module = std::shared_ptr<const ir::Module>(std::move(model.module));
            g->file = path.string();
            return Value(g);
        } catch (const mindir::MindirError& e) {
            if (e.kind() == mindir::MindirError::Kind::Encrypted) {
                throw PyError(Exc::RuntimeError,
                              "For 'load', the MindIR file " + name +
                                  " is encrypted; give the key it was exported with as "
                                  "'dec_key'.");
            }
            throw PyError(Exc::RuntimeError, std::string("For 'load', ") + e.what());
        }
    });
    interp::addFunction(I, m, "export", [ms](Interpreter& J, CallArgs& a) -> Value {
        if (a.pos.empty()) {
            throw PyError(Exc::TypeError, "export() missing 1 required positional argument: 'net'");
        }
        const Value net = a.pos[0];
        std::string name;
        std::string format = "MINDIR";
        mindir::WriteOptions o;
        for (const interp::KwArg& k : a.kw) {
            if (k.name == "file_name") {
                name = interp::toStr(J, k.value, "file_name");
            } else if (k.name == "file_format") {
                format = interp::toStr(J, k.value, "file_format");
            } else if (k.name == "enc_key") {
                o.encKey = keyArg(J, k.value);
            } else if (k.name == "enc_mode") {
                const std::string mode = interp::toStr(J, k.value, "enc_mode");
                o.encMode = mode == "AES-CBC"   ? mindir::Encryption::AesCbc
                            : mode == "SM4-CBC" ? mindir::Encryption::Sm4Cbc
                                                : mindir::Encryption::AesGcm;
            } else {
                throw PyError(Exc::TypeError,
                              "export() got an unexpected keyword argument '" + k.name + "'");
            }
        }
        if (name.empty()) {
            throw PyError(Exc::TypeError,
                          "export() missing 1 required keyword argument: 'file_name'");
        }
        if (format != "MINDIR") {
            throw PyError(Exc::ValueError,
                          "For 'export', irscope writes only the 'MINDIR' file_format, but "
                          "got '" +
                              format + "'.");
        }
        if (!mindir::hasMindirExtension(name)) {
            name += ".mindir";
        }
        const fs::path path = confinedPath(J, "export", name);
        if (!ms->ctx->compiler) {
            throw PyError(Exc::RuntimeError,
                          "irscope: export needs the graph compiler (irscope-cli run, the app)");
        }
        CallArgs inputs(std::vector<Value>(a.pos.begin() + 1, a.pos.end()));
        const std::unique_ptr<ir::Module> graph = ms->ctx->compiler->exportGraph(J, net, inputs);
        std::string bytes;
        try {
            bytes = mindir::writeMindir(*graph, o);
        } catch (const std::exception& e) {
            throw PyError(Exc::RuntimeError, std::string("For 'export', ") + e.what());
        }
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!out) {
            throw PyError(Exc::RuntimeError, "For 'export', cannot write " + path.string());
        }
        return Value::none();
    });
}

void initGraphCell(Interpreter& I, const MsPtr& ms, interp::ModuleObject& m) {
    Ref<Type> cls =
        ClassBuilder(I, "GraphCell", "mindspore.nn")
            .layout<GraphCellObject>()
            .method("__init__",
                    [](Interpreter& J, CallArgs& a) -> Value {
                        static const Signature sig = Signature("GraphCell.__init__")
                                                         .arg("self")
                                                         .arg("graph")
                                                         .arg("params_init", Value::none());
                        auto v = sig.bind(J, a);
                        auto* self = v[0].as<GraphCellObject>();
                        auto* g = v[1].as<LoadedGraphObject>();
                        if (g == nullptr) {
                            throw PyError(
                                Exc::TypeError,
                                "For 'GraphCell', the argument 'graph' must be a FuncGraph loaded "
                                "from a MINDIR file, but got " +
                                    J.typeName(v[1]) + ".");
                        }
                        if (!v[2].isNone() && !v[2].isNull()) {
                            throw PyError(
                                Exc::NotImplementedError,
                                "irscope: GraphCell's 'params_init' is not supported yet");
                        }
                        self->module = g->module;
                        self->file = g->file;
                        return Value::none();
                    })
            .method("__call__",
                    [ms](Interpreter& J, CallArgs& a) -> Value {
                        auto* self = a.pos.at(0).as<GraphCellObject>();
                        if (self == nullptr || !self->module) {
                            throw PyError(Exc::RuntimeError,
                                          "GraphCell was not initialised with a graph");
                        }
                        if (!ms->ctx->compiler) {
                            throw PyError(Exc::RuntimeError,
                                          "irscope: running a loaded MindIR graph needs the "
                                          "graph compiler (irscope-cli run, the app)");
                        }
                        CallArgs rest(std::vector<Value>(a.pos.begin() + 1, a.pos.end()), a.kw);
                        return ms->ctx->compiler->runLoaded(J, self->module, self->file, rest);
                    })
            .build();
    interp::addToModule(I, m, "GraphCell", Value(cls));
}

}  // namespace irscope::modules
