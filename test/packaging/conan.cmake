# `conan create` of the recipe at the repository root, offline (no remote) with a detected profile,
# Conan's home inside WORK_DIR; its test package builds and runs test_package/, and when nvcc is
# found (CUDA_COMPILER) must also build the CUDA consumer. Arguments (besides common.cmake's):
# CONAN, CUDA_COMPILER.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")
if(NOT CONAN)
  message(FATAL_ERROR "conan not found: .ci/install-deps installs it (pip install conan)")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
set(ENV{CONAN_HOME} "${WORK_DIR}/home")
# Conan builds a test package inside its folder: give it a copy (without what a `conan create` in
# the sources left there), so the sources stay untouched.
file(COPY "${SOURCE_DIR}/test_package" DESTINATION "${WORK_DIR}"
     PATTERN build EXCLUDE PATTERN CMakeUserPresets.json EXCLUDE)
if(CUDA_COMPILER)
  set(ENV{CUDACXX} "${CUDA_COMPILER}")
endif()
devcol_run(${CONAN} profile detect --exist-ok)
devcol_run(${CONAN} create "${SOURCE_DIR}" --no-remote --test-folder "${WORK_DIR}/test_package"
           -s compiler.cppstd=20 -c "tools.cmake.cmaketoolchain:generator=${GENERATOR}")
if(CUDA_COMPILER)
  file(GLOB_RECURSE cuda_consumer "${WORK_DIR}/test_package/build/*/test_package_cuda")
  if(NOT cuda_consumer)
    message(FATAL_ERROR "nvcc is here, but the test package built no CUDA consumer")
  endif()
endif()
