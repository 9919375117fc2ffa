#include "dump_notes_rows.h"

#include <QColor>
#include <QTreeWidget>

#include "ir/dump_notes.h"

namespace irscope::ui {

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

QTreeWidgetItem* row(QTreeWidgetItem* parent, const QString& key, const QString& value) {
    auto* item = new QTreeWidgetItem(parent, {key, value});
    item->setToolTip(1, value);
    return item;
}

// "Float32 · DefaultFormat · [const vector][32, 6, 28, 28]"
QString deviceText(const ir::DeviceTensor& t) {
    QString s = q(t.type);
    if (!t.format.empty()) {
        s += QStringLiteral(" · ") + q(t.format) + QStringLiteral(" · ") + q(t.shape);
    }
    return s;
}

// A graph the file calls but does not contain: `@name` or `call @name` kept as text.
QString externalGraph(const ir::Node* n) {
    const auto* v = ir::nodeCast<ir::ValueNode>(n);
    if (v == nullptr || v->value()->kind != ir::Value::Kind::Opaque) {
        return {};
    }
    const std::string& t = v->value()->text;
    const std::size_t at = t.rfind("call @", 0) == 0 ? 5
                           : t.rfind('@', 0) == 0    ? 0
                                                     : std::string::npos;
    return at == std::string::npos ? QString() : q(t.substr(at));
}

}  // namespace

void addDumpSections(QTreeWidget* tree, const ir::Node* node) {
    const ir::DumpNotes* notes = node->debug().dump.get();
    QTreeWidgetItem* dump = nullptr;
    auto dumpRow = [&](const QString& key, const QString& value) {
        if (dump == nullptr) {
            dump = new QTreeWidgetItem(tree, {QObject::tr("Dump")});
        }
        return row(dump, key, value);
    };
    QString external = externalGraph(node);
    if (const auto* c = ir::nodeCast<ir::CNode>(node); c != nullptr && c->size() > 0) {
        if (external.isEmpty()) {
            external = externalGraph(c->input(0));
        }
    }
    if (!external.isEmpty()) {
        dumpRow(QObject::tr("External graph"), QObject::tr("%1 (not in this file)").arg(external));
    }
    if (notes == nullptr) {
        return;
    }
    if (notes->hasKernel || notes->isWeight) {
        auto* kernel = new QTreeWidgetItem(tree, {QObject::tr("Kernel")});
        for (std::size_t k = 0; k < notes->kernelInputs.size(); ++k) {
            row(kernel, QObject::tr("input %1").arg(k), deviceText(notes->kernelInputs[k]));
        }
        const bool param = node->isParameter();
        for (std::size_t k = 0; k < notes->kernelOutputs.size(); ++k) {
            row(kernel, param ? QObject::tr("device") : QObject::tr("output %1").arg(k),
                deviceText(notes->kernelOutputs[k]));
        }
        if (notes->isWeight) {
            row(kernel, QObject::tr("IsWeight"),
                *notes->isWeight ? QStringLiteral("true") : QStringLiteral("false"));
        }
    }
    if (notes->stackFrame >= 0) {
        dumpRow(
            QObject::tr("Stack frame"),
            QObject::tr("#%1 of the traced call stack (analyze_fail.ir)").arg(notes->stackFrame));
    }
    if (!notes->unresolved.empty()) {
        QTreeWidgetItem* r =
            dumpRow(QObject::tr("Unresolved"),
                    QObject::tr("%1 is not defined in this file").arg(q(notes->unresolved)));
        r->setForeground(1, QColor(200, 30, 30));
    }
    if (!notes->owner.empty()) {
        dumpRow(QObject::tr("Owner graph"), q(notes->owner));
    }
    if (!notes->parent.empty()) {
        dumpRow(QObject::tr("Parent"), q(notes->parent));
    }
    if (!notes->calleeSuffix.empty()) {
        dumpRow(QObject::tr("Callee annotation"), q(notes->calleeSuffix));
    }
    if (!notes->lineSuffix.empty()) {
        dumpRow(QObject::tr("Also on the line"), q(notes->lineSuffix).trimmed());
    }
    for (const std::string& l : notes->lines) {
        dumpRow(QObject::tr("Kept line"), q(l));
    }
}

}  // namespace irscope::ui
