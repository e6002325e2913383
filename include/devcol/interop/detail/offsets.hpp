/**
 * @file offsets.hpp
 * @brief The content check of untrusted Arrow offsets (utf8, large utf8, lists), shared by every
 * variable-width importer before it adopts the offsets.
 */
#pragma once

#include <devcol/column/detail/increasing.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/**
 * @brief Checks `count` (>= 1) untrusted offsets at `offsets` (device memory readable by this
 * backend: the array's first row's offset onward) and returns the first and last: the first is not
 * negative, none decreases, and the last is within `data_size` bytes (or elements) when the size is
 * known — the C Data Interface does not state buffer sizes, so importers pass none and the data
 * buffer is taken to be `last` long. `path` names the array in messages ("array",
 * "array.children[0]"); `first_row` is the array's offset, so that messages name the offset's index
 * in the producer's buffer; `bound` says what `data_size` counts (a list's offsets count its
 * child's rows, not a data buffer's elements).
 *
 * Cost: summarise_increasing(): one kernel, and copies to the host behind one synchronisation of
 * `stream`.
 * @throws devcol::arrow_error naming the buffer, the index and the value
 */
template <class O>
std::pair<std::int64_t, std::int64_t> check_offsets(O const* offsets, std::size_t count, std::size_t first_row,
                                                    std::optional<std::size_t> data_size, std::string const& path,
                                                    stream_ref stream,
                                                    std::string_view bound = "elements of the data buffer") {
  increasing_summary const s = summarise_increasing(offsets, count, false, stream);
  DEVCOL_ARROW_EXPECTS(s.first >= 0, path, ".buffers[1] (offsets): offset ", first_row, " (the first row's) is ", s.first,
                       ", negative");
  DEVCOL_ARROW_EXPECTS(s.bad == increasing_summary::none, path, ".buffers[1] (offsets) decrease: offset ",
                       first_row + s.bad, " is ", s.here, ", offset ", first_row + s.bad + 1, " is ", s.next);
  DEVCOL_ARROW_EXPECTS(!data_size || static_cast<std::uint64_t>(s.last) <= *data_size, path,
                       ".buffers[1] (offsets): the last offset ", s.last, " is past the ", data_size.value_or(0), " ",
                       bound);
  return {s.first, s.last};
}

}  // namespace detail
DEVCOL_NAMESPACE_END
