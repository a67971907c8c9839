// tests/data/ is a copy of the shared validation data (tests/data/README.md). When the shared
// folder is present, the copy must be byte-identical and complete, with no extra files.
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QTest>

class tst_SharedCopy : public QObject
{
    Q_OBJECT

private slots:
    void identical_data();
    void identical();
};

namespace {

/// Relative path -> SHA-256 of every file under `root` (or of `root` itself if it is a file).
QMap<QString, QByteArray> digests(const QString &root)
{
    QMap<QString, QByteArray> result;
    const auto hash = [](const QString &path) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return QByteArray("unreadable");
        QCryptographicHash sha(QCryptographicHash::Sha256);
        sha.addData(&file);
        return sha.result();
    };
    if (QFileInfo(root).isFile()) {
        result.insert(QFileInfo(root).fileName(), hash(root));
        return result;
    }
    QDirIterator it(root, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        result.insert(QDir(root).relativeFilePath(path), hash(path));
    }
    return result;
}

} // namespace

void tst_SharedCopy::identical_data()
{
    QTest::addColumn<QString>("copy");   // under tests/data/
    QTest::addColumn<QString>("source"); // under the shared folder
    QTest::newRow("calculon cases") << "calculon/cases" << "validation/calculon/cases";
    QTest::newRow("calculon cases.tsv") << "calculon/cases.tsv" << "validation/calculon/cases.tsv";
    QTest::newRow("calculon README") << "calculon/README.md" << "validation/calculon/README.md";
    QTest::newRow("calculon systems_derived") << "calculon/systems_derived" << "validation/calculon/systems_derived";
    QTest::newRow("calculon loe") << "calculon/loe" << "validation/calculon/loe";
    QTest::newRow("calculon-moe") << "calculon-moe" << "validation/calculon-moe";
    QTest::newRow("published") << "published" << "validation/published";
}

void tst_SharedCopy::identical()
{
    QFETCH(QString, copy);
    QFETCH(QString, source);
    const QString shared = QStringLiteral(SHARED_DIR);
    if (!QFileInfo::exists(shared + QStringLiteral("/validation")))
        QSKIP("the shared folder is not present next to the repository");

    const QString sourcePath = shared + QLatin1Char('/') + source;
    const QString copyPath = QStringLiteral(TEST_DATA_DIR "/") + copy;
    QVERIFY2(QFileInfo::exists(sourcePath), qPrintable(sourcePath));
    QVERIFY2(QFileInfo::exists(copyPath), qPrintable(copyPath));
    const auto expected = digests(sourcePath);
    const auto actual = digests(copyPath);
    QVERIFY(!expected.isEmpty());
    for (auto it = expected.cbegin(); it != expected.cend(); ++it) {
        QVERIFY2(actual.contains(it.key()), qPrintable(QStringLiteral("missing from the copy: ") + it.key()));
        QVERIFY2(actual.value(it.key()) == it.value(), qPrintable(QStringLiteral("differs: ") + it.key()));
    }
    for (auto it = actual.cbegin(); it != actual.cend(); ++it)
        QVERIFY2(expected.contains(it.key()), qPrintable(QStringLiteral("not in the source: ") + it.key()));
}

QTEST_GUILESS_MAIN(tst_SharedCopy)
#include "tst_shared_copy.moc"
