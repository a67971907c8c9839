#include "validation/usercalibration.h"

#include "gapstudio/io/preset_json.h"
#include "gapstudio/io/preset_locations.h"

#include <QDir>
#include <QFileInfo>
#include <QObject>

#include <variant>

namespace gapstudio::views {

QString userCalibrationsDirectory()
{
    const std::string presets = io::userPresetsDirectory();
    return presets.empty() ? QString() : QString::fromStdString(presets) + QStringLiteral("/calibrations");
}

QString newCalibrationId(const QString &name, const scenario::PresetLibrary &library,
                         const QString &directory)
{
    QString base;
    for (const QChar c : name.toLower()) {
        if (c.isLetterOrNumber() && c.unicode() < 128)
            base += c;
        else if (!base.isEmpty() && !base.endsWith(QLatin1Char('-')))
            base += QLatin1Char('-');
    }
    while (base.endsWith(QLatin1Char('-')))
        base.chop(1);
    if (base.isEmpty())
        base = QStringLiteral("my-calibration");
    const auto taken = [&](const QString &id) {
        return library.calibrations.contains(id.toStdString())
               || QFileInfo::exists(QDir(directory).filePath(id + QStringLiteral(".json")));
    };
    QString id = base;
    for (int n = 2; taken(id); ++n)
        id = QStringLiteral("%1-%2").arg(base).arg(n);
    return id;
}

QString saveUserCalibration(const scenario::CalibrationSet &calibration, const QString &directory,
                            QString *error)
{
    const auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return QString();
    };
    if (directory.isEmpty())
        return fail(
            QObject::tr("There is no user data folder to save presets in (neither XDG_DATA_HOME nor HOME "
                        "is set)."));
    if (!QDir().mkpath(directory))
        return fail(QObject::tr("Cannot create the folder %1").arg(directory));
    const QString path
        = QDir(directory).filePath(QString::fromStdString(calibration.info.id) + QStringLiteral(".json"));
    try {
        io::savePresetFile(calibration, path.toStdString());
        const io::PresetFile back = io::loadPresetFile(path.toStdString());
        if (!std::holds_alternative<scenario::CalibrationSet>(back))
            return fail(QObject::tr("%1: written, but it does not read back as a calibration").arg(path));
    } catch (const std::exception &e) { // io::InputError: "file: /pointer: message"
        return fail(QString::fromUtf8(e.what()));
    }
    return path;
}

} // namespace gapstudio::views
