/**
 * @file union.hpp
 * @brief concatenate of union columns, the union type kept: the type ids concatenated; a sparse
 * union's rows of each child concatenated; a dense union's children concatenated whole, each later
 * input's offsets moved by the rows of its child in the inputs before it. Users include
 * devcol/ops/concatenate.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/resource.hpp>
#include <devcol/ops/detail/concatenate/nested.hpp>

#include <thrust/iterator/counting_iterator.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// A dense union row's offset moved by the rows its child has in the inputs before this one.
struct shift_union_offset {
  std::int8_t const* ids;
  std::int32_t const* offsets;
  union_children_table table;  // rows[k]: child k's shift
  DEVCOL_HOST_DEVICE std::int32_t operator()(std::size_t i) const noexcept {
    int const k = union_child_of(table, ids[i]);
    return static_cast<std::int32_t>(offsets[i] + (k < 0 ? 0 : table.rows[k]));
  }
};

}  // namespace detail

/**
 * @brief The rows of every union input, one after the other, a union of the same type: the type ids
 * copied into one new buffer (one copy per input, from the first input's resource); a sparse
 * union's rows of each child concatenated by that child's kind; a dense union's children
 * concatenated whole by their kinds and each input's offsets moved by the rows of its child in
 * the earlier inputs (one pass per input). Synchronises `stream` where the children's concatenation does.
 * @tparam Policy the buffer policy of the inputs and of the result
 * @param cols the inputs, in order
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both types when the inputs' union types differ (mode, type
 * codes, names or children's types), or when a dense child's rows do not fit int32 offsets
 */
template <class Policy>
[[nodiscard]] union_column<Policy> concatenate(std::span<union_column<Policy> const> cols, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (cols.empty()) { return {}; }
  detail::expect_same_types(cols, "concatenate");
  using buffer_type = typename union_column<Policy>::buffer_type;
  auto const& first = cols.front();
  bool const dense = first.mode() == union_mode::dense;
  std::size_t rows = 0;
  for (auto const& c : cols) { rows += c.size(); }
  buffer_type ids;
  buffer_type offsets;
  if (rows != 0) {
    ids = buffer_type(rows, stream, mr::default_alignment, first.resource());
    if (dense) { offsets = buffer_type(rows * sizeof(std::int32_t), stream, mr::default_alignment, first.resource()); }
  }
  std::vector<std::int64_t> shift(first.num_children(), 0);
  std::size_t at = 0;
  for (auto const& c : cols) {
    if (c.size() != 0) {
      auto* const out_ids = static_cast<std::int8_t*>(ids.data(access::write, stream)) + at;
      copy_bytes(out_ids, c.type_ids(access::read), c.size(), stream);
      if (dense) {
        detail::executor exec(stream);
        detail::tabulate(exec, c.size(), static_cast<std::int32_t*>(offsets.data(access::write, stream)) + at,
                         detail::shift_union_offset{c.type_ids(access::read), c.offsets(access::read),
                                                    detail::make_union_table(c.type_codes(), shift)});
      }
    }
    for (std::size_t k = 0; dense && k < shift.size(); ++k) {
      shift[k] += static_cast<std::int64_t>(devcol::size(c.child(k)));
      DEVCOL_EXPECTS(shift[k] <= std::numeric_limits<std::int32_t>::max(), "concatenate: child '", c.name(k), "' has ",
                     shift[k], " rows in all, past a dense union's int32 offsets");
    }
    at += c.size();
  }
  std::vector<any_column<Policy>> children;
  for (std::size_t k = 0; k < first.num_children(); ++k) {
    std::vector<any_column<Policy>> parts;
    for (auto const& c : cols) {
      parts.push_back(dense ? c.child(k) : devcol::slice(c.child(k), c.offset(), c.offset() + c.size(), stream));
    }
    children.push_back(devcol::concatenate(std::span<any_column<Policy> const>(parts), stream));
  }
  return union_column<Policy>(first.mode(), first.type_codes(), first.names(), std::move(children), std::move(ids),
                              std::move(offsets), rows);
}

DEVCOL_NAMESPACE_END
