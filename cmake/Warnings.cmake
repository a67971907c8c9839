# gapstudio::warnings: the warning set every target of ours uses (target-scoped, never global).
# CI turns them into errors with -DCMAKE_COMPILE_WARNING_AS_ERROR=ON (CMake >= 3.24).
add_library(gapstudio_warnings INTERFACE)
add_library(gapstudio::warnings ALIAS gapstudio_warnings)
target_compile_options(gapstudio_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow)

# The model adds -Wconversion: numeric narrowing is a real bug class in a performance model.
add_library(gapstudio_model_warnings INTERFACE)
add_library(gapstudio::model_warnings ALIAS gapstudio_model_warnings)
target_compile_options(gapstudio_model_warnings INTERFACE -Wconversion -Wsign-conversion)
