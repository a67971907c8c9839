#pragma once
/**
 * @file wheelguard.h
 * The mouse wheel scrolls, it does not edit by accident. A dock holds its spin boxes, combo boxes
 * and sliders in a scroll area; by Qt's default they take the wheel (and the keyboard focus with
 * it) as soon as the pointer passes over them, so scrolling the Layout dock changed DP and the GPU
 * count one tick at a time. With the guard, an editor takes the wheel only once the user has
 * clicked or tabbed into it; otherwise the wheel event is ignored by the editor and Qt hands it to
 * the widgets that hold it, the dock's scroll area among them (Qt 6 QWheelEvent documentation:
 * "You should call ignore() if you do not handle the wheel event; this ensures that it will be
 * sent to the parent widget").
 */

#include <QObject>

class QWidget;

namespace gapstudio::views {

/// True for the widgets the guard looks after: spin boxes, combo boxes and sliders.
[[nodiscard]] bool isWheelEditor(const QWidget *widget);

/// Installs the guard on the application (once; later calls do nothing). Every editor polished
/// from then on gets Qt::StrongFocus instead of Qt::WheelFocus and ignores the wheel unless it has
/// the keyboard focus.
void installWheelGuard();

} // namespace gapstudio::views
