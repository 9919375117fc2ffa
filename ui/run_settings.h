// Run settings: the compile switches the next script run uses, chosen in the Run menu and
// remembered in QSettings ("run/loadElim", "run/cellReuse"). Each is either left to the
// script (its os.environ / set_context and the process environment decide, as when it runs
// under MindSpore) or forced to a level, which is applied over everything else through
// session::ScriptOptions (CompilerOptions::overrides).
//   MS_DEV_SIDE_EFFECT_LOAD_ELIM  0-3  (MindSpore's default is 1)
//   MS_DEV_CELL_REUSE             0-2  lazy inline: 0 off, 1 on, 2 on with pipeline sharing
#pragma once

#include <QMap>
#include <QObject>
#include <QString>

#include <vector>

#include "session/run_script.h"

class QAction;
class QMenu;
class QSettings;
class QWidget;

namespace irscope::ui {

struct RunSettings {
    static constexpr int kScript = -1;  // not forced: the script's own setting
    int loadElim = kScript;             // 0-3 or kScript
    int cellReuse = kScript;            // 0-2 or kScript

    // The overrides these settings force (empty when both are left to the script).
    session::ScriptOptions scriptOptions() const;
    // The settings an example asks for (MS_DEV_SIDE_EFFECT_LOAD_ELIM, MS_DEV_CELL_REUSE -> level).
    static RunSettings fromEnvironment(const QMap<QString, int>& env);
    // "LOAD_ELIM script · CELL_REUSE 1" for the status bar.
    QString summary() const;

    static RunSettings load(QSettings& s);
    void save(QSettings& s) const;

    bool operator==(const RunSettings&) const = default;
};

// The Run menu's two radio groups (script / 0-3 for LOAD_ELIM, script / 0-2 for CELL_REUSE),
// added to `menu`. Choosing an item updates settings() and emits changed().
class RunSettingsMenu : public QObject {
    Q_OBJECT

public:
    RunSettingsMenu(QMenu* menu, RunSettings initial);

    const RunSettings& settings() const { return settings_; }
    // Checks the matching items (no changed() signal).
    void setSettings(const RunSettings& s);
    // The item that forces LOAD_ELIM / CELL_REUSE to `level` (kScript: the script's own).
    QAction* loadElimAction(int level) const;
    QAction* cellReuseAction(int level) const;

signals:
    void changed(const irscope::ui::RunSettings& s);

private:
    RunSettings settings_;
    std::vector<QAction*> loadElim_;   // index level + 1
    std::vector<QAction*> cellReuse_;  // index level + 1
};

}  // namespace irscope::ui
