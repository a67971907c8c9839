#include "scenario/defaultscenario.h"

#include <nlohmann/json.hpp>

#include <QByteArray>
#include <QFile>
#include <QString>

namespace gapstudio::views {

namespace {

nlohmann::json readJsonResource(const char *path)
{
    QFile file(QString::fromUtf8(path));
    if (!file.open(QIODevice::ReadOnly))
        throw io::InputError(path, "", "cannot open resource: " + file.errorString().toStdString());
    const QByteArray bytes = file.readAll();
    try {
        return nlohmann::json::parse(bytes.cbegin(), bytes.cend());
    } catch (const nlohmann::json::parse_error &error) {
        throw io::InputError(path, "", error.what());
    }
}

} // namespace

io::CalculonInputs defaultScenario()
{
    return {
        io::parseApplication(readJsonResource(kDefaultModelResource), kDefaultModelResource),
        io::parseExecution(readJsonResource(kDefaultExecutionResource), kDefaultExecutionResource),
        io::parseSystem(readJsonResource(kDefaultSystemResource), kDefaultSystemResource),
    };
}

} // namespace gapstudio::views
