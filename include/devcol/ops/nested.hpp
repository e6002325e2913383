/**
 * @file nested.hpp
 * @brief Ops over lists, structs, dictionaries and `any_column`: `gather`, `filter`,
 * `concatenate`, `is_null`, `is_valid`, with the fixed-width ops' names and argument order.
 *
 * `any_column` overloads dispatch once per column with `std::visit` to the kind's op (fixed width:
 * ops/gather.hpp and ops/filter.hpp; strings, decimals, fixed-size binary: their ops headers; lists, structs,
 * dictionaries: here), so nested columns recurse through their children at run time rather than
 * instantiating every combination of types. Results allocate from the input's resource().
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/decimal.hpp>
#include <devcol/ops/detail/list_offsets.hpp>
#include <devcol/ops/detail/validity.hpp>
#include <devcol/ops/filter.hpp>
#include <devcol/ops/fixed_size_binary.hpp>
#include <devcol/ops/gather.hpp>
#include <devcol/ops/null_mask.hpp>
#include <devcol/ops/strings_selection.hpp>

#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/fill.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/transform.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

template <buffer_policy Policy, std::integral I, class IndexPolicy>
[[nodiscard]] any_column<Policy> gather(any_column<Policy> const& col, column<I, IndexPolicy> const& indices,
                                        stream_ref stream = {}, out_of_bounds policy = out_of_bounds::throw_error);
template <buffer_policy Policy>
[[nodiscard]] any_column<Policy> concatenate(std::span<any_column<Policy> const> cols, stream_ref stream = {});

namespace detail {

/// The validity of rows through a mask whose row 0 is bit `offset` (no mask: all valid).
struct mask_view {
  bitmask_word const* mask;
  std::size_t offset;
  DEVCOL_HOST_DEVICE bool is_valid(std::size_t i) const noexcept { return mask == nullptr || bit_is_set(mask, offset + i); }
};
template <class C>
mask_view mask_view_of(C const& col) {
  return {col.has_nulls() ? col.null_mask(access::read) : nullptr, col.offset()};
}

/// Row `i` valid (or, negated, null) through a mask view.
struct mask_flag {
  mask_view rows;
  bool null;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept { return rows.is_valid(i) != null; }
};

/// A bool column without a mask, true where a row of `col` is null (or valid): one pass.
template <class C>
column<bool, typename C::policy> mask_flags(C const& col, bool null, stream_ref stream) {
  column<bool, typename C::policy> out(col.size(), stream, mask_state::unallocated, col.resource());
  executor exec(stream);
  thrust::transform(exec.policy(), thrust::counting_iterator<std::size_t>(0),
                    thrust::counting_iterator<std::size_t>(col.size()), out.data(access::write, stream),
                    mask_flag{mask_view_of(col), null});
  return out;
}

/// The positions of the rows `keep` keeps (true and not null), as int64 from `resource`: a count
/// (synchronises `stream`) and one compaction.
template <class Policy, class KeepPolicy>
column<std::int64_t, Policy> kept_positions(column<bool, KeepPolicy> const& keep,
                                            typename buffer<Policy>::resource_type resource, stream_ref stream) {
  executor exec(stream);
  auto const rows = thrust::counting_iterator<std::size_t>(0);
  auto const flags = thrust::make_transform_iterator(rows, true_and_valid{keep.view()});
  auto const n = static_cast<std::size_t>(
      thrust::count(exec.policy(), flags, flags + static_cast<std::ptrdiff_t>(keep.size()), true));
  column<std::int64_t, Policy> out(n, stream, mask_state::unallocated, std::move(resource));
  thrust::copy_if(exec.policy(), thrust::counting_iterator<std::int64_t>(0),
                  thrust::counting_iterator<std::int64_t>(static_cast<std::int64_t>(keep.size())), rows,
                  out.data(access::write, stream), true_and_valid{keep.view()});
  return out;
}

/// The concatenated masks of inputs (each: mask or null when it has no nulls, its offset, its
/// rows), `nulls` in all, from `resource`: a small index copied to the device, one pass over the
/// result's words, then `stream` is synchronised (the host index must outlive its copy).
template <class Policy>
buffer<Policy> concatenate_masks(std::vector<concatenated_input> inputs, std::size_t rows, std::size_t nulls,
                                 typename buffer<Policy>::resource_type resource, stream_ref stream) {
  if (nulls == 0) { return {}; }
  std::size_t const index_bytes = inputs.size() * sizeof(concatenated_input);
  buffer<Policy> index(index_bytes, stream, mr::default_alignment, resource);
  auto* device_inputs = static_cast<concatenated_input*>(index.data(access::write, stream));
  copy_bytes(device_inputs, inputs.data(), index_bytes, stream);
  std::size_t const bytes = bitmask_allocation_size(rows);
  buffer<Policy> mask(bytes, stream, mr::default_alignment, std::move(resource));
  executor exec(stream);
  thrust::transform(exec.policy(), thrust::counting_iterator<std::size_t>(0),
                    thrust::counting_iterator<std::size_t>(bytes / sizeof(bitmask_word)),
                    static_cast<bitmask_word*>(mask.data(access::write, stream)),
                    pack_word<concatenated_valid>{{device_inputs, inputs.size()}, rows});
  stream.synchronize();
  return mask;
}

/// Each input's mask entry, first row and the totals, for concatenate_masks.
template <class C>
std::vector<concatenated_input> mask_inputs(std::span<C const> cols, std::size_t& rows, std::size_t& nulls) {
  std::vector<concatenated_input> inputs;
  rows = 0;
  nulls = 0;
  for (auto const& c : cols) {
    inputs.push_back({c.has_nulls() ? c.null_mask(access::read) : nullptr, c.offset(), rows});
    rows += c.size();
    nulls += c.null_count();
  }
  return inputs;
}

/// Throws naming both types unless every input has the first's type.
template <class C>
void expect_same_types(std::span<C const> cols, char const* op) {
  for (std::size_t i = 1; i < cols.size(); ++i) {
    DEVCOL_EXPECTS(devcol::type_name(cols[i]) == devcol::type_name(cols[0]), op, ": input ", i, " is ",
                   devcol::type_name(cols[i]), ", input 0 ", devcol::type_name(cols[0]));
  }
}

/// A dictionary index moved past the values of earlier inputs. In unsigned arithmetic: a null
/// row's slot holds any value, and a signed overflow there would be undefined behaviour (valid
/// indices stay below 2^31, checked by the caller; a null slot's value is never read).
struct moved_index {
  std::int32_t base;
  DEVCOL_HOST_DEVICE std::int32_t operator()(std::int32_t i) const noexcept {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(i) + static_cast<std::uint32_t>(base));
  }
};

}  // namespace detail

/**
 * @brief Row `indices[i]` of a list column for each `i` (Arrow's take): the new offsets from one
 * exclusive scan of the gathered lengths (reading the total back: synchronises `stream`), an int64
 * row map of the child rows (one pass, scratch from `col`'s resource) that gathers the child with
 * its own kind's gather (recursively), and with nulls a new mask and its count (synchronises). A
 * null index gives a null row, as does an out-of-bounds one with `nullify`.
 * @throws devcol::logic_error naming the first out-of-bounds index, with out_of_bounds::throw_error
 */
template <arrow_offset O, class Policy, std::integral I, class IndexPolicy>
[[nodiscard]] basic_list_column<O, Policy> gather(basic_list_column<O, Policy> const& col,
                                                  column<I, IndexPolicy> const& indices, stream_ref stream = {},
                                                  out_of_bounds policy = out_of_bounds::throw_error) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (policy == out_of_bounds::throw_error) { detail::check_indices(indices.view(), col.size(), "gather", stream); }
  auto [offsets, total] = detail::gather_offsets<O, Policy>(col.view(), indices.view(), col.resource(), stream);
  auto const map = detail::child_row_map<O, Policy>(col.view(), indices.view(),
                                                    static_cast<O const*>(offsets.data(access::read)), total,
                                                    col.resource(), stream);
  auto child = devcol::gather(col.child(), map, stream, out_of_bounds::throw_error);
  std::pair<buffer<Policy>, std::size_t> mask;
  if (col.has_nulls() || indices.has_nulls() || policy == out_of_bounds::nullify) {
    mask = detail::mask_of<Policy>(
        detail::list_gathered_valid<detail::mask_view, I>{detail::mask_view_of(col), {indices.view(), col.size()}},
        indices.size(), col.resource(), stream);
  }
  return basic_list_column<O, Policy>(std::move(offsets), std::move(child), std::move(mask.first), indices.size(),
                                      mask.second);
}

/**
 * @brief Row `indices[i]` of a struct column for each `i`: every field gathered with the same
 * indices (each by its kind's gather: with throw_error each re-checks them, one pass each), and
 * with nulls a new struct mask and its count (synchronises `stream`).
 * @throws devcol::logic_error naming the first out-of-bounds index, with out_of_bounds::throw_error
 */
template <class Policy, std::integral I, class IndexPolicy>
[[nodiscard]] struct_column<Policy> gather(struct_column<Policy> const& col, column<I, IndexPolicy> const& indices,
                                           stream_ref stream = {}, out_of_bounds policy = out_of_bounds::throw_error) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (policy == out_of_bounds::throw_error) { detail::check_indices(indices.view(), col.size(), "gather", stream); }
  std::vector<any_column<Policy>> children;
  for (std::size_t f = 0; f < col.num_children(); ++f) {
    children.push_back(devcol::gather(col.field(f, stream), indices, stream, policy));
  }
  std::pair<buffer<Policy>, std::size_t> mask;
  if (col.has_nulls() || indices.has_nulls() || policy == out_of_bounds::nullify) {
    mask = detail::mask_of<Policy>(
        detail::list_gathered_valid<detail::mask_view, I>{detail::mask_view_of(col), {indices.view(), col.size()}},
        indices.size(), col.resource(), stream);
  }
  return struct_column<Policy>(col.names(), std::move(children), std::move(mask.first), indices.size(), mask.second);
}

/**
 * @brief Row `indices[i]` of a dictionary column for each `i`: its indices gathered (the
 * fixed-width gather), its values shared (O(1)).
 * @throws devcol::logic_error naming the first out-of-bounds index, with out_of_bounds::throw_error
 */
template <class Policy, std::integral I, class IndexPolicy>
[[nodiscard]] dictionary_column<Policy> gather(dictionary_column<Policy> const& col,
                                               column<I, IndexPolicy> const& indices, stream_ref stream = {},
                                               out_of_bounds policy = out_of_bounds::throw_error) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return dictionary_column<Policy>(devcol::gather(col.indices(), indices, stream, policy), col.values());
}

/**
 * @brief gather() of any column: dispatches once on its kind (std::visit) to that kind's gather.
 * @throws devcol::logic_error naming the first out-of-bounds index (throw_error), or naming the
 * kind when it has no gather in this build
 */
template <buffer_policy Policy, std::integral I, class IndexPolicy>
any_column<Policy> gather(any_column<Policy> const& col, column<I, IndexPolicy> const& indices, stream_ref stream,
                          out_of_bounds policy) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return std::visit(
      [&](auto const& c) -> any_column<Policy> {
        if constexpr (requires { gather(c, indices, stream, policy); }) {
          return gather(c, indices, stream, policy);
        } else {
          DEVCOL_FAIL("gather: ", devcol::type_name(c), " columns have no gather in this build");
        }
      },
      col);
}

/**
 * @brief The rows of a list, struct or dictionary column where `keep` is true (a null flag drops
 * the row), in order: the kept positions (a count, which synchronises `stream`, and one
 * compaction into int64 scratch from `col`'s resource), then gather() by them.
 * @throws devcol::logic_error naming both sizes if they differ
 */
template <class C, class KeepPolicy>
  requires(detail::is_nested_kind<C>)
[[nodiscard]] C filter(C const& col, column<bool, KeepPolicy> const& keep, stream_ref stream = {}) {
  detail::operation_spill_lock<typename C::policy> const spill_scope{stream};
  detail::expect_same_size(col.size(), keep.size(), "filter");
  auto const positions = detail::kept_positions<typename C::policy>(keep, col.resource(), stream);
  return devcol::gather(col, positions, stream, out_of_bounds::nullify);
}

/**
 * @brief filter() of any column: the kind's own filter when it has one (fixed width, strings once
 * merged), else the kept positions and gather().
 * @throws devcol::logic_error naming both sizes if they differ
 */
template <buffer_policy Policy, class KeepPolicy>
[[nodiscard]] any_column<Policy> filter(any_column<Policy> const& col, column<bool, KeepPolicy> const& keep,
                                        stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return std::visit(
      [&](auto const& c) -> any_column<Policy> {
        if constexpr (requires { filter(c, keep, stream); }) {
          return filter(c, keep, stream);
        } else {
          detail::expect_same_size(c.size(), keep.size(), "filter");
          auto const positions = detail::kept_positions<Policy>(keep, c.resource(), stream);
          return devcol::gather(any_column<Policy>(c), positions, stream, out_of_bounds::nullify);
        }
      },
      col);
}

/**
 * @brief The lists of every input, one after the other: each input's child rows [first, last)
 * (two offsets read per input: a synchronisation each), the children concatenated by their kind,
 * the offsets moved (one pass per input), and with nulls the masks (see concatenate of columns).
 * @throws devcol::logic_error naming both types when the children's types differ
 */
template <arrow_offset O, class Policy>
[[nodiscard]] basic_list_column<O, Policy> concatenate(std::span<basic_list_column<O, Policy> const> cols,
                                                       stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (cols.empty()) { return {}; }
  detail::expect_same_types(cols, "concatenate");
  std::size_t rows = 0;
  std::size_t nulls = 0;
  auto inputs = detail::mask_inputs(cols, rows, nulls);
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
    thrust::transform(exec.policy(), in, in + c.size() + 1, out + row,
                      detail::moved_offset<O>{static_cast<O>(ranges[k].first), static_cast<O>(base)});
    row += c.size();
    base += ranges[k].second - ranges[k].first;
  }
  auto mask = detail::concatenate_masks<Policy>(std::move(inputs), rows, nulls, resource, stream);
  return basic_list_column<O, Policy>(std::move(offsets), std::move(child), std::move(mask), rows, nulls);
}

/**
 * @brief The rows of every struct input, one after the other: each field concatenated by its kind
 * from the inputs' rows of it, and with nulls the masks (see concatenate of columns).
 * @throws devcol::logic_error naming both types when field names or types differ
 */
template <class Policy>
[[nodiscard]] struct_column<Policy> concatenate(std::span<struct_column<Policy> const> cols, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (cols.empty()) { return {}; }
  detail::expect_same_types(cols, "concatenate");
  std::size_t rows = 0;
  std::size_t nulls = 0;
  auto inputs = detail::mask_inputs(cols, rows, nulls);
  std::vector<any_column<Policy>> children;
  for (std::size_t f = 0; f < cols.front().num_children(); ++f) {
    std::vector<any_column<Policy>> parts;
    for (auto const& c : cols) { parts.push_back(c.field(f, stream)); }
    children.push_back(devcol::concatenate(std::span<any_column<Policy> const>(parts), stream));
  }
  auto mask = detail::concatenate_masks<Policy>(std::move(inputs), rows, nulls, cols.front().resource(), stream);
  return struct_column<Policy>(cols.front().names(), std::move(children), std::move(mask), rows, nulls);
}

/**
 * @brief The rows of every dictionary input, one after the other. The values are concatenated as
 * they are (not unified: a value present in two inputs appears twice) and each input's indices
 * are moved past the values of the inputs before it (one pass per input); the masks as for
 * columns. Costs no hashing, which a unification would.
 * @throws devcol::logic_error naming both types when the values' types differ, or when the values
 * overflow int32 indices
 */
template <class Policy>
[[nodiscard]] dictionary_column<Policy> concatenate(std::span<dictionary_column<Policy> const> cols,
                                                    stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (cols.empty()) { return {}; }
  detail::expect_same_types(cols, "concatenate");
  std::vector<column<std::int32_t, Policy>> moved;
  std::vector<any_column<Policy>> values;
  std::size_t base = 0;
  detail::executor exec(stream);
  for (auto const& c : cols) {
    DEVCOL_EXPECTS(base <= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()), "concatenate: ", base,
                   " dictionary values overflow int32 indices");
    auto indices = c.indices().template make_like<std::int32_t>(c.size(), stream);
    std::int32_t const* in = c.indices().data(access::read);
    thrust::transform(exec.policy(), in, in + c.size(), indices.data(access::write, stream),
                      detail::moved_index{static_cast<std::int32_t>(base)});
    detail::copy_validity(c.indices(), indices, stream);
    moved.push_back(std::move(indices));
    values.push_back(c.values());
    base += devcol::size(c.values());
  }
  DEVCOL_EXPECTS(base <= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()) + 1, "concatenate: ", base,
                 " dictionary values overflow int32 indices");
  return dictionary_column<Policy>(concatenate(std::span<column<std::int32_t, Policy> const>(moved), stream),
                                   devcol::concatenate(std::span<any_column<Policy> const>(values), stream));
}

/// @brief concatenate() of a vector of list, struct or dictionary columns.
template <class C>
  requires(detail::is_nested_kind<C>)
[[nodiscard]] C concatenate(std::vector<C> const& cols, stream_ref stream = {}) {
  detail::operation_spill_lock<typename C::policy> const spill_scope{stream};
  return concatenate(std::span<C const>(cols), stream);
}

/**
 * @brief concatenate() of any columns, all of the first's type: dispatches once on its kind.
 * @throws devcol::logic_error naming both types when an input's type differs, or naming the kind
 * when it has no concatenate in this build. An empty list gives an empty int8 column.
 */
template <buffer_policy Policy>
any_column<Policy> concatenate(std::span<any_column<Policy> const> cols, stream_ref stream) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (cols.empty()) { return {}; }
  detail::expect_same_types(cols, "concatenate");
  return std::visit(
      [&](auto const& first) -> any_column<Policy> {
        using C = std::decay_t<decltype(first)>;
        std::vector<C> typed;
        typed.reserve(cols.size());
        for (auto const& c : cols) { typed.push_back(std::get<C>(c)); }
        if constexpr (requires { concatenate(std::span<C const>(typed), stream); }) {
          return concatenate(std::span<C const>(typed), stream);
        } else {
          DEVCOL_FAIL("concatenate: ", devcol::type_name(first), " columns have no concatenate in this build");
        }
      },
      cols.front());
}
/// @brief concatenate() of a vector of any columns.
template <buffer_policy Policy>
[[nodiscard]] any_column<Policy> concatenate(std::vector<any_column<Policy>> const& cols, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return concatenate(std::span<any_column<Policy> const>(cols), stream);
}

/// @brief A bool column, true where a list, struct or dictionary row is null; no mask. One pass, no synchronisation.
template <class C>
  requires(detail::is_nested_kind<C>)
[[nodiscard]] column<bool, typename C::policy> is_null(C const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<typename C::policy> const spill_scope{stream};
  return detail::mask_flags(col, true, stream);
}
/// @brief A bool column, true where a list, struct or dictionary row is valid; no mask. One pass, no synchronisation.
template <class C>
  requires(detail::is_nested_kind<C>)
[[nodiscard]] column<bool, typename C::policy> is_valid(C const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<typename C::policy> const spill_scope{stream};
  return detail::mask_flags(col, false, stream);
}
/// @brief is_null() of any column (strings included). One pass, no synchronisation.
template <buffer_policy Policy>
[[nodiscard]] column<bool, Policy> is_null(any_column<Policy> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return std::visit([&](auto const& c) { return detail::mask_flags(c, true, stream); }, col);
}
/// @brief is_valid() of any column (strings included). One pass, no synchronisation.
template <buffer_policy Policy>
[[nodiscard]] column<bool, Policy> is_valid(any_column<Policy> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return std::visit([&](auto const& c) { return detail::mask_flags(c, false, stream); }, col);
}

DEVCOL_NAMESPACE_END
