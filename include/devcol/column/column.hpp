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
#include <devcol/column/detail/fixed_width_rows.hpp>
#include <devcol/column/fwd.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/source_location.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/resource.hpp>

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief `size()` rows of `T` in Arrow layout: a data buffer, an optional validity bitmask, the
 * offset of the first row in both, the size and the null count, which is always known.
 *
 * Sharing follows the policy (copy-on-write by default; see devcol::buffer): copies and slices
 * share the buffers in O(1) (rule 1), read access never copies (rule 2), and the first write
 * through a handle whose buffers are shared gives it its own copy of its own rows (rule 3), and
 * only then (rule 4). Moving leaves an empty column.
 *
 * What does not read a value as a `T` (allocation, sharing, slicing, copying, spilling) is its base
 * `detail::fixed_width_rows`, one per value width: a program using int64, double and timestamp
 * columns compiles it once, and this class adds the typed pointers and views.
 *
 * @tparam T a fixed-width element type (`devcol::fixed_width`)
 * @tparam Policy a buffer policy (`devcol::default_policy` unless named)
 */
template <fixed_width T, buffer_policy Policy>
class column : public detail::fixed_width_rows<sizeof(T), alignof(T), Policy> {
  using base = detail::fixed_width_rows<sizeof(T), alignof(T), Policy>;
  using base::data_, base::mask_, base::null_count_, base::offset_, base::size_;

 public:
  /// The element type.
  using value_type = T;
  using typename base::buffer_type, typename base::policy, typename base::resource_type;

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
      : base(size, stream, mask, detail::policy_resource<typename Policy::resource>()) {}

  /// @brief As above, with memory from `resource`. Throws as above.
  /// @param size the number of rows
  /// @param stream the stream the allocations and the mask's fill are ordered on
  /// @param mask whether a mask is allocated, and with every row valid or null
  /// @param resource what the values and the mask are allocated from (and later freed through)
  column(std::size_t size, stream_ref stream, mask_state mask, resource_type resource)
      : base(size, stream, mask, std::move(resource)) {}

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
      : base(std::move(data), std::move(mask), size, null_count, offset) {}

  /// @brief Shares `other`'s buffers (rule 1: a copy shares the owner, in O(1)); if they are
  /// exposed, copies its rows instead, since a third party may be writing them (rule 12).
  /// @throws what allocation and copying throw, when exposed rows are copied
  column(column const&) = default;
  /// @brief Takes over `other`'s buffers in O(1), leaving it empty.
  column(column&&) noexcept = default;
  /// @brief Copy and move assignment in one, by copy and swap: strong guarantee.
  column& operator=(column other) noexcept {
    this->swap(other);
    return *this;
  }
  ~column() = default;

  /// @brief fixed_width_rows::deep_copy(), as a column of `T`: fresh memory holding only these rows.
  /// @param stream the stream the copies are ordered on; not synchronised
  [[nodiscard]] column deep_copy(stream_ref stream = {}) const { return column(base::deep_copy(stream)); }
  /// @brief fixed_width_rows::slice(), as a column of `T`: rows [begin, end), sharing the buffers.
  /// @param begin the first row kept
  /// @param end one past the last row kept
  /// @param stream the stream the null count or copy is ordered on
  [[nodiscard]] column slice(std::size_t begin, std::size_t end, stream_ref stream = {}) const {
    return column(base::slice(begin, end, stream));
  }
  /**
   * @brief One slice per range [first, second), as slice() does, with the nulls of all ranges
   * counted in one launch, which synchronises `stream` three times (Thrust's reduction by key
   * waits twice, then the counts come back); no synchronisation without nulls.
   * @param ranges the row ranges, each [first, second) within [0, size()), in any order
   * @param stream the stream the count and any copies are ordered on
   * @returns one column per range, in the ranges' order
   * @throws devcol::logic_error naming the first bad range
   */
  [[nodiscard]] std::vector<column> slice(std::span<std::pair<std::size_t, std::size_t> const> ranges,
                                          stream_ref stream = {}) const {
    detail::operation_spill_lock<Policy> const spill_scope{stream};
    std::vector<std::size_t> const nulls = this->nulls_in_ranges(ranges, stream);
    std::vector<column> slices;
    slices.reserve(ranges.size());
    for (std::size_t i = 0; i < ranges.size(); ++i) {
      slices.push_back(column(this->range(ranges[i].first, ranges[i].second, nulls[i], stream)));
    }
    return slices;
  }
  /// @brief fixed_width_rows::alias(), as a column of `T`: the same buffers even when exposed. O(1).
  [[nodiscard]] column alias() const noexcept { return column(base::alias()); }

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
    this->unshare(stream);
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
    this->unshare(stream);
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
    this->unshare(stream);
    return static_cast<T*>(data_.expose(stream, where)) + offset_;
  }

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

 private:
  // The untyped result of one of the base's operations, as a column of `T`. O(1).
  explicit column(base&& rows) noexcept : base(std::move(rows)) {}
};

DEVCOL_NAMESPACE_END
