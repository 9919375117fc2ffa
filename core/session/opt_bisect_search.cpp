#include "session/opt_bisect_search.h"

#include <utility>

namespace irscope::session {

namespace {

struct Probe {
    BisectProbe summary;
    ScriptOutcome outcome;
    std::shared_ptr<passes::OptBisect> bisect;
};

Probe runWithLimit(const std::string& source, const std::string& path, const ScriptOptions& base,
                   int limit) {
    Probe p;
    p.bisect = std::make_shared<passes::OptBisect>(limit, nullptr);
    ScriptOptions o = base;
    o.compiler.optBisect = p.bisect;
    ScriptRunner runner;
    p.outcome = runner.run(source, path, std::move(o));
    p.summary.limit = limit;
    p.summary.passes = p.bisect->count();
    p.summary.result = p.outcome.result;
    return p;
}

// The built-in check: every compiled graph run returned the same values (or failed the same
// way) and the script ended the same way. What the host code prints is not compared: it may
// print timings.
bool sameResult(const ScriptOutcome& a, const ScriptOutcome& b) {
    const std::vector<store::RunRecord>& ra = a.session->runs;
    const std::vector<store::RunRecord>& rb = b.session->runs;
    if (ra.size() != rb.size() || a.result.exitStatus != b.result.exitStatus) {
        return false;
    }
    for (std::size_t i = 0; i < ra.size(); ++i) {
        if (ra[i].values != rb[i].values || ra[i].error != rb[i].error) {
            return false;
        }
    }
    return true;
}

BisectCulprit culpritOf(const Probe& p, int number) {
    BisectCulprit c;
    c.session = p.outcome.session;
    const auto& decisions = p.bisect->decisions();
    c.decision = decisions.at(static_cast<std::size_t>(number - 1));
    c.compile = c.decision.pipeline;
    const store::Session& s = *p.outcome.session;
    if (c.compile >= s.compiles.size()) {
        return c;
    }
    const passes::CompileRecord& record = s.compiles[c.compile];
    c.signature = record.signature;
    for (std::size_t i = 0; i < record.snapshots.size(); ++i) {
        const passes::PassSnapshot& snap = record.snapshots[i];
        if (snap.pass == c.decision.pass && snap.round == c.decision.round) {
            c.after = snap.text();
            if (i > 0) {
                c.before = record.snapshots[i - 1].text();
            }
            break;
        }
    }
    return c;
}

}  // namespace

BisectResult bisectPasses(const std::string& source, const std::string& path,
                          const BisectOptions& options) {
    BisectResult r;
    auto stop = [&] {
        if (options.cancelled && options.cancelled()) {
            r.outcome = BisectResult::Outcome::Cancelled;
            return true;
        }
        return false;
    };
    auto record = [&](const Probe& p) {
        r.probes.push_back(p.summary);
        if (options.progress) {
            options.progress(p.summary);
        }
    };
    // The reference: every skippable pass off.
    Probe none = runWithLimit(source, path, options.script, 0);
    auto judge = [&](Probe& p) {
        p.summary.good = options.check ? options.check(p.summary.limit, p.outcome)
                                       : sameResult(p.outcome, none.outcome);
        record(p);
        return p.summary.good;
    };
    if (stop()) {
        return r;
    }
    const bool noneGood = judge(none);
    if (stop()) {
        return r;
    }
    Probe all = runWithLimit(source, path, options.script, -1);
    r.total = all.summary.passes;
    if (judge(all)) {
        r.outcome = BisectResult::Outcome::NothingFails;
        return r;
    }
    if (!noneGood || r.total == 0) {
        r.outcome = BisectResult::Outcome::FailsWithoutPasses;
        return r;
    }
    int good = 0;
    int bad = r.total;  // the run with every pass on is the first bad one so far
    Probe badProbe = std::move(all);
    while (bad - good > 1) {
        if (stop()) {
            return r;
        }
        const int mid = good + (bad - good) / 2;
        Probe p = runWithLimit(source, path, options.script, mid);
        if (judge(p)) {
            good = mid;
        } else {
            bad = mid;
            badProbe = std::move(p);
        }
    }
    r.culprit = culpritOf(badProbe, bad);
    r.outcome = BisectResult::Outcome::Found;
    return r;
}

}  // namespace irscope::session
