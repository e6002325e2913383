/**
 * @file strings.hpp
 * @brief sort, argsort and is_sorted of strings columns, in the order compare() of strings uses
 * (bytewise, bytes as unsigned, a prefix first). Users include devcol/ops/sort.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/gather/strings.hpp>
#include <devcol/ops/detail/sort/fixed_width.hpp>
#include <devcol/ops/detail/strings_rows.hpp>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/logical.h>
#include <thrust/sort.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Orders row numbers by their strings (the valid rows': nulls are partitioned out first).
template <class O>
struct string_rows_less {
  strings_column_view<O> view;
  bool descending;
  DEVCOL_HOST_DEVICE bool operator()(std::int64_t x, std::int64_t y) const {
    auto const a = view[static_cast<std::size_t>(x)];
    auto const b = view[static_cast<std::size_t>(y)];
    return descending ? b < a : a < b;
  }
};

#if DEVCOL_HOST_FAST_PATHS
/**
 * The radix key of a string row: its first 7 bytes, big-endian (so that bytes compare as unsigned,
 * as compare() of strings does), a shorter row padded with zero bytes, then its length capped at 8.
 * Keys order as the rows do, and two rows of at most 7 bytes have equal keys only when they are
 * equal: a row of up to 7 bytes whose first bytes tie with another's is a prefix of it (the bytes
 * past its end read as zeros, and the other's are zeros there), and so the shorter, as the length
 * byte says. Rows of 8 bytes or more that share their first 7 tie on the key (length byte 8) and
 * are ordered by comparing them whole (host_argsort_strings()).
 */
template <class O>
[[nodiscard, gnu::always_inline]] inline std::uint64_t string_prefix_key(strings_column_view<O> const& view,
                                                                          std::size_t row,
                                                                          std::size_t readable) noexcept {
  constexpr std::size_t prefix = 7;
  auto const begin = static_cast<std::size_t>(view.offsets()[row]);
  std::size_t const length = view.length(row);
  std::uint64_t bytes = 0;  // the row's first bytes as read from memory (little-endian: byte 0 lowest)
  if (begin + 8 <= readable) {
    std::memcpy(&bytes, view.chars() + begin, 8);
  } else if (length != 0) {  // an empty column's characters may have no address at all
    std::memcpy(&bytes, view.chars() + begin, std::min<std::size_t>(length, 8));
  }
  std::size_t const kept = std::min(length, prefix);
  std::uint64_t const ordered = __builtin_bswap64(bytes) & ~(~std::uint64_t{0} >> (8 * kept));  // 0 for kept 0
  return ordered | std::min<std::size_t>(length, 8);
}

/// argsort's rows for strings (host::radix_sort_rows): (prefix key, row number) records; the last
/// pass writes each row's number and its key, which host_argsort_strings() reads to find the rows
/// whose keys tie.
template <class O, class Row>
struct string_prefix_rows {
  using key_type = std::uint64_t;
  using record = host::keyed_row<key_type, Row>;
  strings_column_view<O> view;
  std::size_t readable;  // bytes of view.chars() that may be read
  std::int64_t* out;
  std::uint64_t* keys;
  [[nodiscard, gnu::always_inline]] static bool unordered(std::size_t) noexcept { return false; }
  [[nodiscard, gnu::always_inline]] key_type key_of(std::size_t i) const noexcept {
    return string_prefix_key(view, i, readable);
  }
  [[nodiscard, gnu::always_inline]] static record make(std::size_t i, key_type key) noexcept {
    return {key, static_cast<Row>(i)};
  }
  [[nodiscard, gnu::always_inline]] static key_type key(record const& r) noexcept { return r.key; }
  [[gnu::always_inline]] void put(std::size_t at, record const& r) const noexcept {
    out[at] = static_cast<std::int64_t>(r.row);
    keys[at] = r.key;
  }
  [[gnu::always_inline]] void put_row(std::size_t at, std::size_t i) const noexcept {
    out[at] = static_cast<std::int64_t>(i);
  }
  [[gnu::always_inline]] void put_null(std::size_t at, std::size_t i) const noexcept { put_row(at, i); }
  [[nodiscard]] static record* records_at(std::size_t) noexcept { return nullptr; }
};

/**
 * argsort() of strings on the host fast path: the host radix sort of (string_prefix_key, row
 * number) records, then each run of rows whose keys tie with a length byte of 8 (rows of 8 bytes
 * or more sharing their first 7) stable-sorted by comparing the rows whole. Scratch from `col`'s
 * resource: the keys (8 bytes a row) and the radix sort's (up to two arrays of 12-byte records a
 * valid row). A comparison sort reads two random rows per comparison, n log n times; this reads
 * each row's first bytes once, in row order (2^20 random rows of 0-32 bytes, one thread: see
 * bench/RESULTS.md).
 */
template <class O, class Policy, encoding E>
[[nodiscard]] column<std::int64_t, Policy> host_argsort_strings(basic_strings_column<O, Policy, E> const& col,
                                                                order direction, null_order nulls,
                                                                stream_ref stream) {
  std::size_t const n = col.size();
  auto const view = col.view();
  column<std::int64_t, Policy> indices(n, stream, mask_state::unallocated, col.resource());
  std::int64_t* const out = indices.data(access::write, stream);
  buffer<Policy> keys(n * sizeof(std::uint64_t), stream, mr::default_alignment, col.resource());
  auto* const sorted_keys = static_cast<std::uint64_t*>(keys.data(access::write, stream));
  std::size_t const readable = n == 0 ? 0 : static_cast<std::size_t>(view.offsets()[n]);
  bool const descending = direction == order::descending;
  std::vector<buffer<Policy>> scratch;
  auto const sort_with = [&]<class Row>(Row) {
    using rows = string_prefix_rows<O, Row>;
    host::radix_sort_rows(rows{view, readable, out, sorted_keys}, n, col.has_nulls() ? view.null_mask() : nullptr,
                          view.mask_offset(), descending, nulls == null_order::first, [&](std::size_t count) {
                            scratch.emplace_back(count * sizeof(typename rows::record), stream, mr::default_alignment,
                                                 col.resource());
                            return static_cast<typename rows::record*>(scratch.back().data(access::write, stream));
                          });
  };
  if (n < host::radix_wide_rows_from().load(std::memory_order_relaxed)) {
    sort_with(std::uint32_t{});
  } else {
    sort_with(std::uint64_t{});
  }
  scratch.clear();
  std::size_t const valid = n - col.null_count();
  std::size_t const first = nulls == null_order::first ? n - valid : 0;
  string_rows_less<O> const less{view, descending};
  for (std::size_t a = first; a < first + valid;) {
    std::size_t b = a + 1;
    while (b < first + valid && sorted_keys[b] == sorted_keys[a]) { ++b; }
    if (b - a > 1 && (sorted_keys[a] & 0xFFU) == 8) { std::stable_sort(out + a, out + b, less); }
    a = b;
  }
  return indices;
}
#endif

}  // namespace detail

/**
 * @brief The row numbers that put `col` in order (Arrow's `sort_indices`), stable: equal strings
 * keep their order; nulls first or last, in their original order. On the host backend, a radix
 * sort of a key of each row's first bytes, and a comparison of whole rows only among rows of 8
 * bytes or more that tie on it (scratch: 8 bytes and two 12-byte records a row); on CUDA, a merge
 * sort of the row numbers comparing strings in place, the null rows' numbers placed first or last
 * by two compactions before it. No synchronisation on CUDA. The result, and the scratch, come
 * from `col`'s resource.
 * @tparam O the offset type: `std::int32_t` (strings, list) or `std::int64_t` (large_strings, large_list)
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam E what the bytes are (utf8 or binary: the same op, the result of the input's type)
 * @param col the input column
 * @param direction ascending or descending
 * @param stream the stream the work is ordered on
 * @param nulls whether null rows go first or last
 */
template <arrow_offset O, class Policy, encoding E>
[[nodiscard]] column<std::int64_t, Policy> argsort(basic_strings_column<O, Policy, E> const& col,
                                                   order direction = order::ascending, stream_ref stream = {},
                                                   null_order nulls = null_order::last) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::expect_sort_order(direction, nulls, "argsort");
#if DEVCOL_HOST_FAST_PATHS
  return detail::host_argsort_strings(col, direction, nulls, stream);
#else
  std::size_t const n = col.size();
  column<std::int64_t, Policy> indices(n, stream, mask_state::unallocated, col.resource());
  detail::executor exec(stream);
  std::int64_t* const valid_first =
      detail::row_numbers_nulls_placed(exec, indices.data(access::write, stream), col.view(), nulls);
  std::size_t const valid = n - col.null_count();
  thrust::stable_sort(exec.policy(), valid_first, valid_first + valid,
                      detail::string_rows_less<O>{col.view(), direction == order::descending});
  return indices;
#endif
}

/**
 * @brief `col` in order, stable, nulls first or last: argsort() then a gather of the rows (see
 * gather(): its scan's total is read back, which synchronises `stream`; with nulls, the mask is
 * built and counted). A new column from `col`'s resource.
 * @tparam O the offset type: `std::int32_t` (strings, list) or `std::int64_t` (large_strings, large_list)
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam E what the bytes are (utf8 or binary: the same op, the result of the input's type)
 * @param col the input column
 * @param direction ascending or descending
 * @param stream the stream the work is ordered on
 * @param nulls whether null rows go first or last
 */
template <arrow_offset O, class Policy, encoding E>
[[nodiscard]] basic_strings_column<O, Policy, E> sort(basic_strings_column<O, Policy, E> const& col,
                                                   order direction = order::ascending, stream_ref stream = {},
                                                   null_order nulls = null_order::last) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::expect_sort_order(direction, nulls, "sort");
  auto const indices = devcol::argsort(col, direction, stream, nulls);
  return detail::gather_strings(col, detail::index_rows<std::int64_t>{indices.view(), col.size()}, col.size(),
                                col.has_nulls(), "sort", stream);
}

/// @brief Whether `col` is in order, nulls placed as asked: one pass over adjacent pairs. Synchronises `stream`.
/// @tparam O the offset type: `std::int32_t` (strings, list) or `std::int64_t` (large_strings, large_list)
/// @tparam Policy the buffer policy of the input and of the result
/// @tparam E what the bytes are (utf8 or binary: the same op, the result of the input's type)
/// @param col the input column
/// @param direction ascending or descending
/// @param stream the stream the work is ordered on
/// @param nulls whether null rows go first or last
template <arrow_offset O, class Policy, encoding E>
[[nodiscard]] bool is_sorted(basic_strings_column<O, Policy, E> const& col, order direction = order::ascending,
                             stream_ref stream = {}, null_order nulls = null_order::last) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::expect_sort_order(direction, nulls, "is_sorted");
  if (col.size() < 2) { return true; }
  detail::executor exec(stream);
  bool const sorted = thrust::all_of(exec.policy(), thrust::counting_iterator<std::size_t>(1),
                                     thrust::counting_iterator<std::size_t>(col.size()),
                                     detail::in_order<strings_column_view<O>>{col.view(), direction == order::descending,
                                                                              nulls == null_order::first});
  detail::read_back(exec);
  return sorted;
}

DEVCOL_NAMESPACE_END
