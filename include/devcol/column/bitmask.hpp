/**
 * @file bitmask.hpp
 * @brief Validity bitmasks in Arrow's layout: one bit per row, least significant bit first, set
 * for a valid row; allocations padded to 64 bytes. The kernels run through Thrust.
 *
 * The functions that launch kernels are templates (`template <int = 0>`, called as plain
 * functions) so that a file instantiates a kernel only where it calls it: the body of an inline
 * function would be compiled, kernels and all, in every file that includes this header.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/allocation.hpp>
#include <devcol/memory/resource.hpp>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>

#include <cuda/std/bit>
#include <cuda/std/functional>

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

/// The word bitmasks are read and written in (Arrow's bytes, 8 at a time, little-endian).
using bitmask_word = std::uint64_t;
/// Bits in a bitmask_word.
inline constexpr std::size_t bits_per_word = 64;

/// @brief How a new column's validity mask starts.
enum class mask_state {
  unallocated,  ///< no mask: every row valid, nothing allocated
  all_valid,    ///< a mask with every row valid
  all_null      ///< a mask with every row null
};

/// @brief Bytes to allocate for a mask of `bits` rows: whole bytes, padded to a multiple of 64
/// (Arrow's recommended padding, so word-wide kernels never read past the allocation).
/// @param bits the number of rows the mask covers
[[nodiscard]] constexpr std::size_t bitmask_allocation_size(std::size_t bits) noexcept {
  return mr::align_up((bits + 7) / 8, 64);
}

/// @brief Whether bit `i` of `mask` is set (row `i` is valid). Host and device; reads one word,
/// so on the host `mask` must be host memory.
/// @param mask the validity words (not null)
/// @param i the bit, counted from bit 0 of word 0
[[nodiscard]] DEVCOL_HOST_DEVICE inline bool bit_is_set(bitmask_word const* mask, std::size_t i) noexcept {
  return ((mask[i / bits_per_word] >> (i % bits_per_word)) & 1U) != 0;
}

namespace detail {

/// Word `w` of the bits [begin, end) of `src`, shifted down to start at bit 0; bits past `end` are 0.
struct shifted_word {
  bitmask_word const* src;
  std::size_t begin;
  std::size_t end;
  DEVCOL_HOST_DEVICE bitmask_word operator()(std::size_t w) const noexcept {
    std::size_t const first = begin + w * bits_per_word;
    if (first >= end) { return 0; }
    std::size_t const index = first / bits_per_word;
    unsigned const shift = static_cast<unsigned>(first % bits_per_word);
    bitmask_word word = src[index] >> shift;
    if (shift != 0 && (index + 1) * bits_per_word < end) { word |= src[index + 1] << (bits_per_word - shift); }
    if (std::size_t const left = end - first; left < bits_per_word) { word &= (bitmask_word{1} << left) - 1; }
    return word;
  }
};

/// Valid rows in word `w` of [begin, end): a popcount of the shifted word.
struct count_set_in_word {
  shifted_word words;
  DEVCOL_HOST_DEVICE std::size_t operator()(std::size_t w) const noexcept {
    return static_cast<std::size_t>(::cuda::std::popcount(words(w)));
  }
};

template <class Op>
struct combine_words {
  shifted_word a;
  shifted_word b;
  DEVCOL_HOST_DEVICE bitmask_word operator()(std::size_t w) const noexcept { return Op{}(a(w), b(w)); }
};
struct bit_and {
  DEVCOL_HOST_DEVICE bitmask_word operator()(bitmask_word x, bitmask_word y) const noexcept { return x & y; }
};
struct bit_or {
  DEVCOL_HOST_DEVICE bitmask_word operator()(bitmask_word x, bitmask_word y) const noexcept { return x | y; }
};

/// For flat word index `j` over several ranges: which range it falls in (binary search of the
/// ranges' first flat word indices).
struct range_of_word {
  std::size_t const* first_words;  // ascending, one per range
  std::size_t ranges;
  DEVCOL_HOST_DEVICE std::size_t operator()(std::size_t j) const noexcept {
    std::size_t lo = 0;
    std::size_t hi = ranges;
    while (hi - lo > 1) {
      std::size_t const mid = (lo + hi) / 2;
      if (first_words[mid] <= j) { lo = mid; } else { hi = mid; }
    }
    return lo;
  }
};
/// Valid rows in flat word `j` of the range it falls in.
struct count_set_in_ranges {
  bitmask_word const* mask;
  std::size_t const* first_words;
  std::size_t const* bounds;  // begin, end of each range
  std::size_t ranges;
  DEVCOL_HOST_DEVICE std::size_t operator()(std::size_t j) const noexcept {
    std::size_t const r = range_of_word{first_words, ranges}(j);
    return count_set_in_word{shifted_word{mask, bounds[2 * r], bounds[2 * r + 1]}}(j - first_words[r]);
  }
};

[[nodiscard]] constexpr std::size_t words_for(std::size_t bits) noexcept { return (bits + bits_per_word - 1) / bits_per_word; }

/// `dst` = Op of two masks' bit ranges, each shifted to bit 0; one pass over `dst`'s words.
template <class Op>
void combine_masks(bitmask_word const* a, std::size_t a_begin, bitmask_word const* b, std::size_t b_begin,
                   std::size_t bits, bitmask_word* dst, std::size_t dst_bytes, stream_ref stream) {
  executor exec(stream);
  detail::tabulate(exec, dst_bytes / sizeof(bitmask_word), dst,
                   combine_words<Op>{{a, a_begin, a_begin + bits}, {b, b_begin, b_begin + bits}});
}

}  // namespace detail

/**
 * @brief The number of unset bits (null rows) among bits [begin, end) of `mask`: one pass over the
 * range's words. Synchronises `stream` to return the count to the host.
 * @param mask the validity words, in device memory
 * @param begin the first bit counted
 * @param end one past the last bit counted
 * @param stream the stream the reduction runs on
 * @throws devcol::logic_error unless begin <= end
 */
template <int = 0>
[[nodiscard]] std::size_t count_unset_bits(bitmask_word const* mask, std::size_t begin, std::size_t end,
                                           stream_ref stream) {
  DEVCOL_EXPECTS(begin <= end, "count_unset_bits: begin ", begin, " is past end ", end);
  if (begin == end) { return 0; }
  detail::executor exec(stream);
  std::size_t const valid = detail::transform_reduce_n(
      exec, thrust::counting_iterator<std::size_t>(0), detail::words_for(end - begin),
      detail::count_set_in_word{detail::shifted_word{mask, begin, end}}, std::size_t{0}, cuda::std::plus<std::size_t>{});
  return (end - begin) - valid;
}

/**
 * @brief Unset bits in each of several ranges [begin, end) of `mask`, counted in one launch (a
 * reduction by range over all the ranges' words). Synchronises `stream` three times: Thrust's
 * reduce_by_key waits for the device after its launch and again to read back its number of keys,
 * then the counts are copied back. Allocates one scratch buffer from this thread's default
 * resource for the ranges and the results.
 * @param mask the validity words, in device memory
 * @param ranges the bit ranges [first, second), in any order, overlapping or not
 * @param stream the stream the copies and the reduction run on
 * @returns one count per range, in the ranges' order
 * @throws devcol::logic_error for a range whose begin is past its end; what allocation and
 * copying throw
 */
template <int = 0>
[[nodiscard]] std::vector<std::size_t> segmented_count_unset_bits(
    bitmask_word const* mask, std::span<std::pair<std::size_t, std::size_t> const> ranges, stream_ref stream) {
  std::vector<std::size_t> nulls(ranges.size(), 0);
  std::vector<std::size_t> host_index;  // first flat word of each range, then begin/end pairs
  host_index.reserve(3 * ranges.size());
  std::size_t total_words = 0;
  for (auto const& [begin, end] : ranges) {
    DEVCOL_EXPECTS(begin <= end, "segmented_count_unset_bits: begin ", begin, " is past end ", end);
    host_index.push_back(total_words);
    total_words += detail::words_for(end - begin);
  }
  if (total_words == 0) { return nulls; }
  for (auto const& [begin, end] : ranges) {
    host_index.push_back(begin);
    host_index.push_back(end);
  }
  // One scratch allocation from this thread's default resource: the ranges' index going in, the
  // reduction's keys and counts coming out; two copies around one reduction.
  std::size_t const r = ranges.size();
  mr::allocation scratch((host_index.size() + 2 * r) * sizeof(std::size_t), stream);
  auto* const index = static_cast<std::size_t*>(scratch.data());
  std::size_t* const keys = index + host_index.size();
  std::size_t* const valid = keys + r;
  copy_bytes(index, host_index.data(), host_index.size() * sizeof(std::size_t), stream);
  detail::executor exec(stream);
  auto const key_of = thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0),
                                                      detail::range_of_word{index, r});
  auto const count_of = thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0),
                                                        detail::count_set_in_ranges{mask, index, index + r, r});
  auto const ends = thrust::reduce_by_key(exec.policy(), key_of, key_of + static_cast<std::ptrdiff_t>(total_words),
                                          count_of, keys, valid);
  // Thrust's reduce_by_key waits for the device twice: after its launch, then for its number of keys.
  detail::read_back(exec);
  detail::read_back(exec);
  auto const found = static_cast<std::size_t>(ends.first - keys);
  std::vector<std::size_t> results(2 * r);  // keys, then counts
  copy_bytes(results.data(), keys, 2 * r * sizeof(std::size_t), stream);
  stream.synchronize();
  for (std::size_t i = 0; i < r; ++i) { nulls[i] = ranges[i].second - ranges[i].first; }
  for (std::size_t k = 0; k < found; ++k) { nulls[results[k]] -= results[r + k]; }
  return nulls;
}

/**
 * @brief Writes bits [begin, end) of `src` to `dst` starting at bit 0, and zeroes the rest of
 * `dst`'s `dst_bytes` (which must be a whole number of words): one pass, in order on `stream`
 * (asynchronous on CUDA).
 * @param src the source words
 * @param begin the first bit copied, which lands at bit 0 of `dst`
 * @param end one past the last bit copied
 * @param dst the destination words; must not overlap `src`
 * @param dst_bytes the bytes of `dst` written, a multiple of 8 holding at least `end - begin` bits
 * @param stream the stream the kernel is ordered on
 * @throws devcol::logic_error unless begin <= end and `dst_bytes` fits those rules
 */
template <int = 0>
void copy_bitmask(bitmask_word const* src, std::size_t begin, std::size_t end, bitmask_word* dst,
                  std::size_t dst_bytes, stream_ref stream) {
  DEVCOL_EXPECTS(begin <= end, "copy_bitmask: begin ", begin, " is past end ", end);
  DEVCOL_EXPECTS(dst_bytes >= detail::words_for(end - begin) * sizeof(bitmask_word) && dst_bytes % sizeof(bitmask_word) == 0,
                 "copy_bitmask: ", dst_bytes, " bytes cannot hold ", end - begin, " bits in whole words");
  detail::executor exec(stream);
  detail::tabulate(exec, dst_bytes / sizeof(bitmask_word), dst, detail::shifted_word{src, begin, end});
}

/**
 * @brief `dst` = bits [a_begin, a_begin + bits) of `a` AND those of `b` from `b_begin`, at bit 0
 * (valid where both are valid); the rest of `dst_bytes` zeroed. One pass, in order on `stream`.
 * @param a the first mask's words
 * @param a_begin the bit of `a` that lands at bit 0
 * @param b the second mask's words
 * @param b_begin the bit of `b` that lands at bit 0
 * @param bits the number of bits combined
 * @param dst the destination words; must not overlap `a` or `b`
 * @param dst_bytes the bytes of `dst` written, a multiple of 8 holding at least `bits` bits
 * @param stream the stream the kernel is ordered on (asynchronous on CUDA)
 * @throws what Thrust throws if the kernel fails (`thrust::system_error`); the sizes are not
 * checked, so a `dst_bytes` too small leaves bits out
 */
template <int = 0>
void bitmask_and(bitmask_word const* a, std::size_t a_begin, bitmask_word const* b, std::size_t b_begin,
                 std::size_t bits, bitmask_word* dst, std::size_t dst_bytes, stream_ref stream) {
  detail::combine_masks<detail::bit_and>(a, a_begin, b, b_begin, bits, dst, dst_bytes, stream);
}

/// @brief As bitmask_and, with OR (valid where either is valid); the parameters are bitmask_and's.
/// @param a the first mask's words
/// @param a_begin the bit of `a` that lands at bit 0
/// @param b the second mask's words
/// @param b_begin the bit of `b` that lands at bit 0
/// @param bits the number of bits combined
/// @param dst the destination words; must not overlap `a` or `b`
/// @param dst_bytes the bytes of `dst` written, a multiple of 8 holding at least `bits` bits
/// @param stream the stream the kernel is ordered on (asynchronous on CUDA)
/// @throws what Thrust throws if the kernel fails (`thrust::system_error`); the sizes are not
/// checked
template <int = 0>
void bitmask_or(bitmask_word const* a, std::size_t a_begin, bitmask_word const* b, std::size_t b_begin,
                std::size_t bits, bitmask_word* dst, std::size_t dst_bytes, stream_ref stream) {
  detail::combine_masks<detail::bit_or>(a, a_begin, b, b_begin, bits, dst, dst_bytes, stream);
}

namespace detail {

/// Packs `valid(row)` for rows [0, rows) into mask word `w` (bits past `rows` are 0).
template <class Valid>
struct pack_word {
  Valid valid;
  std::size_t rows;
  DEVCOL_HOST_DEVICE bitmask_word operator()(std::size_t w) const {
    bitmask_word word = 0;
    std::size_t const first = w * bits_per_word;
    for (std::size_t b = 0; b < bits_per_word && first + b < rows; ++b) {
      if (valid(first + b)) { word |= bitmask_word{1} << b; }
    }
    return word;
  }
};

/// `valid(row - offset)` for rows at or past `offset`, invalid before it.
template <class Valid>
struct shifted_valid {
  Valid valid;
  std::size_t offset;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const { return i >= offset && valid(i - offset); }
};

/**
 * The one place a mask is built from a validity per row (ops' results, concatenate's joined masks,
 * the Arrow export's bit-packed bools): a new mask from `resource` whose bit `first + i` holds
 * `valid(i)` for rows [0, rows), the bits before `first` and past the rows 0, written in one pass
 * over its words in order on `stream` (asynchronous on CUDA). `valid` is a device functor of
 * `std::size_t`.
 */
template <class Buffer, class Valid>
[[nodiscard]] Buffer pack_bits(Valid valid, std::size_t first, std::size_t rows,
                               typename Buffer::resource_type resource, stream_ref stream) {
  std::size_t const bits = first + rows;
  std::size_t const bytes = bitmask_allocation_size(bits);
  Buffer mask(bytes, stream, mr::default_alignment, std::move(resource));
  executor exec(stream);
  detail::tabulate(exec, bytes / sizeof(bitmask_word), static_cast<bitmask_word*>(mask.data(access::write, stream)),
                   pack_word<shifted_valid<Valid>>{{valid, first}, bits});
  return mask;
}

/// A new mask from `resource` holding bits [begin, end) of `words` from bit 0 (copy_bitmask: one
/// pass, in order on `stream`): a slice's or a result's own copy of validity it shares.
template <class Buffer>
[[nodiscard]] Buffer copy_bits(bitmask_word const* words, std::size_t begin, std::size_t end,
                               typename Buffer::resource_type resource, stream_ref stream) {
  std::size_t const bytes = bitmask_allocation_size(end - begin);
  Buffer out(bytes, stream, mr::default_alignment, std::move(resource));
  copy_bitmask(words, begin, end, static_cast<bitmask_word*>(out.data(access::write, stream)), bytes, stream);
  return out;
}

}  // namespace detail

DEVCOL_NAMESPACE_END
