#include "compilations_model.h"

#include <QBrush>
#include <QColor>

namespace irscope::ui {

CompilationsModel::CompilationsModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompilationsModel::setSession(std::shared_ptr<const store::Session> s) {
    beginResetModel();
    session_ = std::move(s);
    endResetModel();
}

const passes::CompileRecord* CompilationsModel::compile(int row) const {
    if (!session_ || row < 0 || row >= static_cast<int>(session_->compiles.size())) {
        return nullptr;
    }
    return &session_->compiles[static_cast<std::size_t>(row)];
}

int CompilationsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !session_ ? 0 : static_cast<int>(session_->compiles.size());
}

int CompilationsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CompilationsModel::data(const QModelIndex& index, int role) const {
    const passes::CompileRecord* c = compile(index.row());
    if (c == nullptr) {
        return {};
    }
    const bool failed = c->status != passes::CompileStatus::Ok;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Graph:
            return QStringLiteral("%1  @%2").arg(index.row() + 1).arg(QString::fromStdString(c->graphName));
        case Signature:
            return QString::fromStdString(c->signature);
        case Nodes:
            return c->snapshots.empty() ? QVariant()
                                        : QVariant::fromValue(static_cast<qulonglong>(
                                              c->snapshots.back().counts().nodes));
        case Millis:
            return QString::number(c->totalMillis + c->cacheLoadMillis, 'f', 2);
        case Status:
            return failed         ? tr("failed at %1").arg(QString::fromStdString(c->failedPass))
                   : c->fromCache ? tr("ok (compile cache)")
                                  : tr("ok");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        QString tip = QStringLiteral("@%1 %2").arg(QString::fromStdString(c->graphName),
                                                   QString::fromStdString(c->signature));
        if (!c->trigger.empty()) {
            tip += QLatin1Char('\n') + tr("compiled by %1").arg(QString::fromStdString(c->trigger));
        }
        if (!c->settings.empty()) {
            tip += QLatin1Char('\n') + QString::fromStdString(c->settings.toString());
        }
        if (failed) {
            tip += QLatin1Char('\n') + QString::fromStdString(c->error);
        }
        return tip;
    }
    if (role == Qt::TextAlignmentRole && (index.column() == Nodes || index.column() == Millis)) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::ForegroundRole && failed) {
        return QBrush(QColor(0xa0, 0x10, 0x10));
    }
    return {};
}

QVariant CompilationsModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Graph: return tr("Graph");
    case Signature: return tr("Signature");
    case Nodes: return tr("Nodes");
    case Millis: return tr("ms");
    case Status: return tr("Status");
    default: return {};
    }
}

}  // namespace irscope::ui
