# What every part of the views shares (included by views/CMakeLists.txt): data-safe writes and the
# wheel guard (the wheel scrolls a dock instead of editing the field under the pointer).
target_sources(gapstudio_views PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/common/safewrite.cpp ${CMAKE_CURRENT_SOURCE_DIR}/common/safewrite.h
    ${CMAKE_CURRENT_SOURCE_DIR}/common/wheelguard.cpp ${CMAKE_CURRENT_SOURCE_DIR}/common/wheelguard.h
)
