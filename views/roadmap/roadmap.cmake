# The Roadmap view: a roadmap file's steps, their chart and table (included by views/CMakeLists.txt).
target_sources(gapstudio_views PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/roadmap/roadmapdata.cpp ${CMAKE_CURRENT_SOURCE_DIR}/roadmap/roadmapdata.h
    ${CMAKE_CURRENT_SOURCE_DIR}/roadmap/roadmapchart.cpp ${CMAKE_CURRENT_SOURCE_DIR}/roadmap/roadmapchart.h
    ${CMAKE_CURRENT_SOURCE_DIR}/roadmap/roadmaptable.cpp ${CMAKE_CURRENT_SOURCE_DIR}/roadmap/roadmaptable.h
    ${CMAKE_CURRENT_SOURCE_DIR}/roadmap/roadmappanel.cpp ${CMAKE_CURRENT_SOURCE_DIR}/roadmap/roadmappanel.h
    ${CMAKE_CURRENT_SOURCE_DIR}/roadmap/roadmapmenu.cpp ${CMAKE_CURRENT_SOURCE_DIR}/roadmap/roadmapmenu.h
)
