#pragma once
/**
 * @file safe_file.h
 * File access that bounds the work an input can cause and never loses data on output (Qt-free:
 * the CLI uses it directly, the views through views/common/safewrite.h).
 *
 * Reading: regular files only (a FIFO would block, /dev/zero would never end) and at most
 * kMaxInputBytes. Writing: the new content goes to a temporary file in the target's folder,
 * every write and the close are checked, the data is synced to disk and only then renamed over
 * the target; on any failure the original file is left as it was and the OS reason is reported.
 */

#include "gapstudio/io/input_error.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace gapstudio::io {

/// Largest file any reader accepts (JSON inputs, and the exports a scenario is restored from).
inline constexpr std::uintmax_t kMaxInputBytes = std::uintmax_t { 64 } << 20; // 64 MiB

/// The content of the regular file `path`, of at most `maxBytes`. Throws InputError(path, "/",
/// reason) if it is missing, unreadable, a directory, a FIFO, a device, or larger than `maxBytes`.
[[nodiscard]] std::string readInputFile(const std::string &path, std::uintmax_t maxBytes = kMaxInputBytes);

/// Writes `data` to `path`, which ends up either complete or untouched. A regular (or new) file is
/// replaced through a temporary file in the same folder (written, checked, synced, renamed; it
/// keeps the original's permissions); a symbolic link is followed and its target replaced; an
/// existing non-regular file (/dev/null, a terminal, a FIFO with a reader) is written in place
/// with every write checked. Throws OutputError(path, OS reason).
void writeFileAtomically(const std::string &path, std::string_view data);

/// Throws OutputError if `output` is the same file as one of `inputs` (same device and inode),
/// so that an export can never replace the scenario it is made from.
void requireNotAnInput(const std::string &output, const std::vector<std::string> &inputs);

/// Flushes `stream` and throws OutputError(name, OS reason) if any write to it failed (e.g.
/// standard output redirected to a full disk or /dev/full).
void flushOrThrow(std::FILE *stream, const std::string &name);

} // namespace gapstudio::io
