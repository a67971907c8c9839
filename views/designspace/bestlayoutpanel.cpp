#include "designspace/bestlayoutpanel.h"

#include "charts/chartformat.h"
#include "charts/chartspanel.h"
#include "designspace/bestlayoutsearch.h"
#include "results/layoutformat.h"
#include "results/resultstable.h"
#include "studio/scenariodocument.h"

#include "gapstudio/scenario/best_layout.h"

#include <QCheckBox>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <array>

namespace gapstudio::views {

namespace cf = chartformat;

namespace {

/// The pin boxes: LayoutPinChoice's flags, and how each one names the design's value.
struct PinField {
    bool LayoutPinChoice::*flag;
    const char *objectName;
    QString (*text)(const model::Execution &);
};

const std::array<PinField, 7> kPinFields { {
    { &LayoutPinChoice::tensorPar, "keep_tensor_par",
      [](const model::Execution &e) {
          return QObject::tr("Tensor parallelism (TP = %1)").arg(e.tensorPar);
      } },
    { &LayoutPinChoice::pipelinePar, "keep_pipeline_par",
      [](const model::Execution &e) {
          return QObject::tr("Pipeline parallelism (PP = %1)").arg(e.pipelinePar);
      } },
    { &LayoutPinChoice::dataPar, "keep_data_par",
      [](const model::Execution &e) { return QObject::tr("Data parallelism (DP = %1)").arg(e.dataPar); } },
    { &LayoutPinChoice::pipelineInterleaving, "keep_interleaving",
      [](const model::Execution &e) {
          return QObject::tr("Pipeline interleaving (%1)").arg(e.pipelineInterleaving);
      } },
    { &LayoutPinChoice::microbatchSize, "keep_microbatch",
      [](const model::Execution &e) { return QObject::tr("Microbatch size (%1)").arg(e.microbatchSize); } },
    { &LayoutPinChoice::recompute, "keep_recompute",
      [](const model::Execution &e) {
          return QObject::tr("Activation recompute (%1)").arg(layoutformat::recompute(e.activationRecompute));
      } },
    { &LayoutPinChoice::optimizerSharding, "keep_optimizer_sharding",
      [](const model::Execution &e) {
          return QObject::tr("Optimizer sharding (%1)").arg(layoutformat::yesNo(e.optimizerSharding));
      } },
} };

QString line(const QString &name, const ScenarioResults &r)
{
    const model::Stats &s = r.evaluation.stats;
    return QObject::tr("<b>%1</b>: %2<br>%3 samples/s, MFU %4")
        .arg(name, layoutformat::summary(r.compiled->execution), cf::number(s.sample_rate, 2),
             cf::percent(s.total_efficiency));
}

} // namespace

BestLayoutPanel::BestLayoutPanel(ScenarioDocument *document, QWidget *parent)
    : QWidget(parent)
    , mDocument(document)
    , mSearch(new BestLayoutSearch(this))
    , mToggle(new QCheckBox(tr("Judge at best layout"), this))
    , mState(new QLabel(this))
    , mComparison(new QLabel(this))
    , mUse(new QPushButton(tr("Use the best layout"), this))
{
    setObjectName(QStringLiteral("best_layout_panel"));
    mToggle->setObjectName(QStringLiteral("best_layout_toggle"));
    mToggle->setToolTip(tr("After every change, search the parallel layouts of this hardware and LLM in the "
                           "background and show the best one next to yours"));
    auto *keep = new QGroupBox(tr("Keep as in my layout"), this);
    auto *keepLayout = new QVBoxLayout(keep);
    for (const PinField &field : kPinFields) {
        auto *box = new QCheckBox(keep);
        box->setObjectName(QLatin1String(field.objectName));
        keepLayout->addWidget(box);
        mKeep << box;
        connect(box, &QCheckBox::toggled, this, &BestLayoutPanel::updatePins);
    }
    mState->setObjectName(QStringLiteral("best_layout_state"));
    mState->setWordWrap(true);
    mComparison->setObjectName(QStringLiteral("best_layout_comparison"));
    mComparison->setWordWrap(true);
    mComparison->setTextFormat(Qt::RichText);
    mUse->setObjectName(QStringLiteral("use_best_layout"));
    mUse->setEnabled(false);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(mToggle);
    layout->addWidget(keep);
    layout->addWidget(mState);
    layout->addWidget(mComparison);
    layout->addWidget(mUse);
    layout->addStretch();

    connect(mToggle, &QCheckBox::toggled, mSearch, &BestLayoutSearch::setEnabled);
    connect(mSearch, &BestLayoutSearch::stateChanged, mState, &QLabel::setText);
    connect(mSearch, &BestLayoutSearch::bestLayoutChanged, this, &BestLayoutPanel::showComparison);
    connect(mUse, &QPushButton::clicked, this, [this] {
        if (const ResultsPtr best = mSearch->best(); best && best->compiled)
            mDocument->editLayout("layout", [&best](model::Execution &e) { e = best->compiled->execution; });
    });
    mState->setText(tr("Off: the design is judged at its own layout"));
}

void BestLayoutPanel::setResults(ResultsPtr results)
{
    for (qsizetype i = 0; i < mKeep.size(); ++i) {
        mKeep[i]->setEnabled(results && results->compiled);
        if (results && results->compiled)
            mKeep[i]->setText(kPinFields[static_cast<std::size_t>(i)].text(results->compiled->execution));
    }
    mSearch->setResults(std::move(results));
}

void BestLayoutPanel::showIn(ChartsPanel *charts, ResultsTable *keyResults)
{
    connect(mSearch, &BestLayoutSearch::bestLayoutChanged, this,
            [charts, keyResults](const ResultsPtr &own, const ResultsPtr &best) {
                charts->setBestLayout(own, best);
                if (own)
                    keyResults->showResults(*own);
                if (own && best)
                    keyResults->addBestLayout(*own, *best);
            });
}

void BestLayoutPanel::updatePins()
{
    LayoutPinChoice choice;
    for (qsizetype i = 0; i < mKeep.size(); ++i)
        choice.*kPinFields[static_cast<std::size_t>(i)].flag = mKeep[i]->isChecked();
    mSearch->setPinChoice(choice);
}

void BestLayoutPanel::showComparison()
{
    const ResultsPtr own = mSearch->own(), best = mSearch->best();
    mUse->setEnabled(best != nullptr);
    if (!best || !own) {
        mComparison->clear();
        return;
    }
    QString text = line(tr("Best layout"), *best);
    if (const auto loss = scenario::layoutChoiceLoss(*own, *best)) {
        text += QStringLiteral("<br><br>") + line(tr("Your layout"), *own);
        text += tr("<br><br>Layout choice loses %1 of peak (best layout: %2× your throughput)")
                    .arg(cf::percent(*loss, 2),
                         cf::number(best->evaluation.stats.sample_rate / own->evaluation.stats.sample_rate,
                                    3));
    } else {
        text += tr("<br><br>Your layout: %1").arg(QString::fromStdString(own->statusText).toHtmlEscaped());
    }
    mComparison->setText(text);
}

QString BestLayoutPanel::comparisonText() const
{
    return mComparison->text();
}

} // namespace gapstudio::views
