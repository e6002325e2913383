/**
 * @file factories.hpp
 * @brief Making columns: from host values (`make_column`), as a sequence, filled with one value.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/binary_view_column.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/decimal_column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/detail/wrapping.hpp>
#include <devcol/column/fixed_size_binary_column.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/host_range.hpp>
#include <devcol/core/stream_ref.hpp>

#include <thrust/fill.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <string>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

namespace detail {

template <class V, class T>
inline constexpr bool is_optional_of = std::is_same_v<std::remove_cvref_t<V>, std::optional<T>>;

/// make_column over host values that are `V` (`T`, or `std::optional<T>` for nullable rows), read
/// once, in order: one body per value type whatever the range, the one the precompiled library
/// holds. `R` is the range, a span where the values are contiguous.
template <fixed_width T, buffer_policy Policy, class V, class R>
column<T, Policy> column_from_host(R const& values, stream_ref stream) {
  operation_spill_lock<Policy> const spill_scope{stream};
  std::size_t const size = static_cast<std::size_t>(std::ranges::distance(values));
  auto staged = std::make_unique_for_overwrite<T[]>(size);  // not std::vector: vector<bool> has no data()
  std::vector<bitmask_word> valid;
  std::size_t nulls = 0;
  if constexpr (is_optional_of<V, T>) { valid.assign(bitmask_allocation_size(size) / sizeof(bitmask_word), 0); }
  std::size_t i = 0;
  for (auto const& v : values) {
    if constexpr (is_optional_of<V, T>) {
      staged[i] = v.value_or(T{});
      if (v.has_value()) {
        valid[i / bits_per_word] |= bitmask_word{1} << (i % bits_per_word);
      } else {
        ++nulls;
      }
    } else {
      staged[i] = static_cast<T>(v);
    }
    ++i;
  }
  column<T, Policy> out(size, stream);
  copy_bytes(out.data(access::write, stream), staged.get(), size * sizeof(T), stream);
  if (nulls != 0) {
    // Set on the new column, which checks the mask and count alone; rebuilding the column from its
    // buffers would check, wrap and assign the values as well, in every file that makes a column.
    typename column<T, Policy>::buffer_type mask(valid.size() * sizeof(bitmask_word), stream);
    copy_bytes(mask.data(access::write, stream), valid.data(), valid.size() * sizeof(bitmask_word), stream);
    out.replace_null_mask(std::move(mask), nulls);
  }
  stream.synchronize();
  return out;
}

}  // namespace detail

/**
 * @brief A column holding the values of a host range of `T` or of `std::optional<T>` (an empty
 * optional is a null row; the column has a mask only if some row is null). Stages the values in
 * host memory and copies them in order on `stream`, which it then synchronises (the staging
 * memory is freed on return).
 * @tparam T the column's fixed-width value type
 * @tparam Policy the buffer policy of the result: its `resource` gives the memory, its other
 *         members decide sharing, exposure tracking, reference counting and spilling
 * @tparam Range a host input range of values convertible to `T`, or of `std::optional<T>`;
 *         walked once, in order
 * @param values the rows, first to last; its length is the column's size
 * @param stream the stream the copy runs on and that is synchronised before returning
 * @returns a column owning fresh device memory of `values.size()` rows
 * @throws what allocation and copying throw
 */
template <fixed_width T, buffer_policy Policy = default_policy, detail::host_input_range Range>
  requires std::convertible_to<detail::host_range_value_t<Range>, T> ||
           detail::is_optional_of<detail::host_range_value_t<Range>, T>
[[nodiscard]] column<T, Policy> make_column(Range const& values, stream_ref stream = {}) {
  using value = detail::host_range_value_t<Range>;
  if constexpr (detail::host_contiguous_range<Range> && detail::host_sized_range<Range> &&
                (std::is_same_v<value, T> || detail::is_optional_of<value, T>)) {
    return detail::column_from_host<T, Policy, value>(
        std::span<value const>(std::ranges::data(values), std::ranges::size(values)), stream);
  } else if constexpr (!std::forward_iterator<detail::host_range_iterator_t<Range const>>) {
    // A single-pass range (a stream's values, say) is over once its length is counted: its rows
    // are read into host memory first, in the one pass it allows, and made from there.
    std::vector<value> read;
    for (auto&& v : values) { read.emplace_back(std::forward<decltype(v)>(v)); }
    return detail::column_from_host<T, Policy, value>(read, stream);
  } else {
    return detail::column_from_host<T, Policy, value>(values, stream);
  }
}

/**
 * @brief make_column from a braced list of values: `make_column<std::int64_t>({1, 2, 3})`.
 * Synchronises `stream`, as the range overload does.
 * @tparam T the column's fixed-width value type
 * @tparam Policy the buffer policy of the result: its `resource` gives the memory, its other
 *         members decide sharing, exposure tracking, reference counting and spilling
 * @param values the rows, first to last, none null (the column has no mask)
 * @param stream the stream the copy runs on and that is synchronised before returning
 * @throws what allocation and copying throw
 */
template <fixed_width T, buffer_policy Policy = default_policy>
[[nodiscard]] column<T, Policy> make_column(std::initializer_list<T> values, stream_ref stream = {}) {
  return detail::column_from_host<T, Policy, T>(std::span<T const>(values.begin(), values.size()), stream);
}

/**
 * @brief make_column from a braced list with nulls: `make_column<double>({1.0, std::nullopt})`.
 * Synchronises `stream`, as the range overload does.
 * @tparam T the column's fixed-width value type
 * @tparam Policy the buffer policy of the result: its `resource` gives the memory, its other
 *         members decide sharing, exposure tracking, reference counting and spilling
 * @param values the rows, first to last; `std::nullopt` is a null row (a mask is allocated only
 *        if some row is null)
 * @param stream the stream the copy runs on and that is synchronised before returning
 * @throws what allocation and copying throw
 */
template <fixed_width T, buffer_policy Policy = default_policy>
[[nodiscard]] column<T, Policy> make_column(std::initializer_list<std::optional<T>> values, stream_ref stream = {}) {
  return detail::column_from_host<T, Policy, std::optional<T>>(
      std::span<std::optional<T> const>(values.begin(), values.size()), stream);
}

namespace detail {
/// Row `i` of sequence(): `start + i * step`, integers wrapping past the type's range (modulo
/// 2^bits, so `i` may first be taken modulo 2^bits too) instead of being undefined.
template <class T>
struct sequence_row {
  T start;
  T step;
  DEVCOL_HOST_DEVICE T operator()(std::size_t i) const noexcept {
    return wrapping_add(start, wrapping_multiply(static_cast<T>(i), step));
  }
};
}  // namespace detail

/**
 * @brief `size` rows `start, start + step, start + 2 step, …` without nulls, written by one kernel
 * in order on `stream` (asynchronous on CUDA).
 * @tparam T an arithmetic value type other than `bool` (a sequence of bools has no meaning)
 * @tparam Policy the buffer policy of the result: its `resource` gives the memory, its other
 *         members decide sharing, exposure tracking, reference counting and spilling
 * @param size the number of rows
 * @param start the value of row 0
 * @param step what each row adds to the one before it: row i is `start + i * step`, for integers
 *        modulo 2^bits (two's complement: a sequence past the type's range wraps), for floating
 *        point rounded as `T` rounds
 * @param stream the stream the allocation and the kernel are ordered on; not synchronised
 * @throws what allocation throws
 */
template <fixed_width T, buffer_policy Policy = default_policy>
  requires std::is_arithmetic_v<T> && (!std::is_same_v<T, bool>)
[[nodiscard]] column<T, Policy> sequence(std::size_t size, T start = T{0}, T step = T{1}, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  column<T, Policy> out(size, stream);
  T* first = out.data(access::write, stream);
  detail::executor exec(stream);
  detail::tabulate(exec, size, first, detail::sequence_row<T>{start, step});
  return out;
}

/**
 * @brief `size` rows all equal to `value`, or all null when `value` is empty, written by one kernel
 * in order on `stream` (asynchronous on CUDA).
 * @tparam T the column's fixed-width value type
 * @tparam Policy the buffer policy of the result: its `resource` gives the memory, its other
 *         members decide sharing, exposure tracking, reference counting and spilling
 * @param size the number of rows
 * @param value the value of every row; empty makes every row null (a mask with every bit clear,
 *        the data filled with `T{}`)
 * @param stream the stream the allocation and the kernel are ordered on; not synchronised
 * @throws what allocation throws
 */
template <fixed_width T, buffer_policy Policy = default_policy>
[[nodiscard]] column<T, Policy> full(std::size_t size, std::optional<T> value, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  column<T, Policy> out(size, stream, value ? mask_state::unallocated : mask_state::all_null);
  T* first = out.data(access::write, stream);
  detail::executor exec(stream);
  thrust::fill(exec.policy(), first, first + size, value.value_or(T{}));
  return out;
}

/**
 * @brief A decimal column of `precision` and `scale` holding the unscaled values of a host range
 * of `Rep` or of `std::optional<Rep>` (an empty optional is a null row; a mask only if some row is
 * null), as make_column<Rep> stages and copies them (synchronises `stream`). Values are not
 * checked against the precision.
 * @tparam Rep the unscaled integer representation: `std::int32_t`, `std::int64_t`, the 128-bit or
 *         the 256-bit integer, which bounds the precision at 9, 18, 38 or 76 digits
 * @tparam Policy the buffer policy of the result: its `resource` gives the memory, its other
 *         members decide sharing, exposure tracking, reference counting and spilling
 * @tparam Range a host input range of values convertible to `Rep`, or of `std::optional<Rep>`
 * @param values the unscaled rows, first to last (row value = unscaled * 10^-scale)
 * @param precision the number of decimal digits a value may hold, in [1, 9 / 18 / 38 / 76] by `Rep`
 * @param scale the number of digits after the decimal point (negative scales multiply by a power
 *        of ten), as Arrow defines it
 * @param stream the stream the copy runs on and that is synchronised before returning
 * @throws devcol::logic_error naming the precision when it is outside [1, 9 / 18 / 38 / 76] (checked
 * before anything is allocated); what allocation and copying throw
 */
template <decimal_rep Rep, buffer_policy Policy = default_policy, detail::host_input_range Range>
  requires std::convertible_to<detail::host_range_value_t<Range>, Rep> ||
           detail::is_optional_of<detail::host_range_value_t<Range>, Rep>
[[nodiscard]] decimal_column<Rep, Policy> make_decimal_column(Range const& values, int precision, int scale,
                                                              stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::check_decimal_precision<Rep>("make_decimal_column", precision);
  return decimal_column<Rep, Policy>(make_column<Rep, Policy>(values, stream), precision, scale);
}

namespace detail {
/// `bytes` bytes from host memory at `data` in a new buffer from the policy's resource, copied in
/// order on `stream` (the caller synchronises before the host memory goes).
template <class Buffer>
[[nodiscard]] Buffer upload_bytes(void const* data, std::size_t bytes, stream_ref stream) {
  Buffer out(bytes, stream);
  copy_bytes(out.data(access::write, stream), data, bytes, stream);
  return out;
}
/// The host validity words of `rows` rows (padded here to the mask allocation size) as a device
/// mask, copied in order on `stream` (the caller synchronises before `valid` goes).
template <class Buffer>
[[nodiscard]] Buffer upload_mask(std::vector<bitmask_word>& valid, std::size_t rows, stream_ref stream) {
  valid.resize(bitmask_allocation_size(rows) / sizeof(bitmask_word), 0);
  return upload_bytes<Buffer>(valid.data(), valid.size() * sizeof(bitmask_word), stream);
}

template <class V>
inline constexpr bool is_optional_string =
    requires(std::remove_cvref_t<V> const& v) {
      { v.has_value() } -> std::convertible_to<bool>;
      { std::string_view(*v) };
    };

/**
 * Walks a host range of strings or of optional strings in order: `on_value(row, s)` for each valid
 * row, `on_null(row)` for each empty optional. Returns the validity words (one bit a row, only for
 * a range of optionals), the null count and the row count.
 */
struct staged_rows {
  std::vector<bitmask_word> valid;
  std::size_t nulls = 0;
  std::size_t rows = 0;
};
template <class Range, class OnValue, class OnNull>
staged_rows stage_string_rows(Range const& values, OnValue on_value, OnNull on_null) {
  std::vector<bitmask_word> valid;
  std::size_t nulls = 0;
  std::size_t row = 0;
  for (auto const& v : values) {
    if constexpr (is_optional_string<detail::host_range_value_t<Range>>) {
      if (row % bits_per_word == 0) { valid.push_back(0); }
      if (v.has_value()) {
        on_value(row, std::string_view(*v));
        valid[row / bits_per_word] |= bitmask_word{1} << (row % bits_per_word);
      } else {
        on_null(row);
        ++nulls;
      }
    } else {
      on_value(row, std::string_view(v));
    }
    ++row;
  }
  return {std::move(valid), nulls, row};
}
}  // namespace detail

/**
 * @brief A strings column holding the strings of a host range: of anything a `std::string_view`
 * is made from, or of `std::optional`s of it (an empty optional is a null row, stored as an empty
 * string; the column has a mask only if some row is null). Stages offsets and bytes in host
 * memory, copies them in order on `stream`, which it then synchronises. A column of 0 rows still
 * has its one offset, 0.
 * @tparam O the offset type: `std::int32_t` (Arrow utf8, at most 2^31 - 1 bytes in all) or
 *         `std::int64_t` (Arrow large utf8)
 * @tparam Policy the buffer policy of the result: its `resource` gives the memory, its other
 *         members decide sharing, exposure tracking, reference counting and spilling
 * @tparam E `encoding::binary` for a binary column (make_binary_column() says so shorter)
 * @tparam Range a host input range of values a `std::string_view` is made from, or of
 *         `std::optional`s of them; the bytes are copied as given, not checked as UTF-8
 * @param values the rows, first to last
 * @param stream the stream the copies run on and that is synchronised before returning
 * @throws devcol::logic_error when 32-bit offsets cannot hold the bytes (use `O = std::int64_t`),
 * what allocation and copying throw
 */
template <arrow_offset O = std::int32_t, buffer_policy Policy = default_policy, encoding E = encoding::utf8,
          detail::host_input_range Range>
  requires std::convertible_to<detail::host_range_value_t<Range>, std::string_view> ||
           detail::is_optional_string<detail::host_range_value_t<Range>>
[[nodiscard]] basic_strings_column<O, Policy, E> make_strings_column(Range const& values, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  using buffer_type = typename basic_strings_column<O, Policy, E>::buffer_type;
  std::vector<O> offsets{0};
  std::string chars;
  auto append = [&](std::size_t, std::string_view s) {
    DEVCOL_EXPECTS(s.size() <= static_cast<std::size_t>(std::numeric_limits<O>::max()) - chars.size(),
                   "make_strings_column: ", chars.size() + s.size(), " bytes overflow ", sizeof(O) * 8,
                   "-bit offsets (large_strings_column takes 64-bit ones)");
    chars.append(s);
    offsets.push_back(static_cast<O>(chars.size()));
  };
  auto [valid, nulls, row] = detail::stage_string_rows(values, append, [&](std::size_t r) { append(r, {}); });
  buffer_type offsets_buffer = detail::upload_bytes<buffer_type>(offsets.data(), offsets.size() * sizeof(O), stream);
  buffer_type chars_buffer = detail::upload_bytes<buffer_type>(chars.data(), chars.size(), stream);
  buffer_type mask = nulls != 0 ? detail::upload_mask<buffer_type>(valid, row, stream) : buffer_type{};
  stream.synchronize();
  return basic_strings_column<O, Policy, E>(std::move(offsets_buffer), std::move(chars_buffer), std::move(mask), row,
                                            nulls);
}

/**
 * @brief make_strings_column from a braced list, `std::nullopt` for a null row:
 * `make_strings_column({"a", "bc", std::nullopt})` (a mask only if some row is null). Copies the
 * list into a host vector first, then stages and synchronises as the range overload does.
 * @tparam O the offset type: `std::int32_t` (Arrow utf8) or `std::int64_t` (Arrow large utf8)
 * @tparam Policy the buffer policy of the result: its `resource` gives the memory, its other
 *         members decide sharing, exposure tracking, reference counting and spilling
 * @param values the rows, first to last; `std::nullopt` is a null row stored as an empty string
 * @param stream the stream the copies run on and that is synchronised before returning
 * @throws devcol::logic_error when 32-bit offsets cannot hold the bytes; what allocation and
 * copying throw
 */
template <arrow_offset O = std::int32_t, buffer_policy Policy = default_policy, encoding E = encoding::utf8>
[[nodiscard]] basic_strings_column<O, Policy, E> make_strings_column(
    std::initializer_list<std::optional<std::string_view>> values, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  // Through a vector: clang 14 cannot form libstdc++ 12's ref_view over this initializer_list.
  return make_strings_column<O, Policy, E>(std::vector<std::optional<std::string_view>>(values), stream);
}

/**
 * @brief A binary (or, with `O = std::int64_t`, large binary) column of the byte strings of a host
 * range or braced list: make_strings_column() with `encoding::binary`, at the same cost.
 * @tparam O the offset type: `std::int32_t` (Arrow binary) or `std::int64_t` (Arrow large binary)
 * @tparam Policy the buffer policy of the result
 * @tparam Values a host range make_strings_column() takes, or a braced list with `std::nullopt` rows
 * @param values the rows, first to last
 * @param stream the stream the copies run on and that is synchronised before returning
 * @throws what make_strings_column() throws
 */
template <arrow_offset O = std::int32_t, buffer_policy Policy = default_policy,
          class Values = std::initializer_list<std::optional<std::string_view>>>
[[nodiscard]] basic_binary_column<O, Policy> make_binary_column(Values const& values, stream_ref stream = {}) {
  if constexpr (std::same_as<Values, std::initializer_list<std::optional<std::string_view>>>) {
    return make_strings_column<O, Policy, encoding::binary>(std::vector<std::optional<std::string_view>>(values), stream);
  } else {
    return make_strings_column<O, Policy, encoding::binary>(values, stream);
  }
}

/**
 * @brief A fixed-size binary column of `width`-byte rows holding the byte strings of a host range:
 * of anything a `std::string_view` is made from, or of `std::optional`s of it (an empty optional
 * is a null row, stored as `width` zero bytes; a mask only if some row is null). Stages the rows
 * in host memory and copies them in order on `stream`, which it then synchronises.
 * @tparam Policy the buffer policy of the result: its `resource` gives the memory, its other
 *         members decide sharing, exposure tracking, reference counting and spilling
 * @tparam Range a host input range of values a `std::string_view` is made from, or of
 *         `std::optional`s of them
 * @param values the rows, first to last, each exactly `width` bytes unless null
 * @param width the byte length of every row (Arrow's `byte_width`)
 * @param stream the stream the copies run on and that is synchronised before returning
 * @throws devcol::logic_error naming the row and its length when a value is not exactly `width`
 * bytes (checked before anything is allocated); what allocation and copying throw
 */
template <buffer_policy Policy = default_policy, detail::host_input_range Range>
  requires std::convertible_to<detail::host_range_value_t<Range>, std::string_view> ||
           detail::is_optional_string<detail::host_range_value_t<Range>>
[[nodiscard]] fixed_size_binary_column<Policy> make_fixed_size_binary_column(Range const& values, std::size_t width,
                                                                             stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  using buffer_type = typename fixed_size_binary_column<Policy>::buffer_type;
  // Before staging: a null row stages `width` zero bytes, which for a width past Arrow's (or a
  // negative one converted to size_t) would throw std::length_error or std::bad_alloc, or take
  // gigabytes of host memory, before the column's own check of the width could run.
  DEVCOL_EXPECTS(width <= std::size_t{INT32_MAX}, "make_fixed_size_binary_column: a width of ", width,
                 " bytes is past Arrow's (an int32: at most 2147483647)");
  std::string bytes;
  auto [valid, nulls, row] = detail::stage_string_rows(
      values,
      [&](std::size_t at, std::string_view s) {
        DEVCOL_EXPECTS(s.size() == width, "make_fixed_size_binary_column: row ", at, " has ", s.size(),
                       " bytes, not the width ", width);
        bytes.append(s);
      },
      [&](std::size_t) { bytes.append(width, '\0'); });
  buffer_type data = bytes.empty() ? buffer_type{} : detail::upload_bytes<buffer_type>(bytes.data(), bytes.size(), stream);
  buffer_type mask = nulls != 0 ? detail::upload_mask<buffer_type>(valid, row, stream) : buffer_type{};
  stream.synchronize();
  return fixed_size_binary_column<Policy>(width, std::move(data), std::move(mask), row, nulls);
}

/**
 * @brief make_fixed_size_binary_column from a braced list, `std::nullopt` for a null row. Copies
 * the list into a host vector first, then stages and synchronises as the range overload does.
 * @tparam Policy the buffer policy of the result: its `resource` gives the memory, its other
 *         members decide sharing, exposure tracking, reference counting and spilling
 * @param values the rows, first to last, each exactly `width` bytes unless `std::nullopt`
 * @param width the byte length of every row
 * @param stream the stream the copies run on and that is synchronised before returning
 * @throws devcol::logic_error naming the row and its length when a value is not `width` bytes;
 * what allocation and copying throw
 */
template <buffer_policy Policy = default_policy>
[[nodiscard]] fixed_size_binary_column<Policy> make_fixed_size_binary_column(
    std::initializer_list<std::optional<std::string_view>> values, std::size_t width, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  // Through a vector: clang 14 cannot form libstdc++ 12's ref_view over this initializer_list.
  return make_fixed_size_binary_column<Policy>(std::vector<std::optional<std::string_view>>(values), width, stream);
}

/**
 * @brief A string view (`E = encoding::utf8`) or binary view (`encoding::binary`) column holding the
 * byte strings of a host range: of anything a `std::string_view` is made from, or of
 * `std::optional`s of it (an empty optional is a null row, an empty inline view; a mask only if
 * some row is null). Rows of up to 12 bytes are held in their views; longer ones go to data buffers
 * of at most `block_bytes` bytes each (a longer row gets a buffer of its own), so a small
 * `block_bytes` gives many data buffers. Stages the views and bytes in host memory and copies them
 * in order on `stream`, which it then synchronises.
 * @tparam Policy the buffer policy of the result
 * @tparam E what the bytes are: `encoding::utf8` (string view) or `encoding::binary` (binary view)
 * @tparam Range a host input range of values a `std::string_view` is made from, or of
 *         `std::optional`s of them
 * @param values the rows, first to last
 * @param stream the stream the copies run on and that is synchronised before returning
 * @param block_bytes the most bytes a data buffer holds (Arrow C++ uses 32 KiB), at least 1
 * @throws devcol::logic_error when a row or a buffer is longer than an int32 names; what allocation
 * and copying throw
 */
template <buffer_policy Policy = default_policy, encoding E = encoding::utf8, detail::host_input_range Range>
  requires std::convertible_to<detail::host_range_value_t<Range>, std::string_view> ||
           detail::is_optional_string<detail::host_range_value_t<Range>>
[[nodiscard]] basic_binary_view_column<Policy, E> make_binary_view_column(Range const& values, stream_ref stream = {},
                                                                          std::size_t block_bytes = 32 * 1024) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  using buffer_type = typename basic_binary_view_column<Policy, E>::buffer_type;
  std::vector<binary_view_row> views;
  std::vector<std::string> blocks;
  auto [valid, nulls, row] = detail::stage_string_rows(
      values,
      [&](std::size_t at, std::string_view s) {
        DEVCOL_EXPECTS(s.size() <= INT32_MAX, "make_binary_view_column: row ", at, " has ", s.size(),
                       " bytes, more than a view's int32 length");
        binary_view_row v{};
        v.size = static_cast<std::int32_t>(s.size());
        if (v.is_inline()) {
          std::memcpy(reinterpret_cast<char*>(&v) + 4, s.data(), s.size());  // the 12 bytes from prefix on
        } else {
          std::memcpy(v.prefix, s.data(), 4);
          if (blocks.empty() || blocks.back().size() + s.size() > std::max<std::size_t>(block_bytes, 1)) {
            blocks.emplace_back();
          }
          DEVCOL_EXPECTS(blocks.back().size() <= INT32_MAX, "make_binary_view_column: a data buffer outgrows int32 offsets");
          v.buffer_index = static_cast<std::int32_t>(blocks.size() - 1);
          v.offset = static_cast<std::int32_t>(blocks.back().size());
          blocks.back().append(s);
        }
        views.push_back(v);
      },
      [&](std::size_t) { views.push_back(binary_view_row{}); });
  std::vector<buffer_type> data;
  for (auto const& b : blocks) { data.push_back(detail::upload_bytes<buffer_type>(b.data(), b.size(), stream)); }
  buffer_type view_buffer =
      views.empty() ? buffer_type{} : detail::upload_bytes<buffer_type>(views.data(), views.size() * sizeof(binary_view_row), stream);
  buffer_type mask = nulls != 0 ? detail::upload_mask<buffer_type>(valid, row, stream) : buffer_type{};
  stream.synchronize();
  return basic_binary_view_column<Policy, E>(std::move(view_buffer), std::move(data), std::move(mask), row, nulls);
}

#if DEVCOL_USE_PRECOMPILED
// make_column of each fixed-width type from host values, with and without nulls: a braced list or
// any contiguous range of the value type reaches these.
#  define DEVCOL_FACTORIES_FROM_HOST(T)                                                                   \
    DEVCOL_EXTERN_TEMPLATE column<T, default_policy> detail::column_from_host<T, default_policy, T>(      \
        std::span<T const> const&, stream_ref);                                                           \
    DEVCOL_EXTERN_TEMPLATE column<T, default_policy>                                                      \
    detail::column_from_host<T, default_policy, std::optional<T>>(std::span<std::optional<T> const> const&, \
                                                                  stream_ref);
DEVCOL_FOR_EACH_FIXED_WIDTH_TYPE(DEVCOL_FACTORIES_FROM_HOST)
#  undef DEVCOL_FACTORIES_FROM_HOST
#endif

DEVCOL_NAMESPACE_END
