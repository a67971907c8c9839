#pragma once
/**
 * @file numbercell.h
 * The Validation view's error tables: read-only, without row numbers, columns sized to their
 * contents; their number cells right-aligned and carrying the value in a role, so that tests read
 * the number a table shows.
 */

#include <QHeaderView>
#include <QTableWidget>
#include <QTableWidgetItem>

namespace gapstudio::views {

/// A header and a row at least: four tables share the Validation view's side column, which must
/// leave room for the docks above it in a 1280 x 800 window (the tables grow with the window).
inline void setSideTableMinimumHeight(QTableWidget *table)
{
    table->setMinimumHeight(table->fontMetrics().height() * 3);
}

/// Sets `table` up as a read-only table of numbers.
inline void setUpErrorTable(QTableWidget *table)
{
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionMode(QAbstractItemView::NoSelection);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    setSideTableMinimumHeight(table);
}

/// The first row of `table` whose `column` cell holds `key` in `role`, or -1.
[[nodiscard]] inline int rowWithKey(const QTableWidget *table, int column, int role, const QString &key)
{
    for (int row = 0; row < table->rowCount(); ++row)
        if (const QTableWidgetItem *cell = table->item(row, column);
            cell && cell->data(role).toString() == key)
            return row;
    return -1;
}

/// A right-aligned cell showing `text`, with `value` in `role`.
[[nodiscard]] inline QTableWidgetItem *numberCell(double value, const QString &text, int role)
{
    auto *cell = new QTableWidgetItem(text);
    cell->setData(role, value);
    cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return cell;
}

} // namespace gapstudio::views
