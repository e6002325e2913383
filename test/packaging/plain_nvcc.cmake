# What the plain-nvcc checks share (included by nvcc_consumer.cmake and test/rapids/nvcc_rapids.cmake):
# devcol_plain_nvcc(<what> <command...>) runs the nvcc command line as given, says it and how long
# it took, and fails on a compiler or linker error and on any warning (a plain consumer sees them
# all), naming <what> in the message.
function(devcol_plain_nvcc what)
  list(JOIN ARGN " " _shown)
  message(STATUS "${_shown}")
  string(TIMESTAMP _start "%s")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  string(TIMESTAMP _end "%s")
  math(EXPR _seconds "${_end} - ${_start}")
  message(STATUS "nvcc took ${_seconds} s")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${what} does not compile (exit ${_rc}):\n${_out}")
  endif()
  if(_out MATCHES "[Ww]arning")
    message(FATAL_ERROR "${what} compiles with warnings:\n${_out}")
  endif()
endfunction()
