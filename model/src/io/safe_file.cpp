// Bounded reads and data-safe writes (safe_file.h), on POSIX calls so that every error is seen
// with its errno: a C++ stream or a buffered Qt file can report success after a failed flush.
#include "gapstudio/io/safe_file.h"

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gapstudio::io {

namespace {

std::string reason(int error)
{
    return std::strerror(error);
}

/// Closes a descriptor (and removes a temporary file) unless released.
class FileGuard {
public:
    explicit FileGuard(int fd, std::string temporary = {})
        : mFd(fd)
        , mTemporary(std::move(temporary))
    {
    }
    FileGuard(const FileGuard &) = delete;
    FileGuard &operator=(const FileGuard &) = delete;
    ~FileGuard()
    {
        if (mFd >= 0)
            ::close(mFd);
        if (!mTemporary.empty())
            ::unlink(mTemporary.c_str());
    }
    [[nodiscard]] int fd() const noexcept { return mFd; }
    /// Closes the descriptor; returns 0 or the errno of close().
    int close() noexcept
    {
        const int result = ::close(mFd);
        mFd = -1;
        return result == 0 ? 0 : errno;
    }
    void keepFile() noexcept { mTemporary.clear(); }

private:
    int mFd;
    std::string mTemporary;
};

/// The start of the temporary file names of writers on this host: ".gapstudio-save-HOST-". A
/// writer adds its process id and a unique part ("PID-XXXXXX"), so that a later write can tell a
/// temporary file whose writer was killed (kill -9, power loss) from one being written right now.
std::string hostTemporaryPrefix()
{
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0)
        host[0] = '\0';
    for (char *c = host; *c; ++c)
        if (*c == '/' || *c == '-')
            *c = '_';
    return ".gapstudio-save-" + std::string(host) + "-";
}

/// Removes the temporary files that writers on this host left in `folder` when they were killed
/// before they could (their process is gone). Best effort: a folder that cannot be listed is left.
void removeTemporariesOfEndedWriters(const std::string &folder)
{
    namespace fs = std::filesystem;
    const std::string hostPrefix = hostTemporaryPrefix();
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.rfind(hostPrefix, 0) != 0)
            continue;
        const std::string rest = name.substr(hostPrefix.size()); // "PID-XXXXXX"
        char *after = nullptr;
        const long pid = std::strtol(rest.c_str(), &after, 10);
        if (pid <= 0 || after == rest.c_str() || *after != '-')
            continue;
        if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
            ::unlink(it->path().c_str());
    }
}

/// Writes every byte of `data`; returns 0 or the errno of the failed write.
int writeFully(int fd, std::string_view data) noexcept
{
    while (!data.empty()) {
        const ssize_t written = ::write(fd, data.data(), data.size());
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (written == 0)
            return EIO;
        data.remove_prefix(static_cast<std::size_t>(written));
    }
    return 0;
}

/// The process's umask, read without changing it (Linux: /proc/self/status), else 022.
mode_t currentUmask()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("Umask:", 0) == 0)
            return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
    }
    return 022;
}

std::string folderOf(const std::string &path)
{
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

/// The file a path finally names: symbolic links resolved (a dangling link names its target).
std::string finalTarget(const std::string &path)
{
    std::string target = path;
    for (int hops = 0; hops < 40; ++hops) {
        struct stat st { };
        if (::lstat(target.c_str(), &st) != 0 || !S_ISLNK(st.st_mode))
            return target;
        std::string link(PATH_MAX, '\0');
        const ssize_t size = ::readlink(target.c_str(), link.data(), link.size());
        if (size < 0)
            return target;
        link.resize(static_cast<std::size_t>(size));
        target = !link.empty() && link.front() == '/' ? link : folderOf(target) + "/" + link;
    }
    throw OutputError(path, "too many levels of symbolic links");
}

/// An existing device, terminal or FIFO: written where it is. O_NONBLOCK makes opening a FIFO
/// without a reader fail (ENXIO) instead of waiting forever.
void writeInPlace(const std::string &path, std::string_view data)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        throw OutputError(path, "cannot open for writing: " + reason(errno));
    FileGuard guard(fd);
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0)
        ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    if (const int error = writeFully(fd, data))
        throw OutputError(path, "cannot write: " + reason(error));
    if (const int error = guard.close())
        throw OutputError(path, "cannot write: " + reason(error));
}

} // namespace

OutputError::OutputError(std::string file, const std::string &message)
    : std::runtime_error(file + ": " + message)
    , mFile(std::move(file))
{
}

std::string readInputFile(const std::string &path, std::uintmax_t maxBytes)
{
    // O_NONBLOCK: opening a FIFO must not wait for a writer; it is rejected just below.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        throw InputError(path, "/", "cannot open: " + reason(errno));
    FileGuard guard(fd);
    struct stat st { };
    if (::fstat(fd, &st) != 0)
        throw InputError(path, "/", "cannot read: " + reason(errno));
    if (S_ISDIR(st.st_mode))
        throw InputError(path, "/", "cannot read: is a directory");
    if (!S_ISREG(st.st_mode))
        throw InputError(path, "/", "cannot read: not a regular file (a FIFO, device or socket)");
    const auto tooLarge = [&] {
        return InputError(path, "/",
                          "cannot read: the file is larger than the limit of " + std::to_string(maxBytes)
                              + " bytes");
    };
    if (static_cast<std::uintmax_t>(st.st_size) > maxBytes)
        throw tooLarge();
    std::string content;
    content.reserve(static_cast<std::size_t>(st.st_size));
    char buffer[65536];
    for (;;) {
        const ssize_t got = ::read(fd, buffer, sizeof buffer);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            throw InputError(path, "/", "cannot read: " + reason(errno));
        }
        if (got == 0)
            break;
        content.append(buffer, static_cast<std::size_t>(got));
        if (content.size() > maxBytes) // the file grew while being read
            throw tooLarge();
    }
    return content;
}

void writeFileAtomically(const std::string &path, std::string_view data)
{
    if (path.empty())
        throw OutputError(path, "no file name given");
    const std::string target = finalTarget(path);
    struct stat st { };
    const bool exists = ::stat(target.c_str(), &st) == 0;
    if (!exists && errno != ENOENT)
        throw OutputError(path, "cannot write: " + reason(errno));
    if (exists && S_ISDIR(st.st_mode))
        throw OutputError(path, "cannot write: is a directory");
    if (exists && !S_ISREG(st.st_mode)) {
        writeInPlace(target, data);
        return;
    }

    // 1. A temporary file next to the target (a rename within one file system is atomic).
    const std::string folder = folderOf(target);
    removeTemporariesOfEndedWriters(folder);
    std::string temporary = folder + "/" + hostTemporaryPrefix() + std::to_string(::getpid()) + "-XXXXXX";
    const int fd = ::mkostemp(temporary.data(), O_CLOEXEC);
    if (fd < 0)
        throw OutputError(path, "cannot create a temporary file in " + folder + ": " + reason(errno));
    FileGuard guard(fd, temporary);

    // 2. Every byte written, the permissions of the file it replaces, synced to disk.
    if (const int error = writeFully(fd, data))
        throw OutputError(path, "cannot write: " + reason(error));
    const mode_t mode = exists ? (st.st_mode & 07777) : (0666 & ~currentUmask());
    if (::fchmod(fd, mode) != 0)
        throw OutputError(path, "cannot set the permissions: " + reason(errno));
    if (::fsync(fd) != 0)
        throw OutputError(path, "cannot write: " + reason(errno));
    if (const int error = guard.close())
        throw OutputError(path, "cannot write: " + reason(error));

    // 3. The new file replaces the old one in a single step; then the folder entry is synced.
    if (::rename(temporary.c_str(), target.c_str()) != 0)
        throw OutputError(path, "cannot replace the file: " + reason(errno));
    guard.keepFile();
    const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        ::fsync(dir); // best effort: some file systems cannot sync a folder
        ::close(dir);
    }
}

void requireNotAnInput(const std::string &output, const std::vector<std::string> &inputs)
{
    struct stat out { };
    if (::stat(output.c_str(), &out) != 0)
        return; // a new file cannot be one of the (existing) inputs
    for (const std::string &input : inputs) {
        struct stat in { };
        if (!input.empty() && ::stat(input.c_str(), &in) == 0 && in.st_dev == out.st_dev
            && in.st_ino == out.st_ino)
            throw OutputError(output, "refusing to overwrite an input of this command (" + input + ")");
    }
}

void flushOrThrow(std::FILE *stream, const std::string &name)
{
    // A write that failed earlier left the stream's error flag and, unless something has set
    // errno since, its reason in errno (the command returns right after writing).
    const bool failedBefore = std::ferror(stream) != 0;
    const int before = errno;
    errno = 0;
    const bool flushed = std::fflush(stream) == 0;
    const int now = errno;
    if (flushed && !failedBefore)
        return;
    const int error = now != 0 ? now : before;
    throw OutputError(name, "cannot write: " + (error != 0 ? reason(error) : std::string("write error")));
}

} // namespace gapstudio::io
