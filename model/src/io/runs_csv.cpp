// Measured runs as a CSV table (runs_csv.h).
#include "gapstudio/io/runs_csv.h"

#include "gapstudio/io/preset_json.h"
#include "gapstudio/io/safe_file.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

namespace gapstudio::io {

namespace {

namespace fs = std::filesystem;

/// What a column holds.
enum class Column { Scenario, Measured, Id, Name, Family, Notes, Override };

struct ColumnSpec {
    Column kind = Column::Override;
    std::string name;                                ///< as written in the header
    const scenario::OverrideKey *override = nullptr; ///< Column::Override only
};

/// The layout's overrides by their short names (README: "Calibrate to my runs").
constexpr const char *kLayoutShortNames[]
    = { "tensor_par", "pipeline_par", "data_par", "microbatch_size", "batch_size" };

const scenario::OverrideKey *findOverride(const std::string &name)
{
    std::string key = name;
    for (const char *shortName : kLayoutShortNames)
        if (name == shortName)
            key = "layout." + name;
    for (const scenario::OverrideKey &k : scenario::overrideKeys())
        if (key == k.key)
            return &k;
    return nullptr;
}

std::string trimmed(std::string_view text)
{
    const std::size_t begin = text.find_first_not_of(" \t");
    if (begin == std::string_view::npos)
        return {};
    const std::size_t end = text.find_last_not_of(" \t");
    return std::string(text.substr(begin, end - begin + 1));
}

class Reader {
public:
    Reader(const std::string &file, const scenario::Scenario *current)
        : mFile(file)
        , mCurrent(current)
        , mStem(fs::path(file).filename().string())
    {
        const std::size_t dot = mStem.find('.');
        if (dot != std::string::npos && dot > 0)
            mStem.resize(dot);
    }

    std::vector<Measurement> read(std::string_view text)
    {
        int lineNumber = 0;
        std::size_t at
            = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0; // a UTF-8 byte order mark (spreadsheets)
        while (at < text.size()) {
            std::size_t end = text.find('\n', at);
            if (end == std::string_view::npos)
                end = text.size();
            std::string_view line = text.substr(at, end - at);
            if (!line.empty() && line.back() == '\r')
                line.remove_suffix(1);
            ++lineNumber;
            at = end + 1;
            const std::string content = trimmed(line);
            if (content.empty() || content.front() == '#')
                continue;
            const std::vector<std::string> fields = split(line, lineNumber);
            if (mColumns.empty())
                header(fields, lineNumber);
            else
                mRuns.push_back(row(fields, lineNumber));
        }
        lineNumber = std::max(lineNumber, 1);
        if (mColumns.empty())
            throw CsvError(mFile, lineNumber, 0, {},
                           "no header line (expected column names such as "
                           "scenario,measured_iteration_time_s)");
        if (mRuns.empty())
            throw CsvError(mFile, lineNumber, 0, {}, "no runs after the header line");
        return std::move(mRuns);
    }

private:
    [[noreturn]] void fail(int line, int column, const std::string &message) const
    {
        const std::string name = column >= 1 && static_cast<std::size_t>(column) <= mColumns.size()
                                     ? mColumns[static_cast<std::size_t>(column) - 1].name
                                     : std::string();
        throw CsvError(mFile, line, column, name, message);
    }

    /// RFC 4180 fields of one line (no line breaks inside quotes).
    std::vector<std::string> split(std::string_view line, int lineNumber) const
    {
        std::vector<std::string> fields(1);
        bool quoted = false;
        bool afterQuote = false;
        for (std::size_t i = 0; i < line.size(); ++i) {
            const char c = line[i];
            const int column = static_cast<int>(fields.size());
            if (quoted) {
                if (c != '"')
                    fields.back() += c;
                else if (i + 1 < line.size() && line[i + 1] == '"')
                    fields.back() += line[++i];
                else {
                    quoted = false;
                    afterQuote = true;
                }
            } else if (c == ',') {
                fields.emplace_back();
                afterQuote = false;
            } else if (c == '"' && trimmed(fields.back()).empty() && !afterQuote) {
                fields.back().clear();
                quoted = true;
            } else if (afterQuote && c != ' ' && c != '\t') {
                fail(lineNumber, column, "text after the closing quote of a quoted field");
            } else if (!afterQuote) {
                fields.back() += c;
            }
        }
        if (quoted)
            fail(lineNumber, static_cast<int>(fields.size()), "a quoted field is not closed on its line");
        for (std::string &field : fields)
            field = trimmed(field);
        return fields;
    }

    void header(const std::vector<std::string> &names, int line)
    {
        static const std::map<std::string, Column> kFixed
            = { { "scenario", Column::Scenario },
                { "measured_iteration_time_s", Column::Measured },
                { "id", Column::Id },
                { "name", Column::Name },
                { "family", Column::Family },
                { "notes", Column::Notes } };
        std::set<std::string> seen;
        for (std::size_t i = 0; i < names.size(); ++i) {
            const int column = static_cast<int>(i) + 1;
            ColumnSpec spec;
            spec.name = names[i];
            if (const auto it = kFixed.find(spec.name); it != kFixed.end())
                spec.kind = it->second;
            else if (!(spec.override = findOverride(spec.name)))
                throw CsvError(
                    mFile, line, column, spec.name,
                    "unknown column \"" + spec.name
                        + "\" (expected scenario, measured_iteration_time_s, id, name, family, notes, "
                          "gpu_count, tensor_par, pipeline_par, data_par, microbatch_size, batch_size "
                          "or a scenario override key such as gpu.hbm_bandwidth_GBps)");
            if (!seen.insert(spec.override ? std::string(spec.override->key) : spec.name).second)
                throw CsvError(mFile, line, column, spec.name, "column \"" + spec.name + "\" appears twice");
            mColumns.push_back(spec);
        }
        for (const char *required : { "scenario", "measured_iteration_time_s" })
            if (seen.count(required) == 0)
                throw CsvError(mFile, line, 0, {},
                               std::string("the header has no column \"") + required + "\"");
    }

    double number(const std::string &text, int line, int column, const std::string &expected) const
    {
        char *end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value))
            fail(line, column, "expected " + expected + ", got \"" + text + "\"");
        return value;
    }

    /// The rule of the key (scenario::overrideTextProblem): its range, and whole keys exactly as written.
    double overrideValue(const scenario::OverrideKey &key, const std::string &text, int line,
                         int column) const
    {
        double value = 0;
        if (const auto problem = scenario::overrideTextProblem(key.key, text, value))
            fail(line, column, *problem + " (" + key.description + ")");
        return value;
    }

    const scenario::Scenario &baseScenario(const std::string &cell, int line, int column)
    {
        if (cell == kCurrentDesign) {
            if (!mCurrent)
                fail(line, column,
                     "\"current\" stands for the design open in the studio; here there is none");
            return *mCurrent;
        }
        if (cell.empty())
            fail(line, column, "expected \"current\" or a scenario file (*.gapstudio.json)");
        fs::path path(cell);
        if (path.is_relative())
            path = fs::path(mFile).parent_path() / path;
        const std::string key = path.lexically_normal().string();
        if (const auto it = mScenarios.find(key); it != mScenarios.end())
            return it->second;
        try {
            return mScenarios.emplace(key, loadScenario(key)).first->second;
        } catch (const std::exception &error) {
            fail(line, column, std::string("cannot read the scenario: ") + error.what());
        }
    }

    Measurement row(const std::vector<std::string> &fields, int line)
    {
        if (fields.size() != mColumns.size())
            fail(line, static_cast<int>(std::min(fields.size(), mColumns.size())) + 1,
                 "expected " + std::to_string(mColumns.size()) + " fields as in the header, got "
                     + std::to_string(fields.size()));
        Measurement m;
        m.id = mStem + "-line" + std::to_string(line);
        m.family = mStem;
        m.source = mFile + ", line " + std::to_string(line);
        m.file = mFile;
        std::optional<scenario::Scenario> scenario;
        std::map<std::string, double> overrides;
        for (std::size_t i = 0; i < fields.size(); ++i) {
            const int column = static_cast<int>(i) + 1;
            const ColumnSpec &spec = mColumns[i];
            const std::string &cell = fields[i];
            switch (spec.kind) {
            case Column::Scenario:
                scenario = baseScenario(cell, line, column);
                break;
            case Column::Measured:
                m.measuredIterationTime_s
                    = number(cell, line, column, "the measured seconds per iteration (> 0)");
                if (m.measuredIterationTime_s <= 0)
                    fail(line, column,
                         "expected the measured seconds per iteration (> 0), got \"" + cell + "\"");
                break;
            case Column::Id:
                if (!cell.empty())
                    m.id = cell;
                break;
            case Column::Name:
                m.name = cell;
                break;
            case Column::Family:
                if (!cell.empty())
                    m.family = cell;
                break;
            case Column::Notes:
                m.notes = cell;
                break;
            case Column::Override:
                if (!cell.empty())
                    overrides[spec.override->key] = overrideValue(*spec.override, cell, line, column);
                break;
            }
        }
        if (m.name.empty())
            m.name = m.id;
        if (const auto [it, inserted] = mIds.emplace(m.id, line); !inserted)
            fail(line, 0, "run id \"" + m.id + "\" is already used on line " + std::to_string(it->second));
        m.scenario = *scenario;
        for (const auto &[key, value] : overrides)
            m.scenario.overrides[key] = value;
        return m;
    }

    std::string mFile;
    const scenario::Scenario *mCurrent;
    std::string mStem;
    std::vector<ColumnSpec> mColumns;
    std::vector<Measurement> mRuns;
    std::map<std::string, scenario::Scenario> mScenarios; ///< scenario files read, by path
    std::map<std::string, int> mIds;                      ///< run id -> line
};

} // namespace

CsvError::CsvError(const std::string &file, int line, int column, const std::string &columnName,
                   const std::string &message)
    : InputError(file,
                 "line " + std::to_string(line)
                     + (column > 0 ? ", column " + std::to_string(column)
                                         + (columnName.empty() ? std::string() : " (" + columnName + ")")
                                   : std::string()),
                 message)
    , mLine(line)
    , mColumn(column)
{
}

std::vector<Measurement> parseRunsCsv(std::string_view text, const std::string &file,
                                      const scenario::Scenario *current)
{
    return Reader(file, current).read(text);
}

std::vector<Measurement> loadRunsCsv(const std::string &path, const scenario::Scenario *current)
{
    // The limits of every reader (safe_file.h): a regular file of at most 64 MiB, never a FIFO or a device.
    return parseRunsCsv(readInputFile(path), path, current);
}

} // namespace gapstudio::io
