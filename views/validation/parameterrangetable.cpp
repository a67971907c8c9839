#include "validation/parameterrangetable.h"

#include "validation/numbercell.h"

namespace gapstudio::views {

ParameterRangeTable::ParameterRangeTable(QWidget *parent)
    : QTableWidget(parent)
{
    setObjectName(QStringLiteral("parameterRangeTable"));
    setUpErrorTable(this);
    setColumnCount(4);
    setHorizontalHeaderLabels({ tr("Parameter"), tr("Fitted"), tr("Range from"), tr("to") });
    setToolTip(tr("Parameters the calibration's fit put at or beyond an end of their documented plausible "
                  "range (microbenchmarks, datasheets, vendor figures): the runs want a value no measured "
                  "kernel or link gives, so the model lacks a mechanism there."));
}

void ParameterRangeTable::showFit(const scenario::FitSummary *fit)
{
    clearContents();
    setRowCount(0);
    if (!fit)
        return;
    const auto number = [](double v) { return QString::number(v, 'g', 3); };
    for (const scenario::FittedParameter &p : fit->parameters) {
        if (!p.atBound)
            continue;
        const int row = rowCount();
        setRowCount(row + 1);
        auto *name = new QTableWidgetItem(QString::fromStdString(p.name));
        name->setData(kValueRole, QString::fromStdString(p.name));
        setItem(row, Parameter, name);
        setItem(row, Value, numberCell(p.value, number(p.value), kValueRole));
        setItem(row, Low, numberCell(p.low, number(p.low), kValueRole));
        setItem(row, High, numberCell(p.high, number(p.high), kValueRole));
    }
}

int ParameterRangeTable::rowOf(const QString &name) const
{
    return rowWithKey(this, Parameter, kValueRole, name);
}

} // namespace gapstudio::views
