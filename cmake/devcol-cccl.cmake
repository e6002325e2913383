# Where devcol finds CCCL (Thrust, CUB, libcu++), shared by devcol's own build and its installed
# package configuration. Sets _devcol_cccl_find_args, the arguments after find_package(CCCL, and
# defines _devcol_check_cccl_version(), to call after it.
#
# CCCL ships with the CUDA toolkit; CUDA 13 keeps its package configuration under the toolkit's
# lib64/cmake, which is not on CMake's default search path, hence the hints. CCCL_DIR still wins.
#
# DEVCOL_CCCL_FROM_WHEEL=ON takes instead the CCCL of the `cuda-cccl` wheel that python3 imports
# (`pip install cuda-cccl`; its headers and CMake package lie under cuda/cccl/headers inside the
# package): the tsan preset does, so that CI runs the host suite on the newest CCCL as well as on
# the toolkit's. Found by asking Python where the package is, never by a fixed path.
set(DEVCOL_CCCL_FROM_WHEEL OFF CACHE BOOL "Use the CCCL of the cuda-cccl Python wheel (pip install cuda-cccl) instead of the CUDA toolkit's")
if(DEVCOL_CCCL_FROM_WHEEL AND NOT CCCL_DIR)
  find_program(_devcol_python3 NAMES python3 python REQUIRED)
  execute_process(
    COMMAND "${_devcol_python3}" -c
            "import importlib.util, os; s = importlib.util.find_spec('cuda.cccl'); print(os.path.join(s.submodule_search_locations[0], 'headers', 'lib', 'cmake', 'cccl'))"
    OUTPUT_VARIABLE _devcol_wheel_cccl_dir OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE _devcol_wheel_status ERROR_QUIET)
  if(NOT _devcol_wheel_status EQUAL 0 OR NOT EXISTS "${_devcol_wheel_cccl_dir}/cccl-config.cmake")
    message(FATAL_ERROR "devcol: DEVCOL_CCCL_FROM_WHEEL is ON but ${_devcol_python3} finds no cuda-cccl wheel "
                        "with a CMake package (pip install cuda-cccl)")
  endif()
  set(CCCL_DIR "${_devcol_wheel_cccl_dir}" CACHE PATH "The directory containing a CMake configuration file for CCCL." FORCE)
endif()

find_package(CUDAToolkit QUIET)
# CCCL's version file takes any 3.x for "3.0" and ignores ranges: _devcol_check_cccl_version()
# states the range devcol is tested with.
set(_devcol_cccl_find_args 3.0 CONFIG HINTS "${CUDAToolkit_LIBRARY_ROOT}" "${CUDAToolkit_LIBRARY_DIR}/cmake")
# devcol picks Thrust's device system itself from the backend: no default Thrust target wanted.
set(CCCL_ENABLE_DEFAULT_THRUST_TARGET OFF CACHE BOOL "devcol selects Thrust's systems itself")

# The CCCL releases devcol is built and tested with: 3.0 (the CUDA 13 toolkit's) through 3.6.
set(DEVCOL_ALLOW_UNTESTED_CCCL OFF CACHE BOOL "Accept a CCCL 3.x newer than the ones devcol is tested with (a warning)")
set(_devcol_cccl_tested_min 3.0)
set(_devcol_cccl_tested_max 3.6)
# After find_package(CCCL ...): says which CCCL was found and from where, and refuses one outside
# the tested range (DEVCOL_ALLOW_UNTESTED_CCCL=ON accepts a later 3.x with a warning). Sets
# `result_var` to TRUE when the version is acceptable.
function(_devcol_check_cccl_version result_var)
  set(_ok TRUE)
  if(CCCL_VERSION VERSION_LESS _devcol_cccl_tested_min OR NOT CCCL_VERSION VERSION_LESS 4)
    set(_ok FALSE)
    set(_why "devcol needs CCCL ${_devcol_cccl_tested_min} through ${_devcol_cccl_tested_max}; found ${CCCL_VERSION} (${CCCL_DIR})")
  elseif(CCCL_VERSION VERSION_GREATER_EQUAL "${_devcol_cccl_tested_max}.999")
    if(DEVCOL_ALLOW_UNTESTED_CCCL)
      message(WARNING "devcol: CCCL ${CCCL_VERSION} (${CCCL_DIR}) is newer than the ${_devcol_cccl_tested_max} devcol is tested with")
    else()
      set(_ok FALSE)
      string(CONCAT _why "devcol is tested with CCCL ${_devcol_cccl_tested_min} through ${_devcol_cccl_tested_max}; "
             "found ${CCCL_VERSION} (${CCCL_DIR}); set DEVCOL_ALLOW_UNTESTED_CCCL=ON to try it, or point "
             "CCCL_DIR at a tested one")
    endif()
  endif()
  if(_ok)
    message(STATUS "devcol: CCCL ${CCCL_VERSION} (${CCCL_DIR})")
  else()
    set(${result_var}_MESSAGE "${_why}" PARENT_SCOPE)
  endif()
  set(${result_var} ${_ok} PARENT_SCOPE)
endfunction()
