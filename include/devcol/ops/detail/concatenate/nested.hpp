/**
 * @file nested.hpp
 * @brief concatenate of list, struct and dictionary columns. Their children are concatenated by
 * the concatenate of `any_column` (declared here, defined in devcol/ops/concatenate.hpp). Users
 * include devcol/ops/concatenate.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/detail/rows.hpp>
#include <devcol/column/validity_view.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/concatenate/fixed_width.hpp>
#include <devcol/ops/detail/masks.hpp>
#include <devcol/ops/detail/offsets.hpp>
#include <devcol/ops/detail/validity.hpp>

#include <thrust/fill.h>
#include <thrust/iterator/counting_iterator.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

template <buffer_policy Policy>
[[nodiscard]] any_column<Policy> concatenate(std::span<any_column<Policy> const> cols, stream_ref stream = {});

namespace detail {

/// The concatenated masks of `inputs`, `nulls` in all, from `resource` (none when `nulls` is 0):
/// concatenated_mask (one pass over the result's words, then `stream` is synchronised).
template <class Policy>
buffer<Policy> concatenate_masks(std::vector<concatenated_input> const& inputs, std::size_t rows, std::size_t nulls,
                                 typename buffer<Policy>::resource_type const& resource, stream_ref stream) {
  if (nulls == 0) { return {}; }
  return concatenated_mask<buffer<Policy>>(inputs, rows, resource, stream);
}

/// Throws naming both types unless every input has the first's type.
template <class C>
void expect_same_types(std::span<C const> cols, char const* op) {
  for (std::size_t i = 1; i < cols.size(); ++i) {
    DEVCOL_EXPECTS(devcol::type_name(cols[i]) == devcol::type_name(cols[0]), op, ": input ", i, " is ",
                   devcol::type_name(cols[i]), ", input 0 ", devcol::type_name(cols[0]));
  }
}

/// The rows of list or struct inputs to concatenate: each input's mask entry and first row (for
/// concatenate_masks), and the totals.
struct concatenated_rows {
  std::vector<concatenated_input> masks;
  std::size_t rows = 0;
  std::size_t nulls = 0;
};

/// The rows of `cols`, once every input is checked to have the first's type (else a
/// devcol::logic_error naming both).
template <class C>
concatenated_rows rows_to_concatenate(std::span<C const> cols) {
  expect_same_types(cols, "concatenate");
  concatenated_rows out;
  for (auto const& c : cols) {
    out.masks.push_back({c.has_nulls() ? c.null_mask(access::read) : nullptr, c.offset(), out.rows});
    out.rows = add_rows("concatenate", out.rows, c.size());
    out.nulls += c.null_count();
  }
  return out;
}

/// A dictionary index moved past the values of earlier inputs. In unsigned arithmetic: a null
/// row's slot holds any value, and a signed overflow there would be undefined behaviour (valid
/// indices stay below the type's maximum, checked by the caller; a null slot's value is never read).
template <class I>
struct moved_index {
  I base;
  DEVCOL_HOST_DEVICE I operator()(I i) const noexcept {
    using U = std::make_unsigned_t<I>;
    return static_cast<I>(static_cast<U>(static_cast<U>(i) + static_cast<U>(base)));
  }
};

}  // namespace detail

/**
 * @brief The lists of every input, one after the other: each input's child rows [first, last)
 * (two offsets read per input: a synchronisation each), the children concatenated by their kind,
 * the offsets moved (one pass per input), and with nulls the masks (see concatenate of columns).
 * @tparam O the offset type: `std::int32_t` (strings, list) or `std::int64_t` (large_strings, large_list)
 * @tparam Policy the buffer policy of the input and of the result
 * @param cols the inputs, in order
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both types when the children's types differ, or a map meets a
 * list (a map's result is a map)
 */
template <arrow_offset O, class Policy>
[[nodiscard]] basic_list_column<O, Policy> concatenate(std::span<basic_list_column<O, Policy> const> cols,
                                                       stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (cols.empty()) { return {}; }
  for (auto const& c : cols) {  // a map and a list of the same structs are two types
    DEVCOL_EXPECTS(c.is_map() == cols.front().is_map(), "concatenate: a ", c.type_name(), " column after a ",
                   cols.front().type_name(), " column");
  }
  auto const [inputs, rows, nulls] = detail::rows_to_concatenate(cols);
  std::vector<any_column<Policy>> children;
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  for (auto const& c : cols) {
    ranges.push_back(c.child_range(stream));
    children.push_back(devcol::slice(c.child(), ranges.back().first, ranges.back().second, stream));
  }
  auto child = devcol::concatenate(std::span<any_column<Policy> const>(children), stream);
  auto const resource = cols.front().resource();
  buffer<Policy> offsets((rows + 1) * sizeof(O), stream, mr::default_alignment, resource);
  auto* out = static_cast<O*>(offsets.data(access::write, stream));
  detail::executor exec(stream);
  thrust::fill(exec.policy(), out, out + 1, O{0});
  std::size_t row = 0;
  std::size_t base = 0;
  for (std::size_t k = 0; k < cols.size(); ++k) {
    auto const& c = cols[k];
    if (c.size() == 0) { continue; }
    O const* in = c.offsets(access::read);
    DEVCOL_EXPECTS(base + (ranges[k].second - ranges[k].first) <= static_cast<std::size_t>(std::numeric_limits<O>::max()),
                   "concatenate: ", base + (ranges[k].second - ranges[k].first), " child rows overflow ", sizeof(O) * 8,
                   "-bit offsets");
    detail::transform_n(exec, in, c.size() + 1, out + row,
                        detail::moved_offset<O>{static_cast<O>(ranges[k].first), static_cast<O>(base)});
    row += c.size();
    base += ranges[k].second - ranges[k].first;
  }
  auto mask = detail::concatenate_masks<Policy>(inputs, rows, nulls, resource, stream);
  return basic_list_column<O, Policy>(std::move(offsets), std::move(child), std::move(mask), rows, nulls)
      .as_map(cols.front().is_map());
}

namespace detail {
/// A list view's row `i` in a concatenation: its offset moved by `base` (the child rows of the
/// inputs before it), or its size, where the row is valid; 0 for a null row (whose values Arrow
/// leaves unspecified, so they are never moved).
template <arrow_offset O>
struct view_moved_value {
  O const* values;
  validity_view rows;
  O base;
  DEVCOL_HOST_DEVICE O operator()(std::size_t i) const noexcept { return rows.is_valid(i) ? values[i] + base : O{0}; }
};
}  // namespace detail

/**
 * @brief The list views of every input, one after the other: the children concatenated whole by
 * their kind (views may name any child row), each input's offsets moved by the child rows before it
 * and its sizes kept (a pass each per input), and with nulls the masks (see concatenate of columns).
 * @tparam O the offset and size type
 * @tparam Policy the buffer policy of the input and of the result
 * @param cols the inputs, in order
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both types when the children's types differ, or naming the
 * count when the children's rows overflow `O`
 */
template <arrow_offset O, class Policy>
[[nodiscard]] basic_list_view_column<O, Policy> concatenate(std::span<basic_list_view_column<O, Policy> const> cols,
                                                            stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (cols.empty()) { return {}; }
  auto const [inputs, rows, nulls] = detail::rows_to_concatenate(cols);
  std::vector<any_column<Policy>> children;
  for (auto const& c : cols) { children.push_back(c.child()); }
  auto child = devcol::concatenate(std::span<any_column<Policy> const>(children), stream);
  auto const resource = cols.front().resource();
  buffer<Policy> offsets(rows * sizeof(O), stream, mr::default_alignment, resource);
  buffer<Policy> sizes(rows * sizeof(O), stream, mr::default_alignment, resource);
  detail::executor exec(stream);
  std::size_t row = 0;
  std::size_t base = 0;
  for (auto const& c : cols) {
    std::size_t const child_rows = devcol::size(c.child());
    DEVCOL_EXPECTS(base + child_rows <= static_cast<std::size_t>(std::numeric_limits<O>::max()), "concatenate: ",
                   base + child_rows, " child rows overflow ", sizeof(O) * 8, "-bit offsets");
    if (c.size() != 0) {
      detail::tabulate(
          exec, c.size(), static_cast<O*>(offsets.data(access::write, stream)) + row,
          detail::view_moved_value<O>{c.offsets(access::read), detail::validity_of(c), static_cast<O>(base)});
      detail::tabulate(exec, c.size(), static_cast<O*>(sizes.data(access::write, stream)) + row,
                       detail::view_moved_value<O>{c.sizes(access::read), detail::validity_of(c), O{0}});
    }
    row += c.size();
    base += child_rows;
  }
  auto mask = detail::concatenate_masks<Policy>(inputs, rows, nulls, resource, stream);
  return basic_list_view_column<O, Policy>(std::move(offsets), std::move(sizes), std::move(child), std::move(mask),
                                           rows, nulls);
}

/**
 * @brief The fixed-size lists of every input, one after the other: each input's child rows
 * (known without a read: offset and size times the list size) concatenated by the child's kind,
 * and with nulls the masks (see concatenate of columns).
 * @tparam Policy the buffer policy of the input and of the result
 * @param cols the inputs, in order
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both types when the list sizes or children's types differ
 */
template <class Policy>
[[nodiscard]] fixed_size_list_column<Policy> concatenate(std::span<fixed_size_list_column<Policy> const> cols,
                                                         stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (cols.empty()) { return {}; }
  auto const [inputs, rows, nulls] = detail::rows_to_concatenate(cols);
  std::vector<any_column<Policy>> children;
  for (auto const& c : cols) {
    auto const [first, last] = c.child_range();
    children.push_back(devcol::slice(c.child(), first, last, stream));
  }
  auto child = devcol::concatenate(std::span<any_column<Policy> const>(children), stream);
  auto mask = detail::concatenate_masks<Policy>(inputs, rows, nulls, cols.front().resource(), stream);
  return fixed_size_list_column<Policy>(cols.front().list_size(), std::move(child), std::move(mask), rows, nulls);
}

/**
 * @brief The rows of every struct input, one after the other: each field concatenated by its kind
 * from the inputs' rows of it, and with nulls the masks (see concatenate of columns).
 * @tparam Policy the buffer policy of the input and of the result
 * @param cols the inputs, in order
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both types when field names or types differ
 */
template <class Policy>
[[nodiscard]] struct_column<Policy> concatenate(std::span<struct_column<Policy> const> cols, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (cols.empty()) { return {}; }
  auto const [inputs, rows, nulls] = detail::rows_to_concatenate(cols);
  std::vector<any_column<Policy>> children;
  for (std::size_t f = 0; f < cols.front().num_children(); ++f) {
    std::vector<any_column<Policy>> parts;
    for (auto const& c : cols) { parts.push_back(c.field(f, stream)); }
    children.push_back(devcol::concatenate(std::span<any_column<Policy> const>(parts), stream));
  }
  auto mask = detail::concatenate_masks<Policy>(inputs, rows, nulls, cols.front().resource(), stream);
  return struct_column<Policy>(cols.front().names(), std::move(children), std::move(mask), rows, nulls);
}

namespace detail {
/// concatenate() of dictionaries whose indices are all `I` (checked by the caller's type check):
/// each input's indices moved past the values before it, then the indices and the values joined.
template <class I, class Policy>
[[nodiscard]] dictionary_column<Policy> concatenate_dictionaries(std::span<dictionary_column<Policy> const> cols,
                                                                 stream_ref stream) {
  constexpr auto most = static_cast<std::size_t>(std::numeric_limits<I>::max());
  std::vector<column<I, Policy>> moved;
  std::vector<any_column<Policy>> values;
  std::size_t base = 0;
  executor exec(stream);
  for (auto const& c : cols) {
    // Only an input with a valid index needs `base` as an index: one without (an empty input, or
    // every index null) after values that fill the index type, 128 of them for int8, is fine.
    DEVCOL_EXPECTS(base <= most || c.null_count() == c.size(), "concatenate: ", base, " dictionary values overflow ",
                   type_name_v<I>, " indices");
    auto const& in_col = std::get<column<I, Policy>>(c.indices());
    auto indices = in_col.template make_like<I>(c.size(), stream);
    I const* in = in_col.data(access::read);
    detail::transform_n(exec, in, c.size(), indices.data(access::write, stream), moved_index<I>{static_cast<I>(base)});
    copy_validity(in_col, indices, stream);
    moved.push_back(std::move(indices));
    values.push_back(c.values());
    base += devcol::size(c.values());
  }
  DEVCOL_EXPECTS(base == 0 || base - 1 <= most, "concatenate: ", base, " dictionary values overflow ", type_name_v<I>,
                 " indices");
  return dictionary_column<Policy>(devcol::concatenate(std::span<column<I, Policy> const>(moved), stream),
                                   devcol::concatenate(std::span<any_column<Policy> const>(values), stream));
}
}  // namespace detail

/**
 * @brief The rows of every dictionary input, one after the other. The values are concatenated as
 * they are (not unified: a value present in two inputs appears twice) and each input's indices
 * are moved past the values of the inputs before it (one pass per input); the masks as for
 * columns. Costs no hashing, which a unification would.
 * @tparam Policy the buffer policy of the input and of the result
 * @param cols the inputs, in order
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both types when the values' or the indices' types differ, or
 * when the values overflow the indices' type (the result keeps it)
 */
template <class Policy>
[[nodiscard]] dictionary_column<Policy> concatenate(std::span<dictionary_column<Policy> const> cols,
                                                    stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (cols.empty()) { return {}; }
  detail::expect_same_types(cols, "concatenate");  // the indices' type included
  return cols.front().visit_indices([&]<class I>(column<I, Policy> const&) {
    return detail::concatenate_dictionaries<I>(cols, stream);
  });
}

/// @brief concatenate() of a vector of list, struct or dictionary columns.
/// @tparam C the column kind
/// @param cols the inputs, in order
/// @param stream the stream the work is ordered on
template <class C>
  requires(detail::is_nested_kind<C>)
[[nodiscard]] C concatenate(std::vector<C> const& cols, stream_ref stream = {}) {
  detail::operation_spill_lock<typename C::policy> const spill_scope{stream};
  return concatenate(std::span<C const>(cols), stream);
}

DEVCOL_NAMESPACE_END
