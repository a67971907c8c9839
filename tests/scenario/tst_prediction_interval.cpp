// The prediction interval (scenario/prediction_interval.h). Expected values come from outside the
// code under test: a parameter's part is the step time's log-derivative measured through the
// preset library (the calibration file's value moved, the scenario compiled and run again) times
// its standard error; correlated parts add as the GUM's eq. 13 does by hand; the model error is
// sqrt(pi / 2) = 1.2533141373155003 times the mean |error|. And `eval` prints the interval.
#include "relative_near.h"

#include "gapstudio/io/input_error.h"
#include "gapstudio/io/preset_json.h"
#include "gapstudio/scenario/pipeline.h"

#include <QProcess>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <functional>

using namespace gapstudio;

namespace {

constexpr double kSqrtHalfPi = 1.2533141373155003; // sqrt(pi / 2), to 17 digits

/// A scenario with a calibration whose fit has every standard error 0 (set some below) and no
/// out-of-sample error, so that only what a test sets widens the interval.
struct Setup {
    scenario::PresetLibrary library;
    scenario::Scenario scenario;

    scenario::CalibrationSet &calibration() { return library.calibrations.at("shipped"); }
    scenario::FitSummary &fit() { return *calibration().fit; }
    int indexOf(const std::string &name)
    {
        for (std::size_t i = 0; i < fit().parameters.size(); ++i)
            if (fit().parameters[i].name == name)
                return static_cast<int>(i);
        return -1;
    }
    scenario::FittedParameter &parameter(const std::string &name)
    {
        const int i = indexOf(name);
        if (i < 0)
            throw std::logic_error("no fitted parameter " + name);
        return fit().parameters[static_cast<std::size_t>(i)];
    }
    [[nodiscard]] scenario::PipelineResult run() const { return scenario::runScenario(scenario, library); }
};

Setup quietSetup(const char *scenarioFile)
{
    Setup s;
    s.library = io::loadPresetLibrary(PRESETS_DIR);
    s.scenario = io::loadScenario(std::string(PRESETS_DIR "/scenarios/") + scenarioFile);
    scenario::FitSummary &fit = s.fit();
    for (scenario::FittedParameter &p : fit.parameters)
        p.standardError = 0;
    fit.correlation.clear();
    fit.meanAbsError = fit.leaveOneFamilyOutMeanAbsError = 0;
    for (auto &[generation, error] : fit.leaveOneGenerationOutMeanAbsError)
        error = 0;
    return s;
}

/// d ln t / d p through the library: the calibration file's values that `set` writes moved by
/// +-0.1 %, each scenario compiled and run from the start (central difference).
double logDerivative(Setup s, double value, const std::function<void(scenario::CalibrationSet &, double)> &set)
{
    constexpr double h = 1e-3;
    set(s.calibration(), value * (1 + h));
    const double up = s.run().evaluation.stats.total_time;
    set(s.calibration(), value * (1 - h));
    const double down = s.run().evaluation.stats.total_time;
    return (std::log(up) - std::log(down)) / (2 * h * value);
}

} // namespace

class tst_PredictionInterval : public QObject {
    Q_OBJECT

private slots:
    // The Megatron 22B on 8 A100 example: three parameters that set different kinds of input (a
    // software stack's, a GPU architecture's, a link's), each alone: its part is |d ln t / d p| x
    // its standard error.
    void oneParameterIsItsDerivativeTimesItsError_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("software") << QStringLiteral("software/default/compute_efficiency");
        QTest::newRow("gpu") << QStringLiteral("ampere/hbm_efficiency");
        QTest::newRow("link") << QStringLiteral("network/scale_up/efficiency");
    }
    void oneParameterIsItsDerivativeTimesItsError()
    {
        QFETCH(QString, name);
        Setup s = quietSetup("val01-megatron-22b-a100.gapstudio.json");
        scenario::FittedParameter &p = s.parameter(name.toStdString());
        p.standardError = 0.05 * p.value;
        const std::map<QString, std::function<void(scenario::CalibrationSet &, double)>> setters = {
            { QStringLiteral("software/default/compute_efficiency"),
              [](scenario::CalibrationSet &c, double v) { c.software.at("default").computeEfficiency = v; } },
            { QStringLiteral("ampere/hbm_efficiency"),
              [](scenario::CalibrationSet &c, double v) { c.gpus.at("ampere").hbmEfficiency = v; } },
            { QStringLiteral("network/scale_up/efficiency"),
              [](scenario::CalibrationSet &c, double v) { c.networks.at("scale_up").efficiency = v; } },
        };
        const double slope = logDerivative(s, p.value, setters.at(name));
        QVERIFY(slope < 0); // a higher efficiency, a shorter step

        const scenario::PipelineResult r = s.run();
        QVERIFY(r.interval);
        QCOMPARE(r.interval->modelSigma, 0.0);
        test::relativeNear(r.interval->parameterSigma, std::fabs(slope) * p.standardError, 2e-3);
        QCOMPARE(r.interval->sigma, r.interval->parameterSigma);
        QCOMPARE(r.interval->parameters.size(), std::size_t { 1 });
        QCOMPARE(QString::fromStdString(r.interval->parameters.front().name), name);
    }

    // A software stack with an entry and a fitted parameter of its own: its value and its error
    // are the stack's, not the default stack's.
    void aStacksOwnParameter()
    {
        Setup s = quietSetup("val01-megatron-22b-a100.gapstudio.json");
        const double own = 0.85;
        s.calibration().software["megatron-core"].computeEfficiency = own;
        s.fit().parameters.push_back({ "software/megatron-core/compute_efficiency", own, 0.04 });
        s.parameter("software/default/compute_efficiency").standardError = 0.01;
        const double slope = logDerivative(s, own, [](scenario::CalibrationSet &c, double v) {
            c.software.at("megatron-core").computeEfficiency = v;
        });
        const scenario::PipelineResult r = s.run();
        QVERIFY(r.interval);
        QCOMPARE(r.compiled->calibration.computeEfficiency, own);
        test::relativeNear(r.interval->parameterSigma, std::fabs(slope) * 0.04, 2e-3);
        QCOMPARE(r.interval->parameters.front().name, std::string("software/megatron-core/compute_efficiency"));
    }

    // Two parameters: uncorrelated their parts add in quadrature, fully correlated they add,
    // anti-correlated they subtract (both derivatives are negative), as eq. 13 gives by hand.
    void correlatedParametersAddAsTheGumSays()
    {
        const std::string a = "software/default/compute_efficiency";
        const std::string b = "ampere/hbm_efficiency";
        const auto sigmaWith = [&](double seA, double seB, double rho, bool matrixOfTheFit = true) {
            Setup s = quietSetup("val01-megatron-22b-a100.gapstudio.json");
            s.parameter(a).standardError = seA;
            s.parameter(b).standardError = seB;
            const auto n = s.fit().parameters.size();
            s.fit().correlation.assign(n, std::vector<double>(n, 0.0));
            for (std::size_t i = 0; i < n; ++i)
                s.fit().correlation[i][i] = 1;
            const auto ia = static_cast<std::size_t>(s.indexOf(a));
            const auto ib = static_cast<std::size_t>(s.indexOf(b));
            s.fit().correlation[ia][ib] = s.fit().correlation[ib][ia] = rho;
            if (!matrixOfTheFit) // one parameter more than the matrix has rows: not used
                s.fit().parameters.push_back({ "software/extra/compute_efficiency", 0.9, 0.1 });
            const scenario::PipelineResult r = s.run();
            return r.interval ? r.interval->sigma : -1.0;
        };
        const double onlyA = sigmaWith(0.04, 0, 0);
        const double onlyB = sigmaWith(0, 0.05, 0);
        QVERIFY(onlyA > 0.01 && onlyB > 0.01);
        test::relativeNear(sigmaWith(0.04, 0.05, 0), std::sqrt(onlyA * onlyA + onlyB * onlyB), 1e-9);
        test::relativeNear(sigmaWith(0.04, 0.05, 1), onlyA + onlyB, 1e-9);
        test::relativeNear(sigmaWith(0.04, 0.05, 1, false), std::sqrt(onlyA * onlyA + onlyB * onlyB), 1e-9);
        test::relativeNear(sigmaWith(0.04, 0.05, -1), std::fabs(onlyA - onlyB), 1e-6);
        const double half = std::sqrt(onlyA * onlyA + onlyB * onlyB + onlyA * onlyB); // rho = 0.5
        test::relativeNear(sigmaWith(0.04, 0.05, 0.5), half, 1e-9);
    }

    // The out-of-sample error: the software stack of the example has no entry of its own, so the
    // leave-one-family-out error applies; on a GPU without an entry, the worst generation left out.
    void modelErrorIsTheMeanAbsErrorAsASigma()
    {
        Setup s = quietSetup("val01-megatron-22b-a100.gapstudio.json");
        s.fit().meanAbsError = 0.03;
        s.fit().leaveOneFamilyOutMeanAbsError = 0.10;
        scenario::PipelineResult r = s.run();
        QVERIFY(r.interval);
        QCOMPARE(r.interval->basis, scenario::CalibrationAccuracy::Basis::UnseenSoftware);
        test::relativeNear(r.interval->sigma, 0.10 * kSqrtHalfPi);
        const double t = r.evaluation.stats.total_time;
        test::relativeNear(r.interval->range(t).first, t / std::exp(0.10 * kSqrtHalfPi));
        test::relativeNear(r.interval->range(t).second, t * std::exp(0.10 * kSqrtHalfPi));

        s.library.calibrations.at("shipped").software["megatron-core"] = s.calibration().software.at("default");
        r = s.run();
        QVERIFY(r.interval);
        QCOMPARE(r.interval->basis, scenario::CalibrationAccuracy::Basis::FittedRuns);
        test::relativeNear(r.interval->sigma, 0.03 * kSqrtHalfPi);

        Setup unseen = quietSetup("default.gapstudio.json"); // a projected GPU: no entry
        unseen.fit().leaveOneGenerationOutMeanAbsError = { { "ampere", 0.2 }, { "hopper", 0.3 } };
        r = unseen.run();
        QVERIFY(r.interval);
        QCOMPARE(r.interval->basis, scenario::CalibrationAccuracy::Basis::UnseenGpu);
        test::relativeNear(r.interval->sigma, 0.3 * kSqrtHalfPi);

        unseen.fit().leaveOneGenerationOutMeanAbsError.clear(); // not estimated: no interval
        QVERIFY(!unseen.run().interval);
    }

    // The reference model has no calibration, so no interval.
    void referenceModelHasNone()
    {
        scenario::PipelineOptions reference;
        reference.referenceQuirks = true;
        const scenario::PipelineResult r = scenario::runScenario(
            io::loadScenario(PRESETS_DIR "/scenarios/default.gapstudio.json"), io::loadPresetLibrary(PRESETS_DIR),
            reference);
        QVERIFY(r.ok());
        QVERIFY(!r.interval);
    }

    // A calibration file's correlations and parameter ranges: read back as written; a matrix of
    // the wrong size, not symmetric or without a unit diagonal, a range that is not [low, high]
    // or an at_bound that is not a flag is refused with its place in the file.
    void correlationsInTheCalibrationFile_data()
    {
        QTest::addColumn<QString>("edit");
        QTest::addColumn<QString>("pointer");
        QTest::newRow("rows") << QStringLiteral("rows") << QStringLiteral("/fit/correlation");
        QTest::newRow("columns") << QStringLiteral("columns") << QStringLiteral("/fit/correlation/1");
        QTest::newRow("asymmetric") << QStringLiteral("asymmetric") << QStringLiteral("/fit/correlation/1/0");
        QTest::newRow("diagonal") << QStringLiteral("diagonal") << QStringLiteral("/fit/correlation/2/2");
        QTest::newRow("above one") << QStringLiteral("above one") << QStringLiteral("/fit/correlation/0/1");
        QTest::newRow("range of one")
            << QStringLiteral("range of one") << QStringLiteral("/fit/parameters/0/range");
        QTest::newRow("range reversed")
            << QStringLiteral("range reversed") << QStringLiteral("/fit/parameters/0/range");
        QTest::newRow("at_bound not a flag")
            << QStringLiteral("at_bound") << QStringLiteral("/fit/parameters/0/at_bound");
    }
    void correlationsInTheCalibrationFile()
    {
        QFETCH(QString, edit);
        QFETCH(QString, pointer);
        const scenario::CalibrationSet shipped = io::loadPresetLibrary(PRESETS_DIR).calibrations.at("shipped");
        QVERIFY(shipped.fit && shipped.fit->correlation.size() == shipped.fit->parameters.size());
        const nlohmann::json written = nlohmann::json::parse(io::toJson(shipped).dump());
        QCOMPARE(io::parseCalibration(written, "shipped.json"), shipped);

        nlohmann::json bad = written;
        nlohmann::json &rows = bad["fit"]["correlation"];
        if (edit == "rows")
            rows.erase(rows.size() - 1);
        else if (edit == "columns")
            rows[1].erase(rows[1].size() - 1);
        else if (edit == "asymmetric")
            rows[1][0] = rows[0][1].get<double>() + 0.5;
        else if (edit == "diagonal")
            rows[2][2] = 0.9;
        else if (edit == "range of one")
            bad["fit"]["parameters"][0]["range"] = { 0.5 };
        else if (edit == "range reversed")
            bad["fit"]["parameters"][0]["range"] = { 0.9, 0.5 };
        else if (edit == "at_bound")
            bad["fit"]["parameters"][0]["at_bound"] = "yes";
        else
            rows[0][1] = rows[1][0] = 1.5;
        try {
            (void)io::parseCalibration(bad, "bad.json");
            QFAIL("accepted");
        } catch (const io::InputError &error) {
            const QString message = QString::fromUtf8(error.what());
            QVERIFY2(message.contains(QStringLiteral("bad.json")) && message.contains(pointer + QStringLiteral(":")),
                     qPrintable(message));
        }
    }

    // The user's path: `gapstudio-cli eval` on the default design prints the interval after the
    // calibration's accuracy: the step time's range is t e^-sigma .. t e^sigma, sigma combines the
    // parameters' and the model's parts, and the model's part is the unseen generation's error.
    void evalPrintsTheInterval()
    {
        QProcess process;
        process.start(QStringLiteral(GAPSTUDIO_CLI),
                      { QStringLiteral("eval"), QStringLiteral(PRESETS_DIR "/scenarios/default.gapstudio.json") });
        QVERIFY(process.waitForFinished(120000));
        QCOMPARE(process.exitCode(), 0);
        const nlohmann::json out = nlohmann::json::parse(process.readAllStandardOutput().toStdString());
        const nlohmann::json &i = out.at("prediction_interval");
        const double sigma = i.at("sigma").get<double>();
        const double t = out.at("total_time").get<double>();
        test::relativeNear(i.at("total_time")[0].get<double>(), t / std::exp(sigma));
        test::relativeNear(i.at("total_time")[1].get<double>(), t * std::exp(sigma));
        const double mfu = out.at("total_efficiency").get<double>();
        test::relativeNear(i.at("total_efficiency")[1].get<double>(), mfu * std::exp(sigma));
        test::relativeNear(std::hypot(i.at("parameter_sigma").get<double>(), i.at("model_sigma").get<double>()), sigma);
        QCOMPARE(i.at("basis").get<std::string>(), std::string("unseen_gpu"));
        const double unseen = out.at("calibration_accuracy").at("unseen_gpu_generation_mean_abs_error").get<double>();
        test::relativeNear(i.at("model_sigma").get<double>(), unseen * kSqrtHalfPi);
        QVERIFY(!i.at("parameters").empty());
    }

    // `grid` ends each point's line with the interval (without the parameters' parts): the step
    // time's range is t e^-sigma .. t e^sigma.
    void gridPrintsTheInterval()
    {
        QProcess process;
        process.start(QStringLiteral(GAPSTUDIO_CLI),
                      { QStringLiteral("grid"),
                        QStringLiteral(PRESETS_DIR "/scenarios/gpt3-175b-4096-h100-fp8.gapstudio.json"),
                        QStringLiteral("--vary"), QStringLiteral("gpu.hbm_bandwidth_GBps=3000") });
        QVERIFY(process.waitForFinished(120000));
        QCOMPARE(process.exitCode(), 0);
        const QByteArray line = process.readAllStandardOutput().split('\n').front();
        const nlohmann::json point = nlohmann::json::parse(line.toStdString());
        const nlohmann::json &results = point.at("results");
        const nlohmann::json &i = results.at("prediction_interval");
        const double t = results.at("total_time").get<double>();
        const double sigma = i.at("sigma").get<double>();
        test::relativeNear(i.at("total_time")[0].get<double>(), t / std::exp(sigma));
        test::relativeNear(i.at("total_time")[1].get<double>(), t * std::exp(sigma));
        QVERIFY(!i.contains("parameters"));
    }
};

QTEST_GUILESS_MAIN(tst_PredictionInterval)
#include "tst_prediction_interval.moc"
