#include "validation/runfiles.h"

#include "gapstudio/io/runs_csv.h"

#include <QObject>

#include <map>

namespace gapstudio::views {

LoadedRuns loadRunFiles(const QStringList &paths, const scenario::Scenario &current,
                        const std::vector<io::Measurement> &existing)
{
    LoadedRuns loaded;
    const auto fail = [](const QString &error) { return LoadedRuns { {}, error }; };
    std::map<std::string, std::string> files; // run id -> where it was read
    for (const io::Measurement &m : existing)
        files.emplace(m.id, m.file);
    for (const QString &path : paths) {
        std::vector<io::Measurement> runs;
        try {
            runs = path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive)
                       ? io::loadRunsCsv(path.toStdString(), &current)
                       : io::loadMeasurements({ path.toStdString() });
        } catch (const std::exception &error) { // io::InputError: "file: place: message"
            return fail(QString::fromUtf8(error.what()));
        }
        if (runs.empty())
            return fail(QObject::tr("%1: no measured runs (gapstudio.measurement files) in it").arg(path));
        for (io::Measurement &m : runs) {
            if (const auto [it, inserted] = files.emplace(m.id, m.file); !inserted)
                return fail(QObject::tr("%1: run id \"%2\" is already used by %3")
                                .arg(QString::fromStdString(m.file), QString::fromStdString(m.id),
                                     QString::fromStdString(it->second)));
            loaded.runs.push_back(std::move(m));
        }
    }
    return loaded;
}

} // namespace gapstudio::views
