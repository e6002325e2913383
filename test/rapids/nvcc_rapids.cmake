# Compiles and links a program against the RAPIDS wheels exactly as the README tells a user to:
#   nvcc -std=c++20 -arch=sm_90 -I<devcol's include/> $(python3 examples/rapids_flags.py <TARGET>) <SOURCE> -o <OUTPUT>
# and nothing else. Fails on a compiler or linker error and on any warning, and when the program
# does not load the wheel's library it must link (a link that dropped it would prove nothing) or
# would not find a library when run.
# -DNVCC= -DPYTHON= -DFLAGS_SCRIPT= -DTARGET={rmm|cudf} -DINCLUDE_DIR= -DSOURCE= -DOUTPUT= -DLIBRARY=<librmm.so|libcudf.so>
foreach(_var NVCC PYTHON FLAGS_SCRIPT TARGET INCLUDE_DIR SOURCE OUTPUT LIBRARY)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "nvcc_rapids.cmake: -D${_var}= is required")
  endif()
endforeach()
execute_process(COMMAND "${PYTHON}" "${FLAGS_SCRIPT}" "${TARGET}" OUTPUT_VARIABLE _flags ERROR_VARIABLE _flags_error
                RESULT_VARIABLE _rc OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "rapids_flags.py ${TARGET} failed (is the wheel installed? .ci/install-deps installs it):\n${_flags_error}")
endif()
separate_arguments(_flags UNIX_COMMAND "${_flags}")
include("${CMAKE_CURRENT_LIST_DIR}/../packaging/plain_nvcc.cmake")
devcol_plain_nvcc("${SOURCE}, against the ${TARGET} wheel," "${NVCC}" -std=c++20 -arch=sm_90 "-I${INCLUDE_DIR}" ${_flags} "${SOURCE}" -o "${OUTPUT}")
# The program must load the wheel's library, and the dynamic loader must find every library it
# needs (the loader's own answer: ldd), or it would fail where a GPU could run it.
execute_process(COMMAND ldd "${OUTPUT}" OUTPUT_VARIABLE _ldd RESULT_VARIABLE _rc ERROR_VARIABLE _ldd)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "ldd ${OUTPUT} failed (${_rc}):\n${_ldd}")
endif()
if(_ldd MATCHES "not found")
  message(FATAL_ERROR "${OUTPUT} would not find a library it needs when run:\n${_ldd}")
endif()
string(REGEX MATCH "${LIBRARY} => [^ ]+" _found "${_ldd}")
if(NOT _found)
  message(FATAL_ERROR "${OUTPUT} does not load ${LIBRARY}:\n${_ldd}")
endif()
message(STATUS "${OUTPUT}: ${_found}")
