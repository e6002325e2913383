/**
 * @file filter.hpp
 * @brief Host fast path of fixed-width filter: the kept values, and their validity bits where the
 * column or the flags have nulls, compacted in one branchless pass over each thread's rows, the
 * validity read and written a word at a time (see dispatch.hpp). A first pass counts each thread's
 * kept rows, so that every thread knows where its rows go (the result is sized exactly, as
 * Arrow's filter does). The Thrust path makes three passes and a byte of scratch per kept row
 * (measured on 2^24 int64 rows with 10% nulls: 320 ms, against Arrow C++'s 80 ms).
 * In the AVX-512 build, 4- and 8-byte rows are compacted 16 or 8 at a time (compress_block()) and
 * the kept rows' validity bits of a block in one PEXT. A result larger than the cache is written
 * with streaming stores, through a staging area (filter_sink).
 */
#pragma once

#include <devcol/column/bitmask.hpp>
#include <devcol/core/config.hpp>
#include <devcol/ops/detail/host/dispatch.hpp>
#include <devcol/ops/detail/host/mask_words.hpp>
#include <devcol/ops/detail/host/streaming_stores.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#if DEVCOL_HOST_FAST_PATHS
DEVCOL_NAMESPACE_BEGIN
namespace detail::host {

/// The flags of a filter: a byte per row, and their validity at bit `offset` of `mask` (null: all
/// valid). A row is kept where its flag is true and valid.
struct filter_flags {
  bool const* keep;
  bitmask_word const* mask;
  std::size_t offset;

  /// The kept rows among rows [row, row + count) (count <= 64) as a word, row `row` at bit 0.
  [[nodiscard, gnu::always_inline]] bitmask_word word(std::size_t row, std::size_t count) const noexcept {
    bitmask_word flags = 0;
    if (count == block_rows && std::endian::native == std::endian::little) {
      flags = flag_bits(keep + row);
    } else {
      for (std::size_t b = 0; b < count; ++b) { flags |= static_cast<bitmask_word>(keep[row + b]) << b; }
    }
    return mask == nullptr ? flags : flags & rows_word(mask, offset, row, count);
  }

  /**
   * The 64 flags from `flags` on as a word, the first at bit 0, on a little-endian CPU. Eight bytes
   * at a time, each 0 or 1: multiplying them by 0x0102040810204080 puts byte b's bit at bit 56 + b,
   * with no two products on one bit (so no carries), and the top byte is the eight flags in order.
   * A shift and an OR per flag (word()'s loop) took 9.4 ms per 2^24 flags on one AVX-512 core,
   * this 1.05 ms.
   */
  [[nodiscard, gnu::always_inline]] static bitmask_word flag_bits(bool const* flags) noexcept {
    bitmask_word bits = 0;
    for (std::size_t q = 0; q < block_rows / 8; ++q) {
      std::uint64_t eight;
      std::memcpy(&eight, flags + 8 * q, sizeof eight);
      bits |= static_cast<bitmask_word>((eight * 0x0102040810204080ULL) >> 56U) << (8 * q);
    }
    return bits;
  }
};

#  if DEVCOL_HOST_SIMD_DISPATCH
/**
 * Writes the rows of `in[0, 64)` whose bit is set in `kept` to `out`, in order, and returns how
 * many: AVX-512's compress, 16 4-byte or 8 8-byte rows per instruction, each group stored whole,
 * so that it writes up to `out[63]` whatever the count (the caller gives that room). Written with
 * the compilers' builtins (GCC's and clang's are the same) rather than `<immintrin.h>`, which
 * would add 0.4 s to the parse of every file that includes a filter.
 */
template <class T>
[[nodiscard, gnu::target("avx512f")]] inline std::size_t compress_block(T const* in, std::uint64_t kept,
                                                                      T* out) noexcept {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8);
  using vector = std::conditional_t<sizeof(T) == 4, int __attribute__((vector_size(64))),
                                    long long __attribute__((vector_size(64)))>;
  constexpr std::size_t group = 64 / sizeof(T);
  std::size_t n = 0;
  for (std::size_t g = 0; g < block_rows; g += group) {
    vector v;
    std::memcpy(&v, in + g, sizeof v);
    auto const select = static_cast<std::uint32_t>((kept >> g) & ((std::uint64_t{1} << group) - 1U));
    vector packed;
    if constexpr (sizeof(T) == 4) {
      packed = __builtin_ia32_compresssi512_mask(v, vector{}, static_cast<unsigned short>(select));
    } else {
      packed = __builtin_ia32_compressdi512_mask(v, vector{}, static_cast<unsigned char>(select));
    }
    std::memcpy(out + n, &packed, sizeof packed);
    n += static_cast<std::size_t>(std::popcount(select));
  }
  return n;
}
#  endif

/// The kernel of plan_filter(): the kept rows of each chunk.
struct count_kept_kernel {
  filter_flags flags;
  std::size_t* counts;
  [[gnu::always_inline]] void operator()(std::size_t begin, std::size_t end, std::size_t chunk) const noexcept {
    std::size_t kept = 0;
    if (flags.mask == nullptr) {
      // A byte sum per 64 flags, which the compiler vectorises; adding each flag to a size_t was
      // left scalar (5.5 ms per 2^24 flags on one core, against 0.25 ms).
      std::size_t i = begin;
      for (; i + block_rows <= end; i += block_rows) {
        unsigned char block = 0;
        for (std::size_t b = 0; b < block_rows; ++b) {
          block = static_cast<unsigned char>(block + static_cast<unsigned char>(flags.keep[i + b]));
        }
        kept += block;
      }
      for (; i < end; ++i) { kept += static_cast<std::size_t>(flags.keep[i]); }
    } else {
      for (std::size_t row = begin; row < end; row += block_rows) {
        std::size_t const count = end - row < block_rows ? end - row : block_rows;
        kept += static_cast<std::size_t>(std::popcount(flags.word(row, count)));
      }
    }
    counts[chunk] = kept;
  }
};

/**
 * Where a chunk of a filter puts its kept values: straight into the result, or, where the result
 * streams (see streams()), into a staging area in the L1 whose whole blocks then go out with
 * streaming stores. A plain store first reads the result's line from memory, so a filter of
 * 8-byte rows that keeps half of them moved 17 bytes a row instead of 13. The kept rows land at
 * any offset, so they are staged until a block of the result that the chunk alone writes is
 * whole; the chunk's first and last blocks, which it may share with its neighbours, go plainly.
 * One thread of an Intel Xeon VM, 2^27 rows (bench_ops, medians of three rounds): every type
 * with and without nulls 1.08-1.33 times as fast as with plain stores.
 */
template <class T>
class filter_sink {
 public:
  filter_sink(T* out, std::size_t first, stream_mode mode) noexcept
      : out_(out), first_(first), base_(first / block_rows * block_rows), mode_(mode) {
    // Zeroed, so that drain()'s whole-block carry copies no indeterminate value (once a chunk).
    if (mode_) { std::memset(stage_, 0, sizeof stage_); }
  }
  filter_sink(filter_sink const&) = delete;
  filter_sink& operator=(filter_sink const&) = delete;

  /// Where result row `j` goes. `j` is less than a block past the last drain(), and the kernel
  /// writes at most block_rows rows from at(j) before the next one (compress_block()'s whole
  /// vectors included), so two blocks hold them.
  [[nodiscard, gnu::always_inline]] T* at(std::size_t j) noexcept { return mode_ ? stage_ + (j - base_) : out_ + j; }

  /// Sends the staged block out once the rows before `j` fill it; call after every block of input
  /// rows (each adds at most block_rows result rows).
  [[gnu::always_inline]] void drain(std::size_t j) noexcept {
    if (!mode_ || j - base_ < block_rows) { return; }
    if (base_ >= first_) {
      stream_block(out_ + base_, stage_, mode_);
    } else {  // the chunk's first block, which the chunk before may share
      std::memcpy(out_ + first_, stage_ + (first_ - base_), (base_ + block_rows - first_) * sizeof(T));
    }
    // The rows past the block, copied as a whole block: a fixed size, which the compiler copies
    // in vector registers instead of calling memcpy (the rows past `j` are rewritten before use).
    std::memcpy(stage_, stage_ + block_rows, block_rows * sizeof(T));
    base_ += block_rows;
  }

  /// Writes the staged rows before `j` that are left (plainly) and orders the streaming stores.
  void finish(std::size_t j) noexcept {
    if (!mode_) { return; }
    drain(j);
    std::size_t const from = base_ > first_ ? base_ : first_;
    if (j > from) { std::memcpy(out_ + from, stage_ + (from - base_), (j - from) * sizeof(T)); }
    stream_fence();
  }

 private:
  T* out_;
  std::size_t first_;  // the chunk's first result row
  std::size_t base_;   // the result row of stage_[0]: a multiple of block_rows
  stream_mode mode_;
  alignas(64) T stage_[2 * block_rows];
};

/// A mask word that two chunks write (the one their results meet in): its index and the bits one
/// chunk puts in it, merged after the chunks have run. `index` is npos when there is none.
struct shared_word {
  static constexpr std::size_t npos = ~std::size_t{0};
  std::size_t index = npos;
  bitmask_word bits = 0;
};

/**
 * One chunk of a filter: its kept rows of `in` go to `out` from row `first[chunk]` on, and with
 * `out_words` their validity bits (`in_mask` at `in_offset`, or all valid) to the result's bits
 * from the same position. Words within the chunk's bits are written; the (at most two) words it
 * shares with its neighbours go to `edges[2 * chunk]` and `[2 * chunk + 1]`. Counts its valid
 * rows into valid[chunk]. Values are copied branchlessly (every row written, the cursor advanced
 * by its flag, stopping at the chunk's last kept row so as not to write its neighbour's first).
 */
template <class T>
struct compact_kernel {
  T const* in;
  bitmask_word const* in_mask;
  std::size_t in_offset;
  filter_flags flags;
  T* out;
  std::size_t const* first;  // chunks + 1 entries: each chunk's first result row, then the total
  bitmask_word* out_words;   // null: no validity wanted
  shared_word* edges;
  std::size_t* valid;
  bool avx512;         // runs_avx512() of the build that runs the kernel
  stream_mode stream;  // values staged and streamed or not (filter_sink)

  /// Whether the block of rows from `row` on may be compressed (compress_block()) to result row `j`:
  /// AVX-512, 4- or 8-byte rows, a whole block, and room for 64 rows before the chunk's end.
  [[nodiscard, gnu::always_inline]] bool compresses(std::size_t row, std::size_t end, std::size_t j,
                                                    std::size_t stop) const noexcept {
    return (sizeof(T) == 4 || sizeof(T) == 8) && avx512 && row + block_rows <= end && j + block_rows <= stop;
  }

  /// Copies the kept rows of the whole block from `row` to `to`, where result row `j` goes, and
  /// returns how many (compress_block() where compresses() holds, else one branchless row at a
  /// time). Writes up to `to[63]` either way.
  [[gnu::always_inline]] std::size_t copy_block(std::size_t row, bitmask_word kept, T* to, std::size_t j,
                                                std::size_t stop) const noexcept {
#  if DEVCOL_HOST_SIMD_DISPATCH
    if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
      // 16 or 8 rows per instruction: 8.5 -> 3.6 ms per 2^24 int32 rows (half kept) on one
      // AVX-512 core, 10.3 -> 6.7 ms for int64, in a standalone file.
      if (compresses(row, row + block_rows, j, stop)) { return compress_block(in + row, kept, to); }
    }
#  endif
    (void)j;
    (void)stop;
    std::size_t n = 0;
    for (std::size_t b = 0; b < block_rows; ++b) {
      to[n] = in[row + b];
      n += static_cast<std::size_t>((kept >> b) & 1U);
    }
    return n;
  }

  [[gnu::always_inline]] void operator()(std::size_t begin, std::size_t end, std::size_t chunk) const noexcept {
    std::size_t j = first[chunk];
    std::size_t const stop = first[chunk + 1];
    filter_sink<T> sink(out, j, stream);
    if (out_words == nullptr && flags.mask == nullptr) {  // the flags' bytes are the stencil
      std::size_t i = begin;
      for (; compresses(i, end, j, stop); i += block_rows) {
        j += copy_block(i, flags.word(i, block_rows), sink.at(j), j, stop);
        sink.drain(j);
      }
      while (i < end && j < stop) {  // a block of rows at a time, each followed by a drain
        std::size_t const block_end = end - i < block_rows ? end : i + block_rows;
        std::size_t const from = j;
        T* const to = sink.at(from);
        for (; i < block_end && j < stop; ++i) {
          to[j - from] = in[i];
          j += static_cast<std::size_t>(flags.keep[i]);
        }
        sink.drain(j);
      }
      sink.finish(j);
      return;
    }
    std::size_t const low = first[chunk];  // the chunk's result bits are [low, stop)
    std::size_t valid_rows = 0;
    bitmask_word current = 0;  // the bits of word j / 64 gathered so far
    auto emit = [&](std::size_t w, bitmask_word bits) {
      bool const shared = w * bits_per_word < low || (w + 1) * bits_per_word > stop;
      if (!shared) {
        out_words[w] = bits;
      } else {
        shared_word& edge = edges[2 * chunk + (w * bits_per_word < low ? 0 : 1)];
        edge.index = w;
        edge.bits = bits;
      }
    };
    for (std::size_t row = begin; row < end && j < stop; row += block_rows) {
      std::size_t const count = end - row < block_rows ? end - row : block_rows;
      bitmask_word const kept = flags.word(row, count);
      std::size_t const start = j;
      if (count == block_rows && start + static_cast<std::size_t>(std::popcount(kept)) < stop) {
        // A kept row of this chunk follows the block, so the block's writes (at most at the row
        // after its last kept one) stay in the chunk's result: no test per row. Testing the end
        // of the chunk at each row made this loop three times longer.
        j += copy_block(row, kept, sink.at(j), j, stop);
      } else {
        for (std::size_t b = 0; b < count && j < stop; ++b) {
          *sink.at(j) = in[row + b];
          j += static_cast<std::size_t>((kept >> b) & 1U);
        }
      }
      sink.drain(j);
      if (out_words == nullptr) { continue; }
      bitmask_word const in_valid = rows_word(in_mask, in_offset, row, count);
      bitmask_word bits = 0;
      auto const taken = static_cast<unsigned>(std::popcount(kept));
#  if DEVCOL_HOST_SIMD_DISPATCH
      if (avx512) {
        // One instruction for the kept rows' bits; the loop below takes two to three cycles per
        // kept row (filter of 2^24 int32 rows with 10% nulls, one AVX-512 core: 16.5 -> 9.7 ms).
        bits = pext(in_valid, kept);
      } else
#  endif
      {
        unsigned b = 0;
        for (bitmask_word rest = kept; rest != 0; rest &= rest - 1, ++b) {
          bits |= ((in_valid >> std::countr_zero(rest)) & 1U) << b;
        }
      }
      valid_rows += static_cast<std::size_t>(std::popcount(bits));
      auto const shift = static_cast<unsigned>(start % bits_per_word);
      current |= bits << shift;
      if (shift + taken >= bits_per_word) {
        emit(start / bits_per_word, current);
        current = shift == 0 ? 0 : bits >> (bits_per_word - shift);
      }
    }
    sink.finish(j);
    if (out_words != nullptr && j % bits_per_word != 0) { emit(j / bits_per_word, current); }
    valid[chunk] = valid_rows;
  }
};

/// A filter's plan: the chunks its passes split the rows into, and where each chunk's kept rows go.
struct filter_plan {
  std::size_t chunks = 1;
  std::vector<std::size_t> first;  // chunks + 1 entries; first.back(): the kept rows

  [[nodiscard]] std::size_t kept() const noexcept { return first.back(); }
};

/// Counts the kept rows of each chunk of [0, n) (one pass, OpenMP threads where there are several).
template <int = 0>
[[nodiscard]] filter_plan plan_filter(filter_flags flags, std::size_t n) {
  filter_plan plan;
  plan.chunks = chunk_count(n);
  plan.first.assign(plan.chunks + 1, 0);
  count_kept_kernel kernel{flags, plan.first.data() + 1};
  run_chunks(kernel, n, plan.chunks);
  for (std::size_t c = 0; c < plan.chunks; ++c) { plan.first[c + 1] += plan.first[c]; }
  return plan;
}

/**
 * Compacts the kept rows of `in` (its first `n` rows; validity at bit `in_offset` of `in_mask`,
 * or none) into `out` (plan.kept() rows) and, with `out_words`, their validity into it (row 0 at
 * bit 0; words past the kept rows zeroed up to `out_word_count`). Returns the valid rows written
 * (plan.kept() without `out_words`). The chunks of `plan`, on OpenMP threads where there are several.
 */
template <class T>
std::size_t compact(filter_plan const& plan, T const* in, bitmask_word const* in_mask, std::size_t in_offset,
                    filter_flags flags, std::size_t n, T* out, bitmask_word* out_words, std::size_t out_word_count) {
  std::vector<shared_word> edges(2 * plan.chunks);
  std::vector<std::size_t> valid(plan.chunks, 0);
  compact_kernel<T> kernel{in,           in_mask,
                           in_offset,    flags,
                           out,          plan.first.data(),
                           out_words,    edges.data(),
                           valid.data(), runs_avx512(active_simd_level()),
                           streams(out, plan.kept() * sizeof(T))};
  run_chunks(kernel, n, plan.chunks);
  if (out_words == nullptr) { return plan.kept(); }
  for (auto const& edge : edges) {  // words two chunks share: cleared, then each chunk's bits added
    if (edge.index != shared_word::npos) { out_words[edge.index] = 0; }
  }
  for (auto const& edge : edges) {
    if (edge.index != shared_word::npos) { out_words[edge.index] |= edge.bits; }
  }
  for (std::size_t w = (plan.kept() + bits_per_word - 1) / bits_per_word; w < out_word_count; ++w) { out_words[w] = 0; }
  std::size_t total = 0;
  for (auto const v : valid) { total += v; }
  return total;
}

}  // namespace detail::host
DEVCOL_NAMESPACE_END
#endif
