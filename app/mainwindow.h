#pragma once

#include <QMainWindow>

namespace gapstudio {

/// The main window: wiring only. The views own their widgets; the model owns every number.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);
};

} // namespace gapstudio
