# Mutations of the input and output contract: bounded readers, data-safe and whole-set writes,
# usage errors and the grid's output order (sourced by tests/mutation-check.sh; format in its
# header).
# shellcheck shell=bash
mutation "grid file read without the size limit" views/designspace/gridfile.cpp \
    'content = io::readInputFile(path.toStdString());' \
    'content = io::readInputFile(path.toStdString(), ~std::uintmax_t { 0 });' \
    "tst_gridheatmap:hostileFilesAreRefused"
mutation "grid lines nested without a limit" views/designspace/gridfile.cpp \
    '&& depth >= static_cast<int>(io::kMaxJsonDepth))' \
    '&& depth < 0)' \
    "tst_gridheatmap:hostileFilesAreRefused"
mutation "temporaries of killed writers kept" model/src/io/safe_file.cpp \
    'removeTemporariesOfEndedWriters(folder);' \
    'if (false) removeTemporariesOfEndedWriters(folder);' \
    "tst_safe_file:temporariesOfKilledWritersAreRemoved"
mutation "a live writer's temporary removed" model/src/io/safe_file.cpp \
    'if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)' \
    'if (pid > 0)' \
    "tst_safe_file:temporariesOfKilledWritersAreRemoved"
mutation "chart files written in place, not as a set" views/report/headless.cpp \
    'if (!exportChart(*file.chart, staging.filePath(file.name), provenance, 1.0, &error)) {' \
    'if (!exportChart(*file.chart, QDir(dir).filePath(file.name), provenance, 1.0, &error)) {' \
    "tst_headless_errors:chartSetIsReplacedWholeOrNotAtAll"
mutation "an infinite token budget accepted" views/report/headless.cpp \
    'if (!ok || !std::isfinite(options.tokenBudget) || !(options.tokenBudget > 0)) {' \
    'if (!ok || !(options.tokenBudget > 0)) {' \
    "tst_headless_errors:badInputExitsTwo"
mutation "help lost on a full disk reported as success" app/main.cpp \
    'if (std::fflush(stdout) != 0 || std::ferror(stdout)) {' \
    'if (false) {' \
    "tst_headless_errors:helpToAFullDiskIsExit3"
mutation "a window size no screen shows accepted" app/main.cpp \
    'if (!okW || !okH || w < 320 || w > 7680 || h < 240 || h > 4320)' \
    'if (!okW || !okH || w > 7680 || h > 4320)' \
    "tst_headless_errors:windowSizeOutOfRangeIsExit2"
mutation "grid lines skipped on the way out" app/cli/grid_run.cpp \
    'for (; cursor < count && done[cursor]; ++cursor) {' \
    'for (; cursor < count && done[cursor]; cursor += 2) {' \
    "tst_grid_stream:everyItemOnceInOrder"
mutation "an infeasible design reported twice" views/report/headlessstatus.cpp \
    'if (results.diagnostics.empty())' \
    'if (true)' \
    "tst_headless_errors:guiAndCliAgreeOnAnInfeasibleScenario"
mutation "the app's errors off the contract's prefix" views/report/headlessstatus.cpp \
    'std::fprintf(stderr, "error: %s\n", qPrintable(message));' \
    'std::fprintf(stderr, "gapstudio: %s\n", qPrintable(message));' \
    "tst_headless_errors:guiAndCliAgreeOnAnInfeasibleScenario"
mutation "validate's exit-1 line without error: and the file" app/cli/validate.cpp \
    'std::cerr << "error: " << measurements[i].file << ": run " << row.id << " is "' \
    'std::cerr << row.id << " is "' \
    "tst_cli_validate:runThatCannotRunIsAnErrorLine"
mutation "saved files name the user's blocks by id" model/src/scenario/self_contained.cpp \
    '        if (everywhere && *everywhere == *block)' \
    '        if (everywhere || true)' \
    "tst_selfcontained:savedFileRunsWithoutTheUsersBlocks"
mutation "an enlarged chart misses the design's changes" views/charts/chartspanel.cpp \
    'if (chart)' \
    'if (chart && false)' \
    "tst_mainwindow:chartEnlarges"
mutation "the calibration note crowds out the chart tabs" views/common/cornernote.cpp \
    'fontMetrics().elidedText(mWhole, Qt::ElideRight, std::max(0, room));' \
    'room > 0 ? mWhole : mWhole;' \
    "tst_smallscreen:everyChartTabShows"
mutation "the generation table halves what the fit recorded" views/validation/generationtable.cpp \
    'numberCell(unseen->second,' \
    'numberCell(unseen->second / 2,' \
    "tst_validationview:errorPerGpuGeneration"
mutation "the PDF footer runs into the page number" views/report/reportpainter.cpp \
    'metrics.elidedText(mFooter, Qt::ElideMiddle, room)' \
    'metrics.elidedText(mFooter, Qt::ElideMiddle, room * 10)' \
    "tst_report:footerStopsShortOfThePageNumber"
# mainwindowdocks.cpp: Key results says layout problems as the Layout panel does
mutation "Key results shows the model's raw diagnostic" app/mainwindowdocks.cpp \
    'return diagnosticInWords(d, execution);' \
    'return execution ? QString::fromStdString(d.message) : QString::fromStdString(d.message);' \
    "tst_mainwindow:keyResultsSayLayoutProblemsInWords"
# blockinspector.cpp: a slider edit shows next to the block's name and preset id
mutation "Block parameters ignore the sliders' edits" views/studio/blockinspector.cpp \
    'if (std::string_view(key).starts_with(prefix))' \
    'if (std::string_view(key).starts_with(prefix) && false)' \
    "tst_blockedits:sliderEditShowsInTheBlockParameters"
# resultstable.cpp: pinned designs' names are not cut in Key results' headers
mutation "Key results cuts pinned designs' names" views/results/resultstable.cpp \
    'horizontalHeader()->setSectionResizeMode(column, compare ? QHeaderView::ResizeToContents' \
    'horizontalHeader()->setSectionResizeMode(column, compare ? QHeaderView::Interactive' \
    "tst_mainwindow:pinnedScenariosSideBySide"
# cornernote.cpp, explorepanel.cpp: the Explore dock's calibration note leaves its tabs in view
mutation "the Explore calibration note is not fitted beside the tabs" views/explore/explorepanel.cpp \
    'mCalibration->fitBeside(mTabs);' \
    'mCalibration->setText(mCalibration->wholeText());' \
    "tst_smallscreen:everyChartTabShows"
# plotchart.cpp: a placeholder message is centred on the whole chart, not on a plot area
# narrowed by the empty legend
mutation "an Explore placeholder is cut at its left edge" views/charts/plotchart.cpp \
    'if (mPlot->legend->layout()) {' \
    'if (mPlot->legend->layout() && false) {' \
    "tst_cosmetics:explorePlaceholdersWhole"
# tornadochart.cpp: the Sensitivity chart names its rows in one line when two do not fit
mutation "the Sensitivity chart's row names run into each other" views/explore/tornadochart.cpp \
    'const bool twoLines = row_px >= 2 * QFontMetrics(axis->tickLabelFont()).lineSpacing() + 2;' \
    'const bool twoLines = row_px >= 0;' \
    "tst_cosmetics:sensitivityLabelsApart"
# chartinteraction.cpp: zoomed in, a value label out of view is not drawn
mutation "a zoomed chart draws labels of bars out of view" views/charts/chartinteraction.cpp \
    'label->setVisible(!zoomed || area.contains(label->position->pixelPosition()));' \
    'label->setVisible(area.isValid() || !area.isValid());' \
    "tst_chartzoom:zoomedLabelsStayInView"
# Overlays of every pin: the charts dock, the runs a chart draws, their places and fills, the
# legend's names of the pins, the headline wrapped to the plot
mutation "the charts draw the first pin only" app/mainwindowdocks.cpp \
    'mCharts->setPins(mPinned->pins());' \
    'mCharts->setPins(mPinned->pins().mid(0, 1));' \
    "tst_pinoverlays:everyChartOverlaysEveryPin"
mutation "a chart draws no pin after the first" views/charts/chartview.cpp \
    'if (!shows(pin.results))' \
    'if (i > 0 || !shows(pin.results))' \
    "tst_pinoverlays:everyChartOverlaysEveryPin"
mutation "the legend does not say which design a pin is" views/charts/chartview.cpp \
    'if (!numbersPins())' \
    'if (true)' \
    "tst_pinoverlays:everyChartOverlaysEveryPin"
mutation "the pins are filled alike" views/charts/chartformat.h \
    'return QBrush(color, kHatches[(pin - 2) % std::size(kHatches)]);' \
    'return QBrush(baselineShade(color), kHatches[0] == Qt::NoBrush ? Qt::NoBrush : Qt::SolidPattern);' \
    "tst_pinoverlays:everyChartOverlaysEveryPin"
mutation "the runs' bars are drawn on top of each other" views/charts/chartformat.h \
    'return { -0.42 + (index + 0.5) * pitch, pitch - 0.04 };' \
    'return { 0.0 * index, pitch - 0.04 };' \
    "tst_pinoverlays:everyChartOverlaysEveryPin"
mutation "a long headline runs past the plot" views/charts/plotchart.cpp \
    'if (text == mHeadline->text())' \
    'if (true)' \
    "tst_pinoverlays:everyChartOverlaysEveryPin"
mutation "the report's charts draw the first pin only" views/report/report.cpp \
    'writeCharts(out, section, current, pinned); // every pin overlaid' \
    'writeCharts(out, section, current, { pinned.begin(), pinned.begin() + std::min<std::size_t>(1, pinned.size()) });' \
    "tst_report:reportComparesSeveralPinnedDesigns"
# bandwidthchart.cpp: a tier's category is named from the analysis' fields, not its label
mutation "the bandwidth chart names a tier by its whole label" views/charts/bandwidthchart.cpp \
    'return cf::qs(tier.name);' \
    'return cf::qs(tier.label);' \
    "tst_charts:bandwidthTicksNameTierAndUsers"
# plotchart.cpp, whenseen.cpp, explorepanel.cpp: views out of sight wait until they are seen
mutation "a hidden chart drawn at every change" views/charts/plotchart.cpp \
    'if (!isSeen(this)) {' \
    'if (false) {' \
    "tst_redraws:hiddenViewsWaitUntilTheirTabIsClicked"
mutation "a chart put off is not drawn when its tab is clicked" views/charts/plotchart.cpp \
    'if (watched == mPlot && event->type() == QEvent::Paint && (mStale || mDataStale))' \
    'if (false)' \
    "tst_redraws:hiddenViewsWaitUntilTheirTabIsClicked"
mutation "a hidden panel updated at every change" views/common/whenseen.cpp \
    'if (!mWidget->window()->isVisible() || isSeen(mWidget)) {' \
    'if (true) {' \
    "tst_redraws:hiddenViewsWaitUntilTheirTabIsClicked"
mutation "a dock's tab raised does not bring its panel up to date" views/common/whenseen.cpp \
    'if (visible)' \
    'if (visible && false)' \
    "tst_redraws:hiddenViewsWaitUntilTheirTabIsClicked"
mutation "a dock's tab behind another counts as seen" views/common/whenseen.cpp \
    'area = area.translated(w->pos()) & w->parentWidget()->rect();' \
    'area = area.translated(w->pos());' \
    "tst_redraws:hiddenViewsWaitUntilTheirTabIsClicked"
mutation "Explore's sweeps computed at every change" views/explore/explorepanel.cpp \
    'if (isSeen(this))' \
    'if (true)' \
    "tst_redraws:hiddenViewsWaitUntilTheirTabIsClicked"
mutation "Explore's sweeps never computed when their chart is seen" views/explore/explorepanel.cpp \
    'chart->setDataUpdater([this] { updateFastChartsIfStale(); });' \
    'chart->setDataUpdater([] {});' \
    "tst_redraws:hiddenViewsWaitUntilTheirTabIsClicked"
mutation "block parameters keep the rows of the part shown before" views/studio/blockinspector.cpp \
    'setRowCount(mFilled);' \
    '(void)mFilled;' \
    "tst_redraws:blockParametersWriteOverTheRowsShown"
mutation "block parameters rewrite rows that read the same" views/studio/blockinspector.cpp \
    'if (item->text() == text && item->toolTip() == tip && item->flags() == flags)' \
    'if (false)' \
    "tst_redraws:blockParametersWriteOverTheRowsShown"
mutation "a value label laid out again at each slider step" views/studio/valuefield.cpp \
    'mLabel->setFixedSize(std::max(width, mLabel->minimumWidth()), height);' \
    'mLabel->setMinimumSize(std::max(width, mLabel->minimumWidth()), height);' \
    "tst_redraws:aSliderStepLaysNothingOut"
mutation "a value label that does not grow to a longer text" views/studio/valuefield.cpp \
    'if (width > mLabel->minimumWidth() || mLabel->maximumWidth() != mLabel->minimumWidth()' \
    'if (mLabel->maximumWidth() != mLabel->minimumWidth()' \
    "tst_redraws:aValueLabelGrowsToItsText"
mutation "a status tip drawn over the summary" views/studio/statussummary.cpp \
    'setVisible(message.isEmpty());' \
    'setVisible(message.isEmpty() || true);' \
    "tst_statussummary:summaryComesBackAfterAMenu"
mutation "Cost and power written while its tab is behind another" views/cost/costpanel.cpp \
    'mWhenSeen->run([this] { showResults(); });' \
    'showResults();' \
    "tst_redraws:aSliderStepLaysNothingOut"
mutation "Cost and power never brought up to date" views/cost/costpanel.cpp \
    'mWhenSeen->run([this] { showResults(); });' \
    '(void)mWhenSeen;' \
    "tst_redraws:aSliderStepLaysNothingOut"
mutation "Diagnostics rebuilt at every change" views/studio/diagnosticslist.cpp \
    'if (lines.size() != count()) {' \
    'if (true) {' \
    "tst_redraws:aSliderStepLaysNothingOut"
mutation "Diagnostics' line left with the old figures" views/studio/diagnosticslist.cpp \
    'if (shown->text() != line.text)' \
    'if (false)' \
    "tst_redraws:aSliderStepLaysNothingOut"
mutation "a spin box of the layout rewritten to its own value" views/studio/layoutpanel.cpp \
    'if (spin->value() != static_cast<int>(e.*member))' \
    'if (true)' \
    "tst_redraws:aSliderStepLaysNothingOut"
mutation "a legend entry's name drawn a pixel low" views/charts/legendtexts.cpp \
    'iconSize.width() + mParentLegend->iconTextPadding(), mRect.y()),' \
    'iconSize.width() + mParentLegend->iconTextPadding(), mRect.y() + 1),' \
    "tst_chartstates:legendEntriesAreQCustomPlots"
mutation "a legend entry measured without its margins" views/charts/legendtexts.cpp \
    'result.rwidth() += mMargins.left() + mMargins.right();' \
    '(void)result;' \
    "tst_chartstates:legendEntriesAreQCustomPlots"
mutation "a legend entry keeps the layout of its first font" views/charts/legendtexts.cpp \
    'if (!mHasText || font != mTextFont || mPlottable->name() != mTextName' \
    'if (!mHasText || mPlottable->name() != mTextName' \
    "tst_chartstates:legendEntriesAreQCustomPlots"
mutation "a replaced legend entry loses its text colour" views/charts/legendtexts.cpp \
    'entry->setTextColor(original->textColor());' \
    '(void)original->textColor();' \
    "tst_chartstates:legendEntriesAreQCustomPlots"
mutation "charts keep QCustomPlot's legend entries" views/charts/plotchart.cpp \
    'mLegendTexts->adopt(mPlot->legend);' \
    '(void)mLegendTexts;' \
    "tst_chartstates:legendFitsTheWidth"
mutation "the status summary does not follow the bar's width" views/studio/statussummary.cpp \
    'if (watched == mBar && event->type() == QEvent::Resize)' \
    'if (false)' \
    "tst_statussummary:aNarrowBarShortensTheSummary"
mutation "the status summary cut at the bar's edge" views/studio/statussummary.cpp \
    'mIsElided = x > width;' \
    'mIsElided = x > width && false;' \
    "tst_statussummary:aNarrowBarShortensTheSummary"
mutation "the status summary drawn off the middle of its line" views/studio/statussummary.cpp \
    'area.top() + (area.height() - lineHeight) / 2' \
    'area.top() + (area.height() - lineHeight) / 3' \
    "tst_statussummary:theSummaryIsDrawnAsALabel"
mutation "the status summary repaints its whole line for a new figure" views/studio/statussummary.cpp \
    'update(changed.toAlignedRect());' \
    'update();' \
    "tst_statussummary:aNewFigureRepaintsItsPieceOnly"
mutation "the status summary leaves moved pieces where they were" views/studio/statussummary.cpp \
    'if (!old || old->text != piece.text || old->x != piece.x || newFont)' \
    'if (!old || old->text != piece.text || newFont)' \
    "tst_statussummary:aNewFigureRepaintsItsPieceOnly"
mutation "the status summary keeps a dropped piece on screen" views/studio/statussummary.cpp \
    'changed |= areaOf(mPieces[i]);' \
    '(void)mPieces[i];' \
    "tst_statussummary:aNewFigureRepaintsItsPieceOnly"
mutation "the status summary leaves its ellipsis on screen" views/studio/statussummary.cpp \
    'return mIsElided || wasElided ? QRectF(rect()) : changed;' \
    'return mIsElided || (wasElided && false) ? QRectF(rect()) : changed;' \
    "tst_statussummary:anEllipsisOverAnEarlierPieceGoes"
mutation "the status summary keeps drawing its first pieces" views/studio/statussummary.cpp \
    'if (old && !newFont && old->text == texts[static_cast<qsizetype>(i)]) {' \
    'if (old && !newFont) {' \
    "tst_statussummary:aNewFigureRepaintsItsPieceOnly"
mutation "the status summary keeps the ellipsis of a narrower bar" views/studio/statussummary.cpp \
    'case QEvent::Resize: // a new width, whose repaint is whole' \
    'case QEvent::None:' \
    "tst_statussummary:aNarrowBarShortensTheSummary"
mutation "the corner note keeps the text it was first given" views/common/cornernote.cpp \
    'if (mWhole == mFitted.whole && room == mFitted.room && font() == mFitted.font)' \
    'if (room == mFitted.room && font() == mFitted.font)' \
    "tst_redraws:aCornerNoteFitsAgainWhenItsRoomChanges"
mutation "the corner note keeps the ellipsis of a narrower window" views/common/cornernote.cpp \
    'if (mWhole == mFitted.whole && room == mFitted.room && font() == mFitted.font)' \
    'if (mWhole == mFitted.whole && font() == mFitted.font)' \
    "tst_redraws:aCornerNoteFitsAgainWhenItsRoomChanges"
mutation "the corner note overflows after a larger font" views/common/cornernote.cpp \
    'if (mWhole == mFitted.whole && room == mFitted.room && font() == mFitted.font)' \
    'if (mWhole == mFitted.whole && room == mFitted.room)' \
    "tst_redraws:aCornerNoteFitsAgainWhenItsRoomChanges"
mutation "a slider's value label stops following the results" views/studio/parameterpanel.cpp \
    'if (text == row.value->text())' \
    'if (!row.value->text().isEmpty())' \
    "tst_redraws:aSliderStepLaysNothingOut"
mutation "a legend entry's icon border left out" views/charts/legendtexts.cpp \
    'if (getIconBorderPen().style() != Qt::NoPen) {' \
    'if (false) {' \
    "tst_chartstates:legendEntriesAreQCustomPlots"
mutation "a new figure repaints its whole canvas label" views/studio/partlabel.cpp \
    'update(dirty);' \
    'update();' \
    "tst_canvasupdate:aNewFigureRepaintsItsLinesOnly"
mutation "a shorter figure leaves the end of the old one on the canvas" views/studio/partlabel.cpp \
    'return before.united(block.inked).adjusted(' \
    'return (void)before, block.inked.adjusted(' \
    "tst_canvasupdate:aNewFigureRepaintsItsLinesOnly"
mutation "a canvas label's title not in bold" views/studio/partlabel.cpp \
    'font.setBold(true);' \
    'font.setBold(false);' \
    "tst_canvasupdate:aLabelDrawsAsRichText"
mutation "a canvas label's line breaks dropped" views/studio/partlabel.cpp \
    "shown.replace(QLatin1Char('\\n'), QChar::LineSeparator);" \
    "shown.replace(QLatin1Char('\\n'), QLatin1Char(' '));" \
    "tst_canvasupdate:aLabelDrawsAsRichText"
mutation "a canvas label keeps its first body" views/studio/partlabel.cpp \
    'if (newWidth || body != mBody.text || bodyTop != mBody.inked.top())' \
    'if (newWidth || bodyTop != mBody.inked.top())' \
    "tst_canvasupdate:sliderChangeKeepsItemsAndUpdatesTheLabel"
mutation "a canvas label keeps its first title" views/studio/partlabel.cpp \
    'if (newWidth || title != mTitle.text)' \
    'if (newWidth)' \
    "tst_canvasupdate:domainsAddAndRemoveExactlyTheirItems"
mutation "the expert fields stay on for a dense LLM" views/studio/layoutpanel.cpp \
    '= results && results->compiled ? results->compiled->resolved.llm.isMoe() : mDocument->isMoe();' \
    '= results || mDocument->isMoe();' \
    "tst_designedits:expertFieldsFollowTheLlm"
mutation "a slider's value label keeps the size of its first font" views/studio/valuefield.cpp \
    'mLeast = QSize(); // measured again, and the label fitted anew' \
    '(void)mLeast;' \
    "tst_redraws:aValueLabelGrowsToItsText"
# calibratedialog.cpp: "Calibrate to my runs" names the parameters beyond their documented ranges
mutation "the calibrate dialog keeps quiet about parameters beyond their ranges" views/validation/calibratedialog.cpp \
    'if (!atBound.isEmpty())' \
    'if (atBound.isEmpty())' \
    "tst_calibratedialog:statusNamesParametersBeyondTheirRanges"
mutation "the Validation view hides the parameters beyond their ranges" views/validation/validationpanel.cpp \
    'mParameterRanges->showFit(fit);' \
    'mParameterRanges->showFit(nullptr);' \
    "tst_validationview:parametersBeyondTheirRanges"
