#include "ir_compare.h"

#include <exception>

namespace irscope::ui {

const ir::Node* IrComparison::counterpart(const ir::Node* n, bool fromBefore) const {
    if (!matching || n == nullptr) {
        return nullptr;
    }
    return fromBefore ? matching->after(n) : matching->before(n);
}

std::vector<NodeMark> diffMarks(const GraphModel& model, const ir::NodeMatching& matching) {
    std::vector<NodeMark> marks(model.nodes().size(), NodeMark::None);
    for (std::size_t k = 0; k < marks.size(); ++k) {
        const ModelNode& mn = model.nodes()[k];
        if (mn.node == nullptr || mn.node->isValue()) {
            continue;
        }
        switch (matching.kind(mn.node)) {
            case ir::DiffKind::Same: break;
            case ir::DiffKind::Changed: marks[k] = NodeMark::Changed; break;
            case ir::DiffKind::Added: marks[k] = NodeMark::Added; break;
            case ir::DiffKind::Removed: marks[k] = NodeMark::Removed; break;
        }
    }
    return marks;
}

IrComparison compareIr(std::string_view beforeText, const QString& beforeName,
                       std::string_view afterText, const QString& afterName) {
    IrComparison out;
    out.before = loadIrText(beforeText, beforeName);
    out.after = loadIrText(afterText, afterName);
    if (!out.before.ok() || !out.after.ok()) {
        out.error = !out.before.ok() ? out.before.error : out.after.error;
        return out;
    }
    try {
        auto matching = std::make_shared<ir::NodeMatching>(ir::matchModules(*out.before.module, *out.after.module));
        // The loaded text is the normalised print of each module, as diffIrText needs.
        const std::string a = out.before.text.toStdString();
        const std::string b = out.after.text.toStdString();
        out.text = ir::diffIrText(a, b, *out.before.module, *out.after.module, *matching);
        out.beforeMarks = diffMarks(*out.before.graph, *matching);
        out.afterMarks = diffMarks(*out.after.graph, *matching);
        out.matching = std::move(matching);
    } catch (const std::exception& e) {
        out.error = QStringLiteral("%1: error: cannot compare with %2: %3")
                        .arg(afterName, beforeName, QString::fromUtf8(e.what()));
    }
    return out;
}

}  // namespace irscope::ui
