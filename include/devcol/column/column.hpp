/**
 * @file column.hpp
 * @brief `devcol::column`: an owning, typed, Arrow-layout column of fixed-width values.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column_view.hpp>
#include <devcol/column/detail/rows.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/source_location.hpp>
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
}  // namespace detail

/**
 * @brief `size()` rows of `T` in Arrow layout: a data buffer, an optional validity bitmask, the
 * offset of the first row in both, the size and the null count, which is always known.
 *
 * Sharing follows the policy (copy-on-write by default; see devcol::buffer): copies and slices
 * share the buffers in O(1) (rule 1), read access never copies (rule 2), and the first write
 * through a handle whose buffers are shared gives it its own copy of its own rows (rule 3), and
 * only then (rule 4). Moving leaves an empty column.
 *
 * @tparam T a fixed-width element type (`devcol::fixed_width`)
 * @tparam Policy a buffer policy (`devcol::default_policy` unless named)
 */
template <fixed_width T, buffer_policy Policy = default_policy>
class column : public detail::column_rows<column<T, Policy>, Policy> {
  using rows_base = detail::column_rows<column, Policy>;
  friend rows_base;
  using rows_base::mask_, rows_base::null_count_, rows_base::offset_, rows_base::size_;
  static constexpr std::string_view kind_name = "column";

 public:
  /// The element type.
  using value_type = T;
  using typename rows_base::buffer_type, typename rows_base::policy, typename rows_base::resource_type;

  /// @brief An empty column: 0 rows, nothing allocated.
  column() noexcept = default;

  /**
   * @brief `size` uninitialised rows from the policy's resource (for `default_policy`, this thread's
   * default resource now), with a mask as `mask` says (filled in order on `stream`).
   * @param size the number of rows
   * @param stream the stream the allocations and the mask's fill are ordered on; not synchronised
   * @param mask whether a mask is allocated, and with every row valid or null
   * @throws devcol::out_of_memory, devcol::logic_error naming a size past PTRDIFF_MAX bytes (a negative
   *         count converted to size_t, or an overflow)
   */
  explicit column(std::size_t size, stream_ref stream = {}, mask_state mask = mask_state::unallocated)
      : column(size, stream, mask, detail::policy_resource<typename Policy::resource>()) {}

  /// @brief As above, with memory from `resource`. Throws as above.
  /// @param size the number of rows
  /// @param stream the stream the allocations and the mask's fill are ordered on
  /// @param mask whether a mask is allocated, and with every row valid or null
  /// @param resource what the values and the mask are allocated from (and later freed through)
  column(std::size_t size, stream_ref stream, mask_state mask, resource_type resource)
      : rows_base(buffer_type{}, size, 0, 0), data_(byte_size(size), stream, mr::default_alignment, resource) {
    this->allocate_mask(mask, std::move(resource), stream);
  }

  /**
   * @brief Adopts buffers: rows [offset, offset + size) of `data` (as `T`s), validity from bits
   * [offset, offset + size) of `mask` (empty: no mask), with `null_count` nulls (not recounted).
   * O(1); nothing is copied or synchronised.
   * @param data the values, at least `offset + size` of them, aligned for `T`
   * @param mask the validity words covering bits [offset, offset + size), or empty for no mask
   * @param size the number of rows
   * @param null_count the number of null rows among them, trusted as given
   * @param offset the first row, in data and mask alike
   * @throws devcol::logic_error naming the sizes when the buffers are too small, the count too big, or
   *         offset or size past PTRDIFF_MAX bytes (so their sum cannot wrap)
   */
  column(buffer_type data, buffer_type mask, std::size_t size, std::size_t null_count, std::size_t offset = 0)
      : rows_base(std::move(mask), size, null_count, offset), data_(std::move(data)) {
    detail::check_values_buffer(data_.size(), data_.offset(), offset, size, sizeof(T), alignof(T));
    this->check_rows_state();
  }

  /// @brief Shares `other`'s buffers (rule 1: a copy shares the owner, in O(1)); if they are
  /// exposed, copies its rows instead, since a third party may be writing them (rule 12).
  /// @param other the column copied
  /// @throws what allocation and copying throw, when exposed rows are copied
  column(column const& other)
      : column(other.must_copy_to_share()
                   ? other.copy_rows(0, other.size_, other.null_count_, other.data_.stream(), keep_mode::of_source)
                   : column(shared_tag{}, other)) {}
  /// @brief Takes over `other`'s buffers in O(1), leaving it empty.
  column(column&& other) noexcept = default;
  /// @brief Copy and move assignment in one, by copy and swap: strong guarantee.
  column& operator=(column other) noexcept { return this->assign_by_swap(other); }

  /**
   * @brief A column owning fresh memory holding a copy of this column's rows only (rules 7 and 8: a
   * deep copy always owns fresh memory, and a slice's copy holds only its range), made in order on
   * `stream` (asynchronous on CUDA) with this column's device current, and on that device
   * (rule 21); its offset is 0.
   * @param stream the stream the copies are ordered on; not synchronised
   * @throws what allocation and copying throw
   */
  [[nodiscard]] column deep_copy(stream_ref stream = {}) const {
    return copy_rows(0, size_, null_count_, stream, keep_mode::in_force);
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
  [[nodiscard]] column slice(std::size_t begin, std::size_t end, stream_ref stream = {}) const {
    detail::operation_spill_lock<Policy> const spill_scope{stream};
    std::size_t const nulls = this->nulls_in_rows(begin, end, stream);
    return must_copy_to_share() ? copy_rows(begin, end, nulls, stream, keep_mode::of_source) : slice_of(begin, end, nulls);
  }

  /**
   * @brief One slice per range [first, second), as slice() does, with the nulls of all ranges
   * counted in one launch (which this synchronises).
   * @param ranges the row ranges, each [first, second) within [0, size()), in any order
   * @param stream the stream the count and any copies are ordered on
   * @returns one column per range, in the ranges' order
   * @throws devcol::logic_error naming the first bad range
   */
  [[nodiscard]] std::vector<column> slice(std::span<std::pair<std::size_t, std::size_t> const> ranges,
                                          stream_ref stream = {}) const {
    detail::operation_spill_lock<Policy> const spill_scope{stream};
    std::vector<std::pair<std::size_t, std::size_t>> bits;
    bits.reserve(ranges.size());
    for (auto const& [begin, end] : ranges) {
      detail::check_rows(kind_name, "::slice", begin, end, size_);
      bits.emplace_back(offset_ + begin, offset_ + end);
    }
    std::vector<std::size_t> nulls(ranges.size(), 0);
    if (null_count_ == size_) {
      for (std::size_t i = 0; i < ranges.size(); ++i) { nulls[i] = ranges[i].second - ranges[i].first; }
    } else if (null_count_ != 0 && !ranges.empty()) {
      nulls = segmented_count_unset_bits(this->null_mask(access::read), bits, stream);
    }
    std::vector<column> slices;
    slices.reserve(ranges.size());
    for (std::size_t i = 0; i < ranges.size(); ++i) {
      auto const [begin, end] = ranges[i];
      slices.push_back(must_copy_to_share() ? copy_rows(begin, end, nulls[i], stream, keep_mode::of_source)
                                            : slice_of(begin, end, nulls[i]));
    }
    return slices;
  }

  /// @brief The first row, read-only: never copies, never exposes (rules 2 and 13).
  [[nodiscard]] T const* data(access::read_t) const noexcept(!Policy::spill::enabled) {
    return static_cast<T const*>(data_.data(access::read)) + offset_;
  }
  /**
   * @brief The first row, writable: if the buffers are shared under copy-on-write, or borrowed (an
   * import), this column first gets its own copy of its rows, in order on `stream` (rule 3: other
   * handles keep the old values); otherwise nothing is copied (rule 4: a sole owner writes in
   * place). The pointer is for use before this column is next copied or sliced.
   * @param stream the stream a copy, if one is needed, is ordered on
   * @throws what allocation and copying throw, when the rows are copied
   */
  [[nodiscard]] T* data(access::write_t, stream_ref stream = {}) {
    unshare(stream);
    // After unshare() this column's rows are its own (or views by policy): the buffer need not
    // check its count a second time on this hot path.
    return const_cast<T*>(data(access::read));
  }

  /// @brief A read-only view; never copies. Spillable: unspills first; taken under a
  /// `devcol::spill_lock` the buffers stay on the device until the lock ends, taken outside every
  /// lock they stay there for good (rule 20).
  [[nodiscard]] column_view<T> view() const noexcept(!Policy::spill::enabled) {
    if constexpr (Policy::spill::enabled) {
      // Both buffers reach the device before either is pinned: if the mask's unspill fails, the
      // values are left on the device but spillable, as they would be after any failed access.
      detail::operation_spill_lock<Policy> const bring_both;
      (void)data(access::read);
      (void)this->null_mask(access::read);
    }
    return column_view<T>{data(access::read), size_, this->null_mask(access::read), offset_, null_count_};
  }
  /// @brief Same as view().
  operator column_view<T>() const noexcept(!Policy::spill::enabled) { return view(); }  // NOLINT: implicit, as libcudf's

  /**
   * @brief A writable view, which code may keep: unshares as data(access::write) does, then marks
   * the buffers exposed (rule 11: a raw mutable pointer handed out marks them, for good), so later
   * copies are deep (rule 12).
   * @param stream the stream a copy, if one is needed, is ordered on
   * @throws what allocation and copying throw, when the rows are copied
   */
  [[nodiscard]] mutable_column_view<T> mutable_view(stream_ref stream = {})
    requires(!Policy::spill::enabled)
  {
    T* values = expose(stream);
    auto* mask = this->nullable() ? static_cast<bitmask_word*>(mask_.expose(stream)) : nullptr;
    return mutable_column_view<T>{values, size_, mask, offset_, null_count_};
  }
  /// @brief As above for a spillable policy; `where` is recorded at spill statistics level 2.
  /// @param stream the stream a copy or unspill is ordered on
  /// @param where the place recorded for the exposure; the caller unless given
  /// @throws what allocation and copying throw
  [[nodiscard]] mutable_column_view<T> mutable_view(stream_ref stream = {},
                                                    source_location where = source_location::current())
    requires Policy::spill::enabled
  {
    T* values = expose(stream, where);
    auto* mask = this->nullable() ? static_cast<bitmask_word*>(mask_.expose(stream, where)) : nullptr;
    return mutable_column_view<T>{values, size_, mask, offset_, null_count_};
  }

  /// @brief A writable pointer to the first row for code outside devcol to keep: unshares as
  /// data(access::write) does, then marks the buffer exposed for good (rule 11).
  /// @param stream the stream a copy, if one is needed, is ordered on
  /// @throws what allocation and copying throw, when the rows are copied
  [[nodiscard]] T* expose(stream_ref stream = {})
    requires(!Policy::spill::enabled)
  {
    unshare(stream);
    return static_cast<T*>(data_.expose(stream)) + offset_;
  }
  /// @brief As above for a spillable policy: unspills first, never spilled again (rule 14);
  /// `where` (the caller, unless given) is recorded at spill statistics level 2 (rule 19).
  /// @param stream the stream a copy or unspill is ordered on
  /// @param where the place recorded for the exposure
  /// @throws what allocation and copying throw
  [[nodiscard]] T* expose(stream_ref stream = {}, source_location where = source_location::current())
    requires Policy::spill::enabled
  {
    unshare(stream);
    return static_cast<T*>(data_.expose(stream, where)) + offset_;
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
    return data_.spill(stream) + mask_.spill(stream);
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
      mask_.unspill(stream);
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
    return data_.is_spilled() || mask_.is_spilled();
  }

  /// @brief Whether another handle shares this column's buffers.
  [[nodiscard]] bool is_shared() const noexcept { return data_.is_shared() || mask_.is_shared(); }
  /// @brief Whether write access would copy first (the buffers are shared under copy-on-write, or
  /// borrowed). O(1). In-place ops use it to do the copy aside and commit only when nothing can fail.
  [[nodiscard]] bool writes_copy() const noexcept { return data_.writes_copy() || mask_.writes_copy(); }
  /// @brief Whether the column's memory was made elsewhere (an import): writes copy it first.
  [[nodiscard]] bool is_borrowed() const noexcept { return data_.is_borrowed() || mask_.is_borrowed(); }
  /**
   * @brief Another column on the same buffers even when they are exposed (rule 12, which makes a
   * shallow copy of exposed memory a deep one, does not apply): for keeping exposed memory alive
   * while a third party uses it (a DLPack export). O(1).
   */
  [[nodiscard]] column alias() const noexcept {
    column out;
    out.data_ = data_.alias();
    this->alias_rows(out);
    return out;
  }
  /// @brief Whether the column's memory was exposed, handed out as a raw mutable pointer, which
  /// marks it for good (rule 11).
  [[nodiscard]] bool is_exposed() const noexcept { return data_.is_exposed() || mask_.is_exposed(); }
  /// @brief Whether writes copy first.
  [[nodiscard]] bool copy_on_write() const noexcept { return data_.copy_on_write(); }
  /// @brief The values' buffer (the whole allocation this column's rows are in).
  [[nodiscard]] buffer_type const& data_buffer() const noexcept { return data_; }
  /**
   * @brief A new column of `size` uninitialised `U` rows from the resource that made this one's
   * values (what ops allocate their results from), with a mask as `mask` says. Allocates in order
   * on `stream`; copies nothing from this column.
   * @tparam U the new column's fixed-width value type (need not be `T`)
   * @param size the number of rows
   * @param stream the stream the allocation (and a mask's fill) is ordered on
   * @param mask whether a mask is allocated, and with every row valid or null
   * @throws devcol::out_of_memory; devcol::logic_error for a size past PTRDIFF_MAX bytes
   */
  template <fixed_width U>
  [[nodiscard]] column<U, Policy> make_like(std::size_t size, stream_ref stream, mask_state mask = mask_state::unallocated) const {
    return column<U, Policy>(size, stream, mask, data_.resource());
  }
  /// @brief The resource that made the values' memory.
  [[nodiscard]] resource_type resource() const { return data_.resource(); }
  /// @brief The name of the resource that made the values' memory.
  [[nodiscard]] std::string resource_name() const { return data_.resource_name(); }

 private:
  auto own_state() noexcept { return std::tie(data_); }
  static std::size_t byte_size(std::size_t rows) { return detail::value_bytes(rows, sizeof(T)); }

  // A shallow slice with a known null count; only for buffers that may be shared (not exposed).
  [[nodiscard]] column slice_of(std::size_t begin, std::size_t end, std::size_t nulls) const {
    column out(shared_tag{}, *this);
    this->narrow(out, begin, end, nulls);
    return out;
  }

  // Which sharing mode a copy takes (rule 9): this column's, for the copy a write or exposed memory
  // makes of it; the mode in force, for a deep copy asked for.
  enum class keep_mode : bool { in_force, of_source };

  // Fresh buffers holding rows [begin, end), which have `nulls` nulls, at offset 0.
  [[nodiscard]] column copy_rows(std::size_t begin, std::size_t end, std::size_t nulls, stream_ref stream,
                                 keep_mode mode) const {
    scoped_device const on_device(data_.device());  // rule 21: copied on, and allocated on, this column's device
    detail::operation_spill_lock<Policy> const spill_scope{stream};
    std::optional<detail::keep_sharing_mode<Policy>> kept;
    if (mode == keep_mode::of_source) { (void)kept.emplace(copy_on_write()); }
    column out;
    std::size_t const rows = end - begin;
    out.data_ = detail::copy_value_bytes(data_, byte_size(offset_ + begin), byte_size(rows), stream);
    out.mask_ = detail::copy_mask_bits(mask_, offset_ + begin, offset_ + end, stream);
    out.size_ = rows;
    out.null_count_ = nulls;
    return out;
  }

  [[nodiscard]] bool must_copy_to_share() const noexcept { return copy_on_write() && is_exposed(); }

  struct shared_tag {};
  // Shares `other`'s buffers as they are: only for buffers that may be shared (not exposed).
  column(shared_tag, column const& other) : rows_base(other), data_(other.data_) {}

  // Rule 3: a writer whose buffers are shared (or borrowed) takes its own copy of its own rows,
  // mask included.
  void unshare(stream_ref stream) {
    if (writes_copy()) { *this = copy_rows(0, size_, null_count_, stream, keep_mode::of_source); }
  }

  buffer_type data_;
};

DEVCOL_NAMESPACE_END
