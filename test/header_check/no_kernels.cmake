# What including devcol costs a CUDA file: no kernel of devcol's. Kernels are templates (or are
# launched from templates), so a file compiles and ptxas assembles only the kernels it calls; a
# non-template function that launches one would put that kernel, and the device compiler's and
# ptxas's time for it, in every file that includes its header.
#
#   cmake -DNVCC=<nvcc> -DINCLUDE=<devcol include dir> -DSOURCE=<file.cu> -DOUT=<file.ptx>
#         -DEXPECT=none|some [-DMAX=<n>] -P no_kernels.cmake
#
# Compiles SOURCE to PTX (plain nvcc -std=c++20, as a consumer does) and lists its kernels (.entry)
# but CUB's EmptyKernel, which CUB itself instantiates in every file that includes it. EXPECT=none
# fails when there is one (the umbrella alone); EXPECT=some fails when there is none (a file that
# calls an operation: shows that the check sees kernels). MAX fails when there are more than MAX:
# devcol launches its element-wise and reducing kernels through CUB with a 64-bit count, where
# Thrust would compile each one twice, for 32- and 64-bit counts, and shares one kernel among the
# callers that do the same work.
foreach(_var NVCC INCLUDE SOURCE OUT EXPECT)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "no_kernels.cmake: -D${_var}= is required")
  endif()
endforeach()
execute_process(COMMAND "${NVCC}" -std=c++20 -arch=compute_90 "-I${INCLUDE}" -x cu --ptx "${SOURCE}" -o "${OUT}"
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${SOURCE} does not compile to PTX (exit ${_rc}):\n${_out}")
endif()
file(STRINGS "${OUT}" _entries REGEX "^(\\.(visible|weak)[ ]+)?\\.entry ")
list(FILTER _entries EXCLUDE REGEX "EmptyKernel")
list(LENGTH _entries _count)
if(EXPECT STREQUAL "none" AND _count GREATER 0)
  list(JOIN _entries "\n" _shown)
  message(FATAL_ERROR "${SOURCE} includes ${_count} kernels it never calls (mangled names; c++filt reads them):\n${_shown}")
elseif(EXPECT STREQUAL "some" AND _count EQUAL 0)
  message(FATAL_ERROR "${SOURCE} calls an operation, yet its PTX has no kernel: the check would see none")
elseif(DEFINED MAX AND _count GREATER MAX)
  list(JOIN _entries "\n" _shown)
  message(FATAL_ERROR "${SOURCE} has ${_count} kernels, more than ${MAX} (a launch compiled for both 32- and "
                      "64-bit counts, or once per type or direction where one would do?; mangled names, c++filt "
                      "reads them):\n${_shown}")
endif()
message(STATUS "${SOURCE}: ${_count} kernels besides CUB's EmptyKernel")
