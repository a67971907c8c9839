# Reports, headless exports (the roadmap's too) and restoring a scenario from an export (included by
# views/CMakeLists.txt).
target_sources(gapstudio_views PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/report/provenance.cpp ${CMAKE_CURRENT_SOURCE_DIR}/report/provenance.h
    ${CMAKE_CURRENT_SOURCE_DIR}/report/reportcontent.cpp ${CMAKE_CURRENT_SOURCE_DIR}/report/reportcontent.h
    ${CMAKE_CURRENT_SOURCE_DIR}/report/reportpainter.cpp ${CMAKE_CURRENT_SOURCE_DIR}/report/reportpainter.h
    ${CMAKE_CURRENT_SOURCE_DIR}/report/report.cpp ${CMAKE_CURRENT_SOURCE_DIR}/report/report.h
    ${CMAKE_CURRENT_SOURCE_DIR}/report/headless.cpp ${CMAKE_CURRENT_SOURCE_DIR}/report/headless.h
    ${CMAKE_CURRENT_SOURCE_DIR}/report/headlessstatus.cpp ${CMAKE_CURRENT_SOURCE_DIR}/report/headlessstatus.h
    ${CMAKE_CURRENT_SOURCE_DIR}/report/roadmapheadless.cpp ${CMAKE_CURRENT_SOURCE_DIR}/report/roadmapheadless.h
)
