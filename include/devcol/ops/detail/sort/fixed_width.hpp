/**
 * @file fixed_width.hpp
 * @brief sort, argsort and is_sorted of fixed-width columns, and what every kind's sort shares:
 * `order`, `null_order`, the pairwise order test (`in_order`) and the placing of null rows
 * (`row_numbers_nulls_placed`). Floating point as devcol/ops/sort.hpp says. Users include
 * devcol/ops/sort.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/column_view.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/detail/width_word.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/floating_point.hpp>
#include <devcol/ops/detail/validity.hpp>
#include <devcol/ops/detail/gather/fixed_width.hpp>
#include <devcol/ops/detail/host/radix_sort.hpp>

#include <thrust/binary_search.h>
#include <cuda/std/functional>
#include <thrust/gather.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/logical.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>

#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

/// @brief Sort direction.
enum class order { ascending, descending };
/// @brief Where nulls go.
enum class null_order { last, first };

namespace detail {

/// Throws devcol::logic_error, naming `op` and the value, unless `direction` and `nulls` are
/// enumerators of their enumerations.
template <int = 0>
void expect_sort_order(order direction, null_order nulls, char const* op) {
  DEVCOL_EXPECTS_ENUMERATOR(direction, order::descending, op, "order");
  DEVCOL_EXPECTS_ENUMERATOR(nulls, null_order::first, op, "null_order");
}

/// Whether rows i-1 and i are in order, nulls placed as asked (a view with is_valid, [] and <:
/// a column_view, a strings_column_view). Rows fall in groups from the middle out: numbers (every
/// valid row that is not NaN), NaN, nulls; the groups are ordered by `nulls_first`, the numbers
/// within theirs by `descending`.
template <class View>
struct in_order {
  View view;
  bool descending;
  bool nulls_first;
  /// 0 for a number, 1 for NaN, 2 for null.
  DEVCOL_HOST_DEVICE int group(std::size_t i) const noexcept {
    if (!view.is_valid(i)) { return 2; }
    return is_nan(view[i]) ? 1 : 0;
  }
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept {
    int const a = group(i - 1);
    int const b = group(i);
    if (a != b) { return nulls_first ? b < a : a < b; }
    if (a != 0) { return true; }
    return descending ? !(view[i - 1] < view[i]) : !(view[i] < view[i - 1]);
  }
};

/// `a < b` (or `a > b` when `descending`) as a functor Thrust does not recognise, so it merge-sorts.
template <class T>
struct compare_keys {
  bool descending;
  DEVCOL_HOST_DEVICE bool operator()(T const& a, T const& b) const noexcept { return descending ? b < a : a < b; }
};
/**
 * Whether `T` keys must not go to Thrust's radix sort, which it picks for cuda::std::less/greater of
 * arithmetic keys: its host systems (serial, OpenMP) have no 16-byte radix sort, which `int128_t`
 * keys (arithmetic under gnu++) would ask for, and their 32-bit signed encoder is wrong (CCCL 3.0:
 * `RadixEncoder<int>` widens to `long` before flipping bit 31, so negative and positive keys come
 * out interleaved). CUDA's radix sort (CUB's) is right for both widths it sorts.
 */
template <class T>
inline constexpr bool merge_sort_keys =
    std::is_same_v<T, int128_t> || (DEVCOL_BACKEND_HOST && std::is_same_v<T, std::int32_t>);
/**
 * Whether `T` keys are radix-sorted (arithmetic, not merge_sort_keys) and so sorted ascending only,
 * a descending sort flipping every key's bits first (directed_key): on CUDA each direction of CUB's
 * radix sort is three kernels of its own, which a call that takes the direction at run time would
 * compile both of. Other keys merge-sort with compare_keys, which takes the direction at run time.
 */
template <class T>
inline constexpr bool flips_for_descending = std::is_arithmetic_v<T> && !merge_sort_keys<T>;

/// A key of a sort in some direction as the key of an ascending sort: for flips_for_descending
/// keys of a descending sort, every bit flipped (which reverses the order of signed and unsigned
/// integers alike, so a stable ascending sort of flipped keys is a stable descending sort); else
/// the key itself. Its own inverse.
template <class K>
struct directed_key {
  bool flip;
  DEVCOL_HOST_DEVICE K operator()(K k) const noexcept {
    if constexpr (std::is_same_v<K, bool>) {
      return flip != k;
    } else if constexpr (flips_for_descending<K>) {
      return flip ? static_cast<K>(~k) : k;
    } else {
      return k;
    }
  }
};
/// The directed_key of `K` keys sorted in `direction`.
template <class K>
directed_key<K> key_direction(order direction) noexcept {
  return {flips_for_descending<K> && direction == order::descending};
}
/// The comparator that sorts `K` keys made by key_direction<K>(direction): Thrust's less (its radix
/// sort), or compare_keys in `direction`.
template <class K>
auto key_comparator(order direction) noexcept {
  if constexpr (flips_for_descending<K>) {
    return cuda::std::less<K>{};
  } else {
    return compare_keys<K>{direction == order::descending};
  }
}
/// `then(first(x))`: a key made from a value and directed, or a key undirected and decoded.
template <class First, class Then>
struct composed {
  First first;
  Then then;
  template <class X>
  DEVCOL_HOST_DEVICE auto operator()(X const& x) const noexcept {
    return then(first(x));
  }
};

/**
 * The signed integer a chrono value (timestamp, duration, date, time of day) counts in: it orders
 * as its count, so sort, argsort and is_sorted of a chrono column run on its rows as counts. They
 * then share int32's and int64's kernels (radix sort on CUDA) instead of merge-sorting each of the
 * sixteen chrono types with a comparator of its own.
 */
template <class T>
struct sorts_as {
  using type = T;
};
template <class T>
  requires std::is_integral_v<typename T::rep> && (sizeof(T) == sizeof(typename T::rep))
struct sorts_as<T> {
  using type = typename T::rep;
};
/// Whether `T` sorts as another type's column (see sorts_as).
template <class T>
inline constexpr bool sorts_as_count = !std::is_same_v<typename sorts_as<T>::type, T>;

/// What argsort and sort sort for `T`: `T` itself, or for floating point its ordered_key.
template <class T>
struct sort_key {
  using type = T;
};
template <class T>
  requires std::is_floating_point_v<T>
struct sort_key<T> {
  using type = typename ordered_key<T>::key_type;
};
template <class T>
using sort_key_t = typename sort_key<T>::type;

/// Stably sorts `keys` (sort_key_t, made by key_direction(direction)) with `values` alongside.
template <class K, class V>
void sort_by_keys(executor& exec, K* keys, std::size_t n, V* values, order direction) {
  thrust::stable_sort_by_key(exec.policy(), keys, keys + n, values, key_comparator<K>(direction));
}

/// The ordered_key that puts NaN where Arrow's sort does for this `direction` and null order:
/// beside the nulls.
template <class T>
ordered_key<T> float_sort_key(order direction, null_order nulls) noexcept {
  return {ordered_key<T>::nan_key_for(direction == order::descending, nulls == null_order::last)};
}

/// Copies the rows of `in` that `pred` picks, in row order, over the run of `sorted` (keys made by
/// key_direction(direction), sorted) that equals `key`, in `out`. Finds the run with Thrust's
/// equal_range: a lower and an upper bound, each read back (synchronises twice).
template <class T, class K, class Pred>
void place_run(executor& exec, T const* in, std::size_t n, K const* sorted, K key, Pred pred, T* out, order direction) {
  auto const run = thrust::equal_range(exec.policy(), sorted, sorted + n, key, key_comparator<K>(direction));
  read_back(exec);  // its lower bound's wait, then its upper bound's
  read_back(exec);
  if (run.first != run.second) { copy_if_n(exec, in, n, out + (run.first - sorted), pred); }
}

/**
 * Sorts the `n` floats at `in` into `out` (no nulls): sorts their ordered_key integers alone (in
 * `keys`, n of them, directed: see key_direction) and turns them back into values, then, since one
 * key stands for both zeros and one for every NaN, copies the zero rows and the NaN rows over their
 * runs in row order (so -0.0 keeps its sign and place, NaN its payload). Half the data a sort of
 * (key, value) pairs moves.
 */
template <class T>
void sort_floats(executor& exec, T const* in, std::size_t n, T* out, float_bits_t<T>* keys, order direction,
                 null_order nulls) {
  using K = float_bits_t<T>;
  ordered_key<T> const encode = float_sort_key<T>(direction, nulls);
  directed_key<K> const directed = key_direction<K>(direction);
  detail::transform_n(exec, in, n, keys, composed<ordered_key<T>, directed_key<K>>{encode, directed});
  thrust::sort(exec.policy(), keys, keys + n, key_comparator<K>(direction));
  detail::transform_n(exec, keys, n, out, composed<directed_key<K>, ordered_value<T>>{directed, {encode.nan_key}});
  place_run(exec, in, n, keys, directed(encode(T{0})), is_zero{}, out, direction);
  place_run(exec, in, n, keys, directed(encode.nan_key), is_nan_value{}, out, direction);
}

/**
 * The start of every argsort, whatever the column kind: writes the row numbers 0..rows.size()-1 at
 * `first`, in order when no row is null; else the null rows' numbers first or last as `nulls`
 * says, each group in row order (two compactions of the row numbers, one per group, no
 * synchronisation). Returns where the valid rows' numbers start; size - null_count of them follow,
 * in their original order. The rows' validity alone decides, and which group a compaction keeps
 * is a run-time flag of its predicate: one compaction kernel is compiled for every kind, value type
 * and null order. A template only so that a file that includes it and never calls it compiles no
 * kernel of it.
 */
template <int = 0>
[[nodiscard]] std::int64_t* row_numbers_nulls_placed(executor& exec, std::int64_t* first, validity_view rows,
                                                     null_order nulls) {
  std::size_t const n = rows.size();
  if (rows.null_count() == 0) {
    thrust::sequence(exec.policy(), first, first + n);
    return first;
  }
  bool const nulls_first = nulls == null_order::first;
  std::size_t const leading = nulls_first ? rows.null_count() : n - rows.null_count();
  auto const numbers = thrust::counting_iterator<std::int64_t>(0);
  auto const positions = thrust::counting_iterator<std::size_t>(0);
  bitmask_word const* const mask = rows.null_mask();
  copy_if_n(exec, numbers, positions, n, first, mask_flag{mask, rows.mask_offset(), nulls_first});
  copy_if_n(exec, numbers, positions, n, first + leading, mask_flag{mask, rows.mask_offset(), !nulls_first});
  return nulls_first ? first + rows.null_count() : first;
}

/// argsort() through Thrust: the CUDA backend's, and the host's for types host_argsort does not
/// sort (and every type's with the host fast paths off).
template <class T, class Policy>
[[nodiscard]] column<std::int64_t, Policy> thrust_argsort(column<T, Policy> const& col, order direction,
                                                          null_order nulls, stream_ref stream) {
  std::size_t const n = col.size();
  auto indices = col.template make_like<std::int64_t>(n, stream);
  executor exec(stream);
  std::int64_t* const valid_first =
      row_numbers_nulls_placed(exec, indices.data(access::write, stream), col.view(), nulls);
  std::size_t const valid = n - col.null_count();
  using K = sort_key_t<T>;
  auto keys = col.template make_like<K>(valid, stream);
  K* key = keys.data(access::write, stream);
  if constexpr (std::is_floating_point_v<T>) {
    auto const encoded = thrust::make_transform_iterator(
        col.data(access::read),
        composed<ordered_key<T>, directed_key<K>>{float_sort_key<T>(direction, nulls), key_direction<K>(direction)});
    thrust::gather(exec.policy(), valid_first, valid_first + valid, encoded, key);
  } else {
    auto const directed = thrust::make_transform_iterator(col.data(access::read), key_direction<K>(direction));
    thrust::gather(exec.policy(), valid_first, valid_first + valid, directed, key);
  }
  sort_by_keys(exec, key, valid, valid_first, direction);
  return indices;
}

#if DEVCOL_HOST_FAST_PATHS
/// Whether the host radix sort (host/radix_sort.hpp) argsorts `T` rows: arithmetic types of up to 8 bytes.
template <class T>
inline constexpr bool host_radix_sorts = std::is_arithmetic_v<T> && sizeof(T) <= 8;

/// The unsigned key the host radix sort orders an integer (or bool) by: its bits, the sign bit
/// flipped for signed types, so that negative values come first.
template <class T>
struct radix_integer_key {
  using key_type = std::make_unsigned_t<std::conditional_t<std::is_same_v<T, bool>, unsigned char, T>>;
  [[nodiscard, gnu::always_inline]] key_type operator()(T x) const noexcept {
    constexpr key_type flip = std::is_signed_v<T> ? key_type(key_type{1} << (sizeof(T) * 8 - 1)) : key_type{0};
    return static_cast<key_type>(static_cast<key_type>(x) ^ flip);
  }
};

/// The radix key of a valid row of `T` that is not NaN: radix_integer_key, or for floating point
/// its ordered_key::number_key (one key for -0.0 and 0.0, so that they tie).
template <class T>
[[nodiscard, gnu::always_inline]] inline auto radix_key(T x) noexcept {
  if constexpr (std::is_floating_point_v<T>) {
    return ordered_key<T>::number_key(x);
  } else {
    return radix_integer_key<T>{}(x);
  }
}

/// What every host radix sort of `T` rows reads: their values, NaN rows kept out of the keys
/// (host::radix_sort_rows).
template <class T>
struct radix_rows {
  using key_type = decltype(radix_key(T{}));
  T const* values;
  [[nodiscard, gnu::always_inline]] bool unordered(std::size_t i) const noexcept { return is_nan(values[i]); }
  [[nodiscard, gnu::always_inline]] key_type key_of(std::size_t i) const noexcept { return radix_key(values[i]); }
};

/// argsort's rows: (key, row number) records in `Row`, row numbers written at `out`.
template <class T, class Row>
struct argsort_rows : radix_rows<T> {
  using typename radix_rows<T>::key_type;
  using record = host::keyed_row<key_type, Row>;
  std::int64_t* out;
  [[nodiscard, gnu::always_inline]] static record make(std::size_t i, key_type key) noexcept {
    return {key, static_cast<Row>(i)};
  }
  [[nodiscard, gnu::always_inline]] static key_type key(record const& r) noexcept { return r.key; }
  [[gnu::always_inline]] void put(std::size_t at, record const& r) const noexcept {
    out[at] = static_cast<std::int64_t>(r.row);
  }
  [[gnu::always_inline]] void put_row(std::size_t at, std::size_t i) const noexcept {
    out[at] = static_cast<std::int64_t>(i);
  }
  [[gnu::always_inline]] void put_null(std::size_t at, std::size_t i) const noexcept { put_row(at, i); }
  [[nodiscard]] static record* records_at(std::size_t) noexcept { return nullptr; }
};

/// sort's rows: the values themselves, written at `out`, null rows as zero bits.
template <class T>
struct value_rows : radix_rows<T> {
  using typename radix_rows<T>::key_type;
  using record = T;
  T* out;
  [[nodiscard, gnu::always_inline]] T make(std::size_t i, key_type) const noexcept { return this->values[i]; }
  [[nodiscard, gnu::always_inline]] static key_type key(T x) noexcept { return radix_key(x); }
  [[gnu::always_inline]] void put(std::size_t at, T x) const noexcept { out[at] = x; }
  [[gnu::always_inline]] void put_row(std::size_t at, std::size_t i) const noexcept { out[at] = this->values[i]; }
  [[gnu::always_inline]] void put_null(std::size_t at, std::size_t) const noexcept { out[at] = T{}; }
  [[nodiscard]] T* records_at(std::size_t at) const noexcept { return out + at; }
};

/// Runs the host radix sort of `col`'s rows through `rows` in `direction`, nulls as `nulls` says,
/// its scratch arrays from `col`'s resource, freed when it returns.
template <class Rows, class T, class Policy>
void radix_sort_column(column<T, Policy> const& col, Rows const& rows, order direction, null_order nulls,
                       stream_ref stream) {
  using record = typename Rows::record;
  column_view<T> const view = col.view();
  std::vector<buffer<Policy>> scratch;
  host::radix_sort_rows(rows, col.size(), col.has_nulls() ? view.null_mask() : nullptr, view.mask_offset(),
                        direction == order::descending, nulls == null_order::first, [&](std::size_t count) {
                          scratch.emplace_back(count * sizeof(record), stream, mr::default_alignment, col.resource());
                          return static_cast<record*>(scratch.back().data(access::write, stream));
                        });
}

/**
 * argsort() on the host fast path: the host radix sort (host/radix_sort.hpp), its first pass over
 * `col` itself. Scratch (up to two arrays of records a valid row: 12 bytes for 8-byte keys, 16
 * from 2^32 rows, whose numbers need 64 bits) from `col`'s resource. Every size takes this path,
 * so that a call compiles no Thrust sort beside it.
 */
template <class T, class Policy>
[[nodiscard]] column<std::int64_t, Policy> host_argsort(column<T, Policy> const& col, order direction,
                                                        null_order nulls, stream_ref stream) {
  auto indices = col.template make_like<std::int64_t>(col.size(), stream);
  auto const sort_with = [&]<class Row>(Row) {
    radix_sort_column(col, argsort_rows<T, Row>{{col.data(access::read)}, indices.data(access::write, stream)},
                      direction, nulls, stream);
  };
  if (col.size() < host::radix_wide_rows_from().load(std::memory_order_relaxed)) {
    sort_with(std::uint32_t{});
  } else {
    sort_with(std::uint64_t{});
  }
  return indices;
}

/**
 * sort() on the host fast path: the host radix sort moving the values themselves, the result one
 * of its two arrays (scratch: one array of the valid values, from `col`'s resource), nulls a run
 * at the start or the end of a new mask. No argsort, no gather and no index column.
 */
template <class T, class Policy>
[[nodiscard]] column<T, Policy> host_sort(column<T, Policy> const& col, order direction, null_order nulls,
                                          stream_ref stream) {
  std::size_t const n = col.size();
  auto out = col.template make_like<T>(n, stream);
  radix_sort_column(col, value_rows<T>{{col.data(access::read)}, out.data(access::write, stream)}, direction, nulls,
                    stream);
  if (col.has_nulls()) {
    std::size_t const null_rows = col.null_count();
    std::size_t const bytes = bitmask_allocation_size(n);
    buffer<Policy> mask(bytes, stream, mr::default_alignment, out.resource());
    std::size_t const null_begin = nulls == null_order::first ? 0 : n - null_rows;
    host::write_null_run(static_cast<bitmask_word*>(mask.data(access::write, stream)), bytes / sizeof(bitmask_word),
                         n, null_begin, null_begin + null_rows);
    out.replace_null_mask(std::move(mask), null_rows);
  }
  return out;
}
#endif

}  // namespace detail

/**
 * @brief The row numbers that put `col` in order (Arrow's `sort_indices`), stable: equal rows keep
 * their order. Nulls go first or last, in their original order; floating point as devcol/ops/sort.hpp
 * says (NaN beside the nulls, -0.0 and 0.0 tied). Sorts a copy of the valid rows' keys
 * (scratch from `col`'s resource; floats as ordered_key integers, and descending keys with their
 * bits flipped, made in the same gather, so that one ascending sort serves both directions) with the
 * row numbers; with nulls, the null rows' numbers are placed first or last by two compactions.
 * No synchronisation. On the host backend, arithmetic types of up
 * to 8 bytes instead take a radix sort that reads `col` itself in its first pass and skips the key
 * bytes every row shares (detail/host/radix_sort.hpp; scratch from `col`'s resource: up to two
 * arrays of key-and-row records, 12 bytes a valid row for 8-byte keys, 16 from 2^32 rows). A
 * chrono column (timestamps, durations, dates, times of day) sorts as its counts: int32's or
 * int64's sort, reading the same buffers.
 * @tparam T the element type
 * @tparam Policy the buffer policy of the input and of the result
 * @param col the input column
 * @param direction ascending or descending
 * @param stream the stream the work is ordered on
 * @param nulls whether null rows go first or last
 */
template <ordered_fixed_width T, class Policy>
[[nodiscard]] column<std::int64_t, Policy> argsort(column<T, Policy> const& col, order direction = order::ascending,
                                                   stream_ref stream = {}, null_order nulls = null_order::last) {
  detail::expect_sort_order(direction, nulls, "argsort");
  if constexpr (detail::sorts_as_count<T>) {
    return devcol::argsort(detail::rows_as<typename detail::sorts_as<T>::type>(col), direction, stream, nulls);
  } else {
    detail::operation_spill_lock<Policy> const spill_scope{stream};
#if DEVCOL_HOST_FAST_PATHS
    if constexpr (detail::host_radix_sorts<T>) {
      return detail::host_argsort(col, direction, nulls, stream);
    } else
#endif
    {
      return detail::thrust_argsort(col, direction, nulls, stream);
    }
  }
}

namespace detail {
/// sort() through Thrust: the CUDA backend's, and the host's for types host_sort does not sort
/// (and every type's with the host fast paths off).
template <class T, class Policy>
[[nodiscard]] column<T, Policy> thrust_sort(column<T, Policy> const& col, order direction, null_order nulls,
                                            stream_ref stream) {
  if (col.has_nulls()) {
    return devcol::gather(col, devcol::argsort(col, direction, stream, nulls), stream, out_of_bounds::nullify);
  }
  auto out = col.template make_like<T>(col.size(), stream);
  T* first = out.data(access::write, stream);
  executor exec(stream);
  if constexpr (std::is_floating_point_v<T>) {
    auto keys = col.template make_like<sort_key_t<T>>(col.size(), stream);
    sort_floats(exec, col.data(access::read), col.size(), first, keys.data(access::write, stream), direction, nulls);
  } else {
    directed_key<T> const directed = key_direction<T>(direction);
    if (directed.flip) {
      transform_n(exec, col.data(access::read), col.size(), first, directed);
    } else {
      copy_bytes(first, col.data(access::read), col.size() * sizeof(T), stream);
    }
    thrust::stable_sort(exec.policy(), first, first + col.size(), key_comparator<T>(direction));
    if (directed.flip) { transform_n(exec, first, col.size(), first, directed); }
  }
  return out;
}
}  // namespace detail

/**
 * @brief `col` in order, stable, nulls first or last, floating point as devcol/ops/sort.hpp says.
 * Without nulls: a copy then one sort of the values in place, no synchronisation (descending,
 * integers are copied with their bits flipped and flipped back after an ascending sort, so that one
 * sort kernel serves both directions: see detail::flips_for_descending); floating point sorts its
 * ordered_key integers instead (a scratch column from `col`'s resource) and places its zero and
 * NaN rows after (see detail::sort_floats: the zeros' run and the NaN's, each found by two binary
 * searches, four that each synchronise `stream`). With nulls, argsort then gather. On the host
 * backend, arithmetic types of up to 8 bytes instead take argsort's radix sort moving the values
 * themselves (detail::host_sort: no argsort, no gather; scratch from `col`'s resource: one array of
 * the valid values; no synchronisation).
 * A chrono column sorts as its counts (see argsort()).
 * @tparam T the element type
 * @tparam Policy the buffer policy of the input and of the result
 * @param col the input column
 * @param direction ascending or descending
 * @param stream the stream the work is ordered on
 * @param nulls whether null rows go first or last
 */
template <ordered_fixed_width T, class Policy>
[[nodiscard]] column<T, Policy> sort(column<T, Policy> const& col, order direction = order::ascending,
                                     stream_ref stream = {}, null_order nulls = null_order::last) {
  detail::expect_sort_order(direction, nulls, "sort");
  if constexpr (detail::sorts_as_count<T>) {
    auto const counts = detail::rows_as<typename detail::sorts_as<T>::type>(col);
    return detail::rows_as<T>(devcol::sort(counts, direction, stream, nulls));
  } else {
    detail::operation_spill_lock<Policy> const spill_scope{stream};
#if DEVCOL_HOST_FAST_PATHS
    if constexpr (detail::host_radix_sorts<T>) {
      return detail::host_sort(col, direction, nulls, stream);
    } else
#endif
    {
      return detail::thrust_sort(col, direction, nulls, stream);
    }
  }
}

/// @brief Whether `col` is in order, nulls placed as asked, floating point as sort() orders it (NaN
/// beside the nulls, -0.0 and 0.0 equal), a chrono column as its counts: one pass over adjacent
/// pairs. Synchronises `stream`.
/// @tparam T the element type
/// @tparam Policy the buffer policy of the input and of the result
/// @param col the input column
/// @param direction ascending or descending
/// @param stream the stream the work is ordered on
/// @param nulls whether null rows go first or last
template <ordered_fixed_width T, class Policy>
[[nodiscard]] bool is_sorted(column<T, Policy> const& col, order direction = order::ascending, stream_ref stream = {},
                             null_order nulls = null_order::last) {
  detail::expect_sort_order(direction, nulls, "is_sorted");
  if constexpr (detail::sorts_as_count<T>) {
    return devcol::is_sorted(detail::rows_as<typename detail::sorts_as<T>::type>(col), direction, stream, nulls);
  } else {
    detail::operation_spill_lock<Policy> const spill_scope{stream};
    if (col.size() < 2) { return true; }
    detail::executor exec(stream);
    detail::in_order<column_view<T>> const pair_in_order{col.view(), direction == order::descending,
                                                         nulls == null_order::first};
    bool const sorted = thrust::all_of(exec.policy(), thrust::counting_iterator<std::size_t>(1),
                                       thrust::counting_iterator<std::size_t>(col.size()), pair_in_order);
    detail::read_back(exec);
    return sorted;
  }
}

DEVCOL_NAMESPACE_END
