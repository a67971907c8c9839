# The Validation view: predicted against measured runs, error per family, "Calibrate to my runs"
# (included by views/CMakeLists.txt).
target_sources(gapstudio_views PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/validation/runfiles.cpp ${CMAKE_CURRENT_SOURCE_DIR}/validation/runfiles.h
    ${CMAKE_CURRENT_SOURCE_DIR}/validation/usercalibration.cpp ${CMAKE_CURRENT_SOURCE_DIR}/validation/usercalibration.h
    ${CMAKE_CURRENT_SOURCE_DIR}/validation/validationchart.cpp ${CMAKE_CURRENT_SOURCE_DIR}/validation/validationchart.h
    ${CMAKE_CURRENT_SOURCE_DIR}/validation/errortable.cpp ${CMAKE_CURRENT_SOURCE_DIR}/validation/errortable.h
    ${CMAKE_CURRENT_SOURCE_DIR}/validation/generationtable.cpp ${CMAKE_CURRENT_SOURCE_DIR}/validation/generationtable.h
    ${CMAKE_CURRENT_SOURCE_DIR}/validation/parameterrangetable.cpp ${CMAKE_CURRENT_SOURCE_DIR}/validation/parameterrangetable.h
    ${CMAKE_CURRENT_SOURCE_DIR}/validation/runproblemstable.cpp ${CMAKE_CURRENT_SOURCE_DIR}/validation/runproblemstable.h
    ${CMAKE_CURRENT_SOURCE_DIR}/validation/calibratedialog.cpp ${CMAKE_CURRENT_SOURCE_DIR}/validation/calibratedialog.h
    ${CMAKE_CURRENT_SOURCE_DIR}/validation/validationpanel.cpp ${CMAKE_CURRENT_SOURCE_DIR}/validation/validationpanel.h
)
