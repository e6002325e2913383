# test_package/ built with find_package(devcol) from the install tree in PREFIX.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")
file(REMOVE_RECURSE "${WORK_DIR}")
devcol_consumer("${SOURCE_DIR}/test_package" "${WORK_DIR}" "-DCMAKE_PREFIX_PATH=${PREFIX}")
devcol_expect_found_in("${WORK_DIR}" "${PREFIX}/${CMAKEDIR}")
