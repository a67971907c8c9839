#pragma once
// Runs a program as a user would, for the tests of the CLI and of the app's headless runs: its
// exit status, stdout and stderr; -1 if it crashed or was still running after the timeout.

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace gapstudio::test {

struct ProcessResult {
    int exitCode = -1; ///< -1: crashed, or still running after the timeout (then killed)
    QByteArray out, err;
};

/// `stdoutFile` (if given) receives standard output, e.g. /dev/full; `environment` adds variables.
inline ProcessResult runProcess(const QString &program, const QStringList &arguments, const QString &stdoutFile = {},
                                int timeout_ms = 120000, const QProcessEnvironment &environment = {})
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(environment);
    process.setProcessEnvironment(env);
    if (!stdoutFile.isEmpty())
        process.setStandardOutputFile(stdoutFile);
    process.start(program, arguments);
    ProcessResult result;
    if (!process.waitForFinished(timeout_ms)) {
        process.kill();
        process.waitForFinished();
        return result;
    }
    if (process.exitStatus() != QProcess::NormalExit)
        return result;
    result.exitCode = process.exitCode();
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

} // namespace gapstudio::test
