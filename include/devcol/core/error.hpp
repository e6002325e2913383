/**
 * @file error.hpp
 * @brief devcol's exception hierarchy, rooted at `devcol::error`.
 *
 * `devcol::error` is a mixin, not a `std::exception`: each concrete devcol exception derives from
 * exactly one standard exception (so `catch (std::exception const&)` is never ambiguous) and from
 * `devcol::error` (so `catch (devcol::error const&)` catches everything devcol throws).
 * `out_of_memory` is therefore also a `std::bad_alloc`, as allocators' users expect.
 */
#pragma once

#include <devcol/core/config.hpp>

#include <cstddef>
#include <new>
#include <stdexcept>
#include <string>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief The root of every exception devcol throws.
 *
 * Catch it to handle any devcol failure; `what()` gives the message, which names the source file,
 * the line and the offending value.
 */
class error {
 public:
  virtual ~error() = default;
  /// @brief The message, naming where the failure was detected and the bad value.
  [[nodiscard]] virtual char const* what() const noexcept = 0;

 protected:
  error() = default;
  error(error const&) = default;
  error& operator=(error const&) = default;
};

namespace detail {
/// A devcol error that is also exactly one standard exception, `Std`, which holds the message.
template <class Std>
class standard_error : public Std, public error {
 public:
  using Std::Std;
  [[nodiscard]] char const* what() const noexcept override { return Std::what(); }
};
}  // namespace detail

/**
 * @brief A violated precondition or misuse of the API (bad argument, bad state).
 *
 * Thrown before anything is modified: the objects involved are left as they were.
 */
struct logic_error : detail::standard_error<std::logic_error> {
  using detail::standard_error<std::logic_error>::standard_error;
};

/**
 * @brief A CUDA runtime call failed (other than by running out of memory).
 *
 * Carries the numeric `cudaError_t` and the text of the failing call.
 */
class cuda_error : public std::runtime_error, public error {
 public:
  /// @param message full message; @param code the `cudaError_t` value; @param call the failing call's text
  cuda_error(std::string const& message, int code, char const* call)
      : std::runtime_error(message), code_(code), call_(call) {}
  [[nodiscard]] char const* what() const noexcept override { return std::runtime_error::what(); }
  /// @brief The `cudaError_t` the call returned, as an integer.
  [[nodiscard]] int code() const noexcept { return code_; }
  /// @brief The text of the CUDA call that failed (a string literal).
  [[nodiscard]] char const* call() const noexcept { return call_; }
#if DEVCOL_BACKEND_CUDA
  /// @brief The `cudaError_t` the call returned.
  [[nodiscard]] cudaError_t status() const noexcept { return static_cast<cudaError_t>(code_); }
#endif

 private:
  int code_;
  char const* call_;
};

/**
 * @brief An allocation failed: a resource is exhausted or a limit was reached.
 *
 * Also a `std::bad_alloc`. `requested_bytes()` tells the size that failed. The on-out-of-memory
 * adaptor (and the spill manager) catch exactly this type to free memory and retry.
 */
class out_of_memory : public std::bad_alloc, public error {
 public:
  /// @param message full message; @param requested_bytes the size of the failed request
  out_of_memory(std::string const& message, std::size_t requested_bytes)
      : message_(message), requested_bytes_(requested_bytes) {}
  [[nodiscard]] char const* what() const noexcept override { return message_.what(); }
  /// @brief The size in bytes of the request that failed.
  [[nodiscard]] std::size_t requested_bytes() const noexcept { return requested_bytes_; }

 private:
  std::runtime_error message_;  // a reference-counted string whose copy never throws
  std::size_t requested_bytes_;
};

/**
 * @brief Invalid input met at the Arrow C (Device) Data Interface boundary.
 *
 * The message names the offending field and its value. The input has been released.
 */
struct arrow_error : detail::standard_error<std::invalid_argument> {
  using detail::standard_error<std::invalid_argument>::standard_error;
};

/**
 * @brief Invalid input met at the DLPack boundary (a tensor devcol cannot read as a column).
 *
 * The message names the offending field and its value. The tensor's deleter has been called.
 */
struct dlpack_error : detail::standard_error<std::invalid_argument> {
  using detail::standard_error<std::invalid_argument>::standard_error;
};

DEVCOL_NAMESPACE_END
