# Runs the hot path's profile training (model/pgo/CMakeLists.txt) in script mode:
#   cmake -DTRAINER=... -DOBJECTS=... -DSOURCES=... -DLIBRARY_OBJECTS=... -DPRESETS=... -DCASES=... -DSTAMP=...
#         -P pgo_train.cmake
# OBJECTS are the instrumented objects of the hot-path SOURCES (paths relative to model/). The
# counts of an earlier run are removed first (GCC would add to them), so the same sources always
# give the same profile; each source's counts then go where GCC looks for them when it compiles
# the library's object of that source: LIBRARY_OBJECTS/<source>.gcda.
foreach(source IN LISTS SOURCES)
    set(object)
    foreach(candidate IN LISTS OBJECTS)
        string(LENGTH "${candidate}" length)
        string(LENGTH "/${source}.o" suffix_length)
        math(EXPR start "${length} - ${suffix_length}")
        if(start GREATER_EQUAL 0)
            string(SUBSTRING "${candidate}" ${start} -1 suffix)
            if(suffix STREQUAL "/${source}.o")
                set(object ${candidate})
            endif()
        endif()
    endforeach()
    if(NOT object)
        message(FATAL_ERROR "pgo_train: no instrumented object of ${source} among ${OBJECTS}")
    endif()
    string(REGEX REPLACE "\\.o$" ".gcda" counts "${object}")
    set(counts_of_${source} ${counts})
    file(REMOVE ${counts})
endforeach()

execute_process(COMMAND ${TRAINER} ${PRESETS} ${CASES} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "pgo_train: ${TRAINER} failed (${result})")
endif()

foreach(source IN LISTS SOURCES)
    set(counts ${counts_of_${source}})
    if(NOT EXISTS ${counts})
        message(FATAL_ERROR "pgo_train: the training wrote no counts for ${source} (${counts})")
    endif()
    get_filename_component(directory ${LIBRARY_OBJECTS}/${source} DIRECTORY)
    file(MAKE_DIRECTORY ${directory})
    file(COPY_FILE ${counts} ${LIBRARY_OBJECTS}/${source}.gcda)
endforeach()
file(TOUCH ${STAMP})
