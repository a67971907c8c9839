#pragma once
/**
 * @file numbercell.h
 * A right-aligned table cell showing `text` and carrying `value` in `role`, so that tests read
 * the number a table shows (the Validation view's error tables).
 */

#include <QTableWidgetItem>

namespace gapstudio::views {

[[nodiscard]] inline QTableWidgetItem *numberCell(double value, const QString &text, int role)
{
    auto *cell = new QTableWidgetItem(text);
    cell->setData(role, value);
    cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return cell;
}

} // namespace gapstudio::views
