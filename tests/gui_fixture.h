// Driving the main window in GUI suites: open a file and wait for its result, write a
// script to a temporary folder, wait until nothing runs. Shared by the GUI suites.
#pragma once

#include <QtTest>

#include <QFile>
#include <QTemporaryDir>

#include "main_window.h"

namespace gui_test {

// Opens `path` in `w` and waits for loadFinished: false when it did not come in time; the
// result it reported in *ok.
inline bool openAndWait(irscope::ui::MainWindow& w, const QString& path, bool* ok = nullptr) {
    QSignalSpy spy(&w, &irscope::ui::MainWindow::loadFinished);
    w.openFile(path);
    if (!spy.wait(120000)) {
        return false;
    }
    if (ok != nullptr) {
        *ok = spy.takeFirst().at(0).toBool();
    }
    return true;
}

// Writes `text` as `name` in `dir`; returns its path (empty on failure).
inline QString writeScript(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size()) {
        return {};
    }
    return path;
}

// Waits until the window runs, parses and lays out nothing.
inline bool waitIdle(irscope::ui::MainWindow& w) {
    return QTest::qWaitFor([&] { return !w.isBusy(); }, 120000);
}

}  // namespace gui_test
