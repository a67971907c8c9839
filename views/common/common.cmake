# What every part of the views shares (included by views/CMakeLists.txt): data-safe writes.
target_sources(gapstudio_views PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/common/safewrite.cpp ${CMAKE_CURRENT_SOURCE_DIR}/common/safewrite.h
)
