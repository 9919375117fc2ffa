// The Execution dock: runs the open script under the debugger (runtime::Debugger) on a
// worker thread, on the CPU or a plugin device, and shows where a run is paused: the state
// line, the call stack, the current graph's execution order (current row marked, executed
// rows dimmed) and the values of the current kernel's inputs and output in a tensor viewer.
// Breakpoints are toggled on the node selected in the graph view (F9, or its context menu)
// or typed (an op type, FILE:LINE, a node); watchpoints put a condition on a node's output.
//
// The dock never blocks the UI: the debugger's worker thread gathers what a stop shows
// (values, listing, the executed IR printed and parsed) before it posts the stop; the UI
// only reads it. The executed IR goes out through irReady (for the graph view and the IR
// text) and the paused node through nodeReached; locationReached names its source line.
// (execution_breakpoints.cpp holds the breakpoint side: its tab, toggling, graph marks.)
#pragma once

#include <QDockWidget>
#include <QFutureWatcher>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "ir_loader.h"
#include "runtime/debugger.h"
#include "runtime/device.h"

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QTreeWidget;

namespace irscope::session {
class ScriptRunner;
}

namespace irscope::ui {

class GraphView;
class TensorViewer;
struct StopReport;
struct JobReport;

class ExecutionDock : public QDockWidget {
    Q_OBJECT

public:
    enum class State { Idle, Running, Paused, Finished, Failed };

    explicit ExecutionDock(QWidget* parent = nullptr);
    ~ExecutionDock() override;

    // The script Run debugs (read from disk when a run starts).
    void setScriptPath(const QString& path);
    QString scriptPath() const { return scriptPath_; }
    // The graph view whose selected node F9 toggles a breakpoint on, and where breakpoints
    // and the paused node are drawn.
    void attachGraphView(GraphView* view);

    State state() const { return state_; }
    bool isActive() const { return state_ == State::Running || state_ == State::Paused; }
    // Where the run is paused (while Paused).
    const std::optional<runtime::StopInfo>& stopInfo() const { return stop_; }
    // The IR the paused run executes (parsed from its printed text), or null.
    const LoadedIr* executedIr() const { return ir_ ? ir_.get() : nullptr; }
    runtime::Debugger& debugger() { return dbg_; }

    // Control (also behind the actions). Run starts the script again from the beginning.
    void run();
    void resume(runtime::Debugger::Mode mode);
    void stop();
    void pause();
    // While paused: runs until a kernel at `location` (the debugger's advance).
    void runTo(const QString& location);

    // Breakpoints and watchpoints; false (and a message on the state line) on a bad location.
    bool addBreakpoint(const QString& location);
    bool addWatchpoint(const QString& location, const QString& condition);
    // On the graph view's selected node: removes its breakpoint, or sets one.
    void toggleBreakpointAtSelection();
    // Shows a value (as `print` names it) in the tensor viewer; false when it has none now.
    bool inspect(const QString& location);
    // "@GRAPH:%N" (or a parameter's name) of a node of `model`, "" for other nodes.
    static QString locationOf(const GraphModel& model, const ir::Node* node);
    // The node of `model` named `name` ("%3") in graph `graph`, or null.
    static const ir::Node* findNode(const GraphModel& model, const QString& graph,
                                    const QString& name);

    // Widgets and actions, for menus and tests.
    QAction* runAction() const { return run_; }
    QAction* continueAction() const { return continue_; }
    QAction* stepOverAction() const { return stepOver_; }
    QAction* stepIntoAction() const { return stepInto_; }
    QAction* stepLineAction() const { return stepLine_; }
    QAction* finishAction() const { return finish_; }
    QAction* pauseAction() const { return pause_; }
    QAction* stopAction() const { return stop_Action_; }
    QAction* toggleBreakpointAction() const { return toggle_; }
    QAction* runToNodeAction() const { return runTo_; }
    QAction* breakOnOpAction() const { return breakOnOp_; }
    QList<QAction*> debugActions() const;
    QComboBox* deviceBox() const { return device_; }
    QComboBox* loadElimBox() const { return loadElim_; }
    QComboBox* cellReuseBox() const { return cellReuse_; }
    bool devicesScanned() const { return scanned_; }
    QLabel* stateLabel() const { return stateLabel_; }
    QLabel* noteLabel() const { return note_; }
    QListWidget* orderList() const { return order_; }
    QListWidget* stackList() const { return stack_; }
    QTreeWidget* breakpointList() const { return points_; }
    QComboBox* valueBox() const { return values_; }
    TensorViewer* tensorViewer() const { return viewer_; }

signals:
    void stateChanged(irscope::ui::ExecutionDock::State state);
    // A run paused at `node` (as the .ir listing names it) in `graph`.
    void paused(const QString& graph, const QString& node);
    // The script ended (ok: it ran to its end without an error).
    void finished(bool ok);
    void locationReached(const QString& file, int line);
    void irReady(const irscope::ui::LoadedIr& ir);
    // A node of irReady's module to show: where the run paused, or a kernel picked in the
    // execution order.
    void nodeReached(const irscope::ir::Node* node);
    void printed(const QString& text);
    void devicesReady();

private:
    void buildActions();
    QWidget* buildBreakpointsTab();
    void setState(State s, const QString& text);
    void start(runtime::Debugger::Resume first);
    void onStopped(const std::shared_ptr<StopReport>& report);
    void onJobFinished(const JobReport& report);
    void showValueEntry(int k);
    void refreshBreakpoints();
    void refreshMarks();
    void updateActions();
    void showNote(const QString& text);  // the last command's message, under the state line
    // Adds a breakpoint or watchpoint through `add` and says so (describe(id)) or why not.
    bool addPoint(const std::function<int(std::string*)>& add,
                  const std::function<QString(int)>& describe);
    void onGraphNodeSelected(const ir::Node* node);
    void reportStopOnWorker(const runtime::StopInfo& s);  // the debugger's thread

    runtime::Debugger dbg_;
    // The current job's cancellation: its script's token and the debugger's job token.
    std::stop_source jobStop_;
    QString scriptPath_;
    State state_ = State::Idle;
    bool restartPending_ = false;
    std::optional<runtime::StopInfo> stop_;
    std::shared_ptr<const LoadedIr> ir_;
    std::vector<runtime::ValueInfo> valueEntries_;
    GraphView* graph_ = nullptr;

    // Worker-side caches (touched only on the debugger's thread, inside its callbacks).
    struct WorkerCache {
        const ir::Module* module = nullptr;
        std::string entry;
        std::size_t nodes = 0;
        std::shared_ptr<const LoadedIr> ir;
        std::string listedGraph;
        const ir::Module* listedModule = nullptr;
        int listedGeneration = -1;
    } cache_;
    std::atomic<int> pointsGeneration_{0};
    QString orderGraph_;  // the graph orderList shows

    QFutureWatcher<std::vector<runtime::DevicePtr>> scan_;
    std::vector<runtime::DevicePtr> devices_;  // deviceBox rows 1..
    bool scanned_ = false;
    // The script text, for FILE:LINE breakpoints (the debugger asks from any thread).
    std::mutex sourceMu_;
    std::string sourcePath_;
    std::optional<std::string> sourceText_;  // read at a run's start (or when first asked)

    QAction* run_ = nullptr;
    QAction* continue_ = nullptr;
    QAction* stepOver_ = nullptr;
    QAction* stepInto_ = nullptr;
    QAction* stepLine_ = nullptr;
    QAction* finish_ = nullptr;
    QAction* pause_ = nullptr;
    QAction* stop_Action_ = nullptr;
    QAction* toggle_ = nullptr;
    QAction* runTo_ = nullptr;
    QAction* breakOnOp_ = nullptr;
    QComboBox* device_ = nullptr;
    QComboBox* loadElim_ = nullptr;
    QComboBox* cellReuse_ = nullptr;
    QLabel* stateLabel_ = nullptr;
    QLabel* note_ = nullptr;  // the last command's message
    QListWidget* order_ = nullptr;
    QListWidget* stack_ = nullptr;
    QTreeWidget* points_ = nullptr;
    QLineEdit* pointEdit_ = nullptr;
    QComboBox* watchCondition_ = nullptr;
    QLineEdit* watchThreshold_ = nullptr;
    QComboBox* values_ = nullptr;
    QLineEdit* inspectEdit_ = nullptr;
    TensorViewer* viewer_ = nullptr;
};

}  // namespace irscope::ui
