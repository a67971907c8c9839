# The CTest check pgo_counts_beside_objects (model/pgo/CMakeLists.txt), in script mode:
#   cmake -DSOURCES=... -DLIBRARY_OBJECTS=... -P pgo_check.cmake
# GCC compiling `-o X.o -fprofile-use` reads the counts of X.gcda. The training put them at
# LIBRARY_OBJECTS/<source>.gcda, where CMake puts the library's object of <source>; should CMake
# put its objects elsewhere, GCC would find no counts and, told not to warn of functions the
# training never ran (-Wno-missing-profile), compile the hot path without a profile in silence.
set(missing)
foreach(source IN LISTS SOURCES)
    set(base ${LIBRARY_OBJECTS}/${source})
    if(NOT EXISTS ${base}.o OR NOT EXISTS ${base}.gcda)
        list(APPEND missing "${source} (${base}.o and .gcda)")
    endif()
endforeach()
if(missing)
    list(JOIN missing "\n  " text)
    message(FATAL_ERROR "pgo_check: the hot path's objects without their counts beside them:\n  ${text}")
endif()
list(LENGTH SOURCES count)
message(STATUS "pgo_check: ${count} hot-path objects, each with its counts")
