#include "explore/searchresultsmodel.h"

#include "charts/chartformat.h"
#include "results/layoutformat.h"

namespace gapstudio::views {

namespace cf = chartformat;
namespace lf = layoutformat;

namespace {

struct ColumnInfo {
    const char *header;
    const char *toolTip;
};

constexpr ColumnInfo kColumns[] = {
    { "#", "Rank in the search (1 = best)" },
    { "TP", "Tensor parallelism (tensor_par)" },
    { "PP", "Pipeline parallelism (pipeline_par)" },
    { "DP", "Data parallelism (data_par)" },
    { "EP", "Expert parallelism (MoE)" },
    { "ES", "Expert slicing (MoE)" },
    { "Microbatch", "Microbatch size: samples per microbatch (microbatch_size)" },
    { "Interleave", "Pipeline interleaving (pipeline_interleaving)" },
    { "Recompute", "Activation recompute (activation_recompute)" },
    { "TP comm", "Tensor-parallel communication (tensor_par_comm_type)" },
    { "TP overlap", "Tensor-parallel overlap (tensor_par_overlap)" },
    { "All-gather redo",
      "Sequence-parallel all-gather redone in the backward pass instead of kept (seq_par_ag_redo)" },
    { "Fused activation", "Fused activation function kernel (fused_activation)" },
    { "DP overlap", "Data-parallel overlap (data_par_overlap)" },
    { "ZeRO-1", "Optimizer sharding over DP (optimizer_sharding)" },
    { "Offload", "What is kept in the offload (host) memory: weights, activations, optimizer, or none" },
    { "Network tiers", "The network tier each parallelism of degree > 1 communicates over (0 = scale-up; "
                       "tensor_par_net, pipeline_par_net, data_par_net, ...)" },
    { "Samples/s", "Training throughput (sample_rate)" },
    { "MFU %", "Model FLOPs utilisation (total_efficiency)" },
    { "Step (ms)", "Time of one training step (total_time)" },
    { "HBM (GiB)", "HBM needed per GPU (proc_mem_tier1_cap_req)" },
};
static_assert(std::size(kColumns) == SearchResultsModel::ColumnCount);

} // namespace

SearchResultsModel::SearchResultsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void SearchResultsModel::setHits(std::vector<model::SearchHit> hits)
{
    beginResetModel();
    mHits = std::move(hits);
    endResetModel();
}

int SearchResultsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(mHits.size());
}

int SearchResultsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SearchResultsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const model::SearchHit &h = hit(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return text(h, index.column(), index.row());
    case SortRole:
        return sortValue(h, index.column(), index.row());
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::ToolTipRole:
        return lf::summary(h.execution);
    default:
        return {};
    }
}

QVariant SearchResultsModel::sortValue(const model::SearchHit &h, int column, int row) const
{
    const model::Execution &e = h.execution;
    const model::Stats &s = h.stats;
    switch (column) {
    case Rank:
        return row + 1;
    case Tp:
        return qint64(e.tensorPar);
    case Pp:
        return qint64(e.pipelinePar);
    case Dp:
        return qint64(e.dataPar);
    case Ep:
        return qint64(e.expertPar);
    case Es:
        return qint64(e.expertSlice);
    case Microbatch:
        return qint64(e.microbatchSize);
    case Interleaving:
        return qint64(e.pipelineInterleaving);
    case Recompute:
        return static_cast<int>(e.activationRecompute);
    case TpComm:
        return static_cast<int>(e.tensorParCommType);
    case TpOverlap:
        return static_cast<int>(e.tensorParOverlap);
    case AgRedo:
        return e.seqParAgRedo;
    case Fused:
        return e.fusedActivation;
    case DpOverlap:
        return e.dataParOverlap;
    case Zero1:
        return e.optimizerSharding;
    case Offload:
        return lf::offload(e);
    case Tiers:
        return lf::tiers(e);
    case SampleRate:
        return s.sample_rate;
    case Mfu:
        return s.total_efficiency;
    case StepTime:
        return s.total_time;
    case HbmGiB:
        return s.proc_mem_tier1_cap_req;
    default:
        return {};
    }
}

QString SearchResultsModel::text(const model::SearchHit &h, int column, int row) const
{
    const model::Execution &e = h.execution;
    const model::Stats &s = h.stats;
    switch (column) {
    case Recompute:
        return lf::recompute(e.activationRecompute);
    case TpComm:
        return lf::tpCommType(e.tensorParCommType);
    case TpOverlap:
        return lf::tpOverlap(e.tensorParOverlap);
    case AgRedo:
        return lf::yesNo(e.seqParAgRedo);
    case Fused:
        return lf::yesNo(e.fusedActivation);
    case DpOverlap:
        return lf::yesNo(e.dataParOverlap);
    case Zero1:
        return lf::yesNo(e.optimizerSharding);
    case Offload:
        return lf::offload(e);
    case SampleRate:
        return cf::number(s.sample_rate, 3);
    case Mfu:
        return cf::number(s.total_efficiency * cf::kPercent, 2);
    case StepTime: {
        const double ms = s.total_time * cf::kMsPerSecond;
        return cf::number(ms, cf::msDecimals(ms));
    }
    case HbmGiB:
        return cf::number(s.proc_mem_tier1_cap_req / cf::kBytesPerGiB, 1);
    default:
        return sortValue(h, column, row).toString();
    }
}

QVariant SearchResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole)
        return QString::fromLatin1(kColumns[section].header);
    if (role == Qt::ToolTipRole)
        return QString::fromLatin1(kColumns[section].toolTip);
    return {};
}

} // namespace gapstudio::views
