/**
 * @file strings.hpp
 * @brief fill_null of strings columns. Users include devcol/ops/null_mask.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/string_view.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/offsets.hpp>

#include <cstddef>
#include <string_view>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// fill_null's rows: a valid row's own bytes, else the value's.
template <class O>
struct filled_rows {
  strings_column_view<O> view;
  string_view value;  // device memory
  [[nodiscard]] DEVCOL_HOST_DEVICE std::size_t length(std::size_t i) const noexcept {
    return view.is_valid(i) ? view.length(i) : value.size();
  }
  [[nodiscard]] DEVCOL_HOST_DEVICE char const* start(std::size_t i) const noexcept {
    return view.is_valid(i) ? view.chars() + view.offsets()[i] : value.data();
  }
};
template <class O>
struct filled_length : filled_rows<O> {
  DEVCOL_HOST_DEVICE std::size_t operator()(std::size_t i) const noexcept { return this->length(i); }
};
template <class O>
struct filled_start : filled_rows<O> {
  DEVCOL_HOST_DEVICE char const* operator()(std::size_t i) const noexcept { return this->start(i); }
};

}  // namespace detail

/**
 * @brief `col` with every null row replaced by `value`, without a mask. Without nulls: `col`'s
 * buffers shared, O(1). Else new buffers from `col`'s resource: `value` copied to scratch device
 * memory, one scan of the new lengths whose total is read back (synchronises `stream`), one pass
 * over the bytes (as gather copies them).
 * @tparam O the offset type: `std::int32_t` (strings, list) or `std::int64_t` (large_strings, large_list)
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam E what the bytes are (utf8 or binary: the same op, the result of the input's type)
 * @param col the input column
 * @param value the value
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error when 32-bit offsets cannot hold the result's bytes
 */
template <arrow_offset O, class Policy, encoding E>
[[nodiscard]] basic_strings_column<O, Policy, E> fill_null(basic_strings_column<O, Policy, E> const& col,
                                                        std::string_view value, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  using buffer_type = typename basic_strings_column<O, Policy, E>::buffer_type;
  if (!col.has_nulls()) {
    return basic_strings_column<O, Policy, E>(col.offsets_buffer(), col.chars_buffer(), {}, col.size(), 0, col.offset());
  }
  std::size_t const n = col.size();
  buffer_type bytes(value.size(), stream, mr::default_alignment, col.resource());
  auto* device_value = static_cast<char*>(bytes.data(access::write, stream));
  copy_bytes(device_value, value.data(), value.size(), stream);
  detail::filled_rows<O> const rows{col.view(), string_view(device_value, value.size())};
  buffer_type offsets((n + 1) * sizeof(O), stream, mr::default_alignment, col.resource());
  auto* out_offsets = static_cast<O*>(offsets.data(access::write, stream));
  std::size_t const total = detail::scan_lengths<O>(detail::filled_length<O>{rows}, n, out_offsets, "fill_null", stream);
  buffer_type chars(total, stream, mr::default_alignment, col.resource());
  detail::copy_rows(static_cast<char*>(chars.data(access::write, stream)), out_offsets, n, total,
                    detail::filled_start<O>{rows}, stream);
  return basic_strings_column<O, Policy, E>(std::move(offsets), std::move(chars), {}, n, 0);
}

DEVCOL_NAMESPACE_END
