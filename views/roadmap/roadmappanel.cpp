#include "roadmap/roadmappanel.h"

#include "roadmap/roadmapchart.h"
#include "roadmap/roadmaptable.h"
#include "studio/scenariodocument.h"

#include <QFileInfo>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

namespace gapstudio::views {

RoadmapPanel::RoadmapPanel(ScenarioDocument *document, QWidget *parent)
    : QWidget(parent)
    , mDocument(document)
    , mTitle(new QLabel(this))
    , mProblem(new QLabel(this))
    , mChart(new RoadmapChart(this))
    , mTable(new RoadmapTable(this))
{
    setObjectName(QStringLiteral("roadmap_panel"));
    mTitle->setObjectName(QStringLiteral("roadmap_title"));
    mTitle->setWordWrap(true);
    mProblem->setObjectName(QStringLiteral("roadmap_problem"));
    mProblem->setWordWrap(true);
    mProblem->setStyleSheet(QStringLiteral("color: #b00020"));
    mProblem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    mProblem->hide();
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(mChart);
    split->addWidget(mTable);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(mTitle);
    layout->addWidget(mProblem);
    layout->addWidget(split, 1);
    mTitle->setText(tr("No roadmap open: File > Open roadmap…, or File > Example roadmaps."));
    connect(mChart, &RoadmapChart::stepClicked, this, &RoadmapPanel::openStep);
    connect(mTable, &RoadmapTable::stepActivated, this, &RoadmapPanel::openStep);
}

bool RoadmapPanel::openFile(const QString &path, QString *error)
{
    QString why;
    RoadmapPtr roadmap = loadRoadmapFile(path, mDocument->library(), &why);
    return present(std::move(roadmap), why, error);
}

bool RoadmapPanel::openShipped(const QString &relativePath, QString *error)
{
    QString why;
    RoadmapPtr roadmap = loadShippedRoadmap(relativePath, mDocument->library(), &why);
    return present(std::move(roadmap), why, error);
}

bool RoadmapPanel::present(RoadmapPtr roadmap, const QString &error, QString *errorOut)
{
    if (!roadmap) { // keep what is shown; say why the file could not be opened
        mProblem->setText(tr("Could not open the roadmap: %1").arg(error));
        mProblem->show();
        if (errorOut)
            *errorOut = error;
        return false;
    }
    setRoadmap(std::move(roadmap));
    emit roadmapOpened();
    return true;
}

void RoadmapPanel::setRoadmap(RoadmapPtr roadmap)
{
    mRoadmap = std::move(roadmap);
    mChart->setRoadmap(mRoadmap);
    mTable->setRoadmap(mRoadmap);
    if (!mRoadmap) {
        mProblem->hide();
        return;
    }
    const QString source = QString::fromStdString(mRoadmap->roadmap.source);
    mTitle->setText(tr("<b>%1</b> (%2): %n step(s). Double-click a step to open it.", nullptr,
                       int(mRoadmap->steps.size()))
                        .arg(QString::fromStdString(mRoadmap->roadmap.name).toHtmlEscaped(),
                             QFileInfo(mRoadmap->file).fileName().toHtmlEscaped()));
    mTitle->setToolTip(source);
    // Steps that do not run, then steps whose $ figures leave parts out.
    const QStringList notes = mRoadmap->problems + mRoadmap->costWarnings;
    mProblem->setText(notes.join(QLatin1Char('\n')));
    mProblem->setVisible(!notes.isEmpty());
}

bool RoadmapPanel::openStep(int index)
{
    if (!mRoadmap || index < 0 || std::size_t(index) >= mRoadmap->roadmap.steps.size())
        return false;
    if (mOpenGuard && !mOpenGuard())
        return false;
    mDocument->reset(mRoadmap->roadmap.steps[std::size_t(index)].scenario);
    return true;
}

QString RoadmapPanel::problem() const
{
    return mProblem->isHidden() ? QString() : mProblem->text();
}

} // namespace gapstudio::views
