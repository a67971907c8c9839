# -DGAPSTUDIO_SANITIZE=ON builds everything with AddressSanitizer and UndefinedBehaviorSanitizer
# (the flag set of nlohmann_json's ci_test_clang_sanitizer); any report aborts the test.
option(GAPSTUDIO_SANITIZE "Build with AddressSanitizer + UndefinedBehaviorSanitizer" OFF)
if(GAPSTUDIO_SANITIZE)
    add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
    add_link_options(-fsanitize=address,undefined)
endif()
