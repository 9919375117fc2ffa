// Driving the main window in GUI suites: open a file and wait for its result, write a
// script to a temporary folder, wait until nothing runs. Shared by the GUI suites.
#pragma once

#include <QtTest>

#include <QFile>
#include <QTemporaryDir>

#include "graph_scene.h"
#include "graph_view.h"
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

// Clicks `node` in the graph view as a user does: revealed (its group expanded) and centred
// first, then clicked, so that the selection reaches the rest of the window. False when it
// did not get drawn in time.
inline bool clickNode(irscope::ui::MainWindow& w, const irscope::ir::Node* node) {
    irscope::ui::GraphView* view = w.graphView();
    view->selectNode(node);
    irscope::ui::NodeItem* item = nullptr;
    const bool drawn = QTest::qWaitFor(
        [&] {
            item = view->isLayoutRunning() ? nullptr : view->itemFor(view->model().indexOf(node));
            return item != nullptr;
        },
        60000);
    if (!drawn) {
        return false;
    }
    view->centerOn(item);
    view->scene()->clearSelection();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                      view->mapFromScene(item->sceneBoundingRect().center()));
    return view->selectedNode() == node;
}

}  // namespace gui_test
