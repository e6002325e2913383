# Where devcol finds CCCL (Thrust, CUB, libcu++), shared by devcol's own build and its installed
# package configuration. Sets _devcol_cccl_find_args, the arguments after find_package(CCCL.
#
# CCCL ships with the CUDA toolkit; CUDA 13 keeps its package configuration under the toolkit's
# lib64/cmake, which is not on CMake's default search path, hence the hints. CCCL_DIR still wins.
find_package(CUDAToolkit QUIET)
set(_devcol_cccl_find_args 3.0 CONFIG HINTS "${CUDAToolkit_LIBRARY_ROOT}" "${CUDAToolkit_LIBRARY_DIR}/cmake")
# devcol picks Thrust's device system itself from the backend: no default Thrust target wanted.
set(CCCL_ENABLE_DEFAULT_THRUST_TARGET OFF CACHE BOOL "devcol selects Thrust's systems itself")
