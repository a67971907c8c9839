#pragma once
/**
 * @file safewrite.h
 * The views' door to io/safe_file.h: every file the GUI writes (scenarios, autosaves, chart and
 * report exports, screenshots) is produced in memory first and then written with
 * io::writeFileAtomically, so that a full disk, a missing permission or a crash leaves the
 * previous file as it was, and the user sees the OS reason.
 */

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace gapstudio::views {

/// Writes `data` to `path` (complete or untouched). False with "path: reason" in `error`.
bool writeFileSafely(const QString &path, const QByteArray &data, QString *error = nullptr);

/// False with a message in `error` if `output` is the same file as one of `inputs` (an export
/// must never replace the scenario it was made from).
bool isNotAnInput(const QString &output, const QStringList &inputs, QString *error = nullptr);

/// Flushes standard output; false with the OS reason in `error` if anything written to it was
/// lost (a headless run whose messages went to a full disk must not exit 0).
bool flushStandardOutput(QString *error = nullptr);

} // namespace gapstudio::views
