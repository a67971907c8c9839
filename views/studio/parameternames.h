#pragma once
/**
 * @file parameternames.h
 * The one place for the words the studio uses for a parameter: the sliders, the tornado, undo
 * labels, the layout panel and the diagnostics all name a parameter the same way. Keys are the
 * scenario's JSON keys (override keys such as "scale_out.latency_us", layout keys such as
 * "tensor_par"); the key itself is shown only as a detail (tool tips).
 */

#include "gapstudio/model/sweep.h"

#include <QString>

#include <string>

namespace gapstudio::views {

/// Words for a parameter: a label ("Scale-out latency"), its unit ("µs"; empty if none) and a
/// sentence for tool tips.
struct ParameterWords {
    QString label;
    QString unit;
    QString help;
};

/// The words for an override key ("gpu.hbm_bandwidth_GBps"), a layout key ("tensor_par",
/// "layout.tensor_par", "layout/tensor_par"), "gpu_count" or "num_procs". Unknown keys come back as
/// their own text, so that nothing is lost.
[[nodiscard]] ParameterWords parameterWords(const std::string &key);

/// The label alone (parameterWords(key).label).
[[nodiscard]] QString parameterLabel(const std::string &key);

/// A tool tip in words with the JSON key as detail: "Latency of one operation ...\n(key: ...)".
[[nodiscard]] QString parameterToolTip(const std::string &key);

/// The name of a hardware parameter of the sweeps and the tornado, in the sliders' words
/// ("Scale-up bandwidth"; the latency the tornado scales is every tier's: "Network latency, every
/// tier").
[[nodiscard]] QString hardwareParameterLabel(model::HardwareParameter parameter);

/// Replaces the JSON keys and the reference's memory-tier names in a model message by words
/// ("expert_par 16" -> "EP (experts) 16", "Mem tier1" -> "GPU memory (HBM)").
[[nodiscard]] QString inWords(const QString &message);

} // namespace gapstudio::views
