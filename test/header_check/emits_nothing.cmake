# What including devcol costs a host file's object code: nothing. A header that defines a variable
# with a dynamic initialiser, or a non-template function whose address is taken at namespace scope,
# makes every file that includes it emit a start-up initialiser and the code it reaches (the spill
# manager's construction and its LRU sort had been 7% of the umbrella's compile time, in every
# program), where templates and unused inline functions emit nothing.
#
#   cmake -DNM=<nm> -DOBJECT=<file.o> -DEXPECT=none|some -P emits_nothing.cmake
#
# Lists OBJECT's defined symbols that are devcol's (their demangled name says `devcol`, which a
# standard template instantiated for a devcol type does too) and its start-up initialisers. Other
# headers are not devcol's to judge: at -O0 CUDA's half-precision headers emit their static
# functions and NVTX its weak ones in any file that includes them. EXPECT=none fails when there is
# one (the umbrella and an empty main); EXPECT=some fails when there is none (a file that calls an
# operation: shows that the check sees what a header emits).
foreach(_var NM OBJECT EXPECT)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "emits_nothing.cmake: -D${_var}= is required")
  endif()
endforeach()
execute_process(COMMAND "${NM}" --defined-only --demangle "${OBJECT}" RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${NM} ${OBJECT} failed (exit ${_rc}):\n${_err}")
endif()
# nm's lines are "address type name": keep those whose name says devcol or starts an initialiser.
string(STRIP "${_out}" _out)
string(REPLACE "\n" ";" _emitted "${_out}")
list(FILTER _emitted INCLUDE REGEX "^[0-9a-fA-F]* *[A-Za-z] (.*devcol|_GLOBAL__sub_I)")
list(LENGTH _emitted _count)
if(EXPECT STREQUAL "none" AND _count GREATER 0)
  list(JOIN _emitted "\n" _shown)
  message(FATAL_ERROR "${OBJECT} defines ${_count} symbols of devcol's or start-up initialisers:\n${_shown}")
elseif(EXPECT STREQUAL "some" AND _count EQUAL 0)
  message(FATAL_ERROR "${OBJECT} calls an operation, yet defines nothing of devcol's: the check would see nothing")
endif()
message(STATUS "${OBJECT}: ${_count} symbols of devcol's or start-up initialisers")
