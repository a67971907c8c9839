#include "common/safewrite.h"

#include "gapstudio/io/safe_file.h"

#include <cstdio>
#include <string>
#include <vector>

namespace gapstudio::views {

namespace {

bool fail(QString *error, const char *message)
{
    if (error)
        *error = QString::fromLocal8Bit(message);
    return false;
}

} // namespace

bool writeFileSafely(const QString &path, const QByteArray &data, QString *error)
{
    try {
        io::writeFileAtomically(path.toStdString(),
                                std::string_view(data.constData(), std::size_t(data.size())));
        return true;
    } catch (const io::OutputError &e) {
        return fail(error, e.what());
    }
}

bool isNotAnInput(const QString &output, const QStringList &inputs, QString *error)
{
    std::vector<std::string> files;
    for (const QString &input : inputs)
        files.push_back(input.toStdString());
    try {
        io::requireNotAnInput(output.toStdString(), files);
        return true;
    } catch (const io::OutputError &e) {
        return fail(error, e.what());
    }
}

bool flushStandardOutput(QString *error)
{
    try {
        io::flushOrThrow(stdout, "standard output");
        return true;
    } catch (const io::OutputError &e) {
        return fail(error, e.what());
    }
}

} // namespace gapstudio::views
