#include "passes/snapshot_printer.h"

#include <chrono>
#include <exception>

#include "ir/ir_text.h"

namespace irscope::passes {

bool SnapshotText::same(const SnapshotText& a, const SnapshotText& b) {
    if (a.text == b.text) {
        return true;
    }
    return a.text && b.text && a.hash == b.hash && a.text->size() == b.text->size() &&
           *a.text == *b.text;
}

void SnapshotResult::finish(Outcome outcome) {
    {
        std::lock_guard lock(mutex_);
        if (finished_) {
            return;
        }
        outcome_ = std::move(outcome);
        finished_ = true;
    }
    done_.notify_all();
}

const SnapshotResult::Outcome& SnapshotResult::wait() const {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return finished_; });
    return outcome_;
}

SnapshotPrinter::SnapshotPrinter(int compressionLevel, bool verify, std::size_t maxPending)
    : level_(compressionLevel), verify_(verify), maxPending_(maxPending == 0 ? 1 : maxPending) {
    worker_ = std::thread([this] { loop(); });
}

SnapshotPrinter::~SnapshotPrinter() {
    std::deque<Job> dropped;
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
        dropped.swap(queue_);
    }
    changed_.notify_all();
    for (Job& job : dropped) {
        job.result->finish({false, nullptr, "the snapshot was dropped before it was printed", {}});
    }
    worker_.join();
}

void SnapshotPrinter::close() {
    {
        std::lock_guard lock(mutex_);
        closed_ = true;
    }
    changed_.notify_all();
}

bool SnapshotPrinter::closed() const {
    std::lock_guard lock(mutex_);
    return closed_;
}

void SnapshotPrinter::submit(std::unique_ptr<const ir::Module> copy,
                             std::shared_ptr<SnapshotText> after,
                             std::shared_ptr<const SnapshotText> last,
                             std::shared_ptr<const SnapshotText> before,
                             std::shared_ptr<SnapshotResult> result) {
    std::unique_lock lock(mutex_);
    if (copy) {
        changed_.wait(lock, [this] { return copies_ < maxPending_; });
        ++copies_;
    }
    queue_.push_back(Job{std::move(copy), std::move(after), std::move(last), std::move(before),
                         std::move(result)});
    changed_.notify_all();
}

void SnapshotPrinter::submitPrinted(const ir::Module& m, std::shared_ptr<SnapshotText> after,
                                    std::shared_ptr<const SnapshotText> last,
                                    std::shared_ptr<const SnapshotText> before,
                                    std::shared_ptr<SnapshotResult> result) {
    print(m, *after, nullptr, nullptr, level_, &valueTexts_);
    std::lock_guard lock(mutex_);
    queue_.push_back(Job{nullptr, std::move(after), std::move(last), std::move(before),
                         std::move(result), true});
    changed_.notify_all();
}

double SnapshotPrinter::wait() {
    const auto t0 = std::chrono::steady_clock::now();
    std::unique_lock lock(mutex_);
    // Rather than idle, the waiting thread prints the newest queued copy while the worker
    // works through the older ones: no job is queued after the newest (only the waiting
    // thread submits), so the texts the older jobs compare with are not the one it prints.
    // The job goes back in its place without its copy, for the worker to settle in order.
    while (queue_.size() > (busy_ ? 0U : 1U) && queue_.back().copy) {
        Job job = std::move(queue_.back());
        queue_.pop_back();
        --copies_;
        ++helping_;
        lock.unlock();
        // A copy's text and compressed bytes, nothing shared yet: runJob does that.
        print(*job.copy, *job.after, nullptr, nullptr, level_, &valueTexts_);
        job.copy.reset();
        lock.lock();
        --helping_;
        job.printed = true;
        queue_.push_back(std::move(job));
        changed_.notify_all();
    }
    changed_.wait(lock, [this] { return queue_.empty() && !busy_ && helping_ == 0; });
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void SnapshotPrinter::loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [this] { return stop_ || closed_ || !queue_.empty(); });
        if (stop_ || queue_.empty()) {
            return;  // dropped, or closed with nothing left
        }
        Job job = std::move(queue_.front());
        queue_.pop_front();
        if (job.copy) {
            --copies_;
        }
        busy_ = true;
        changed_.notify_all();  // a place in the queue is free
        lock.unlock();
        runJob(job);
        job = Job{};  // free the copy off the lock
        lock.lock();
        busy_ = false;
        changed_.notify_all();
    }
}

void SnapshotPrinter::fingerprint(const ir::Module& m, SnapshotText& out) {
    try {
        out.fingerprint = ir::fingerprint(m);
    } catch (const std::exception&) {
        out.fingerprint.reset();  // printing then says what is wrong with the module
    }
}

void SnapshotPrinter::print(const ir::Module& m, SnapshotText& out, const SnapshotText* last,
                            const SnapshotText* before, int level, ir::ValueTextCache* valueTexts) {
    if (!out.fingerprint) {
        fingerprint(m, out);
    }
    try {
        out.text = std::make_shared<const std::string>(
            valueTexts != nullptr ? ir::printIr(m, {}, *valueTexts) : ir::printIr(m));
        out.hash = util::CompressedText::hashOf(*out.text);
    } catch (const std::exception& e) {
        out.error = e.what();
        return;
    }
    if (!shareEqual(out, last, before)) {
        out.blob = std::make_shared<const util::CompressedText>(
            util::CompressedText::compress(*out.text, level, out.hash));
    }
}

bool SnapshotPrinter::shareEqual(SnapshotText& out, const SnapshotText* last,
                                 const SnapshotText* before) {
    // Share the bytes of an equal text (the IR came back to the state before the pass, or
    // a different structure printed the same text); only a new text keeps its own.
    for (const SnapshotText* other : {last, before}) {
        if (other != nullptr && other->blob && SnapshotText::same(*other, out)) {
            out.text = other->text;
            out.blob = other->blob;
            return true;
        }
    }
    return false;
}

bool SnapshotPrinter::shareByFingerprint(Job& job) {
    SnapshotText& out = *job.after;
    fingerprint(*job.copy, out);
    if (!out.fingerprint) {
        return false;
    }
    for (const SnapshotText* other : {job.last.get(), job.before.get()}) {
        if (other == nullptr || !other->blob || other->fingerprint != out.fingerprint) {
            continue;
        }
        if (verify_) {
            // The fingerprint hashes abstracts and constants by identity and may say "same"
            // only when the texts are: checked against the text it saves printing.
            std::string text;
            try {
                text = ir::printIr(*job.copy, {}, valueTexts_);
            } catch (const std::exception&) {
                return false;  // print() keeps why
            }
            if (!other->text || text != *other->text) {
                out.fingerprintMissed = true;
                return false;  // printed as a new state
            }
        }
        out.text = other->text;
        out.hash = other->hash;
        out.blob = other->blob;
        return true;
    }
    return false;
}

void SnapshotPrinter::runJob(Job& job) {
    if (job.copy) {
        if (!shareByFingerprint(job)) {
            print(*job.copy, *job.after, job.last.get(), job.before.get(), level_, &valueTexts_);
        }
    } else if (job.printed && job.after->text) {
        shareEqual(*job.after, job.last.get(), job.before.get());
    }
    job.result->finish({job.before == nullptr || !SnapshotText::same(*job.before, *job.after),
                        job.after->blob, job.after->error, job.after->counts()});
}

}  // namespace irscope::passes
