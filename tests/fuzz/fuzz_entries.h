// The entry points of the libFuzzer targets, shared with the regression suite
// (tests/test_fuzz_regressions.cpp), which feeds every file under tests/data/fuzz/<target>/ to
// the same function the fuzzer calls. Each returns an empty string when the input was handled
// as it must be (accepted, or refused with a located error) and otherwise says what went
// wrong; the fuzzers abort on a non-empty result, the suite fails on it. A crash, hang or
// sanitizer report inside is a finding in both.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "frontend/interp/interpreter.h"

namespace irscope::fuzz {

// The .ir reader: text parses or raises a located ParseError; whatever parses prints to text
// that parses again and prints identically, and verifies.
std::string checkIrText(std::string_view text);

// The script front end: the parser gives a Module (whose AST dump walks every node) or a
// located SyntaxError; then the interpreter runs the script (no modules beyond the pure ones,
// so no file, network or process access) with a bounded step count, so an endless loop ends
// as StepLimit.
// Anything but a run result (an escaping C++ exception) or an "irscope: internal error" (a C++
// exception the interpreter caught: a broken invariant, not a Python error) is a finding.
std::string checkPyScript(std::string_view source);

// Steps (statements plus loop iterations) a fuzzed script may take: enough for the seed
// scripts' loops, few enough that `while True: pass` ends in milliseconds.
inline constexpr std::uint64_t kScriptSteps = 20'000;

// The run checkPyScript makes: a bare interpreter (math, typing, functools only), kScriptSteps.
interp::RunResult runFuzzScript(std::string_view source);

// The session-file loader: the bytes written to `path` load or are refused with DbError, and
// the file is left exactly as it was.
std::string checkSessionFile(std::string_view bytes, const std::string& path);

// The MindIR reader: a module (printed as .ir) or a MindirError.
std::string checkMindir(std::string_view bytes);

// What a fuzzer does with a non-empty result: writes all of it to stderr (every byte: a
// problem quotes printed text, which may hold NUL bytes from the input) and aborts, which
// libFuzzer reports as a finding and saves the input for.
[[noreturn]] void abortWith(const std::string& problem);

}  // namespace irscope::fuzz
