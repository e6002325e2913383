/**
 * @file dictionary.hpp
 * @brief is_null and is_valid of dictionary columns: logical nulls, a row null where its index is
 * or where the value it names is, as Arrow compute's is_null gives. Users include
 * devcol/ops/null_mask.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/masks.hpp>

#include <cstddef>
#include <variant>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Row `i`'s flag: `null` where its index is null (whose value is never read: a null index may
/// hold anything), else the flag of the value its index names.
template <class I>
struct dictionary_flag {
  I const* indices;    // from the first row read
  mask_flag valid;     // true where an index is valid (its `null` false)
  bool const* value_flags;
  bool null;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept {
    return valid(i) ? value_flags[static_cast<std::size_t>(indices[i])] : null;
  }
};

/**
 * The flags of rows [first, first + rows) of a dictionary column (true where a row is null, or
 * with `null` false valid): the values' flags (their kind's, one pass over the dictionary), then one
 * pass over the rows reading each valid row's value. A row whose value is null is null here, though
 * the column's null_count() counts null indices only, as Arrow's does. No synchronisation; scratch
 * and result from `col`'s resource. More specialised than the generic mask_flags, so is_null and
 * is_valid pick it.
 */
template <class Policy>
column<bool, Policy> mask_flags(dictionary_column<Policy> const& col, bool null, stream_ref stream, std::size_t first,
                                std::size_t rows) {
  auto const value_flags = devcol::visit([&](auto const& v) { return detail::mask_flags(v, null, stream); }, col.values());
  column<bool, Policy> out(rows, stream, mask_state::unallocated, col.resource());
  if (rows == 0) { return out; }
  col.visit_indices([&]<class I>(column<I, Policy> const& indices) {
    executor exec(stream);
    mask_flag const valid{indices.has_nulls() ? indices.null_mask(access::read) : nullptr, indices.offset() + first, false};
    detail::tabulate(exec, rows, out.data(access::write, stream),
                     dictionary_flag<I>{indices.data(access::read) + first, valid, value_flags.data(access::read), null});
  });
  return out;
}

}  // namespace detail
DEVCOL_NAMESPACE_END
