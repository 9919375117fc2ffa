// The main window's menu bar (File, Passes, Debug, Compare, Run, View, Help) and its Compare
// toolbar, built from the window's public actions, and File ▸ Open Recent's list (QSettings).
#pragma once

#include <QList>
#include <QString>

#include "examples_catalog.h"
#include "theme.h"

class QAction;
class QMenu;

namespace irscope::ui {

class MainWindow;
class RunSettingsMenu;

struct MainMenus {
    QMenu* recent = nullptr;
    QAction* saveSession = nullptr;      // enabled once there is a session
    QAction* compareSettings = nullptr;  // Compare ▸ Settings…
    RunSettingsMenu* run = nullptr;      // the Run menu's settings
    QList<ExampleInfo> examples;         // Help ▸ Examples
};

MainMenus buildMainMenus(MainWindow* w);
// Checks View ▸ Theme's item of `t`.
void checkThemeAction(MainWindow* w, Theme t);

// Puts `path` first in File ▸ Open Recent (at most 10), and lists them in `recent`.
void addRecentFile(QMenu* recent, MainWindow* w, const QString& path);
void rebuildRecentMenu(QMenu* recent, MainWindow* w);

}  // namespace irscope::ui
