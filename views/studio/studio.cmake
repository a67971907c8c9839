# The studio (issue 5): document, commands, recalculator, canvas, palette, panels.
target_sources(gapstudio_views PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/studioengine.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/builtinpresets.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/commands.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/scenariodocument.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/recalculator.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/autosaver.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/canvasscene.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/blockpalette.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/blockinspector.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/parameterpanel.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/layoutpanel.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/diagnosticslist.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/latencybench.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/llmpanel.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/llmpanel.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/studioengine.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/builtinpresets.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/commands.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/scenariodocument.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/recalculator.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/autosaver.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/canvasscene.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/blockpalette.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/blockinspector.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/parameterpanel.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/layoutpanel.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/diagnosticslist.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/latencybench.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/overridekeys.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/studioformat.h
    ${CMAKE_CURRENT_SOURCE_DIR}/studio/studiosettings.h
)
# Developer builds find the shipped presets in the source tree (installed builds: share/gapstudio).
target_compile_definitions(gapstudio_views PRIVATE GAPSTUDIO_SOURCE_PRESETS_DIR="${PROJECT_SOURCE_DIR}/presets")
