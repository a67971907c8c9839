#pragma once
/**
 * @file layoutpanel.h
 * The parallel layout: TP, PP, DP, EP, ES, expert DP, microbatch, global batch, interleaving,
 * recompute, TP comm type and overlap, DP overlap, ZeRO-1, offloads, datatype and the network tier
 * of each parallelism, in foldable groups, and the software stack the design runs on (with what
 * it does to MoE: the token dispatcher and the EP all-to-all overlap). Each edit is one command; DP and
 * expert DP follow TP, PP, EP, ES and the GPU count (the rule is shown). The model's diagnostics are shown in
 * words under the field the user can change (layoutrules.h: "TP x PP x DP uses 2048 GPUs, but the design has
 * 4096: set DP to 128").
 */

#include "results/scenarioresults.h"

#include <QWidget>

#include <functional>
#include <map>
#include <string>

class QComboBox;
class QLabel;
class QFormLayout;

namespace gapstudio::views {

class CalibrationChoice;
class CollapsibleSection;
class ScenarioDocument;

class LayoutPanel : public QWidget {
    Q_OBJECT

public:
    explicit LayoutPanel(ScenarioDocument *document, QWidget *parent = nullptr);

    void setResults(ResultsPtr results);
    /// The editor of a field by its JSON key (e.g. "tensor_par"), for tests.
    [[nodiscard]] QWidget *editor(const std::string &key) const;
    /// The in-place message shown under a field; empty when the field is fine.
    [[nodiscard]] QString problem(const std::string &key) const;

private:
    struct Field {
        QWidget *editor = nullptr;
        QLabel *problem = nullptr;
        CollapsibleSection *section = nullptr;              ///< unfolded when the field has a problem
        std::function<void(const model::Execution &)> show; ///< puts the value into the editor
    };
    void addInt(QFormLayout *form, const char *key, std::int64_t model::Execution::*member, int minimum,
                int maximum);
    void addBool(QFormLayout *form, const char *key, bool model::Execution::*member);
    template <typename Enum>
    void addEnum(QFormLayout *form, const char *key, Enum model::Execution::*member,
                 const QStringList &names);
    void addProblemLabel(QFormLayout *form, const char *key, QWidget *editor);
    void addSoftware(QFormLayout *form);
    void fillSoftware();
    void showSoftware(const ScenarioResults *results);

    ScenarioDocument *mDocument;
    std::map<std::string, Field> mFields;
    QLabel *mSummary;
    QLabel *mRule; ///< how DP and expert DP follow the GPU count
    CalibrationChoice *mCalibration = nullptr; ///< the library's calibrations
    QComboBox *mSoftware = nullptr;    ///< the library's software presets, by name
    QLabel *mSoftwareEffect = nullptr; ///< what the stack does to the design's MoE layers
};

} // namespace gapstudio::views
