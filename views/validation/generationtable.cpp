#include "validation/generationtable.h"

#include "charts/chartformat.h"
#include "validation/numbercell.h"

#include <QHeaderView>

#include <set>

namespace gapstudio::views {

GenerationTable::GenerationTable(QWidget *parent)
    : QTableWidget(parent)
{
    setObjectName(QStringLiteral("generationTable"));
    setUpErrorTable(this);
    setColumnCount(4);
    setHorizontalHeaderLabels({ tr("GPU generation"), tr("Runs"), tr("Mean |error|"), tr("Fit without it") });
    horizontalHeaderItem(UnseenError)
        ->setToolTip(tr("Mean |error| on the generation's runs of a calibration fitted without any of them "
                        "(recorded when the calibration was fitted): what to expect of a GPU generation "
                        "the calibration has not seen, such as a projected GPU."));
}

void GenerationTable::showGenerations(const scenario::ValidationSummary &summary,
                                      const scenario::FitSummary *fit)
{
    std::set<std::string> generations;
    for (const auto &entry : summary.generations)
        generations.insert(entry.first);
    if (fit)
        for (const auto &entry : fit->leaveOneGenerationOutMeanAbsError)
            generations.insert(entry.first);
    clearContents();
    setRowCount(static_cast<int>(generations.size()));
    int row = 0;
    for (const std::string &generation : generations) {
        auto *name = new QTableWidgetItem(QString::fromStdString(generation));
        name->setData(kGenerationRole, QString::fromStdString(generation));
        setItem(row, Generation, name);
        const auto stats = summary.generations.find(generation);
        const std::size_t runs = stats == summary.generations.end() ? 0 : stats->second.rows;
        setItem(row, Runs, numberCell(static_cast<double>(runs), QString::number(runs), kValueRole));
        if (runs > 0)
            setItem(row, MeanError,
                    numberCell(stats->second.meanAbsError, chartformat::percent(stats->second.meanAbsError),
                               kValueRole));
        if (fit) {
            const auto unseen = fit->leaveOneGenerationOutMeanAbsError.find(generation);
            if (unseen != fit->leaveOneGenerationOutMeanAbsError.end())
                setItem(row, UnseenError,
                        numberCell(unseen->second, chartformat::percent(unseen->second), kValueRole));
        }
        ++row;
    }
}

int GenerationTable::rowOf(const QString &generation) const
{
    return rowWithKey(this, Generation, kGenerationRole, generation);
}

} // namespace gapstudio::views
