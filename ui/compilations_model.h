// CompilationsModel: a table of every compile of a Session — graph, signature, node count
// after the last pass, pipeline time and status. Reads the Session only.
#pragma once

#include <QAbstractTableModel>

#include <memory>

#include "store/session.h"

namespace irscope::ui {

class CompilationsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Graph, Signature, Nodes, Millis, Status, ColumnCount };

    explicit CompilationsModel(QObject* parent = nullptr);

    void setSession(std::shared_ptr<const store::Session> s);
    const store::Session* session() const { return session_.get(); }
    // The compile shown in `row`, or null.
    const passes::CompileRecord* compile(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const store::Session> session_;
};

}  // namespace irscope::ui
