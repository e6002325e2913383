# test_package/main.cpp compiled and linked with nothing but the flags pkg-config gives for the
# install tree in PREFIX. Arguments (besides common.cmake's): PKG_CONFIG, PKGCONFIGDIR, VERSION.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
if(NOT PKG_CONFIG)
  message(FATAL_ERROR "pkg-config not found: .ci/install-deps installs it")
endif()
set(ENV{PKG_CONFIG_PATH} "${PREFIX}/${PKGCONFIGDIR}")
foreach(query modversion cflags libs)
  execute_process(COMMAND ${PKG_CONFIG} --${query} devcol OUTPUT_VARIABLE ${query} OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config --${query} devcol failed (${rc})")
  endif()
  separate_arguments(${query} UNIX_COMMAND "${${query}}")
endforeach()
if(NOT modversion STREQUAL VERSION)
  message(FATAL_ERROR "devcol.pc says version ${modversion}, the sources ${VERSION}")
endif()
# Compiled with --cflags only and linked with --libs only, so each must be complete.
devcol_run(${CXX_COMPILER} -std=c++20 ${cflags} -c "${SOURCE_DIR}/test_package/main.cpp" -o "${WORK_DIR}/main.o")
devcol_run(${CXX_COMPILER} "${WORK_DIR}/main.o" -o "${WORK_DIR}/test_package" ${libs})
devcol_run("${WORK_DIR}/test_package")
