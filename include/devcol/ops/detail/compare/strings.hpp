/**
 * @file strings.hpp
 * @brief compare of strings columns, with another strings column or a string: bytewise, bytes as
 * unsigned, a prefix first (`devcol::string_view::compare`), as Arrow and cuDF order them. Users
 * include devcol/ops/compare.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/string_view.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/compare/fixed_width.hpp>
#include <devcol/ops/detail/masks.hpp>
#include <devcol/ops/detail/strings_rows.hpp>
#include <devcol/ops/detail/validity.hpp>

#include <cstddef>
#include <string_view>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// `a[i] op b[i]` (values only; the mask is built apart).
template <class O>
struct compare_strings {
  strings_column_view<O> a;
  strings_column_view<O> b;
  cmp op;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const { return compare_with<string_view>{op}(a[i], b[i]); }
};
/// `a[i] op value`.
template <class O>
struct compare_string_to_scalar {
  strings_column_view<O> a;
  string_view value;  // device memory
  cmp op;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const { return compare_with<string_view>{op}(a[i], value); }
};
/// Valid where both strings views are valid.
template <class O>
struct both_strings_valid {
  strings_column_view<O> a;
  strings_column_view<O> b;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept { return a.is_valid(i) && b.is_valid(i); }
};
}  // namespace detail

/**
 * @brief `a_row op b_row` for every row, bytewise: a bool column from `a`'s resource, null where
 * either is null. One pass over the rows (in order on `stream`, no synchronisation); the mask is
 * the one input's mask bits copied, or with nulls in both, built from both and counted (one pass
 * each; synchronises `stream`).
 * @tparam O the offset type: `std::int32_t` (strings, list) or `std::int64_t` (large_strings, large_list)
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam E what the bytes are (utf8 or binary: the same op, the result of the input's type)
 * @param a the left operand
 * @param op the comparison
 * @param b the right operand, of `a`'s size
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both sizes if they differ
 */
template <arrow_offset O, class Policy, encoding E>
[[nodiscard]] column<bool, Policy> compare(basic_strings_column<O, Policy, E> const& a, cmp op,
                                           basic_strings_column<O, Policy, E> const& b, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  DEVCOL_EXPECTS_ENUMERATOR(op, cmp::greater_equal, "compare", "cmp");
  detail::expect_same_size(a.size(), b.size(), "compare");
  bool const a_only = a.has_nulls() && !b.has_nulls();  // a's mask bits are the result's
  auto out = detail::rows_to<bool>(a, detail::compare_strings<O>{a.view(), b.view(), op}, a_only, stream);
  if (a.has_nulls() && b.has_nulls()) {
    auto [mask, nulls] = detail::build_mask<typename column<bool, Policy>::buffer_type>(
        detail::both_strings_valid<O>{a.view(), b.view()}, a.size(), a.resource(), stream);
    out.replace_null_mask(std::move(mask), nulls);
  } else if (b.has_nulls()) {
    out.replace_null_mask(detail::copy_mask_bits(b.mask_buffer(), b.offset(), b.offset() + b.size(), stream), b.null_count());
  }
  return out;
}

/**
 * @brief `row op value` for every row, bytewise: a bool column from `col`'s resource, null where
 * `col` is null (its mask bits copied, no recount). Copies `value`'s bytes to scratch device memory
 * from `col`'s resource (on CUDA, from pageable memory: staged at once, so `value` may go when this
 * returns), then one pass over the rows; no synchronisation.
 * @tparam O the offset type: `std::int32_t` (strings, list) or `std::int64_t` (large_strings, large_list)
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam E what the bytes are (utf8 or binary: the same op, the result of the input's type)
 * @param col the input column
 * @param op the comparison
 * @param value the value
 * @param stream the stream the work is ordered on
 */
template <arrow_offset O, class Policy, encoding E>
[[nodiscard]] column<bool, Policy> compare(basic_strings_column<O, Policy, E> const& col, cmp op, std::string_view value,
                                           stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  DEVCOL_EXPECTS_ENUMERATOR(op, cmp::greater_equal, "compare", "cmp");
  typename basic_strings_column<O, Policy, E>::buffer_type bytes(value.size(), stream, mr::default_alignment,
                                                               col.resource());
  auto* device_value = static_cast<char*>(bytes.data(access::write, stream));
  copy_bytes(device_value, value.data(), value.size(), stream);
  return detail::rows_to<bool>(
      col, detail::compare_string_to_scalar<O>{col.view(), string_view(device_value, value.size()), op}, true, stream);
}

DEVCOL_NAMESPACE_END
