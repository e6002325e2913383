# A project that adds devcol's sources with add_subdirectory (subdirectory/).
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")
file(REMOVE_RECURSE "${WORK_DIR}")
devcol_consumer("${CMAKE_CURRENT_LIST_DIR}/subdirectory" "${WORK_DIR}" "-DDEVCOL_SOURCE_DIR=${SOURCE_DIR}")
