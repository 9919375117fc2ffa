// SnapshotPrinter: fingerprints, prints, compares and compresses the IR snapshots of one
// compile on a worker thread, off the compile's critical path. The snapshot instrumentation
// hands it a structural copy of the module (Module::printCopy) for every pass that reported a
// change, and keeps going; the worker fingerprints the copy (ir/module_fingerprint.h, which
// also counts its nodes): a state with the fingerprint of the state before the pass or of
// the last state shares that state's text without printing. Otherwise it prints the copy,
// shares the text of either state when the bytes are the same (so `changed` stays exact and
// unchanged texts share their compressed bytes), compresses it otherwise, and frees the
// copy. Under verification (`verify`) a fingerprint's "same" verdict is checked against the
// printed text, and a miss is marked on the state (SnapshotText::fingerprintMissed).
//
// Jobs run in the order they were queued, so a job may name the text states of earlier jobs:
// they are filled by the time it runs. wait() returns once every queued job is done, and
// prints the newest copy itself meanwhile; the instrumentation waits only when it needs a
// text during the pipeline (a save_graphs dump, verification). At the end of the pipeline
// the printer is closed, not waited for: the compile's snapshots read their results when
// someone asks (PendingSnapshotText), and keep the printer alive until then. At most
// `maxPending` copies wait at once (a queue of copies of a 135k-node module would cost more
// memory than the texts): submit() blocks until the worker catches up.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "ir/module.h"
#include "ir/module_fingerprint.h"
#include "ir/value_text_cache.h"
#include "passes/compile_record.h"
#include "util/compressed_text.h"

namespace irscope::passes {

// One printed state of the IR. Filled by the worker (or directly, for a state printed on
// the calling thread); read only after SnapshotPrinter::wait() once a job names it.
struct SnapshotText {
    std::shared_ptr<const std::string> text;  // null when the IR could not be printed
    std::size_t hash = 0;
    // The state's structural fingerprint, with its node counts (nullopt when the module could
    // not be walked: then the text is not shared by fingerprint and the counts are zero).
    std::optional<ir::ModuleFingerprint> fingerprint;
    ir::NodeCounts counts() const { return fingerprint ? fingerprint->counts : ir::NodeCounts{}; }
    bool fingerprintMissed = false;  // verification: an equal fingerprint, a different text
    std::shared_ptr<const util::CompressedText> blob;  // null until compressed
    std::string error;                                 // why printing failed, if it did

    static bool same(const SnapshotText& a, const SnapshotText& b);
};

// What one snapshot keeps of the printer's work: filled by the job that settles it (or by
// the printer dropping the job), then read by any thread.
class SnapshotResult {
public:
    using Outcome = PendingSnapshotText::Outcome;
    // Publishes `outcome` to the waiting readers (once).
    void finish(Outcome outcome);
    const Outcome& wait() const;

private:
    mutable std::mutex mutex_;
    mutable std::condition_variable done_;
    bool finished_ = false;
    Outcome outcome_;
};

class SnapshotPrinter {
public:
    explicit SnapshotPrinter(int compressionLevel, bool verify = false, std::size_t maxPending = 64);
    SnapshotPrinter(const SnapshotPrinter&) = delete;
    SnapshotPrinter& operator=(const SnapshotPrinter&) = delete;
    // Drops the jobs not started yet (their results say so) and joins the worker once it
    // is done with the job it is running.
    ~SnapshotPrinter();

    // No more jobs: the worker ends once the queued ones are done. Nothing waits for it.
    void close();
    bool closed() const;

    // Settles one snapshot: with a `copy`, first fingerprints it and, unless its fingerprint
    // is that of `last` (the state before it in time) or `before` (the state before the
    // pass), prints it into `after` (when the text equals either state's, `after` takes that
    // state's text and compressed bytes; otherwise the text is compressed); then fills
    // `result` comparing `after` with `before`. Without a copy,
    // `after` is an earlier state (filled by then). `last` and `before` may be null (the
    // baseline before the first pass: nothing to compare with).
    void submit(std::unique_ptr<const ir::Module> copy, std::shared_ptr<SnapshotText> after,
                std::shared_ptr<const SnapshotText> last,
                std::shared_ptr<const SnapshotText> before, std::shared_ptr<SnapshotResult> result);

    // The same job for a module that cannot change meanwhile: `m` is printed into `after`
    // on the calling thread (while the worker goes on with the older jobs), then the job
    // is queued to be settled in order. No copy is made.
    void submitPrinted(const ir::Module& m, std::shared_ptr<SnapshotText> after,
                       std::shared_ptr<const SnapshotText> last,
                       std::shared_ptr<const SnapshotText> before,
                       std::shared_ptr<SnapshotResult> result);

    // Blocks until every submitted job is done; returns the milliseconds spent waiting.
    double wait();

    // Prints `m` into `out` on the calling thread, with its fingerprint and counts, sharing
    // the text and bytes of `last` or `before` when equal, compressing at `level` otherwise.
    // Tensor constants go through `valueTexts` when given (see ir/value_text_cache.h).
    static void print(const ir::Module& m, SnapshotText& out, const SnapshotText* last,
                      const SnapshotText* before, int level,
                      ir::ValueTextCache* valueTexts = nullptr);
    // Fills out.fingerprint (leaves it unset when `m` cannot be walked).
    static void fingerprint(const ir::Module& m, SnapshotText& out);

private:
    struct Job {
        std::unique_ptr<const ir::Module> copy;
        std::shared_ptr<SnapshotText> after;
        std::shared_ptr<const SnapshotText> last;
        std::shared_ptr<const SnapshotText> before;
        std::shared_ptr<SnapshotResult> result;
        bool printed = false;  // wait() printed the copy: only the sharing and result remain
    };
    void loop();
    void runJob(Job& job);
    // The job's copy has the fingerprint of `last` or `before`: shares that state's text,
    // bytes and counts (under verification only once the printed text agrees).
    bool shareByFingerprint(Job& job);
    // Makes `out` take the text and bytes of `last` or `before` when they print the same.
    static bool shareEqual(SnapshotText& out, const SnapshotText* last, const SnapshotText* before);

    int level_;
    bool verify_;
    std::size_t maxPending_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Job> queue_;
    std::size_t copies_ = 0;         // queued jobs that hold a copy of the module
    bool busy_ = false;              // the worker is running a job taken off the queue
    int helping_ = 0;                // jobs wait() is printing on the waiting thread
    ir::ValueTextCache valueTexts_;  // the weights' texts, printed once for all the states
    bool stop_ = false;    // the destructor: drop what is queued
    bool closed_ = false;  // close(): finish what is queued, then end
    std::thread worker_;
};

}  // namespace irscope::passes
