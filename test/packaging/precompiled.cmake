# The precompiled mode as a user gets it: devcol configured with DEVCOL_PRECOMPILED=ON, built (the
# library of explicit instantiations) and installed; then test_package, found with find_package,
# builds its precompiled consumer against devcol::precompiled and runs it. The consumer's object
# must leave the Arrow round trip undefined: a header that stopped declaring it `extern template`
# would compile it again in every consumer, which this catches.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")
file(REMOVE_RECURSE "${WORK_DIR}")
devcol_run(${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${WORK_DIR}/build" -G "${GENERATOR}"
           "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" -DCMAKE_BUILD_TYPE=Release -DDEVCOL_PRECOMPILED=ON
           -DDEVCOL_BUILD_TESTS=OFF -DDEVCOL_BUILD_EXAMPLES=OFF -DDEVCOL_BUILD_BENCHMARKS=OFF
           "-DCMAKE_INSTALL_PREFIX=${WORK_DIR}/prefix")
devcol_run(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
devcol_run(${CMAKE_COMMAND} --install "${WORK_DIR}/build")
devcol_consumer("${SOURCE_DIR}/test_package" "${WORK_DIR}/consumer" "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix")
devcol_run("${WORK_DIR}/consumer/test_package_precompiled")

find_program(NM nm REQUIRED)
file(GLOB_RECURSE object "${WORK_DIR}/consumer/CMakeFiles/test_package_precompiled.dir/*.o")
# Mangled names: demanglers give up on the longest (a type-erased column's variant of every kind).
execute_process(COMMAND "${NM}" --undefined-only ${object} OUTPUT_VARIABLE undefined RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nm failed on ${object}")
endif()
# The table's add() and destructor too: each would otherwise instantiate every kind's destructor.
foreach(entry IN ITEMS 16table_from_arrow 8to_arrow 14to_host_values 6gather 6filter 11concatenate 16column_from_host
                       18gather_fixed_width 18filter_fixed_width
                       11basic_tableINS0_14default_policyEE3addI 11basic_tableINS0_14default_policyEED1Ev)
  string(FIND "${undefined}" "${entry}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the precompiled consumer compiled ${entry} itself instead of linking it:\n${undefined}")
  endif()
endforeach()
message(STATUS "the precompiled consumer links its Arrow round trip and ops from devcol::precompiled")
