#include "mainwindow.h"

#include <QApplication>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("GapStudio"));
    QApplication::setApplicationVersion(QStringLiteral(GAPSTUDIO_VERSION));
    QApplication::setOrganizationName(QStringLiteral("GapStudio"));

    gapstudio::MainWindow window;
    window.show();
    return QApplication::exec();
}
