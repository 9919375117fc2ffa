#include "fuzz_entries.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>

#include "frontend/interp/interpreter.h"
#include "frontend/parser.h"
#include "ir/ir_text.h"
#include "mindir/mindir.h"
#include "store/session_file.h"

namespace irscope::fuzz {

namespace {

std::string readBack(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

std::string checkIrText(std::string_view text) {
    std::unique_ptr<ir::Module> m;
    try {
        m = ir::parseIr(text, "fuzz.ir");
    } catch (const ParseError& e) {
        if (e.diagnostic().line < 1 || e.diagnostic().column < 1) {
            return std::string("error without a location: ") + e.what();
        }
        return {};
    }
    const std::string first = ir::printIr(*m);
    std::string second;
    try {
        second = ir::printIr(*ir::parseIr(first, "printed.ir"));
    } catch (const ParseError& e) {
        return "printed text does not parse: " + std::string(e.what()) + "\n--- printed ---\n" +
               first;
    }
    if (second != first) {
        return "print(parse(print(x))) != print(x)\n--- first ---\n" + first +
               "\n--- second ---\n" + second;
    }
    const std::string problem = m->verify();
    if (!problem.empty()) {
        return "parsed module is inconsistent: " + problem;
    }
    return {};
}

std::string checkPyScript(std::string_view source) {
    try {
        auto m = frontend::parseModule(std::string(source), "fuzz.py");
        (void)ast::dumpAst(*m);  // walks every node that was built
    } catch (const frontend::SyntaxError& e) {
        const Diagnostic& d = e.diagnostic();
        if (d.line < 1 || d.column < 1) {
            return std::string("syntax error without a location: ") + e.what();
        }
        return {};  // the interpreter would only report the same error
    }
    const interp::RunResult r = runFuzzScript(source);
    // The interpreter's own failure starts the error text; the same words inside a traceback
    // are the script's (a string literal in a quoted source line), not a finding.
    if (r.error.starts_with("irscope: internal error")) {
        return r.error;
    }
    if (r.status == interp::RunResult::Status::SyntaxError) {
        return "the interpreter refused a script the parser accepted:\n" + r.error;
    }
    if (r.status != interp::RunResult::Status::Ok && r.error.empty()) {
        return "a failed run without an error message";
    }
    return {};
}

interp::RunResult runFuzzScript(std::string_view source) {
    interp::Interpreter I;
    I.limits().maxSteps = kScriptSteps;
    return I.runScript(std::string(source), "fuzz.py");
}

std::string checkSessionFile(std::string_view bytes, const std::string& path) {
    for (const char* side : {"", "-wal", "-shm", "-journal"}) {
        std::filesystem::remove(path + side);
    }
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    try {
        store::loadSession(path);
    } catch (const store::DbError&) {
    }
    if (readBack(path) != bytes) {
        return "loading changed the file";
    }
    return {};
}

std::string checkMindir(std::string_view bytes) {
    mindir::ReadOptions opts;
    opts.decKey = "0123456789ABCDEF";  // the key of the shared AES-GCM sample
    try {
        const mindir::Model model = mindir::readMindir(bytes, "fuzz.mindir", opts);
        (void)ir::printIr(*model.module);  // what the app does next with it
    } catch (const mindir::MindirError&) {
    }
    return {};
}

void abortWith(const std::string& problem) {
    std::fwrite(problem.data(), 1, problem.size(), stderr);
    std::fputc('\n', stderr);
    std::abort();
}

}  // namespace irscope::fuzz
