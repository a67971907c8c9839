# What every part of the views shares (included by views/CMakeLists.txt): data-safe writes, the
# wheel guard (the wheel scrolls a dock instead of editing the field under the pointer), the
# studio's settings, the folder file dialogs open in, the note in a tab widget's corner and work
# for what is on screen only (WhenSeen).
target_sources(gapstudio_views PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/common/safewrite.cpp ${CMAKE_CURRENT_SOURCE_DIR}/common/safewrite.h
    ${CMAKE_CURRENT_SOURCE_DIR}/common/wheelguard.cpp ${CMAKE_CURRENT_SOURCE_DIR}/common/wheelguard.h
    ${CMAKE_CURRENT_SOURCE_DIR}/common/cornernote.cpp ${CMAKE_CURRENT_SOURCE_DIR}/common/cornernote.h
    ${CMAKE_CURRENT_SOURCE_DIR}/common/studiosettings.h ${CMAKE_CURRENT_SOURCE_DIR}/common/lastfolder.h
    ${CMAKE_CURRENT_SOURCE_DIR}/common/whenseen.cpp ${CMAKE_CURRENT_SOURCE_DIR}/common/whenseen.h
)
