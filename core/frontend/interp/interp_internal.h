// Internal helpers shared by the interpreter's implementation files.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/interp/interpreter.h"
#include "frontend/interp/native.h"
#include "util/py_text.h"

namespace irscope::interp {

__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

// Guards against a script exhausting memory with one expression ([0] * 10**10).
inline constexpr double kMaxRepeatItems = 33554432.0;   // 2**25 Values (512 MiB)
inline constexpr double kMaxRepeatBytes = 268435456.0;  // 2**28 bytes

// --- hashes and equality (dict.cpp) ----------------------------------------------------------
std::int64_t hashInt(std::int64_t v);
std::int64_t hashFloat(double d);
std::int64_t hashTuple(Interpreter& I, const std::vector<Value>& items);
// 1 equal, 0 different, -1 needs Python __eq__.
int quickEquals(const Value& a, const Value& b);

// --- numbers (arith.cpp) ----------------------------------------------------------------------
bool numbersEqual(const Value& a, const Value& b);
// -1, 0, 1; 2 when unordered (a NaN is involved).
int compareNumbers(const Value& a, const Value& b);
// a op b for two numbers (bools included); Null if an operand is not a number.
Value numberBinary(ast::Operator op, const Value& a, const Value& b);
std::int64_t checkedAdd(std::int64_t a, std::int64_t b);
std::int64_t checkedMul(std::int64_t a, std::int64_t b);
std::int64_t floorDiv(std::int64_t a, std::int64_t b);
std::int64_t floorMod(std::int64_t a, std::int64_t b);
double floatMod(double a, double b);
// int(x) of a finite double (OverflowError / ValueError for inf / nan or out of range).
std::int64_t floatToInt(double d);
// round(x) / round(x, n) with Python's rules (half to even, exact decimal for floats).
Value roundNumber(const Value& x, const Value& ndigits);
[[noreturn]] void intOverflow();
// Parses int("...", base) text; throws ValueError with Python's message.
std::int64_t parseInt(std::string_view text, int base, std::string_view original);
double parseFloat(std::string_view text);

// --- strings (str_core.cpp) ----------------------------------------------------------------
// Code points of a UTF-8 string (validated by the parser; invalid bytes pass through).
std::vector<std::size_t> codePointOffsets(std::string_view s);  // byte offset of each, plus end
Value strGetItem(Interpreter& I, const StrObject& s, const Value& key);
std::string repeatString(std::string_view s, std::int64_t n);
// Simple case mapping (ASCII, Latin-1, Latin Extended-A, Greek, Cyrillic).
char32_t upperOf(char32_t c);
char32_t lowerOf(char32_t c);

// --- formatting (format.cpp, format_str.cpp)
// ------------------------------------------------------------------ A parsed format spec:
// [[fill]align][sign][z][#][0][width][grouping][.precision][type].
struct FormatSpec {
    std::string fill = " ";
    char align = 0;        // < > = ^ or 0
    char sign = 0;         // + - space or 0
    bool zeroNeg = false;  // 'z'
    bool alt = false;      // '#'
    bool zero = false;     // '0'
    std::int64_t width = -1;
    char grouping = 0;  // , _ or 0
    std::int64_t precision = -1;
    char type = 0;
};
// body padded to sp.width after `prefix` (sign, 0x) as sp.align says.
std::string padFormatted(const FormatSpec& sp, const std::string& prefix, const std::string& body,
                         char defaultAlign);
std::string signPrefix(bool negative, char sign);
std::string formatInt(std::int64_t v, std::string_view spec, std::string_view typeName);
std::string formatFloat(double v, std::string_view spec, std::string_view typeName);
std::string formatStrSpec(std::string_view s, std::string_view spec);
std::string strFormat(Interpreter& I, std::string_view fmt, const CallArgs& args);
std::string percentFormat(Interpreter& I, std::string_view fmt, const Value& args);

// --- sequences (seq_methods.cpp) -------------------------------------------------------------
struct SliceIndices {
    std::int64_t start = 0, stop = 0, step = 1, length = 0;
};
SliceIndices sliceIndices(Interpreter& I, const SliceObject& s, std::int64_t len);
// Index i of a sequence of length len, negative from the end; -1 when out of range.
std::int64_t normalizeIndex(std::int64_t i, std::int64_t len);
Value sequenceGetItem(Interpreter& I, const Value& seq, const Value& key);
void listSetItem(Interpreter& I, ListObject& l, const Value& key, const Value& v);
void listDelItem(Interpreter& I, ListObject& l, const Value& key);
int compareSequences(Interpreter& I, const std::vector<Value>& a, const std::vector<Value>& b,
                     ast::CmpOperator op, bool* result);
// Stable merge sort with a Python-level "less than" (a key function applied first).
void sortValues(Interpreter& I, std::vector<Value>& items, const Value& key, bool reverse);

// --- operators (ops.cpp, protocols.cpp) -----------------------------------------------------
// The builtin types' own binary operator; Null when it does not apply.
Value builtinBinary(Interpreter& I, ast::Operator op, const Value& a, const Value& b);
void defineBuiltinOperators(Interpreter& I);
bool setInplace(Interpreter& I, ast::Operator op, SetObject& s, SetObject& o);
void defineBuiltinComparisons(Interpreter& I);
// An iterator over a builtin iterable (list, tuple, str, range, dict, set, views); Null if
// `v` is not one.
Value builtinIterator(Interpreter& I, const Value& v);

// --- set up of the builtin types' methods (one function per file) ----------------------------
void setUpExceptionTypes(Interpreter& I, BuiltinTypes& t);
void setUpStrMethods(Interpreter& I);
void setUpSeqMethods(Interpreter& I);
void setUpDictMethods(Interpreter& I);
void setUpBuiltinFunctions(Interpreter& I);
void setUpIterators(Interpreter& I);
void setUpTypeConstructors(Interpreter& I);
void registerStandardModules(Interpreter& I);  // math, typing, functools (stdlib.cpp)

// <__main__.Net object at 0x7f...>
std::string defaultRepr(Interpreter& I, const Value& v);

// --- small helpers ----------------------------------------------------------------------------
// Adds a method (a native function bound like a method) to a builtin type's dict.
void defMethod(Interpreter& I, Type* t, const std::string& name, NativeFn fn);
// Checks the positional count of a builtin method: "append() takes exactly one argument (0 given)".
void expectArgs(const CallArgs& a, std::size_t min, std::size_t max, const char* name);
void noKeywords(const CallArgs& a, const char* name);
// An argument's repr for messages, shortened.
std::string typeNameOf(Interpreter& I, const Value& v);
// A new list_iterator-like iterator over a snapshot of values.
Value makeSnapshotIterator(Interpreter& I, std::vector<Value> items, const char* typeName);
// Python's "cannot unpack non-iterable int object" family: "'int' object is not iterable".
[[noreturn]] void notIterable(Interpreter& I, const Value& v);
// Repr recursion guard ("[...]").
class ReprGuard {
public:
    ReprGuard(const Object* o);
    ~ReprGuard();
    bool recursive() const { return recursive_; }

private:
    const Object* o_;
    bool recursive_;
};

}  // namespace irscope::interp
