# The studio's charts and their export (included by views/CMakeLists.txt).
target_sources(gapstudio_views PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/charts/chartformat.h
    ${CMAKE_CURRENT_SOURCE_DIR}/charts/legendtexts.cpp ${CMAKE_CURRENT_SOURCE_DIR}/charts/legendtexts.h
    ${CMAKE_CURRENT_SOURCE_DIR}/charts/plotchart.cpp ${CMAKE_CURRENT_SOURCE_DIR}/charts/plotchart.h
    ${CMAKE_CURRENT_SOURCE_DIR}/charts/chartview.cpp ${CMAKE_CURRENT_SOURCE_DIR}/charts/chartview.h
    ${CMAKE_CURRENT_SOURCE_DIR}/charts/likelyrange.cpp ${CMAKE_CURRENT_SOURCE_DIR}/charts/likelyrange.h
    ${CMAKE_CURRENT_SOURCE_DIR}/charts/steptimechart.cpp ${CMAKE_CURRENT_SOURCE_DIR}/charts/steptimechart.h
    ${CMAKE_CURRENT_SOURCE_DIR}/charts/bandwidthchart.cpp ${CMAKE_CURRENT_SOURCE_DIR}/charts/bandwidthchart.h
    ${CMAKE_CURRENT_SOURCE_DIR}/charts/efficiencygapsteps.cpp ${CMAKE_CURRENT_SOURCE_DIR}/charts/efficiencygapsteps.h
    ${CMAKE_CURRENT_SOURCE_DIR}/charts/efficiencygapchart.cpp ${CMAKE_CURRENT_SOURCE_DIR}/charts/efficiencygapchart.h
    ${CMAKE_CURRENT_SOURCE_DIR}/charts/memorychart.cpp ${CMAKE_CURRENT_SOURCE_DIR}/charts/memorychart.h
    ${CMAKE_CURRENT_SOURCE_DIR}/charts/chartspanel.cpp ${CMAKE_CURRENT_SOURCE_DIR}/charts/chartspanel.h
    ${CMAKE_CURRENT_SOURCE_DIR}/charts/chartexport.cpp ${CMAKE_CURRENT_SOURCE_DIR}/charts/chartexport.h
    ${CMAKE_CURRENT_SOURCE_DIR}/charts/chartinteraction.cpp ${CMAKE_CURRENT_SOURCE_DIR}/charts/chartinteraction.h
    ${CMAKE_CURRENT_SOURCE_DIR}/charts/chartexporter.cpp ${CMAKE_CURRENT_SOURCE_DIR}/charts/chartexporter.h
)
# The version written into exported charts' provenance (read by chartexport.cpp).
target_compile_definitions(gapstudio_views PRIVATE GAPSTUDIO_VERSION_STRING="${PROJECT_VERSION}")
