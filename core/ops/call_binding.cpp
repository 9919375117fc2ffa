// Binding Python calls (ops.reduce_sum(x, 1, keep_dims=True), x.sum(), ops.ReduceSum(True))
// to a primitive's inputs and attributes, with Python's argument errors.
#include <algorithm>

#include "ops/call_binding.h"
#include "ops/infer_util.h"

namespace irscope::ops {

namespace {

struct Slot {
    std::string name;
    bool variadic = false;
    bool packs = false;  // variadic packing into one tuple input: a first tuple/list closes it
};

[[noreturn]] void callError(std::string_view fn, const std::string& rest) {
    fail(ErrorKind::TypeError, "For '" + std::string(fn) + "', " + rest);
}

// Assigns call arguments [first, positional) and the keywords to slots.
std::vector<std::vector<std::size_t>> matchArgs(std::string_view fn, const std::vector<Slot>& slots,
                                                std::size_t first, std::size_t positional,
                                                std::span<const std::string> keywords,
                                                const IsSequenceArg& isSequence = {}) {
    std::vector<std::vector<std::size_t>> got(slots.size());
    std::vector<bool> given(slots.size(), false);
    std::size_t slot = 0;
    for (std::size_t a = first; a < positional; ++a) {
        if (slot >= slots.size()) {
            const auto fixed = std::count_if(slots.begin(), slots.end(),
                                             [](const Slot& s) { return !s.variadic; });
            callError(fn, "takes " + std::to_string(fixed) + " positional arguments but " +
                              std::to_string(positional - first) + " were given.");
        }
        const bool whole = slots[slot].packs && got[slot].empty() && isSequence && isSequence(a);
        got[slot].push_back(a);
        given[slot] = true;
        if (!slots[slot].variadic || whole) {
            ++slot;
        }
    }
    for (std::size_t k = 0; k < keywords.size(); ++k) {
        auto it = std::find_if(slots.begin(), slots.end(),
                               [&](const Slot& s) { return !s.variadic && s.name == keywords[k]; });
        if (it == slots.end()) {
            callError(fn, "got an unexpected keyword argument '" + keywords[k] + "'.");
        }
        const auto i = static_cast<std::size_t>(it - slots.begin());
        if (given[i]) {
            callError(fn, "got multiple values for argument '" + keywords[k] + "'.");
        }
        got[i] = {positional + k};
        given[i] = true;
    }
    return got;
}

ArgSource fromArgs(const std::vector<std::size_t>& args) {
    ArgSource s;
    s.kind = ArgSource::Kind::Arg;
    s.args = args;
    return s;
}

ArgSource fromDefault(ValuePtr v) {
    ArgSource s;
    s.kind = ArgSource::Kind::Default;
    s.value = std::move(v);
    return s;
}

// Fills inputs nobody set from the primitive's own defaults and drops trailing Absent ones.
void finishInputs(std::string_view fn, const OpDef& op, std::vector<ArgSource>& inputs,
                  std::vector<bool>& set) {
    for (std::size_t i = 0; i < op.inputs.size() && i < inputs.size(); ++i) {
        if (set[i]) {
            continue;
        }
        const ArgSpec& spec = op.inputs[i];
        if (spec.defaultValue) {
            inputs[i] = fromDefault(spec.defaultValue);
        } else if (!spec.optional && !spec.variadic) {
            callError(fn, "missing required argument '" + spec.name + "'.");
        }
    }
    while (!inputs.empty() && inputs.back().kind == ArgSource::Kind::Absent) {
        inputs.pop_back();
    }
}

// The primitive's own call: arguments to inputs, a variadic input spreading.
CallBinding bindPrimitiveCall(std::string_view fn, const OpDef& op, std::size_t first,
                              std::size_t positional, std::span<const std::string> keywords) {
    std::vector<Slot> slots;
    for (const auto& in : op.inputs) {
        slots.push_back({in.name, in.variadic});
    }
    const auto got = matchArgs(fn, slots, first, positional, keywords);
    CallBinding b;
    std::vector<bool> set;
    for (std::size_t i = 0; i < op.inputs.size(); ++i) {
        if (op.inputs[i].variadic) {
            for (auto a : got[i]) {
                b.inputs.push_back(fromArgs({a}));
                set.push_back(true);
            }
            continue;
        }
        b.inputs.push_back(got[i].empty() ? ArgSource{} : fromArgs(got[i]));
        set.push_back(!got[i].empty());
    }
    // Positions shift after a spread variadic input, so only the fixed prefix is checked.
    std::vector<ArgSource> fixed;
    std::vector<bool> fixedSet;
    for (std::size_t i = 0; i < op.inputs.size() && !op.inputs[i].variadic; ++i) {
        fixed.push_back(b.inputs[i]);
        fixedSet.push_back(set[i]);
    }
    if (fixed.size() == op.inputs.size()) {
        finishInputs(fn, op, b.inputs, set);
    } else {
        finishInputs(fn, op, fixed, fixedSet);
    }
    return b;
}

}  // namespace

CallBinding bindCall(const OpDef& op, const Spelling& spelling, std::size_t positional,
                     std::span<const std::string> keywords) {
    return bindCall(op, spelling, positional, keywords, IsSequenceArg{});
}

CallBinding bindCall(const OpDef& op, const Spelling& spelling, std::size_t positional,
                     std::span<const std::string> keywords, const IsSequenceArg& isSequence) {
    const std::string& fn = spelling.text;
    switch (spelling.kind) {
        case SpellingKind::Class:
            return bindPrimitiveCall(fn, op, 0, positional, keywords);
        case SpellingKind::Operator: {
            if (!keywords.empty() || positional != op.requiredInputs()) {
                callError(fn, "expects " + std::to_string(op.requiredInputs()) + " operands.");
            }
            CallBinding b;
            for (std::size_t i = 0; i < positional; ++i) {
                b.inputs.push_back(fromArgs({i}));
            }
            return b;
        }
        case SpellingKind::Function:
        case SpellingKind::Method:
            break;
    }
    const bool method = spelling.kind == SpellingKind::Method;
    if (method && positional == 0) {
        callError(fn, "needs the tensor it is called on.");
    }
    std::vector<Slot> slots;
    for (const auto& p : spelling.params) {
        const bool spreads = p.to == ParamMap::To::Input &&
                             static_cast<std::size_t>(p.input) < op.inputs.size() &&
                             op.inputs[static_cast<std::size_t>(p.input)].variadic;
        slots.push_back({p.name, p.variadic, p.variadic && !spreads});
    }
    const auto got = matchArgs(fn, slots, method ? 1 : 0, positional, keywords, isSequence);
    CallBinding b;
    b.outputIndex = spelling.outputIndex;
    std::vector<ArgSource> inputs(op.inputs.size());
    std::vector<bool> set(op.inputs.size(), false);
    std::vector<ArgSource> spread;  // arguments for a variadic primitive input
    if (method) {
        inputs[0] = fromArgs({0});
        set[0] = true;
    }
    for (std::size_t i = 0; i < spelling.params.size(); ++i) {
        const ParamMap& p = spelling.params[i];
        if (p.to == ParamMap::To::Ignore) {
            continue;
        }
        if (p.to == ParamMap::To::PythonOnly) {
            if (!got[i].empty()) {
                callError(fn, "irscope: the argument '" + p.name + "' is not supported here yet.");
            }
            continue;
        }
        ArgSource src;
        if (!got[i].empty() || p.variadic) {
            src = fromArgs(got[i]);
            if (p.variadic) {
                src.kind = ArgSource::Kind::Pack;
            }
        } else if (p.defaultValue) {
            src = fromDefault(p.defaultValue);
        } else {
            callError(fn, "missing required argument '" + p.name + "'.");
        }
        src.convert = p.convert;
        if (p.to == ParamMap::To::Attr) {
            b.attrs.emplace_back(p.attr, std::move(src));
            continue;
        }
        const auto at = static_cast<std::size_t>(p.input);
        if (at < op.inputs.size() && op.inputs[at].variadic) {
            for (auto a : src.args) {
                spread.push_back(fromArgs({a}));
            }
            set[at] = true;
            continue;
        }
        inputs[at] = std::move(src);
        set[at] = true;
    }
    finishInputs(fn, op, inputs, set);
    if (!spread.empty()) {
        // A variadic primitive input is the last one (Print's input_x).
        inputs.insert(inputs.end(), spread.begin(), spread.end());
    }
    b.inputs = std::move(inputs);
    return b;
}

CallBinding bindConstructor(const OpDef& op, std::size_t positional,
                            std::span<const std::string> keywords) {
    const std::string fn = "ops." + op.name;
    std::vector<Slot> slots;
    for (const auto& a : op.attrs) {
        slots.push_back({a.name, false});
    }
    const auto got = matchArgs(fn, slots, 0, positional, keywords);
    CallBinding b;
    for (std::size_t i = 0; i < op.attrs.size(); ++i) {
        if (!got[i].empty()) {
            b.attrs.emplace_back(op.attrs[i].name, fromArgs(got[i]));
        } else if (op.attrs[i].defaultValue) {
            b.attrs.emplace_back(op.attrs[i].name, fromDefault(op.attrs[i].defaultValue));
        } else {
            callError(fn, "missing required argument '" + op.attrs[i].name + "'.");
        }
    }
    return b;
}

}  // namespace irscope::ops
