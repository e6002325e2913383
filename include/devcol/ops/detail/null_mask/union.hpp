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

/// Row `i`'s flag: its selected child's flag at row `i` (sparse: the children's flags are of the
/// rows read) or `offsets[i]` (dense: of the whole children).
struct union_flag {
  std::int8_t const* ids;
  std::int32_t const* offsets;  // null for a sparse union
  union_flags_table table;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept {
    std::int8_t const id = ids[i];
    int const k = id < 0 ? -1 : static_cast<int>(table.child_of[static_cast<std::uint8_t>(id)]);
    if (k < 0) { return false; }  // not reached for a checked union
    std::size_t const row = offsets != nullptr ? static_cast<std::size_t>(offsets[i]) : i;
    return table.flags[k][row];
  }
};

/**
 * The flags of rows [first, first + rows) of a union column (true where a row is null, or with
 * `null` false valid): each child's flags (its kind's), then one pass over the rows reading each
 * row's child. A sparse union's children are read on those rows only, so a short slice of a long
 * union costs its own rows; a dense union's offsets may name any row, so each child is read whole.
 * No synchronisation; scratch and result from `col`'s resource. More specialised than the generic
 * mask_flags, so is_null and is_valid pick it.
 */
template <class Policy>
column<bool, Policy> mask_flags(union_column<Policy> const& col, bool null, stream_ref stream, std::size_t first,
                                std::size_t rows) {
  bool const sparse = col.mode() == union_mode::sparse;
  std::vector<column<bool, Policy>> child_flags;
  for (auto const& c : col.children()) {
    child_flags.push_back(devcol::visit(
        [&](auto const& k) {
          return sparse ? detail::mask_flags(k, null, stream, col.offset() + first, rows)
                        : detail::mask_flags(k, null, stream);
        },
        c));
  }
  column<bool, Policy> out(rows, stream, mask_state::unallocated, col.resource());
  if (rows == 0) { return out; }
  union_flags_table lookup{};
  auto const codes = col.children_table();
  for (std::size_t c = 0; c < max_union_children; ++c) { lookup.child_of[c] = codes.child_of[c]; }
  for (std::size_t k = 0; k < child_flags.size(); ++k) { lookup.flags[k] = child_flags[k].data(access::read); }
  executor exec(stream);
  std::int32_t const* const offsets = col.offsets(access::read);
  detail::tabulate(exec, rows, out.data(access::write, stream),
                   union_flag{col.type_ids(access::read) + first, offsets != nullptr ? offsets + first : nullptr, lookup});
  return out;
}

}  // namespace detail
DEVCOL_NAMESPACE_END
