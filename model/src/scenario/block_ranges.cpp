// The ranges of model/limits.h on the numbers of GapStudio's block files (block_ranges.h), in the
// units their keys name (the same factors as preset_hardware_blocks.cpp).
#include "scenario/block_ranges.h"

#include "gapstudio/model/limits.h"
#include "gapstudio/model/units.h"

namespace gapstudio::io::detail {

namespace {

using namespace model::limits;

using units::kFlopsPerTflops;
using units::kBpsPerGBps;
using units::kSecondsPerUs;

void check(const JsonCursor &value, const model::Range &range)
{
    (void)numberInRange(value, range);
}

void checkGpu(const JsonCursor &c)
{
    for (const char *engines : { "matrix_tflops", "vector_tflops" }) {
        const JsonCursor peaks = c[engines];
        for (const auto &item : peaks.value().items())
            check(peaks[item.key()], kPeakFlops.in(kFlopsPerTflops));
    }
    check(c["hbm"]["capacity_GiB"], kCapacity.in(kGiB));
    check(c["hbm"]["bandwidth_GBps"], kBandwidth.in(kBpsPerGBps));
    check(c["tier2"]["capacity_GiB"], kOptionalCapacity.in(kGiB));
    check(c["tier2"]["bandwidth_GBps"], kOptionalBandwidth.in(kBpsPerGBps));
}

void checkInterconnect(const JsonCursor &c)
{
    check(c["bandwidth_GBps"], kBandwidth.in(kBpsPerGBps));
    check(c["latency_us"], kLatency.in(kSecondsPerUs));
    check(c["efficiency"], kEfficiency);
    if (numberInRange(c["all_to_all_efficiency"], model::Range { 0, true, 1, true })
        != 0) // 0: as `efficiency`
        check(c["all_to_all_efficiency"], kEfficiency);
    check(c["processor_usage"], kProcessorUsage);
    if (c.value().contains("collectives")) {
        for (const char *op : { "reduce_scatter", "all_gather", "all_reduce" }) {
            check(c["collectives"][op][std::size_t { 0 }], kCollectiveScalar);
            check(c["collectives"][op][1], kCollectiveOffset);
        }
    }
}

} // namespace

void checkBlockRanges(const JsonCursor &block, PresetKind kind)
{
    switch (kind) {
    case PresetKind::Gpu:
        checkGpu(block);
        break;
    case PresetKind::Interconnect:
        checkInterconnect(block);
        break;
    case PresetKind::Topology:
        if (block.value().contains("spine_oversubscription"))
            check(block["spine_oversubscription"], kOversubscription);
        break;
    case PresetKind::Storage:
        check(block["write_GBps"], kBandwidth.in(kBpsPerGBps));
        check(block["read_GBps"], kBandwidth.in(kBpsPerGBps));
        break;
    case PresetKind::Llm: // integers: their products are checked by the model (checkCounts)
    case PresetKind::Layout:
    case PresetKind::Scenario:
    case PresetKind::Software:    // names only
    case PresetKind::Calibration: // efficiencies and times checked as they are read
        break;
    }
}

} // namespace gapstudio::io::detail
