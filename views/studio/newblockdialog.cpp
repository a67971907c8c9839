#include "studio/newblockdialog.h"

#include "studio/userpresets.h"
#include "gapstudio/model/units.h"

#include <nlohmann/json.hpp>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QPushButton>

namespace gapstudio::views {

namespace {
constexpr double kGiB = units::kBytesPerGiB;
constexpr auto kBf16 = static_cast<std::size_t>(model::Datatype::Bfloat16);
constexpr auto kFp16 = static_cast<std::size_t>(model::Datatype::Float16);
constexpr auto kFp8 = static_cast<std::size_t>(model::Datatype::Float8);
} // namespace

NewBlockDialog::NewBlockDialog(Kind kind, const scenario::PresetLibrary &library, QWidget *parent)
    : QDialog(parent)
    , mKind(kind)
    , mLibrary(library)
    , mName(new QLineEdit(this))
    , mBasedOn(new QComboBox(this))
    , mSource(new QLineEdit(this))
{
    const bool gpu = kind == Kind::Gpu;
    setObjectName(gpu ? QStringLiteral("newGpuDialog") : QStringLiteral("newInterconnectDialog"));
    setWindowTitle(gpu ? tr("New GPU") : tr("New interconnect"));
    auto *form = new QFormLayout(this);
    mName->setPlaceholderText(gpu ? tr("e.g. My accelerator") : tr("e.g. My optical link"));
    form->addRow(tr("Name:"), mName);
    if (gpu)
        for (const auto &[id, block] : library.gpus)
            mBasedOn->addItem(QString::fromStdString(block.info.name), QString::fromStdString(id));
    else
        for (const auto &[id, block] : library.interconnects)
            mBasedOn->addItem(QString::fromStdString(block.info.name), QString::fromStdString(id));
    mBasedOn->setToolTip(
        tr("What the datasheet figures below do not give (efficiency curves, collective costs) "
           "comes from this block"));
    form->addRow(tr("Based on:"), mBasedOn);
    if (gpu) {
        form->addRow(tr("Peak BF16/FP16 (dense):"),
                     addNumber(QStringLiteral("peak16"), {}, QStringLiteral("TFLOP/s"), 1e6, 1));
        form->addRow(tr("Peak FP8 (dense, 0 = none):"),
                     addNumber(QStringLiteral("peak8"), {}, QStringLiteral("TFLOP/s"), 1e6, 1));
        form->addRow(tr("HBM capacity:"),
                     addNumber(QStringLiteral("hbmCapacity"), {}, QStringLiteral("GiB"), 1e5, 1));
        form->addRow(tr("HBM bandwidth:"),
                     addNumber(QStringLiteral("hbmBandwidth"), {}, QStringLiteral("GB/s"), 1e6, 0));
        form->addRow(tr("Board power:"), addNumber(QStringLiteral("power"), {}, QStringLiteral("W"), 1e5, 0));
    } else {
        form->addRow(tr("Bandwidth per GPU (one direction):"),
                     addNumber(QStringLiteral("bandwidth"), {}, QStringLiteral("GB/s"), 1e6, 2));
        form->addRow(tr("Latency:"), addNumber(QStringLiteral("latency"), {}, QStringLiteral("µs"), 1e4, 2));
        form->addRow(tr("Efficiency:"),
                     addNumber(QStringLiteral("efficiency"), {}, QStringLiteral("%"), 100, 1));
        form->addRow(tr("Most GPUs joined (0 = no limit):"),
                     addNumber(QStringLiteral("reach"), {}, tr("GPUs"), 1e7, 0));
        mReduction = new QCheckBox(tr("Reductions in the switches (in-network reduction)"), this);
        form->addRow(QString(), mReduction);
        mUse = new QComboBox(this);
        mUse->addItem(tr("Only add it to My blocks"), int(Use::Nothing));
        mUse->addItem(tr("Use it as the scale-up link"), int(Use::ScaleUp));
        mUse->addItem(tr("Use it as the scale-out link"), int(Use::ScaleOut));
        form->addRow(tr("Then:"), mUse);
    }
    mSource->setText(tr("Entered in GapStudio from a datasheet"));
    mSource->setToolTip(tr("Where the figures come from (a datasheet, a paper), kept with the block"));
    form->addRow(tr("Source:"), mSource);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(mName, &QLineEdit::textChanged, this, [buttons](const QString &text) {
        buttons->button(QDialogButtonBox::Ok)->setEnabled(!text.trimmed().isEmpty());
    });
    connect(mBasedOn, &QComboBox::currentIndexChanged, this, &NewBlockDialog::fillFromBase);
    fillFromBase();
}

QDoubleSpinBox *NewBlockDialog::addNumber(const QString &name, const QString &, const QString &unit,
                                          double max, int decimals)
{
    auto *spin = new QDoubleSpinBox(this);
    spin->setObjectName(name);
    spin->setRange(0, max);
    spin->setDecimals(decimals);
    spin->setSuffix(QLatin1Char(' ') + unit);
    mFields << spin;
    return spin;
}

QDoubleSpinBox *NewBlockDialog::field(const QString &name) const
{
    for (QDoubleSpinBox *spin : mFields)
        if (spin->objectName() == name)
            return spin;
    return nullptr;
}

void NewBlockDialog::fillFromBase()
{
    const std::string id = mBasedOn->currentData().toString().toStdString();
    if (mKind == Kind::Gpu) {
        const auto it = mLibrary.gpus.find(id);
        if (it == mLibrary.gpus.end())
            return;
        const scenario::Gpu &g = it->second;
        field(QStringLiteral("peak16"))->setValue(g.matrixPeak_flops[kBf16].value_or(0) / 1e12);
        field(QStringLiteral("peak8"))->setValue(g.matrixPeak_flops[kFp8].value_or(0) / 1e12);
        field(QStringLiteral("hbmCapacity"))->setValue(g.hbm.capacity_B / kGiB);
        field(QStringLiteral("hbmBandwidth"))->setValue(g.hbm.bandwidth_Bps / 1e9);
        field(QStringLiteral("power"))->setValue(g.boardPower_W);
        return;
    }
    const auto it = mLibrary.interconnects.find(id);
    if (it == mLibrary.interconnects.end())
        return;
    const scenario::Interconnect &l = it->second;
    field(QStringLiteral("bandwidth"))->setValue(l.bandwidth_Bps / 1e9);
    field(QStringLiteral("latency"))->setValue(l.latency_s * 1e6);
    field(QStringLiteral("efficiency"))->setValue(l.efficiency * 100);
    field(QStringLiteral("reach"))->setValue(static_cast<double>(l.maxDomainSize));
    mReduction->setChecked(l.inNetworkReduction);
}

NewBlockDialog::Use NewBlockDialog::use() const
{
    return mUse ? static_cast<Use>(mUse->currentData().toInt()) : Use::Nothing;
}

io::PresetFile NewBlockDialog::block() const
{
    const std::string id = mBasedOn->currentData().toString().toStdString();
    const scenario::BlockInfo info { presetIdFor(mName->text()), mName->text().trimmed().toStdString(),
                                     mSource->text().trimmed().toStdString() };
    const auto value = [this](const char *name) { return field(QString::fromLatin1(name))->value(); };
    if (mKind == Kind::Gpu) {
        scenario::Gpu g = mLibrary.gpus.count(id) ? mLibrary.gpus.at(id) : scenario::Gpu {};
        g.info = info;
        // The vector (non-tensor) engines scale with the 16-bit matrix peak.
        const double base16 = g.matrixPeak_flops[kBf16].value_or(0);
        const double peak16 = value("peak16") * 1e12;
        if (base16 > 0)
            for (auto &peak : g.vectorPeak_flops)
                if (peak)
                    *peak *= peak16 / base16;
        g.matrixPeak_flops[kBf16] = peak16;
        g.matrixPeak_flops[kFp16] = peak16;
        const double peak8 = value("peak8") * 1e12;
        g.matrixPeak_flops[kFp8] = peak8 > 0 ? std::optional<double>(peak8) : std::nullopt;
        g.hbm.capacity_B = value("hbmCapacity") * kGiB;
        g.hbm.bandwidth_Bps = value("hbmBandwidth") * 1e9;
        g.boardPower_W = value("power");
        g.price_USD.reset(); // a price is not a datasheet figure of the base
        return g;
    }
    scenario::Interconnect l
        = mLibrary.interconnects.count(id) ? mLibrary.interconnects.at(id) : scenario::Interconnect {};
    const bool reductionChanged = l.inNetworkReduction != mReduction->isChecked();
    l.info = info;
    l.bandwidth_Bps = value("bandwidth") * 1e9;
    l.latency_s = value("latency") * 1e-6;
    l.efficiency = value("efficiency") / 100;
    l.maxDomainSize = static_cast<std::int64_t>(value("reach"));
    l.inNetworkReduction = mReduction->isChecked();
    if (reductionChanged) {
        // The collective costs follow from in-network reduction when a file omits them: let the
        // preset reader (the one place of that rule) fill them in.
        nlohmann::ordered_json json = io::toJson(l);
        json.erase("collectives");
        l = io::parseInterconnect(nlohmann::json::parse(json.dump()), info.name);
    }
    return l;
}

} // namespace gapstudio::views
