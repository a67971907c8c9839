#pragma once
// A full disk for a test, without root: RLIMIT_FSIZE caps the size any file may grow to, so that
// writes beyond it fail (EFBIG, "File too large") as they would on a full disk (ENOSPC).

#include <csignal>

#include <sys/resource.h>

namespace gapstudio::test {

/// While alive, no file can grow beyond `bytes`; SIGXFSZ is ignored so that the write fails.
class FullDisk {
public:
    explicit FullDisk(rlim_t bytes)
    {
        std::signal(SIGXFSZ, SIG_IGN);
        getrlimit(RLIMIT_FSIZE, &mSaved);
        rlimit limit = mSaved;
        limit.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &limit);
    }
    FullDisk(const FullDisk &) = delete;
    FullDisk &operator=(const FullDisk &) = delete;
    ~FullDisk() { setrlimit(RLIMIT_FSIZE, &mSaved); }

private:
    rlimit mSaved {};
};

} // namespace gapstudio::test
