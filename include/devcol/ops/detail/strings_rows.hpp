/**
 * @file strings_rows.hpp
 * @brief What the strings ops share: a fixed-width column computed from each row of a strings column.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/detail/rows.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

#include <thrust/iterator/counting_iterator.h>

#include <cstddef>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/**
 * @brief `f(i)` for each row `i` of `col` (a device functor of `std::size_t`) as a new
 * `column<R>` from `col`'s resource: one pass, in order on `stream`. With `keep_nulls`, null where
 * `col` is null (its mask bits copied, one pass over them; the null count is `col`'s, no recount,
 * no synchronisation); else no mask.
 */
template <fixed_width R, arrow_offset O, class Policy, encoding E, class F>
[[nodiscard]] column<R, Policy> rows_to(basic_strings_column<O, Policy, E> const& col, F f, bool keep_nulls,
                                        stream_ref stream) {
  column<R, Policy> out(col.size(), stream, mask_state::unallocated, col.resource());
  executor exec(stream);
  detail::tabulate(exec, col.size(), out.data(access::write, stream), f);
  if (keep_nulls && col.has_nulls()) {
    out.replace_null_mask(copy_mask_bits(col.mask_buffer(), col.offset(), col.offset() + col.size(), stream),
                          col.null_count());
  }
  return out;
}

}  // namespace detail
DEVCOL_NAMESPACE_END
