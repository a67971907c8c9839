#pragma once
/**
 * @file searchresultsmodel.h
 * The top layouts of a search (model::SearchResult::top, best first) as a read-only table: one
 * row per layout, one column per layout choice and headline statistic. Qt::DisplayRole gives the
 * text, SortRole the number to sort by (so a QSortFilterProxyModel sorts numerically).
 */

#include "gapstudio/model/search.h"

#include <QAbstractTableModel>

#include <vector>

namespace gapstudio::views {

class SearchResultsModel final : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        Rank,
        Tp,
        Pp,
        Dp,
        Ep,
        Es,
        Microbatch,
        Interleaving,
        Recompute,
        TpComm,
        TpOverlap,
        AgRedo,
        Fused,
        DpOverlap,
        Zero1,
        Offload,
        Tiers,
        SampleRate,
        Mfu,
        StepTime,
        HbmGiB,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit SearchResultsModel(QObject *parent = nullptr);

    void setHits(std::vector<model::SearchHit> hits);
    [[nodiscard]] const std::vector<model::SearchHit> &hits() const { return mHits; }
    [[nodiscard]] const model::SearchHit &hit(int row) const
    {
        return mHits.at(static_cast<std::size_t>(row));
    }

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role = Qt::DisplayRole) const override;

private:
    [[nodiscard]] QVariant sortValue(const model::SearchHit &hit, int column, int row) const;
    [[nodiscard]] QString text(const model::SearchHit &hit, int column, int row) const;

    std::vector<model::SearchHit> mHits;
};

} // namespace gapstudio::views
