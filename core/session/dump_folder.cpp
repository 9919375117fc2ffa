#include "session/dump_folder.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <system_error>

#include "compiler/frontend_passes.h"
#include "ir/ir_text.h"
#include "passes/pipeline.h"
#include "passes/type_inference.h"
#include "util/diagnostic.h"

namespace irscope::session {

namespace {

namespace fs = std::filesystem;

// Natural order: digit runs compare as numbers ("graph_2" before "graph_10").
bool naturalLess(const std::string& a, const std::string& b) {
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
        const bool da = std::isdigit(static_cast<unsigned char>(a[i])) != 0;
        const bool db = std::isdigit(static_cast<unsigned char>(b[j])) != 0;
        if (da && db) {
            std::size_t ei = i;
            std::size_t ej = j;
            while (ei < a.size() && std::isdigit(static_cast<unsigned char>(a[ei])) != 0) {
                ++ei;
            }
            while (ej < b.size() && std::isdigit(static_cast<unsigned char>(b[ej])) != 0) {
                ++ej;
            }
            std::string na = a.substr(i, ei - i);
            std::string nb = b.substr(j, ej - j);
            na.erase(0, std::min(na.find_first_not_of('0'), na.size()));
            nb.erase(0, std::min(nb.find_first_not_of('0'), nb.size()));
            if (na.size() != nb.size()) {
                return na.size() < nb.size();
            }
            if (na != nb) {
                return na < nb;
            }
            i = ei;
            j = ej;
            continue;
        }
        if (a[i] != b[j]) {
            return a[i] < b[j];
        }
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

struct FileEntry {
    fs::path path;
    std::string name;
    DumpFileName parsed;
};

bool readFile(const fs::path& p, std::string* out, std::string* error) {
    std::ifstream in(p, std::ios::binary);
    if (!in) {
        *error = p.string() + ": error: cannot open file";
        return false;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) {
        *error = p.string() + ": error: cannot read file";
        return false;
    }
    *out = ss.str();
    return true;
}

std::map<std::string, std::string> collectDescriptions() {
    std::map<std::string, std::string> out;
    std::vector<std::unique_ptr<passes::Pass>> all;
    all.push_back(compiler::makeParsePass(nullptr));
    all.push_back(compiler::makeSymbolResolvePass(nullptr));
    all.push_back(passes::makeGraphReusingPass());
    all.push_back(passes::makeTypeInferencePass({}));
    passes::PassManager pm;
    passes::addOptimizerPipeline(pm);
    auto add = [&out](const passes::Pass& p, const std::string& prefix, auto& self) -> void {
        const std::string path = prefix.empty() ? p.name() : prefix + "/" + p.name();
        out.emplace(path, p.description());
        for (const auto& child : p.children()) {
            self(*child, path, self);
        }
    };
    for (const auto& p : all) {
        add(*p, "", add);
    }
    for (const auto& p : pm.passes()) {
        add(*p, "", add);
    }
    return out;
}

}  // namespace

std::string passDescription(const std::string& pass) {
    static const std::map<std::string, std::string> descriptions = collectDescriptions();
    const auto it = descriptions.find(pass);
    return it == descriptions.end() ? std::string() : it->second;
}

bool parseDumpFileName(const std::string& fileName, DumpFileName* out) {
    static const std::regex staged(R"(^(\d+)_(.+)_(\d+)\.ir$)");
    static const std::regex substep(R"(^opt_substep_(.+?)_r(\d+)_(\d+)_(.+)_(\d+)\.ir$)");
    static const std::regex trailing(R"(^(.*?)(?:_\d+)*\.ir$)");
    if (fileName.size() < 4 || fileName.compare(fileName.size() - 3, 3, ".ir") != 0) {
        return false;
    }
    DumpFileName d;
    std::smatch m;
    if (std::regex_match(fileName, m, substep)) {
        d.pass = m[1].str() + "/" + m[4].str();
        d.depth = 1;
        d.round = std::stoi(m[2].str());
        d.index = std::stoi(m[3].str());
        d.serial = std::stoi(m[5].str());
    } else if (std::regex_match(fileName, m, staged)) {
        d.stage = std::stoi(m[1].str());
        d.pass = m[2].str();
        d.serial = std::stoi(m[3].str());
    } else if (std::regex_match(fileName, m, trailing) && m[1].length() > 0) {
        d.pass = m[1].str();
    } else {
        d.pass = fileName.substr(0, fileName.size() - 3);
    }
    *out = std::move(d);
    return true;
}

DumpFolder loadDumpFolder(const fs::path& dir, const DumpProgress& progress, std::stop_token stop) {
    DumpFolder result;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        result.error = dir.string() + ": error: not a folder";
        return result;
    }
    std::vector<FileEntry> files;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code fileEc;
        if (!it->is_regular_file(fileEc)) {
            continue;
        }
        FileEntry e;
        e.path = it->path();
        e.name = e.path.filename().string();
        if (parseDumpFileName(e.name, &e.parsed)) {
            files.push_back(std::move(e));
        }
    }
    if (ec) {
        result.error = dir.string() + ": error: cannot list the folder: " + ec.message();
        return result;
    }
    // Written order first (serials), then the files without one.
    std::stable_sort(files.begin(), files.end(), [](const FileEntry& a, const FileEntry& b) {
        const bool sa = a.parsed.serial >= 0;
        const bool sb = b.parsed.serial >= 0;
        if (sa != sb) {
            return sa;
        }
        if (sa && a.parsed.serial != b.parsed.serial) {
            return a.parsed.serial < b.parsed.serial;
        }
        return naturalLess(a.name, b.name);
    });

    auto session = std::make_shared<store::Session>();
    session->scriptPath = dir.string();
    result.files = static_cast<int>(files.size());
    if (files.empty()) {
        result.session = std::move(session);
        result.error = dir.string() + ": error: no .ir file in this folder (expected save_graphs "
                                      "dumps such as 00_parse_0000.ir)";
        return result;
    }

    passes::CompileRecord* rec = nullptr;
    int lastStage = -1;
    std::size_t lastHash = 0;           // normalised text of the previous snapshot
    std::size_t beforeGroupHash = 0;    // ... of the snapshot before the current group's children
    bool inGroup = false;
    std::string firstFile;
    std::string lastFile;
    auto finish = [&] {
        if (rec != nullptr) {
            rec->signature = firstFile == lastFile ? firstFile : firstFile + " … " + lastFile;
        }
    };
    for (std::size_t k = 0; k < files.size(); ++k) {
        const FileEntry& f = files[k];
        const DumpFileName& d = f.parsed;
        const bool restart = rec == nullptr || (d.stage >= 0 && d.stage <= lastStage);
        if (restart) {
            finish();
            session->compiles.emplace_back();
            rec = &session->compiles.back();
            rec->trigger = "save_graphs folder " + dir.string();
            lastStage = -1;
            lastHash = 0;
            inGroup = false;
            firstFile = f.name;
        }
        lastFile = f.name;
        if (d.stage >= 0) {
            lastStage = d.stage;
        }
        passes::PassSnapshot s;
        s.pass = d.pass;
        s.depth = d.depth;
        s.round = d.round;
        s.sourceFile = f.path.string();
        s.description = passDescription(d.pass);
        if (s.description.empty()) {
            s.description = "Read from " + f.name + " (a pass irscope does not run itself).";
        }
        if (d.depth > 0 && !inGroup) {
            beforeGroupHash = lastHash;
            inGroup = true;
        }
        const bool first = rec->snapshots.empty();
        std::string text;
        std::string error;
        if (readFile(f.path, &text, &error)) {
            try {
                const auto module = ir::parseIr(text, f.path.string());
                s.setCounts(module->counts());
                const std::string printed = ir::printIr(*module);
                const std::size_t h = util::CompressedText::hashOf(printed);
                const std::size_t before = d.depth == 0 && inGroup ? beforeGroupHash : lastHash;
                // The first file is compared with the empty module before parse.
                s.setChanged(first || h != before);
                lastHash = h;
                if (rec->graphName.empty() && module->entry() != nullptr) {
                    rec->graphName = module->entry()->name();
                }
            } catch (const ParseError& e) {
                error = e.what();
            } catch (const std::exception& e) {
                error = f.path.string() + ": error: " + e.what();
            }
        }
        if (d.depth == 0) {
            inGroup = false;
        }
        if (!error.empty()) {
            s.error = error;
            if (!first) {
                s.setCounts(rec->snapshots.back().counts());
            }
            ++result.failed;
            if (result.error.empty()) {
                result.error = error;
            }
            if (rec->status == passes::CompileStatus::Ok) {
                rec->status = passes::CompileStatus::Error;
                rec->failedPass = s.pass;
                rec->error = error;
            }
            rec->warnings.push_back(error);
        }
        s.setCompressed(std::make_shared<const util::CompressedText>(util::CompressedText::compress(text)));
        rec->snapshots.push_back(std::move(s));
        if (progress) {
            progress(static_cast<int>(k) + 1, static_cast<int>(files.size()));
        }
        if (stop.stop_requested()) {
            result.cancelled = true;
            break;
        }
    }
    finish();
    for (passes::CompileRecord& c : session->compiles) {
        if (c.graphName.empty()) {
            c.graphName = dir.filename().string();
        }
    }
    result.session = std::move(session);
    return result;
}

}  // namespace irscope::session
