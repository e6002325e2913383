/**
 * @file masks.hpp
 * @brief Validity masks for every column kind: a mask from a validity functor, the mask of a
 * concatenation, and a column's validity read through its mask (`validity_of`, `mask_flags`, which
 * is_null and is_valid of every kind are). Buffers of any policy.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/fwd.hpp>
#include <devcol/column/kind.hpp>
#include <devcol/column/validity_view.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/host_range.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/resource.hpp>
#include <devcol/ops/detail/validity.hpp>

#include <thrust/fill.h>
#include <thrust/iterator/counting_iterator.h>

#include <cstddef>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/**
 * @brief A mask of `rows` bits at bit 0 holding `valid(row)` (a device functor of `std::size_t`),
 * from `resource`, and its null count: one pass over the mask words to write them, one to count
 * (which synchronises `stream`). No nulls: an empty buffer (no mask) and 0.
 */
template <class Buffer, class Valid>
[[nodiscard]] std::pair<Buffer, std::size_t> build_mask(Valid valid, std::size_t rows,
                                                        typename Buffer::resource_type resource, stream_ref stream) {
  Buffer mask = pack_bits<Buffer>(valid, 0, rows, std::move(resource), stream);
  std::size_t const nulls = count_unset_bits(static_cast<bitmask_word const*>(mask.data(access::read)), 0, rows, stream);
  if (nulls == 0) { return {Buffer{}, 0}; }
  return {std::move(mask), nulls};
}

/// One input of a concatenation, as the mask kernel sees it.
struct concatenated_input {
  bitmask_word const* mask;  // null without nulls
  std::size_t offset;        // the mask bit of its row 0
  std::size_t first;         // its first row in the result
};

/// Row `r` of a concatenation: which input holds it (binary search of the inputs' first rows), and its validity.
struct concatenated_valid {
  concatenated_input const* inputs;  // ascending by first
  std::size_t count;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t r) const noexcept {
    std::size_t lo = 0;
    std::size_t hi = count;
    while (hi - lo > 1) {
      std::size_t const mid = (lo + hi) / 2;
      if (inputs[mid].first <= r) { lo = mid; } else { hi = mid; }
    }
    concatenated_input const& in = inputs[lo];
    return in.mask == nullptr || bit_is_set(in.mask, in.offset + (r - in.first));
  }
};

/**
 * @brief The mask of `rows` concatenated rows at bit 0, from `resource`: the inputs' index is
 * copied to the device (scratch from `resource`) and one pass writes the mask words, then `stream`
 * is synchronised (the host index must outlive its copy). The null count is the caller's (the
 * inputs' sum): nothing is recounted.
 */
template <class Buffer>
[[nodiscard]] Buffer concatenated_mask(std::vector<concatenated_input> const& inputs, std::size_t rows,
                                       typename Buffer::resource_type const& resource, stream_ref stream) {
  std::size_t const index_bytes = inputs.size() * sizeof(concatenated_input);
  Buffer index(index_bytes, stream, mr::default_alignment, resource);
  auto* device_inputs = static_cast<concatenated_input*>(index.data(access::write, stream));
  copy_bytes(device_inputs, inputs.data(), index_bytes, stream);
  Buffer mask = pack_bits<Buffer>(concatenated_valid{device_inputs, inputs.size()}, 0, rows, resource, stream);
  stream.synchronize();  // the host index must outlive the copy queued above
  return mask;
}

/**
 * The mask of the concatenation of `cols` (any column kind with has_nulls(), null_mask(), offset(),
 * size() and a buffer_type), `rows` rows in all, from `resource`: as above, with each input's entry
 * taken from the column.
 */
template <detail::host_sized_range Columns, class Resource>
[[nodiscard]] auto concatenated_mask(Columns const& cols, std::size_t rows, Resource const& resource, stream_ref stream) {
  using buffer_type = typename detail::host_range_value_t<Columns>::buffer_type;
  std::vector<concatenated_input> inputs;
  inputs.reserve(std::ranges::size(cols));
  std::size_t first = 0;
  for (auto const& c : cols) {
    inputs.push_back({c.has_nulls() ? c.null_mask(access::read) : nullptr, c.offset(), first});
    first += c.size();
  }
  return concatenated_mask<buffer_type>(inputs, rows, resource, stream);
}

/// The validity of any column kind's rows, without its mask when no row is null (so kernels skip
/// the bit reads). O(1); reads no bit.
template <class C>
validity_view validity_of(C const& col) {
  return {col.size(), col.has_nulls() ? col.null_mask(access::read) : nullptr, col.offset(), col.null_count()};
}

/**
 * @brief A bool column without a mask, true where a row of rows [first, first + rows) of `col` is
 * null (or, with `null` false, valid), for any column kind with has_nulls(), null_mask(), offset(),
 * size(), resource() and a `policy`, or a null column (every row null: a fill): one pass over those
 * rows' mask bits (none without nulls), in order on `stream`, no synchronisation. The result comes
 * from `col`'s resource. The window lets a sparse union read its children's rows, not the whole.
 */
template <class C>
column<bool, typename C::policy> mask_flags(C const& col, bool null, stream_ref stream, std::size_t first,
                                            std::size_t rows) {
  column<bool, typename C::policy> out(rows, stream, mask_state::unallocated, col.resource());
  executor exec(stream);
  bool* const flags = out.data(access::write, stream);
  if constexpr (kind_of<C> == kind::null) {  // every row null, without a mask to read
    thrust::fill(exec.policy(), flags, flags + rows, null);
  } else {
    bitmask_word const* const mask = col.has_nulls() ? col.null_mask(access::read) : nullptr;
    detail::tabulate(exec, rows, flags, mask_flag{mask, col.offset() + first, null});
  }
  return out;
}

// The kinds whose flags are other columns' flags read through them (logical nulls, as Arrow
// compute's is_null gives), each defined in ops/detail/null_mask/<kind>.hpp. Declared here, before
// any of them is defined, so that each finds the others among its values or children: a union of
// dictionaries, a run-end encoded column of unions, a dictionary of run-end encoded values.
template <class Policy>
column<bool, Policy> mask_flags(dictionary_column<Policy> const& col, bool null, stream_ref stream, std::size_t first,
                                std::size_t rows);
template <class Policy>
column<bool, Policy> mask_flags(run_end_encoded_column<Policy> const& col, bool null, stream_ref stream,
                                std::size_t first, std::size_t rows);
template <class Policy>
column<bool, Policy> mask_flags(union_column<Policy> const& col, bool null, stream_ref stream, std::size_t first,
                                std::size_t rows);

/// The flags of all of `col`'s rows (see the overloads above, the window being every row).
template <class C>
column<bool, typename C::policy> mask_flags(C const& col, bool null, stream_ref stream) {
  return mask_flags(col, null, stream, 0, col.size());
}

}  // namespace detail
DEVCOL_NAMESPACE_END
