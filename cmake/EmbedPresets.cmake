# gapstudio_embed_presets(TARGET DIR): compiles every *.json under DIR (the shipped presets/, with
# its scenarios) into TARGET as C++ string literals, read by io::embeddedPresetFiles(). The copy is
# regenerated at build time whenever a preset changes (a new file re-runs the glob at build time),
# so the installed app and a binary moved away from the source tree carry the presets they were
# built with.
set(GAPSTUDIO_EMBED_PRESETS_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/embed_presets.cmake)

function(gapstudio_embed_presets target dir)
    file(GLOB_RECURSE files CONFIGURE_DEPENDS ${dir}/*.json)
    set(output ${CMAKE_CURRENT_BINARY_DIR}/embedded_presets.cpp)
    add_custom_command(
        OUTPUT ${output}
        COMMAND ${CMAKE_COMMAND} -DPRESETS_DIR=${dir} -DOUTPUT=${output} -P ${GAPSTUDIO_EMBED_PRESETS_SCRIPT}
        DEPENDS ${files} ${GAPSTUDIO_EMBED_PRESETS_SCRIPT}
        COMMENT "Embedding the presets of ${dir}"
        VERBATIM)
    target_sources(${target} PRIVATE ${output})
    # A user preset may be longer than the 4095 characters ISO C++ promises for one literal;
    # GCC and Clang have no such limit.
    set_source_files_properties(${output} PROPERTIES COMPILE_OPTIONS -Wno-overlength-strings)
endfunction()
