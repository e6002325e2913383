/**
 * @file to_host.hpp
 * @brief Bringing a column back to the host: `to_host`, and printing.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <ostream>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

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
  std::vector<bitmask_word> mask;
  std::size_t const first_word = col.offset() / bits_per_word;
  if (col.nullable()) {
    std::size_t const last_word = (col.offset() + size + bits_per_word - 1) / bits_per_word;
    mask.resize(last_word - first_word);
    copy_bytes(mask.data(), col.null_mask(access::read) + first_word, mask.size() * sizeof(bitmask_word), stream);
  }
  stream.synchronize();
  std::vector<std::optional<T>> rows(size);
  std::size_t const bit0 = col.offset() % bits_per_word;
  for (std::size_t i = 0; i < size; ++i) {
    if (mask.empty() || bit_is_set(mask.data(), bit0 + i)) { rows[i] = values[i]; }
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

DEVCOL_NAMESPACE_END
