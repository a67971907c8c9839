// No production function is longer than 80 lines (model/, views/, app/): a longer one does several
// things, and each is easier to name, read and test on its own. Read from the sources as
// clang-format lays them out (.clang-format): a function defined at namespace scope opens with "{"
// alone at the start of a line and closes with "}" alone at the start of a line; its length counts
// both braces. Functions defined inside a class body and lambdas are part of the function or class
// that holds them.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QStringList>
#include <QTest>

namespace {

constexpr int kMaxLines = 80;

struct LongFunction {
    QString where; ///< file:line of its header's last line
    QString header;
    int lines;
};

/// The functions of `source` (a .cpp file's text) longer than `maxLines`.
QList<LongFunction> longFunctions(const QString &file, const QString &source, int maxLines)
{
    static const QStringList kNotFunctions { QStringLiteral("namespace"), QStringLiteral("class"),
                                             QStringLiteral("struct"), QStringLiteral("enum"),
                                             QStringLiteral("union"), QStringLiteral("extern") };
    const QStringList lines = source.split(QLatin1Char('\n'));
    QList<LongFunction> found;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        if (lines[i] != QLatin1String("{"))
            continue;
        const QString &header = lines[i - 1];
        const bool function = std::none_of(kNotFunctions.begin(), kNotFunctions.end(), [&](const QString &word) {
            return header.startsWith(word + QLatin1Char(' ')) || header == word;
        });
        qsizetype end = i + 1;
        while (end < lines.size() && lines[end] != QLatin1String("}") && lines[end] != QLatin1String("};"))
            ++end;
        const int length = static_cast<int>(end - i + 1);
        if (function && length > maxLines)
            found.push_back({ QStringLiteral("%1:%2").arg(file).arg(i), header.trimmed(), length });
        if (function)
            i = end;
    }
    return found;
}

} // namespace

class tst_FunctionLength : public QObject {
    Q_OBJECT

private slots:
    // The reader on a source written for it: a long function is found with its length, a short
    // one, a long namespace and a long class are not.
    void findsTheLongFunctionsOfAHandWrittenSource()
    {
        const auto body = [](int statements) {
            QString text;
            for (int i = 0; i < statements; ++i)
                text += QStringLiteral("    ++x;\n");
            return text;
        };
        const QString source = QStringLiteral("namespace a {\n\nint shortOne(int x)\n{\n") + body(3)
                               + QStringLiteral("    return x;\n}\n\nvoid Chart::rebuild(const Analysis &current,\n"
                                                "                     const Analysis *baseline)\n{\n")
                               + body(79) + QStringLiteral("}\n\nclass Big\n{\n") + body(100)
                               + QStringLiteral("};\n\n} // namespace a\n");
        const QList<LongFunction> found = longFunctions(QStringLiteral("x.cpp"), source, kMaxLines);
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.front().header, QStringLiteral("const Analysis *baseline)"));
        QCOMPARE(found.front().lines, 81); // 79 statements and the two braces
        QVERIFY(longFunctions(QStringLiteral("x.cpp"), source, 81).isEmpty());
    }

    void noProductionFunctionOver80Lines()
    {
        const QDir root(QStringLiteral(SOURCE_DIR));
        QList<LongFunction> found;
        int files = 0;
        for (const QString &folder : { QStringLiteral("model"), QStringLiteral("views"), QStringLiteral("app") }) {
            QDirIterator it(root.filePath(folder), { QStringLiteral("*.cpp") }, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext()) {
                QFile file(it.next());
                QVERIFY2(file.open(QIODevice::ReadOnly | QIODevice::Text), qPrintable(file.fileName()));
                found += longFunctions(root.relativeFilePath(file.fileName()), QString::fromUtf8(file.readAll()),
                                       kMaxLines);
                ++files;
            }
        }
        QVERIFY(files > 150);
        QStringList report;
        for (const LongFunction &f : found)
            report << QStringLiteral("%1 (%2 lines): %3").arg(f.where).arg(f.lines).arg(f.header);
        QVERIFY2(found.isEmpty(), qPrintable(report.join(QLatin1Char('\n'))));
    }
};

QTEST_APPLESS_MAIN(tst_FunctionLength)
#include "tst_function_length.moc"
