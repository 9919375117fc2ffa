// The tensor viewer of the Execution dock: a computed value's dtype, shape, device and
// summary (min/max/mean over the finite elements, NaN/Inf counts), and its values in a table.
// The table model reads the tensor in place (no copy, however big): a 2-D slice of an N-D
// tensor picked with one index selector per leading dimension; a 1-D tensor is one column,
// a scalar one cell. Tuples show one element at a time.
#pragma once

#include <QAbstractTableModel>
#include <QWidget>

#include <optional>
#include <vector>

#include "runtime/debugger.h"

class QComboBox;
class QHBoxLayout;
class QLabel;
class QSpinBox;
class QTableView;

namespace irscope::ui {

class TensorTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    explicit TensorTableModel(QObject* parent = nullptr);

    // Shows `t` (sharing its storage), with the leading indices reset to 0.
    void setTensor(std::optional<ir::Tensor> t);
    const std::optional<ir::Tensor>& tensor() const { return tensor_; }
    // The indices of the dimensions before the last two (rank - 2 of them).
    void setLeadingIndices(std::vector<std::size_t> lead);
    const std::vector<std::size_t>& leadingIndices() const { return lead_; }

    // The flat (row-major) element index of a table cell under the current slice.
    std::size_t flatIndex(int row, int column) const;
    // An element as numpy prints it: True/False, integers, floats with up to 7 significant
    // digits (float64: 15), nan, inf.
    static QString formatElement(const ir::Tensor& t, std::size_t i);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    std::optional<ir::Tensor> tensor_;
    std::vector<std::size_t> lead_;
};

class TensorViewer : public QWidget {
    Q_OBJECT

public:
    explicit TensorViewer(QWidget* parent = nullptr);

    // Shows `value` (a tensor, a tuple, a scalar or None); `device` is where it was computed.
    void showValue(const runtime::ValueInfo& value, const QString& device);
    // Shows no value, only `message`.
    void showMessage(const QString& message);
    // Before the run resumes: keeps a private copy of the values shown (up to
    // kKeepElements elements; bigger tensors keep only their summary), since the run may
    // write into the buffers the viewer reads.
    void detach();
    static constexpr std::size_t kKeepElements = std::size_t{1} << 20;

    // The tensor shown (the tuple element chosen), if any.
    const runtime::ValueInfo* shownValue() const;
    QTableView* table() const { return table_; }
    TensorTableModel* model() const { return model_; }
    QLabel* headerLabel() const { return header_; }
    QLabel* summaryLabel() const { return summary_; }
    QComboBox* elementBox() const { return elements_; }
    const std::vector<QSpinBox*>& indexSelectors() const { return selectors_; }

private:
    void showElement(int k);
    void rebuildSelectors(const ir::Tensor* t);
    void applySelectors();

    runtime::ValueInfo value_;
    std::vector<const runtime::ValueInfo*> leaves_;  // value_'s tensors and scalars, flattened
    std::vector<QString> leafNames_;
    QString device_;
    QLabel* header_ = nullptr;
    QLabel* summary_ = nullptr;
    QComboBox* elements_ = nullptr;
    QWidget* sliceRow_ = nullptr;
    QHBoxLayout* sliceLayout_ = nullptr;
    std::vector<QSpinBox*> selectors_;
    QTableView* table_ = nullptr;
    TensorTableModel* model_ = nullptr;
};

}  // namespace irscope::ui
