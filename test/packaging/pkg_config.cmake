# test_package/main.cpp compiled and linked with nothing but the flags pkg-config gives for the
# install tree in PREFIX, then again with CCCL's directory overridden. Arguments (besides
# common.cmake's): PKG_CONFIG, PKGCONFIGDIR, VERSION.
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

# A host-only consumer that takes CCCL from elsewhere (the cuda-cccl wheel, a CCCL checkout) needs
# no CUDA toolkit: it overrides cccl_includedir, and no path of the CCCL devcol was configured with
# may remain in the flags. "Elsewhere" here is a link to the same headers under another name.
execute_process(COMMAND ${PKG_CONFIG} --variable=cccl_includedir devcol OUTPUT_VARIABLE configured_cccl
                OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT IS_DIRECTORY "${configured_cccl}")
  message(FATAL_ERROR "devcol.pc's cccl_includedir is '${configured_cccl}', not a directory")
endif()
file(CREATE_LINK "${configured_cccl}" "${WORK_DIR}/cccl_elsewhere" SYMBOLIC)
execute_process(COMMAND ${PKG_CONFIG} "--define-variable=cccl_includedir=${WORK_DIR}/cccl_elsewhere" --cflags devcol
                OUTPUT_VARIABLE elsewhere_cflags OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config --define-variable=cccl_includedir=... --cflags devcol failed (${rc})")
endif()
string(FIND "${elsewhere_cflags}" "${configured_cccl}" at)
string(FIND "${elsewhere_cflags}" "-I${WORK_DIR}/cccl_elsewhere" new_at)
if(new_at EQUAL -1 OR NOT at EQUAL -1)
  message(FATAL_ERROR "overriding cccl_includedir should replace ${configured_cccl}, but the flags are: ${elsewhere_cflags}")
endif()
separate_arguments(elsewhere_cflags UNIX_COMMAND "${elsewhere_cflags}")
devcol_run(${CXX_COMPILER} -std=c++20 ${elsewhere_cflags} -c "${SOURCE_DIR}/test_package/main.cpp" -o "${WORK_DIR}/elsewhere.o")
devcol_run(${CXX_COMPILER} "${WORK_DIR}/elsewhere.o" -o "${WORK_DIR}/test_package_elsewhere" ${libs})
devcol_run("${WORK_DIR}/test_package_elsewhere")
