#include "validation/errortable.h"

#include "charts/chartformat.h"
#include "validation/numbercell.h"

#include <QHeaderView>

namespace gapstudio::views {

ErrorTable::ErrorTable(QWidget *parent)
    : QTableWidget(parent)
{
    setObjectName(QStringLiteral("errorTable"));
    setUpErrorTable(this);
}

void ErrorTable::showSets(const QList<Set> &sets)
{
    clear();
    QStringList headers { tr("Family"), tr("Runs") };
    for (const Set &set : sets) {
        if (set.label.isEmpty())
            headers << tr("Mean |error|") << tr("Max |error|");
        else
            headers << tr("%1: mean |error|").arg(set.label) << tr("%1: max |error|").arg(set.label);
    }
    setColumnCount(static_cast<int>(headers.size()));
    setHorizontalHeaderLabels(headers);
    QStringList families { QString() };
    if (!sets.isEmpty())
        for (const auto &entry : sets.front().summary.families)
            families << QString::fromStdString(entry.first);
    setRowCount(static_cast<int>(families.size()));
    for (int row = 0; row < rowCount(); ++row) {
        const QString &family = families[row];
        auto *name = new QTableWidgetItem(family.isEmpty() ? tr("All runs") : family);
        name->setData(kFamilyRole, family);
        if (family.isEmpty()) {
            QFont bold = name->font();
            bold.setBold(true);
            name->setFont(bold);
        }
        setItem(row, 0, name);
        for (int s = 0; s < sets.size(); ++s) {
            const scenario::ValidationSummary &summary = sets[s].summary;
            const auto it = summary.families.find(family.toStdString());
            const scenario::ErrorStats *stats
                = family.isEmpty() ? &summary.all : (it == summary.families.end() ? nullptr : &it->second);
            if (s == 0)
                setItem(row, 1,
                        numberCell(stats ? static_cast<double>(stats->rows) : 0,
                                   QString::number(stats ? stats->rows : 0), kValueRole));
            if (!stats || stats->rows == 0) // no prediction in this set (e.g. not left out)
                continue;
            setItem(row, 2 + 2 * s,
                    numberCell(stats->meanAbsError, chartformat::percent(stats->meanAbsError), kValueRole));
            setItem(row, 3 + 2 * s,
                    numberCell(stats->maxAbsError, chartformat::percent(stats->maxAbsError), kValueRole));
        }
    }
}

int ErrorTable::rowOf(const QString &family) const
{
    return rowWithKey(this, 0, kFamilyRole, family);
}

} // namespace gapstudio::views
