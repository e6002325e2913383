/**
 * @file to_host.hpp
 * @brief Bringing a column back to the host: `to_host`, and printing.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
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
 * the mask's words in order on `stream` and synchronises it.
 * @throws devcol::cuda_error if a copy fails; std::bad_alloc if the host has no room
 */
template <fixed_width T, class Policy>
[[nodiscard]] std::vector<std::optional<T>> to_host(column<T, Policy> const& col, stream_ref stream = {}) {
  std::size_t const size = col.size();
  auto values = std::make_unique_for_overwrite<T[]>(size);
  copy_bytes(values.get(), col.data(access::read), size * sizeof(T), stream);
  auto const mask = detail::mask_words_to_host(col.null_mask(access::read), col.offset(), size, stream);
  stream.synchronize();
  std::vector<std::optional<T>> rows(size);
  std::size_t const bit0 = col.offset() % bits_per_word;
  for (std::size_t i = 0; i < size; ++i) {
    if (mask.empty() || bit_is_set(mask.data(), bit0 + i)) { rows[i] = values[i]; }
  }
  return rows;
}


/**
 * @brief The strings column's rows on the host, an empty optional for each null row. Copies the
 * rows' offsets, their bytes and the mask's words in order on `stream` and synchronises it twice
 * (once to learn the bytes' range).
 * @throws devcol::cuda_error if a copy fails; std::bad_alloc if the host has no room
 */
template <arrow_offset O, class Policy>
[[nodiscard]] std::vector<std::optional<std::string>> to_host(basic_strings_column<O, Policy> const& col,
                                                              stream_ref stream = {}) {
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
  std::size_t const bit0 = col.offset() % bits_per_word;
  for (std::size_t i = 0; i < size; ++i) {
    if (mask.empty() || bit_is_set(mask.data(), bit0 + i)) {
      rows[i] = chars.substr(static_cast<std::size_t>(offsets[i]) - first,
                             static_cast<std::size_t>(offsets[i + 1] - offsets[i]));
    }
  }
  return rows;
}

namespace detail {
template <class T>
void print_value(std::ostream& out, T const& v) {
  if constexpr (requires { v.time_since_epoch(); }) {
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

/**
 * @brief Prints `column<int64>[1, 2, null, 4]`, the first 20 rows then `…` and the row count.
 * Copies the column to the host on the default stream and synchronises it.
 */
template <fixed_width T, class Policy>
std::ostream& operator<<(std::ostream& out, column<T, Policy> const& col) {
  constexpr std::size_t shown = 20;
  auto const head = to_host(col.slice(0, std::min(col.size(), shown)));
  out << "column<" << type_name_v<T> << ">[";
  for (std::size_t i = 0; i < head.size(); ++i) {
    if (i != 0) { out << ", "; }
    if (head[i]) {
      detail::print_value(out, *head[i]);
    } else {
      out << "null";
    }
  }
  if (col.size() > shown) { out << ", ... (" << col.size() << " rows)"; }
  return out << ']';
}

/**
 * @brief Prints `strings["a", "bc", null]`, the first 20 rows then `…` and the row count. Copies
 * to the host on the default stream and synchronises it.
 */
template <arrow_offset O, class Policy>
std::ostream& operator<<(std::ostream& out, basic_strings_column<O, Policy> const& col) {
  constexpr std::size_t shown = 20;
  auto const head = to_host(col.slice(0, std::min(col.size(), shown)));
  out << (sizeof(O) == 4 ? "strings[" : "large_strings[");
  for (std::size_t i = 0; i < head.size(); ++i) {
    if (i != 0) { out << ", "; }
    if (head[i]) {
      out << '"' << *head[i] << '"';
    } else {
      out << "null";
    }
  }
  if (col.size() > shown) { out << ", ... (" << col.size() << " rows)"; }
  return out << ']';
}

DEVCOL_NAMESPACE_END
