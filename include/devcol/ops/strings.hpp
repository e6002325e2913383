/**
 * @file strings.hpp
 * @brief The ops only strings and binary columns have: `length` (in bytes) and `hash` (xxHash64);
 * string view and binary view columns have `length`.
 * The ops they share with other kinds (gather, filter, concatenate, compare, sort, is_null, fill_null...) are in the
 * header named after the op (devcol/ops/gather.hpp...).
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/binary_view_column.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/detail/rows.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/strings_rows.hpp>

#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>

#include <cstddef>
#include <cstdint>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Row `i`'s length in bytes, read from its view (0 for a null row).
struct view_length {
  binary_view_column_view view;
  DEVCOL_HOST_DEVICE std::int32_t operator()(std::size_t i) const noexcept {
    return view.is_valid(i) ? view.row(i).size : 0;
  }
};

/// xxHash64 (Yann Collet's specification, as cuDF's `xxhash_64`), byte by byte loads so that any
/// alignment is fine on the device.
struct xxhash64 {
  static constexpr std::uint64_t p1 = 11400714785074694791ULL;
  static constexpr std::uint64_t p2 = 14029467366897019727ULL;
  static constexpr std::uint64_t p3 = 1609587929392839161ULL;
  static constexpr std::uint64_t p4 = 9650029242287828579ULL;
  static constexpr std::uint64_t p5 = 2870177450012600261ULL;

  DEVCOL_HOST_DEVICE static constexpr std::uint64_t rotl(std::uint64_t x, int r) noexcept { return (x << r) | (x >> (64 - r)); }
  DEVCOL_HOST_DEVICE static constexpr std::uint64_t load(unsigned char const* p, int bytes) noexcept {
    std::uint64_t v = 0;
    for (int b = 0; b < bytes; ++b) { v |= static_cast<std::uint64_t>(p[b]) << (8 * b); }  // little-endian
    return v;
  }
  DEVCOL_HOST_DEVICE static constexpr std::uint64_t round(std::uint64_t acc, std::uint64_t input) noexcept {
    return rotl(acc + input * p2, 31) * p1;
  }
  DEVCOL_HOST_DEVICE static constexpr std::uint64_t merge(std::uint64_t acc, std::uint64_t v) noexcept {
    return (acc ^ round(0, v)) * p1 + p4;
  }

  std::uint64_t seed = 0;

  /// The hash of `size` bytes at `data`.
  DEVCOL_HOST_DEVICE std::uint64_t operator()(char const* data, std::size_t size) const noexcept {
    auto const* p = reinterpret_cast<unsigned char const*>(data);
    auto const* const end = p + size;
    std::uint64_t h = 0;
    if (size >= 32) {
      std::uint64_t v[4] = {seed + p1 + p2, seed + p2, seed, seed - p1};
      for (; end - p >= 32; p += 32) {
        for (int k = 0; k < 4; ++k) { v[k] = round(v[k], load(p + 8 * k, 8)); }
      }
      h = rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18);
      for (auto const lane : v) { h = merge(h, lane); }
    } else {
      h = seed + p5;
    }
    h += static_cast<std::uint64_t>(size);
    for (; end - p >= 8; p += 8) { h = rotl(h ^ round(0, load(p, 8)), 27) * p1 + p4; }
    if (end - p >= 4) {
      h = rotl(h ^ (load(p, 4) * p1), 23) * p2 + p3;
      p += 4;
    }
    for (; p != end; ++p) { h = rotl(h ^ (static_cast<std::uint64_t>(*p) * p5), 11) * p1; }
    h ^= h >> 33;
    h *= p2;
    h ^= h >> 29;
    h *= p3;
    h ^= h >> 32;
    return h;
  }
};

/// Row `i`'s xxHash64 (unspecified for a null row: the result is null there).
template <class O>
struct string_hash {
  strings_column_view<O> view;
  xxhash64 hash;
  DEVCOL_HOST_DEVICE std::uint64_t operator()(std::size_t i) const noexcept {
    return view.is_valid(i) ? hash(view.chars() + view.offsets()[i], view.length(i)) : 0;
  }
};

}  // namespace detail

/**
 * @brief Each row's length in bytes (not characters), in the offset type as Arrow's
 * `binary_length` gives it (`column<int32_t>` for `strings_column`, `column<int64_t>` for
 * `large_strings_column`, so no length wraps), from `col`'s resource, null where `col` is null
 * (a null row's value is its offsets' difference, which devcol's own null rows make 0). One pass
 * over the offsets, the mask bits copied (no recount); in order on `stream`, no synchronisation.
 * @tparam O the offset type: `std::int32_t` (strings, list) or `std::int64_t` (large_strings, large_list)
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam E what the bytes are (utf8 or binary: lengths are in bytes either way)
 * @param col the input column
 * @param stream the stream the work is ordered on
 */
template <arrow_offset O, class Policy, encoding E>
[[nodiscard]] column<O, Policy> length(basic_strings_column<O, Policy, E> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  // Every row's offsets difference, null rows' too (their values are masked): a streaming pass
  // with no read of the mask per row, as Arrow's binary_length does.
  column<O, Policy> out(col.size(), stream, mask_state::unallocated, col.resource());
  if (col.size() != 0) {
    O const* offsets = col.view().offsets();
    detail::executor exec(stream);
    detail::transform_n(exec, offsets + 1, offsets, col.size(), out.data(access::write, stream),
                        ::cuda::std::minus<O>{});
  }
  if (col.has_nulls()) {
    out.replace_null_mask(detail::copy_mask_bits(col.mask_buffer(), col.offset(), col.offset() + col.size(), stream),
                          col.null_count());
  }
  return out;
}

/**
 * @brief Each row's length in bytes of a string view or binary view column, as Arrow's
 * `binary_length` gives it (`column<int32_t>`), from `col`'s resource, null where `col` is null:
 * one pass over the views (no data buffer is read), the mask bits copied (no recount); in order on
 * `stream`, no synchronisation.
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam E what the bytes are (utf8 or binary: lengths are in bytes either way)
 * @param col the input column
 * @param stream the stream the work is ordered on
 */
template <class Policy, encoding E>
[[nodiscard]] column<std::int32_t, Policy> length(basic_binary_view_column<Policy, E> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  column<std::int32_t, Policy> out(col.size(), stream, mask_state::unallocated, col.resource());
  detail::executor exec(stream);
  detail::tabulate(exec, col.size(), out.data(access::write, stream), detail::view_length{col.view()});
  if (col.has_nulls()) {
    out.replace_null_mask(detail::copy_mask_bits(col.mask_buffer(), col.offset(), col.offset() + col.size(), stream),
                          col.null_count());
  }
  return out;
}

/**
 * @brief Each row's xxHash64 (the 64-bit hash cuDF's `hashing::xxhash_64` computes, and the
 * reference `XXH64`) of its bytes with `seed`, as a `column<uint64_t>` from `col`'s resource, null
 * where `col` is null (equal bytes, equal hashes; nulls are not hashed, where cuDF's result has no
 * nulls and gives a null row a fixed value). One pass over the bytes, the mask bits copied; in
 * order on `stream`, no synchronisation.
 * @tparam O the offset type: `std::int32_t` (strings, list) or `std::int64_t` (large_strings, large_list)
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam E what the bytes are (utf8 or binary: the same bytes hash alike)
 * @param col the input column
 * @param seed the hash seed
 * @param stream the stream the work is ordered on
 */
template <arrow_offset O, class Policy, encoding E>
[[nodiscard]] column<std::uint64_t, Policy> hash(basic_strings_column<O, Policy, E> const& col, std::uint64_t seed = 0,
                                                 stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return detail::rows_to<std::uint64_t>(col, detail::string_hash<O>{col.view(), {seed}}, true, stream);
}

DEVCOL_NAMESPACE_END
