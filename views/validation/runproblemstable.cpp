#include "validation/runproblemstable.h"

#include "validation/numbercell.h"

#include <QHeaderView>

namespace gapstudio::views {

RunProblemsTable::RunProblemsTable(QWidget *parent)
    : QTableWidget(0, 3, parent)
{
    setObjectName(QStringLiteral("runProblemsTable"));
    setHorizontalHeaderLabels({ tr("Run"), tr("What happened"), tr("Cause") });
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setWordWrap(true);
    verticalHeader()->hide();
    verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);
    setSideTableMinimumHeight(this);
}

QString RunProblemsTable::statusText(scenario::RunStatus status)
{
    switch (status) {
    case scenario::RunStatus::Ok:
        break;
    case scenario::RunStatus::OverCapacity:
        return tr("Over memory capacity in the model (plotted: the run did fit)");
    case scenario::RunStatus::Infeasible:
        return tr("Rejected by the model: no prediction");
    case scenario::RunStatus::Invalid:
        return tr("Cannot be evaluated: no prediction");
    }
    return tr("Predicted");
}

void RunProblemsTable::showRows(const std::vector<scenario::ValidationRow> &rows)
{
    setRowCount(0);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const scenario::ValidationRow &r = rows[i];
        if (r.status == scenario::RunStatus::Ok)
            continue;
        const int row = rowCount();
        insertRow(row);
        auto *run = new QTableWidgetItem(QString::fromStdString(r.id));
        run->setData(kIndexRole, static_cast<int>(i));
        run->setToolTip(
            QStringLiteral("%1 (%2)").arg(QString::fromStdString(r.name), QString::fromStdString(r.family)));
        auto *cause = new QTableWidgetItem(QString::fromStdString(r.cause));
        cause->setToolTip(cause->text());
        setItem(row, 0, run);
        setItem(row, 1, new QTableWidgetItem(statusText(r.status)));
        setItem(row, 2, cause);
    }
}

} // namespace gapstudio::views
