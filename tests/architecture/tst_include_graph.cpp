// The layers' shape, read from the sources' #include lines: no folder of views/ includes, through
// any chain, a folder that includes it back, and no file of model/ includes itself through other
// files. A cycle makes two parts one: neither can be understood, tested or replaced alone.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QRegularExpression>
#include <QSet>
#include <QStringList>
#include <QTest>

#include <algorithm>
#include <functional>

namespace {

const QString kRoot = QStringLiteral(SOURCE_DIR);

/// The #include "..." targets of `file`, each resolved to a path relative to the repository
/// (next to the file first, then the include roots), or dropped when it is not in `roots`' tree.
QStringList includesOf(const QString &file, const QStringList &roots)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    static const QRegularExpression include(QStringLiteral("^\\s*#\\s*include\\s*\"([^\"]+)\""));
    const QDir repository(kRoot);
    QStringList found;
    for (const QString &line : QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'))) {
        const QRegularExpressionMatch m = include.match(line);
        if (!m.hasMatch())
            continue;
        QStringList candidates { QFileInfo(file).dir().filePath(m.captured(1)) };
        for (const QString &root : roots)
            candidates << QDir(kRoot).filePath(root + QLatin1Char('/') + m.captured(1));
        for (const QString &candidate : candidates)
            if (QFileInfo::exists(candidate)) {
                found << QDir::cleanPath(repository.relativeFilePath(candidate));
                break;
            }
    }
    return found;
}

/// Every source and header under `folder` (relative to the repository) with its includes.
QMap<QString, QStringList> includeGraph(const QString &folder, const QStringList &roots)
{
    QMap<QString, QStringList> graph;
    QDirIterator it(QDir(kRoot).filePath(folder), { QStringLiteral("*.cpp"), QStringLiteral("*.h") },
                    QDir::Files, QDirIterator::Subdirectories);
    const QDir repository(kRoot);
    while (it.hasNext()) {
        const QString file = it.next();
        graph[repository.relativeFilePath(file)] = includesOf(file, roots);
    }
    return graph;
}

/// The strongly connected components of more than one node (Tarjan), each sorted: the cycles.
QList<QStringList> cycles(const QMap<QString, QSet<QString>> &edges)
{
    QMap<QString, int> index, low;
    QStringList stack;
    QSet<QString> onStack;
    QList<QStringList> found;
    int next = 0;
    std::function<void(const QString &)> visit = [&](const QString &v) {
        index[v] = low[v] = next++;
        stack << v;
        onStack << v;
        for (const QString &w : edges.value(v)) {
            if (!index.contains(w)) {
                visit(w);
                low[v] = std::min(low[v], low[w]);
            } else if (onStack.contains(w)) {
                low[v] = std::min(low[v], index[w]);
            }
        }
        if (low[v] == index[v]) {
            QStringList component;
            QString w;
            do {
                w = stack.takeLast();
                onStack.remove(w);
                component << w;
            } while (w != v);
            if (component.size() > 1) {
                component.sort();
                found << component;
            }
        }
    };
    for (auto it = edges.begin(); it != edges.end(); ++it)
        if (!index.contains(it.key()))
            visit(it.key());
    return found;
}

QString describe(const QList<QStringList> &found)
{
    QStringList lines;
    for (const QStringList &cycle : found)
        lines << cycle.join(QStringLiteral(" <-> "));
    return lines.join(QStringLiteral("; "));
}

} // namespace

class tst_IncludeGraph : public QObject {
    Q_OBJECT

private slots:
    // The checker itself, on a graph drawn by hand: a -> b -> c -> a is one cycle, d -> a none.
    void findsTheCyclesOfAHandDrawnGraph()
    {
        const QMap<QString, QSet<QString>> edges {
            { QStringLiteral("a"), { QStringLiteral("b") } },
            { QStringLiteral("b"), { QStringLiteral("c") } },
            { QStringLiteral("c"), { QStringLiteral("a") } },
            { QStringLiteral("d"), { QStringLiteral("a") } },
        };
        const QList<QStringList> found = cycles(edges);
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.front(),
                 (QStringList { QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c") }));
    }

    void noFolderCyclesInViews()
    {
        const QMap<QString, QStringList> graph = includeGraph(
            QStringLiteral("views"), { QStringLiteral("views"), QStringLiteral("model/include") });
        QVERIFY(graph.size() > 100);
        // views/<folder>/file -> views/<folder>: the folders' graph.
        const auto folderOf = [](const QString &path) {
            const QStringList parts = path.split(QLatin1Char('/'));
            return parts.size() > 2 && parts[0] == QLatin1String("views") ? parts[1] : QString();
        };
        QMap<QString, QSet<QString>> edges;
        for (auto it = graph.begin(); it != graph.end(); ++it) {
            const QString from = folderOf(it.key());
            for (const QString &to : it.value())
                if (!from.isEmpty() && !folderOf(to).isEmpty() && folderOf(to) != from)
                    edges[from] << folderOf(to);
        }
        QVERIFY(edges.size() > 5);
        const QList<QStringList> found = cycles(edges);
        QVERIFY2(found.isEmpty(), qPrintable(describe(found)));
    }

    void noFileCyclesInModel()
    {
        const QMap<QString, QStringList> graph = includeGraph(
            QStringLiteral("model"), { QStringLiteral("model/include"), QStringLiteral("model/src") });
        QVERIFY(graph.size() > 80);
        QMap<QString, QSet<QString>> edges;
        for (auto it = graph.begin(); it != graph.end(); ++it)
            for (const QString &to : it.value())
                edges[it.key()] << to;
        const QList<QStringList> found = cycles(edges);
        QVERIFY2(found.isEmpty(), qPrintable(describe(found)));
    }
};

QTEST_APPLESS_MAIN(tst_IncludeGraph)
#include "tst_include_graph.moc"
