// The `time` module: time(), perf_counter(), monotonic(), sleep(). sleep is bounded by
// MsContext::sleepCapSeconds (10 s) and wakes every 10 ms to honour Interpreter::cancel().
#include <chrono>
#include <thread>

#include "frontend/modules/ms_internal.h"

namespace irscope::modules {

void initTime(Interpreter& I, const MsPtr& ms, interp::ModuleObject& m) {
    interp::addFunction(I, m, "time", [](Interpreter&, CallArgs&) {
        const auto d = std::chrono::system_clock::now().time_since_epoch();
        return Value::real(std::chrono::duration<double>(d).count());
    });
    auto mono = [](Interpreter&, CallArgs&) {
        const auto d = std::chrono::steady_clock::now().time_since_epoch();
        return Value::real(std::chrono::duration<double>(d).count());
    };
    interp::addFunction(I, m, "perf_counter", mono);
    interp::addFunction(I, m, "monotonic", mono);
    interp::addFunction(I, m, "process_time", mono);
    interp::addFunction(I, m, "sleep", [ms](Interpreter& J, CallArgs& a) {
        static const interp::Signature sig = interp::Signature("sleep").arg("secs").positionalOnly();
        auto v = sig.bind(J, a);
        const double s = toDouble(J, v[0]);
        if (s < 0) {
            throw PyError(Exc::ValueError, "sleep length must be non-negative");
        }
        const auto end = std::chrono::steady_clock::now() +
                         std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                             std::chrono::duration<double>(std::min(s, ms->ctx->sleepCapSeconds)));
        while (std::chrono::steady_clock::now() < end) {
            J.checkCancel();
            const std::chrono::steady_clock::duration left = end - std::chrono::steady_clock::now();
            const std::chrono::steady_clock::duration tick = std::chrono::milliseconds(10);
            std::this_thread::sleep_for(std::min(left, tick));
        }
        return Value::none();
    });
}

}  // namespace irscope::modules
