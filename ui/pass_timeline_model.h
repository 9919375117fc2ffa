// PassTimelineModel: the passes of one compile in the order a reader follows them (opt_a
// before its sub-passes, which are indented under it), with the change in nodes, wall
// time and a changed mark; optionally only the passes that changed the IR. Reads a
// CompileRecord only.
#pragma once

#include <QAbstractTableModel>

#include <memory>
#include <vector>

#include "store/session.h"

namespace irscope::ui {

class PassTimelineModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Pass, Delta, Millis, Changed, ColumnCount };

    explicit PassTimelineModel(QObject* parent = nullptr);

    // `compile` must stay alive as long as `owner` (the Session holding it) does.
    void setCompile(std::shared_ptr<const store::Session> owner,
                    const passes::CompileRecord* compile);
    const passes::CompileRecord* compile() const { return compile_; }

    void setHideUnchanged(bool hide);
    bool hideUnchanged() const { return hideUnchanged_; }

    // The snapshot a row shows, or null; the row showing snapshot `i`, or -1 (hidden).
    const passes::PassSnapshot* snapshot(int row) const;
    int snapshotIndex(int row) const;
    int rowOfSnapshot(int snapshot) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    void rebuild();

    std::shared_ptr<const store::Session> owner_;
    const passes::CompileRecord* compile_ = nullptr;
    bool hideUnchanged_ = false;
    std::vector<std::size_t> rows_;  // snapshot index per row
};

}  // namespace irscope::ui
