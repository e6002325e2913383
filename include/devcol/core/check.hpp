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

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>

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

// A message is built from its parts by these overloads, each written once, rather than by a
// std::ostringstream in every instantiation of make_message: there is one instantiation per
// distinct list of argument types (over a hundred checks), and a stream's construction in each
// was a tenth of the code of a small program. The text is what `operator<<` would print.

/// Appends text.
inline void append_part(std::string& out, std::string_view text) { out += text; }
/// Appends a C string (a null one as "(null)", where a stream would fail).
inline void append_part(std::string& out, char const* text) { out += text != nullptr ? text : "(null)"; }
/// Appends a pointer as a stream prints it: 0x and hex digits, or 0 for null.
inline void append_part(std::string& out, void const* p) {
  if (p == nullptr) {
    out += '0';
    return;
  }
  char digits[2 * sizeof(void*)];
  auto const end = std::to_chars(digits, digits + sizeof digits, reinterpret_cast<std::uintptr_t>(p), 16).ptr;
  out += "0x";
  out.append(digits, end);
}
/// Appends a number as a stream prints it (a character type as its character, a bool as 1 or 0,
/// a floating-point value with six significant digits).
template <class T>
  requires std::is_arithmetic_v<T>
void append_part(std::string& out, T value) {
  if constexpr (std::is_same_v<T, char> || std::is_same_v<T, signed char> || std::is_same_v<T, unsigned char>) {
    out += static_cast<char>(value);
  } else {
    char digits[64];
    std::to_chars_result written{};
    if constexpr (std::is_floating_point_v<T>) {
      written = std::to_chars(digits, digits + sizeof digits, value, std::chars_format::general, 6);
    } else {
      written = std::to_chars(digits, digits + sizeof digits, static_cast<std::conditional_t<std::is_same_v<T, bool>, int, T>>(value));
    }
    out.append(digits, written.ptr);
  }
}
/// Appends any other streamable value (enumerations with an `operator<<`, library types).
template <class T>
  requires(!std::is_arithmetic_v<T> && !std::is_convertible_v<T const&, std::string_view> &&
           !std::is_convertible_v<T const&, void const*>)
void append_part(std::string& out, T const& value) {
  std::ostringstream stream;
  stream << value;
  out += stream.str();
}
/// Appends the location: " [at <file>:<line>]".
inline void append_location(std::string& out, char const* file, int line) {
  out += " [at ";
  out += file_name(file);
  out += ':';
  append_part(out, line);
  out += ']';
}

/// What make_message passes an argument of type `T` on as, so that messages of the same shape share
/// one joining function: C strings as `char const*`, integers (not characters or bool) as the
/// widest of their signedness, floating point as double, other text as `std::string_view`;
/// anything else as itself. Each prints as the original would. The tests run in that order and stop
/// at the first that holds, so a string literal (one type per length, hundreds of them) costs a
/// decay and no conversion test.
template <class T>
consteval auto message_part_of() {
  using D = std::decay_t<T>;
  if constexpr (std::is_same_v<D, char*> || std::is_same_v<D, char const*>) {
    return std::type_identity<char const*>{};
  } else if constexpr (std::is_integral_v<D> && !std::is_same_v<D, bool> && !std::is_same_v<D, char> &&
                       !std::is_same_v<D, signed char> && !std::is_same_v<D, unsigned char>) {
    return std::type_identity<std::conditional_t<std::is_signed_v<D>, long long, unsigned long long>>{};
  } else if constexpr (std::is_floating_point_v<D>) {
    return std::type_identity<double>{};
  } else if constexpr (std::is_convertible_v<T const&, std::string_view>) {
    return std::type_identity<std::string_view>{};
  } else {
    return std::type_identity<T>{};
  }
}
template <class T>
using message_part_t = typename decltype(message_part_of<T>())::type;

/// Joins every part into one message and appends the location. Only failures call it, so it is
/// kept out of line and out of the callers' hot paths.
template <class... Parts>
[[nodiscard, gnu::cold, gnu::noinline]] std::string join_message(char const* file, int line, Parts const&... parts) {
  std::string out = "devcol: ";
  (append_part(out, parts), ...);
  append_location(out, file, line);
  return out;
}

/// The message of a failed check: "devcol: ", every argument as `operator<<` would print it, and
/// " [at <file>:<line>]". The arguments are passed on as their message_part_t, so that the
/// hundreds of checks, which differ mostly in the lengths of their string literals, instantiate a
/// few dozen joining functions rather than one each.
template <class Part, class T>
decltype(auto) as_message_part(T const& value) {
  if constexpr (std::is_same_v<Part, T>) {
    return (value);  // passed on by reference, uncopied
  } else {
    return Part(value);
  }
}
template <class... Args>
[[nodiscard]] std::string make_message(char const* file, int line, Args const&... args) {
  return join_message<message_part_t<Args>...>(file, line, as_message_part<message_part_t<Args>>(args)...);
}

/// Throws `Error` made from join_message's text. Out of line with the throw inside, so that a
/// failed check's call site is a branch and a call: the exception's allocation, construction and
/// unwinding cleanup had been written out at each of the hundreds of checks a program reaches.
template <class Error, class... Parts>
[[noreturn, gnu::cold, gnu::noinline]] void throw_joined(char const* file, int line, Parts const&... parts) {
  throw Error(join_message(file, line, parts...));
}
/// Throws `Error` (constructible from a `std::string`) with make_message's text for `args`; checks of
/// one shape share one throw_joined, as make_message shares one join_message.
template <class Error, class... Args>
[[noreturn]] void throw_message(char const* file, int line, Args const&... args) {
  throw_joined<Error, message_part_t<Args>...>(file, line, as_message_part<message_part_t<Args>>(args)...);
}

/// Whether `value`, of a scoped enumeration, is one of its enumerators 0 to `last`
/// (DEVCOL_EXPECTS_ENUMERATOR's test).
template <class E>
[[nodiscard]] constexpr bool names_enumerator(E value, E last) noexcept {
  auto const v = static_cast<long long>(value);
  return v >= 0 && v <= static_cast<long long>(last);
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
#define DEVCOL_EXPECTS_OR_THROW(Error, cond, ...)                                  \
  do {                                                                             \
    if (!(cond)) [[unlikely]] {                                                    \
      ::devcol::detail::throw_message<Error>(__FILE__, __LINE__, __VA_ARGS__);     \
    }                                                                              \
  } while (0)

/// @brief Throws `devcol::logic_error` unless `cond` holds, with the streamed message.
/// @param cond the precondition, evaluated once
/// @param ... the message parts, each streamable, evaluated only on failure
#define DEVCOL_EXPECTS(cond, ...) DEVCOL_EXPECTS_OR_THROW(::devcol::logic_error, cond, __VA_ARGS__)

/**
 * @brief Throws `devcol::logic_error` naming `op`, the enumeration and the value unless `value` is
 * one of the enumerators 0 to `last` of its scoped enumeration: an integer cast to the enumeration
 * that names none would otherwise take whichever branch the op's switch falls through to.
 * @param value the enumeration value an op was given, evaluated once or twice
 * @param last the enumeration's last enumerator (they run from 0 to it)
 * @param op the op's name, as its messages begin
 * @param type the enumeration's name, a string literal
 */
#define DEVCOL_EXPECTS_ENUMERATOR(value, last, op, type)                                                    \
  DEVCOL_EXPECTS(::devcol::detail::names_enumerator((value), (last)), op, ": " type "(",                   \
                 static_cast<long long>(value), ") is not one of its enumerators")

/// @brief Throws `devcol::logic_error` with the streamed message (for failures found by a branch).
/// @param ... the message parts, each streamable with `operator<<`
#define DEVCOL_FAIL(...) ::devcol::detail::throw_message<::devcol::logic_error>(__FILE__, __LINE__, __VA_ARGS__)

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
