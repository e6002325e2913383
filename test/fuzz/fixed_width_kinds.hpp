// The fixed-width kinds of any_column, which come first in it: the kinds the harness builds by type.
#pragma once

#include <devcol/column/any_column.hpp>

#include <cstddef>

namespace devcol_fuzz {

template <std::size_t I = 0>
constexpr std::size_t leading_plain_columns() {
  if constexpr (I < devcol::any_column_kind_count<>) {
    if constexpr (devcol::detail::is_plain_column<devcol::any_column_kind_t<I>>) {
      return leading_plain_columns<I + 1>();
    } else {
      return I;
    }
  } else {
    return I;
  }
}

/// How many fixed-width kinds any_column starts with (the other kinds follow them).
inline constexpr std::size_t fixed_width_kinds = leading_plain_columns();
static_assert(fixed_width_kinds >= 19, "any_column lists the fixed-width kinds first");

}  // namespace devcol_fuzz
