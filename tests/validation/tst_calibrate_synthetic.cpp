// The calibration fit (calibrate.cpp) against a synthetic truth: "measured" times are the model's
// own predictions under a calibration whose parameters the test sets, so the fit must find what
// the runs determine of them again (the GEMM rate, efficiency x compute efficiency, within a few
// of its standard errors), and a family the leave-one-family-out fold holds back must be
// predicted as the other families alone predict it. The standard errors are checked against the
// delta method by hand: Var(value) = slope^2 Var(raw) with the covariance s^2 (J^T J)^-1 of the
// raw (logit or log) parameters, bounded above by the prior alone and below by the parameter's
// own information (a finite difference of the predictions).
#include "gapstudio/io/measurement_json.h"
#include "gapstudio/io/preset_json.h"
#include "gapstudio/scenario/calibrate.h"
#include "gapstudio/scenario/validation.h"

#include <QTest>

#include <cmath>
#include <functional>

using namespace gapstudio;

namespace {

constexpr auto kFp16 = static_cast<std::size_t>(model::Datatype::Float16);
constexpr auto kBf16 = static_cast<std::size_t>(model::Datatype::Bfloat16);
constexpr double kTrueGemm = 0.65;    ///< the synthetic truth's 16-bit GEMM efficiency (prior centre 0.8)
constexpr double kTrueCompute = 0.9;  ///< the software's compute efficiency (its prior centre)
constexpr double kPriorWeight = 0.05; ///< calibration_parameters.h: one prior sigma = 5 % off
const char *const kFamilyA = "korthikanti2022-selene-a100";
const char *const kFamilyB = "megascale-megatron-baseline-a100";

/// The truth: every parameter at its prior centre (calibration_parameters.h, calibration_problem.cpp)
/// except the 16-bit GEMM efficiency.
scenario::CalibrationSet truth()
{
    scenario::CalibrationSet t;
    t.info = { "truth", "Synthetic truth", "tst_calibrate_synthetic" };
    t.gemmHalfDepth = 128;
    scenario::GpuCalibration &gpu = t.gpus["default"];
    gpu.gemmEfficiency[kFp16] = gpu.gemmEfficiency[kBf16] = kTrueGemm;
    gpu.attentionEfficiency = 0.45;
    gpu.hbmEfficiency = 0.8;
    scenario::SoftwareCalibration &software = t.software["default"];
    software.computeEfficiency = kTrueCompute;
    software.blockOverhead_s = 30e-6;
    software.overlapEfficiency = 0.8;
    t.networks["scale_up"].efficiency = 0.8;
    t.networks["scale_out"].efficiency = 0.8;
    return t;
}

const scenario::FittedParameter *parameter(const scenario::CalibrationFit &fit, const std::string &name)
{
    for (const scenario::FittedParameter &p : fit.calibration.fit->parameters)
        if (p.name == name)
            return &p;
    return nullptr;
}

/// log(predicted / measured) of every run with `calibration`.
std::vector<double> logResiduals(const std::vector<io::Measurement> &runs,
                                 const scenario::PresetLibrary &library,
                                 const scenario::CalibrationSet &calibration)
{
    std::vector<double> out;
    for (const scenario::ValidationRow &row : scenario::validateMeasurements(runs, library, &calibration))
        out.push_back(row.predicted_s ? std::log(*row.predicted_s / row.measured_s) : NAN);
    return out;
}

} // namespace

class tst_CalibrateSynthetic : public QObject {
    Q_OBJECT

private:
    scenario::PresetLibrary mLibrary;   ///< without calibration presets: the runs use only what is fitted
    std::vector<io::Measurement> mRuns; ///< a few runs of two A100 families, "measured" under truth()

    /// The runs with family B's measured times multiplied by `factorB`.
    [[nodiscard]] std::vector<io::Measurement> runs(double factorB) const
    {
        std::vector<io::Measurement> out = mRuns;
        for (io::Measurement &m : out)
            if (m.family == kFamilyB)
                m.measuredIterationTime_s *= factorB;
        return out;
    }

    [[nodiscard]] scenario::CalibrationFit fit(const std::vector<io::Measurement> &measured, bool leaveOut,
                                               const scenario::CalibrationSet *start = nullptr) const
    {
        scenario::CalibrationFitOptions options;
        options.software = "synthetic"; // one software stack for every run
        options.leaveOneFamilyOut = leaveOut;
        options.start = start;
        return scenario::fitCalibration(measured, mLibrary, options);
    }

private slots:
    void initTestCase()
    {
        mLibrary = io::loadPresetLibrary(PRESETS_DIR);
        mLibrary.calibrations.clear();
        std::map<std::string, int> taken;
        for (io::Measurement &m : io::loadMeasurements({ PRESETS_DIR "/measurements" })) {
            if ((m.family != kFamilyA && m.family != kFamilyB) || taken[m.family]++ >= 3)
                continue;
            m.scenario.calibration = {};
            mRuns.push_back(std::move(m));
        }
        QCOMPARE(mRuns.size(), std::size_t { 6 });
        const scenario::CalibrationSet t = truth();
        const std::vector<scenario::ValidationRow> rows = scenario::validateMeasurements(mRuns, mLibrary, &t);
        for (std::size_t i = 0; i < rows.size(); ++i) {
            QVERIFY2(rows[i].predicted_s && *rows[i].predicted_s > 0, rows[i].id.c_str());
            mRuns[i].measuredIterationTime_s = *rows[i].predicted_s;
        }
    }

    void recoversTheKnownParameters()
    {
        const scenario::CalibrationFit f = fit(mRuns, false);
        QVERIFY(f.calibration.fit.has_value());
        // The runs differ from the start (the priors) by the GEMM efficiency: 0.65 instead of 0.8.
        QVERIFY2(f.beforeStats.meanAbsError > 0.05, qPrintable(QString::number(f.beforeStats.meanAbsError)));
        QVERIFY2(f.afterStats.meanAbsError < 0.01, qPrintable(QString::number(f.afterStats.meanAbsError)));
        // A GEMM's rate is the GEMM efficiency times the software's compute efficiency (every
        // kernel's rate is multiplied by the latter), so the runs determine their product, not
        // the split: 0.65 x 0.9 = 0.585. Its standard error, whatever the correlation of the two,
        // is at most the sum of their relative standard errors (first-order propagation).
        const scenario::FittedParameter *gemm = parameter(f, "ampere/gemm_efficiency/16-bit");
        const scenario::FittedParameter *compute = parameter(f, "software/synthetic/compute_efficiency");
        QVERIFY(gemm && compute);
        const double product = gemm->value * compute->value;
        const double error
            = product * (gemm->standardError / gemm->value + compute->standardError / compute->value);
        qInfo("GEMM rate %.5g +/- %.3g (GEMM %.4g, compute %.4g), truth %.5g", product, error, gemm->value,
              compute->value, kTrueGemm * kTrueCompute);
        QVERIFY(error > 0);
        QVERIFY2(std::fabs(product - kTrueGemm * kTrueCompute) <= 3 * error,
                 qPrintable(QString::number(product)));
        // The prior alone would have it at 0.8 x 0.9 = 0.72: the runs moved it.
        QVERIFY(std::fabs(product - 0.72) > 5 * error);
    }

    void leaveOneFamilyOutHoldsTheFamilyBack()
    {
        // Family B measured 30 % slower than the truth predicts: a fold without B predicts B as
        // the truth does (fitted on A alone), so B's left-out error (measured / predicted - 1) is
        // 1.3 - 1 = 0.3 up to the fit's recovery error; the fit with B in it compromises.
        const scenario::CalibrationFit f = fit(runs(1.3), true);
        int rowsB = 0;
        for (const scenario::ValidationRow &row : f.leftOut) {
            if (row.family != kFamilyB)
                continue;
            ++rowsB;
            QVERIFY(row.error.has_value());
            qInfo("%s left out: error %+.4f", row.id.c_str(), *row.error);
            QVERIFY2(std::fabs(*row.error - 0.3) < 0.03, qPrintable(QString::number(*row.error)));
        }
        QCOMPARE(rowsB, 3);
        for (const scenario::ValidationRow &row : f.after)
            if (row.family == kFamilyB)
                QVERIFY2(*row.error < 0.25, qPrintable(QString::number(*row.error))); // in-sample
    }

    void foldsStartFromThePriors()
    {
        // A start calibration that has "seen" something else: a 2 ms latency on every link. The
        // folds must not use it (they start from the priors), so B's left-out error stays 0.3.
        scenario::CalibrationSet start = truth();
        start.networks["scale_up"].latency_s = 2e-3;
        start.networks["scale_out"].latency_s = 2e-3;
        const scenario::CalibrationFit f = fit(runs(1.3), true, &start);
        int rowsB = 0;
        for (const scenario::ValidationRow &row : f.leftOut) {
            if (row.family != kFamilyB)
                continue;
            ++rowsB;
            qInfo("%s left out (start with latency): error %+.4f", row.id.c_str(), *row.error);
            QVERIFY2(std::fabs(*row.error - 0.3) < 0.03, qPrintable(QString::number(*row.error)));
        }
        QCOMPARE(rowsB, 3);
    }

    void fitsTheMoeHostOperatorsAsTheModelRunsThem()
    {
        // Mixture-of-experts runs whose dropless dispatcher makes the host wait, "measured" under
        // the truth, where each host operator costs its documented time (hostOpScale 1): the fit
        // must cost them the same way as validation does, or no value of what it fits can give
        // the runs' times back.
        std::vector<io::Measurement> moe;
        for (io::Measurement &m : io::loadMeasurements({ PRESETS_DIR "/measurements/megatron-bridge-moe" })) {
            m.scenario.calibration = {};
            moe.push_back(std::move(m));
        }
        QVERIFY(moe.size() >= 3);
        scenario::CalibrationSet t = truth();
        t.software["default"].hostOpScale = 1;
        const std::vector<scenario::ValidationRow> rows = scenario::validateMeasurements(moe, mLibrary, &t);
        for (std::size_t i = 0; i < rows.size(); ++i) {
            QVERIFY2(rows[i].predicted_s && *rows[i].predicted_s > 0, rows[i].id.c_str());
            moe[i].measuredIterationTime_s = *rows[i].predicted_s;
        }
        const scenario::CalibrationFit f = fit(moe, false);
        qInfo("MoE runs under the truth: mean |error| %.4f before, %.4f after the fit", f.beforeStats.meanAbsError,
              f.afterStats.meanAbsError);
        // (the priors hold the parameters the eight runs barely inform a little off the truth)
        QVERIFY2(f.afterStats.meanAbsError < 0.02, qPrintable(QString::number(f.afterStats.meanAbsError)));
    }

    void boundedFitKeepsTheDocumentedRanges()
    {
        // Every run measured three times slower than the truth: the GEMM rate the runs then want,
        // 0.65 x 0.9 / 3 = 0.195, is below any that the documented ranges allow (the GEMM
        // efficiency from 0.5, the compute efficiency from 0.5: 0.25), so something must give.
        std::vector<io::Measurement> slow = mRuns;
        for (io::Measurement &m : slow)
            m.measuredIterationTime_s *= 3;
        scenario::CalibrationFitOptions options;
        options.software = "synthetic";
        options.leaveOneFamilyOut = false;
        options.leaveOneGenerationOut = false;
        const scenario::CalibrationFit free = scenario::fitCalibration(slow, mLibrary, options);
        options.bounded = true;
        const scenario::CalibrationFit bounded = scenario::fitCalibration(slow, mLibrary, options);
        const auto report = [](const char *label, const scenario::CalibrationFit &f) {
            int atBound = 0;
            for (const scenario::FittedParameter &p : f.calibration.fit->parameters) {
                if (!(p.low < p.high))
                    return -1; // every parameter has its range
                if (p.atBound) {
                    ++atBound;
                    qInfo("%s: %s = %.4g at or beyond [%g, %g]", label, p.name.c_str(), p.value, p.low,
                          p.high);
                }
            }
            return atBound;
        };
        // Unbounded, the fit follows the runs beyond the ranges and says where.
        QVERIFY(report("free", free) > 0);
        bool outside = false;
        for (const scenario::FittedParameter &p : free.calibration.fit->parameters)
            outside = outside || p.value < p.low || p.value > p.high;
        QVERIFY(outside);
        // Bounded, every value stays in its range, those held at an end are named and owe their
        // value to the bound (no standard error), and the runs are fitted worse.
        QVERIFY(report("bounded", bounded) > 0);
        for (const scenario::FittedParameter &p : bounded.calibration.fit->parameters) {
            QVERIFY2(p.low <= p.value && p.value <= p.high,
                     qPrintable(QStringLiteral("%1 = %2 outside [%3, %4]")
                                    .arg(QString::fromStdString(p.name))
                                    .arg(p.value)
                                    .arg(p.low)
                                    .arg(p.high)));
            if (p.atBound)
                QCOMPARE(p.standardError, 0.0);
        }
        qInfo("mean |error| after the fit: free %.4f, bounded %.4f", free.afterStats.meanAbsError,
              bounded.afterStats.meanAbsError);
        QVERIFY(bounded.afterStats.meanAbsError > free.afterStats.meanAbsError + 0.01);
    }

    void standardErrorsByTheDeltaMethod();
};

void tst_CalibrateSynthetic::standardErrorsByTheDeltaMethod()
{
    // Real measured times (noise the model cannot fit), family A's three runs.
    std::vector<io::Measurement> real;
    for (io::Measurement &m : io::loadMeasurements({ PRESETS_DIR "/measurements" }))
        if (m.family == kFamilyA && real.size() < 3) {
            m.scenario.calibration = {};
            real.push_back(std::move(m));
        }
    scenario::CalibrationFitOptions options;
    options.leaveOneFamilyOut = false;
    const scenario::CalibrationFit f = scenario::fitCalibration(real, mLibrary, options);
    // s^2 = mean squared log residual of the runs at the fit.
    double s2 = 0;
    for (const double r : logResiduals(real, mLibrary, f.calibration))
        s2 += r * r / static_cast<double>(real.size());
    QVERIFY(s2 > 0);
    struct Case {
        const char *name;
        double sigma;                        ///< prior standard deviation (raw space)
        std::function<double(double)> slope; ///< d value / d raw
        std::function<void(scenario::CalibrationSet &, double)> set;
    };
    const Case cases[] = {
        { "gemm_half_depth", 1.0, [](double v) { return v; },
          [](scenario::CalibrationSet &c, double v) { c.gemmHalfDepth = v; } },
        { "network/scale_up/efficiency", 0.7, [](double v) { return v * (1 - v); },
          [](scenario::CalibrationSet &c, double v) { c.networks["scale_up"].efficiency = v; } },
    };
    for (const Case &c : cases) {
        const scenario::FittedParameter *p = parameter(f, c.name);
        QVERIFY2(p, c.name);
        const double v = p->value;
        const double slope = c.slope(v);
        // Information about v alone: sum of (d r_i / d v)^2 by a central difference, plus the
        // prior's (kPriorWeight / sigma)^2 (d raw / d v)^2.
        const double h = 1e-3 * v;
        scenario::CalibrationSet up = f.calibration;
        scenario::CalibrationSet down = f.calibration;
        c.set(up, v + h);
        c.set(down, v - h);
        const std::vector<double> ru = logResiduals(real, mLibrary, up);
        const std::vector<double> rd = logResiduals(real, mLibrary, down);
        double information = std::pow(kPriorWeight / (c.sigma * slope), 2);
        for (std::size_t i = 0; i < ru.size(); ++i)
            information += std::pow((ru[i] - rd[i]) / (2 * h), 2);
        const double lower = std::sqrt(s2 / information);                    // (A^-1)_ii >= 1 / A_ii
        const double upper = slope * std::sqrt(s2) * c.sigma / kPriorWeight; // A >= the prior alone
        qInfo("%s = %.5g: standard error %.4g, delta-method bounds [%.4g, %.4g]", c.name, v, p->standardError,
              lower, upper);
        QVERIFY2(p->standardError >= 0.99 * lower && p->standardError <= 1.01 * upper, c.name);
    }
}

QTEST_GUILESS_MAIN(tst_CalibrateSynthetic)
#include "tst_calibrate_synthetic.moc"
