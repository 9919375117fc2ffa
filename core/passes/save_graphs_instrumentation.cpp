#include "passes/save_graphs_instrumentation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

#include "ir/export_dot.h"
#include "ir/ir_text.h"
#include "passes/snapshot_instrumentation.h"

namespace irscope::passes {

namespace {

std::vector<std::string> splitList(const std::string& s) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= s.size()) {
        std::size_t end = s.find(',', start);
        if (end == std::string::npos) {
            end = s.size();
        }
        std::string item = s.substr(start, end - start);
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        if (!item.empty()) {
            out.push_back(std::move(item));
        }
        start = end + 1;
    }
    return out;
}

}  // namespace

SaveGraphsInstrumentation::SaveGraphsInstrumentation(std::shared_ptr<DumpSerial> serial,
                                                     const SnapshotInstrumentation* snapshots)
    : serial_(serial ? std::move(serial) : std::make_shared<DumpSerial>()), snapshots_(snapshots) {}

std::string SaveGraphsInstrumentation::fileName(const PassRun& run, int serial) {
    if (run.depth == 0 || run.parent == nullptr) {
        return fmt::format("{:02}_{}_{:04}.ir", run.stage, run.pass->name(), serial);
    }
    return fmt::format("opt_substep_{}_r{}_{}_{}_{:04}.ir", run.parent->pass->name(), run.round,
                       run.index, run.pass->name(), serial);
}

void SaveGraphsInstrumentation::beforePipeline(const ir::Module&, const PassContext& ctx) {
    const Settings& s = ctx.settings();
    level_ = static_cast<int>(s.getInt(kSaveGraphs, 0));
    enabled_ = level_ >= 1;
    dumpPasses_ = splitList(s.getString(kDumpIrPasses));
    const std::string path = s.getString(kSaveGraphsPath);
    dir_ = path.empty() ? std::filesystem::path(".") : std::filesystem::path(path);
    dirReady_ = false;
    dirFailed_ = false;
}

bool SaveGraphsInstrumentation::wanted(const PassRun& run) const {
    if (run.depth == 0) {
        return true;
    }
    if (dumpPasses_.empty()) {
        return level_ >= 2;
    }
    return std::any_of(dumpPasses_.begin(), dumpPasses_.end(), [&](const std::string& p) {
        return p == run.pass->name() || p == run.path;
    });
}

bool SaveGraphsInstrumentation::writeFile(const std::filesystem::path& file,
                                          const std::string& body) {
    errno = 0;
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    if (out) {
        out.write(body.data(), static_cast<std::streamsize>(body.size()));
        out.close();
    }
    if (!out) {
        const int err = errno;
        errors_.push_back(fmt::format("save_graphs: cannot write {}: {}", file.string(),
                                      err != 0 ? std::strerror(err) : "write failed"));
        return false;
    }
    written_.push_back(file);
    return true;
}

bool SaveGraphsInstrumentation::ensureDirectory() {
    if (dirReady_) {
        return true;
    }
    if (dirFailed_) {
        return false;
    }
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    if (ec || !std::filesystem::is_directory(dir_, ec)) {
        dirFailed_ = true;
        errors_.push_back(fmt::format("save_graphs: cannot create folder {}: {}", dir_.string(),
                                      ec ? ec.message() : std::string("not a folder")));
        return false;
    }
    dirReady_ = true;
    return true;
}

void SaveGraphsInstrumentation::afterPass(const PassRun& run, const ir::Module& m,
                                          const PassContext&, bool) {
    if (!enabled_ || !wanted(run) || !ensureDirectory()) {
        return;
    }
    std::shared_ptr<const std::string> text =
        snapshots_ != nullptr ? snapshots_->textOf(run) : nullptr;
    std::string printed;
    if (!text) {
        printed = ir::printIr(m);
    }
    const std::string& body = text ? *text : printed;

    const std::filesystem::path file = dir_ / fileName(run, serial_->next++);
    if (writeFile(file, body) && level_ >= 3) {
        std::filesystem::path dot = file;
        writeFile(dot.replace_extension(".dot"), ir::exportDot(m));
    }
}

}  // namespace irscope::passes
