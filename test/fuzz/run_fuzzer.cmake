# Runs a libFuzzer binary for SECONDS over CORPUS (new inputs) and SEEDS, writes its whole output
# to LOG, prints the figures (executions, coverage) and fails on any finding.
# cmake -DFUZZER=... -DSEEDS=... -DCORPUS=... -DSECONDS=... -DLOG=... -P run_fuzzer.cmake
file(MAKE_DIRECTORY "${CORPUS}")
get_filename_component(_artifacts "${LOG}" DIRECTORY)
execute_process(
  COMMAND "${FUZZER}" "-max_total_time=${SECONDS}" -print_final_stats=1 -timeout=60 -rss_limit_mb=4096
          "-artifact_prefix=${_artifacts}/" "${CORPUS}" "${SEEDS}"
  OUTPUT_VARIABLE _out ERROR_VARIABLE _out RESULT_VARIABLE _rc)
file(WRITE "${LOG}" "${_out}")
# The figures: the last status line (cov:, ft:, corp:, exec/s) and the final statistics.
string(REGEX MATCHALL "#[0-9]+[\t ]+(INITED|DONE|pulse|NEW|REDUCE)[^\n]*" _status "${_out}")
list(LENGTH _status _n)
if(_n GREATER 0)
  list(GET _status 0 _first)
  math(EXPR _last "${_n} - 1")
  list(GET _status ${_last} _final)
  message(STATUS "fuzzer start: ${_first}")
  message(STATUS "fuzzer end:   ${_final}")
endif()
string(REGEX MATCHALL "stat::[a-z_]+: *[0-9]+" _stats "${_out}")
foreach(_s IN LISTS _stats)
  message(STATUS "${_s}")
endforeach()
if(NOT _rc EQUAL 0)
  string(LENGTH "${_out}" _len)
  if(_len GREATER 6000)
    math(EXPR _from "${_len} - 6000")
    string(SUBSTRING "${_out}" ${_from} -1 _out)
  endif()
  message(FATAL_ERROR "fuzzer failed (exit ${_rc}); the full log is ${LOG}; its end:\n${_out}")
endif()
