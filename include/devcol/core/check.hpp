/**
 * @file check.hpp
 * @brief Precondition and CUDA-call check macros that throw devcol exceptions.
 *
 * Messages have the form `devcol: <what> [at <file>:<line>]` and name the offending value:
 * @code
 * DEVCOL_EXPECTS(is_power_of_two(alignment), "alignment ", alignment, " is not a power of two");
 * DEVCOL_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream.value()));
 * @endcode
 */
#pragma once

#include <devcol/core/config.hpp>
#include <devcol/core/error.hpp>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// The file name without its directories, so messages stay short and carry no build paths.
constexpr char const* file_name(char const* path) noexcept {
  char const* name = path;
  for (char const* p = path; *p != '\0'; ++p) {
    if (*p == '/' || *p == '\\') { name = p + 1; }
  }
  return name;
}

/// Streams every argument into one message and appends the location.
template <class... Args>
[[nodiscard]] std::string make_message(char const* file, int line, Args const&... args) {
  std::ostringstream out;
  out << "devcol: ";
  (out << ... << args);
  out << " [at " << file_name(file) << ':' << line << ']';
  return out.str();
}

#if DEVCOL_BACKEND_CUDA
/// Throws the devcol exception for a failed CUDA call: `out_of_memory` for allocation failures
/// (with `bytes` as the request), `cuda_error` otherwise. Clears the sticky-free last error.
[[noreturn]] inline void throw_cuda_error(cudaError_t status, char const* call, char const* file, int line,
                                          std::size_t bytes = 0) {
  (void)cudaGetLastError();
  if (status == cudaErrorMemoryAllocation) {
    throw out_of_memory(make_message(file, line, "out of memory allocating ", bytes, " bytes in ", call, ": ",
                                     cudaGetErrorString(status)),
                        bytes);
  }
  throw cuda_error(make_message(file, line, call, " failed with ", cudaGetErrorName(status), " (",
                                static_cast<int>(status), "): ", cudaGetErrorString(status)),
                   static_cast<int>(status), call);
}
#endif

}  // namespace detail
DEVCOL_NAMESPACE_END

/**
 * @brief Throws `Error` (constructed from the message) unless `cond` holds; the remaining arguments
 * are streamed into the message (name the bad value there). Costs one branch when `cond` holds;
 * the message is built only on failure.
 * @param Error an exception type constructible from a `std::string`
 * @param cond the precondition, evaluated once
 * @param ... the message parts, each streamable with `operator<<`, evaluated only on failure
 */
#define DEVCOL_EXPECTS_OR_THROW(Error, cond, ...)                                 \
  do {                                                                            \
    if (!(cond)) [[unlikely]] {                                                   \
      throw Error(::devcol::detail::make_message(__FILE__, __LINE__, __VA_ARGS__)); \
    }                                                                             \
  } while (0)

/// @brief Throws `devcol::logic_error` unless `cond` holds, with the streamed message.
/// @param cond the precondition, evaluated once
/// @param ... the message parts, each streamable, evaluated only on failure
#define DEVCOL_EXPECTS(cond, ...) DEVCOL_EXPECTS_OR_THROW(::devcol::logic_error, cond, __VA_ARGS__)

/// @brief Throws `devcol::logic_error` with the streamed message (for failures found by a branch).
/// @param ... the message parts, each streamable with `operator<<`
#define DEVCOL_FAIL(...) throw ::devcol::logic_error(::devcol::detail::make_message(__FILE__, __LINE__, __VA_ARGS__))

/// @brief Throws `devcol::out_of_memory` for a failed request of `bytes`, with the streamed message.
/// @param bytes the size of the request that failed, which the exception carries
/// @param ... the message parts, each streamable with `operator<<`
#define DEVCOL_OUT_OF_MEMORY(bytes, ...) \
  throw ::devcol::out_of_memory(::devcol::detail::make_message(__FILE__, __LINE__, __VA_ARGS__), (bytes))

#if DEVCOL_BACKEND_CUDA
/// @brief Calls a CUDA runtime function; throws `devcol::cuda_error` (or `out_of_memory`) on
/// failure, after clearing CUDA's last error so that the next call does not see it again.
/// @param call the CUDA runtime call, evaluated once; its text goes into the message
#  define DEVCOL_CUDA_TRY(call)                                                                 \
    do {                                                                                        \
      if (cudaError_t const devcol_status_ = (call); devcol_status_ != cudaSuccess) [[unlikely]] { \
        ::devcol::detail::throw_cuda_error(devcol_status_, #call, __FILE__, __LINE__);          \
      }                                                                                         \
    } while (0)

/// @brief Like DEVCOL_CUDA_TRY for an allocation of `bytes`: failure to allocate becomes
/// `devcol::out_of_memory` carrying the size.
/// @param call the CUDA allocation call, evaluated once
/// @param bytes the size requested, reported in the message and the exception
#  define DEVCOL_CUDA_TRY_ALLOC(call, bytes)                                                    \
    do {                                                                                        \
      if (cudaError_t const devcol_status_ = (call); devcol_status_ != cudaSuccess) [[unlikely]] { \
        ::devcol::detail::throw_cuda_error(devcol_status_, #call, __FILE__, __LINE__, (bytes)); \
      }                                                                                         \
    } while (0)

/**
 * @brief For `noexcept` paths (destructors, deallocation, release callbacks): never throws.
 * In debug builds a failure is printed and aborts; in release builds it is cleared and ignored.
 * @param call the CUDA runtime call, evaluated once in both builds
 */
#  ifdef NDEBUG
#    define DEVCOL_ASSERT_CUDA_SUCCESS(call) \
      do {                                   \
        if ((call) != cudaSuccess) { (void)cudaGetLastError(); } \
      } while (0)
#  else
#    define DEVCOL_ASSERT_CUDA_SUCCESS(call)                                                              \
      do {                                                                                                \
        if (cudaError_t const devcol_status_ = (call); devcol_status_ != cudaSuccess) {                  \
          std::fprintf(stderr, "devcol: %s failed with %s at %s:%d\n", #call,                            \
                       cudaGetErrorName(devcol_status_), ::devcol::detail::file_name(__FILE__), __LINE__); \
          std::abort();                                                                                   \
        }                                                                                                 \
      } while (0)
#  endif
#endif
