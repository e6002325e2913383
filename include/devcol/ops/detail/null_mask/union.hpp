/**
 * @file union.hpp
 * @brief is_null and is_valid of union columns: logical nulls, each row's flag read from its
 * selected child's row (a union has no validity of its own), as Arrow compute's is_null gives for
 * unions. A child's flag is its own logical one at any depth (a dictionary child's row is null where
 * the value it names is), where Arrow C++ 26 reads a nested dictionary's indices alone. Users include
 * devcol/ops/null_mask.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/masks.hpp>

#include <thrust/iterator/counting_iterator.h>

#include <cstddef>
#include <cstdint>
#include <variant>
#include <vector>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Each child's flags, by child, and each type code's child: what a union row's flag is read from.
struct union_flags_table {
  bool const* flags[max_union_children];
  std::int8_t child_of[max_union_children];
};

/// Row `i`'s flag: its selected child's flag at row `offset + i` (sparse) or `offsets[i]` (dense).
struct union_flag {
  std::int8_t const* ids;
  std::int32_t const* offsets;  // null for a sparse union
  std::size_t offset;
  union_flags_table table;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept {
    std::int8_t const id = ids[i];
    int const k = id < 0 ? -1 : static_cast<int>(table.child_of[static_cast<std::uint8_t>(id)]);
    if (k < 0) { return false; }  // not reached for a checked union
    std::size_t const row = offsets != nullptr ? static_cast<std::size_t>(offsets[i]) : offset + i;
    return table.flags[k][row];
  }
};

/**
 * The flags of a union column (true where a row is null, or with `null` false valid): each child's
 * flags (its kind's, one pass over the whole child), then one pass over the rows reading each
 * row's child. No synchronisation; scratch and result from `col`'s resource. More specialised than
 * the generic mask_flags, so is_null and is_valid pick it.
 */
template <class Policy>
column<bool, Policy> mask_flags(union_column<Policy> const& col, bool null, stream_ref stream) {
  std::vector<column<bool, Policy>> child_flags;
  for (auto const& c : col.children()) {
    child_flags.push_back(devcol::visit([&](auto const& k) { return detail::mask_flags(k, null, stream); }, c));
  }
  column<bool, Policy> out(col.size(), stream, mask_state::unallocated, col.resource());
  if (col.size() == 0) { return out; }
  union_flags_table lookup{};
  auto const codes = col.children_table();
  for (std::size_t c = 0; c < max_union_children; ++c) { lookup.child_of[c] = codes.child_of[c]; }
  for (std::size_t k = 0; k < child_flags.size(); ++k) { lookup.flags[k] = child_flags[k].data(access::read); }
  executor exec(stream);
  detail::tabulate(exec, col.size(), out.data(access::write, stream),
                   union_flag{col.type_ids(access::read), col.offsets(access::read), col.offset(), lookup});
  return out;
}

}  // namespace detail
DEVCOL_NAMESPACE_END
