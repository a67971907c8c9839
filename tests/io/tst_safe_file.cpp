// io/safe_file.h: a write is complete or leaves the old file untouched, with the OS reason; an
// output never replaces an input; reads are bounded. A full disk is simulated with RLIMIT_FSIZE
// (writes beyond the limit fail with EFBIG, as they would with ENOSPC), which needs no root.
#include "full_disk.h"

#include "gapstudio/io/preset_json.h"
#include "gapstudio/io/safe_file.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <fstream>
#include <sstream>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace gapstudio;

namespace {

std::string readAll(const QString &path)
{
    std::ifstream in(path.toStdString(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void writeAll(const QString &path, const std::string &text)
{
    std::ofstream(path.toStdString(), std::ios::binary) << text;
}

/// A child process that starts to write `file` and stops (SIGSTOP) in the middle of the write,
/// with its temporary file on disk: RLIMIT_FSIZE makes the write raise SIGXFSZ, whose handler
/// stops the process. Returns its pid once it is stopped (waitpid: no clock involved).
pid_t writerStoppedMidWrite(const QString &file)
{
    const pid_t child = ::fork();
    if (child == 0) {
        std::signal(SIGXFSZ, [](int) { ::raise(SIGSTOP); });
        const rlimit limit { 100, 100 };
        ::setrlimit(RLIMIT_FSIZE, &limit);
        try {
            io::writeFileAtomically(file.toStdString(), std::string(10000, 'x'));
        } catch (...) {
        }
        ::_exit(0);
    }
    int status = 0;
    ::waitpid(child, &status, WUNTRACED);
    return WIFSTOPPED(status) ? child : -1;
}

} // namespace

class tst_SafeFile : public QObject {
    Q_OBJECT

    QTemporaryDir mDir;
    QString path(const QString &name) const { return mDir.filePath(name); }

private slots:
    void initTestCase() { QVERIFY(mDir.isValid()); }

    void writesAndReplaces()
    {
        const QString file = path(QStringLiteral("a.txt"));
        io::writeFileAtomically(file.toStdString(), "first");
        io::writeFileAtomically(file.toStdString(), "second, longer");
        QCOMPARE(readAll(file), std::string("second, longer"));
        // No temporary file is left behind.
        QCOMPARE(QDir(mDir.path()).entryList(QDir::Files | QDir::Hidden),
                 QStringList { QStringLiteral("a.txt") });
    }

    // Saving on a full disk left a 0-byte file and reported success.
    void fullDiskKeepsTheOriginal()
    {
        const QString file = path(QStringLiteral("scenario.gapstudio.json"));
        writeAll(file, "ORIGINAL");
        try {
            test::FullDisk full(100);
            io::writeFileAtomically(file.toStdString(), std::string(10000, 'x'));
            QFAIL("a write beyond the disk's space reported success");
        } catch (const io::OutputError &e) {
            QVERIFY2(std::string(e.what()).find("File too large") != std::string::npos, e.what());
            QCOMPARE(e.file(), file.toStdString());
        }
        QCOMPARE(readAll(file), std::string("ORIGINAL"));
        QCOMPARE(
            QDir(mDir.path()).entryList({ QStringLiteral("*gapstudio-save*") }, QDir::Files | QDir::Hidden),
            QStringList());
    }

    // "a kill -9 leaves .gapstudio-save-* temporaries behind, never cleaned": the next write in
    // the folder removes the temporaries of writers that were killed, and only theirs.
    void temporariesOfKilledWritersAreRemoved()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("killed.gapstudio.json"));
        const auto temporaries = [&] {
            return QDir(dir.path())
                .entryList({ QStringLiteral(".gapstudio-save-*") }, QDir::Files | QDir::Hidden);
        };
        const pid_t writer = writerStoppedMidWrite(file);
        QVERIFY(writer > 0);
        QCOMPARE(temporaries().size(), 1);
        // Its writer is alive (stopped in the middle of the write): another write leaves it.
        io::writeFileAtomically(dir.filePath(QStringLiteral("other.txt")).toStdString(), "other");
        QCOMPARE(temporaries().size(), 1);
        // kill -9: the temporary stays on disk until the next write in the folder removes it.
        ::kill(writer, SIGKILL);
        int status = 0;
        ::waitpid(writer, &status, 0);
        QVERIFY(WIFSIGNALED(status));
        QCOMPARE(temporaries().size(), 1);
        io::writeFileAtomically(file.toStdString(), "next");
        QCOMPARE(temporaries(), QStringList());
        QCOMPARE(readAll(file), std::string("next"));
    }

    void saveScenarioOnFullDiskThrowsAndKeepsTheFile()
    {
        const QString file = path(QStringLiteral("saved.gapstudio.json"));
        writeAll(file, "ORIGINAL");
        const scenario::Scenario s = io::loadScenario(PRESETS_DIR "/scenarios/default.gapstudio.json");
        {
            test::FullDisk full(64);
            QVERIFY_THROWS_EXCEPTION(io::OutputError, io::saveScenario(s, file.toStdString()));
        }
        QCOMPARE(readAll(file), std::string("ORIGINAL"));
        io::saveScenario(s, file.toStdString());
        QVERIFY(io::loadScenario(file.toStdString()) == s);
    }

    // "--export-report /dev/full exits 0 'wrote'": a device is written in place, every write checked.
    void deviceWriteErrorsAreReported()
    {
        try {
            io::writeFileAtomically("/dev/full", "data");
            QFAIL("/dev/full accepted the data");
        } catch (const io::OutputError &e) {
            QVERIFY2(std::string(e.what()).find("No space left on device") != std::string::npos, e.what());
        }
        io::writeFileAtomically("/dev/null", "data"); // a device that takes it
    }

    void symbolicLinkKeepsTheLinkAndReplacesItsTarget()
    {
        const QString target = path(QStringLiteral("target.txt"));
        const QString link = path(QStringLiteral("link.txt"));
        writeAll(target, "old");
        QVERIFY(QFile::link(target, link));
        io::writeFileAtomically(link.toStdString(), "new");
        QVERIFY(QFileInfo(link).isSymLink());
        QCOMPARE(readAll(target), std::string("new"));
    }

    void permissionsAreKept()
    {
        const QString file = path(QStringLiteral("private.txt"));
        writeAll(file, "old");
        QCOMPARE(::chmod(file.toUtf8().constData(), 0600), 0);
        io::writeFileAtomically(file.toStdString(), "new");
        struct stat st { };
        QCOMPARE(::stat(file.toUtf8().constData(), &st), 0);
        QCOMPARE(st.st_mode & 0777, mode_t { 0600 });
    }

    void fifoWithoutReaderFailsAtOnce()
    {
        const QString fifo = path(QStringLiteral("out.fifo"));
        QCOMPARE(::mkfifo(fifo.toUtf8().constData(), 0600), 0);
        QVERIFY_THROWS_EXCEPTION(io::OutputError, io::writeFileAtomically(fifo.toStdString(), "data"));
    }

    void directoryIsRefused()
    {
        QVERIFY_THROWS_EXCEPTION(io::OutputError, io::writeFileAtomically(mDir.path().toStdString(), "data"));
    }

    // "--export-report X.gapstudio.json with the scenario itself as output replaces the scenario".
    void anOutputCannotBeAnInput()
    {
        const QString input = path(QStringLiteral("input.gapstudio.json"));
        writeAll(input, "{}");
        const QString same = mDir.path() + QStringLiteral("/./input.gapstudio.json");
        QVERIFY_THROWS_EXCEPTION(io::OutputError,
                                 io::requireNotAnInput(same.toStdString(), { "x", input.toStdString() }));
        const QString hardLink = path(QStringLiteral("hard.json"));
        QCOMPARE(::link(input.toUtf8().constData(), hardLink.toUtf8().constData()), 0);
        QVERIFY_THROWS_EXCEPTION(io::OutputError,
                                 io::requireNotAnInput(hardLink.toStdString(), { input.toStdString() }));
        io::requireNotAnInput(path(QStringLiteral("new.pdf")).toStdString(), { input.toStdString() }); // fine
    }

    void readsAreBounded()
    {
        const QString small = path(QStringLiteral("small.json"));
        writeAll(small, "{}");
        QCOMPARE(io::readInputFile(small.toStdString()), std::string("{}"));
        QVERIFY_THROWS_EXCEPTION(io::InputError, (void)io::readInputFile(small.toStdString(), 1));
        QVERIFY_THROWS_EXCEPTION(io::InputError, (void)io::readInputFile("/dev/zero"));
        QVERIFY_THROWS_EXCEPTION(io::InputError, (void)io::readInputFile(mDir.path().toStdString()));
    }

    void lostStandardOutputIsReported()
    {
        std::FILE *full = std::fopen("/dev/full", "w");
        QVERIFY(full);
        std::fputs("result", full);
        QVERIFY_THROWS_EXCEPTION(io::OutputError, io::flushOrThrow(full, "standard output"));
        std::fclose(full);
    }
};

QTEST_GUILESS_MAIN(tst_SafeFile)
#include "tst_safe_file.moc"
