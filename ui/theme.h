// The application theme: View ▸ Theme ▸ Light / Dark / System. Light and Dark use the
// Fusion style with a light or dark QPalette; System restores the platform's style and
// palette. Widgets that draw with their own colours (the graph scene, the charts) follow
// the palette when it changes (QEvent::PaletteChange), so applying a theme is all it takes.
#pragma once

#include <QPalette>
#include <QString>

namespace irscope::ui {

enum class Theme { System, Light, Dark };

// "system", "light", "dark" (the QSettings value); unknown names read as System.
QString themeKey(Theme t);
Theme themeFromKey(const QString& key);

// Applies `t` to the running QApplication (call on the UI thread).
void applyTheme(Theme t);

// Whether `p` draws light text on a dark background.
bool isDark(const QPalette& p);

}  // namespace irscope::ui
