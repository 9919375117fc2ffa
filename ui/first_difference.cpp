#include "first_difference.h"

#include <QHeaderView>

#include "graph_scene.h"
#include "ir/ir_text.h"
#include "ir/local_names.h"

namespace irscope::ui {

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

QString sourceText(const ir::SourceLocation& s) {
    if (s.line <= 0) {
        return QObject::tr("(no source line)");
    }
    QString t = QStringLiteral("%1:%2").arg(q(s.file)).arg(s.line);
    if (!s.text.empty()) {
        t += QStringLiteral("  ") + q(s.text).trimmed();
    }
    return t;
}

// One line of a possibly multi-line value; the tooltip keeps all of it.
QString oneLine(const std::string& value) {
    QString v = q(value);
    v.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return v.simplified();
}

}  // namespace

const ir::Node* findDivergentNode(const ir::Module& m, const session::DivergentKernel& k) {
    if (k.graph.empty() || k.node.empty()) {
        return nullptr;
    }
    const ir::NodeLines lines(m);
    const ir::LocalNames names = ir::localNames(m);
    for (const ir::FuncGraph* g : names.order) {
        if (lines.graphName(*g) != k.graph) {
            continue;
        }
        for (const ir::CNode* c : names.body(g)) {
            if (names.of(*c) == k.node) {
                return c;
            }
        }
    }
    return nullptr;
}

FirstDifferencePanel::FirstDifferencePanel(QWidget* parent) : QTreeWidget(parent) {
    setObjectName(QStringLiteral("firstDifferencePanel"));
    setColumnCount(2);
    setHeaderLabels({tr("First difference"), tr("Value")});
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    header()->setStretchLastSection(true);
    setTextElideMode(Qt::ElideMiddle);
    setWordWrap(false);
    showMessage(
        tr("“Find first difference” runs the script under both settings, compares every "
           "kernel's output and shows the first that differs."));
}

QTreeWidgetItem* FirstDifferencePanel::add(const QString& title, const QString& value) {
    auto* item = new QTreeWidgetItem(this, {title, value});
    item->setToolTip(1, value);
    return item;
}

void FirstDifferencePanel::showMessage(const QString& text) {
    clear();
    sides_ = {};
    add(text, QString());
}

void FirstDifferencePanel::showResult(const session::DivergenceResult& r) {
    clear();
    sides_ = {};
    if (r.cancelled) {
        add(tr("Stopped"), tr("the search was cancelled"));
        return;
    }
    if (r.byLine) {
        showLineResult(r);
        return;
    }
    const QString compared = tr("%1 graph run(s), %2 kernel pair(s) equal before it, %3 s")
                                 .arg(r.graphRuns)
                                 .arg(r.compared)
                                 .arg(r.seconds, 0, 'f', 2);
    if (!r.first) {
        add(tr("No difference"),
            tr("every matched kernel computed the same values, the graphs returned the same "
               "and the scripts ended the same way"));
        add(tr("Compared"), compared);
        return;
    }
    const session::Divergence& d = *r.first;
    using Kind = session::Divergence::Kind;
    if (d.kind == Kind::Runs || d.kind == Kind::Output) {
        add(tr("Difference"), q(d.detail));
        add(tr("Compared"), compared);
        return;
    }
    const session::DivergentKernel& k0 = d.sides[0];
    add(tr("Kernel"), tr("%1 at %2")
                          .arg(q(k0.op))
                          .arg(sourceText(k0.source.line > 0 ? k0.source : d.sides[1].source)));
    const int count = d.kind == Kind::Missing ? 1 : 2;
    for (int s = 0; s < count; ++s) {
        const session::DivergentKernel& k = d.sides[static_cast<std::size_t>(s)];
        auto* side = add(q(r.labels[static_cast<std::size_t>(s)]), oneLine(k.value));
        side->setToolTip(1, q(k.value));
        side->setBackground(1, NodeItem::markFill(NodeMark::Changed));
        sides_[static_cast<std::size_t>(s)] = side;
        auto child = [&](const QString& title, const QString& value) {
            auto* item = new QTreeWidgetItem(side, {title, value});
            item->setToolTip(0, title);
            item->setToolTip(1, value);
            return item;
        };
        child(tr("Node"), tr("%1 in @%2").arg(q(k.line), q(k.graph)));
        child(tr("Where"), tr("graph run %1, step %2, on %3")
                               .arg(k.run + 1)
                               .arg(k.step)
                               .arg(q(k.placement.empty() ? std::string("cpu") : k.placement)));
        for (const session::UpstreamNode& u : k.upstream) {
            QString value = oneLine(u.value);
            if (!u.readAs.empty()) {
                value += tr("  (read later as %1)").arg(oneLine(u.readAs));
            }
            auto* item = child(QString(2 * (u.depth - 1), QLatin1Char(' ')) + q(u.line), value);
            if (!u.readAs.empty()) {
                item->setBackground(1, NodeItem::markFill(NodeMark::Removed));
            }
        }
        side->setExpanded(true);
    }
    add(tr("Difference"), q(d.detail));
    if (!d.explanation.empty()) {
        add(tr("Why"), q(d.explanation));
    }
    add(tr("Compared"), compared);
}

void FirstDifferencePanel::showLineResult(const session::DivergenceResult& r) {
    const QString compared =
        tr("%1 line(s) computed in both modes, %2 value pair(s) equal, %3 differ, %4 s")
            .arg(r.lines)
            .arg(r.compared)
            .arg(r.differing)
            .arg(r.seconds, 0, 'f', 2);
    if (!r.first) {
        add(tr("No difference"),
            tr("every line computed in both modes gave the same values and the "
               "scripts ended the same way"));
    } else if (r.first->kind != session::Divergence::Kind::Line) {
        add(tr("Difference"), q(r.first->detail));
    } else {
        const session::Divergence& d = *r.first;
        add(tr("Line"), sourceText(d.sides[0].source));
        for (std::size_t s = 0; s < 2; ++s) {
            const session::DivergentKernel& k = d.sides[s];
            auto* side = add(q(r.labels[s]), oneLine(k.value));
            side->setToolTip(1, q(k.value));
            side->setBackground(1, NodeItem::markFill(NodeMark::Changed));
            sides_[s] = side;
            new QTreeWidgetItem(side, {tr("Op"), tr("%1, visit %2 of %3 of the line")
                                                     .arg(q(k.op))
                                                     .arg(k.occurrence + 1)
                                                     .arg(d.visits[s])});
            new QTreeWidgetItem(
                side, {tr("Where"),
                       k.placement == "graph"
                           ? tr("a kernel of @%1, graph run %2").arg(q(k.graph)).arg(k.run + 1)
                           : tr("run eagerly (PyNative)")});
            side->setExpanded(true);
        }
        add(tr("Difference"), q(d.detail));
    }
    // What each mode printed where the two differ: PyNative's print and graph mode's Print
    // operator side by side.
    for (const session::PrintedLine& p : r.prints) {
        auto* item =
            add(p.line > 0 ? tr("Printed at line %1").arg(p.line) : tr("Printed"), q(p.text));
        for (std::size_t s = 0; s < 2; ++s) {
            auto* child = new QTreeWidgetItem(
                item, {tr("%1 (%2)").arg(q(r.labels[s]),
                                         p.compiled[s] ? tr("Print operator, when the graph ran")
                                                       : tr("print, as the line ran")),
                       oneLine(p.printed[s])});
            child->setToolTip(1, q(p.printed[s]));
        }
        item->setExpanded(true);
    }
    if (const std::string why = session::explainPrints(r); !why.empty()) {
        add(tr("Why"), q(why));
    }
    add(tr("Compared"), compared);
}

QString FirstDifferencePanel::row(const QString& title) const {
    for (int i = 0; i < topLevelItemCount(); ++i) {
        if (topLevelItem(i)->text(0) == title) {
            return topLevelItem(i)->text(1);
        }
    }
    return {};
}

QTreeWidgetItem* FirstDifferencePanel::sideRow(int side) const {
    return side == 0 || side == 1 ? sides_[static_cast<std::size_t>(side)] : nullptr;
}

}  // namespace irscope::ui
