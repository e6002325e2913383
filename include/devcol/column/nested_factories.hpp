/**
 * @file nested_factories.hpp
 * @brief Making nested columns from their children: `make_list_column`,
 * `make_fixed_size_list_column`, `make_run_end_encoded_column`, `make_struct_column`, `make_dictionary_column`,
 * `make_union_column`, with offsets and
 * validity given on the host.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/index_bounds.hpp>
#include <devcol/column/detail/visit_alternative.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// A mask from host flags (empty flags: no mask), its buffer from `resource`, and the null count.
/// The copy is queued on `stream`; the caller synchronises before `valid`'s staging goes.
template <buffer_policy Policy>
std::pair<buffer<Policy>, std::size_t> mask_from_host(std::vector<bool> const& valid, std::vector<bitmask_word>& staged,
                                                      typename buffer<Policy>::resource_type resource,
                                                      stream_ref stream) {
  std::size_t nulls = 0;
  staged.assign(bitmask_allocation_size(valid.size()) / sizeof(bitmask_word), 0);
  for (std::size_t i = 0; i < valid.size(); ++i) {
    if (valid[i]) {
      staged[i / bits_per_word] |= bitmask_word{1} << (i % bits_per_word);
    } else {
      ++nulls;
    }
  }
  if (nulls == 0) { return {buffer<Policy>{}, 0}; }
  buffer<Policy> mask(staged.size() * sizeof(bitmask_word), stream, mr::default_alignment, std::move(resource));
  copy_bytes(mask.data(access::write, stream), staged.data(), staged.size() * sizeof(bitmask_word), stream);
  return {std::move(mask), nulls};
}

}  // namespace detail

/**
 * @brief A list column of `offsets.size() - 1` rows over `child`: row `i` is child rows
 * [offsets[i], offsets[i + 1]), null where `valid[i]` is false (empty `valid`: no mask; a mask
 * only if some row is null). Offsets and mask are copied from the host in order on `stream`, which
 * is then synchronised; the child is adopted (shared, O(1)). Memory from the policy's resource.
 * @tparam O the offset type: `std::int32_t` (Arrow list, "+l") or `std::int64_t` (large list, "+L")
 * @tparam Policy the buffer policy of the result and of the adopted children: its `resource` gives
 *         the memory the offsets and mask are copied into
 * @param offsets the `rows + 1` row boundaries, absolute positions in `child`'s rows: at least one,
 *        non-negative, non-decreasing, the last no greater than the child's size (all checked on
 *        the host before anything is allocated)
 * @param child the elements of every row, of any kind; shared, not copied
 * @param valid one flag per row, false for a null row; empty for no mask
 * @param stream the stream the copies are ordered on and that is synchronised before returning
 * @throws devcol::logic_error naming the value when offsets are empty, negative, decreasing or past
 * the child's rows, or when `valid` has another length; what allocation and copying throw
 */
template <arrow_offset O = std::int32_t, buffer_policy Policy = default_policy>
[[nodiscard]] basic_list_column<O, Policy> make_list_column(std::vector<O> const& offsets,
                                                            std::type_identity_t<any_column<Policy>> child,
                                                            std::vector<bool> const& valid = {},
                                                            stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  DEVCOL_EXPECTS(!offsets.empty(), "make_list_column: no offsets (a column of n rows has n + 1)");
  std::size_t const rows = offsets.size() - 1;
  std::size_t const child_rows = devcol::size(child);
  DEVCOL_EXPECTS(offsets.front() >= 0, "make_list_column: the first offset is ", offsets.front());
  for (std::size_t i = 0; i < rows; ++i) {
    DEVCOL_EXPECTS(offsets[i] <= offsets[i + 1], "make_list_column: offset ", offsets[i + 1], " at ", i + 1,
                   " is less than offset ", offsets[i], " before it");
  }
  DEVCOL_EXPECTS(static_cast<std::size_t>(offsets.back()) <= child_rows, "make_list_column: the last offset ",
                 offsets.back(), " is past the child's ", child_rows, " rows");
  DEVCOL_EXPECTS(valid.empty() || valid.size() == rows, "make_list_column: ", valid.size(), " validity flags for ",
                 rows, " rows");
  using buffer_type = buffer<Policy>;
  auto const resource = detail::policy_resource<typename Policy::resource>();
  buffer_type offsets_buffer(offsets.size() * sizeof(O), stream, mr::default_alignment, resource);
  copy_bytes(offsets_buffer.data(access::write, stream), offsets.data(), offsets.size() * sizeof(O), stream);
  std::vector<bitmask_word> staged;
  auto [mask, nulls] = detail::mask_from_host<Policy>(valid, staged, resource, stream);
  stream.synchronize();
  return basic_list_column<O, Policy>(std::move(offsets_buffer), std::move(child), std::move(mask), rows, nulls);
}

/**
 * @brief make_list_column with 64-bit offsets: a large list ("+L"). Checks, copies and
 * synchronises as make_list_column does.
 * @tparam Policy the buffer policy of the result and of the adopted children: its `resource` gives
 *         the memory the offsets and mask are copied into
 * @param offsets the `rows + 1` row boundaries, absolute positions in `child`'s rows
 * @param child the elements of every row, of any kind; shared, not copied
 * @param valid one flag per row, false for a null row; empty for no mask
 * @param stream the stream the copies are ordered on and that is synchronised before returning
 * @throws devcol::logic_error when the offsets or `valid` are malformed, as make_list_column says;
 * what allocation and copying throw
 */
template <buffer_policy Policy = default_policy>
[[nodiscard]] basic_list_column<std::int64_t, Policy> make_large_list_column(
    std::vector<std::int64_t> const& offsets, std::type_identity_t<any_column<Policy>> child,
    std::vector<bool> const& valid = {}, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return make_list_column<std::int64_t, Policy>(offsets, std::move(child), valid, stream);
}

/**
 * @brief A list view ("+vl", or "+vL" for 64-bit `O`): row `i` is child rows [offsets[i],
 * offsets[i] + sizes[i]), in any order, overlapping or not, null where `valid[i]` is false (empty
 * `valid`: no mask). The child is adopted (shared, O(1)); offsets, sizes and mask are checked on the
 * host, copied in order on `stream`, which is then synchronised.
 * @tparam O the offset and size type: `std::int32_t` (list view) or `std::int64_t` (large list view)
 * @tparam Policy the buffer policy of the result and of the adopted child
 * @param offsets one per row
 * @param sizes one per row
 * @param child the elements the rows name, of any kind; shared, not copied
 * @param valid one flag per row, false for a null row; empty for no mask
 * @param stream the stream the copies are ordered on and that is synchronised before returning
 * @throws devcol::logic_error naming the row and values when the counts differ or a row's offset
 * or size is negative or past the child's rows (a null row's too: Arrow requires it of every row);
 * what allocation and copying throw
 */
template <arrow_offset O = std::int32_t, buffer_policy Policy = default_policy>
[[nodiscard]] basic_list_view_column<O, Policy> make_list_view_column(std::vector<O> const& offsets,
                                                                      std::vector<O> const& sizes,
                                                                      std::type_identity_t<any_column<Policy>> child,
                                                                      std::vector<bool> const& valid = {},
                                                                      stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  std::size_t const rows = offsets.size();
  std::size_t const child_rows = devcol::size(child);
  DEVCOL_EXPECTS(sizes.size() == rows, "make_list_view_column: ", sizes.size(), " sizes for ", rows, " offsets");
  DEVCOL_EXPECTS(valid.empty() || valid.size() == rows, "make_list_view_column: ", valid.size(),
                 " validity flags for ", rows, " rows");
  for (std::size_t i = 0; i < rows; ++i) {
    DEVCOL_EXPECTS(offsets[i] >= 0 && sizes[i] >= 0 &&
                       static_cast<std::size_t>(offsets[i]) + static_cast<std::size_t>(sizes[i]) <= child_rows,
                   "make_list_view_column: row ", i, " (offset ", offsets[i], ", size ", sizes[i],
                   ") is not within the child's ", child_rows, " rows");
  }
  auto const resource = detail::policy_resource<typename Policy::resource>();
  buffer<Policy> offsets_buffer(rows * sizeof(O), stream, mr::default_alignment, resource);
  buffer<Policy> sizes_buffer(rows * sizeof(O), stream, mr::default_alignment, resource);
  if (rows != 0) {
    copy_bytes(offsets_buffer.data(access::write, stream), offsets.data(), rows * sizeof(O), stream);
    copy_bytes(sizes_buffer.data(access::write, stream), sizes.data(), rows * sizeof(O), stream);
  }
  std::vector<bitmask_word> staged;
  auto [mask, nulls] = detail::mask_from_host<Policy>(valid, staged, resource, stream);
  stream.synchronize();
  return basic_list_view_column<O, Policy>(std::move(offsets_buffer), std::move(sizes_buffer), std::move(child),
                                           std::move(mask), rows, nulls);
}

/**
 * @brief A sparse or dense union column of `type_ids.size()` rows over the named `children`: row
 * `i` is row `i` (sparse) or `offsets[i]` (dense) of the child whose type code is `type_ids[i]`.
 * The children are adopted (shared, O(1)); the type ids and offsets are copied from the host
 * (from `Policy`'s resource) and checked in one pass whose answer is read back (synchronises
 * `stream`).
 * @tparam Policy the buffer policy of the result and of the adopted children
 * @param mode sparse or dense
 * @param type_codes each child's type code: distinct, in 0..127 (need not be 0..n-1)
 * @param children the children with their names, in order; a sparse union's each as long as
 *        `type_ids`, a dense union's any length
 * @param type_ids one declared type code per row
 * @param offsets dense: one offset per row into its child; sparse: empty
 * @param stream the stream the copies and the check are ordered on, synchronised before returning
 * @throws devcol::logic_error naming the first row whose type id is not a declared code, whose
 * offset is outside its child, or (dense) whose offset is below an earlier row's into the same
 * child (Arrow requires each child's offsets in increasing order), or the counts when codes,
 * children, ids and offsets disagree
 */
template <buffer_policy Policy = default_policy>
[[nodiscard]] union_column<Policy> make_union_column(
    union_mode mode, std::vector<std::int8_t> type_codes,
    std::vector<std::pair<std::string, std::type_identity_t<any_column<Policy>>>> children,
    std::vector<std::int8_t> const& type_ids, std::vector<std::int32_t> const& offsets = {}, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  std::size_t const rows = type_ids.size();
  DEVCOL_EXPECTS(mode == union_mode::sparse ? offsets.empty() : offsets.size() == rows, "make_union_column: ",
                 offsets.size(), " offsets for ", rows, mode == union_mode::sparse ? " rows of a sparse union"
                                                                                    : " rows of a dense union");
  std::vector<std::string> names;
  std::vector<any_column<Policy>> kids;
  for (auto& [name, child] : children) {
    names.push_back(std::move(name));
    kids.push_back(std::move(child));
  }
  using buffer_type = typename union_column<Policy>::buffer_type;
  buffer_type ids;
  buffer_type offs;
  if (rows != 0) {
    ids = buffer_type(rows, stream, mr::default_alignment, detail::policy_resource<typename Policy::resource>());
    copy_bytes(ids.data(access::write, stream), type_ids.data(), rows, stream);
    if (mode == union_mode::dense) {
      offs = buffer_type(rows * sizeof(std::int32_t), stream, mr::default_alignment,
                         detail::policy_resource<typename Policy::resource>());
      copy_bytes(offs.data(access::write, stream), offsets.data(), rows * sizeof(std::int32_t), stream);
    }
  }
  union_column<Policy> out(mode, std::move(type_codes), std::move(names), std::move(kids), std::move(ids),
                           std::move(offs), rows);
  auto const bad = detail::find_bad_union_row(out.type_ids(access::read), out.offsets(access::read), rows,
                                              out.children_table(), stream);
  stream.synchronize();
  DEVCOL_EXPECTS(bad.row == rows, "make_union_column: row ", bad.row, " has type id ", static_cast<int>(bad.id),
                 mode == union_mode::dense ? " and offset " + std::to_string(bad.offset) : std::string(),
                 ", not a declared type code", mode == union_mode::dense ? " or not within its child" : "");
  if (mode == union_mode::dense) {  // every id is a declared code by now
    auto const down = detail::find_decreasing_union_offset(type_ids, offsets);
    DEVCOL_EXPECTS(down.row == rows, "make_union_column: row ", down.row, " has type id ", static_cast<int>(down.id),
                   " and offset ", down.offset, ", below offset ", down.earlier,
                   " of an earlier row of that child: a dense union's offsets into each child must not decrease");
  }
  return out;
}

/**
 * @brief A struct column of the named `fields` (all of one size, which is the struct's), null
 * where `valid[i]` is false (empty `valid`: no mask). The children are adopted (shared, O(1));
 * the mask is copied from the host in order on `stream`, which is then synchronised. Without
 * fields the struct has `valid.size()` rows (0 when `valid` is empty too).
 * @tparam Policy the buffer policy of the result and of the adopted children: its `resource` gives
 *         the memory the offsets and mask are copied into
 * @param fields the children with their names, in order; names need not be unique (a lookup
 *        by a repeated name throws; the index reaches each)
 * @param valid one flag per row, false for a null row; empty for no mask
 * @param stream the stream the mask copy is ordered on and that is synchronised before returning
 * @throws devcol::logic_error naming the field whose size differs, or when `valid` has another
 * length; what allocation and copying throw
 */
template <buffer_policy Policy = default_policy>
[[nodiscard]] struct_column<Policy> make_struct_column(
    std::vector<std::pair<std::string, std::type_identity_t<any_column<Policy>>>> fields,
    std::vector<bool> const& valid = {}, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  std::size_t const rows = fields.empty() ? valid.size() : devcol::size(fields.front().second);
  std::vector<std::string> names;
  std::vector<any_column<Policy>> children;
  std::string const first = fields.empty() ? std::string{} : fields.front().first;
  for (auto& [name, child] : fields) {
    DEVCOL_EXPECTS(devcol::size(child) == rows, "make_struct_column: field '", name, "' has ", devcol::size(child),
                   " rows, field '", first, "' ", rows);
    names.push_back(std::move(name));
    children.push_back(std::move(child));
  }
  DEVCOL_EXPECTS(valid.empty() || valid.size() == rows, "make_struct_column: ", valid.size(), " validity flags for ",
                 rows, " rows");
  std::vector<bitmask_word> staged;
  auto [mask, nulls] =
      detail::mask_from_host<Policy>(valid, staged, detail::policy_resource<typename Policy::resource>(), stream);
  stream.synchronize();
  return struct_column<Policy>(std::move(names), std::move(children), std::move(mask), rows, nulls);
}

/**
 * @brief A fixed-size list column of lists of `list_size` rows of `child` each (its rows, in order:
 * `child` holds rows * list_size of them), null where `valid[i]` is false (empty `valid`: no mask).
 * The child is adopted (shared, O(1)); the mask is copied from the host in order on `stream`,
 * which is then synchronised.
 * @tparam Policy the buffer policy of the result and of the adopted child
 * @param list_size the elements of every list; with 0 the column has `valid.size()` rows
 * @param child the elements, of any kind, whose size is a multiple of `list_size`
 * @param valid one flag per row, false for a null row; empty for no mask
 * @param stream the stream the mask copy is ordered on and that is synchronised before returning
 * @throws devcol::logic_error naming the sizes when the child's rows are not a multiple of
 * `list_size` or `valid` has another length; what allocation and copying throw
 */
template <buffer_policy Policy = default_policy>
[[nodiscard]] fixed_size_list_column<Policy> make_fixed_size_list_column(std::size_t list_size,
                                                                         std::type_identity_t<any_column<Policy>> child,
                                                                         std::vector<bool> const& valid = {},
                                                                         stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  std::size_t const child_rows = devcol::size(child);
  DEVCOL_EXPECTS(list_size == 0 ? true : child_rows % list_size == 0, "make_fixed_size_list_column: a child of ",
                 child_rows, " rows is not a whole number of lists of ", list_size);
  std::size_t const rows = list_size == 0 ? valid.size() : child_rows / list_size;
  DEVCOL_EXPECTS(valid.empty() || valid.size() == rows, "make_fixed_size_list_column: ", valid.size(),
                 " validity flags for ", rows, " rows");
  std::vector<bitmask_word> staged;
  auto [mask, nulls] =
      detail::mask_from_host<Policy>(valid, staged, detail::policy_resource<typename Policy::resource>(), stream);
  stream.synchronize();
  return fixed_size_list_column<Policy>(list_size, std::move(child), std::move(mask), rows, nulls);
}

/**
 * @brief A run-end encoded column of `run_ends.back()` rows (0 without runs): run `r` covers the
 * rows from the previous run end to `run_ends[r]` and holds `values[r]`. Both are adopted (shared,
 * O(1)); the run ends are checked in one pass whose result is read back (synchronises `stream`).
 * @tparam Policy the buffer policy of the result and of the adopted children
 * @param run_ends int16, int32 or int64 run ends: no nulls, positive, strictly increasing
 * @param values one value per run, of any kind (its nulls are the rows' nulls)
 * @param stream the stream the check is ordered on and that is synchronised before returning
 * @throws devcol::logic_error naming the first bad run end, or the counts when the values are fewer
 * than the runs or the run ends have nulls
 */
template <buffer_policy Policy = default_policy>
[[nodiscard]] run_end_encoded_column<Policy> make_run_end_encoded_column(run_ends_column<Policy> run_ends,
                                                                         std::type_identity_t<any_column<Policy>> values,
                                                                         stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  // A null run end's value is unspecified: the nulls are refused before the values are read.
  std::size_t const ends_nulls = detail::visit_alternative([](auto const& e) { return e.null_count(); }, run_ends);
  DEVCOL_EXPECTS(ends_nulls == 0, "make_run_end_encoded_column: run ends may not be null (", ends_nulls, " are)");
  auto const s = detail::visit_alternative([&](auto const& e) { return detail::summarise_run_ends(e, stream); }, run_ends);
  DEVCOL_EXPECTS(s.first > 0 || detail::visit_alternative([](auto const& e) { return e.empty(); }, run_ends),
                 "make_run_end_encoded_column: the first run end is ", s.first, ", not positive");
  DEVCOL_EXPECTS(s.bad == detail::increasing_summary::none, "make_run_end_encoded_column: run end ", s.bad, " is ",
                 s.here, ", not below run end ", s.bad + 1, " (", s.next, ")");
  return run_end_encoded_column<Policy>(std::move(run_ends), std::move(values), static_cast<std::size_t>(s.last));
}

/**
 * @brief A dictionary column: `indices` (their nulls are the rows' nulls) into `values`, both
 * adopted (shared, O(1)). The valid indices are checked to lie within the values: one pass, which
 * synchronises `stream`.
 * @tparam Policy the buffer policy of the indices, the values and the result
 * @tparam I the indices' integer type (8 to 64 bits, signed or unsigned), which the column keeps
 * @param indices one index into `values` per row; a null index is a null row, and is not checked
 * @param values the dictionary, of any kind; rows may be unused or used many times
 * @param stream the stream the check runs on, synchronised by it
 * @throws devcol::logic_error naming the first index outside [0, values' size) and its row
 */
template <buffer_policy Policy = default_policy, dictionary_index I>
[[nodiscard]] dictionary_column<Policy> make_dictionary_column(column<I, Policy> indices,
                                                               std::type_identity_t<any_column<Policy>> values,
                                                               stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  std::size_t const n = devcol::size(values);
  if (auto const bad = detail::first_index_outside(detail::any_index_view(indices.view()), n, stream)) {
    DEVCOL_FAIL("make_dictionary_column: index ", bad->second, " at row ", bad->first, " is outside the ", n,
                " values");
  }
  return dictionary_column<Policy>(std::move(indices), std::move(values));
}

DEVCOL_NAMESPACE_END
