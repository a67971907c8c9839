# The studio: document, commands, recalculator, canvas, palette, panels.
target_sources(gapstudio_views PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/studioengine.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/commands.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/scenariodocument.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/scenariodocument_stack.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/recalculator.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/autosaver.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/canvasscene.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/canvasdrawing.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/canvasitems.cpp ${CMAKE_CURRENT_SOURCE_DIR}/studio/canvasitems.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/partlabel.cpp ${CMAKE_CURRENT_SOURCE_DIR}/studio/partlabel.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/cpumeter.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/blockpalette.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/blockinspector.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/parameterpanel.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/calibrationchoice.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/layoutpanel.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/diagnosticslist.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/latencybench.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/statusline.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/statussummary.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/llmpanel.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/canvasview.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/parameternames.cpp ${CMAKE_CURRENT_SOURCE_DIR}/studio/parameternames.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/layoutrules.cpp ${CMAKE_CURRENT_SOURCE_DIR}/studio/layoutrules.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/collapsiblesection.cpp ${CMAKE_CURRENT_SOURCE_DIR}/studio/collapsiblesection.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/docksizer.cpp ${CMAKE_CURRENT_SOURCE_DIR}/studio/docksizer.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/valuefield.cpp ${CMAKE_CURRENT_SOURCE_DIR}/studio/valuefield.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/userpresets.cpp ${CMAKE_CURRENT_SOURCE_DIR}/studio/userpresets.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/blockactions.cpp ${CMAKE_CURRENT_SOURCE_DIR}/studio/blockactions.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/newblockdialog.cpp ${CMAKE_CURRENT_SOURCE_DIR}/studio/newblockdialog.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/scenarioproperties.cpp ${CMAKE_CURRENT_SOURCE_DIR}/studio/scenarioproperties.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/recentfiles.cpp ${CMAKE_CURRENT_SOURCE_DIR}/studio/recentfiles.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/examplemenu.cpp ${CMAKE_CURRENT_SOURCE_DIR}/studio/examplemenu.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/helpmenu.cpp ${CMAKE_CURRENT_SOURCE_DIR}/studio/helpmenu.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/windowfit.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/llmpanel.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/studioengine.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/commands.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/scenariodocument.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/recalculator.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/autosaver.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/canvasscene.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/blockpalette.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/blockinspector.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/parameterpanel.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/calibrationchoice.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/layoutpanel.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/diagnosticslist.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/latencybench.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/statusline.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/statussummary.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/studioformat.h
)
