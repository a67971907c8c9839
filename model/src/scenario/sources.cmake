# The building blocks: scenario compile, preset/scenario JSON, the preset library; the
# scenario pipeline and the preset search order with the embedded copy of presets/.
target_sources(gapstudio_model PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/resolve.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/overrides.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/override_rules_design.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/override_rules_money.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/compile.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/calibration_lookup.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/preset_blocks.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/preset_hardware_blocks.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/preset_llm_block.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/preset_layout_block.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/preset_storage_block.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/cost_json.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/reliability_json.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/cost_inputs.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/costsearch.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/roadmap_json.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/roadmap.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/calibration_json.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/measurement_json.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/validation.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/run_filter.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/calibrate.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/calibration_problem.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/calibration_solver.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/preset_files.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/hf_import.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/pipeline.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/best_layout.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/preset_locations.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/preset_library.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/locate.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/self_contained.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/block_ranges.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/shipped_measurements.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/runs_csv.cpp
)
# Developer builds find the shipped presets in the source tree (preset_locations.h, step 4).
set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/src/scenario/preset_locations.cpp PROPERTIES
    COMPILE_DEFINITIONS GAPSTUDIO_SOURCE_PRESETS_DIR="${PROJECT_SOURCE_DIR}/presets")
include(${PROJECT_SOURCE_DIR}/cmake/EmbedPresets.cmake)
gapstudio_embed_presets(gapstudio_model ${PROJECT_SOURCE_DIR}/presets)
