# N-way comparison: pinned scenarios, the Compare menu.
target_sources(gapstudio_views PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/compare/pinnedscenarios.cpp compare/pinnedscenarios.h
    ${CMAKE_CURRENT_SOURCE_DIR}/compare/comparemenu.cpp compare/comparemenu.h
)
