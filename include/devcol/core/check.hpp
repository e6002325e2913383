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
#include <initializer_list>
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

/**
 * One part of a failed check's message, as joining needs it: text, a number or a pointer. A failed
 * check lays its parts out in one array and a single joining function prints them, rather than a
 * joining function per list of argument types that prints its own list: a program reaches
 * hundreds of checks, and those functions had been 7% of the code of a table's Arrow round trip.
 * Holds a view: the text it was made from outlives the message.
 */
class message_part {
 public:
  /// Which member the part holds.
  enum class tag : unsigned char { text, c_string, signed_integer, unsigned_integer, floating_point, pointer, character };

  /// Text, appended as it is.
  constexpr message_part(std::string_view text) noexcept : tag_(tag::text), text_(text) {}
  /// A C string; a null one prints as "(null)", where a stream would fail. Measured when joined,
  /// so that laying out a part is two stores.
  constexpr message_part(char const* text) noexcept : tag_(tag::c_string), c_string_(text) {}
  /// Text made for the message (a streamed value's, see printable()).
  message_part(std::string const& text) noexcept : message_part(std::string_view(text)) {}
  /// A signed integer, in decimal.
  constexpr message_part(long long value) noexcept : tag_(tag::signed_integer), signed_(value) {}
  /// An unsigned integer, in decimal.
  constexpr message_part(unsigned long long value) noexcept : tag_(tag::unsigned_integer), unsigned_(value) {}
  /// A bool, as 1 or 0 (what a stream prints).
  constexpr message_part(bool value) noexcept : message_part(static_cast<long long>(value)) {}
  /// A floating-point value, with six significant digits (what a stream prints).
  constexpr message_part(double value) noexcept : tag_(tag::floating_point), floating_(value) {}
  /// A character, as itself.
  constexpr message_part(char value) noexcept : tag_(tag::character), character_(value) {}
  /// A pointer, as 0x and hex digits, or 0 for null (what a stream prints).
  constexpr message_part(void const* p) noexcept : tag_(tag::pointer), pointer_(p) {}

  /// Appends the part to `out`. Integers and pointers go through C's `snprintf`, a call into the C
  /// library: `std::to_chars` on an integer instantiates libstdc++'s formatting templates (every
  /// base's, for a pointer's base 16) in every file that has a check, for messages only failures
  /// print. Floating point keeps `std::to_chars`, which the library compiles, and which prints as
  /// `%.6g` does without depending on the C locale.
  template <int = 0>
  void append_to(std::string& out) const {
    char digits[64];
    int written = 0;
    switch (tag_) {
      case tag::text: out += text_; return;
      case tag::c_string: out += c_string_ != nullptr ? c_string_ : "(null)"; return;
      case tag::character: out += character_; return;
      case tag::signed_integer: written = std::snprintf(digits, sizeof digits, "%lld", signed_); break;
      case tag::unsigned_integer: written = std::snprintf(digits, sizeof digits, "%llu", unsigned_); break;
      case tag::floating_point:
        written = static_cast<int>(
            std::to_chars(digits, digits + sizeof digits, floating_, std::chars_format::general, 6).ptr - digits);
        break;
      case tag::pointer:
        if (pointer_ == nullptr) {
          out += '0';
          return;
        }
        written = std::snprintf(digits, sizeof digits, "0x%llx",
                                static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(pointer_)));
        break;
    }
    out.append(digits, static_cast<std::size_t>(written));
  }

 private:
  tag tag_;
  union {
    std::string_view text_;
    char const* c_string_;
    long long signed_;
    unsigned long long unsigned_;
    double floating_;
    void const* pointer_;
    char character_;
  };
};

/// Joins "devcol: ", every part and " [at <file>:<line>]" into one message. Only failures call it.
template <int = 0>
[[nodiscard, gnu::cold, gnu::noinline]] std::string join_parts(char const* file, int line,
                                                               std::initializer_list<message_part> parts) {
  std::string out = "devcol: ";
  for (message_part const& part : parts) { part.append_to(out); }
  out += " [at ";
  out += file_name(file);
  out += ':';
  message_part(static_cast<long long>(line)).append_to(out);
  out += ']';
  return out;
}

/// Throws `Error` made from join_parts' text: one body per exception type, so that no check's
/// call site or shape writes out the exception's allocation, construction and unwinding.
template <class Error>
[[noreturn, gnu::cold, gnu::noinline]] void throw_parts(char const* file, int line,
                                                        std::initializer_list<message_part> parts) {
  throw Error(join_parts(file, line, parts));
}

/// Whether a value of type `T` is a message_part as it is: text, arithmetic or a pointer.
template <class T>
inline constexpr bool is_direct_part = std::is_arithmetic_v<T> || std::is_convertible_v<T const&, std::string_view> ||
                                       std::is_convertible_v<T const&, void const*>;

/// A value as a message part can hold it: itself when it is one, else the text `operator<<` prints
/// for it (enumerations with an `operator<<`, library types), which lives to the end of the
/// expression that joins the message.
template <class T>
decltype(auto) printable(T const& value) {
  if constexpr (is_direct_part<T>) {
    if constexpr (std::is_same_v<T, signed char> || std::is_same_v<T, unsigned char>) {
      return static_cast<char>(value);
    } else {
      return (value);
    }
  } else {
    std::ostringstream stream;
    stream << value;
    return stream.str();
  }
}

/// What make_message passes an argument of type `T` on as, so that messages of the same shape share
/// one function that lays out their parts: C strings as `char const*`, integers (not characters or
/// bool) as the widest of their signedness, floating point as double, other text as
/// `std::string_view`; anything else as itself. Each prints as the original would. The tests run in
/// that order and stop at the first that holds, so a string literal (one type per length, hundreds
/// of them) costs a decay and no conversion test.
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

/// Lays out the parts of one shape of message and joins them; out of line, as only failures call it.
template <class... Parts>
[[nodiscard, gnu::cold, gnu::noinline]] std::string join_message(char const* file, int line, Parts const&... parts) {
  return join_parts(file, line, {message_part(printable(parts))...});
}

/// The message of a failed check: "devcol: ", every argument as `operator<<` would print it, and
/// " [at <file>:<line>]". The arguments are passed on as their message_part_t, so that the
/// hundreds of checks, which differ mostly in the lengths of their string literals, instantiate a
/// few dozen layouts rather than one each.
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

/// Lays out one shape's parts and throws `Error` with their text (throw_parts). Out of line: laying
/// the parts out where each check fails measured larger and slower to compile than this body, one
/// per shape of message.
template <class Error, class... Parts>
[[noreturn, gnu::cold, gnu::noinline]] void throw_joined(char const* file, int line, Parts const&... parts) {
  throw_parts<Error>(file, line, {message_part(printable(parts))...});
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
 * `cudaErrorCudartUnloading` is cleared and ignored in both: the runtime is shutting down at
 * process exit, after which objects of static storage duration made before its first use (a
 * stream, a column, a resource) are destroyed, with nothing left to free or wait for (RMM treats
 * it so too, rapidsai/rmm#2203).
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
        if (cudaError_t const devcol_status_ = (call); devcol_status_ == cudaErrorCudartUnloading) {     \
          (void)cudaGetLastError();                                                                       \
        } else if (devcol_status_ != cudaSuccess) {                                                       \
          std::fprintf(stderr, "devcol: %s failed with %s at %s:%d\n", #call,                            \
                       cudaGetErrorName(devcol_status_), ::devcol::detail::file_name(__FILE__), __LINE__); \
          std::abort();                                                                                   \
        }                                                                                                 \
      } while (0)
#  endif
#endif
