// Compare ▸ Settings…: one script run under two settings side by side —
// MS_DEV_SIDE_EFFECT_LOAD_ELIM a vs b (0-3), or lazy inline off vs on (MS_DEV_CELL_REUSE 0
// vs 1). The script runs twice at once on worker threads (session::ScriptRunner with the
// setting as a ScriptOptions override; progress and Cancel); then a CompareView shows the
// same compile and pass of both runs (choosing a pass or a compile on one side chooses it
// on the other) and a delta table per compile: nodes and cnodes at the pass and at the
// end, TensorMove / Load / UpdateState counts, planned and measured peak memory, and the
// run results (values each compiled graph returned, the script's output and error), with
// the rows that differ marked.
#pragma once

#include <QDialog>
#include <QFutureWatcher>
#include <QThreadPool>
#include <QWidget>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include "script_loader.h"
#include "session/divergence.h"

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QTableWidget;
class QTabWidget;
class QTimer;

namespace irscope::ui {

class CompareView;
class FirstDifferencePanel;

// Which setting to vary, and its two values.
struct SettingsChoice {
    // The run mode rather than a setting: a and b are modules::MsContext's mode numbers
    // (PYNATIVE_MODE 1 left, GRAPH_MODE 0 right).
    static constexpr const char* kMode = "mode";
    std::string key;  // passes::kSideEffectLoadElim, passes::kCellReuse or kMode
    std::int64_t a = 0;
    std::int64_t b = 0;
    // "MS_DEV_SIDE_EFFECT_LOAD_ELIM=1", "mode=pynative"
    QString label(int side) const;
    // Side 0 (a) or 1 (b) as the runs and the first-difference search take it.
    session::RunSide runSide(int side) const;
    void applyTo(session::ScriptOptions& options, int side) const;
    // From the command line: "load-elim=1,3" or "lazy-inline" (0 vs 1), "cell-reuse=0,2",
    // "mode" (PyNative vs GRAPH_MODE).
    static std::optional<SettingsChoice> parse(const QString& text, QString* error);
};

class SettingsCompareDialog : public QDialog {
    Q_OBJECT

public:
    explicit SettingsCompareDialog(QWidget* parent = nullptr);
    SettingsChoice choice() const;
    QRadioButton* loadElimButton() const { return loadElim_; }
    QRadioButton* lazyInlineButton() const { return lazyInline_; }
    QRadioButton* modeButton() const { return mode_; }
    QSpinBox* levelBox(int side) const { return levels_[static_cast<std::size_t>(side)]; }

private:
    QRadioButton* loadElim_ = nullptr;
    QRadioButton* lazyInline_ = nullptr;
    QRadioButton* mode_ = nullptr;
    std::array<QSpinBox*, 2> levels_{};
};

// One side's run, with the op counts of each compile's final IR.
struct SettingsRun {
    LoadedScript script;
    std::vector<std::map<std::string, int>> finalOps;  // per compile: op -> CNodes calling it
};

class SettingsCompareView : public QWidget {
    Q_OBJECT

public:
    explicit SettingsCompareView(QWidget* parent = nullptr);
    ~SettingsCompareView() override;

    // Runs `path` under both values of `choice` (a run in progress is stopped first: this
    // one starts when it has ended, without waiting on the UI thread).
    // cancel(): request_stop() on the job's one std::stop_source; finished() follows.
    void start(const QString& path, const SettingsChoice& choice);
    void cancel();
    bool isBusy() const { return running_ > 0 || searching_; }
    bool hasResult() const { return runs_[0].script.session && runs_[1].script.session; }
    const SettingsRun& run(int side) const { return runs_[static_cast<std::size_t>(side)]; }
    const SettingsChoice& choice() const { return choice_; }

    CompareView* compareView() const { return compare_; }
    QComboBox* compileBox(int side) const { return compiles_[static_cast<std::size_t>(side)]; }
    QTableWidget* deltaTable() const { return table_; }
    QLabel* headerLabel() const { return header_; }
    QPushButton* cancelButton() const { return cancel_; }
    // The delta table's row titled `title` (-1 if none): tests read cells by it.
    int deltaRow(const QString& title) const;

    // Find first difference: runs the script under both settings again with every kernel's
    // output traced (session::DivergenceFinder, on a worker thread), then shows the compile
    // of the first divergent kernel, selects it in both graph views and lists both values
    // and the nodes feeding it in the First difference tab.
    void findFirstDifference();
    bool isSearching() const { return searching_; }
    const std::optional<session::DivergenceResult>& difference() const { return difference_; }
    QPushButton* findDifferenceButton() const { return findDiff_; }
    FirstDifferencePanel* differencePanel() const { return diffPanel_; }

signals:
    // Both runs are done (ok: both produced a session, even if a script failed) and shown.
    void finished(bool ok);
    // Find first difference is done: `found` when a kernel (or the output) differs; its
    // nodes are selected in both graph views by then.
    void differenceShown(bool found);

private:
    // Starts the run start() queued behind a stopping one; false when there is none.
    bool startPending();
    void onSideFinished();
    void showCompile(int pair);
    void updateTable();
    void onDifferenceFound();
    // Selects the divergent kernel in both graph views once the compare shows its compile.
    void selectDifference();

    // The two runs get threads of their own: Qt's raster painting uses the global pool, so
    // two long runs there would stall the UI's drawing until one ended.
    QThreadPool pool_;
    std::array<std::shared_ptr<session::ScriptRunner>, 2> runners_;
    std::array<QFutureWatcher<SettingsRun>*, 2> watchers_{};
    std::array<SettingsRun, 2> runs_;
    SettingsChoice choice_;
    QString path_;
    int running_ = 0;
    // The current job's cancellation (both runs, or the search); a new one per job.
    std::stop_source stop_;
    std::optional<std::pair<QString, SettingsChoice>> pendingStart_;
    bool syncing_ = false;
    QLabel* header_ = nullptr;
    QWidget* busy_ = nullptr;
    QLabel* busyLabel_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QTimer* progress_ = nullptr;
    std::array<QComboBox*, 2> compiles_{};
    CompareView* compare_ = nullptr;
    QTableWidget* table_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QPushButton* findDiff_ = nullptr;
    FirstDifferencePanel* diffPanel_ = nullptr;
    QFutureWatcher<session::DivergenceResult>* diffWatcher_ = nullptr;
    std::optional<session::DivergenceResult> difference_;
    bool searching_ = false;
    bool pendingSelect_ = false;
};

}  // namespace irscope::ui
