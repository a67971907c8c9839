# N-way comparison: the Compare menu (the pinned scenarios are results/pinnedscenarios).
target_sources(gapstudio_views PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/compare/comparemenu.cpp compare/comparemenu.h
)
