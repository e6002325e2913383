/**
 * @file fwd.hpp
 * @brief Declarations of every column kind, its view, the type-erased `any_column` and the table,
 * with their default template arguments, for a header that names them without their definitions:
 * in a function's declaration, or as a reference or a pointer member. A header that declares
 * `devcol::table load(devcol::strings_column const&, devcol::stream_ref)` includes this one, and
 * only the file that defines `load` includes the kinds' headers (as Arrow's `type_fwd.h` serves).
 *
 * Cost: what naming a column type needs and no more: the value types (`types.hpp`, with
 * `<cuda/std/chrono>` for the timestamps) and the buffer policy (`policy.hpp`, with the memory
 * resources' concept); no column code, no Thrust algorithm, nothing instantiated. A file of such
 * declarations takes g++ 0.76 times the instructions of a file of Thrust's sort and reduce, where
 * the umbrella takes 1.65 times (`bench/build_time/forward_declarations.cpp`, bench/RESULTS.md).
 *
 * Every definition header includes this one, so that each default template argument is written
 * once, here (two kinds' excepted, for nvcc: see run_end_encoded_column below).
 */
#pragma once

#include <devcol/buffer/policy.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/config.hpp>

#include <concepts>
#include <cstdint>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief The offset types of Arrow's variable-width layouts: int32 (utf8, list) and int64 (large).
 * @tparam O the type tested
 */
template <class O>
concept arrow_offset = std::same_as<O, std::int32_t> || std::same_as<O, std::int64_t>;

/**
 * @brief What the bytes of a variable-width column's rows are. It decides the Arrow type and the
 * kind (`kind::strings` or `kind::binary`) and nothing else: both share one class, so the layout,
 * the ops and their costs are the same, and bytes order as unsigned in both.
 */
enum class encoding : std::uint8_t {
  utf8,    ///< text: Arrow utf8 / large utf8 ("u", "U"); devcol does not validate the UTF-8, as Arrow's C interface does not
  binary,  ///< opaque bytes: Arrow binary / large binary ("z", "Z")
};

/// @brief The representations of Arrow's decimals: int32 (decimal32), int64 (decimal64),
/// `devcol::int128_t` (decimal128) and `devcol::int256_t` (decimal256).
/// @tparam Rep the type tested
template <class Rep>
concept decimal_rep = std::same_as<Rep, std::int32_t> || std::same_as<Rep, std::int64_t> ||
                      std::same_as<Rep, int128_t> || std::same_as<Rep, int256_t>;

// ---- views (each defined beside its kind; column_view in column/column_view.hpp) -------------

template <fixed_width T>
class column_view;
template <fixed_width T>
class mutable_column_view;
template <arrow_offset O>
class strings_column_view;
class fixed_size_binary_column_view;
class binary_view_column_view;
template <arrow_offset O>
class list_column_view;

// ---- the kinds: leaves (each in column/<kind>.hpp) ---------------------------------------------

template <fixed_width T, buffer_policy Policy = default_policy>
class column;

template <arrow_offset O, buffer_policy Policy = default_policy, encoding E = encoding::utf8>
class basic_strings_column;
/// @brief Arrow utf8 (format "u"): 32-bit offsets, up to 2^31 - 1 bytes of characters in all.
using strings_column = basic_strings_column<std::int32_t>;
/// @brief Arrow large utf8 (format "U"): 64-bit offsets.
using large_strings_column = basic_strings_column<std::int64_t>;
/**
 * @brief Arrow binary (format "z") and large binary ("Z"): `basic_strings_column` over bytes that
 * need not be UTF-8.
 * @tparam O `std::int32_t` (binary) or `std::int64_t` (large binary)
 * @tparam Policy a buffer policy (`devcol::default_policy` unless named)
 */
template <arrow_offset O, buffer_policy Policy = default_policy>
using basic_binary_column = basic_strings_column<O, Policy, encoding::binary>;
/// @brief Arrow binary (format "z"): 32-bit offsets, up to 2^31 - 1 bytes in all.
using binary_column = basic_binary_column<std::int32_t>;
/// @brief Arrow large binary (format "Z"): 64-bit offsets.
using large_binary_column = basic_binary_column<std::int64_t>;

template <decimal_rep Rep, buffer_policy Policy = default_policy>
class decimal_column;
/// @brief Arrow decimal32 ("d:P,S,32"): precision 1..9, int32 unscaled values.
using decimal32_column = decimal_column<std::int32_t>;
/// @brief Arrow decimal64 ("d:P,S,64"): precision 1..18, int64 unscaled values.
using decimal64_column = decimal_column<std::int64_t>;
/// @brief Arrow decimal128 ("d:P,S"): precision 1..38, 128-bit unscaled values.
using decimal128_column = decimal_column<int128_t>;
/// @brief Arrow decimal256 ("d:P,S,256"): precision 1..76, 256-bit unscaled values (`int256_t`).
using decimal256_column = decimal_column<int256_t>;

template <buffer_policy Policy = default_policy>
class fixed_size_binary_column;

template <buffer_policy Policy = default_policy>
class null_column;

template <buffer_policy Policy = default_policy, encoding E = encoding::utf8>
class basic_binary_view_column;
/// @brief Arrow string view (format "vu"): views over UTF-8 bytes.
/// @tparam Policy a buffer policy (`devcol::default_policy` unless named)
template <buffer_policy Policy = default_policy>
using basic_string_view_column = basic_binary_view_column<Policy, encoding::utf8>;
/// @brief Arrow string view with the default policy.
using string_view_column = basic_string_view_column<>;
/// @brief Arrow binary view (format "vz") with the default policy: views over bytes that need not be UTF-8.
using binary_view_column = basic_binary_view_column<default_policy, encoding::binary>;

// ---- the kinds with children (each in column/detail/<kind>.hpp, through column/<kind>.hpp) -----

template <arrow_offset O, buffer_policy Policy = default_policy>
class basic_list_column;
/// @brief Arrow list of default-policy columns (format "+l").
using list_column = basic_list_column<std::int32_t>;
/// @brief Arrow large list of default-policy columns (format "+L"): 64-bit offsets.
using large_list_column = basic_list_column<std::int64_t>;

template <buffer_policy Policy = default_policy>
class struct_column;

template <buffer_policy Policy = default_policy>
class dictionary_column;

template <buffer_policy Policy = default_policy>
class fixed_size_list_column;

// Its default policy is on its definition (column/detail/run_end_encoded_column.hpp): nvcc's front
// end repeats a forward declaration's default on this definition, which the host compiler then
// rejects. So a file that includes only this header names it with its policy:
// `run_end_encoded_column<default_policy>`.
template <buffer_policy Policy>
class run_end_encoded_column;

template <arrow_offset O, buffer_policy Policy = default_policy>
class basic_list_view_column;
/// @brief Arrow list view of default-policy columns (format "+vl").
using list_view_column = basic_list_view_column<std::int32_t>;
/// @brief Arrow large list view of default-policy columns (format "+vL"): 64-bit offsets and sizes.
using large_list_view_column = basic_list_view_column<std::int64_t>;

// Its default policy is on its definition (column/detail/union_column.hpp), as
// run_end_encoded_column's is: `union_column<default_policy>` here.
template <buffer_policy Policy>
class union_column;

// ---- any kind, and tables (column/any_column.hpp, column/table.hpp) ----------------------------

template <buffer_policy Policy = default_policy>
class any_column;

template <buffer_policy Policy = default_policy>
class basic_table;
/// @brief A table of default-policy columns.
using table = basic_table<default_policy>;

DEVCOL_NAMESPACE_END
