#include "studio/layoutpanel.h"

#include "studio/calibrationchoice.h"
#include "studio/collapsiblesection.h"
#include "studio/layoutrules.h"
#include "studio/parameternames.h"
#include "studio/scenariodocument.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace gapstudio::views {

LayoutPanel::LayoutPanel(ScenarioDocument *document, QWidget *parent)
    : QWidget(parent)
    , mDocument(document)
    , mSummary(new QLabel(this))
    , mRule(new QLabel(this))
{
    setObjectName(QStringLiteral("layoutPanel"));
    using E = model::Execution;
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(4, 4, 4, 4);
    outer->setSpacing(2);
    mSummary->setWordWrap(true);
    mSummary->setObjectName(QStringLiteral("layoutSummary"));
    CollapsibleSection *current = nullptr;
    const auto group = [&](const QString &title, bool expanded) {
        current = new CollapsibleSection(title, this);
        auto *form = new QFormLayout(current->content());
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        form->setContentsMargins(6, 0, 2, 4);
        form->setVerticalSpacing(3);
        current->setExpanded(expanded);
        outer->addWidget(current);
        return form;
    };
    const auto section = [&current] { return current; };
    QFormLayout *par = group(tr("Parallelism"), true);
    mRule->setObjectName(QStringLiteral("layoutRule"));
    mRule->setWordWrap(true);
    mRule->setStyleSheet(QStringLiteral("color: #505050;"));
    // The fields first, so that TP is in view in a short dock (1280 x 800); the rule and the
    // products they make follow them.
    addInt(par, "tensor_par", &E::tensorPar, 1, 1 << 16);
    addInt(par, "context_par", &E::contextPar, 1, 1 << 16);
    addInt(par, "pipeline_par", &E::pipelinePar, 1, 1 << 16);
    addInt(par, "data_par", &E::dataPar, 1, 1 << 20);
    addInt(par, "expert_par", &E::expertPar, 1, 1 << 16);
    addInt(par, "expert_slice", &E::expertSlice, 1, 1 << 16);
    addInt(par, "data_par_exp", &E::dataParExp, 1, 1 << 20);
    par->addRow(mRule);
    par->addRow(mSummary);
    for (const char *key :
         { "tensor_par", "context_par", "pipeline_par", "data_par", "expert_par", "expert_slice", "data_par_exp" })
        mFields[key].section = section();
    QFormLayout *batch = group(tr("Batch and schedule"), true);
    addInt(batch, "microbatch_size", &E::microbatchSize, 1, 1 << 16);
    addInt(batch, "batch_size", &E::batchSize, 1, 1 << 24);
    addInt(batch, "pipeline_interleaving", &E::pipelineInterleaving, 1, 1 << 10);
    addEnum(batch, "activation_recompute", &E::activationRecompute,
            { tr("none"), tr("attention only"), tr("full") });
    addEnum(batch, "datatype", &E::datatype,
            { QStringLiteral("FP8"), QStringLiteral("FP16"), QStringLiteral("BF16"), QStringLiteral("FP32"),
              QStringLiteral("FP4") });
    for (const char *key :
         { "microbatch_size", "batch_size", "pipeline_interleaving", "activation_recompute", "datatype" })
        mFields[key].section = section();
    QFormLayout *comm = group(tr("Communication and memory"), false);
    addEnum(comm, "tensor_par_comm_type", &E::tensorParCommType,
            { tr("all-reduce"), tr("point-to-point reduce-scatter + all-gather"),
              tr("reduce-scatter + all-gather") });
    addEnum(comm, "tensor_par_overlap", &E::tensorParOverlap, { tr("none"), tr("ring"), tr("pipelined") });
    addBool(comm, "seq_par_ag_redo", &E::seqParAgRedo);
    addBool(comm, "data_par_overlap", &E::dataParOverlap);
    addBool(comm, "optimizer_sharding", &E::optimizerSharding);
    addBool(comm, "weight_offload", &E::weightOffload);
    addBool(comm, "activations_offload", &E::activationsOffload);
    addBool(comm, "optimizer_offload", &E::optimizerOffload);
    for (const char *key :
         { "tensor_par_comm_type", "tensor_par_overlap", "seq_par_ag_redo", "data_par_overlap",
           "optimizer_sharding", "weight_offload", "activations_offload", "optimizer_offload" })
        mFields[key].section = section();
    QFormLayout *tiers = group(tr("Network tier per parallelism (0 = scale-up)"), false);
    for (const auto &[key, member] :
         { std::pair { "tensor_par_net", &E::tensorParNet },
           std::pair { "pipeline_par_net", &E::pipelineParNet }, std::pair { "data_par_net", &E::dataParNet },
           std::pair { "expert_par_net", &E::expertParNet },
           std::pair { "expert_slice_net", &E::expertSliceNet },
           std::pair { "data_par_exp_net", &E::dataParExpNet } }) {
        addInt(tiers, key, member, 0, 3);
        mFields[key].section = section();
    }
    addSoftware(group(tr("Software stack"), true));
    outer->addStretch(1);
}

void LayoutPanel::addSoftware(QFormLayout *form)
{
    mSoftware = new QComboBox(this);
    mSoftware->setObjectName(QStringLiteral("layout:software"));
    mSoftware->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    mSoftware->setMinimumContentsLength(12);
    form->addRow(mSoftware);
    mSoftwareEffect = new QLabel(this);
    mSoftwareEffect->setObjectName(QStringLiteral("softwareEffect"));
    mSoftwareEffect->setWordWrap(true);
    mSoftwareEffect->setStyleSheet(QStringLiteral("color: #505050;"));
    form->addRow(mSoftwareEffect);
    // What the stack's speed is: the calibration the corrected model runs with.
    mCalibration = new CalibrationChoice(mDocument, this);
    form->addRow(tr("Calibration"), mCalibration);
    fillSoftware();
    connect(mDocument, &ScenarioDocument::libraryChanged, this, &LayoutPanel::fillSoftware);
    connect(mSoftware, &QComboBox::activated, this, [this](int index) {
        const QString id = mSoftware->itemData(index).toString();
        if (!id.isEmpty())
            mDocument->setSoftware(id.toStdString());
    });
}

void LayoutPanel::fillSoftware()
{
    const QSignalBlocker blocker(mSoftware);
    mSoftware->clear();
    for (const auto &[id, software] : mDocument->library().software) {
        mSoftware->addItem(QString::fromStdString(software.info.name), QString::fromStdString(id));
        mSoftware->setItemData(mSoftware->count() - 1, QString::fromStdString(software.info.source),
                               Qt::ToolTipRole);
    }
}

/// Selects the design's stack and says what it does to MoE layers, as the compiled design has it
/// (a layout that names its own dispatcher or overlap keeps it).
void LayoutPanel::showSoftware(const ScenarioResults *results)
{
    if (!results || !results->compiled) {
        mSoftwareEffect->clear();
        return;
    }
    const scenario::Software &software = results->compiled->resolved.software;
    const QString id = QString::fromStdString(software.info.id);
    int index = mSoftware->findData(id);
    if (index < 0 || mDocument->scenario().software.inlineBlock) {
        // A stack embedded in the file: shown by its name, not one of the library's.
        const QSignalBlocker blocker(mSoftware);
        fillSoftware();
        mSoftware->addItem(tr("%1 (in this file)").arg(QString::fromStdString(software.info.name)));
        index = mSoftware->count() - 1;
    }
    const QSignalBlocker blocker(mSoftware);
    mSoftware->setCurrentIndex(index);
    mSoftware->setToolTip(QString::fromStdString(software.info.source));
    const model::Execution &e = results->compiled->execution;
    if (!e.modelMoE) {
        mSoftwareEffect->setText(
            tr("Its speed is in the calibration below (fitted in the Validation view)."));
        return;
    }
    const bool sync = model::moeDispatcherSyncsHost(e);
    const QString dispatcher = e.moeDispatcher == model::MoeDispatcher::Flex
                                   ? tr("flex (fused all-to-all, no host synchronisation)")
                               : e.moeDispatcher == model::MoeDispatcher::FlexDeepEp
                                   ? tr("flex with DeepEP (fused all-to-all; the host waits in its dispatch)")
                               : sync
                                   ? tr("all-to-all, dropless: the host synchronises in every MoE layer")
                                   : tr("all-to-all, padded to the capacity factor: no host synchronisation");
    const scenario::Layout &layout = results->compiled->resolved.layout;
    mSoftwareEffect->setText(
        tr("MoE token dispatcher: %1%2. EP all-to-all overlapped with compute: %3%4.")
            .arg(dispatcher, layout.namesMoeDispatcher ? tr(" (set by the layout)") : QString(),
                 e.moeAllToAllOverlap ? tr("yes") : tr("no"),
                 layout.namesMoeAllToAllOverlap ? tr(" (set by the layout)") : QString()));
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
    editor->setToolTip(parameterToolTip(key));
    mFields[key].editor = editor;
    mFields[key].problem = problem;
}

void LayoutPanel::addInt(QFormLayout *form, const char *key, std::int64_t model::Execution::*member,
                         int minimum, int maximum)
{
    auto *spin = new QSpinBox(this);
    spin->setRange(minimum, maximum);
    spin->setKeyboardTracking(false);
    form->addRow(parameterLabel(key), spin);
    addProblemLabel(form, key, spin);
    mFields[key].show = [spin, member](const model::Execution &e) {
        // QSpinBox::setValue() rewrites and repaints the field even to the value it holds.
        if (spin->value() != static_cast<int>(e.*member))
            spin->setValue(static_cast<int>(e.*member));
    };
    connect(spin, &QSpinBox::valueChanged, this, [this, key, member](int value) {
        mDocument->editLayout(key, [&](model::Execution &e) { e.*member = value; });
    });
}

void LayoutPanel::addBool(QFormLayout *form, const char *key, bool model::Execution::*member)
{
    auto *check = new QCheckBox(parameterLabel(key), this);
    form->addRow(QString(), check);
    addProblemLabel(form, key, check);
    mFields[key].show = [check, member](const model::Execution &e) { check->setChecked(e.*member); };
    connect(check, &QCheckBox::toggled, this, [this, key, member](bool on) {
        mDocument->editLayout(key, [&](model::Execution &e) { e.*member = on; });
    });
}

template <typename Enum>
void LayoutPanel::addEnum(QFormLayout *form, const char *key, Enum model::Execution::*member,
                          const QStringList &names)
{
    auto *combo = new QComboBox(this);
    combo->addItems(names);
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(8);
    form->addRow(parameterLabel(key), combo);
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
    // Problems in words, under the field the user can change (layoutrules.h).
    const std::vector<LayoutProblem> problems
        = results ? layoutProblems(*results) : std::vector<LayoutProblem> {};
    for (auto &[key, field] : mFields) {
        if (execution) {
            const QSignalBlocker blocker(field.editor);
            field.show(*execution);
        }
        QStringList texts;
        for (const LayoutProblem &p : problems)
            if (p.field == key)
                texts << QStringLiteral("⚠ ") + p.text;
        field.problem->setText(texts.join(QLatin1Char('\n')));
        field.problem->setVisible(!texts.isEmpty());
        field.editor->setStyleSheet(texts.isEmpty() ? QString() : QStringLiteral("background: #fde7e7;"));
        if (!texts.isEmpty() && field.section)
            field.section->setExpanded(true);
    }
    showSoftware(results.get());
    mCalibration->showDesign();
    // The results' LLM (resolving the document's scenario again costs more than the rest of this).
    const bool moe
        = results && results->compiled ? results->compiled->resolved.llm.isMoe() : mDocument->isMoe();
    for (const char *key : {"expert_par", "expert_slice", "data_par_exp", "expert_par_net", "expert_slice_net",
                            "data_par_exp_net"})
        mFields[key].editor->setEnabled(moe);
    mRule->setText(balanceRule(moe));
    if (results && results->compiled) {
        const model::Execution &e = results->compiled->execution;
        const QString name
            = QString::fromStdString(results->compiled->resolved.layout.info.name).toHtmlEscaped();
        QString summary
            = e.contextPar > 1
                  ? tr("<b>%1</b><br>TP × CP × PP × DP = %2 × %3 × %4 × %5 = %6 of %7 GPUs")
                        .arg(name)
                        .arg(e.tensorPar)
                        .arg(e.contextPar)
                        .arg(e.pipelinePar)
                        .arg(e.dataPar)
                        .arg(model::layoutGpuCount(e))
                        .arg(e.numProcs)
                  : tr("<b>%1</b><br>TP × PP × DP = %2 × %3 × %4 = %5 of %6 GPUs")
                        .arg(name)
                        .arg(e.tensorPar)
                        .arg(e.pipelinePar)
                        .arg(e.dataPar)
                        .arg(model::layoutGpuCount(e))
                        .arg(e.numProcs);
        if (e.modelMoE)
            summary += tr("<br>EP × ES × PP × expert DP = %1 × %2 × %3 × %4 = %5 of %6 GPUs")
                           .arg(e.expertPar)
                           .arg(e.expertSlice)
                           .arg(e.pipelinePar)
                           .arg(e.dataParExp)
                           .arg(model::expertLayoutGpuCount(e))
                           .arg(e.numProcs);
        mSummary->setText(summary);
    } else {
        mSummary->setText(tr("The scenario does not compile; see Diagnostics."));
    }
}

} // namespace gapstudio::views
