// The matching engine under the `re` module (py/re_module.py): Python's regular expressions
// through std::regex's ECMAScript grammar, which covers the everyday syntax (classes,
// groups, alternation, quantifiers, anchors, \d \w \s \b); a pattern it does not accept
// raises re.error. Spans are byte offsets of the UTF-8 text.
#include <regex>

#include "frontend/modules/ms_internal.h"

namespace irscope::modules {

namespace {

constexpr std::int64_t kIgnoreCase = 2;
constexpr std::int64_t kMultiline = 8;

std::regex compile(Interpreter& J, const std::string& pattern, std::int64_t flags) {
    auto f = std::regex::ECMAScript;
    if ((flags & kIgnoreCase) != 0) {
        f |= std::regex::icase;
    }
    if ((flags & kMultiline) != 0) {
        f |= std::regex::multiline;
    }
    try {
        return std::regex(pattern, f);
    } catch (const std::regex_error& e) {
        (void)J;
        throw PyError(Exc::ValueError, "irscope: the pattern '" + pattern +
                                           "' is not supported by re (" + e.what() + ")");
    }
}

// (start, end) of group 0..n, (-1, -1) for a group that did not take part.
Value spans(Interpreter& J, const std::smatch& m, std::size_t offset) {
    std::vector<Value> out;
    for (std::size_t g = 0; g < m.size(); ++g) {
        if (!m[g].matched) {
            out.push_back(Value(J.newTuple({Value::integer(-1), Value::integer(-1)})));
            continue;
        }
        const auto start = static_cast<std::int64_t>(offset) + m.position(g);
        out.push_back(
            Value(J.newTuple({Value::integer(start), Value::integer(start + m.length(g))})));
    }
    return Value(J.newList(std::move(out)));
}

}  // namespace

void initReEngine(Interpreter& I, interp::ModuleObject& m) {
    // _match(pattern, flags, text, pos, mode): mode 0 search, 1 match at pos, 2 fullmatch.
    interp::addFunction(I, m, "_match", [](Interpreter& J, CallArgs& a) -> Value {
        const std::regex re = compile(J, J.str(a.pos.at(0)), a.pos.at(1).asInt());
        const std::string text = J.str(a.pos.at(2));
        const auto pos = static_cast<std::size_t>(
            std::min<std::int64_t>(std::max<std::int64_t>(a.pos.at(3).asInt(), 0),
                                   static_cast<std::int64_t>(text.size())));
        const std::int64_t mode = a.pos.at(4).asInt();
        const std::string rest = text.substr(pos);
        std::smatch match;
        const auto flags =
            pos > 0 ? std::regex_constants::match_prev_avail : std::regex_constants::match_default;
        bool found = false;
        if (mode == 0) {
            found = std::regex_search(rest.begin(), rest.end(), match, re, flags);
        } else if (mode == 1) {
            found = std::regex_search(rest.begin(), rest.end(), match, re,
                                      flags | std::regex_constants::match_continuous);
        } else {
            found = std::regex_match(rest.begin(), rest.end(), match, re);
        }
        return found ? spans(J, match, pos) : Value::none();
    });
    // _findall(pattern, flags, text): the spans of every non-overlapping match.
    interp::addFunction(I, m, "_findall", [](Interpreter& J, CallArgs& a) -> Value {
        const std::regex re = compile(J, J.str(a.pos.at(0)), a.pos.at(1).asInt());
        const std::string text = J.str(a.pos.at(2));
        std::vector<Value> all;
        for (auto it = std::sregex_iterator(text.begin(), text.end(), re);
             it != std::sregex_iterator(); ++it) {
            all.push_back(spans(J, *it, 0));
        }
        return Value(J.newList(std::move(all)));
    });
}

}  // namespace irscope::modules
