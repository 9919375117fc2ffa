// MindIR (.mindir): the protobuf model files MindSpore's export writes and its load reads.
// readMindir converts one into irscope's IR (a Module of FuncGraphs), so everything irscope
// does with a Module (views, inspector, search, export, compare, running) works on it.
// writeMindir writes a Module back in MindSpore 2.x's layout.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "ir/module.h"

namespace irscope::mindir {

// A MindIR file irscope cannot read, with the reason. what() is "FILE: error: reason".
class MindirError : public std::runtime_error {
public:
    enum class Kind : std::uint8_t {
        Unreadable,  // cannot open or read the file
        Encrypted,   // encrypted and no key given
        WrongKey,    // the key or mode does not decrypt it
        Foreign,     // not a MindIR file
        Corrupt,     // truncated or malformed protobuf, or inconsistent contents
        External,    // an external weight file is missing or does not match
    };
    MindirError(Kind k, const std::string& file, const std::string& reason)
        : std::runtime_error((file.empty() ? std::string("<input>") : file) + ": error: " + reason),
          kind_(k),
          reason_(reason) {}
    Kind kind() const { return kind_; }
    const std::string& reason() const { return reason_; }

private:
    Kind kind_;
    std::string reason_;
};

// How a file is encrypted, from its first four bytes (MindSpore's magic numbers).
enum class Encryption : std::uint8_t { None, AesGcm, AesCbc, Sm4Cbc };
Encryption detectEncryption(std::string_view bytes);
// "AES-GCM", "AES-CBC", "SM4-CBC" (MindSpore's dec_mode spellings); "" for None.
std::string_view encryptionName(Encryption e);

struct ReadOptions {
    std::string decKey;   // the key bytes (16, 24 or 32 for AES; 16 for SM4); empty: none
    std::string decMode;  // "AES-GCM", "AES-CBC", "SM4-CBC"; empty: from the file's magic
    // Folder that external weight files (TensorProto.external_data.location) are relative
    // to; readMindirFile sets it to the file's folder. Empty: external data is an error.
    std::string baseDir;
};

// What the file says about itself and what it holds (irscope-cli info).
struct ModelInfo {
    std::string irVersion;
    std::string producerName;
    std::string modelVersion;  // the MindSpore version ("1.1.0" for every 1.1-1.3 file)
    std::int64_t mindIrVersion = 0;
    bool hasLittleEndian = false;
    bool littleEndian = true;
    Encryption encryption = Encryption::None;
    bool primitivesTable = false;  // 1.7+: op_type "REF::<prim>" into ModelProto.primitives
    std::size_t graphs = 0;
    std::size_t nodes = 0;       // NodeProtos that are operations (not Constant)
    std::size_t constants = 0;   // Constant NodeProtos
    std::size_t parameters = 0;  // weights (GraphProto.parameter)
    std::uint64_t weightBytes = 0;
    std::uint64_t externalBytes = 0;  // of weightBytes, read from external data files
    std::size_t externalFiles = 0;
    std::map<std::string, std::size_t> ops;  // primitive name -> uses
};

struct Model {
    std::unique_ptr<ir::Module> module;
    ModelInfo info;
};

// Reads a MindIR file's bytes. `fileName` names it in errors. Throws MindirError.
Model readMindir(std::string_view bytes, const std::string& fileName, const ReadOptions& opts = {});
// Reads the file at `path` (external weights relative to its folder). Throws MindirError.
Model readMindirFile(const std::string& path, ReadOptions opts = {});

// Whether `path` names a MindIR file by its extension (".mindir", any case).
bool hasMindirExtension(std::string_view path);

// A multi-line summary for `irscope-cli info`: versions, graphs, parameters and their bytes,
// ops used.
std::string formatInfo(const ModelInfo& info, const std::string& fileName);

struct WriteOptions {
    // ModelProto.model_version: the MindSpore version whose layout the file follows.
    std::string modelVersion = "2.2.0";
    std::string encKey;  // non-empty: encrypt with encMode, as export(enc_key=...) does
    Encryption encMode = Encryption::AesGcm;
};

// Serializes a module in MindSpore 2.x's layout (the one the 2.2 files use): the entry as
// `graph`, every other graph it reaches in `functions`, weights as GraphProto.parameter with
// raw_data, constants as Constant nodes, primitives in the `primitives` table referenced by
// op_type "REF::<name>", node abstracts in the "shape" attribute, scopes in `domain`.
// readMindir(writeMindir(m)) gives back the same graph. Throws std::runtime_error for a
// module MindIR cannot hold (no entry).
std::string writeMindir(const ir::Module& m, const WriteOptions& opts = {});

// Decrypts an encrypted MindIR file's bytes as MindSpore's crypto does (blocks of magic,
// [GCM tag], length, IV, cipher text). Throws MindirError (WrongKey, Corrupt).
std::string decrypt(std::string_view bytes, std::string_view key, Encryption mode,
                    const std::string& fileName);
// The inverse, for export with enc_key: a random IV per block.
std::string encrypt(std::string_view plain, std::string_view key, Encryption mode);

}  // namespace irscope::mindir
