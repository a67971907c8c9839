#pragma once
/**
 * @file blockpalette.h
 * The palette of blocks (GPUs, interconnects, topologies, LLMs, layouts) from the preset library,
 * with a filter box: "My blocks" (the user's own presets, userpresets.h) first, then the shipped
 * ones by kind. Dragging an entry carries kBlockMimeType ("kind:id"); double-clicking applies it
 * (interconnects to the scale-out link).
 */

#include "gapstudio/scenario/scenario.h"
#include "studio/studioengine.h"

#include <QTreeWidget>
#include <QWidget>

class QLineEdit;

namespace gapstudio::views {

/// The tree of presets; a drag source with the studio's block MIME type.
class PaletteTree : public QTreeWidget {
    Q_OBJECT

public:
    explicit PaletteTree(QWidget *parent = nullptr);
    [[nodiscard]] QStringList mimeTypes() const override;
    /// The drag payload of `items` (the first block item); public so tests can check it.
    [[nodiscard]] QMimeData *mimeData(const QList<QTreeWidgetItem *> &items) const override;
};

class BlockPalette : public QWidget {
    Q_OBJECT

public:
    explicit BlockPalette(const scenario::PresetLibrary &library, QWidget *parent = nullptr);

    /// Rebuilds the tree from `library` (after the user saved or imported a block).
    void setLibrary(const scenario::PresetLibrary &library);

    [[nodiscard]] PaletteTree *tree() const { return mTree; }
    [[nodiscard]] QLineEdit *filterEdit() const { return mFilter; }
    /// Shows only blocks whose name or id contains `text` (case-insensitive).
    void setFilter(const QString &text);

signals:
    void blockActivated(gapstudio::views::BlockKind kind, const QString &presetId);

private:
    QLineEdit *mFilter;
    PaletteTree *mTree;
};

} // namespace gapstudio::views
