# devcol_find_pyarrow(): finds a Python 3 interpreter with pyarrow, and the Arrow C++ libraries that
# the pyarrow wheel ships (pip install pyarrow). Used by the benchmarks and the peer interop tests;
# only devcol's own targets use it, never consumers.
#
# Sets in the caller's scope:
#   DEVCOL_PYARROW_FOUND    ON when the interpreter imports pyarrow and its libarrow was found
#   DEVCOL_PYARROW_VERSION  pyarrow's version, e.g. 26.0.1
#   DEVCOL_PYARROW_REASON   why not, when not found (for the caller's message)
#   Python3_EXECUTABLE      the interpreter (from find_package(Python3))
# and, when found, two imported targets (global, made once):
#   devcol_pyarrow::arrow          libarrow.so.<ABI> and the wheel's headers
#   devcol_pyarrow::arrow_compute  libarrow_compute.so.<ABI> (with devcol_pyarrow::arrow)
#
# The wheel's libraries carry versioned names only (no libarrow.so link), so they are imported by
# path with their soname; CMake then puts the wheel's folder in the build tree's RPATH.
include_guard(GLOBAL)

function(devcol_find_pyarrow)
  if(TARGET devcol_pyarrow::arrow)
    get_property(_version GLOBAL PROPERTY DEVCOL_PYARROW_VERSION)
    get_property(_python GLOBAL PROPERTY DEVCOL_PYARROW_PYTHON)
    set(DEVCOL_PYARROW_FOUND ON PARENT_SCOPE)
    set(DEVCOL_PYARROW_VERSION "${_version}" PARENT_SCOPE)
    set(DEVCOL_PYARROW_REASON "" PARENT_SCOPE)
    set(Python3_EXECUTABLE "${_python}" PARENT_SCOPE)
    return()
  endif()
  set(DEVCOL_PYARROW_FOUND OFF PARENT_SCOPE)
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(NOT Python3_FOUND)
    set(DEVCOL_PYARROW_REASON "no Python 3 interpreter found" PARENT_SCOPE)
    return()
  endif()
  set(Python3_EXECUTABLE "${Python3_EXECUTABLE}" PARENT_SCOPE)
  # One line per item: version, include folder, libarrow, libarrow_compute (empty if absent).
  set(_probe [=[
import glob, os, pyarrow as pa
d = pa.get_library_dirs()[0]
def lib(stem):
    found = sorted(glob.glob(os.path.join(d, stem + '.so.*')), key=len)
    return found[0] if found else ''
print(pa.__version__)
print(pa.get_include())
print(lib('libarrow'))
print(lib('libarrow_compute'))
]=])
  execute_process(COMMAND "${Python3_EXECUTABLE}" -c "${_probe}"
    OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _rc EQUAL 0)
    string(REGEX MATCH "[^\n]*Error[^\n]*" _why "${_err}")
    set(DEVCOL_PYARROW_REASON "${Python3_EXECUTABLE} cannot import pyarrow (${_why})" PARENT_SCOPE)
    return()
  endif()
  string(REPLACE "\n" ";" _out "${_out}")
  list(LENGTH _out _n)
  if(_n LESS 3)
    set(DEVCOL_PYARROW_REASON "pyarrow's probe printed too little: ${_out}" PARENT_SCOPE)
    return()
  endif()
  list(GET _out 0 _version)
  list(GET _out 1 _include)
  list(GET _out 2 _arrow)
  set(_compute "")
  if(_n GREATER 3)
    list(GET _out 3 _compute)
  endif()
  if(NOT EXISTS "${_arrow}" OR NOT EXISTS "${_include}/arrow/c/bridge.h")
    set(DEVCOL_PYARROW_REASON "pyarrow ${_version} has no libarrow.so.* or no C++ headers next to it" PARENT_SCOPE)
    return()
  endif()

  get_filename_component(_soname "${_arrow}" NAME)
  add_library(devcol_pyarrow::arrow SHARED IMPORTED GLOBAL)
  set_target_properties(devcol_pyarrow::arrow PROPERTIES
    IMPORTED_LOCATION "${_arrow}" IMPORTED_SONAME "${_soname}")
  # SYSTEM: Arrow's headers are not held to devcol's warning flags.
  target_include_directories(devcol_pyarrow::arrow SYSTEM INTERFACE "${_include}")
  if(_compute AND EXISTS "${_compute}")
    get_filename_component(_soname "${_compute}" NAME)
    add_library(devcol_pyarrow::arrow_compute SHARED IMPORTED GLOBAL)
    set_target_properties(devcol_pyarrow::arrow_compute PROPERTIES
      IMPORTED_LOCATION "${_compute}" IMPORTED_SONAME "${_soname}")
    target_link_libraries(devcol_pyarrow::arrow_compute INTERFACE devcol_pyarrow::arrow)
  endif()
  set_property(GLOBAL PROPERTY DEVCOL_PYARROW_VERSION "${_version}")
  set_property(GLOBAL PROPERTY DEVCOL_PYARROW_PYTHON "${Python3_EXECUTABLE}")
  get_filename_component(_dir "${_arrow}" DIRECTORY)
  message(STATUS "devcol: Arrow C++ ${_version} from pyarrow (${_dir})")
  set(DEVCOL_PYARROW_FOUND ON PARENT_SCOPE)
  set(DEVCOL_PYARROW_VERSION "${_version}" PARENT_SCOPE)
  set(DEVCOL_PYARROW_REASON "" PARENT_SCOPE)
endfunction()
