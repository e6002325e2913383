/**
 * @file config.hpp
 * @brief Backend detection and the execution-space macros every other header uses.
 *
 * Exactly one backend is active in a translation unit:
 * - `DEVCOL_BACKEND_CUDA` (1) when compiled as CUDA (`__CUDACC__`, nvcc or clang), or when the
 *   user defines `DEVCOL_FORCE_CUDA_BACKEND` in a plain C++ file of a CUDA program (such a file
 *   may use the core, memory and buffer layers; columns, ops and interop launch Thrust kernels and
 *   need a CUDA compiler, except under `DEVCOL_SIMULATED_CUDA` below);
 * - `DEVCOL_BACKEND_HOST` (1) otherwise: "device" memory is aligned host memory and Thrust's
 *   device system is OpenMP (or serial C++ when OpenMP is off).
 *
 * `DEVCOL_SIMULATED_CUDA`, with `DEVCOL_FORCE_CUDA_BACKEND` in a plain C++ file, is for devcol's
 * own tests: the CUDA backend over a test double of the CUDA runtime (linked instead of cudart),
 * with Thrust's work run by the host system (OpenMP or serial C++) and every layer usable.
 *
 * Everything devcol declares lives in an inline namespace named after the backend, so a program
 * that mixes the two backends across translation units gets a link error, never a silent ODR
 * violation between two layouts of the same type.
 */
#pragma once

#include <devcol/core/version.hpp>

#if defined(DEVCOL_SIMULATED_CUDA) && !defined(__CUDACC__) && defined(DEVCOL_FORCE_CUDA_BACKEND)
#  undef DEVCOL_SIMULATED_CUDA
#  define DEVCOL_SIMULATED_CUDA 1
#elif defined(DEVCOL_SIMULATED_CUDA)
#  error "DEVCOL_SIMULATED_CUDA needs DEVCOL_FORCE_CUDA_BACKEND and a plain C++ compiler"
#else
/// 1 when the CUDA backend runs over devcol's simulated CUDA runtime (tests only).
#  define DEVCOL_SIMULATED_CUDA 0
#endif

#if defined(__CUDACC__) || defined(DEVCOL_FORCE_CUDA_BACKEND)
#  define DEVCOL_BACKEND_CUDA 1
#  define DEVCOL_BACKEND_HOST 0
#else
#  define DEVCOL_BACKEND_CUDA 0
#  define DEVCOL_BACKEND_HOST 1
#endif

/// Whether device code (kernels, `__device__` functions) can be compiled in this translation unit.
#if defined(__CUDACC__)
#  define DEVCOL_HAS_DEVICE_COMPILER 1
#else
#  define DEVCOL_HAS_DEVICE_COMPILER 0
#endif

#if DEVCOL_HAS_DEVICE_COMPILER
/// Marks a function callable from host and device code; nothing on the host backend.
#  define DEVCOL_HOST_DEVICE __host__ __device__
/// Marks a function callable from device code only; nothing on the host backend.
#  define DEVCOL_DEVICE __device__
/// Declares a kernel with hidden visibility, so two shared libraries that include devcol never
/// resolve each other's kernels (cuCollections' CUCO_KERNEL, CCCL's kernel attributes).
#  define DEVCOL_KERNEL __global__ __attribute__((visibility("hidden")))
#else
#  define DEVCOL_HOST_DEVICE
#  define DEVCOL_DEVICE
#  define DEVCOL_KERNEL
#endif

// The host backend's fast paths (ops/detail/host/dispatch.hpp): on by default with GCC and clang,
// off with DEVCOL_HOST_FAST_PATHS=0 (every op through Thrust), never on the CUDA backend.
#if DEVCOL_BACKEND_CUDA
#  undef DEVCOL_HOST_FAST_PATHS
#  define DEVCOL_HOST_FAST_PATHS 0
#elif !defined(DEVCOL_HOST_FAST_PATHS)
#  if defined(__GNUC__) || defined(__clang__)
/// 1 when the host backend's ops take their fast paths (ops/detail/host/dispatch.hpp).
#    define DEVCOL_HOST_FAST_PATHS 1
#  else
#    define DEVCOL_HOST_FAST_PATHS 0
#  endif
#endif

// The fast paths change the bodies of inline functions, so translation units that differ in
// DEVCOL_HOST_FAST_PATHS get different namespaces: mixing them links, without an ODR violation.
#if DEVCOL_BACKEND_CUDA
#  define DEVCOL_ABI_NAMESPACE cuda_v0
#elif DEVCOL_HOST_FAST_PATHS
#  define DEVCOL_ABI_NAMESPACE host_v0
#else
#  define DEVCOL_ABI_NAMESPACE host_thrust_v0
#endif

/// Opens namespace `devcol` (and its backend-specific inline namespace).
#define DEVCOL_NAMESPACE_BEGIN \
  namespace devcol {           \
  inline namespace DEVCOL_ABI_NAMESPACE {
/// Closes what DEVCOL_NAMESPACE_BEGIN opened.
#define DEVCOL_NAMESPACE_END \
  }                          \
  }

// The precompiled mode (CMake: DEVCOL_PRECOMPILED, target devcol::precompiled). Header-only is the
// default. With DEVCOL_PRECOMPILED=1 on the host backend, the headers declare `extern template`
// the instantiations that the devcol_precompiled library holds (every kind's Arrow import and
// export, the type-erased column's ops, for default_policy), so a translation unit that calls them
// skips their instantiation and code generation and links them instead. The library's one source
// defines DEVCOL_PRECOMPILED_INSTANTIATE, which turns the same declarations into the explicit
// instantiations. CUDA translation units always compile everything themselves: the library is
// host code, and its symbols live in the host namespace.
#if defined(DEVCOL_PRECOMPILED_INSTANTIATE) && DEVCOL_BACKEND_HOST
/// 1 where the headers name the precompiled instantiations (DEVCOL_EXTERN_TEMPLATE).
#  define DEVCOL_USE_PRECOMPILED 1
/// `extern template` in a consumer of the precompiled library; `template` in the library itself.
#  define DEVCOL_EXTERN_TEMPLATE template
#elif defined(DEVCOL_PRECOMPILED) && DEVCOL_PRECOMPILED && DEVCOL_BACKEND_HOST
#  define DEVCOL_USE_PRECOMPILED 1
#  define DEVCOL_EXTERN_TEMPLATE extern template
#else
#  define DEVCOL_USE_PRECOMPILED 0
#endif

// Thrust's device system follows the backend: on the host backend (and the simulated CUDA one,
// whose kernels run on the host) it must never be CUDA.
#if DEVCOL_BACKEND_HOST || DEVCOL_SIMULATED_CUDA
#  if !defined(THRUST_DEVICE_SYSTEM)
#    if defined(_OPENMP)
#      define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_OMP
#    else
#      define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_CPP
#    endif
#  elif THRUST_DEVICE_SYSTEM == 1 /* THRUST_DEVICE_SYSTEM_CUDA */
#    error "devcol's host backend cannot use Thrust's CUDA device system: compile as CUDA instead"
#  endif
#endif

// CCCL 3.0 keeps the cuda::mr concepts behind this opt-in; devcol resources satisfy them.
#if !defined(LIBCUDACXX_ENABLE_EXPERIMENTAL_MEMORY_RESOURCE)
#  define LIBCUDACXX_ENABLE_EXPERIMENTAL_MEMORY_RESOURCE
#endif

/// 1 when CCCL's `cuda::mr` resource concepts (and the CUDA runtime header they need) are available.
#if defined(__has_include)
#  if __has_include(<cuda/memory_resource>) && __has_include(<cuda_runtime_api.h>)
#    define DEVCOL_HAS_CCCL_MR 1
#  endif
#endif
#if !defined(DEVCOL_HAS_CCCL_MR)
#  define DEVCOL_HAS_CCCL_MR 0
#endif

#if DEVCOL_BACKEND_CUDA
#  include <cuda_runtime_api.h>
#endif
