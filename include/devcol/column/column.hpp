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
#include <devcol/core/source_location.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/resource.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

/// @brief How a new column's validity mask starts.
enum class mask_state {
  unallocated,  ///< no mask: every row valid, nothing allocated
  all_valid,    ///< a mask with every row valid
  all_null      ///< a mask with every row null
};

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
class column {
 public:
  /// The element type.
  using value_type = T;
  /// The buffers' policy.
  using policy = Policy;
  /// The buffer type holding the values and the mask.
  using buffer_type = buffer<Policy>;
  /// What the buffers keep of their resource (see buffer::resource_type).
  using resource_type = typename buffer_type::resource_type;

  /// @brief An empty column: 0 rows, nothing allocated.
  column() noexcept = default;

  /**
   * @brief `size` uninitialised rows from the policy's resource (for `default_policy`, this thread's
   * default resource now), with a mask as `mask` says (filled in order on `stream`).
   * @throws devcol::out_of_memory, devcol::logic_error naming a size past PTRDIFF_MAX bytes (a negative
   *         count converted to size_t, or an overflow)
   */
  explicit column(std::size_t size, stream_ref stream = {}, mask_state mask = mask_state::unallocated)
      : column(size, stream, mask, detail::policy_resource<typename Policy::resource>()) {}

  /// @brief As above, with memory from `resource`.
  column(std::size_t size, stream_ref stream, mask_state mask, resource_type resource)
      : data_(byte_size(size), stream, mr::default_alignment, resource), size_(size) {
    if (mask != mask_state::unallocated) {
      std::size_t const bytes = bitmask_allocation_size(size);
      mask_ = buffer_type(bytes, stream, mr::default_alignment, std::move(resource));
      fill_bytes(mask_.data(access::write, stream), mask == mask_state::all_valid ? 0xFF : 0x00, bytes, stream);
      null_count_ = mask == mask_state::all_null ? size : 0;
    }
  }

  /**
   * @brief Adopts buffers: rows [offset, offset + size) of `data` (as `T`s), validity from bits
   * [offset, offset + size) of `mask` (empty: no mask), with `null_count` nulls (not recounted).
   * @throws devcol::logic_error naming the sizes when the buffers are too small, the count too big, or
   *         offset or size past PTRDIFF_MAX bytes (so their sum cannot wrap)
   */
  column(buffer_type data, buffer_type mask, std::size_t size, std::size_t null_count, std::size_t offset = 0)
      : data_(std::move(data)), mask_(std::move(mask)), offset_(offset), size_(size), null_count_(null_count) {
    DEVCOL_EXPECTS(offset <= max_rows && size <= max_rows, "column: offset ", offset, " and size ", size,
                   " cannot be rows of memory (a negative value converted to size_t?)");
    DEVCOL_EXPECTS(data_.size() >= byte_size(offset + size), "column: a data buffer of ", data_.size(),
                   " bytes cannot hold rows [", offset, ", ", offset + size, ") of ", sizeof(T), " bytes");
    check_mask(mask_, offset, size);
    DEVCOL_EXPECTS(data_.offset() % alignof(T) == 0, "column: a data buffer at byte offset ", data_.offset(),
                   " is not aligned for ", sizeof(T), "-byte values");
    check_null_count(null_count, size, !mask_.empty());
  }

  /// @brief Shares `other`'s buffers (rule 1); if they are exposed, copies its rows instead (rule 12).
  column(column const& other)
      : column(other.must_copy_to_share() ? other.copy_rows(0, other.size_, other.null_count_, other.data_.stream())
                                          : column(shared_tag{}, other)) {}
  /// @brief Takes over `other`'s buffers; `other` becomes empty.
  column(column&& other) noexcept
      : data_(std::move(other.data_)),
        mask_(std::move(other.mask_)),
        offset_(std::exchange(other.offset_, 0)),
        size_(std::exchange(other.size_, 0)),
        null_count_(std::exchange(other.null_count_, 0)) {}
  /// @brief As the copy constructor; releases what this column held.
  column& operator=(column const& other) {
    if (this != &other) { *this = column(other); }
    return *this;
  }
  /// @brief Releases what this column held, then takes over `other`'s buffers.
  column& operator=(column&& other) noexcept {
    column taken(std::move(other));
    swap(taken);
    return *this;
  }
  ~column() = default;

  /// @brief Exchanges two columns. O(1), never throws.
  void swap(column& other) noexcept {
    data_.swap(other.data_);
    mask_.swap(other.mask_);
    std::swap(offset_, other.offset_);
    std::swap(size_, other.size_);
    std::swap(null_count_, other.null_count_);
  }

  /**
   * @brief A column owning fresh memory holding a copy of this column's rows only (rules 7 and 8),
   * made in order on `stream` (asynchronous on CUDA); its offset is 0.
   * @throws what allocation and copying throw
   */
  [[nodiscard]] column deep_copy(stream_ref stream = {}) const { return copy_rows(0, size_, null_count_, stream); }

  /**
   * @brief Rows [begin, end), sharing this column's buffers with the offsets summed (rules 1 and 8;
   * O(1) when the column has no nulls, or only nulls). Otherwise the slice's nulls are counted in one
   * pass over its bits, in order on `stream`, which this synchronises. If the buffers are exposed,
   * copies the rows (rule 12).
   * @throws devcol::logic_error naming the bounds unless begin <= end <= size()
   */
  [[nodiscard]] column slice(std::size_t begin, std::size_t end, stream_ref stream = {}) const {
    check_range(begin, end);
    std::size_t const nulls = null_count_ == 0     ? 0
                              : null_count_ == size_ ? end - begin  // all null: no kernel either
                                                     : count_unset_bits(null_mask(access::read), offset_ + begin, offset_ + end, stream);
    return must_copy_to_share() ? copy_rows(begin, end, nulls, stream) : slice_of(begin, end, nulls);
  }

  /**
   * @brief One slice per range [first, second), as slice() does, with the nulls of all ranges
   * counted in one launch (which this synchronises).
   * @throws devcol::logic_error naming the first bad range
   */
  [[nodiscard]] std::vector<column> slice(std::span<std::pair<std::size_t, std::size_t> const> ranges,
                                          stream_ref stream = {}) const {
    std::vector<std::pair<std::size_t, std::size_t>> bits;
    bits.reserve(ranges.size());
    for (auto const& [begin, end] : ranges) {
      check_range(begin, end);
      bits.emplace_back(offset_ + begin, offset_ + end);
    }
    std::vector<std::size_t> nulls(ranges.size(), 0);
    if (null_count_ == size_) {
      for (std::size_t i = 0; i < ranges.size(); ++i) { nulls[i] = ranges[i].second - ranges[i].first; }
    } else if (null_count_ != 0 && !ranges.empty()) {
      nulls = segmented_count_unset_bits(null_mask(access::read), bits, stream);
    }
    std::vector<column> slices;
    slices.reserve(ranges.size());
    for (std::size_t i = 0; i < ranges.size(); ++i) {
      auto const [begin, end] = ranges[i];
      slices.push_back(must_copy_to_share() ? copy_rows(begin, end, nulls[i], stream) : slice_of(begin, end, nulls[i]));
    }
    return slices;
  }

  /// @brief The first row, read-only: never copies, never exposes (rules 2 and 13).
  [[nodiscard]] T const* data(access::read_t) const noexcept(!Policy::spill::enabled) {
    return static_cast<T const*>(data_.data(access::read)) + offset_;
  }
  /**
   * @brief The first row, writable: if the buffers are shared under copy-on-write, or borrowed
   * (an import), this column first gets its own copy of its rows, in order on `stream` (rule 3); otherwise nothing is
   * copied (rule 4). The pointer is for use before this column is next copied or sliced.
   */
  [[nodiscard]] T* data(access::write_t, stream_ref stream = {}) {
    unshare(stream);
    // After unshare() this column's rows are its own (or views by policy): the buffer need not
    // check its count a second time on this hot path.
    return const_cast<T*>(data(access::read));
  }
  /**
   * @brief The validity mask, writable (null without one), after the same unsharing as
   * data(access::write); row 0 is bit offset(). Writing it does not update null_count(): state the
   * new count with set_null_count().
   */
  [[nodiscard]] bitmask_word* null_mask(access::write_t, stream_ref stream = {}) {
    unshare(stream);
    return const_cast<bitmask_word*>(null_mask(access::read));
  }
  /**
   * @brief Replaces the validity mask (empty: none) and states its null count, keeping the values
   * as they are (never copied, even if exposed). Row 0 is bit offset() of `mask`.
   * @throws devcol::logic_error when the mask is too small or misaligned, or the count impossible
   */
  void replace_null_mask(buffer_type mask, std::size_t null_count) {
    check_mask(mask, offset_, size_);
    check_null_count(null_count, size_, !mask.empty());
    mask_ = std::move(mask);
    null_count_ = null_count;
  }

  /**
   * @brief States the null count after the mask was written through null_mask(access::write).
   * @throws devcol::logic_error if the count is impossible for the column
   */
  void set_null_count(std::size_t null_count) {
    check_null_count(null_count, size_, nullable());
    null_count_ = null_count;
  }
  /// @brief The validity mask, read-only (null without one); row 0 is bit offset().
  [[nodiscard]] bitmask_word const* null_mask(access::read_t) const noexcept(!Policy::spill::enabled) {
    return static_cast<bitmask_word const*>(mask_.data(access::read));
  }

  /// @brief A read-only view; never copies. Spillable: unspills first; the view stays valid until
  /// the next spill unless taken under a `devcol::spill_lock`.
  [[nodiscard]] column_view<T> view() const noexcept(!Policy::spill::enabled) {
    return column_view<T>{data(access::read), size_, null_mask(access::read), offset_, null_count_};
  }
  /// @brief Same as view().
  operator column_view<T>() const noexcept(!Policy::spill::enabled) { return view(); }  // NOLINT: implicit, as libcudf's

  /**
   * @brief A writable view, which code may keep: unshares as data(access::write) does, then marks
   * the buffers exposed (rule 11), so later copies are deep (rule 12).
   */
  [[nodiscard]] mutable_column_view<T> mutable_view(stream_ref stream = {})
    requires(!Policy::spill::enabled)
  {
    T* values = expose(stream);
    auto* mask = nullable() ? static_cast<bitmask_word*>(mask_.expose(stream)) : nullptr;
    return mutable_column_view<T>{values, size_, mask, offset_, null_count_};
  }
  /// @brief As above for a spillable policy; `where` is recorded at spill statistics level 2.
  [[nodiscard]] mutable_column_view<T> mutable_view(stream_ref stream = {},
                                                    source_location where = source_location::current())
    requires Policy::spill::enabled
  {
    T* values = expose(stream, where);
    auto* mask = nullable() ? static_cast<bitmask_word*>(mask_.expose(stream, where)) : nullptr;
    return mutable_column_view<T>{values, size_, mask, offset_, null_count_};
  }

  /// @brief A writable pointer to the first row for code outside devcol to keep (rule 11).
  [[nodiscard]] T* expose(stream_ref stream = {})
    requires(!Policy::spill::enabled)
  {
    unshare(stream);
    return static_cast<T*>(data_.expose(stream)) + offset_;
  }
  /// @brief As above for a spillable policy: unspills first, never spilled again (rule 14);
  /// `where` (the caller, unless given) is recorded at spill statistics level 2 (rule 19).
  [[nodiscard]] T* expose(stream_ref stream = {}, source_location where = source_location::current())
    requires Policy::spill::enabled
  {
    unshare(stream);
    return static_cast<T*>(data_.expose(stream, where)) + offset_;
  }

  /**
   * @brief Spillable policies: moves both buffers to host memory, freeing their device memory,
   * unless exposed or spill-locked (rules 14, 15). Synchronises `stream`.
   * @returns the device bytes freed
   */
  std::size_t spill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    return data_.spill(stream) + mask_.spill(stream);
  }
  /// @brief Spillable policies: brings both buffers back to the device. Synchronises. If the mask
  /// cannot be brought back, the values go back to the host (best effort), so a failure frees the
  /// device memory it took. @throws devcol::out_of_memory
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

  /// @brief The number of rows.
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  /// @brief Whether there are no rows.
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  /// @brief The number of null rows: always known, never computed behind the caller's back.
  [[nodiscard]] std::size_t null_count() const noexcept { return null_count_; }
  /// @brief Whether the column has a validity mask.
  [[nodiscard]] bool nullable() const noexcept { return !mask_.empty(); }
  /// @brief Whether any row is null.
  [[nodiscard]] bool has_nulls() const noexcept { return null_count_ != 0; }
  /// @brief The first row's index in the buffers (Arrow's offset).
  [[nodiscard]] std::size_t offset() const noexcept { return offset_; }
  /// @brief Whether another handle shares this column's buffers.
  [[nodiscard]] bool is_shared() const noexcept { return data_.is_shared() || mask_.is_shared(); }
  /// @brief Whether write access would copy first (the buffers are shared under copy-on-write, or
  /// borrowed). O(1). In-place ops use it to do the copy aside and commit only when nothing can fail.
  [[nodiscard]] bool writes_copy() const noexcept { return data_.writes_copy() || mask_.writes_copy(); }
  /// @brief Whether the column's memory was made elsewhere (an import): writes copy it first.
  [[nodiscard]] bool is_borrowed() const noexcept { return data_.is_borrowed() || mask_.is_borrowed(); }
  /**
   * @brief Another column on the same buffers even when they are exposed (rule 12 does not apply):
   * for keeping exposed memory alive while a third party uses it (a DLPack export). O(1).
   */
  [[nodiscard]] column alias() const noexcept {
    column out;
    out.data_ = data_.alias();
    out.mask_ = mask_.alias();
    out.offset_ = offset_;
    out.size_ = size_;
    out.null_count_ = null_count_;
    return out;
  }
  /// @brief Whether the column's memory was exposed (rule 11).
  [[nodiscard]] bool is_exposed() const noexcept { return data_.is_exposed() || mask_.is_exposed(); }
  /// @brief Whether writes copy first.
  [[nodiscard]] bool copy_on_write() const noexcept { return data_.copy_on_write(); }
  /// @brief The values' buffer (the whole allocation this column's rows are in).
  [[nodiscard]] buffer_type const& data_buffer() const noexcept { return data_; }
  /// @brief The mask's buffer (empty without a mask).
  [[nodiscard]] buffer_type const& mask_buffer() const noexcept { return mask_; }
  /**
   * @brief A new column of `size` uninitialised `U` rows from the resource that made this one's
   * values (what ops allocate their results from), with a mask as `mask` says.
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
  static void check_null_count(std::size_t null_count, std::size_t size, bool has_mask) {
    detail::check_null_count("column", null_count, size, has_mask);
  }
  static void check_mask(buffer_type const& mask, std::size_t offset, std::size_t size) {
    detail::check_mask("column", mask, offset, size);
  }

  // No object is larger than PTRDIFF_MAX bytes: a size past it is a negative count converted to
  // size_t (or an overflow), never a real request.
  static constexpr std::size_t max_rows = static_cast<std::size_t>(PTRDIFF_MAX) / sizeof(T);

  static std::size_t byte_size(std::size_t rows) {
    DEVCOL_EXPECTS(rows <= max_rows, "column: ", rows, " rows of ", sizeof(T),
                   " bytes are more than memory holds (a negative size converted to size_t?)");
    return rows * sizeof(T);
  }

  void check_range(std::size_t begin, std::size_t end) const { detail::check_rows("column::slice", begin, end, size_); }

  // A shallow slice with a known null count; only for buffers that may be shared (not exposed).
  [[nodiscard]] column slice_of(std::size_t begin, std::size_t end, std::size_t nulls) const {
    column out;
    out.data_ = data_;
    out.mask_ = mask_;
    out.offset_ = offset_ + begin;
    out.size_ = end - begin;
    out.null_count_ = nulls;
    return out;
  }

  // Fresh buffers holding rows [begin, end), which have `nulls` nulls, at offset 0.
  [[nodiscard]] column copy_rows(std::size_t begin, std::size_t end, std::size_t nulls, stream_ref stream) const {
    column out;
    std::size_t const rows = end - begin;
    if constexpr (Policy::spill::enabled) {
      // Through the buffer: a spilled one is copied on the host side and stays spilled.
      std::size_t const first = byte_size(offset_ + begin);
      out.data_ = data_.slice(first, first + byte_size(rows)).deep_copy(stream);
    } else {
      out.data_ = buffer_type(byte_size(rows), stream, mr::default_alignment, data_.resource());
      copy_bytes(out.data_.data(access::write, stream), data(access::read) + begin, byte_size(rows), stream);
    }
    if (nullable()) {
      std::size_t const bytes = bitmask_allocation_size(rows);
      out.mask_ = buffer_type(bytes, stream, mr::default_alignment, mask_.resource());
      copy_bitmask(null_mask(access::read), offset_ + begin, offset_ + end,
                   static_cast<bitmask_word*>(out.mask_.data(access::write, stream)), bytes, stream);
    }
    out.size_ = rows;
    out.null_count_ = nulls;
    return out;
  }

  [[nodiscard]] bool must_copy_to_share() const noexcept { return copy_on_write() && is_exposed(); }

  struct shared_tag {};
  // Shares `other`'s buffers as they are: only for buffers that may be shared (not exposed).
  column(shared_tag, column const& other)
      : data_(other.data_),
        mask_(other.mask_),
        offset_(other.offset_),
        size_(other.size_),
        null_count_(other.null_count_) {}

  // Rule 3: a writer whose buffers are shared (or borrowed) takes its own copy of its own rows,
  // mask included.
  void unshare(stream_ref stream) {
    if (writes_copy()) { *this = deep_copy(stream); }
  }

  buffer_type data_;
  buffer_type mask_;
  std::size_t offset_ = 0;
  std::size_t size_ = 0;
  std::size_t null_count_ = 0;
};

DEVCOL_NAMESPACE_END
