# Helpers for the package consumers' scripts (cmake -P). Every step that fails fails the test.
# Scripts get: SOURCE_DIR (devcol's sources), WORK_DIR (theirs to wipe and fill), GENERATOR,
# CXX_COMPILER.

# devcol_run(<command>...): runs a command; fails the test if it fails.
function(devcol_run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
endfunction()

# devcol_consumer(<source dir> <binary dir> [-D...]...): configures, builds and runs the consumer
# project in <source dir> (its executable is named test_package), host backend only unless told.
function(devcol_consumer source binary)
  devcol_run(${CMAKE_COMMAND} -S "${source}" -B "${binary}" -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
             -DCMAKE_BUILD_TYPE=Release -DTEST_PACKAGE_CUDA=OFF ${ARGN})
  devcol_run(${CMAKE_COMMAND} --build "${binary}")
  devcol_run("${binary}/test_package")
endfunction()

# devcol_check_tree(<root> ALLOWED <regex>... REQUIRED <path>...): every file under <root> matches
# an allowed regex (of its path relative to <root>), every required path exists, and the installed
# headers are exactly devcol's headers.
function(devcol_check_tree root)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "ALLOWED;REQUIRED")
  file(GLOB_RECURSE files RELATIVE "${root}" "${root}/*")
  set(unexpected "")
  foreach(file IN LISTS files)
    set(allowed FALSE)
    foreach(regex IN LISTS arg_ALLOWED)
      if(file MATCHES "${regex}")
        set(allowed TRUE)
      endif()
    endforeach()
    if(NOT allowed)
      list(APPEND unexpected "${file}")
    endif()
  endforeach()
  if(unexpected)
    list(JOIN unexpected "\n  " unexpected)
    message(FATAL_ERROR "${root} holds files a header-only package must not install:\n  ${unexpected}")
  endif()
  foreach(path IN LISTS arg_REQUIRED)
    if(NOT EXISTS "${root}/${path}")
      message(FATAL_ERROR "${root} lacks ${path}")
    endif()
  endforeach()
  file(GLOB_RECURSE source_headers RELATIVE "${SOURCE_DIR}/include" "${SOURCE_DIR}/include/*")
  file(GLOB_RECURSE installed_headers RELATIVE "${root}/include" "${root}/include/*")
  if(NOT source_headers STREQUAL installed_headers)
    message(FATAL_ERROR "the headers under ${root}/include are not devcol's:\n"
            "installed: ${installed_headers}\nsources: ${source_headers}")
  endif()
  list(LENGTH files count)
  message(STATUS "${root}: ${count} files, all expected")
endfunction()

# devcol_expect_found_in(<consumer binary dir> <dir>): the consumer's find_package(devcol) used the
# package configuration in <dir>, not another devcol on the machine.
function(devcol_expect_found_in binary dir)
  load_cache("${binary}" READ_WITH_PREFIX found_ devcol_DIR)
  cmake_path(COMPARE "${found_devcol_DIR}" EQUAL "${dir}" same)
  if(NOT same)
    message(FATAL_ERROR "the consumer found devcol in '${found_devcol_DIR}', not in '${dir}'")
  endif()
endfunction()
