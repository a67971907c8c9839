#pragma once
/**
 * @file input_error.h
 * The two kinds of file error every reader and writer reports, each with the file and the OS
 * reason, on one line: InputError (an input that cannot be read or is malformed: exit status 2)
 * and OutputError (an output that cannot be written: exit status 3).
 */

#include <stdexcept>
#include <string>

namespace gapstudio::io {

/// Malformed input: unreadable file, bad JSON, or a schema violation. what() is
/// "<file>: <json pointer>: <message>" on one line.
class InputError : public std::runtime_error {
public:
    InputError(std::string file, std::string jsonPointer, const std::string &message);
    [[nodiscard]] const std::string &file() const noexcept { return mFile; }
    [[nodiscard]] const std::string &jsonPointer() const noexcept { return mPointer; }

private:
    std::string mFile;
    std::string mPointer;
};

/// An output that cannot be written (full disk, no permission, closed stream, an output that
/// would overwrite an input). what() is "<file>: <message>" on one line, the OS reason included.
class OutputError : public std::runtime_error {
public:
    OutputError(std::string file, const std::string &message);
    [[nodiscard]] const std::string &file() const noexcept { return mFile; }

private:
    std::string mFile;
};

} // namespace gapstudio::io
