/**
 * @file offsets.hpp
 * @brief The content check of untrusted Arrow offsets (utf8, large utf8, lists), shared by every
 * variable-width importer: one kernel and one copy to the host, before the offsets are adopted.
 */
#pragma once

#include <devcol/column/detail/execution.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

#include <thrust/iterator/counting_iterator.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// What one pass learns of an offsets buffer: its first and last values, and the first place
/// where it decreases (`bad` is none when nowhere), with the two values there.
struct offsets_summary {
  static constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::int64_t first;
  std::int64_t last;
  std::size_t bad;
  std::int64_t before;
  std::int64_t after;
};

/// Offset `i`'s part of the summary: the value if it is the first or the last (else 0: the parts
/// add up), and whether it is greater than the next one.
template <class O>
struct summarise_offset {
  O const* offsets;
  std::size_t count;
  DEVCOL_HOST_DEVICE offsets_summary operator()(std::size_t i) const noexcept {
    std::int64_t const here = offsets[i];
    offsets_summary s{i == 0 ? here : 0, i + 1 == count ? here : 0, offsets_summary::none, 0, 0};
    if (i + 1 < count) {
      std::int64_t const next = offsets[i + 1];
      if (here > next) { s = {s.first, s.last, i, here, next}; }
    }
    return s;
  }
};

/// Combines two summaries: first and last add up (each comes from one offset only), the earliest
/// decrease wins. Associative and commutative, as a parallel reduction needs.
struct combine_summaries {
  DEVCOL_HOST_DEVICE offsets_summary operator()(offsets_summary const& a, offsets_summary const& b) const noexcept {
    offsets_summary const& bad = a.bad <= b.bad ? a : b;
    return {a.first + b.first, a.last + b.last, bad.bad, bad.before, bad.after};
  }
};

/**
 * @brief Checks `count` (>= 1) untrusted offsets at `offsets` (device memory readable by this
 * backend: the array's first row's offset onward) and returns the first and last: the first is not
 * negative, none decreases, and the last is within `data_size` bytes (or elements) when the size is
 * known — the C Data Interface does not state buffer sizes, so importers pass none and the data
 * buffer is taken to be `last` long. `path` names the array in messages ("array",
 * "array.children[0]"); `first_row` is the array's offset, so that messages name the offset's index
 * in the producer's buffer.
 *
 * Cost: one transform-reduce over the offsets (one kernel) whose result comes back to the host in
 * one copy: synchronises `stream`.
 * @throws devcol::arrow_error naming the buffer, the index and the value
 */
template <class O>
std::pair<std::int64_t, std::int64_t> check_offsets(O const* offsets, std::size_t count, std::size_t first_row,
                                                    std::optional<std::size_t> data_size, std::string const& path,
                                                    stream_ref stream) {
  executor exec(stream);
  offsets_summary const s =
      transform_reduce_n(exec, thrust::counting_iterator<std::size_t>(0), count, summarise_offset<O>{offsets, count},
                         offsets_summary{0, 0, offsets_summary::none, 0, 0}, combine_summaries{});
  DEVCOL_ARROW_EXPECTS(s.first >= 0, path, ".buffers[1] (offsets): offset ", first_row, " (the first row's) is ", s.first,
                       ", negative");
  DEVCOL_ARROW_EXPECTS(s.bad == offsets_summary::none, path, ".buffers[1] (offsets) decrease: offset ",
                       first_row + s.bad, " is ", s.before, ", offset ", first_row + s.bad + 1, " is ", s.after);
  DEVCOL_ARROW_EXPECTS(!data_size || static_cast<std::uint64_t>(s.last) <= *data_size, path,
                       ".buffers[1] (offsets): the last offset ", s.last, " is past the ", data_size.value_or(0),
                       " elements of the data buffer");
  return {s.first, s.last};
}

}  // namespace detail
DEVCOL_NAMESPACE_END
