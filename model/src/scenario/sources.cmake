# The building blocks (issue 4): scenario compile, preset/scenario JSON, the preset library.
target_sources(gapstudio_model PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/resolve.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/compile.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/calibration_lookup.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/preset_blocks.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/calibration_json.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/measurement_json.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/validation.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/calibrate.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/preset_files.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/hf_import.cpp
)
