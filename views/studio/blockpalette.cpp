#include "studio/blockpalette.h"

#include "studio/canvasscene.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QMimeData>
#include <QVBoxLayout>

namespace gapstudio::views {

namespace {
constexpr int kKindRole = Qt::UserRole;
constexpr int kIdRole = Qt::UserRole + 1;

template <typename Block>
void addCategory(QTreeWidget *tree, const QString &title, BlockKind kind, const std::map<std::string, Block> &presets)
{
    auto *category = new QTreeWidgetItem(tree, {title});
    category->setFlags(Qt::ItemIsEnabled);
    QFont bold = category->font(0);
    bold.setBold(true);
    category->setFont(0, bold);
    for (const auto &[id, block] : presets) {
        auto *item = new QTreeWidgetItem(category, {QString::fromStdString(block.info.name)});
        item->setData(0, kKindRole, static_cast<int>(kind));
        item->setData(0, kIdRole, QString::fromStdString(id));
        item->setToolTip(0, QStringLiteral("%1\n%2").arg(QString::fromStdString(id),
                                                         QString::fromStdString(block.info.source)));
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
    addCategory(mTree, tr("GPUs"), BlockKind::Gpu, library.gpus);
    addCategory(mTree, tr("Interconnects"), BlockKind::Interconnect, library.interconnects);
    addCategory(mTree, tr("Topologies"), BlockKind::Topology, library.topologies);
    addCategory(mTree, tr("LLMs"), BlockKind::Llm, library.llms);
    addCategory(mTree, tr("Layouts"), BlockKind::Layout, library.layouts);
    mTree->expandAll();
    mTree->setToolTip(tr("Drag a block onto the canvas, or double-click it"));

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
