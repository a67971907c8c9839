// The studio's menus without a main window: Help (Getting started, keyboard shortcuts, About,
// the first-run hint), File > Open example (the shipped scenarios in their groups), File > Open
// recent (the list kept in the settings) and Edit > New GPU (a block from datasheet figures).
// Opening an example or a recent file in the window is in tests/app/tst_mainwindow.cpp.
#include "charts/chartexport.h"
#include "studio/blockactions.h"
#include "studio/examplemenu.h"
#include "studio/helpmenu.h"
#include "studio/newblockdialog.h"
#include "studio/recentfiles.h"
#include "studio/scenariodocument.h"
#include "studio/userpresets.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <map>

using namespace gapstudio;
using namespace gapstudio::views;

namespace {
/// The actions of `menu` by their text, submenus as "Submenu > Action".
QStringList actionTexts(const QMenu *menu, const QString &prefix = {})
{
    QStringList texts;
    for (const QAction *action : menu->actions()) {
        if (action->isSeparator())
            continue;
        if (action->menu())
            texts << actionTexts(action->menu(), prefix + action->text() + QStringLiteral(" > "));
        else
            texts << prefix + action->text();
    }
    return texts;
}

QAction *findAction(const QMenu *menu, const QString &path)
{
    for (QAction *action : menu->actions()) {
        if (action->menu() && path.startsWith(action->text() + QStringLiteral(" > ")))
            return findAction(action->menu(), path.mid(action->text().size() + 3));
        if (action->text() == path)
            return action;
    }
    return nullptr;
}
} // namespace

class tst_Menus : public QObject {
    Q_OBJECT

    QTemporaryDir mHome; // settings and user presets of this test only

private slots:
    void initTestCase()
    {
        QVERIFY(mHome.isValid());
        qputenv("XDG_DATA_HOME", mHome.filePath(QStringLiteral("data")).toUtf8());
        qputenv("XDG_CONFIG_HOME", mHome.filePath(QStringLiteral("config")).toUtf8());
        QCoreApplication::setOrganizationName(QStringLiteral("GapStudioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_menus"));
    }

    void helpMenu()
    {
        QMainWindow window;
        QMenu *file = window.menuBar()->addMenu(QStringLiteral("&File"));
        file->addAction(QStringLiteral("&Open…"))->setShortcut(QKeySequence(QStringLiteral("Ctrl+O")));
        file->addAction(QStringLiteral("No shortcut"));
        auto *help = new HelpMenu(&window, nullptr);
        window.menuBar()->addMenu(help);
        QCOMPARE(actionTexts(help),
                 (QStringList { QStringLiteral("&Getting started"), QStringLiteral("&Keyboard shortcuts"),
                                QStringLiteral("&About GapStudio") }));

        // Keyboard shortcuts: every menu action with one, by its menu path in words.
        const QList<QPair<QString, QString>> shortcuts = shortcutList(&window);
        QVERIFY(shortcuts.contains(
            qMakePair(QStringLiteral("File > Open"),
                      QKeySequence(QStringLiteral("Ctrl+O")).toString(QKeySequence::NativeText))));
        QVERIFY(shortcuts.contains(
            qMakePair(QStringLiteral("Help > Getting started"),
                      QKeySequence(QKeySequence::HelpContents).toString(QKeySequence::NativeText))));
        for (const auto &[action, keys] : shortcuts)
            QVERIFY2(!action.contains(QStringLiteral("No shortcut")) && !keys.isEmpty(), qPrintable(action));

        // About: the version and the model's provenance; without results no calibration line.
        const QString about = aboutText(nullptr);
        QVERIFY(about.contains(gapstudioVersion()));
        QVERIFY(about.contains(QStringLiteral("Calculon")));
        QVERIFY(about.contains(QStringLiteral("calculon-MoE")));
        QVERIFY(!about.contains(QStringLiteral("Calibration in use")));

        // Getting started: four steps, Back and Next stop at the ends.
        GettingStartedDialog tour; // not the window's: the window's are counted below
        QCOMPARE(tour.stepCount(), 4);
        QCOMPARE(tour.step(), 0);
        QPushButton *next = nullptr;
        for (QPushButton *button : tour.findChildren<QPushButton *>())
            if (button->text() == QStringLiteral("Next"))
                next = button;
        QVERIFY(next);
        next->click();
        QCOMPARE(tour.step(), 1);
        tour.setStep(10);
        QCOMPARE(tour.step(), 3);
        QVERIFY(!next->isEnabled());
        tour.setStep(-1);
        QCOMPARE(tour.step(), 0);

        // The first-run hint shows once, then never again on its own.
        const auto tours = [&window] { return window.findChildren<GettingStartedDialog *>().size(); };
        help->showFirstRunHintOnce();
        QCOMPARE(tours(), 1);
        help->showFirstRunHintOnce();
        QCOMPARE(tours(), 1);
        QVERIFY(findAction(help, QStringLiteral("&Getting started")));
        findAction(help, QStringLiteral("&Getting started"))->trigger(); // from the menu: always
        QCOMPARE(tours(), 2);
    }

    void exampleMenuGroups()
    {
        const scenario::PresetLibrary library = loadStudioLibrary();
        const std::vector<ExampleScenario> examples = exampleScenarios(library);
        QVERIFY(!examples.empty());
        QCOMPARE(examples.front().relativePath, QStringLiteral("scenarios/default.gapstudio.json"));
        std::map<QString, QStringList> groups; // group -> file paths
        for (const ExampleScenario &e : examples)
            groups[e.group] << e.relativePath;
        // The paper's comparison sets by their folder, six designs each.
        const QString moe = QStringLiteral("Paper MoE 1.8T 4096 GPUs");
        const QString gpt3 = QStringLiteral("Paper GPT3 175B 4096 GPUs");
        QCOMPARE(groups[moe].size(), 6);
        QCOMPARE(groups[gpt3].size(), 6);
        QVERIFY(groups[moe].contains(
            QStringLiteral("scenarios/paper-MoE-1.8T-4096-GPUs/h100-fullflat.gapstudio.json")));
        // Top-level examples by the LLM they train.
        QVERIFY(groups[QStringLiteral("GPT-3 175B")].contains(
            QStringLiteral("scenarios/gpt3-175b-4096-h100-fp8.gapstudio.json")));
        QVERIFY(groups[QStringLiteral("Megatron 22B")].contains(
            QStringLiteral("scenarios/val01-megatron-22b-a100.gapstudio.json")));

        // The menu: the default at the top, one submenu per group; choosing one names its file.
        ExampleMenu menu(&library);
        QCOMPARE(menu.actions().front()->text(), examples.front().name);
        QStringList submenus;
        for (const QAction *action : menu.actions())
            if (action->menu())
                submenus << action->text();
        QVERIFY(submenus.contains(moe));
        QVERIFY(submenus.contains(gpt3));
        QVERIFY(submenus.contains(QStringLiteral("GPT-3 175B")));
        QSignalSpy chosen(&menu, &ExampleMenu::exampleChosen);
        QAction *flat
            = findAction(&menu, moe + QStringLiteral(" > GPT-4-class MoE on 4096 GPUs: H100, FullFlat"));
        QVERIFY(flat);
        flat->trigger();
        QCOMPARE(chosen.size(), 1);
        const QString path = chosen.front().front().toString();
        QCOMPARE(path, QStringLiteral("scenarios/paper-MoE-1.8T-4096-GPUs/h100-fullflat.gapstudio.json"));
        const std::optional<scenario::Scenario> opened = loadExample(path);
        QVERIFY(opened);
        QCOMPARE(opened->info.id, std::string("paper-moe-4096-h100-fullflat"));
        QString error;
        QVERIFY(!loadExample(QStringLiteral("scenarios/missing.gapstudio.json"), &error));
        QVERIFY(!error.isEmpty());
    }

    void recentFiles()
    {
        QTemporaryDir dir;
        RecentFiles recent;
        recent.clearFiles();
        QCOMPARE(actionTexts(&recent), QStringList { QStringLiteral("No recent files") });
        QStringList paths;
        for (int i = 0; i < RecentFiles::kMaxFiles + 2; ++i) {
            paths << dir.filePath(QStringLiteral("design%1.gapstudio.json").arg(i));
            QFile file(paths.back());
            QVERIFY(file.open(QIODevice::WriteOnly));
        }
        recent.add(paths[0]);
        recent.add(paths[1]);
        recent.add(paths[0]); // moves up, not listed twice
        QCOMPARE(RecentFiles::files(), (QStringList { paths[0], paths[1] }));
        QCOMPARE(actionTexts(&recent), (QStringList { QStringLiteral("&1 design0.gapstudio.json"),
                                                      QStringLiteral("&2 design1.gapstudio.json"),
                                                      QStringLiteral("Clear the list") }));
        QSignalSpy chosen(&recent, &RecentFiles::fileChosen);
        findAction(&recent, QStringLiteral("&2 design1.gapstudio.json"))->trigger();
        QCOMPARE(chosen.size(), 1);
        QCOMPARE(chosen.front().front().toString(), paths[1]);

        for (const QString &path : paths)
            recent.add(path);
        QCOMPARE(RecentFiles::files().size(), RecentFiles::kMaxFiles); // the oldest dropped
        QCOMPARE(RecentFiles::files().front(), paths.back());
        QFile::remove(paths.back()); // a file that no longer exists is left out
        QCOMPARE(RecentFiles::files().front(), paths[paths.size() - 2]);
        RecentFiles reopened;                                                    // a new session's menu
        QCOMPARE(actionTexts(&reopened).size(), RecentFiles::kMaxFiles - 1 + 1); // the files and Clear
        findAction(&recent, QStringLiteral("Clear the list"))->trigger();
        QVERIFY(RecentFiles::files().isEmpty());
    }

    void newGpuDialog()
    {
        ScenarioDocument document(loadStudioLibrary());
        document.resetToExample(studioDefaultScenario());
        NewBlockDialog dialog(NewBlockDialog::Kind::Gpu, document.library());
        auto *ok = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        QVERIFY(!ok->isEnabled()); // a block needs a name
        dialog.basedOn()->setCurrentIndex(dialog.basedOn()->findData(QStringLiteral("nvidia-h100-sxm-80gb")));
        // Filled from the preset's figures (presets/gpus/nvidia-h100-sxm-80gb.json: 1000 TFLOPS
        // BF16, 2000 FP8, 80 GiB at 3072 GB/s, 700 W).
        QCOMPARE(dialog.field(QStringLiteral("peak16"))->value(), 1000.0);
        QCOMPARE(dialog.field(QStringLiteral("peak8"))->value(), 2000.0);
        QCOMPARE(dialog.field(QStringLiteral("hbmCapacity"))->value(), 80.0);
        QCOMPARE(dialog.field(QStringLiteral("hbmBandwidth"))->value(), 3072.0);
        QCOMPARE(dialog.field(QStringLiteral("power"))->value(), 700.0);

        // Edit > New GPU as the menu runs it: the dialog, then the block under My blocks and in
        // the design.
        QTimer::singleShot(0, this, [] {
            QWidget *modal = QApplication::activeModalWidget();
            auto *d = qobject_cast<NewBlockDialog *>(modal);
            if (!d && modal)
                modal->close(); // not the dialog: end the test instead of waiting
            QVERIFY(d);
            d->basedOn()->setCurrentIndex(d->basedOn()->findData(QStringLiteral("nvidia-h100-sxm-80gb")));
            d->nameEdit()->setText(QStringLiteral("H100 with 141 GiB"));
            d->field(QStringLiteral("hbmCapacity"))->setValue(141);
            d->field(QStringLiteral("peak16"))->setValue(500); // half: the vector engines follow
            d->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        });
        newBlockInteractive(nullptr, &document, NewBlockDialog::Kind::Gpu);
        QCOMPARE(document.scenario().gpu.presetId, std::string("h100-with-141-gib"));
        QVERIFY(QFile::exists(userPresetFolder() + QStringLiteral("/gpus/h100-with-141-gib.json")));
        const scenario::Gpu &mine = document.library().gpus.at("h100-with-141-gib");
        QCOMPARE(mine.hbm.capacity_B, 141.0 * 1024 * 1024 * 1024);
        const auto bf16 = static_cast<std::size_t>(model::Datatype::Bfloat16);
        QCOMPARE(mine.matrixPeak_flops[bf16].value_or(0), 500e12);
        QCOMPARE(mine.vectorPeak_flops[bf16].value_or(0), 60e12); // 120 TFLOPS x 500/1000
        QCOMPARE(mine.hbm.bandwidth_Bps, 3072e9);                 // kept from the base
    }
};

QTEST_MAIN(tst_Menus)
#include "tst_menus.moc"
