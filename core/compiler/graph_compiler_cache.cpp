// GraphCompilerImpl and the compile cache on disk (store/compile_cache.h): a compile's
// position, script, settings and signature make a key; a hit parses the stored IR, binds it
// to this run's Parameters and arguments, and runs only the backend actions (task_emit); a
// miss compiles as usual and stores the IR validate left. Messages are MindSpore's log lines.
#include <chrono>
#include <regex>
#include <string_view>
#include <unordered_map>

#include "compiler/compiled_graph.h"
#include "compiler/graph_compiler_host.h"
#include "frontend/interp/scope.h"
#include "frontend/modules/ms_objects.h"
#include "ir/ir_lexer.h"
#include "ir/ir_text.h"
#include "ir/ir_value_reader.h"
#include "passes/pass_manager.h"
#include "passes/pipeline.h"
#include "passes/compile_record.h"

namespace irscope::compiler {

using interp::Interpreter;
using interp::Value;

namespace {

constexpr std::string_view kMissMessage =
    "Check the consistency of dependency files hash failed. Execute all the compilation "
    "actions.";
constexpr std::string_view kHitMessage =
    "Use the compilation cache and execute the backend actions only. Be aware of correctness "
    "risks.";
constexpr std::string_view kLoadFailedMessage =
    "Failed to load the compilation cache file. Execute all the compilation actions.";

// MindSpore logs these at WARNING from its PIPELINE module; irscope prints them on stderr.
void logWarning(Interpreter& I, std::string_view message, const std::string& detail = {}) {
    std::string line = "[WARNING] PIPELINE: ";
    line += message;
    if (!detail.empty()) {
        line += " (" + detail + ")";
    }
    I.writeError(line + "\n");
}

void logCacheError(Interpreter& I, const std::string& what) {
    I.writeError("[ERROR] irscope: compile cache " + what +
                 ". Execute all the compilation actions.\n");
}

// A signature without object addresses ("<Net at 0x55...>" -> "<Net>"): stable across runs.
std::string stableText(const std::string& s) {
    static const std::regex address(" at 0x[0-9a-fA-F]+");
    return std::regex_replace(s, address, "");
}

// The script's files (MindSpore's "dependency files"): the script the run executes. The
// interpreter imports no local modules (only the built-in ones), so the script is all.
std::vector<std::pair<std::string, std::string>> dependencies(Interpreter& I,
                                                              const store::Session& s) {
    if (!s.scriptText.empty()) {
        return {{s.scriptPath, s.scriptText}};
    }
    const interp::Location here = I.currentLocation();
    if (here.unit && here.unit->module) {
        return {{here.unit->fileName(), here.unit->module->source()}};
    }
    return {};
}

// Every named Parameter reachable from the compiled target and the call's arguments, the
// way compiled code reaches weights: attributes of Cells (and their sub-cells), of
// jit_class instances, globals of functions, elements of tuples, lists and dicts.
class ParameterFinder {
public:
    explicit ParameterFinder(Interpreter& I) : I_(I) {}

    void visit(const Value& v, int depth = 0) {
        if (!v.isObj() || depth > kMaxDepth || !seen_.insert(v.obj()).second) {
            return;
        }
        if (modules::tensorOf(v) != nullptr) {
            const std::string name = modules::parameterName(v);
            if (!name.empty()) {
                found.emplace(name, v);
            }
            return;
        }
        if (v.is<interp::ModuleObject>() || v.is<interp::Type>() || v.is<interp::StrObject>()) {
            return;
        }
        if (const auto* t = v.as<interp::TupleObject>()) {
            visitAll(t->items, depth);
            return;
        }
        if (const auto* l = v.as<interp::ListObject>()) {
            visitAll(l->items, depth);
            return;
        }
        if (const auto* d = v.as<interp::DictObject>()) {
            d->forEach([&](const Value&, const Value& x) { visit(x, depth + 1); });
            return;
        }
        if (const auto* f = v.as<interp::FunctionObject>()) {
            if (f->globals) {
                f->globals->forEach([&](const Value&, const Value& x) { visit(x, depth + 1); });
            }
            return;
        }
        // A Cell lists its Parameters (its own and its sub-cells').
        const Value named = I_.getAttrOrNull(v, "parameters_and_names");
        if (!named.isNull() && I_.callable(named)) {
            for (const Value& pair : I_.toVector(I_.call(named, interp::CallArgs{}))) {
                if (const auto* t = pair.as<interp::TupleObject>(); t && t->items.size() == 2) {
                    visit(t->items[1], depth + 1);
                }
            }
        }
        if (const interp::DictObject* d = v.obj()->dict()) {
            d->forEach([&](const Value&, const Value& x) { visit(x, depth + 1); });
        }
    }

    std::map<std::string, Value> found;

private:
    static constexpr int kMaxDepth = 6;

    void visitAll(const std::vector<Value>& items, int depth) {
        for (const Value& x : items) {
            visit(x, depth + 1);
        }
    }

    Interpreter& I_;
    std::set<const void*> seen_;
};

// The .ir text of a constant entry input, or nullopt when the text does not read back as
// the same value (a tensor with elided elements).
std::optional<std::string> constantText(const ops::KernelArg& a) {
    const std::string text = ir::formatValue(*ops::valueFromKernelArg(a));
    ir::text::ValueReader reader([](const std::string&) { return nullptr; });
    try {
        ir::text::LineCursor c(text, 1, nullptr);
        const ir::ValuePtr back = reader.value(c);
        c.skipSpaces();
        if (back && c.atEnd() && ir::formatValue(*back) == text) {
            return text;
        }
    } catch (const std::exception&) {
    }
    return std::nullopt;
}

ops::KernelArg constantFromText(const std::string& text) {
    ir::text::ValueReader reader([](const std::string&) { return nullptr; });
    ir::text::LineCursor c(text, 1, nullptr);
    return ops::kernelArgFromValue(reader.value(c));
}

}  // namespace

GraphCompilerImpl::~GraphCompilerImpl() = default;

std::shared_ptr<GraphCompilerImpl::Compiled> GraphCompilerImpl::fromDiskCache(
    Interpreter& I, const Value& target, interp::CallArgs& args, const std::string& signature,
    const std::string& identity, const passes::Settings& settings) {
    const int ordinal = compiles_++;
    if (disk_) {
        disk_->pending.reset();
    }
    const std::shared_ptr<modules::MsContext> ctx = modules::msContext(I);
    const store::CompileCacheConfig config =
        detail::compileCacheConfig(ctx.get(), options_.readEnvironment);
    if (!config.enabled || options_.optBisect) {
        return nullptr;  // a bisection compiles every graph through its passes
    }
    const std::filesystem::path file = store::compileCacheFile(config);
    if (!disk_ || disk_->file != file) {
        disk_ = std::make_unique<DiskCache>();
        disk_->file = file;
        try {
            disk_->cache = std::make_unique<store::CompileCache>(file);
        } catch (const store::CompileCacheError& e) {
            logCacheError(I, e.what());  // once per file: the cache stays null
        }
    }
    if (!disk_->cache) {
        return nullptr;
    }
    store::CompileCacheKey key;
    key.dependencies = dependencies(I, *session_);
    if (!key.dependencies.empty()) {
        std::error_code ec;
        const std::filesystem::path script = key.dependencies.front().first;
        const std::filesystem::path abs = std::filesystem::absolute(script, ec);
        key.scriptPath = (ec ? script : abs.lexically_normal()).string();
    }
    key.settings = settings;
    key.ordinal = ordinal;
    key.target = stableText(detail::signatureOf(I, target));
    key.signature = stableText(signature) + identity;

    std::optional<store::CachedCompile> entry;
    try {
        entry = disk_->cache->find(key);
    } catch (const store::CompileCacheError& e) {
        logCacheError(I, e.what());
    }
    if (!entry) {
        logWarning(I, kMissMessage);
        disk_->pending = std::move(key);
        return nullptr;
    }

    // A hit: the stored IR, bound to this run's Parameters and arguments.
    const auto start = std::chrono::steady_clock::now();
    const std::vector<Value> all = [&] {
        std::vector<Value> v = args.pos;
        for (const interp::KwArg& k : args.kw) {
            v.push_back(k.value);
        }
        return v;
    }();
    auto c = std::make_shared<Compiled>();
    std::string failure;
    try {
        c->module = ir::parseIr(entry->irText, disk_->file.string());
        if (c->module->entry() == nullptr) {
            failure = "the stored IR has no entry graph";
        }
    } catch (const std::exception& e) {
        failure = std::string("the stored IR does not parse: ") + e.what();
    }
    if (failure.empty() && entry->used.size() != all.size()) {
        failure = "the stored graph takes another number of arguments";
    }
    if (failure.empty()) {
        ParameterFinder finder(I);
        finder.visit(target);
        for (const Value& a : all) {
            finder.visit(a);
        }
        // The entry's parameters by name (a training step has thousands of weights).
        std::unordered_map<std::string_view, const ir::Parameter*> entryParams;
        for (const ir::Parameter* p : c->module->entry()->parameters()) {
            entryParams.try_emplace(p->name(), p);  // the first of a name, as a search finds
        }
        for (const std::string& name : entry->weights) {
            const auto it = finder.found.find(name);
            const auto at = entryParams.find(name);
            const ir::Parameter* p = at == entryParams.end() ? nullptr : at->second;
            const ir::Tensor* t =
                it == finder.found.end() ? nullptr : modules::tensorOf(it->second);
            if (t == nullptr || p == nullptr) {
                failure = "no Parameter named '" + name + "'";
                break;
            }
            const ir::AbstractPtr& abs = p->abstract();
            if (abs && (abs->dtype != t->dtype() || abs->shape != t->shape())) {
                failure = "the Parameter '" + name + "' has another dtype or shape";
                break;
            }
            c->weights.emplace(name, *t);
            c->weightObjects.emplace(name, it->second);
        }
    }
    if (failure.empty()) {
        try {
            for (std::size_t k = 0; k < entry->source.size(); ++k) {
                c->fixed.push_back(entry->source[k] < 0 ? constantFromText(entry->constants[k])
                                                        : ops::KernelArg());
            }
        } catch (const std::exception& e) {
            failure = std::string("a stored constant does not read back: ") + e.what();
        }
    }
    if (!failure.empty()) {
        logWarning(I, kLoadFailedMessage, failure);
        disk_->pending = std::move(key);
        return nullptr;
    }
    logWarning(I, kHitMessage);

    passes::CompileRecord record;
    record.signature = signature;
    record.trigger = detail::triggerText(I);
    record.fromCache = true;
    record.cacheLoadMillis =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    // The stored text is the parsed module's own printed IR (printIr(parseIr(t)) == t for
    // a text printIr wrote): the snapshots start from it rather than printing it again.
    emitRecorded(*c, record, settings, "cached graph",
                 std::make_shared<const std::string>(std::move(entry->irText)));
    c->source = entry->source;
    c->used = entry->used;
    c->function = entry->function;
    c->pinned.push_back(target);
    for (const Value& a : all) {
        detail::identityObjects(I, a, c->pinned);
    }
    return c;
}

void GraphCompilerImpl::storeInDiskCache(Interpreter& I, const Compiled& c) {
    if (!disk_ || !disk_->cache || !disk_->pending) {
        return;
    }
    store::CompileCacheKey key = std::move(*disk_->pending);
    disk_->pending.reset();
    const passes::CompileRecord& record = session_->compiles.at(c.record);
    const passes::PassSnapshot* validated = record.find("validate", true);
    if (validated == nullptr || !validated->compressed()) {
        return;
    }
    store::CachedCompile entry;
    entry.graphName = record.graphName;
    entry.signature = record.signature;
    entry.function = c.function;
    entry.irText = validated->text();
    entry.source = c.source;
    entry.used = c.used;
    for (std::size_t k = 0; k < c.source.size(); ++k) {
        if (c.source[k] >= 0) {
            entry.constants.emplace_back();
            continue;
        }
        std::optional<std::string> text = constantText(c.fixed[k]);
        if (!text) {
            return;  // a constant the .ir text cannot carry: this compile is not cached
        }
        entry.constants.push_back(std::move(*text));
    }
    for (const auto& [name, tensor] : c.weights) {
        entry.weights.push_back(name);
    }
    try {
        disk_->cache->store(key, entry);
    } catch (const store::CompileCacheError& e) {
        logCacheError(I, e.what());
    }
}

void GraphCompilerImpl::emitRecorded(Compiled& c, passes::CompileRecord& record,
                                     const passes::Settings& settings, const std::string& what,
                                     std::shared_ptr<const std::string> text) {
    passes::PassManager pm;
    pm.add(passes::makeTaskEmitPass());
    passes::PassContext pctx(settings);
    const passes::PipelineResult result =
        passes::runRecorded(pm, *c.module, pctx, record, serial_, std::move(text));
    record.graphName = c.module->entry()->name();
    session_->compiles.push_back(record);
    if (result.status != passes::PipelineStatus::Ok) {
        throw interp::PyError(interp::Exc::RuntimeError, "irscope: the '" + result.failedPass +
                                                             "' pass failed on the " + what + ": " +
                                                             result.error);
    }
    c.record = session_->compiles.size() - 1;
}

}  // namespace irscope::compiler
