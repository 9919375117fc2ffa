#include "run_settings.h"

#include <QAction>
#include <QActionGroup>
#include <QCoreApplication>
#include <QMenu>
#include <QSettings>

#include <algorithm>

#include "passes/settings.h"

namespace irscope::ui {

namespace {

const char* const kLoadElimKey = "run/loadElim";
const char* const kCellReuseKey = "run/cellReuse";

int readLevel(QSettings& s, const char* key, int max) {
    bool ok = false;
    const int v = s.value(QString::fromLatin1(key), RunSettings::kScript).toInt(&ok);
    return ok && v >= 0 && v <= max ? v : RunSettings::kScript;
}

QString level(int v) {
    return v == RunSettings::kScript ? QCoreApplication::translate("RunSettings", "script")
                                     : QString::number(v);
}

}  // namespace

session::ScriptOptions RunSettings::scriptOptions() const {
    session::ScriptOptions o;
    if (loadElim != kScript) {
        o.compiler.overrides.set(std::string(passes::kSideEffectLoadElim), std::int64_t{loadElim});
    }
    if (cellReuse != kScript) {
        o.compiler.overrides.set(std::string(passes::kCellReuse), std::int64_t{cellReuse});
    }
    return o;
}

QString RunSettings::summary() const {
    return QCoreApplication::translate("RunSettings", "LOAD_ELIM %1 · CELL_REUSE %2")
        .arg(level(loadElim), level(cellReuse));
}

RunSettings RunSettings::load(QSettings& s) {
    RunSettings r;
    r.loadElim = readLevel(s, kLoadElimKey, 3);
    r.cellReuse = readLevel(s, kCellReuseKey, 2);
    return r;
}

void RunSettings::save(QSettings& s) const {
    s.setValue(QString::fromLatin1(kLoadElimKey), loadElim);
    s.setValue(QString::fromLatin1(kCellReuseKey), cellReuse);
}

RunSettingsMenu::RunSettingsMenu(QMenu* menu, RunSettings initial)
    : QObject(menu), settings_(initial) {
    auto addGroup = [this, menu](const QString& title, const QStringList& levels,
                                 std::vector<QAction*>& actions, int RunSettings::*field) {
        QMenu* sub = menu->addMenu(title);
        auto* group = new QActionGroup(sub);
        for (int level = RunSettings::kScript; level < static_cast<int>(levels.size()) - 1; ++level) {
            QAction* a = sub->addAction(levels[level + 1]);
            a->setCheckable(true);
            a->setData(level);
            group->addAction(a);
            actions.push_back(a);
            connect(a, &QAction::triggered, this, [this, field, level] {
                if (settings_.*field != level) {
                    settings_.*field = level;
                    emit changed(settings_);
                }
            });
            if (level == RunSettings::kScript) {
                sub->addSeparator();
            }
        }
    };
    addGroup(tr("Side-Effect &Load Elimination (MS_DEV_SIDE_EFFECT_LOAD_ELIM)"),
             {tr("As the Script Sets (MindSpore default: 1)"),
              tr("&0 — a TensorMove after every Load"),
              tr("&1 — TensorMove after Loads of a parameter loaded more than once"),
              tr("&2 — TensorMove only where one user mixes Loads of two states"),
              tr("&3 — no TensorMove (may compute wrong gradients)")},
             loadElim_, &RunSettings::loadElim);
    addGroup(tr("Lazy &Inline (MS_DEV_CELL_REUSE)"),
             {tr("As the Script Sets (MindSpore default: 0)"), tr("&0 — off: every Cell inlined"),
              tr("&1 — on: one reusable graph per @lazy_inline Cell"),
              tr("&2 — on, reusable graphs inlined again before the backend")},
             cellReuse_, &RunSettings::cellReuse);
    setSettings(initial);
}

void RunSettingsMenu::setSettings(const RunSettings& s) {
    settings_ = s;
    if (QAction* a = loadElimAction(s.loadElim)) {
        a->setChecked(true);
    }
    if (QAction* a = cellReuseAction(s.cellReuse)) {
        a->setChecked(true);
    }
}

QAction* RunSettingsMenu::loadElimAction(int level) const {
    const auto i = static_cast<std::size_t>(level + 1);
    return level >= RunSettings::kScript && i < loadElim_.size() ? loadElim_[i] : nullptr;
}

QAction* RunSettingsMenu::cellReuseAction(int level) const {
    const auto i = static_cast<std::size_t>(level + 1);
    return level >= RunSettings::kScript && i < cellReuse_.size() ? cellReuse_[i] : nullptr;
}

RunSettings RunSettings::fromEnvironment(const QMap<QString, int>& env) {
    auto name = [](std::string_view key) {
        return QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size()));
    };
    RunSettings s;
    s.loadElim = env.value(name(passes::kSideEffectLoadElim), kScript);
    s.cellReuse = env.value(name(passes::kCellReuse), kScript);
    return s;
}

}  // namespace irscope::ui
