#include "pass_timeline_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include "session/pass_stats.h"

namespace irscope::ui {

PassTimelineModel::PassTimelineModel(QObject* parent) : QAbstractTableModel(parent) {}

void PassTimelineModel::setCompile(std::shared_ptr<const store::Session> owner,
                                   const passes::CompileRecord* compile) {
    beginResetModel();
    owner_ = std::move(owner);
    compile_ = compile;
    rebuild();
    endResetModel();
}

void PassTimelineModel::setHideUnchanged(bool hide) {
    if (hide == hideUnchanged_) {
        return;
    }
    beginResetModel();
    hideUnchanged_ = hide;
    rebuild();
    endResetModel();
}

void PassTimelineModel::rebuild() {
    rows_.clear();
    if (compile_ == nullptr) {
        return;
    }
    for (std::size_t i : session::passDisplayOrder(*compile_)) {
        const passes::PassSnapshot& s = compile_->snapshots[i];
        // A failed pass stays visible: it is where the compile stopped.
        if (hideUnchanged_ && !s.changed() && s.failure().empty()) {
            continue;
        }
        rows_.push_back(i);
    }
}

int PassTimelineModel::snapshotIndex(int row) const {
    return row >= 0 && row < static_cast<int>(rows_.size()) ? static_cast<int>(rows_[static_cast<std::size_t>(row)])
                                                             : -1;
}

const passes::PassSnapshot* PassTimelineModel::snapshot(int row) const {
    const int i = snapshotIndex(row);
    return i < 0 ? nullptr : &compile_->snapshots[static_cast<std::size_t>(i)];
}

int PassTimelineModel::rowOfSnapshot(int snapshot) const {
    for (std::size_t r = 0; r < rows_.size(); ++r) {
        if (static_cast<int>(rows_[r]) == snapshot) {
            return static_cast<int>(r);
        }
    }
    return -1;
}

int PassTimelineModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int PassTimelineModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PassTimelineModel::data(const QModelIndex& index, int role) const {
    const passes::PassSnapshot* s = snapshot(index.row());
    if (s == nullptr) {
        return {};
    }
    const std::size_t i = rows_[static_cast<std::size_t>(index.row())];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Pass: {
            QString name = QString::fromStdString(s->pass);
            if (s->depth > 0) {
                name = QString(s->depth * 4, QLatin1Char(' ')) +
                       name.mid(name.lastIndexOf(QLatin1Char('/')) + 1) +
                       QStringLiteral("  (round %1)").arg(s->round + 1);
            }
            if (compile_->fromCache) {
                name += tr("  (from the compile cache)");
            }
            return name;
        }
        case Delta: {
            const auto d = session::nodeDelta(*compile_, i);
            return d ? (*d > 0 ? QStringLiteral("+%1").arg(*d) : QString::number(*d)) : QStringLiteral("–");
        }
        case Millis:
            // A dump folder's files carry no times.
            return s->sourceFile.empty() ? QString::number(s->millis, 'f', 3) : QStringLiteral("–");
        case Changed:
            return !s->failure().empty() ? tr("error") : s->changed() ? QStringLiteral("●") : QString();
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        QString tip = QString::fromStdString(s->description);
        if (compile_->fromCache) {
            tip = tr("The compile cache held this graph (loaded in %1 ms): the front end and the "
                     "optimizer were skipped, only the backend actions ran.\n")
                      .arg(compile_->cacheLoadMillis, 0, 'f', 1) +
                  tip;
        }
        if (const std::string failure = s->failure(); !failure.empty()) {
            tip += QLatin1Char('\n') + QString::fromStdString(failure);
        }
        return tip;
    }
    if (role == Qt::TextAlignmentRole && index.column() != Pass) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::ForegroundRole) {
        if (!s->failure().empty()) {
            return QBrush(QColor(0xa0, 0x10, 0x10));
        }
        if (!s->changed()) {
            return QBrush(QColor(0x80, 0x80, 0x80));
        }
    }
    if (role == Qt::FontRole && s->changed() && index.column() == Pass) {
        QFont f;
        f.setBold(true);
        return f;
    }
    return {};
}

QVariant PassTimelineModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Pass: return tr("Pass");
    case Delta: return tr("Δ nodes");
    case Millis: return tr("ms");
    case Changed: return tr("Changed");
    default: return {};
    }
}

}  // namespace irscope::ui
