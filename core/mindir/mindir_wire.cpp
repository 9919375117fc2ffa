#include "mindir/mindir_wire.h"

#include <cstdint>
#include <vector>

namespace irscope::mindir::detail {

namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;

constexpr int kMaxDepth = 100;  // libprotobuf's default recursion limit

struct Scan {
    std::string_view b;
    WireProblem problem;
    bool failed = false;
    std::vector<std::string> path;  // message/field names down to the problem

    bool fail(std::size_t at, std::string what) {
        if (!failed) {
            failed = true;
            problem.offset = at;
            std::string where;
            for (const std::string& p : path) {
                where += (where.empty() ? "" : ".") + p;
            }
            problem.message = "corrupt at byte " + std::to_string(at) + " of " +
                              std::to_string(b.size()) +
                              (where.empty() ? "" : " (in " + where + ")") + ": " + what;
        }
        return false;
    }

    bool varint(std::size_t& pos, std::size_t end, std::uint64_t& v) {
        v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos >= end) {
                return fail(pos, "truncated: the file ends inside a number");
            }
            const auto byte = static_cast<unsigned char>(b[pos++]);
            v |= static_cast<std::uint64_t>(byte & 0x7FU) << shift;
            if ((byte & 0x80U) == 0) {
                return true;
            }
        }
        return fail(pos, "a number longer than 10 bytes");
    }

    bool message(std::size_t pos, std::size_t end, const Descriptor* d, int depth) {
        if (depth > kMaxDepth) {
            return fail(pos,
                        "messages nested deeper than " + std::to_string(kMaxDepth) + " levels");
        }
        while (pos < end) {
            const std::size_t fieldAt = pos;
            std::uint64_t tag = 0;
            if (!varint(pos, end, tag)) {
                return false;
            }
            const std::uint64_t number = tag >> 3;
            const unsigned wire = static_cast<unsigned>(tag & 7U);
            const FieldDescriptor* f = d && number <= 536870911U
                                           ? d->FindFieldByNumber(static_cast<int>(number))
                                           : nullptr;
            const std::string label = d ? d->name() + " field " + std::to_string(number) +
                                              (f ? " (" + f->name() + ")" : "")
                                        : "field " + std::to_string(number);
            if (number == 0) {
                return fail(fieldAt, "field number 0 (not protobuf data)");
            }
            std::uint64_t v = 0;
            switch (wire) {
                case 0:
                    if (!varint(pos, end, v)) {
                        return false;
                    }
                    break;
                case 1:
                case 5: {
                    const std::size_t n = wire == 1 ? 8 : 4;
                    if (end - pos < n) {
                        return fail(fieldAt, "truncated: " + label + " needs " + std::to_string(n) +
                                                 " bytes, " + std::to_string(end - pos) + " left");
                    }
                    pos += n;
                    break;
                }
                case 2: {
                    if (!varint(pos, end, v)) {
                        return false;
                    }
                    if (v > end - pos) {
                        return fail(fieldAt, "truncated: " + label + " is " + std::to_string(v) +
                                                 " bytes long, only " + std::to_string(end - pos) +
                                                 " left");
                    }
                    if (f && f->type() == FieldDescriptor::TYPE_MESSAGE) {
                        path.push_back(label);
                        if (!message(pos, pos + v, f->message_type(), depth + 1)) {
                            return false;
                        }
                        path.pop_back();
                    }
                    pos += v;
                    break;
                }
                default:
                    return fail(fieldAt, label + " has wire type " + std::to_string(wire) +
                                             ", which MindIR never writes");
            }
            if (f && wire != 2 &&
                (f->type() == FieldDescriptor::TYPE_MESSAGE ||
                 f->type() == FieldDescriptor::TYPE_STRING ||
                 f->type() == FieldDescriptor::TYPE_BYTES)) {
                return fail(fieldAt, label + " should be length-delimited, has wire type " +
                                         std::to_string(wire));
            }
        }
        return true;
    }
};

// Whether the first bytes start like a ModelProto: a known field with its wire type.
bool startsLikeModel(std::string_view b, const Descriptor& root) {
    if (b.empty()) {
        return false;
    }
    const auto tag = static_cast<unsigned char>(b[0]);
    if (tag & 0x80U) {
        return false;
    }
    const FieldDescriptor* f = root.FindFieldByNumber(tag >> 3);
    if (f == nullptr) {
        return false;
    }
    unsigned expect = 0;  // varint
    switch (f->type()) {
        case FieldDescriptor::TYPE_MESSAGE:
        case FieldDescriptor::TYPE_STRING:
        case FieldDescriptor::TYPE_BYTES:
            expect = 2;
            break;
        case FieldDescriptor::TYPE_FLOAT:
        case FieldDescriptor::TYPE_FIXED32:
        case FieldDescriptor::TYPE_SFIXED32:
            expect = 5;
            break;
        case FieldDescriptor::TYPE_DOUBLE:
        case FieldDescriptor::TYPE_FIXED64:
        case FieldDescriptor::TYPE_SFIXED64:
            expect = 1;
            break;
        default:
            break;
    }
    return (tag & 7U) == expect;
}

}  // namespace

std::string describeForeign(std::string_view b) {
    auto starts = [&](std::string_view magic) { return b.substr(0, magic.size()) == magic; };
    if (starts("\x89PNG")) {
        return "a PNG image";
    }
    if (starts("PK\x03\x04")) {
        return "a ZIP archive";
    }
    if (starts("SQLite format 3")) {
        return "an SQLite database";
    }
    if (starts("\x7F"
               "ELF")) {
        return "an ELF executable";
    }
    if (starts("%PDF")) {
        return "a PDF document";
    }
    if (starts("# IR entry") || starts("#IR entry")) {
        return "a MindSpore .ir text dump (open it as .ir)";
    }
    std::string hex;
    for (std::size_t i = 0; i < std::min<std::size_t>(4, b.size()); ++i) {
        static const char* digits = "0123456789ABCDEF";
        const auto c = static_cast<unsigned char>(b[i]);
        hex += (i ? " " : "") + std::string{digits[c >> 4], digits[c & 15U]};
    }
    return "its first bytes are " + hex;
}

WireProblem locateWireProblem(std::string_view bytes, const Descriptor& root) {
    if (!startsLikeModel(bytes, root)) {
        WireProblem p;
        p.foreign = true;
        p.message = "not a MindIR model (" + describeForeign(bytes) + ")";
        return p;
    }
    Scan s{bytes, {}, false, {}};
    if (s.message(0, bytes.size(), &root, 0)) {
        s.problem.message = "malformed protobuf data that libprotobuf refuses";
    }
    return s.problem;
}

}  // namespace irscope::mindir::detail
