#include "execution_dock.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QRegularExpression>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QToolBar>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "graph_view.h"
#include "ir/ir_text.h"
#include "passes/settings.h"
#include "runtime/plugin_loader.h"
#include "script_loader.h"
#include "session/run_script.h"
#include "tensor_viewer.h"

namespace irscope::ui {

using runtime::Debugger;
using Mode = runtime::Debugger::Mode;

// What the debugger's thread gathered at a stop, for the UI to show.
struct StopReport {
    runtime::StopInfo stop;
    runtime::ValueInfo here;  // the kernel's output (after it ran) or its inputs
    std::shared_ptr<const LoadedIr> ir;
    bool hasListing = false;
    std::vector<runtime::ListedKernel> listing;
};

// How the script ended.
struct JobReport {
    interp::RunResult::Status status = interp::RunResult::Status::Ok;
    QString error;
    int runs = 0;
};

namespace {

const char* const kDeviceKey = "execution/device";
const char* const kLoadElimKey = "execution/loadElim";
const char* const kCellReuseKey = "execution/cellReuse";

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString where(const ir::SourceLocation& s) {
    return s.line > 0 ? QStringLiteral("%1:%2").arg(QFileInfo(qs(s.file)).fileName()).arg(s.line)
                      : QString();
}

QString reasonText(const runtime::StopInfo& s) {
    switch (s.reason) {
        case runtime::StopReason::Breakpoint:
            return QObject::tr("breakpoint %1").arg(s.breakpoint);
        case runtime::StopReason::Watchpoint:
            return QObject::tr("watchpoint %1: %2").arg(s.breakpoint).arg(qs(s.detail));
        case runtime::StopReason::Finish:
            return QObject::tr("returned from the graph");
        case runtime::StopReason::Advance:
            return QObject::tr("reached");
        case runtime::StopReason::Pause:
            return QObject::tr("paused");
        case runtime::StopReason::Step:
            break;
    }
    return QObject::tr("step");
}

}  // namespace

ExecutionDock::ExecutionDock(QWidget* parent) : QDockWidget(tr("Execution"), parent) {
    setObjectName(QStringLiteral("executionDock"));
    auto* body = new QWidget(this);
    auto* column = new QVBoxLayout(body);
    column->setContentsMargins(4, 2, 4, 4);
    column->setSpacing(3);

    buildActions();
    auto* bar = new QToolBar(body);
    bar->setObjectName(QStringLiteral("executionToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    for (QAction* a :
         {run_, continue_, pause_, stepOver_, stepInto_, stepLine_, finish_, stop_Action_}) {
        bar->addAction(a);
    }
    bar->addSeparator();
    bar->addWidget(new QLabel(tr(" Device "), bar));
    device_ = new QComboBox(bar);
    device_->setObjectName(QStringLiteral("deviceBox"));
    device_->addItem(QStringLiteral("cpu"));
    device_->setItemData(0, tr("The registry's CPU kernels (Eigen), always available"),
                         Qt::ToolTipRole);
    device_->setToolTip(tr("Where compiled graphs run (kernels a device lacks run on the CPU)"));
    bar->addWidget(device_);
    bar->addWidget(new QLabel(tr("  LOAD_ELIM "), bar));
    loadElim_ = new QComboBox(bar);
    loadElim_->setObjectName(QStringLiteral("loadElimBox"));
    loadElim_->addItems({tr("default"), QStringLiteral("0"), QStringLiteral("1"),
                         QStringLiteral("2"), QStringLiteral("3")});
    loadElim_->setToolTip(
        tr("MS_DEV_SIDE_EFFECT_LOAD_ELIM for debug runs (default: the environment's)"));
    bar->addWidget(loadElim_);
    bar->addWidget(new QLabel(tr("  CELL_REUSE "), bar));
    cellReuse_ = new QComboBox(bar);
    cellReuse_->setObjectName(QStringLiteral("cellReuseBox"));
    cellReuse_->addItems(
        {tr("default"), QStringLiteral("0"), QStringLiteral("1"), QStringLiteral("2")});
    cellReuse_->setToolTip(
        tr("MS_DEV_CELL_REUSE for debug runs: 1 lazy inline (CR_ graphs), 2 lazy "
           "inline then inline in task_emit"));
    bar->addWidget(cellReuse_);
    column->addWidget(bar);

    stateLabel_ =
        new QLabel(tr("Not running. Run (Ctrl+Shift+F5) or a step starts the script."), body);
    stateLabel_->setObjectName(QStringLiteral("executionState"));
    stateLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    stateLabel_->setWordWrap(true);
    column->addWidget(stateLabel_);
    note_ = new QLabel(body);
    note_->setObjectName(QStringLiteral("executionNote"));
    note_->setStyleSheet(QStringLiteral("QLabel { color: #555; }"));
    note_->setWordWrap(true);
    note_->hide();
    column->addWidget(note_);

    auto* split = new QSplitter(Qt::Horizontal, body);
    auto* tabs = new QTabWidget(split);
    tabs->setObjectName(QStringLiteral("executionTabs"));
    tabs->setDocumentMode(true);
    order_ = new QListWidget(tabs);
    order_->setObjectName(QStringLiteral("executionOrder"));
    order_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    order_->setUniformItemSizes(true);
    stack_ = new QListWidget(tabs);
    stack_->setObjectName(QStringLiteral("callStack"));
    stack_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    tabs->addTab(order_, tr("Execution order"));
    tabs->addTab(stack_, tr("Call stack"));
    tabs->addTab(buildBreakpointsTab(), tr("Breakpoints"));

    auto* valuesPanel = new QWidget(split);
    auto* valuesColumn = new QVBoxLayout(valuesPanel);
    valuesColumn->setContentsMargins(0, 0, 0, 0);
    auto* valuesRow = new QHBoxLayout;
    values_ = new QComboBox(valuesPanel);
    values_->setObjectName(QStringLiteral("valueBox"));
    values_->setToolTip(tr("The current kernel's inputs (before it runs) or output (after)"));
    values_->setMinimumContentsLength(24);
    inspectEdit_ = new QLineEdit(valuesPanel);
    inspectEdit_->setObjectName(QStringLiteral("inspectEdit"));
    inspectEdit_->setPlaceholderText(tr("Inspect %N, @GRAPH:%N, %para1_x…"));
    inspectEdit_->setClearButtonEnabled(true);
    valuesRow->addWidget(new QLabel(tr("Value"), valuesPanel));
    valuesRow->addWidget(values_, 1);
    valuesRow->addWidget(inspectEdit_, 1);
    valuesColumn->addLayout(valuesRow);
    viewer_ = new TensorViewer(valuesPanel);
    viewer_->setObjectName(QStringLiteral("tensorViewer"));
    valuesColumn->addWidget(viewer_, 1);
    split->addWidget(tabs);
    split->addWidget(valuesPanel);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    column->addWidget(split, 1);
    setWidget(body);

    connect(values_, &QComboBox::currentIndexChanged, this, &ExecutionDock::showValueEntry);
    // Activating a kernel of the execution order shows it in the graph and its value, if any.
    connect(order_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        const QString name = item->data(Qt::UserRole + 3).toString();
        if (name.isEmpty() || !ir_) {
            return;
        }
        if (const ir::Node* n = findNode(*ir_->graph, orderGraph_, name)) {
            emit nodeReached(n);
        }
        inspect(QStringLiteral("@%1:%2").arg(orderGraph_, name));
    });
    connect(inspectEdit_, &QLineEdit::returnPressed, this, [this] {
        if (!inspectEdit_->text().trimmed().isEmpty()) {
            inspect(inspectEdit_->text().trimmed());
        }
    });

    QSettings settings;
    loadElim_->setCurrentIndex(std::clamp(settings.value(kLoadElimKey, 0).toInt(), 0, 4));
    cellReuse_->setCurrentIndex(std::clamp(settings.value(kCellReuseKey, 0).toInt(), 0, 3));

    // The debugger reports from its own thread; everything is handed to the UI queued.
    dbg_.setStopCallback([this](const runtime::StopInfo& s) { reportStopOnWorker(s); });
    dbg_.setWarningCallback([this](const std::string& w) {
        const QString text = qs(w);
        QMetaObject::invokeMethod(
            this, [this, text] { emit printed(text + QLatin1Char('\n')); }, Qt::QueuedConnection);
    });
    dbg_.setSourceLookup([this](std::string_view file) -> std::optional<std::string> {
        std::lock_guard lk(sourceMu_);
        if (sourcePath_.empty() || !runtime::sourceFileMatches(sourcePath_, file)) {
            return std::nullopt;
        }
        if (!sourceText_) {  // before a run: the file on disk
            QFile f(QString::fromStdString(sourcePath_));
            if (!f.open(QIODevice::ReadOnly)) {
                return std::nullopt;
            }
            sourceText_ = f.readAll().toStdString();
        }
        return sourceText_;
    });

    // Plugin devices are found off the UI thread (loading OpenCL takes a moment).
    connect(&scan_, &QFutureWatcher<std::vector<runtime::DevicePtr>>::finished, this, [this] {
        devices_ = scan_.result();
        for (const runtime::DevicePtr& d : devices_) {
            device_->addItem(qs(d->info().name));
            device_->setItemData(device_->count() - 1,
                                 qs(d->info().description + " (" + d->info().plugin + ")"),
                                 Qt::ToolTipRole);
        }
        const int k =
            device_->findText(QSettings().value(kDeviceKey, QStringLiteral("cpu")).toString());
        device_->setCurrentIndex(std::max(0, k));
        scanned_ = true;
        emit devicesReady();
    });
    scan_.setFuture(QtConcurrent::run([] { return runtime::scanDevicePlugins().devices; }));
    updateActions();
}

ExecutionDock::~ExecutionDock() {
    // After the stop the job ends within one step, pass or kernel: the join is that long.
    jobStop_.request_stop();
    dbg_.join();
    scan_.waitForFinished();
}

void ExecutionDock::buildActions() {
    auto make = [this](const QString& text, const QKeySequence& key, const QString& tip,
                       auto slot) {
        auto* a = new QAction(text, this);
        if (!key.isEmpty()) {
            a->setShortcut(key);
            a->setToolTip(
                QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
        } else {
            a->setToolTip(tip);
        }
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    run_ =
        make(tr("&Run"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F5),
             tr("Run the script under the debugger from the beginning (again)"), [this] { run(); });
    continue_ = make(tr("&Continue"), QKeySequence(Qt::Key_F5),
                     tr("Continue to the next breakpoint or watchpoint (starts the script)"),
                     [this] { resume(Mode::Continue); });
    pause_ = make(tr("&Pause"), QKeySequence(),
                  tr("Pause the running graph before its next kernel"), [this] { pause(); });
    stepOver_ = make(tr("Step &Over"), QKeySequence(Qt::Key_F10),
                     tr("Run one kernel of this graph; a graph call runs whole (nexti)"),
                     [this] { resume(Mode::NextInstruction); });
    stepInto_ =
        make(tr("Step &Into"), QKeySequence(Qt::Key_F11),
             tr("Run to the next kernel, entering a graph call or a lazy-inline CR_ call (stepi)"),
             [this] { resume(Mode::StepInstruction); });
    stepLine_ = make(tr("Step &Line"), QKeySequence(),
                     tr("Run to the next source line of this graph, over graph calls (next)"),
                     [this] { resume(Mode::Next); });
    finish_ = make(tr("&Finish"), QKeySequence(Qt::SHIFT | Qt::Key_F11),
                   tr("Run until the current graph returns to its caller"),
                   [this] { resume(Mode::Finish); });
    stop_Action_ =
        make(tr("&Stop"), QKeySequence(Qt::SHIFT | Qt::Key_F5),
             tr("Stop the script (the graph run gets RuntimeError \"The run was stopped.\")"),
             [this] { stop(); });
    toggle_ = make(tr("Toggle &Breakpoint"), QKeySequence(Qt::Key_F9),
                   tr("Set or remove a breakpoint on the node selected in the graph view"),
                   [this] { toggleBreakpointAtSelection(); });
    runTo_ = make(tr("Run to &Here"), QKeySequence(),
                  tr("Run until the node selected in the graph view is about to run"), [this] {
                      const QString loc = graph_ != nullptr
                                              ? locationOf(graph_->model(), graph_->selectedNode())
                                              : QString();
                      if (loc.isEmpty() || loc.startsWith(QStringLiteral("%para"))) {
                          showNote(tr("Select a kernel in the graph view to run to."));
                          return;
                      }
                      runTo(loc);
                  });
    runTo_->setObjectName(QStringLiteral("debugRunToNode"));
    breakOnOp_ = make(tr("Break on Every Kernel of This &Op"), QKeySequence(),
                      tr("A breakpoint on the selected node's op type (AddN, Assign...)"), [this] {
                          const auto* c = graph_ != nullptr
                                              ? ir::nodeCast<ir::CNode>(graph_->selectedNode())
                                              : nullptr;
                          if (c == nullptr || c->primitive() == nullptr) {
                              showNote(tr("Select an op's node in the graph view."));
                              return;
                          }
                          addBreakpoint(qs(c->primitive()->name));
                      });
    breakOnOp_->setObjectName(QStringLiteral("debugBreakOnOp"));
    run_->setObjectName(QStringLiteral("debugRun"));
    continue_->setObjectName(QStringLiteral("debugContinue"));
    pause_->setObjectName(QStringLiteral("debugPause"));
    stepOver_->setObjectName(QStringLiteral("debugStepOver"));
    stepInto_->setObjectName(QStringLiteral("debugStepInto"));
    stepLine_->setObjectName(QStringLiteral("debugStepLine"));
    finish_->setObjectName(QStringLiteral("debugFinish"));
    stop_Action_->setObjectName(QStringLiteral("debugStop"));
    toggle_->setObjectName(QStringLiteral("debugToggleBreakpoint"));
}

QList<QAction*> ExecutionDock::debugActions() const {
    return {run_,      continue_, pause_, stepOver_,   stepInto_,
            stepLine_, finish_,   runTo_, stop_Action_};
}

void ExecutionDock::setScriptPath(const QString& path) {
    scriptPath_ = path;
    {
        std::lock_guard lk(sourceMu_);
        sourcePath_ = path.toStdString();
        sourceText_.reset();
    }
    updateActions();
}

void ExecutionDock::attachGraphView(GraphView* view) {
    graph_ = view;
    view->addNodeAction(toggle_);
    view->addNodeAction(breakOnOp_);
    view->addNodeAction(runTo_);
    connect(view, &GraphView::layoutFinished, this, &ExecutionDock::refreshMarks);
    connect(view, &GraphView::nodeSelected, this, &ExecutionDock::onGraphNodeSelected);
}

void ExecutionDock::setState(State s, const QString& text) {
    state_ = s;
    stateLabel_->setText(text);
    updateActions();
    emit stateChanged(s);
}

void ExecutionDock::updateActions() {
    const bool script = !scriptPath_.isEmpty();
    const bool startable = script && (state_ != State::Running);
    run_->setEnabled(script);
    for (QAction* a : {continue_, stepOver_, stepInto_, stepLine_}) {
        a->setEnabled(startable);
    }
    finish_->setEnabled(state_ == State::Paused);
    runTo_->setEnabled(state_ == State::Paused);
    pause_->setEnabled(state_ == State::Running);
    stop_Action_->setEnabled(isActive());
}

// --- running ----------------------------------------------------------------------------

void ExecutionDock::run() {
    if (isActive()) {
        restartPending_ = true;
        stop();
        return;
    }
    start({Mode::Continue, {}});
}

void ExecutionDock::start(Debugger::Resume first) {
    note_->hide();
    if (scriptPath_.isEmpty()) {
        setState(State::Failed, tr("Open a .py script first."));
        return;
    }
    QFile f(scriptPath_);
    if (!f.open(QIODevice::ReadOnly)) {
        setState(State::Failed,
                 tr("%1: error: cannot open file: %2").arg(scriptPath_, f.errorString()));
        return;
    }
    const std::string source = f.readAll().toStdString();
    const std::string path = scriptPath_.toStdString();
    {
        std::lock_guard lk(sourceMu_);
        sourcePath_ = path;
        sourceText_ = source;
    }
    dbg_.join();  // the previous job, if any, has ended

    session::ScriptOptions options;
    options.compiler.observer = &dbg_;
    if (loadElim_->currentIndex() > 0) {
        options.compiler.overrides.set(std::string(passes::kSideEffectLoadElim),
                                       loadElim_->currentIndex() - 1);
    }
    if (cellReuse_->currentIndex() > 0) {
        options.compiler.overrides.set(std::string(passes::kCellReuse),
                                       cellReuse_->currentIndex() - 1);
    }
    const int dev = device_->currentIndex() - 1;
    if (dev >= 0 && dev < static_cast<int>(devices_.size())) {
        options.compiler.device = devices_[static_cast<std::size_t>(dev)];
    }
    const QString deviceName = device_->currentText();
    QSettings settings;  // the last choices come back at the next start
    settings.setValue(kDeviceKey, deviceName);
    settings.setValue(kLoadElimKey, loadElim_->currentIndex());
    settings.setValue(kCellReuseKey, cellReuse_->currentIndex());

    jobStop_ = std::stop_source();
    options.stop = jobStop_.get_token();
    stop_.reset();
    valueEntries_.clear();
    values_->blockSignals(true);
    values_->clear();
    values_->blockSignals(false);
    viewer_->showMessage(tr("Running…"));
    order_->clear();
    orderGraph_.clear();
    stack_->clear();
    cache_ = WorkerCache();
    const QString name = QFileInfo(scriptPath_).fileName();
    emit printed(tr("[debugging %1 on %2]\n").arg(name, deviceName));
    setState(State::Running, tr("Running %1 on %2…").arg(name, deviceName));

    auto sink = [this](std::string_view s) {
        const QString text = QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
        QMetaObject::invokeMethod(
            this, [this, text] { emit printed(text); }, Qt::QueuedConnection);
    };
    dbg_.start(
        [this, source, path, options = std::move(options), sink]() mutable {
            JobReport report;
            try {
                session::ScriptRunner runner;
                const session::ScriptOutcome r =
                    runner.run(source, path, std::move(options), sink, sink);
                report.status = r.result.status;
                report.error = qs(r.result.error);
                report.runs = r.session ? static_cast<int>(r.session->runs.size()) : 0;
            } catch (const std::exception& e) {
                report.status = interp::RunResult::Status::Exception;
                report.error =
                    QStringLiteral("%1: error: %2").arg(qs(path), QString::fromUtf8(e.what()));
            }
            QMetaObject::invokeMethod(
                this, [this, report] { onJobFinished(report); }, Qt::QueuedConnection);
        },
        first, jobStop_.get_token());
}

void ExecutionDock::resume(Mode mode) {
    if (!isActive()) {
        if (mode == Mode::Finish) {
            return;
        }
        start({mode, {}});
        return;
    }
    if (state_ != State::Paused) {
        return;
    }
    note_->hide();
    try {
        viewer_->detach();  // the run may write into the buffers shown
        dbg_.resume({mode, {}});
    } catch (const runtime::DebugError& e) {
        showNote(qs(e.what()));
        return;
    }
    stop_.reset();
    setState(State::Running, tr("Running…"));
    refreshMarks();
}

void ExecutionDock::runTo(const QString& location) {
    if (state_ != State::Paused) {
        return;
    }
    note_->hide();
    try {
        viewer_->detach();  // the run may write into the buffers shown
        dbg_.resume({Mode::Advance, location.toStdString()});
    } catch (const runtime::DebugError& e) {
        showNote(qs(e.what()));
        return;
    }
    stop_.reset();
    setState(State::Running, tr("Running to %1…").arg(location));
    refreshMarks();
}

void ExecutionDock::pause() {
    if (state_ == State::Running) {
        dbg_.pause();
    }
}

void ExecutionDock::stop() {
    if (!isActive()) {
        return;
    }
    viewer_->detach();
    jobStop_.request_stop();  // the script, its graph run, a paused debugger: one request
    stop_.reset();
    setState(State::Running, tr("Stopping…"));
    stop_Action_->setEnabled(false);
}

void ExecutionDock::reportStopOnWorker(const runtime::StopInfo& s) {
    auto report = std::make_shared<StopReport>();
    report->stop = s;
    try {
        report->here = dbg_.inspect("");
    } catch (const runtime::DebugError&) {
    }
    // The IR being executed, printed and parsed here once per module: the graph view and
    // the IR text show it and the paused node is found in it by its printed name.
    const ir::Module* m =
        s.node != nullptr && s.node->graph() != nullptr ? s.node->graph()->module() : nullptr;
    if (m != nullptr) {
        const std::size_t nodes = m->counts().nodes;
        if (m != cache_.module || nodes != cache_.nodes || s.entryGraph != cache_.entry) {
            cache_.module = m;
            cache_.nodes = nodes;
            cache_.entry = s.entryGraph;
            const QString name = QStringLiteral("%1 (run %2).ir").arg(qs(s.entryGraph)).arg(s.run);
            cache_.ir = std::make_shared<const LoadedIr>(loadIrText(ir::printIr(*m), name));
        }
        report->ir = cache_.ir;
        const int generation = pointsGeneration_.load();
        if (m != cache_.listedModule || s.graph != cache_.listedGraph ||
            generation != cache_.listedGeneration) {
            try {
                report->listing = dbg_.listing(s.orderSize);
                report->hasListing = true;
                cache_.listedModule = m;
                cache_.listedGraph = s.graph;
                cache_.listedGeneration = generation;
            } catch (const runtime::DebugError&) {
            }
        }
    }
    QMetaObject::invokeMethod(
        this, [this, report] { onStopped(report); }, Qt::QueuedConnection);
}

void ExecutionDock::onStopped(const std::shared_ptr<StopReport>& report) {
    const runtime::StopInfo& s = report->stop;
    const std::optional<runtime::StopInfo> now = dbg_.stopInfo();
    if (!now || now->run != s.run || now->step != s.step || now->afterKernel != s.afterKernel) {
        return;  // resumed or stopped since: this stop is gone
    }
    stop_ = s;
    if (report->ir && report->ir->ok()) {
        ir_ = report->ir;
    }
    QString text = tr("Paused at <b>%1</b> in <b>@%2</b>")
                       .arg(qs(s.nodeLine).toHtmlEscaped(), qs(s.graph).toHtmlEscaped());
    if (const QString w = where(s.source); !w.isEmpty()) {
        text += tr(" (%1)").arg(w);
    }
    text += tr(" — %1%2; kernel %3 of %4, on %5")
                .arg(reasonText(s).toHtmlEscaped(), s.afterKernel ? tr(", it ran") : QString())
                .arg(s.index + 1)
                .arg(s.orderSize)
                .arg(qs(s.placement));
    setState(State::Paused, text);

    // Call stack, innermost first (as `where` prints it).
    stack_->clear();
    stack_->addItem(
        QStringLiteral("#0  %1 in @%2 %3").arg(qs(s.nodeLine), qs(s.graph), where(s.source)));
    for (std::size_t i = s.stack.size(), n = 1; i-- > 1; ++n) {
        stack_->addItem(
            QStringLiteral("#%1  %2 in @%3 %4")
                .arg(n)
                .arg(qs(s.stack[i].callSite), qs(s.stack[i - 1].graph), where(s.stack[i].where)));
    }

    // Execution order of the current graph: current row marked, executed rows dimmed.
    if (report->hasListing) {
        order_->clear();
        for (const runtime::ListedKernel& k : report->listing) {
            QString line = QStringLiteral("%1 %2  %3")
                               .arg(k.breakpoint ? QStringLiteral("●") : QStringLiteral(" "))
                               .arg(k.index, 3)
                               .arg(qs(k.line));
            if (k.source.line > 0) {
                line += QStringLiteral("    # ") + where(k.source);
            }
            auto* item = new QListWidgetItem(line, order_);
            item->setData(Qt::UserRole, static_cast<int>(k.index));
            static const QRegularExpression name(QStringLiteral("^(%\\d+)"));
            item->setData(Qt::UserRole + 3, name.match(qs(k.line)).captured(1));
        }
        orderGraph_ = qs(s.graph);
    }
    const QColor dim(0x99, 0x99, 0x99);
    for (int i = 0; i < order_->count(); ++i) {
        QListWidgetItem* item = order_->item(i);
        const auto k = static_cast<std::size_t>(item->data(Qt::UserRole).toInt());
        const bool current = k == s.index;
        QFont font = order_->font();
        font.setBold(current);
        item->setFont(font);
        item->setBackground(current ? QColor(0xb9, 0xf6, 0xca) : QColor(Qt::transparent));
        item->setForeground(
            k < s.index || (current && s.afterKernel) ? dim : order_->palette().text().color());
        item->setData(Qt::UserRole + 1, current);
        item->setData(Qt::UserRole + 2, k < s.index || (current && s.afterKernel));
        if (current) {
            order_->setCurrentItem(item);
            order_->scrollToItem(item, QAbstractItemView::PositionAtCenter);
        }
    }

    // The values of this kernel: its inputs before it runs, its output after.
    valueEntries_.clear();
    values_->blockSignals(true);
    values_->clear();
    if (report->here.kind == runtime::ValueInfo::Kind::Tuple && !s.afterKernel) {
        for (const runtime::ValueInfo& e : report->here.elements) {
            values_->addItem(tr("input %1").arg(qs(e.name)));
            valueEntries_.push_back(e);
        }
    } else if (report->here.kind != runtime::ValueInfo::Kind::None || s.afterKernel) {
        values_->addItem(tr("output of %1").arg(qs(s.nodeName)));
        valueEntries_.push_back(report->here);
    }
    values_->blockSignals(false);
    if (valueEntries_.empty()) {
        viewer_->showMessage(
            tr("%1 has no tensor input; step to see its output.").arg(qs(s.nodeName)));
    } else {
        values_->setCurrentIndex(0);
        showValueEntry(0);
    }

    refreshBreakpoints();
    if (ir_) {
        emit irReady(*ir_);
        if (const ir::Node* n = findNode(*ir_->graph, qs(s.graph), qs(s.nodeName))) {
            emit nodeReached(n);
        }
    }
    refreshMarks();
    if (s.source.line > 0) {
        emit locationReached(qs(s.source.file), s.source.line);
    }
    emit paused(qs(s.graph), qs(s.nodeName));
}

void ExecutionDock::onJobFinished(const JobReport& report) {
    dbg_.join();
    stop_.reset();
    const QString name = QFileInfo(scriptPath_).fileName();
    using Status = interp::RunResult::Status;
    bool ok = false;
    if (report.status == Status::Ok) {
        ok = true;
        setState(
            State::Finished,
            tr("Finished: %1 ran to its end (%n graph run(s)).", nullptr, report.runs).arg(name));
    } else if (report.status == Status::Cancelled || restartPending_) {
        setState(State::Finished, tr("Stopped: %1 was stopped.").arg(name));
    } else {
        QString file;
        int line = 0;
        const QString error = report.error.trimmed();
        const QString last = error.section(QLatin1Char('\n'), -1).trimmed();
        if (locateError(error, &file, &line)) {
            setState(State::Failed,
                     tr("Error at %1:%2: %3").arg(QFileInfo(file).fileName()).arg(line).arg(last));
            emit locationReached(file, line);
        } else {
            setState(State::Failed,
                     tr("Error: %1").arg(last.isEmpty() ? tr("the script failed") : last));
        }
    }
    refreshBreakpoints();
    refreshMarks();
    emit finished(ok);
    if (restartPending_) {
        restartPending_ = false;
        start({Mode::Continue, {}});
    }
}

void ExecutionDock::showValueEntry(int k) {
    if (k < 0 || k >= static_cast<int>(valueEntries_.size())) {
        return;
    }
    viewer_->showValue(valueEntries_[static_cast<std::size_t>(k)],
                       stop_ ? qs(stop_->placement) : QString());
}

bool ExecutionDock::inspect(const QString& location) {
    if (state_ != State::Paused) {
        showNote(tr("Values can be inspected while the run is paused."));
        return false;
    }
    try {
        runtime::ValueInfo v = dbg_.inspect(location.toStdString());
        valueEntries_.push_back(std::move(v));
        values_->addItem(location);
        values_->setCurrentIndex(values_->count() - 1);  // shows it
        note_->hide();
        return true;
    } catch (const runtime::DebugError& e) {
        showNote(qs(e.what()));
        return false;
    }
}

void ExecutionDock::onGraphNodeSelected(const ir::Node* node) {
    // A node of the executed IR clicked while paused: show its value when it has one.
    if (state_ != State::Paused || !ir_ || node == nullptr || ir_->graph->indexOf(node) < 0) {
        return;
    }
    const QString loc = locationOf(*ir_->graph, node);
    if (!loc.isEmpty()) {
        inspect(loc);
    }
}

}  // namespace irscope::ui
