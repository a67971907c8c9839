#include "studio/layoutpanel.h"

#include "studio/scenariodocument.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace gapstudio::views {

LayoutPanel::LayoutPanel(ScenarioDocument *document, QWidget *parent)
    : QWidget(parent)
    , mDocument(document)
    , mSummary(new QLabel(this))
{
    setObjectName(QStringLiteral("layoutPanel"));
    using E = model::Execution;
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(4, 4, 4, 4);
    mSummary->setWordWrap(true);
    outer->addWidget(mSummary);
    const auto group = [&](const QString &title) {
        auto *box = new QGroupBox(title, this);
        auto *form = new QFormLayout(box);
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        form->setVerticalSpacing(3);
        outer->addWidget(box);
        return form;
    };
    QFormLayout *par = group(tr("Parallelism"));
    addInt(par, "tensor_par", tr("TP (tensor)"), &E::tensorPar, 1, 1 << 16);
    addInt(par, "pipeline_par", tr("PP (pipeline)"), &E::pipelinePar, 1, 1 << 16);
    addInt(par, "data_par", tr("DP (data)"), &E::dataPar, 1, 1 << 20);
    addInt(par, "expert_par", tr("EP (experts)"), &E::expertPar, 1, 1 << 16);
    addInt(par, "expert_slice", tr("ES (expert slice)"), &E::expertSlice, 1, 1 << 16);
    addInt(par, "data_par_exp", tr("Expert DP"), &E::dataParExp, 1, 1 << 20);
    QFormLayout *batch = group(tr("Batch and schedule"));
    addInt(batch, "microbatch_size", tr("Microbatch"), &E::microbatchSize, 1, 1 << 16);
    addInt(batch, "batch_size", tr("Global batch"), &E::batchSize, 1, 1 << 24);
    addInt(batch, "pipeline_interleaving", tr("Interleaving"), &E::pipelineInterleaving, 1, 1 << 10);
    addEnum(batch, "activation_recompute", tr("Recompute"), &E::activationRecompute,
            {tr("none"), tr("attention only"), tr("full")});
    addEnum(batch, "datatype", tr("Datatype"), &E::datatype,
            {QStringLiteral("float8"), QStringLiteral("float16"), QStringLiteral("bfloat16"),
             QStringLiteral("float32"), QStringLiteral("float4")});
    QFormLayout *comm = group(tr("Communication and memory"));
    addEnum(comm, "tensor_par_comm_type", tr("TP comm type"), &E::tensorParCommType,
            {tr("all-reduce"), tr("p2p RS/AG"), tr("RS/AG")});
    addEnum(comm, "tensor_par_overlap", tr("TP overlap"), &E::tensorParOverlap, {tr("none"), tr("ring"), tr("pipe")});
    addBool(comm, "seq_par_ag_redo", tr("Redo seq-par all-gather"), &E::seqParAgRedo);
    addBool(comm, "data_par_overlap", tr("Overlap DP comm"), &E::dataParOverlap);
    addBool(comm, "optimizer_sharding", tr("ZeRO-1 (shard optimizer)"), &E::optimizerSharding);
    addBool(comm, "weight_offload", tr("Offload weights"), &E::weightOffload);
    addBool(comm, "activations_offload", tr("Offload activations"), &E::activationsOffload);
    addBool(comm, "optimizer_offload", tr("Offload optimizer"), &E::optimizerOffload);
    QFormLayout *tiers = group(tr("Network tier per parallelism (0 = scale-up)"));
    addInt(tiers, "tensor_par_net", tr("TP tier"), &E::tensorParNet, 0, 3);
    addInt(tiers, "pipeline_par_net", tr("PP tier"), &E::pipelineParNet, 0, 3);
    addInt(tiers, "data_par_net", tr("DP tier"), &E::dataParNet, 0, 3);
    addInt(tiers, "expert_par_net", tr("EP tier"), &E::expertParNet, 0, 3);
    addInt(tiers, "expert_slice_net", tr("ES tier"), &E::expertSliceNet, 0, 3);
    addInt(tiers, "data_par_exp_net", tr("Expert DP tier"), &E::dataParExpNet, 0, 3);
    outer->addStretch(1);
}

void LayoutPanel::addProblemLabel(QFormLayout *form, const char *key, QWidget *editor)
{
    auto *problem = new QLabel(this);
    problem->setObjectName(QStringLiteral("problem:%1").arg(QLatin1String(key)));
    problem->setWordWrap(true);
    problem->setStyleSheet(QStringLiteral("color: #b3261e;"));
    problem->hide();
    form->addRow(QString(), problem);
    editor->setObjectName(QStringLiteral("layout:%1").arg(QLatin1String(key)));
    editor->setToolTip(QLatin1String(key));
    mFields[key].editor = editor;
    mFields[key].problem = problem;
}

void LayoutPanel::addInt(QFormLayout *form, const char *key, const QString &label,
                         std::int64_t model::Execution::*member, int minimum, int maximum)
{
    auto *spin = new QSpinBox(this);
    spin->setRange(minimum, maximum);
    spin->setKeyboardTracking(false);
    form->addRow(label, spin);
    addProblemLabel(form, key, spin);
    mFields[key].show = [spin, member](const model::Execution &e) { spin->setValue(static_cast<int>(e.*member)); };
    connect(spin, &QSpinBox::valueChanged, this, [this, key, member](int value) {
        mDocument->editLayout(key, [&](model::Execution &e) { e.*member = value; });
    });
}

void LayoutPanel::addBool(QFormLayout *form, const char *key, const QString &label, bool model::Execution::*member)
{
    auto *check = new QCheckBox(label, this);
    form->addRow(QString(), check);
    addProblemLabel(form, key, check);
    mFields[key].show = [check, member](const model::Execution &e) { check->setChecked(e.*member); };
    connect(check, &QCheckBox::toggled, this, [this, key, member](bool on) {
        mDocument->editLayout(key, [&](model::Execution &e) { e.*member = on; });
    });
}

template <typename Enum>
void LayoutPanel::addEnum(QFormLayout *form, const char *key, const QString &label, Enum model::Execution::*member,
                          const QStringList &names)
{
    auto *combo = new QComboBox(this);
    combo->addItems(names);
    form->addRow(label, combo);
    addProblemLabel(form, key, combo);
    mFields[key].show = [combo, member](const model::Execution &e) { combo->setCurrentIndex(static_cast<int>(e.*member)); };
    connect(combo, &QComboBox::currentIndexChanged, this, [this, key, member](int index) {
        mDocument->editLayout(key, [&](model::Execution &e) { e.*member = static_cast<Enum>(index); });
    });
}

QWidget *LayoutPanel::editor(const std::string &key) const
{
    const auto it = mFields.find(key);
    return it == mFields.end() ? nullptr : it->second.editor;
}

QString LayoutPanel::problem(const std::string &key) const
{
    const auto it = mFields.find(key);
    return it == mFields.end() || it->second.problem->isHidden() ? QString() : it->second.problem->text();
}

void LayoutPanel::setResults(ResultsPtr results)
{
    std::optional<model::Execution> execution;
    if (results && results->compiled)
        execution = results->compiled->execution;
    else if (const auto layout = mDocument->currentLayout())
        execution = layout->execution;
    // Model checks name the quantity at fault; show them under the fields that set it.
    static const std::multimap<std::string, std::string> kShownUnder = {
        {"num_procs", "tensor_par"}, {"num_procs", "pipeline_par"}, {"num_procs", "data_par"},
        {"attn_heads", "tensor_par"}, {"num_blocks", "pipeline_par"}, {"num_experts", "expert_par"},
        {"hidden", "tensor_par"}, {"feedforward", "tensor_par"}, {"seq_size", "tensor_par"}};
    const auto concerns = [](const std::string &field, const std::string &key) {
        if (field == key || field == "layout." + key || field == "layout/" + key)
            return true;
        const auto [first, last] = kShownUnder.equal_range(field);
        return std::any_of(first, last, [&key](const auto &entry) { return entry.second == key; });
    };
    for (auto &[key, field] : mFields) {
        if (execution) {
            const QSignalBlocker blocker(field.editor);
            field.show(*execution);
        }
        QStringList problems;
        if (results)
            for (const model::Diagnostic &d : results->diagnostics)
                if (concerns(d.field, key))
                    problems << QStringLiteral("⚠ ") + QString::fromStdString(d.message);
        field.problem->setText(problems.join(QLatin1Char('\n')));
        field.problem->setVisible(!problems.isEmpty());
        field.editor->setStyleSheet(problems.isEmpty() ? QString() : QStringLiteral("background: #fde7e7;"));
    }
    const bool moe = execution && execution->modelMoE;
    for (const char *key : {"expert_par", "expert_slice", "data_par_exp", "expert_par_net", "expert_slice_net",
                            "data_par_exp_net"})
        mFields[key].editor->setEnabled(moe);
    if (results && results->compiled) {
        const model::Execution &e = results->compiled->execution;
        mSummary->setText(tr("<b>%1</b><br>TP × PP × DP = %2 × %3 × %4 = %5 of %6 GPUs")
                              .arg(QString::fromStdString(results->compiled->resolved.layout.info.name).toHtmlEscaped())
                              .arg(e.tensorPar)
                              .arg(e.pipelinePar)
                              .arg(e.dataPar)
                              .arg(e.tensorPar * e.pipelinePar * e.dataPar)
                              .arg(e.numProcs));
    } else {
        mSummary->setText(tr("The scenario does not compile; see Diagnostics."));
    }
}

} // namespace gapstudio::views
