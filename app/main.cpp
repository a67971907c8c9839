#include "mainwindow.h"

#include "charts/chartexport.h"
#include "common/safewrite.h"
#include "report/headless.h"
#include "report/headlessstatus.h"
#include "report/provenance.h"
#include "studio/latencybench.h"
#include "studio/recalculator.h"
#include "studio/scenariodocument.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QSize>
#include <QTimer>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>

namespace {

/// The options of an interactive start (the headless exports add theirs: report/headless.h).
struct Options {
    QCommandLineOption scenario { QStringLiteral("scenario"), QStringLiteral("Open FILE (*.gapstudio.json)."),
                                  QStringLiteral("FILE") };
    QCommandLineOption screenshot { QStringLiteral("screenshot"),
                                    QStringLiteral("Render the main window to OUT.png and exit."),
                                    QStringLiteral("OUT.png") };
    QCommandLineOption bench { QStringLiteral("bench-latency"),
                               QStringLiteral(
                                   "Print the change-to-results latency over N slider steps and exit."),
                               QStringLiteral("N"), QStringLiteral("200") };
    QCommandLineOption windowSize { QStringLiteral("window-size"),
                                    QStringLiteral(
                                        "Size of the window for --screenshot (default 1600x1000)."),
                                    QStringLiteral("WxH"), QStringLiteral("1600x1000") };
};

/// --window-size WxH, within what a screen shows (320 x 240 to 7680 x 4320, an 8K display); an
/// empty size if the text is not one (the caller says so, exit 2).
QSize parseWindowSize(const QString &text)
{
    const QStringList parts = text.split(QLatin1Char('x'));
    bool okW = false, okH = false;
    const int w = parts.size() == 2 ? parts[0].toInt(&okW) : 0;
    const int h = parts.size() == 2 ? parts[1].toInt(&okH) : 0;
    if (!okW || !okH || w < 320 || w > 7680 || h < 240 || h > 4320)
        return {};
    return { w, h };
}

/// --help and --version, written and checked: a message that never reached its reader (standard
/// output on a full disk) is exit 3, as in the CLI and the exports.
int printAndExit(const QString &text)
{
    std::fputs(qPrintable(text), stdout);
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        gapstudio::views::printHeadlessError(QStringLiteral("standard output: cannot write: ")
                                             + QString::fromLocal8Bit(std::strerror(errno)));
        return gapstudio::views::kHeadlessWriteFailed;
    }
    return 0;
}

/// --bench-latency N: prints the change-to-results latency over `steps` slider steps and exits.
int benchLatency(gapstudio::MainWindow &window, int steps)
{
    QTimer::singleShot(0, &window, [&window, steps] {
        const auto report = gapstudio::views::runLatencyBench(window.document(), window.recalculator(), steps,
                                                              window.canvasView());
        std::printf("%s\n", qPrintable(report.text()));
        QApplication::exit(0);
    });
    return QApplication::exec();
}

/// --screenshot OUT.png: renders the window of the design read from `file` to `out` and exits
/// with the exports' status.
int screenshot(gapstudio::MainWindow &window, const QString &file, const QString &out)
{
    const gapstudio::views::ResultsPtr results = window.recalculator()->latest();
    if (const int status = gapstudio::views::headlessInputStatus(*results, file))
        return status;
    QTimer::singleShot(800, &window, [&window, file, out] { // let docks, charts and queued replots settle
        // The exports' contract: 3 if the picture cannot be written, 1 for an infeasible design.
        const gapstudio::views::ResultsPtr shown = window.recalculator()->latest();
        std::optional<double> stepTime_s;
        if (shown->ok())
            stepTime_s = shown->evaluation.stats.total_time;
        QString error;
        if (!gapstudio::views::exportScreenshot(
                window.grab().toImage(), out,
                gapstudio::views::scenarioProvenance(window.document()->selfContained()), stepTime_s,
                &error)) {
            gapstudio::views::printHeadlessError(error.isEmpty() ? out : error);
            QApplication::exit(gapstudio::views::kHeadlessWriteFailed);
            return;
        }
        QApplication::exit(gapstudio::views::headlessFinish(*window.recalculator()->latest(), file));
    });
    return QApplication::exec();
}

} // namespace

int main(int argc, char *argv[])
{
    // --export-report / --export-charts run without a window (and without a display).
    gapstudio::views::preferOffscreenForHeadless(argc, argv);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("GapStudio"));
    QApplication::setApplicationVersion(QStringLiteral(GAPSTUDIO_VERSION));
    QApplication::setOrganizationName(QStringLiteral("GapStudio"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Co-design AI datacenters for LLM training"));
    parser.addHelpOption();
    parser.addVersionOption();
    const Options o;
    parser.addOptions({ o.scenario, o.screenshot, o.bench, o.windowSize });
    parser.addOptions(gapstudio::views::headlessOptions());
    // Headless exports parse their own arguments (bad ones: exit 2, one line on stderr).
    if (gapstudio::views::isHeadlessRequest(app.arguments()))
        return gapstudio::views::runHeadless(app.arguments());
    if (!parser.parse(app.arguments())) {
        gapstudio::views::printHeadlessError(parser.errorText());
        return gapstudio::views::kHeadlessBadInput;
    }
    if (parser.isSet(QStringLiteral("help")))
        return printAndExit(parser.helpText());
    if (parser.isSet(QStringLiteral("version")))
        return printAndExit(QApplication::applicationName() + QLatin1Char(' ')
                            + QApplication::applicationVersion() + QLatin1Char('\n'));
    const QSize windowSize = parseWindowSize(parser.value(o.windowSize));
    if (windowSize.isEmpty()) {
        gapstudio::views::printHeadlessError(
            QStringLiteral("--window-size %1: expected WxH with W in [320, 7680] and H in [240, 4320]")
                .arg(parser.value(o.windowSize)));
        return gapstudio::views::kHeadlessBadInput;
    }

    // --screenshot is a headless run too: a scenario that cannot be read fails as the exports do
    // (it once exited 0 with the default design on the picture).
    std::optional<gapstudio::scenario::Scenario> requested;
    if (parser.isSet(o.screenshot) && parser.isSet(o.scenario)) {
        QString error;
        // The picture may not replace the scenario it shows (as no export may replace an input).
        if (!gapstudio::views::isNotAnInput(parser.value(o.screenshot), { parser.value(o.scenario) },
                                            &error)) {
            gapstudio::views::printHeadlessError(error);
            return gapstudio::views::kHeadlessBadInput;
        }
        requested = gapstudio::views::restoreScenario(parser.value(o.scenario), &error);
        if (!requested) {
            gapstudio::views::printHeadlessError(error);
            return gapstudio::views::kHeadlessBadInput;
        }
    }
    gapstudio::MainWindow window(parser.value(o.scenario));
    if (requested && window.document()->fileName().isEmpty()) { // an exported chart or report
        window.document()->reset(*requested);
        window.recalculator()->recalculateNow();
    }
    if (parser.isSet(o.screenshot))
        window.resize(windowSize); // from the first show on (the docks' shares: docksizer.h)
    window.show();
    if (parser.isSet(o.bench))
        return benchLatency(window, parser.value(o.bench).toInt());
    if (parser.isSet(o.screenshot)) {
        const QString file
            = parser.isSet(o.scenario) ? parser.value(o.scenario) : QStringLiteral("default scenario");
        return screenshot(window, file, parser.value(o.screenshot));
    }
    window.restoreWindowState();
    window.offerRecovery();
    window.showFirstRunHint();
    return QApplication::exec();
}
