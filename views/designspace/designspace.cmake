# Design spaces at scale: the studio's "judge at best layout" mode and the grid results viewer
# (included by views/CMakeLists.txt).
target_sources(gapstudio_views PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/designspace/bestlayoutsearch.cpp ${CMAKE_CURRENT_SOURCE_DIR}/designspace/bestlayoutsearch.h
    ${CMAKE_CURRENT_SOURCE_DIR}/designspace/bestlayoutpanel.cpp ${CMAKE_CURRENT_SOURCE_DIR}/designspace/bestlayoutpanel.h
)
target_sources(gapstudio_views PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/designspace/gridfile.cpp ${CMAKE_CURRENT_SOURCE_DIR}/designspace/gridfile.h
    ${CMAKE_CURRENT_SOURCE_DIR}/designspace/gridheatmapchart.cpp ${CMAKE_CURRENT_SOURCE_DIR}/designspace/gridheatmapchart.h
    ${CMAKE_CURRENT_SOURCE_DIR}/designspace/gridpanel.cpp ${CMAKE_CURRENT_SOURCE_DIR}/designspace/gridpanel.h
)
