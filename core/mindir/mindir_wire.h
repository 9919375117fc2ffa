// Internal to core/mindir: where protobuf bytes stop making sense. libprotobuf only says
// that a parse failed; this walks the wire format along the schema to say where and why
// ("truncated at byte N", "field 7 of GraphProto ...").
#pragma once

#include <google/protobuf/descriptor.h>

#include <string>
#include <string_view>

namespace irscope::mindir::detail {

struct WireProblem {
    bool foreign = false;  // the very first field is not one a MindIR model starts with
    std::size_t offset = 0;
    std::string message;  // "truncated at byte 1234 of 2000: ..."
};

// What bytes that are not a MindIR model look like ("a PNG image", "its first bytes are ...").
std::string describeForeign(std::string_view bytes);

WireProblem locateWireProblem(std::string_view bytes, const google::protobuf::Descriptor& root);

}  // namespace irscope::mindir::detail
