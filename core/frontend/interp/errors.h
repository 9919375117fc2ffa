// How errors travel through the interpreter.
//
// PyError is the one C++ exception that carries a Python exception. Native code raises with
// the builtin class and a message (`throw PyError(Exc::ValueError, "...")`), with any class
// object (`PyError(typeValue, "...")`) or with an existing exception instance; the
// interpreter turns the first two into an exception object when a script can see it.
// Script code catches PyError with try/except; every other C++ exception escaping native
// code is converted at the native call boundary: ops::OpError by its kind, std::bad_alloc to
// MemoryError, anything else to RuntimeError.
//
// ScriptAborted is not a Python exception: it stops the run when the step budget is spent or
// the run is cancelled, passes through `except` and `finally`, and becomes the run's error.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "frontend/interp/object.h"

namespace irscope::interp {

// The builtin exception classes (the hierarchy is Python's, see exceptions.cpp).
enum class Exc : std::uint8_t {
    BaseException,
    SystemExit,
    KeyboardInterrupt,
    Exception,
    ArithmeticError,
    FloatingPointError,
    OverflowError,
    ZeroDivisionError,
    AssertionError,
    AttributeError,
    ImportError,
    ModuleNotFoundError,
    LookupError,
    IndexError,
    KeyError,
    MemoryError,
    NameError,
    UnboundLocalError,
    RuntimeError,
    NotImplementedError,
    RecursionError,
    StopIteration,
    TypeError,
    ValueError,
    UnicodeError,
    Warning,
    UserWarning,
    DeprecationWarning,
    RuntimeWarning,
    Count
};
const char* excName(Exc e);

class PyError : public std::exception {
public:
    // A builtin class and a message (the exception's single argument).
    PyError(Exc type, std::string message) : builtin_(type), message_(std::move(message)) {}
    // Any exception class (a Type value) and a message.
    PyError(Value type, std::string message)
        : type_(std::move(type)), message_(std::move(message)) {}
    // A builtin class with arguments other than one message: KeyError(key), StopIteration(v).
    PyError(Exc type, std::vector<Value> args)
        : builtin_(type), args_(std::move(args)), hasArgs_(true) {}
    // An exception instance (already an ExceptionObject).
    explicit PyError(Value instance) : instance_(std::move(instance)) {}

    // The exception object, once the interpreter has made it (see Interpreter::exceptionOf).
    const Value& instance() const { return instance_; }
    Exc builtinType() const { return builtin_; }
    const Value& typeValue() const { return type_; }
    const std::string& message() const { return message_; }
    // "ValueError: message" for a builtin class not yet materialized; the class name otherwise.
    const char* what() const noexcept override;

private:
    friend class Interpreter;
    Value instance_;
    Exc builtin_ = Exc::Exception;
    Value type_;
    std::string message_;
    std::vector<Value> args_;
    bool hasArgs_ = false;
    mutable std::string what_;
};

class ScriptAborted : public std::runtime_error {
public:
    enum class Reason : std::uint8_t { StepLimit, Cancelled };
    ScriptAborted(Reason r, const std::string& message) : std::runtime_error(message), reason(r) {}
    Reason reason;
};

}  // namespace irscope::interp
