#include "designspace/gridfile.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/io/safe_file.h"

#include <nlohmann/json.hpp>

#include <QFileInfo>

#include <algorithm>
#include <stdexcept>

namespace gapstudio::views {

namespace {

using json = nlohmann::ordered_json;

/// A problem of one line (caught and prefixed with the file and line number).
struct LineError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

const json &member(const json &object, const char *key, json::value_t type, const char *expected)
{
    const auto it = object.find(key);
    if (it == object.end())
        throw LineError(std::string("\"") + key + "\" is missing");
    if (it->type() != type && !(type == json::value_t::number_float && it->is_number()))
        throw LineError(std::string("\"") + key + "\" should be " + expected + ", got " + it->dump());
    return *it;
}

std::map<std::string, double> numbers(const json &object)
{
    std::map<std::string, double> out;
    for (const auto &[key, value] : object.items())
        if (value.is_number())
            out[key] = value.get<double>();
    return out;
}

/// One line of JSON, nested at most io::kMaxJsonDepth deep as every other reader's input: a deeper
/// line is refused while it is parsed, before anything recursive (printing it, the panel) sees it.
json parseLine(const QByteArray &line)
{
    const auto depthLimit = [](int depth, json::parse_event_t event, json &) {
        if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start)
            && depth >= static_cast<int>(io::kMaxJsonDepth))
            throw LineError("nested deeper than " + std::to_string(io::kMaxJsonDepth) + " levels");
        return true;
    };
    return json::parse(line.constBegin(), line.constEnd(), depthLimit);
}

GridPoint parsePoint(const json &line, GridFile &file)
{
    if (!line.is_object())
        throw LineError("expected a JSON object, got " + line.dump());
    GridPoint p;
    const json &index = member(line, "point", json::value_t::number_unsigned, "a whole number >= 0");
    p.index = index.get<std::uint64_t>();
    const json &overrides = member(line, "overrides", json::value_t::object, "an object of knob values");
    const bool first = file.points.empty();
    if (first)
        for (const auto &item : overrides.items())
            file.knobs.push_back(item.key());
    if (overrides.size() != file.knobs.size())
        throw LineError("varies " + std::to_string(overrides.size()) + " knobs, the first line "
                        + std::to_string(file.knobs.size()) + " (one grid per file)");
    for (const std::string &knob : file.knobs) {
        const auto value = overrides.find(knob);
        if (value == overrides.end())
            throw LineError("\"overrides\" has no \"" + knob + "\" (the first line varies it)");
        if (!value->is_number())
            throw LineError("\"overrides\".\"" + knob + "\" should be a number, got " + value->dump());
        p.knobs.push_back(value->get<double>());
    }
    p.status = member(line, "status", json::value_t::string, "a string").get<std::string>();
    if (const auto message = line.find("message"); message != line.end() && message->is_string())
        p.message = message->get<std::string>();
    if (const auto layout = line.find("layout"); layout != line.end() && layout->is_object())
        p.layout = numbers(*layout);
    if (p.status == "ok") {
        p.results = numbers(member(line, "results", json::value_t::object, "an object of numbers"));
        if (file.metrics.empty())
            for (const auto &item : line["results"].items())
                if (item.value().is_number())
                    file.metrics.push_back(item.key());
    }
    return p;
}

} // namespace

std::optional<GridFile> parseGridFile(const QByteArray &text, const QString &path, QString *error)
{
    GridFile file;
    file.path = path;
    const QString name = QFileInfo(path).fileName();
    const QList<QByteArray> lines = text.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QByteArray line = lines[i].trimmed();
        if (line.isEmpty())
            continue;
        try {
            file.points.push_back(parsePoint(parseLine(line), file));
        } catch (const std::exception &e) { // LineError or nlohmann's parse error
            if (error)
                *error = QObject::tr("%1, line %2: %3").arg(name).arg(i + 1).arg(QString::fromUtf8(e.what()));
            return std::nullopt;
        }
    }
    if (file.points.empty()) {
        if (error)
            *error
                = QObject::tr("%1: no grid points (expected the JSON lines of gapstudio-cli grid)").arg(name);
        return std::nullopt;
    }
    file.knobValues.resize(file.knobs.size());
    for (std::size_t k = 0; k < file.knobs.size(); ++k) {
        std::vector<double> &values = file.knobValues[k];
        for (const GridPoint &p : file.points)
            values.push_back(p.knobs[k]);
        std::sort(values.begin(), values.end());
        values.erase(std::unique(values.begin(), values.end()), values.end());
    }
    return file;
}

std::optional<GridFile> readGridFile(const QString &path, QString *error)
{
    // The readers' limits (safe_file.h): a regular file of at most io::kMaxInputBytes, so that a
    // FIFO does not block the window and /dev/zero is not read until memory runs out.
    std::string content;
    try {
        content = io::readInputFile(path.toStdString());
    } catch (const io::InputError &e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return std::nullopt;
    }
    return parseGridFile(QByteArray(content.data(), qsizetype(content.size())), path, error);
}

} // namespace gapstudio::views
