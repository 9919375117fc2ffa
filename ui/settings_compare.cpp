#include "settings_compare.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>

#include "compare_view.h"
#include "first_difference.h"
#include "frontend/modules/modules.h"
#include "graph_scene.h"
#include "graph_view.h"
#include "ir/ir_text.h"
#include "passes/settings.h"

namespace irscope::ui {

namespace {

// CNodes per primitive over the graphs reachable from the entry.
std::map<std::string, int> countOps(const ir::Module& m) {
    std::map<std::string, int> out;
    for (const ir::FuncGraph* g : m.reachableGraphs()) {
        for (const ir::CNode* c : g->topoOrder()) {
            if (const ir::PrimitiveData* p = c->primitive()) {
                ++out[p->name];
            }
        }
    }
    return out;
}

int opCount(const std::map<std::string, int>& ops, const char* op) {
    auto it = ops.find(op);
    return it == ops.end() ? 0 : it->second;
}

SettingsRun runSide(const QString& path, const std::shared_ptr<session::ScriptRunner>& runner,
                    session::ScriptOptions options) {
    SettingsRun r;
    r.script = runScriptFile(path, runner, {}, std::move(options));
    if (r.script.session) {
        for (const passes::CompileRecord& c : r.script.session->compiles) {
            std::map<std::string, int> ops;
            if (!c.snapshots.empty() && c.snapshots.back().compressed()) {
                try {
                    ops = countOps(*c.snapshots.back().module());
                } catch (const std::exception&) {
                    // A snapshot the parser rejects counts nothing; the compare says why.
                }
            }
            r.finalOps.push_back(std::move(ops));
        }
    }
    return r;
}

const char* const kOps[] = {"TensorMove", "Load", "UpdateState"};

}  // namespace

QString SettingsChoice::label(int side) const {
    const std::int64_t v = side == 0 ? a : b;
    if (key == kMode) {
        return v == modules::MsContext::kGraphMode ? QStringLiteral("mode=graph")
                                                   : QStringLiteral("mode=pynative");
    }
    return QStringLiteral("%1=%2").arg(QString::fromStdString(key)).arg(v);
}

void SettingsChoice::applyTo(session::ScriptOptions& options, int side) const {
    const std::int64_t v = side == 0 ? a : b;
    if (key == kMode) {
        options.mode = v;
    } else {
        options.compiler.overrides.set(key, v);
    }
}

session::RunSide SettingsChoice::runSide(int side) const {
    session::RunSide s;
    s.label = label(side).toStdString();
    const std::int64_t v = side == 0 ? a : b;
    if (key == kMode) {
        s.mode = v;
    } else {
        s.overrides.set(key, v);
    }
    return s;
}

std::optional<SettingsChoice> SettingsChoice::parse(const QString& text, QString* error) {
    static const QRegularExpression form(
        QStringLiteral("^(load-elim|lazy-inline|cell-reuse)(?:=(\\d),(\\d))?$"));
    const QRegularExpressionMatch m = form.match(text.trimmed());
    SettingsChoice c;
    if (text.trimmed() == QLatin1String(kMode)) {
        c.key = kMode;
        c.a = modules::MsContext::kPynativeMode;
        c.b = modules::MsContext::kGraphMode;
        return c;
    }
    if (m.hasMatch()) {
        const QString what = m.captured(1);
        const bool values = m.hasCaptured(2);
        c.key = std::string(what == QStringLiteral("load-elim") ? passes::kSideEffectLoadElim
                                                                : passes::kCellReuse);
        c.a = values ? m.captured(2).toLongLong() : 0;
        c.b = values ? m.captured(3).toLongLong() : 1;
        const std::int64_t top = what == QStringLiteral("load-elim") ? 3 : 2;
        if ((what != QStringLiteral("lazy-inline") || !values) && c.a <= top && c.b <= top &&
            (values || what == QStringLiteral("lazy-inline"))) {
            return c;
        }
    }
    *error = QStringLiteral(
                 "--compare: expected load-elim=A,B (0-3), cell-reuse=A,B (0-2), lazy-inline or "
                 "mode, not '%1'")
                 .arg(text);
    return std::nullopt;
}

SettingsCompareDialog::SettingsCompareDialog(QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("settingsCompareDialog"));
    setWindowTitle(tr("Compare Settings"));
    auto* column = new QVBoxLayout(this);
    column->addWidget(
        new QLabel(tr("Run the script twice and compare the compiles side by side:"), this));
    loadElim_ = new QRadioButton(tr("Load elimination (MS_DEV_SIDE_EFFECT_LOAD_ELIM)"), this);
    loadElim_->setObjectName(QStringLiteral("compareLoadElim"));
    loadElim_->setChecked(true);
    column->addWidget(loadElim_);
    auto* levels = new QHBoxLayout;
    levels->addSpacing(24);
    for (int side = 0; side < 2; ++side) {
        auto* box = new QSpinBox(this);
        box->setObjectName(side == 0 ? QStringLiteral("loadElimA") : QStringLiteral("loadElimB"));
        box->setRange(0, 3);
        box->setValue(side == 0 ? 1 : 3);
        levels_[static_cast<std::size_t>(side)] = box;
        levels->addWidget(new QLabel(side == 0 ? tr("left") : tr("vs right"), this));
        levels->addWidget(box);
        connect(loadElim_, &QRadioButton::toggled, box, &QWidget::setEnabled);
    }
    levels->addStretch(1);
    column->addLayout(levels);
    lazyInline_ = new QRadioButton(tr("Lazy inline off vs on (MS_DEV_CELL_REUSE 0 vs 1)"), this);
    lazyInline_->setObjectName(QStringLiteral("compareLazyInline"));
    column->addWidget(lazyInline_);
    mode_ = new QRadioButton(tr("PyNative vs GRAPH_MODE (the values compared line by line)"), this);
    mode_->setObjectName(QStringLiteral("compareMode"));
    column->addWidget(mode_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Compare"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    column->addWidget(buttons);
}

SettingsChoice SettingsCompareDialog::choice() const {
    SettingsChoice c;
    if (mode_->isChecked()) {
        c.key = SettingsChoice::kMode;
        c.a = modules::MsContext::kPynativeMode;
        c.b = modules::MsContext::kGraphMode;
    } else if (lazyInline_->isChecked()) {
        c.key = std::string(passes::kCellReuse);
        c.a = 0;
        c.b = 1;
    } else {
        c.key = std::string(passes::kSideEffectLoadElim);
        c.a = levels_[0]->value();
        c.b = levels_[1]->value();
    }
    return c;
}

SettingsCompareView::SettingsCompareView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("settingsCompareView"));
    pool_.setMaxThreadCount(2);
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    header_ = new QLabel(tr("Compare ▸ Settings… runs the open script under two settings and "
                            "shows the compiles side by side."),
                         this);
    header_->setObjectName(QStringLiteral("settingsCompareHeader"));
    header_->setWordWrap(true);
    top->addWidget(header_, 1);
    busy_ = new QWidget(this);
    auto* busyRow = new QHBoxLayout(busy_);
    busyRow->setContentsMargins(0, 0, 0, 0);
    busyLabel_ = new QLabel(busy_);
    auto* bar = new QProgressBar(busy_);
    bar->setRange(0, 0);
    bar->setMaximumWidth(120);
    bar->setTextVisible(false);
    cancel_ = new QPushButton(tr("Cancel"), busy_);
    cancel_->setObjectName(QStringLiteral("cancelSettingsCompare"));
    connect(cancel_, &QPushButton::clicked, this, &SettingsCompareView::cancel);
    busyRow->addWidget(busyLabel_);
    busyRow->addWidget(bar);
    busyRow->addWidget(cancel_);
    busy_->hide();
    top->addWidget(busy_);
    findDiff_ = new QPushButton(tr("Find first difference"), this);
    findDiff_->setObjectName(QStringLiteral("findFirstDifference"));
    findDiff_->setToolTip(
        tr("Run the script under both settings again, compare every kernel's "
           "output in execution order and show the first that differs"));
    findDiff_->setEnabled(false);
    connect(findDiff_, &QPushButton::clicked, this, &SettingsCompareView::findFirstDifference);
    top->addWidget(findDiff_);
    column->addLayout(top);

    auto* compileRow = new QHBoxLayout;
    for (int side = 0; side < 2; ++side) {
        auto* box = new QComboBox(this);
        box->setObjectName(side == 0 ? QStringLiteral("settingsCompileA")
                                     : QStringLiteral("settingsCompileB"));
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(16);
        compiles_[static_cast<std::size_t>(side)] = box;
        compileRow->addWidget(new QLabel(side == 0 ? tr("Compile:") : tr("vs"), this));
        compileRow->addWidget(box, 1);
        connect(box, &QComboBox::currentIndexChanged, this, [this](int row) {
            if (!syncing_ && row >= 0) {
                showCompile(row);
            }
        });
    }
    column->addLayout(compileRow);

    auto* split = new QSplitter(Qt::Vertical, this);
    compare_ = new CompareView(split);
    compare_->clear(tr("No settings compared yet."));
    table_ = new QTableWidget(0, 4, split);
    table_->setObjectName(QStringLiteral("settingsDeltaTable"));
    table_->setHorizontalHeaderLabels(
        {tr("At the chosen pass / end of compile"), tr("Left"), tr("Right"), tr("Δ")});
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(3, QHeaderView::ResizeToContents);
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setWordWrap(false);
    table_->setTextElideMode(Qt::ElideMiddle);  // a value sits at the end of its tensor text
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    diffPanel_ = new FirstDifferencePanel(split);
    tabs_ = new QTabWidget(split);
    tabs_->addTab(table_, tr("Delta"));
    tabs_->addTab(diffPanel_, tr("First difference"));
    split->addWidget(compare_);
    split->addWidget(tabs_);
    split->setSizes({550, 450});
    column->addWidget(split, 1);
    connect(compare_, &CompareView::comparisonShown, this, &SettingsCompareView::updateTable);
    connect(compare_, &CompareView::snapshotChosen, this, &SettingsCompareView::updateTable);
    connect(compare_, &CompareView::comparisonShown, this, &SettingsCompareView::selectDifference);
    diffWatcher_ = new QFutureWatcher<session::DivergenceResult>(this);
    connect(diffWatcher_, &QFutureWatcher<session::DivergenceResult>::finished, this,
            &SettingsCompareView::onDifferenceFound);

    for (auto& w : watchers_) {
        w = new QFutureWatcher<SettingsRun>(this);
        connect(w, &QFutureWatcher<SettingsRun>::finished, this,
                &SettingsCompareView::onSideFinished);
    }
    progress_ = new QTimer(this);
    progress_->setInterval(250);
    connect(progress_, &QTimer::timeout, this, [this] {
        if (stop_.stop_requested()) {
            return;  // "Stopping…" stays
        }
        QStringList parts;
        for (std::size_t i = 0; i < 2; ++i) {
            if (runners_[i]) {
                parts << tr("%L1 steps").arg(runners_[i]->stepsTaken());
            }
        }
        busyLabel_->setText(tr("Running twice… %1").arg(parts.join(QStringLiteral(" / "))));
    });
}

// The jobs' lambdas own all they use (no `this`). Destroying pool_ waits for them, but only
// after the stop was requested: the interpreter checks the token at every step, the pass
// manager between passes, the executor before every kernel and time.sleep every 10 ms, so
// the wait is one step, pass or kernel long. Detaching them instead would let a run outlive
// the application's statics (the device plugins, the op registry) at exit.
SettingsCompareView::~SettingsCompareView() {
    stop_.request_stop();
}

void SettingsCompareView::cancel() {
    if (!isBusy()) {
        return;
    }
    stop_.request_stop();  // both runs, or the search; the watchers' finished() ends it
    cancel_->setEnabled(false);
    busyLabel_->setText(tr("Stopping…"));
}

void SettingsCompareView::start(const QString& path, const SettingsChoice& choice) {
    if (isBusy()) {
        // The runs (or search) in progress stop; this one starts when they have ended.
        pendingStart_ = std::make_pair(path, choice);
        cancel();
        return;
    }
    pendingStart_.reset();
    stop_ = std::stop_source();
    choice_ = choice;
    path_ = path;
    runs_ = {};
    difference_.reset();
    pendingSelect_ = false;
    findDiff_->setEnabled(false);
    diffPanel_->showMessage(tr("Run “Find first difference” to compare every kernel's output."));
    compare_->clear(tr("Running…"));
    table_->setRowCount(0);
    syncing_ = true;
    for (QComboBox* box : compiles_) {
        box->clear();
    }
    syncing_ = false;
    header_->setText(
        tr("<b>%1</b>: %2 (left) vs %3 (right)")
            .arg(QFileInfo(path).fileName().toHtmlEscaped(), choice.label(0), choice.label(1)));
    table_->setHorizontalHeaderLabels(
        {tr("At the chosen pass / end of compile"), choice.label(0), choice.label(1), tr("Δ")});
    running_ = 2;
    busy_->show();
    cancel_->setEnabled(true);
    progress_->start();
    for (std::size_t side = 0; side < 2; ++side) {
        runners_[side] = std::make_shared<session::ScriptRunner>();
        session::ScriptOptions options;
        choice.applyTo(options, static_cast<int>(side));
        options.stop = stop_.get_token();
        watchers_[side]->setFuture(QtConcurrent::run(
            &pool_,
            [path, runner = runners_[side], options] { return runSide(path, runner, options); }));
    }
}

void SettingsCompareView::onSideFinished() {
    if (--running_ > 0) {
        return;
    }
    progress_->stop();
    busy_->hide();
    for (std::size_t side = 0; side < 2; ++side) {
        runs_[side] = watchers_[side]->result();
        runners_[side].reset();
    }
    if (startPending()) {
        return;
    }
    const bool ok = hasResult();
    findDiff_->setEnabled(!path_.isEmpty());
    if (runs_[0].script.cancelled() || runs_[1].script.cancelled()) {
        header_->setText(header_->text() + tr(" — <b>stopped</b>: the compiles so far"));
    }
    if (!ok) {
        const QString error =
            !runs_[0].script.session ? runs_[0].script.error : runs_[1].script.error;
        compare_->clear(error);
        emit finished(false);
        return;
    }
    syncing_ = true;
    for (std::size_t side = 0; side < 2; ++side) {
        int k = 0;
        for (const passes::CompileRecord& c : runs_[side].script.session->compiles) {
            compiles_[side]->addItem(
                QStringLiteral("%1. @%2 %3")
                    .arg(++k)
                    .arg(QString::fromStdString(c.graphName), QString::fromStdString(c.signature)));
        }
    }
    syncing_ = false;
    const std::size_t pairs = std::min(runs_[0].script.session->compiles.size(),
                                       runs_[1].script.session->compiles.size());
    if (pairs == 0) {
        compare_->clear(choice_.key == SettingsChoice::kMode
                            ? tr("PyNative mode ran the script's construct eagerly: there is no "
                                 "compiled graph to put beside GRAPH_MODE's. “Find first "
                                 "difference” compares the two modes line by line.")
                            : tr("The script compiled no graph under one of the settings."));
        updateTable();
    } else {
        showCompile(0);
    }
    emit finished(true);
}

void SettingsCompareView::showCompile(int pair) {
    if (!hasResult()) {
        return;
    }
    const auto& a = runs_[0].script.session->compiles;
    const auto& b = runs_[1].script.session->compiles;
    if (pair < 0 || static_cast<std::size_t>(pair) >= std::min(a.size(), b.size())) {
        return;
    }
    syncing_ = true;
    for (QComboBox* box : compiles_) {
        box->setCurrentIndex(pair);
    }
    syncing_ = false;
    const auto k = static_cast<std::size_t>(pair);
    compare_->setSides(CompareSide{runs_[0].script.session, &a[k], choice_.label(0)},
                       CompareSide{runs_[1].script.session, &b[k], choice_.label(1)});
    // The end of the pipeline first: where the settings' effects add up.
    compare_->showSnapshot(static_cast<int>(b[k].snapshots.size()) - 1);
    updateTable();
}

int SettingsCompareView::deltaRow(const QString& title) const {
    for (int r = 0; r < table_->rowCount(); ++r) {
        if (table_->item(r, 0) != nullptr && table_->item(r, 0)->text() == title) {
            return r;
        }
    }
    return -1;
}

void SettingsCompareView::updateTable() {
    table_->setRowCount(0);
    if (!hasResult()) {
        return;
    }
    const int pair = compiles_[0]->currentIndex();
    const store::Session* s[2] = {runs_[0].script.session.get(), runs_[1].script.session.get()};
    const passes::CompileRecord* c[2] = {nullptr, nullptr};
    for (std::size_t i = 0; i < 2; ++i) {
        if (pair >= 0 && static_cast<std::size_t>(pair) < s[i]->compiles.size()) {
            c[i] = &s[i]->compiles[static_cast<std::size_t>(pair)];
        }
    }
    const int snap[2] = {compare_->beforeSnapshot(), compare_->afterSnapshot()};
    auto snapshot = [&](int i) -> const passes::PassSnapshot* {
        return c[i] != nullptr && snap[i] >= 0 && snap[i] < static_cast<int>(c[i]->snapshots.size())
                   ? &c[i]->snapshots[static_cast<std::size_t>(snap[i])]
                   : nullptr;
    };
    auto last = [&](int i) -> const passes::PassSnapshot* {
        return c[i] != nullptr && !c[i]->snapshots.empty() ? &c[i]->snapshots.back() : nullptr;
    };
    auto run = [&](int i) -> const store::RunRecord* {
        for (const store::RunRecord& r : s[i]->runs) {
            if (static_cast<int>(r.compile) == pair) {
                return &r;
            }
        }
        return nullptr;
    };
    auto addRow = [this](const QString& title, const QString& left, const QString& right,
                         const QString& delta, bool differs) {
        const int r = table_->rowCount();
        table_->insertRow(r);
        const QString cells[4] = {title, left, right, delta};
        for (int col = 0; col < 4; ++col) {
            auto* item = new QTableWidgetItem(cells[col]);
            item->setToolTip(cells[col]);
            if (differs) {
                item->setBackground(NodeItem::markFill(NodeMark::Changed));
                if (col > 0) {
                    QFont f = item->font();
                    f.setBold(true);
                    item->setFont(f);
                }
            }
            table_->setItem(r, col, item);
        }
    };
    auto numbers = [&](const QString& title, std::optional<long long> x,
                       std::optional<long long> y) {
        const QString left = x ? QString::number(*x) : QStringLiteral("–");
        const QString right = y ? QString::number(*y) : QStringLiteral("–");
        const QString delta = x && y && *x != *y
                                  ? QStringLiteral("%1%2").arg(*y > *x ? "+" : "").arg(*y - *x)
                                  : QString();
        addRow(title, left, right, delta, x != y);
    };
    auto texts = [&](const QString& title, const QString& x, const QString& y) {
        addRow(title, x, y, QString(), x != y);
    };
    auto count = [](const passes::PassSnapshot* p, bool cnodes) -> std::optional<long long> {
        if (p == nullptr) {
            return std::nullopt;
        }
        return static_cast<long long>(cnodes ? p->counts().cnodes : p->counts().nodes);
    };

    const QString pass =
        snapshot(1) != nullptr ? QString::fromStdString(snapshot(1)->pass) : tr("the pass");
    texts(tr("Pass"), snapshot(0) ? QString::fromStdString(snapshot(0)->pass) : QString(), pass);
    // The run's results first, then the IR's figures.
    auto planned = [&](int i) -> std::optional<long long> {
        const passes::PassSnapshot* p = last(i);
        return p != nullptr && p->peakBytes
                   ? std::optional<long long>(static_cast<long long>(*p->peakBytes))
                   : std::nullopt;
    };
    numbers(tr("Planned peak bytes"), planned(0), planned(1));
    auto measured = [&](int i) -> std::optional<long long> {
        const store::RunRecord* r = run(i);
        return r != nullptr && r->error.empty()
                   ? std::optional<long long>(static_cast<long long>(r->stats.peakBytes))
                   : std::nullopt;
    };
    numbers(tr("Measured peak bytes"), measured(0), measured(1));
    auto returned = [&](int i) {
        const store::RunRecord* r = run(i);
        if (r == nullptr) {
            return tr("(not run)");
        }
        return r->error.empty() ? QString::fromStdString(r->values).replace(QLatin1Char('\n'),
                                                                            QStringLiteral(" ⏎ "))
                                : tr("error: %1").arg(QString::fromStdString(r->error));
    };
    texts(tr("Returned"), returned(0), returned(1));
    auto result = [&](int i) {
        const LoadedScript& script = runs_[static_cast<std::size_t>(i)].script;
        if (script.ok()) {
            return tr("ok");
        }
        // A traceback's last line names the exception: "AssertionError".
        const QStringList lines = script.error.trimmed().split(QLatin1Char('\n'));
        const QString tail = lines.isEmpty() ? QString() : lines.last().trimmed();
        return script.errorLine > 0 ? tr("%1 (line %2)").arg(tail).arg(script.errorLine) : tail;
    };
    texts(tr("Script result"), result(0), result(1));
    numbers(tr("Nodes at the pass"), count(snapshot(0), false), count(snapshot(1), false));
    numbers(tr("CNodes at the pass"), count(snapshot(0), true), count(snapshot(1), true));
    numbers(tr("Nodes at the end"), count(last(0), false), count(last(1), false));
    numbers(tr("CNodes at the end"), count(last(0), true), count(last(1), true));
    // Op counts at the pass come from the comparison's parsed IR, at the end from the runs.
    const IrComparison& cmp = compare_->comparison();
    std::optional<std::map<std::string, int>> atPass[2];
    if (cmp.ok()) {
        atPass[0] = countOps(*cmp.before.module);
        atPass[1] = countOps(*cmp.after.module);
    }
    for (const char* op : kOps) {
        auto at = [&](int i) -> std::optional<long long> {
            return atPass[i] ? std::optional<long long>(opCount(*atPass[i], op)) : std::nullopt;
        };
        numbers(tr("%1 at the pass").arg(QLatin1String(op)), at(0), at(1));
    }
    for (const char* op : kOps) {
        auto end = [&](int i) -> std::optional<long long> {
            const auto& ops = runs_[static_cast<std::size_t>(i)].finalOps;
            return pair >= 0 && static_cast<std::size_t>(pair) < ops.size()
                       ? std::optional<long long>(opCount(ops[static_cast<std::size_t>(pair)], op))
                       : std::nullopt;
        };
        numbers(tr("%1 at the end").arg(QLatin1String(op)), end(0), end(1));
    }
    auto output = [&](int i) {
        return QString::fromStdString(s[i]->output)
            .trimmed()
            .replace(QLatin1Char('\n'), QStringLiteral(" ⏎ "));
    };
    texts(tr("Output"), output(0), output(1));
}

}  // namespace irscope::ui

namespace irscope::ui {

void SettingsCompareView::findFirstDifference() {
    if (path_.isEmpty() || isBusy()) {
        return;
    }
    std::string source;
    if (hasResult()) {
        source = runs_[0].script.session->scriptText;  // what the compared runs ran
    } else {
        QFile f(path_);
        if (!f.open(QIODevice::ReadOnly)) {
            diffPanel_->showMessage(tr("Cannot read %1: %2").arg(path_, f.errorString()));
            emit differenceShown(false);
            return;
        }
        source = f.readAll().toStdString();
    }
    std::array<session::RunSide, 2> sides;
    for (int side = 0; side < 2; ++side) {
        sides[static_cast<std::size_t>(side)] = choice_.runSide(side);
    }
    searching_ = true;
    difference_.reset();
    pendingSelect_ = false;
    findDiff_->setEnabled(false);
    stop_ = std::stop_source();
    tabs_->setCurrentWidget(diffPanel_);
    diffPanel_->showMessage(tr("Running the script twice with every kernel traced…"));
    busyLabel_->setText(tr("Finding the first difference…"));
    busy_->show();
    cancel_->setEnabled(true);
    const std::string path = path_.toStdString();
    diffWatcher_->setFuture(QtConcurrent::run(
        &pool_,
        [text = std::move(source), path, sides,
         stop = stop_.get_token()]() -> session::DivergenceResult {
            session::DivergenceOptions options;
            options.script.statsHistory = "off";
            options.script.stop = stop;
            try {
                return session::DivergenceFinder().run(text, path, sides, options);
            } catch (const std::exception&) {
                session::DivergenceResult r;  // a device that vanished: nothing compared
                r.cancelled = true;
                return r;
            }
        }));
}

void SettingsCompareView::onDifferenceFound() {
    searching_ = false;
    busy_->hide();
    findDiff_->setEnabled(!path_.isEmpty());
    difference_ = diffWatcher_->result();
    if (startPending()) {
        return;
    }
    diffPanel_->showResult(*difference_);
    const session::DivergenceResult& r = *difference_;
    if (!r.first || (r.first->kind != session::Divergence::Kind::Value &&
                     r.first->kind != session::Divergence::Kind::Missing)) {
        emit differenceShown(r.first.has_value());
        return;
    }
    const auto pair = static_cast<int>(r.first->sides[0].compile);
    pendingSelect_ = true;
    const std::size_t pairs = hasResult() ? std::min(runs_[0].script.session->compiles.size(),
                                                     runs_[1].script.session->compiles.size())
                                          : 0;
    if (static_cast<std::size_t>(pair) < pairs) {
        // Shows the compile at the end of its pipeline (what ran); selectDifference follows
        // once the comparison is shown.
        tabs_->setCurrentWidget(diffPanel_);
        showCompile(pair);
        return;
    }
    selectDifference();
}

bool SettingsCompareView::startPending() {
    if (!pendingStart_ || isBusy()) {
        return false;
    }
    const auto [path, choice] = *pendingStart_;
    start(path, choice);
    return true;
}

void SettingsCompareView::selectDifference() {
    if (!pendingSelect_ || !difference_ || !difference_->first || compare_->isBusy()) {
        return;
    }
    if (!hasResult()) {  // no compare to select in: the panel says it all
        pendingSelect_ = false;
        emit differenceShown(true);
        return;
    }
    const IrComparison& cmp = compare_->comparison();
    if (!cmp.ok()) {
        return;  // the comparison in flight will call again
    }
    pendingSelect_ = false;
    const session::Divergence& d = *difference_->first;
    const ir::Node* a = findDivergentNode(*cmp.before.module, d.sides[0]);
    const ir::Node* b = d.kind == session::Divergence::Kind::Value
                            ? findDivergentNode(*cmp.after.module, d.sides[1])
                            : nullptr;
    if (a != nullptr) {
        compare_->beforeGraph()->selectNode(a);
    }
    if (b != nullptr) {
        compare_->afterGraph()->selectNode(b);
    }
    emit differenceShown(true);
}

}  // namespace irscope::ui
