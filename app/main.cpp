#include "mainwindow.h"

#include "report/headless.h"
#include "studio/latencybench.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include <cstdio>

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
    const QCommandLineOption scenario(QStringLiteral("scenario"), QStringLiteral("Open FILE (*.gapstudio.json)."),
                                      QStringLiteral("FILE"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Render the main window to OUT.png and exit."), QStringLiteral("OUT.png"));
    const QCommandLineOption bench(QStringLiteral("bench-latency"),
                                   QStringLiteral("Print the change-to-results latency over N slider steps and exit."),
                                   QStringLiteral("N"), QStringLiteral("200"));
    const QCommandLineOption windowSize(
        QStringLiteral("window-size"),
        QStringLiteral("Size of the window for --screenshot (default 1600x1000)."), QStringLiteral("WxH"),
        QStringLiteral("1600x1000"));
    parser.addOptions({ scenario, screenshot, bench, windowSize });
    parser.addOptions(gapstudio::views::headlessOptions());
    // Headless exports parse their own arguments (bad ones: exit 2, one line on stderr).
    if (gapstudio::views::isHeadlessRequest(app.arguments()))
        return gapstudio::views::runHeadless(app.arguments());
    parser.process(app);

    gapstudio::MainWindow window(parser.value(scenario));
    window.show();
    if (parser.isSet(bench)) {
        QTimer::singleShot(0, &window, [&] {
            const auto report = gapstudio::views::runLatencyBench(window.document(), window.recalculator(),
                                                                  parser.value(bench).toInt());
            std::printf("%s\n", qPrintable(report.text()));
            QApplication::exit(0);
        });
        return QApplication::exec();
    }
    if (parser.isSet(screenshot)) {
        const QStringList size = parser.value(windowSize).split(QLatin1Char('x'));
        if (size.size() == 2 && size[0].toInt() > 0 && size[1].toInt() > 0)
            window.resize(size[0].toInt(), size[1].toInt());
        QTimer::singleShot(800, &window, [&] { // let docks, charts and queued replots settle
            const bool saved = window.grab().save(parser.value(screenshot));
            if (!saved)
                std::fprintf(stderr, "error: cannot write %s\n", qPrintable(parser.value(screenshot)));
            QApplication::exit(saved ? 0 : 1);
        });
        return QApplication::exec();
    }
    window.restoreWindowState();
    window.offerRecovery();
    window.showFirstRunHint();
    return QApplication::exec();
}
