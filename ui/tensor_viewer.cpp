#include "tensor_viewer.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>
#include <functional>

namespace irscope::ui {

namespace {

QString number(double v) {
    if (std::isnan(v)) {
        return QStringLiteral("nan");
    }
    if (std::isinf(v)) {
        return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    }
    return QString::number(v, 'g', 7);
}

QString shapeText(const ir::Shape& s) {
    return QString::fromStdString(s.toString());
}

}  // namespace

// --- the table model --------------------------------------------------------------------

TensorTableModel::TensorTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void TensorTableModel::setTensor(std::optional<ir::Tensor> t) {
    beginResetModel();
    tensor_ = std::move(t);
    lead_.assign(tensor_ && tensor_->rank() > 2 ? tensor_->rank() - 2 : 0, 0);
    endResetModel();
}

void TensorTableModel::setLeadingIndices(std::vector<std::size_t> lead) {
    if (!tensor_ || lead.size() != lead_.size()) {
        return;
    }
    for (std::size_t k = 0; k < lead.size(); ++k) {
        const auto dim = static_cast<std::size_t>(tensor_->shape().dims[k]);
        if (lead[k] >= dim) {
            return;
        }
    }
    lead_ = std::move(lead);
    if (rowCount() > 0 && columnCount() > 0) {
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
    }
}

int TensorTableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !tensor_) {
        return 0;
    }
    const auto& dims = tensor_->shape().dims;
    if (dims.empty()) {
        return 1;
    }
    return static_cast<int>(dims.size() == 1 ? dims[0] : dims[dims.size() - 2]);
}

int TensorTableModel::columnCount(const QModelIndex& parent) const {
    if (parent.isValid() || !tensor_) {
        return 0;
    }
    const auto& dims = tensor_->shape().dims;
    return dims.size() < 2 ? 1 : static_cast<int>(dims.back());
}

std::size_t TensorTableModel::flatIndex(int row, int column) const {
    const auto& dims = tensor_->shape().dims;
    if (dims.size() < 2) {
        return static_cast<std::size_t>(row);
    }
    std::size_t flat = 0;
    for (std::size_t k = 0; k < lead_.size(); ++k) {
        flat = flat * static_cast<std::size_t>(dims[k]) + lead_[k];
    }
    flat = flat * static_cast<std::size_t>(dims[dims.size() - 2]) + static_cast<std::size_t>(row);
    return flat * static_cast<std::size_t>(dims.back()) + static_cast<std::size_t>(column);
}

QString TensorTableModel::formatElement(const ir::Tensor& t, std::size_t i) {
    const ir::DType d = t.dtype();
    if (d == ir::DType::Bool) {
        return t.getInt(i) != 0 ? QStringLiteral("True") : QStringLiteral("False");
    }
    if (ir::isInteger(d)) {
        if (ir::isUnsigned(d)) {
            return QString::number(static_cast<std::uint64_t>(t.getInt(i)));
        }
        return QString::number(t.getInt(i));
    }
    const double v = t.getDouble(i);
    if (d == ir::DType::Float64 && std::isfinite(v)) {
        return QString::number(v, 'g', 15);
    }
    return number(v);
}

QVariant TensorTableModel::data(const QModelIndex& index, int role) const {
    if (!tensor_ || !index.isValid()) {
        return {};
    }
    if (role == Qt::TextAlignmentRole) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    const std::size_t flat = flatIndex(index.row(), index.column());
    if (flat >= tensor_->size()) {
        return {};
    }
    if (role == Qt::DisplayRole) {
        return formatElement(*tensor_, flat);
    }
    if (role == Qt::ToolTipRole) {
        // The element's full index.
        QStringList idx;
        for (std::size_t k : lead_) {
            idx << QString::number(k);
        }
        const std::size_t rank = tensor_->rank();
        if (rank >= 1) {
            idx << QString::number(index.row());
        }
        if (rank >= 2) {
            idx << QString::number(index.column());
        }
        return QStringLiteral("[%1] = %2")
            .arg(idx.join(QStringLiteral(", ")), formatElement(*tensor_, flat));
    }
    if (role == Qt::ForegroundRole) {
        const double v = tensor_->getDouble(flat);
        if (!std::isfinite(v)) {
            return QColor(0xc6, 0x28, 0x28);
        }
    }
    return {};
}

QVariant TensorTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (role != Qt::DisplayRole || !tensor_) {
        return {};
    }
    if (tensor_->rank() == 0) {
        return QString();
    }
    if (o == Qt::Horizontal && tensor_->rank() == 1) {
        return QString();
    }
    return QString::number(section);
}

// --- the viewer -------------------------------------------------------------------------

TensorViewer::TensorViewer(QWidget* parent) : QWidget(parent) {
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(4, 4, 4, 4);
    header_ = new QLabel(this);
    header_->setObjectName(QStringLiteral("tensorHeader"));
    header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    header_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    header_->setWordWrap(true);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("tensorSummary"));
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setWordWrap(true);
    elements_ = new QComboBox(this);
    elements_->setObjectName(QStringLiteral("tupleElement"));
    elements_->hide();
    sliceRow_ = new QWidget(this);
    sliceLayout_ = new QHBoxLayout(sliceRow_);
    sliceLayout_->setContentsMargins(0, 0, 0, 0);
    sliceRow_->hide();
    model_ = new TensorTableModel(this);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("tensorTable"));
    table_->setModel(model_);
    table_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    // Fixed sections: a million-row tensor costs nothing until rows are drawn.
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table_->horizontalHeader()->setDefaultSectionSize(90);
    column->addWidget(header_);
    column->addWidget(summary_);
    column->addWidget(elements_);
    column->addWidget(sliceRow_);
    column->addWidget(table_, 1);
    connect(elements_, &QComboBox::currentIndexChanged, this, &TensorViewer::showElement);
    showMessage(tr("No value: run the script and stop somewhere."));
}

void TensorViewer::showMessage(const QString& message) {
    value_ = {};
    leaves_.clear();
    leafNames_.clear();
    elements_->blockSignals(true);
    elements_->clear();
    elements_->blockSignals(false);
    elements_->hide();
    header_->setText(message);
    summary_->clear();
    rebuildSelectors(nullptr);
    model_->setTensor(std::nullopt);
}

void TensorViewer::showValue(const runtime::ValueInfo& value, const QString& device) {
    showMessage(QString());
    value_ = value;
    device_ = device;
    // Flatten nested tuples into their leaves, named by their path.
    std::function<void(const runtime::ValueInfo&, const QString&)> walk =
        [&](const runtime::ValueInfo& v, const QString& path) {
            if (v.kind == runtime::ValueInfo::Kind::Tuple) {
                for (std::size_t i = 0; i < v.elements.size(); ++i) {
                    const runtime::ValueInfo& e = v.elements[i];
                    QString name = QStringLiteral("%1[%2]").arg(path).arg(i);
                    if (!e.name.empty()) {
                        name += QLatin1Char(' ') + QString::fromStdString(e.name);
                    }
                    walk(e, name);
                }
                return;
            }
            leaves_.push_back(&v);
            leafNames_.push_back(path);
        };
    walk(value_, QString());
    if (value_.kind == runtime::ValueInfo::Kind::Tuple) {
        elements_->blockSignals(true);
        for (const QString& n : leafNames_) {
            elements_->addItem(n.trimmed());
        }
        elements_->blockSignals(false);
        elements_->setVisible(!leaves_.empty());
    }
    if (leaves_.empty()) {
        header_->setText(QString::fromStdString(value_.node.empty() ? value_.header : value_.node) +
                         QStringLiteral("\n") + QString::fromStdString(value_.header));
        return;
    }
    elements_->setCurrentIndex(0);
    showElement(0);
}

const runtime::ValueInfo* TensorViewer::shownValue() const {
    const int k = leaves_.empty() ? -1 : std::max(0, elements_->currentIndex());
    return k >= 0 && k < static_cast<int>(leaves_.size()) ? leaves_[static_cast<std::size_t>(k)]
                                                          : nullptr;
}

void TensorViewer::showElement(int k) {
    if (k < 0 || k >= static_cast<int>(leaves_.size())) {
        return;
    }
    const runtime::ValueInfo& v = *leaves_[static_cast<std::size_t>(k)];
    QString title = QString::fromStdString(value_.node.empty() ? value_.name : value_.node);
    if (value_.kind == runtime::ValueInfo::Kind::Tuple) {
        title += QStringLiteral("\n") + QString::fromStdString(value_.header) +
                 QStringLiteral(" — element ") + leafNames_[static_cast<std::size_t>(k)].trimmed();
    }
    header_->setText(title);
    if (v.kind != runtime::ValueInfo::Kind::Tensor) {
        summary_->setText(v.kind == runtime::ValueInfo::Kind::None
                              ? tr("None")
                              : tr("Scalar %1").arg(QString::fromStdString(v.header)));
        rebuildSelectors(nullptr);
        model_->setTensor(std::nullopt);
        return;
    }
    const runtime::TensorSummary& s = v.summary;
    QString text =
        tr("<b>Tensor[%1]</b> &nbsp; shape %2 &nbsp; %L3 elements &nbsp; on %4")
            .arg(QString::fromUtf8(ir::dtypeName(s.dtype).data(),
                                   static_cast<qsizetype>(ir::dtypeName(s.dtype).size())),
                 shapeText(s.shape))
            .arg(s.elements)
            .arg(device_.isEmpty() ? QStringLiteral("cpu") : device_);
    const std::size_t finite = s.elements - s.nan - s.posInf - s.negInf;
    text += QStringLiteral("<br>");
    text += finite != 0 ? tr("min %1 &nbsp; max %2 &nbsp; mean %3")
                              .arg(number(s.min), number(s.max), number(s.mean))
                        : tr("no finite element");
    text += tr(" &nbsp; | &nbsp; NaN %1 &nbsp; +Inf %2 &nbsp; −Inf %3 &nbsp; zeros %4")
                .arg(s.nan)
                .arg(s.posInf)
                .arg(s.negInf)
                .arg(s.zeros);
    if (!v.tensor) {
        text +=
            tr("<br><i>The values were not kept past the stop (%L1 elements).</i>").arg(s.elements);
    }
    summary_->setText(text);
    model_->setTensor(v.tensor);
    rebuildSelectors(v.tensor ? &*v.tensor : nullptr);
}

void TensorViewer::rebuildSelectors(const ir::Tensor* t) {
    for (QSpinBox* s : selectors_) {
        s->deleteLater();
    }
    selectors_.clear();
    while (QLayoutItem* item = sliceLayout_->takeAt(0)) {
        if (item->widget() != nullptr) {
            item->widget()->deleteLater();
        }
        delete item;
    }
    if (t == nullptr || t->rank() <= 2) {
        sliceRow_->hide();
        return;
    }
    sliceLayout_->addWidget(new QLabel(tr("Slice"), sliceRow_));
    for (std::size_t k = 0; k + 2 < t->rank(); ++k) {
        auto* box = new QSpinBox(sliceRow_);
        box->setObjectName(QStringLiteral("sliceIndex%1").arg(k));
        box->setRange(0, static_cast<int>(std::max<std::int64_t>(0, t->shape().dims[k] - 1)));
        box->setPrefix(QStringLiteral("[%1] ").arg(k));
        box->setToolTip(tr("Index in dimension %1 (size %2)").arg(k).arg(t->shape().dims[k]));
        connect(box, &QSpinBox::valueChanged, this, &TensorViewer::applySelectors);
        sliceLayout_->addWidget(box);
        selectors_.push_back(box);
    }
    sliceLayout_->addWidget(new QLabel(tr(", :, :"), sliceRow_));
    sliceLayout_->addStretch(1);
    sliceRow_->show();
}

void TensorViewer::applySelectors() {
    std::vector<std::size_t> lead;
    for (QSpinBox* s : selectors_) {
        lead.push_back(static_cast<std::size_t>(s->value()));
    }
    model_->setLeadingIndices(std::move(lead));
}

void TensorViewer::detach() {
    std::function<void(runtime::ValueInfo&)> walk = [&](runtime::ValueInfo& v) {
        if (v.tensor) {
            if (v.tensor->size() <= kKeepElements) {
                v.tensor = v.tensor->clone();
            } else {
                v.tensor.reset();
            }
        }
        for (runtime::ValueInfo& e : v.elements) {
            walk(e);
        }
    };
    walk(value_);
    const int k = elements_->currentIndex();
    const auto lead = model_->leadingIndices();
    showElement(std::max(0, k));
    // Keep the slice the user was looking at.
    for (std::size_t i = 0; i < lead.size() && i < selectors_.size(); ++i) {
        selectors_[i]->setValue(static_cast<int>(lead[i]));
    }
}

}  // namespace irscope::ui
