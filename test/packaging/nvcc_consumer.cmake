# Compiles and links nvcc_consumer.cu exactly as a user of the headers would: nvcc with -std=c++20,
# the include path and one real architecture (so that ptxas runs over every kernel), and no other
# flag. Fails on a compiler error and on any warning (a plain consumer sees them all).
# -DNVCC=<nvcc> -DINCLUDE_DIR=<devcol's include/> -DSOURCE=<the .cu> -DOUTPUT=<the program>
foreach(_var NVCC INCLUDE_DIR SOURCE OUTPUT)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "nvcc_consumer.cmake: -D${_var}= is required")
  endif()
endforeach()
set(_command "${NVCC}" -std=c++20 -arch=sm_90 "-I${INCLUDE_DIR}" "${SOURCE}" -o "${OUTPUT}")
list(JOIN _command " " _shown)
message(STATUS "${_shown}")
string(TIMESTAMP _start "%s")
execute_process(COMMAND ${_command} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
string(TIMESTAMP _end "%s")
math(EXPR _seconds "${_end} - ${_start}")
message(STATUS "nvcc took ${_seconds} s")
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "a plain nvcc consumer does not compile (exit ${_rc}):\n${_out}")
endif()
if(_out MATCHES "[Ww]arning")
  message(FATAL_ERROR "a plain nvcc consumer compiles with warnings:\n${_out}")
endif()
