#include "studio/blockpalette.h"

#include "studio/canvasscene.h"
#include "studio/userpresets.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QMimeData>
#include <QVBoxLayout>

namespace gapstudio::views {

namespace {
constexpr int kKindRole = Qt::UserRole;
constexpr int kIdRole = Qt::UserRole + 1;

QTreeWidgetItem *addCategoryItem(QTreeWidget *tree, const QString &title)
{
    auto *category = new QTreeWidgetItem(tree, {title});
    category->setFlags(Qt::ItemIsEnabled);
    QFont bold = category->font(0);
    bold.setBold(true);
    category->setFont(0, bold);
    return category;
}

/// Adds the presets of `presets` under `category`: the user's (`mine`) or the others.
template <typename Block>
void addBlocks(QTreeWidgetItem *category, BlockKind kind, const std::map<std::string, Block> &presets,
               const std::set<std::pair<BlockKind, std::string>> &user, bool mine,
               const QString &kindName = {})
{
    for (const auto &[id, block] : presets) {
        if (user.contains({ kind, id }) != mine)
            continue;
        const QString name = QString::fromStdString(block.info.name);
        auto *item = new QTreeWidgetItem(
            category, { kindName.isEmpty() ? name : QStringLiteral("%1 (%2)").arg(name, kindName) });
        item->setData(0, kKindRole, static_cast<int>(kind));
        item->setData(0, kIdRole, QString::fromStdString(id));
        item->setToolTip(0, QStringLiteral("%1\n%2\n%3")
                                .arg(name, QString::fromStdString(block.info.source),
                                     QObject::tr("Preset id: %1").arg(QString::fromStdString(id))));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
    }
}
} // namespace

PaletteTree::PaletteTree(QWidget *parent)
    : QTreeWidget(parent)
{
    setObjectName(QStringLiteral("paletteTree"));
    setHeaderHidden(true);
    setDragEnabled(true);
    setDragDropMode(QAbstractItemView::DragOnly);
    setSelectionMode(QAbstractItemView::SingleSelection);
}

QStringList PaletteTree::mimeTypes() const
{
    return {QString::fromLatin1(kBlockMimeType)};
}

QMimeData *PaletteTree::mimeData(const QList<QTreeWidgetItem *> &items) const
{
    if (items.isEmpty() || !items.first()->data(0, kIdRole).isValid())
        return nullptr;
    const QTreeWidgetItem *item = items.first();
    auto *mime = new QMimeData;
    mime->setData(QString::fromLatin1(kBlockMimeType),
                  CanvasScene::encodePayload(static_cast<BlockKind>(item->data(0, kKindRole).toInt()),
                                             item->data(0, kIdRole).toString()));
    return mime;
}

BlockPalette::BlockPalette(const scenario::PresetLibrary &library, QWidget *parent)
    : QWidget(parent)
    , mFilter(new QLineEdit(this))
    , mTree(new PaletteTree(this))
{
    mFilter->setObjectName(QStringLiteral("paletteFilter"));
    mFilter->setPlaceholderText(tr("Filter blocks…"));
    mFilter->setClearButtonEnabled(true);
    mTree->setWordWrap(true); // long names wrap instead of being cut off
    mTree->setTextElideMode(Qt::ElideNone);
    mTree->setToolTip(tr("Drag a block onto the canvas, or double-click it"));
    setLibrary(library);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(mFilter);
    layout->addWidget(mTree);
    connect(mFilter, &QLineEdit::textChanged, this, &BlockPalette::setFilter);
    connect(mTree, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem *item) {
        if (item->data(0, kIdRole).isValid())
            emit blockActivated(static_cast<BlockKind>(item->data(0, kKindRole).toInt()),
                                item->data(0, kIdRole).toString());
    });
}

void BlockPalette::setLibrary(const scenario::PresetLibrary &library)
{
    mTree->clear();
    const auto user = userPresetIds();
    const auto category = [&](const QString &title, BlockKind kind, const auto &presets) {
        addBlocks(addCategoryItem(mTree, title), kind, presets, user, false);
    };
    category(tr("GPUs"), BlockKind::Gpu, library.gpus);
    category(tr("Interconnects"), BlockKind::Interconnect, library.interconnects);
    category(tr("Topologies"), BlockKind::Topology, library.topologies);
    category(tr("LLMs"), BlockKind::Llm, library.llms);
    category(tr("Layouts"), BlockKind::Layout, library.layouts);
    // The user's own blocks, of every kind (hidden while there are none).
    QTreeWidgetItem *mine = addCategoryItem(mTree, tr("My blocks"));
    mine->setToolTip(0,
                     tr("Blocks you saved (Save as preset, New GPU, New interconnect, Import model), in %1")
                         .arg(userPresetFolder()));
    addBlocks(mine, BlockKind::Gpu, library.gpus, user, true, tr("GPU"));
    addBlocks(mine, BlockKind::Interconnect, library.interconnects, user, true, tr("interconnect"));
    addBlocks(mine, BlockKind::Topology, library.topologies, user, true, tr("topology"));
    addBlocks(mine, BlockKind::Llm, library.llms, user, true, tr("LLM"));
    addBlocks(mine, BlockKind::Layout, library.layouts, user, true, tr("layout"));
    mTree->expandAll();
    setFilter(mFilter->text());
}

void BlockPalette::setFilter(const QString &text)
{
    for (int c = 0; c < mTree->topLevelItemCount(); ++c) {
        QTreeWidgetItem *category = mTree->topLevelItem(c);
        int shown = 0;
        for (int i = 0; i < category->childCount(); ++i) {
            QTreeWidgetItem *item = category->child(i);
            const bool match = text.isEmpty() || item->text(0).contains(text, Qt::CaseInsensitive) ||
                               item->data(0, kIdRole).toString().contains(text, Qt::CaseInsensitive);
            item->setHidden(!match);
            shown += match ? 1 : 0;
        }
        category->setHidden(shown == 0);
    }
}

} // namespace gapstudio::views
