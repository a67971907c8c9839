# Design-space exploration: layout search dialog, sweeps and their charts (included by
# views/CMakeLists.txt).
target_sources(gapstudio_views PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/explore/backgroundjob.cpp ${CMAKE_CURRENT_SOURCE_DIR}/explore/backgroundjob.h
    ${CMAKE_CURRENT_SOURCE_DIR}/explore/explorecompute.cpp ${CMAKE_CURRENT_SOURCE_DIR}/explore/explorecompute.h
    ${CMAKE_CURRENT_SOURCE_DIR}/explore/searchresultsmodel.cpp ${CMAKE_CURRENT_SOURCE_DIR}/explore/searchresultsmodel.h
    ${CMAKE_CURRENT_SOURCE_DIR}/explore/searchdialog.cpp ${CMAKE_CURRENT_SOURCE_DIR}/explore/searchdialog.h
    ${CMAKE_CURRENT_SOURCE_DIR}/explore/explorechart.cpp ${CMAKE_CURRENT_SOURCE_DIR}/explore/explorechart.h
    ${CMAKE_CURRENT_SOURCE_DIR}/explore/scalingchart.cpp ${CMAKE_CURRENT_SOURCE_DIR}/explore/scalingchart.h
    ${CMAKE_CURRENT_SOURCE_DIR}/explore/domainsweepchart.cpp ${CMAKE_CURRENT_SOURCE_DIR}/explore/domainsweepchart.h
    ${CMAKE_CURRENT_SOURCE_DIR}/explore/tornadochart.cpp ${CMAKE_CURRENT_SOURCE_DIR}/explore/tornadochart.h
    ${CMAKE_CURRENT_SOURCE_DIR}/explore/variantschart.cpp ${CMAKE_CURRENT_SOURCE_DIR}/explore/variantschart.h
    ${CMAKE_CURRENT_SOURCE_DIR}/explore/heatmapchart.cpp ${CMAKE_CURRENT_SOURCE_DIR}/explore/heatmapchart.h
    ${CMAKE_CURRENT_SOURCE_DIR}/explore/explorepanel.cpp ${CMAKE_CURRENT_SOURCE_DIR}/explore/explorepanel.h
)
