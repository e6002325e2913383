/**
 * @file fixed_width_rows.hpp
 * @brief `detail::fixed_width_rows`: everything a fixed-width column does that does not depend on
 * its value type, compiled once per (width, alignment, policy) rather than once per type.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/buffer/spill_state.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/detail/rows.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/resource.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// `rows` values of `width` bytes, in bytes. Not a template: every value type's column shares it.
/// No object is larger than PTRDIFF_MAX bytes, so a count past it is a negative count converted to
/// size_t (or an overflow), never a real request.
/// @throws devcol::logic_error naming `rows` and `width` when no memory could hold them
inline std::size_t value_bytes(std::size_t rows, std::size_t width) {
  DEVCOL_EXPECTS(rows <= static_cast<std::size_t>(PTRDIFF_MAX) / width, "column: ", rows, " rows of ", width,
                 " bytes are more than memory holds (a negative size converted to size_t?)");
  return rows * width;
}

/// The checks of a column adopting a values buffer of `buffer_bytes` bytes at byte `buffer_offset`
/// of its owner for rows [offset, offset + size) of `width`-byte values aligned to `alignment`.
/// Not a template, for the reason value_bytes() is not.
/// @throws devcol::logic_error naming the values that fail
inline void check_values_buffer(std::size_t buffer_bytes, std::size_t buffer_offset, std::size_t offset,
                                std::size_t size, std::size_t width, std::size_t alignment) {
  std::size_t const max_rows = static_cast<std::size_t>(PTRDIFF_MAX) / width;
  DEVCOL_EXPECTS(offset <= max_rows && size <= max_rows, "column: offset ", offset, " and size ", size,
                 " cannot be rows of memory (a negative value converted to size_t?)");
  DEVCOL_EXPECTS(buffer_bytes >= value_bytes(offset + size, width), "column: a data buffer of ", buffer_bytes,
                 " bytes cannot hold rows [", offset, ", ", offset + size, ") of ", width, " bytes");
  DEVCOL_EXPECTS(buffer_offset % alignment == 0, "column: a data buffer at byte offset ", buffer_offset,
                 " is not aligned for ", width, "-byte values");
}

/// A fresh copy of bytes [first, first + bytes) of a column's values buffer, from its resource, in
/// order on `stream`: what a fixed-width column's deep copy and copying slice do, for every value
/// type of one policy alike. A spillable buffer is copied through itself, so a spilled one is
/// copied on the host side and stays spilled.
template <buffer_policy Policy>
[[nodiscard]] buffer<Policy> copy_value_bytes(buffer<Policy> const& data, std::size_t first, std::size_t bytes,
                                              stream_ref stream) {
  if constexpr (Policy::spill::enabled) {
    return data.slice(first, first + bytes).deep_copy(stream);
  } else {
    buffer<Policy> out(bytes, stream, mr::default_alignment, data.resource());
    copy_bytes(out.data(access::write, stream), static_cast<std::byte const*>(data.data(access::read)) + first, bytes,
               stream);
    data.read_on(stream);
    return out;
  }
}

/// A fixed-width column's two buffers: its values and its validity mask.
template <buffer_policy Policy>
struct value_buffers {
  buffer<Policy> values;
  buffer<Policy> mask;
};

/**
 * Fresh copies of rows [first, first + rows) of a fixed-width column's values, `width` bytes each,
 * and of its validity `mask`, both at offset 0, in order on `stream`, on the values' device (rule 21)
 * and under an operation's spill lock: what a deep copy, a copying slice and an Arrow export's
 * snapshot do, for every width alike. `width` 0 passes `values` through as an alias (bit-packed
 * bools that are already a copy of their own rows). Takes the buffers by reference: copying an
 * exposed buffer's handle would copy its memory (rule 12) on its own stream, not on `stream`.
 */
template <buffer_policy Policy>
[[nodiscard]] value_buffers<Policy> copy_value_rows(buffer<Policy> const& values, buffer<Policy> const& mask,
                                                    std::size_t first, std::size_t rows, std::size_t width,
                                                    stream_ref stream) {
  scoped_device const on_device(values.device());
  operation_spill_lock<Policy> const spill_scope{stream};
  return {width != 0 ? copy_value_bytes(values, first * width, rows * width, stream) : values.alias(),
          copy_mask_bits(mask, first, first + rows, stream)};
}

/**
 * The untyped part of `devcol::column<T, Policy>`: its values buffer of `Width`-byte values aligned
 * to `Align`, its rows (column_rows), and what it does with them that never reads a value as a `T`
 * (allocating, adopting, sharing, slicing, copying, spilling, the copy-on-write and exposure rules).
 * int64, double, timestamps and durations share one instance of all of it, so a program using many
 * value types compiles this once per width. `column<T, Policy>` derives from it and adds only what
 * names `T`: typed pointers, views, and the same operations returning `column<T, Policy>`.
 *
 * Only a column makes one (the constructors that allocate or adopt, and assignment, are protected);
 * the members' contracts are written here, column's doc comment says what the type as a whole is.
 *
 * @tparam Width the bytes of one value
 * @tparam Align the alignment an adopted values buffer must have
 * @tparam Policy the buffer policy
 */
template <std::size_t Width, std::size_t Align, buffer_policy Policy>
class fixed_width_rows : public column_rows<fixed_width_rows<Width, Align, Policy>, Policy> {
  using rows_base = column_rows<fixed_width_rows, Policy>;
  friend rows_base;

 public:
  /// Its name in errors.
  static constexpr std::string_view kind_name = "column";
  using typename rows_base::buffer_type, typename rows_base::policy, typename rows_base::resource_type;

  /**
   * @brief A column owning fresh memory holding a copy of this column's rows only (rules 7 and 8: a
   * deep copy always owns fresh memory, and a slice's copy holds only its range), made in order on
   * `stream` (asynchronous on CUDA) with this column's device current, and on that device
   * (rule 21); its offset is 0.
   * @param stream the stream the copies are ordered on; not synchronised
   * @throws what allocation and copying throw
   */
  [[nodiscard]] fixed_width_rows deep_copy(stream_ref stream = {}) const {
    return copy_rows(0, this->size_, this->null_count_, stream, keep_mode::in_force);
  }

  /**
   * @brief Rows [begin, end), sharing this column's buffers with the offsets summed (rules 1 and 8;
   * O(1) when the column has no nulls, or only nulls). Otherwise the slice's nulls are counted in one
   * pass over its bits, in order on `stream`, which this synchronises. If the buffers are exposed,
   * copies the rows (rule 12).
   * @param begin the first row kept
   * @param end one past the last row kept
   * @param stream the stream the null count or copy is ordered on
   * @throws devcol::logic_error naming the bounds unless begin <= end <= size()
   */
  [[nodiscard]] fixed_width_rows slice(std::size_t begin, std::size_t end, stream_ref stream = {}) const {
    operation_spill_lock<Policy> const spill_scope{stream};
    return range(begin, end, this->nulls_in_rows(begin, end, stream), stream);
  }

  /**
   * @brief Spillable policies: moves both buffers to host memory, freeing their device memory,
   * unless exposed or spill-locked (rules 14, 15). Synchronises `stream`.
   * @param stream the stream the copies to the host are ordered on
   * @returns the device bytes freed
   */
  std::size_t spill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    return data_.spill(stream) + this->mask_.spill(stream);
  }
  /// @brief Spillable policies: brings both buffers back to the device. Synchronises. If the mask
  /// cannot be brought back, the values go back to the host (best effort), so a failure frees the
  /// device memory it took.
  /// @param stream accepted for symmetry with spill(); the buffers copy on their own streams
  /// @throws devcol::out_of_memory
  void unspill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    bool const data_was_spilled = data_.is_spilled();
    data_.unspill(stream);
    try {
      this->mask_.unspill(stream);
    } catch (...) {
      if (data_was_spilled) {
        try {
          (void)data_.spill(stream);
        } catch (...) {  // no host memory either: the values stay on the device, still correct
        }
      }
      throw;
    }
  }
  /// @brief Spillable policies: whether either buffer is in host memory now.
  [[nodiscard]] bool is_spilled() const noexcept
    requires Policy::spill::enabled
  {
    return data_.is_spilled() || this->mask_.is_spilled();
  }

  /// @brief Whether another handle shares this column's buffers.
  [[nodiscard]] bool is_shared() const noexcept { return data_.is_shared() || this->mask_.is_shared(); }
  /// @brief Whether write access would copy first (the buffers are shared under copy-on-write, or
  /// borrowed). O(1). In-place ops use it to do the copy aside and commit only when nothing can fail.
  [[nodiscard]] bool writes_copy() const noexcept { return data_.writes_copy() || this->mask_.writes_copy(); }
  /// @brief Whether the column's memory was made elsewhere (an import): writes copy it first.
  [[nodiscard]] bool is_borrowed() const noexcept { return data_.is_borrowed() || this->mask_.is_borrowed(); }
  /**
   * @brief Another column on the same buffers even when they are exposed (rule 12, which makes a
   * shallow copy of exposed memory a deep one, does not apply): for keeping exposed memory alive
   * while a third party uses it (a DLPack export). O(1).
   */
  [[nodiscard]] fixed_width_rows alias() const noexcept {
    fixed_width_rows out;
    out.data_ = data_.alias();
    this->alias_rows(out);
    return out;
  }
  /// @brief Whether the column's memory was exposed, handed out as a raw mutable pointer, which
  /// marks it for good (rule 11).
  [[nodiscard]] bool is_exposed() const noexcept { return data_.is_exposed() || this->mask_.is_exposed(); }
  /// @brief Whether writes copy first.
  [[nodiscard]] bool copy_on_write() const noexcept { return data_.copy_on_write(); }
  /// @brief The values' buffer (the whole allocation this column's rows are in).
  [[nodiscard]] buffer_type const& data_buffer() const noexcept { return data_; }
  /// @brief The resource that made the values' memory.
  [[nodiscard]] resource_type resource() const { return data_.resource(); }
  /// @brief The name of the resource that made the values' memory.
  [[nodiscard]] std::string resource_name() const { return data_.resource_name(); }

  /// @brief Shares `other`'s buffers (rule 1: a copy shares the owner, in O(1)); if they are
  /// exposed, copies its rows instead, since a third party may be writing them (rule 12).
  /// @param other the column copied
  /// @throws what allocation and copying throw, when exposed rows are copied
  fixed_width_rows(fixed_width_rows const& other)
      : fixed_width_rows(other.must_copy_to_share() ? other.copy_rows(0, other.size_, other.null_count_,
                                                                      other.data_.stream(), keep_mode::of_source)
                                                    : fixed_width_rows(shared_tag{}, other)) {}
  /// @brief Takes over `other`'s buffers in O(1), leaving it empty.
  fixed_width_rows(fixed_width_rows&& other) noexcept = default;
  ~fixed_width_rows() = default;

 protected:
  fixed_width_rows() noexcept = default;
  /// `size` uninitialised rows from `resource`, with a mask as `mask` says (filled on `stream`).
  fixed_width_rows(std::size_t size, stream_ref stream, mask_state mask, resource_type resource)
      : rows_base(buffer_type{}, size, 0, 0), data_(byte_size(size), stream, mr::default_alignment, resource) {
    this->allocate_mask(mask, std::move(resource), stream);
  }
  /// Adopts the buffers for rows [offset, offset + size), checked.
  fixed_width_rows(buffer_type data, buffer_type mask, std::size_t size, std::size_t null_count, std::size_t offset)
      : rows_base(std::move(mask), size, null_count, offset), data_(std::move(data)) {
    check_values_buffer(data_.size(), data_.offset(), offset, size, Width, Align);
    this->check_rows_state();
  }
  /// By copy and swap: strong guarantee.
  fixed_width_rows& operator=(fixed_width_rows other) noexcept { return this->assign_by_swap(other); }

  /// The nulls of each range [first, second), each checked against size(), counted in one launch
  /// (which synchronises `stream` three times: see segmented_count_unset_bits); none when the
  /// column has no nulls or only nulls. The caller holds the operation's spill lock.
  /// @throws devcol::logic_error naming the first bad range
  [[nodiscard]] std::vector<std::size_t> nulls_in_ranges(std::span<std::pair<std::size_t, std::size_t> const> ranges,
                                                         stream_ref stream) const {
    std::vector<std::pair<std::size_t, std::size_t>> bits;
    bits.reserve(ranges.size());
    for (auto const& [begin, end] : ranges) {
      check_rows(kind_name, "::slice", begin, end, this->size_);
      bits.emplace_back(this->offset_ + begin, this->offset_ + end);
    }
    std::vector<std::size_t> nulls(ranges.size(), 0);
    if (this->null_count_ == this->size_) {
      for (std::size_t i = 0; i < ranges.size(); ++i) { nulls[i] = ranges[i].second - ranges[i].first; }
    } else if (this->null_count_ != 0 && !ranges.empty()) {
      nulls = segmented_count_unset_bits(this->null_mask(access::read), bits, stream);
    }
    return nulls;
  }

  /// Rows [begin, end), which have `nulls` nulls: sharing the buffers (rules 1 and 8), or a copy of
  /// the rows when they are exposed (rule 12), in order on `stream`.
  [[nodiscard]] fixed_width_rows range(std::size_t begin, std::size_t end, std::size_t nulls, stream_ref stream) const {
    return must_copy_to_share() ? copy_rows(begin, end, nulls, stream, keep_mode::of_source)
                                : slice_of(begin, end, nulls);
  }

  /// Bytes of `rows` values.
  static std::size_t byte_size(std::size_t rows) { return value_bytes(rows, Width); }

  buffer_type data_;

 private:
  auto own_state() noexcept { return std::tie(data_); }

  // A shallow slice with a known null count; only for buffers that may be shared (not exposed).
  [[nodiscard]] fixed_width_rows slice_of(std::size_t begin, std::size_t end, std::size_t nulls) const {
    fixed_width_rows out(shared_tag{}, *this);
    this->narrow(out, begin, end, nulls);
    return out;
  }

  // Which sharing mode a copy takes (rule 9): this column's, for the copy a write or exposed memory
  // makes of it; the mode in force, for a deep copy asked for.
  enum class keep_mode : bool { in_force, of_source };

  // Fresh buffers holding rows [begin, end), which have `nulls` nulls, at offset 0.
  [[nodiscard]] fixed_width_rows copy_rows(std::size_t begin, std::size_t end, std::size_t nulls, stream_ref stream,
                                           keep_mode mode) const {
    std::optional<keep_sharing_mode<Policy>> kept;
    if (mode == keep_mode::of_source) { (void)kept.emplace(copy_on_write()); }
    fixed_width_rows out;
    std::size_t const rows = end - begin;
    auto copied = copy_value_rows(data_, this->mask_, this->offset_ + begin, rows, Width, stream);
    out.data_ = std::move(copied.values);
    out.mask_ = std::move(copied.mask);
    out.size_ = rows;
    out.null_count_ = nulls;
    return out;
  }

  [[nodiscard]] bool must_copy_to_share() const noexcept { return copy_on_write() && is_exposed(); }

  struct shared_tag {};
  // Shares `other`'s buffers as they are: only for buffers that may be shared (not exposed).
  fixed_width_rows(shared_tag, fixed_width_rows const& other) : rows_base(other), data_(other.data_) {}

 protected:
  /// Rule 3: a writer whose buffers are shared (or borrowed) takes its own copy of its own rows,
  /// mask included.
  void unshare(stream_ref stream) {
    if (writes_copy()) { *this = copy_rows(0, this->size_, this->null_count_, stream, keep_mode::of_source); }
  }
};

}  // namespace detail
DEVCOL_NAMESPACE_END
