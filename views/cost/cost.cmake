# The Cost and power panel and its $/hour chart (included by views/CMakeLists.txt).
target_sources(gapstudio_views PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/cost/costchart.cpp ${CMAKE_CURRENT_SOURCE_DIR}/cost/costchart.h
    ${CMAKE_CURRENT_SOURCE_DIR}/cost/costfigures.cpp ${CMAKE_CURRENT_SOURCE_DIR}/cost/costfigures.h
    ${CMAKE_CURRENT_SOURCE_DIR}/cost/costinputs.cpp ${CMAKE_CURRENT_SOURCE_DIR}/cost/costinputs.h
    ${CMAKE_CURRENT_SOURCE_DIR}/cost/costpanel.cpp ${CMAKE_CURRENT_SOURCE_DIR}/cost/costpanel.h
)
