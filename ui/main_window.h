// The irscope main window. For now it opens .ir files and shows their graphs and
// normalised text; the panels of the desktop-app issue dock around this.
#pragma once

#include <QFutureWatcher>
#include <QMainWindow>

#include "ir_loader.h"
#include "graph_view.h"

class QLabel;
class QLineEdit;
class QListWidget;
class QMenu;
class QPlainTextEdit;
class QTabWidget;

namespace irscope::ui {

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Starts loading `path` on a worker thread; emits loadFinished when done.
    void openFile(const QString& path);
    bool isLoading() const;
    const LoadedIr& document() const { return doc_; }

    // Widgets exposed for tests.
    QPlainTextEdit* irTextView() const { return irText_; }
    QListWidget* graphList() const { return graphList_; }
    QLabel* errorBanner() const { return errorBanner_; }
    GraphView* graphView() const { return graphView_; }
    QLineEdit* graphSearch() const { return search_; }
    QTabWidget* viewTabs() const { return tabs_; }

signals:
    void loadFinished(bool ok);

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    void closeEvent(QCloseEvent* e) override;

private:
    void buildMenus();
    void showOpenDialog();
    void onLoaded();
    void jumpToGraph(int row);
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    QWidget* buildGraphPanel(QWidget* parent);
    void runSearch();
    // Graph view <-> IR text: a selected node moves the text cursor to its line, and
    // putting the cursor on a node's line selects the node.
    void showNodeInText(const ir::Node* node);
    void selectNodeAtCursor();

    QTabWidget* tabs_ = nullptr;
    GraphView* graphView_ = nullptr;
    QLineEdit* search_ = nullptr;
    QLabel* searchStatus_ = nullptr;
    QStringList textLines_;
    bool syncing_ = false;
    QPlainTextEdit* irText_ = nullptr;
    QListWidget* graphList_ = nullptr;
    QLabel* errorBanner_ = nullptr;
    QLabel* countsLabel_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QFutureWatcher<LoadedIr> watcher_;
    LoadedIr doc_;
};

}  // namespace irscope::ui
