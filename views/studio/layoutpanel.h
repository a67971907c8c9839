#pragma once
/**
 * @file layoutpanel.h
 * The parallel layout: TP, PP, DP, EP, ES, expert DP, microbatch, global batch, interleaving,
 * recompute, TP comm type and overlap, DP overlap, ZeRO-1, offloads, datatype and the network tier
 * of each parallelism. Each edit is one command. The model's diagnostics that name a field are
 * shown in place under that field ("which product must equal the GPU count, which degree must
 * divide what").
 */

#include "results/scenarioresults.h"

#include <QWidget>

#include <functional>
#include <map>
#include <string>

class QLabel;
class QFormLayout;

namespace gapstudio::views {

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
        std::function<void(const model::Execution &)> show; ///< puts the value into the editor
    };
    void addInt(QFormLayout *form, const char *key, const QString &label, std::int64_t model::Execution::*member,
                int minimum, int maximum);
    void addBool(QFormLayout *form, const char *key, const QString &label, bool model::Execution::*member);
    template <typename Enum>
    void addEnum(QFormLayout *form, const char *key, const QString &label, Enum model::Execution::*member,
                 const QStringList &names);
    void addProblemLabel(QFormLayout *form, const char *key, QWidget *editor);

    ScenarioDocument *mDocument;
    std::map<std::string, Field> mFields;
    QLabel *mSummary;
};

} // namespace gapstudio::views
