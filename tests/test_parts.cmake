# cmake -DEXECUTABLE=... -DFUNCTIONS="a;b;c" -P test_parts.cmake: fails unless the Qt Test
# executable's test functions (its -functions listing) are exactly FUNCTIONS, so that a suite run
# as several CTest parts (gapstudio_add_test_run) cannot gain a function that no part runs.
execute_process(COMMAND ${EXECUTABLE} -functions OUTPUT_VARIABLE listing RESULT_VARIABLE status)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "${EXECUTABLE} -functions failed (${status})")
endif()
string(REGEX MATCHALL "[A-Za-z0-9_]+\\(\\)" found "${listing}")
list(TRANSFORM found REPLACE "\\(\\)$" "")
list(SORT found)
set(expected ${FUNCTIONS})
list(SORT expected)
if(NOT found STREQUAL expected)
    message(FATAL_ERROR "${EXECUTABLE} has the test functions\n  ${found}\nbut its CTest parts run\n  ${expected}\n"
                        "(add the new function to a part in tests/CMakeLists.txt)")
endif()
message(STATUS "${EXECUTABLE}: every test function runs in one of its parts")
