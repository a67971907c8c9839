#pragma once
/**
 * @file collapsiblesection.h
 * A titled group whose content folds away with a click on its title, so that long panels stay
 * usable on small screens (1280 x 800).
 */

#include <QWidget>

class QToolButton;

namespace gapstudio::views {

class CollapsibleSection : public QWidget {
    Q_OBJECT

public:
    explicit CollapsibleSection(const QString &title, QWidget *parent = nullptr);

    /// The widget that holds the section's controls (give it a layout).
    [[nodiscard]] QWidget *content() const { return mContent; }
    [[nodiscard]] QToolButton *header() const { return mHeader; }
    void setExpanded(bool expanded);
    [[nodiscard]] bool isExpanded() const;

private:
    QToolButton *mHeader;
    QWidget *mContent;
};

} // namespace gapstudio::views
