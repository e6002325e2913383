/**
 * @file to_host.hpp
 * @brief Bringing a column back to the host: `to_host`, and printing.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/binary_view_column.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/decimal_column.hpp>
#include <devcol/column/fixed_size_binary_column.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/column/types.hpp>
#include <devcol/column/validity_view.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/stream_ref.hpp>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

namespace detail {
/// Words [offset / 64, ceil((offset + size) / 64)) of `mask` on the host (empty without a mask),
/// copied in order on `stream`; bit offset % 64 of the result is row 0.
inline std::vector<bitmask_word> mask_words_to_host(bitmask_word const* mask, std::size_t offset, std::size_t size,
                                                    stream_ref stream) {
  std::vector<bitmask_word> words;
  if (mask != nullptr) {
    std::size_t const first_word = offset / bits_per_word;
    words.resize(words_for(offset + size) - first_word);
    copy_bytes(words.data(), mask + first_word, words.size() * sizeof(bitmask_word), stream);
  }
  return words;
}
}  // namespace detail

/**
 * @brief The column's rows on the host, an empty optional for each null row. Copies the values and
 * the mask's words in order on `stream` and synchronises it, with the column's device current
 * (rule 21: every owner's copies run with its device current, so `stream` must be one of that
 * device; the default stream is).
 * @tparam T the column's fixed-width value type
 * @tparam Policy the column's buffer policy (any; reading never copies or exposes the buffers)
 * @param col the column to read; a slice gives only its own rows
 * @param stream the stream the copies are ordered on, synchronised before returning
 * @returns one element per row, in row order
 * @throws devcol::cuda_error if a copy fails; std::bad_alloc if the host has no room
 */
template <fixed_width T, class Policy>
[[nodiscard]] std::vector<std::optional<T>> to_host(column<T, Policy> const& col, stream_ref stream = {}) {
  scoped_device const on_device(col.data_buffer().device());
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  std::size_t const size = col.size();
  auto values = std::make_unique_for_overwrite<T[]>(size);
  copy_bytes(values.get(), col.data(access::read), size * sizeof(T), stream);
  auto const mask = detail::mask_words_to_host(col.null_mask(access::read), col.offset(), size, stream);
  stream.synchronize();
  std::vector<std::optional<T>> rows(size);
  validity_view const valid(size, mask.empty() ? nullptr : mask.data(), col.offset() % bits_per_word, 0);
  for (std::size_t i = 0; i < size; ++i) {
    if (valid.is_valid(i)) { rows[i] = values[i]; }
  }
  return rows;
}


/**
 * @brief The strings (or binary) column's rows on the host, an empty optional for each null row.
 * Copies the rows' offsets, their bytes and the mask's words in order on `stream` and synchronises
 * it twice (once to learn the bytes' range).
 * @tparam O the column's offset type, `std::int32_t` or `std::int64_t`
 * @tparam Policy the column's buffer policy (any; reading never copies or exposes the buffers)
 * @tparam E what the bytes are (binary rows come back as byte strings)
 * @param col the column to read; a slice copies only the bytes its rows span
 * @param stream a stream of the column's device that the copies are ordered on; synchronised
 * @returns one element per row, in row order; a null row is empty, not an empty string
 * @throws devcol::cuda_error if a copy fails; std::bad_alloc if the host has no room
 */
template <arrow_offset O, class Policy, encoding E>
[[nodiscard]] std::vector<std::optional<std::string>> to_host(basic_strings_column<O, Policy, E> const& col,
                                                              stream_ref stream = {}) {
  scoped_device const on_device(col.offsets_buffer().device());
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  std::size_t const size = col.size();
  std::vector<std::optional<std::string>> rows(size);
  if (size == 0) { return rows; }
  auto const [first, last] = col.chars_range(stream);
  std::vector<O> offsets(size + 1);
  copy_bytes(offsets.data(), col.offsets(access::read), offsets.size() * sizeof(O), stream);
  std::string chars(last - first, '\0');
  copy_bytes(chars.data(), col.chars(access::read) + first, chars.size(), stream);
  auto const mask = detail::mask_words_to_host(col.null_mask(access::read), col.offset(), size, stream);
  stream.synchronize();
  validity_view const valid(size, mask.empty() ? nullptr : mask.data(), col.offset() % bits_per_word, 0);
  for (std::size_t i = 0; i < size; ++i) {
    if (valid.is_valid(i)) {
      rows[i] = chars.substr(static_cast<std::size_t>(offsets[i]) - first,
                             static_cast<std::size_t>(offsets[i + 1] - offsets[i]));
    }
  }
  return rows;
}

/**
 * @brief The decimal column's unscaled values on the host, an empty optional for each null row
 * (format one with format_decimal()). Copies as to_host(column) does; synchronises `stream`.
 * @tparam Rep the unscaled integer representation (`std::int32_t`, `std::int64_t` or 128-bit)
 * @tparam Policy the column's buffer policy (any; reading never copies or exposes the buffers)
 * @param col the column to read; its precision and scale are not part of the result
 * @param stream a stream of the column's device that the copies are ordered on; synchronised
 * @returns one unscaled value per row, in row order
 * @throws devcol::cuda_error if a copy fails; std::bad_alloc if the host has no room
 */
template <decimal_rep Rep, class Policy>
[[nodiscard]] std::vector<std::optional<Rep>> to_host(decimal_column<Rep, Policy> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return to_host(col.values(), stream);
}

/**
 * @brief The fixed-size binary column's rows on the host as byte strings of width() bytes, an
 * empty optional for each null row. Copies the rows' bytes and the mask's words in order on
 * `stream` and synchronises it.
 * @tparam Policy the column's buffer policy (any; reading never copies or exposes the buffers)
 * @param col the column to read; a slice copies only its own rows' bytes
 * @param stream a stream of the column's device that the copies are ordered on; synchronised
 * @returns one element per row, in row order, each `col.width()` bytes unless null
 * @throws devcol::cuda_error if a copy fails; std::bad_alloc if the host has no room
 */
template <class Policy>
[[nodiscard]] std::vector<std::optional<std::string>> to_host(fixed_size_binary_column<Policy> const& col,
                                                              stream_ref stream = {}) {
  scoped_device const on_device(col.data_buffer().device());
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  std::size_t const size = col.size();
  std::size_t const width = col.width();
  std::vector<std::optional<std::string>> rows(size);
  if (size == 0) { return rows; }
  std::string bytes(size * width, '\0');
  if (!bytes.empty()) { copy_bytes(bytes.data(), col.data(access::read) + col.offset() * width, bytes.size(), stream); }
  auto const mask = detail::mask_words_to_host(col.null_mask(access::read), col.offset(), size, stream);
  stream.synchronize();
  validity_view const valid(size, mask.empty() ? nullptr : mask.data(), col.offset() % bits_per_word, 0);
  for (std::size_t i = 0; i < size; ++i) {
    if (valid.is_valid(i)) { rows[i] = bytes.substr(i * width, width); }
  }
  return rows;
}

/**
 * @brief The string view or binary view column's rows on the host, an empty optional for each null
 * row. Copies the rows' views, every data buffer whole and the mask's words in order on `stream`,
 * synchronises it, then reads each row on the host.
 * @tparam Policy the column's buffer policy (any; reading never copies or exposes the buffers)
 * @tparam E what the bytes are
 * @param col the column to read
 * @param stream a stream of the column's device that the copies are ordered on; synchronised
 * @returns one element per row, in row order; a null row is empty, not an empty string
 * @throws devcol::cuda_error if a copy fails; std::bad_alloc if the host has no room
 */
template <class Policy, encoding E>
[[nodiscard]] std::vector<std::optional<std::string>> to_host(basic_binary_view_column<Policy, E> const& col,
                                                              stream_ref stream = {}) {
  scoped_device const on_device(col.views_buffer().device());
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  std::size_t const size = col.size();
  std::vector<std::optional<std::string>> rows(size);
  if (size == 0) { return rows; }
  std::vector<binary_view_row> views(size);
  copy_bytes(views.data(), col.views(access::read) + col.offset(), size * sizeof(binary_view_row), stream);
  std::vector<std::string> data(col.num_data_buffers());
  for (std::size_t b = 0; b < data.size(); ++b) {
    data[b].resize(col.data_buffer(b).size());
    if (!data[b].empty()) { copy_bytes(data[b].data(), col.data_buffer(b).data(access::read), data[b].size(), stream); }
  }
  auto const mask = detail::mask_words_to_host(col.null_mask(access::read), col.offset(), size, stream);
  stream.synchronize();
  validity_view const valid(size, mask.empty() ? nullptr : mask.data(), col.offset() % bits_per_word, 0);
  for (std::size_t i = 0; i < size; ++i) {
    if (!valid.is_valid(i)) { continue; }
    auto const& v = views[i];
    auto const n = static_cast<std::size_t>(v.size);
    rows[i] = v.is_inline() ? std::string(v.inline_data(), n)
                            : data[static_cast<std::size_t>(v.buffer_index)].substr(static_cast<std::size_t>(v.offset), n);
  }
  return rows;
}

/**
 * @brief The decimal text of an unscaled value at `scale`: "-12.34" for (-1234, 2), "0.05" for
 * (5, 2), "1200" for (12, -2), as pyarrow prints decimals (without an exponent). Host only.
 * @tparam Rep the unscaled integer representation (`std::int32_t`, `std::int64_t`, 128- or
 *         256-bit); its most negative value is formatted too
 * @param value the unscaled value
 * @param scale digits after the decimal point; a negative scale appends `-scale` zeros
 * @throws std::bad_alloc if the string cannot grow
 */
template <decimal_rep Rep>
[[nodiscard]] std::string format_decimal(Rep value, int scale) {
  bool const negative = value < 0;
  // Digits of |value|, least significant first; one digit at a time so INT128_MIN needs no negation.
  std::string digits;
  do {
    int const d = static_cast<int>(value % 10);
    digits.push_back(static_cast<char>('0' + (d < 0 ? -d : d)));
    value /= 10;
  } while (value != 0);
  std::string out(digits.rbegin(), digits.rend());
  if (scale < 0) {
    if (out != "0") { out.append(static_cast<std::size_t>(-static_cast<long long>(scale)), '0'); }
  } else if (scale > 0) {
    auto const s = static_cast<std::size_t>(scale);
    if (out.size() <= s) { out.insert(0, s + 1 - out.size(), '0'); }
    out.insert(out.size() - s, 1, '.');
  }
  return negative ? "-" + out : out;
}

namespace detail {
template <class T>
void print_value(std::ostream& out, T const& v) {
  if constexpr (std::is_same_v<T, int128_t> || std::is_same_v<T, int256_t>) {
    out << format_decimal(v, 0);  // iostreams have no 128- or 256-bit integers
  } else if constexpr (std::is_same_v<T, float16>) {
    out << to_float(v);
  } else if constexpr (std::is_same_v<T, interval_months>) {
    out << v.months << 'M';  // pyarrow's MonthDayNano spelling, shortened: 14M, 3d120ms, 1M2d3ns
  } else if constexpr (std::is_same_v<T, interval_day_time>) {
    out << v.days << 'd' << v.milliseconds << "ms";
  } else if constexpr (std::is_same_v<T, interval_month_day_nano>) {
    out << v.months << 'M' << v.days << 'd' << v.nanoseconds << "ns";
  } else if constexpr (requires { v.time_since_epoch(); }) {
    out << v.time_since_epoch().count();
  } else if constexpr (requires { v.count(); }) {
    out << v.count();
  } else if constexpr (sizeof(T) == 1 && !std::is_same_v<T, bool>) {
    out << static_cast<int>(v);  // int8/uint8 print as numbers, not characters
  } else if constexpr (std::is_same_v<T, bool>) {
    out << (v ? "true" : "false");
  } else {
    out << v;
  }
}
}  // namespace detail

namespace detail {
/// Prints `prefix[row, row, …]`: the first 20 rows of `col` (copied to the host on the default
/// stream, which is synchronised), each valid one through `print_row`, then the row count if more.
template <class C, class PrintRow>
std::ostream& print_head(std::ostream& out, std::string_view prefix, C const& col, PrintRow print_row) {
  detail::operation_spill_lock<typename C::policy> const spill_scope;  // copied and synchronised on the host
  constexpr std::size_t shown = 20;
  auto const head = to_host(col.slice(0, std::min(col.size(), shown)));
  out << prefix << '[';
  for (std::size_t i = 0; i < head.size(); ++i) {
    if (i != 0) { out << ", "; }
    if (head[i]) {
      print_row(*head[i]);
    } else {
      out << "null";
    }
  }
  if (col.size() > shown) { out << ", ... (" << col.size() << " rows)"; }
  return out << ']';
}

/// Writes `bytes` as "0x" and two hex digits a byte: how binary rows print.
inline void print_hex(std::ostream& out, std::string_view bytes) {
  constexpr char hex[] = "0123456789abcdef";
  out << "0x";
  for (char c : bytes) {
    auto const b = static_cast<unsigned char>(c);
    out << hex[b >> 4] << hex[b & 0xF];
  }
}
}  // namespace detail

/**
 * @brief Prints `column<int64>[1, 2, null, 4]`, the first 20 rows then `…` and the row count.
 * Copies the column to the host on the default stream and synchronises it.
 * @tparam T the column's fixed-width value type; its name comes from `type_name_v<T>`
 * @tparam Policy the column's buffer policy (any; reading never copies or exposes the buffers)
 * @param out the stream written to; its formatting flags apply to the numbers
 * @param col the column to print
 * @returns `out`
 * @throws what to_host() throws, and what `out` throws if its exceptions are enabled
 */
template <fixed_width T, class Policy>
std::ostream& operator<<(std::ostream& out, column<T, Policy> const& col) {
  return detail::print_head(out, "column<" + std::string(type_name_v<T>) + ">", col,
                            [&](T const& v) { detail::print_value(out, v); });
}

/**
 * @brief Prints `strings["a", "bc", null]` (binary: `binary[0x6162, null]`, bytes in hex), the
 * first 20 rows then `…` and the row count. Copies to the host on the default stream and
 * synchronises it.
 * @tparam O the column's offset type; `std::int64_t` prints as `large_strings` / `large_binary`
 * @tparam Policy the column's buffer policy (any; reading never copies or exposes the buffers)
 * @tparam E what the bytes are: text goes out unescaped in quotes, binary in hex
 * @param out the stream written to
 * @param col the column to print
 * @returns `out`
 * @throws what to_host() throws, and what `out` throws if its exceptions are enabled
 */
template <arrow_offset O, class Policy, encoding E>
std::ostream& operator<<(std::ostream& out, basic_strings_column<O, Policy, E> const& col) {
  if constexpr (E == encoding::binary) {
    return detail::print_head(out, strings_type_name_v<O, E>, col,
                              [&](std::string const& v) { detail::print_hex(out, v); });
  } else {
    return detail::print_head(out, sizeof(O) == 4 ? "strings" : "large_strings", col,
                              [&](std::string const& v) { out << '"' << v << '"'; });
  }
}

/**
 * @brief Prints `decimal128(38, 2)[-12.34, null, 0.05]`, the first 20 rows then `…` and the row
 * count. Copies to the host on the default stream and synchronises it.
 * @tparam Rep the unscaled integer representation (`std::int32_t`, `std::int64_t` or 128-bit)
 * @tparam Policy the column's buffer policy (any; reading never copies or exposes the buffers)
 * @param out the stream written to
 * @param col the column to print, each row formatted at its scale by format_decimal()
 * @returns `out`
 * @throws what to_host() throws, and what `out` throws if its exceptions are enabled
 */
template <decimal_rep Rep, class Policy>
std::ostream& operator<<(std::ostream& out, decimal_column<Rep, Policy> const& col) {
  return detail::print_head(out, col.type_name(), col, [&](Rep v) { out << format_decimal(v, col.scale()); });
}

/**
 * @brief Prints `fixed_size_binary[2][0x6162, null]` (each row's bytes in hex), the first 20 rows
 * then `…` and the row count. Copies to the host on the default stream and synchronises it.
 * @tparam Policy the column's buffer policy (any; reading never copies or exposes the buffers)
 * @param out the stream written to
 * @param col the column to print
 * @returns `out`
 * @throws what to_host() throws, and what `out` throws if its exceptions are enabled
 */
template <class Policy>
std::ostream& operator<<(std::ostream& out, fixed_size_binary_column<Policy> const& col) {
  return detail::print_head(out, col.type_name(), col, [&](std::string const& v) { detail::print_hex(out, v); });
}

/**
 * @brief Prints `string_view["a", null]` (binary view: `binary_view[0x6162, null]`, bytes in hex),
 * the first 20 rows then `…` and the row count. Copies to the host on the default stream and
 * synchronises it.
 * @tparam Policy the column's buffer policy (any; reading never copies or exposes the buffers)
 * @tparam E what the bytes are: text goes out unescaped in quotes, binary in hex
 * @param out the stream written to
 * @param col the column to print
 * @returns `out`
 * @throws what to_host() throws, and what `out` throws if its exceptions are enabled
 */
template <class Policy, encoding E>
std::ostream& operator<<(std::ostream& out, basic_binary_view_column<Policy, E> const& col) {
  if constexpr (E == encoding::binary) {
    return detail::print_head(out, col.type_name(), col, [&](std::string const& v) { detail::print_hex(out, v); });
  } else {
    return detail::print_head(out, col.type_name(), col, [&](std::string const& v) { out << '"' << v << '"'; });
  }
}

DEVCOL_NAMESPACE_END
