#include "compilations_dock.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QTableView>

namespace irscope::ui {

CompilationsDock::CompilationsDock(QWidget* parent) : QDockWidget(tr("Compilations"), parent) {
    setObjectName(QStringLiteral("compilationsDock"));
    model_ = new CompilationsModel(this);
    view_ = new QTableView(this);
    view_->setObjectName(QStringLiteral("compilationsView"));
    view_->setModel(model_);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setAlternatingRowColors(true);
    view_->verticalHeader()->hide();
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->setWordWrap(false);
    setWidget(view_);
    connect(
        view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) {
            emit compileSelected(model_->compile(current.row()) != nullptr ? current.row() : -1);
        });
}

void CompilationsDock::setSession(std::shared_ptr<const store::Session> s) {
    model_->setSession(std::move(s));
    view_->resizeColumnsToContents();
    emit compileSelected(-1);
}

int CompilationsDock::currentRow() const { return view_->currentIndex().row(); }

void CompilationsDock::selectRow(int row) {
    view_->setCurrentIndex(model_->index(row, 0));
}

}  // namespace irscope::ui
