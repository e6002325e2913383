# Compiles and links nvcc_consumer.cu exactly as a user of the headers would: nvcc with -std=c++20,
# the include path and one real architecture (so that ptxas runs over every kernel), and no other
# flag. Fails on a compiler error and on any warning (a plain consumer sees them all).
# -DNVCC=<nvcc> -DINCLUDE_DIR=<devcol's include/> -DSOURCE=<the .cu> -DOUTPUT=<the program>
foreach(_var NVCC INCLUDE_DIR SOURCE OUTPUT)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "nvcc_consumer.cmake: -D${_var}= is required")
  endif()
endforeach()
include("${CMAKE_CURRENT_LIST_DIR}/plain_nvcc.cmake")
devcol_plain_nvcc("a plain nvcc consumer" "${NVCC}" -std=c++20 -arch=sm_90 "-I${INCLUDE_DIR}" "${SOURCE}" -o "${OUTPUT}")
