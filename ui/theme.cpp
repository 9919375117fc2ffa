#include "theme.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>

namespace irscope::ui {

namespace {

// The platform's style and palette, as they were before the first theme was applied.
struct Original {
    QString style;
    QPalette palette;
};

const Original& original() {
    static const Original o{QApplication::style() != nullptr ? QApplication::style()->name() : QString(),
                            QApplication::palette()};
    return o;
}

QPalette darkPalette() {
    QPalette p;
    const QColor window(0x2b, 0x2b, 0x2b);
    const QColor base(0x1e, 0x1e, 0x1e);
    const QColor text(0xe6, 0xe6, 0xe6);
    const QColor disabled(0x80, 0x80, 0x80);
    const QColor highlight(0x2f, 0x6f, 0xb5);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3a, 0x3a));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x55, 0x55));
    p.setColor(QPalette::Light, QColor(0x4a, 0x4a, 0x4a));
    p.setColor(QPalette::Midlight, QColor(0x3e, 0x3e, 0x3e));
    p.setColor(QPalette::Mid, QColor(0x30, 0x30, 0x30));
    p.setColor(QPalette::Dark, QColor(0x1a, 0x1a, 0x1a));
    p.setColor(QPalette::Shadow, QColor(0x10, 0x10, 0x10));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xb0, 0x90, 0xff));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
        p.setColor(QPalette::Disabled, role, disabled);
    }
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x50, 0x50, 0x50));
    return p;
}

}  // namespace

QString themeKey(Theme t) {
    switch (t) {
    case Theme::Light: return QStringLiteral("light");
    case Theme::Dark: return QStringLiteral("dark");
    case Theme::System: break;
    }
    return QStringLiteral("system");
}

Theme themeFromKey(const QString& key) {
    if (key == QStringLiteral("light")) {
        return Theme::Light;
    }
    if (key == QStringLiteral("dark")) {
        return Theme::Dark;
    }
    return Theme::System;
}

void applyTheme(Theme t) {
    const Original& o = original();
    if (t == Theme::System) {
        if (!o.style.isEmpty()) {
            QApplication::setStyle(QStyleFactory::create(o.style));
        }
        QApplication::setPalette(o.palette);
        return;
    }
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(t == Theme::Dark ? darkPalette() : QApplication::style()->standardPalette());
}

bool isDark(const QPalette& p) {
    return p.color(QPalette::Window).lightness() < p.color(QPalette::WindowText).lightness();
}

}  // namespace irscope::ui
