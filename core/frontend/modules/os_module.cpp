// The `os` module as scripts use it: getcwd, getenv, environ (a snapshot of the process
// environment), sep/linesep, and os.path's pure path functions plus exists/isfile/isdir
// (which only look at the file system, never open a file).
#include <filesystem>

#include "frontend/modules/ms_internal.h"

extern char** environ;

namespace irscope::modules {

namespace {

std::string pathArg(Interpreter& J, CallArgs& a, std::size_t i) {
    return J.str(interp::argAt(a, i, "path"));
}

}  // namespace

void initOsPath(Interpreter& I, interp::ModuleObject& m) {
    namespace fs = std::filesystem;
    interp::addToModule(I, m, "sep", Value(I.newStr("/")));
    interp::addFunction(I, m, "join", [](Interpreter& J, CallArgs& a) {
        fs::path p;
        for (std::size_t i = 0; i < a.pos.size(); ++i) {
            p /= J.str(a.pos[i]);
        }
        return Value(J.newStr(p.string()));
    });
    interp::addFunction(I, m, "basename", [](Interpreter& J, CallArgs& a) {
        const std::string p = pathArg(J, a, 0);
        const auto slash = p.rfind('/');
        return Value(J.newStr(slash == std::string::npos ? p : p.substr(slash + 1)));
    });
    interp::addFunction(I, m, "dirname", [](Interpreter& J, CallArgs& a) {
        const std::string p = pathArg(J, a, 0);
        const auto slash = p.rfind('/');
        return Value(
            J.newStr(slash == std::string::npos ? "" : p.substr(0, slash == 0 ? 1 : slash)));
    });
    interp::addFunction(I, m, "splitext", [](Interpreter& J, CallArgs& a) {
        const std::string p = pathArg(J, a, 0);
        const auto slash = p.rfind('/');
        const auto dot = p.rfind('.');
        const bool ext =
            dot != std::string::npos && (slash == std::string::npos || dot > slash + 1);
        return Value(J.newTuple({Value(J.newStr(ext ? p.substr(0, dot) : p)),
                                 Value(J.newStr(ext ? p.substr(dot) : ""))}));
    });
    interp::addFunction(I, m, "abspath", [](Interpreter& J, CallArgs& a) {
        return Value(J.newStr(fs::absolute(pathArg(J, a, 0)).lexically_normal().string()));
    });
    auto test = [&](const char* name, bool (*f)(const fs::path&, std::error_code&)) {
        interp::addFunction(I, m, name, [f](Interpreter& J, CallArgs& a) {
            std::error_code ec;
            return Value::boolean(f(pathArg(J, a, 0), ec));
        });
    };
    test("exists", [](const fs::path& p, std::error_code& ec) { return fs::exists(p, ec); });
    test("isfile",
         [](const fs::path& p, std::error_code& ec) { return fs::is_regular_file(p, ec); });
    test("isdir", [](const fs::path& p, std::error_code& ec) { return fs::is_directory(p, ec); });
}

void initOs(Interpreter& I, interp::ModuleObject& m) {
    interp::addToModule(I, m, "sep", Value(I.newStr("/")));
    interp::addToModule(I, m, "linesep", Value(I.newStr("\n")));
    interp::addToModule(I, m, "name", Value(I.newStr("posix")));
    interp::addFunction(I, m, "getcwd", [](Interpreter& J, CallArgs&) {
        std::error_code ec;
        return Value(J.newStr(std::filesystem::current_path(ec).string()));
    });
    Ref<interp::DictObject> env = I.newDict();
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
        const std::string kv = *e;
        const auto eq = kv.find('=');
        if (eq != std::string::npos) {
            env->set(I, Value(I.newStr(kv.substr(0, eq))), Value(I.newStr(kv.substr(eq + 1))));
        }
    }
    interp::addToModule(I, m, "environ", Value(env));
    interp::addFunction(I, m, "getenv", [env](Interpreter& J, CallArgs& a) {
        Value key = interp::argAt(a, 0, "key");
        Value v = env->get(J, key);
        if (!v.isNull()) {
            return v;
        }
        return a.pos.size() > 1 ? a.pos[1] : Value::none();
    });
    m.dict()->setStr(I.intern("path"), Value(I.importModule("os.path")));
}

}  // namespace irscope::modules
