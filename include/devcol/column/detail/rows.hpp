/**
 * @file rows.hpp
 * @brief What every column kind does with its rows' validity: the checks on an adopted mask and
 * null count, the null count of a slice, a mask copied for a range of rows, and
 * `detail::column_rows`, the base that keeps the mask, offset, size and null count of every kind.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/resource.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

// The checks name the column kind and the operation ("" for a constructor) apart, so that the
// message is put together only when a check fails.

/// Throws unless `null_count` is possible for `size` rows with (or without) a mask.
inline void check_null_count(std::string_view kind, std::string_view op, std::size_t null_count, std::size_t size,
                             bool has_mask) {
  DEVCOL_EXPECTS(null_count <= size && (null_count == 0 || has_mask), kind, op, ": null count ", null_count,
                 " is impossible for ", size, has_mask ? " rows" : " rows without a mask");
}

/// Throws unless `mask` (empty: none) holds whole aligned words for bits [offset, offset + size):
/// mask readers load whole words.
template <class Buffer>
void check_mask(std::string_view kind, std::string_view op, Buffer const& mask, std::size_t offset,
                std::size_t size) {
  if (mask.empty()) { return; }
  std::size_t const words = words_for(offset + size);
  DEVCOL_EXPECTS(mask.size() >= words * sizeof(bitmask_word), kind, op, ": a mask of ", mask.size(),
                 " bytes cannot hold the ", words, " words of bits [", offset, ", ", offset + size, ")");
  DEVCOL_EXPECTS(mask.offset() % sizeof(bitmask_word) == 0, kind, op, ": a mask at byte offset ", mask.offset(),
                 " is not aligned to its ", sizeof(bitmask_word), "-byte words");
}

/// Throws unless [begin, end) is within `size` rows.
inline void check_rows(std::string_view kind, std::string_view op, std::size_t begin, std::size_t end,
                       std::size_t size) {
  DEVCOL_EXPECTS(begin <= end && end <= size, kind, op, ": [", begin, ", ", end, ") is not within the ", size,
                 " rows of the column");
}

/// `total + more` rows: a result's rows summed over the inputs it joins (a concatenation). Kinds
/// whose rows need no memory (null columns, structs without fields, fixed-size lists of size 0,
/// run-end encoded columns) can hold any count, so the sum is checked rather than left to wrap.
/// @throws devcol::logic_error naming both counts when the sum passes SIZE_MAX
template <int = 0>
[[nodiscard]] std::size_t add_rows(std::string_view op, std::size_t total, std::size_t more) {
  DEVCOL_EXPECTS(more <= SIZE_MAX - total, op, ": ", total, " + ", more, " rows overflow size_t");
  return total + more;
}

/// The nulls among rows [begin, end) of a column with `nulls` of `size` rows whose row 0 is bit
/// `offset` of `mask`: no kernel when the column has none or only nulls; else one pass, synchronised.
template <class Buffer>
[[nodiscard]] std::size_t nulls_in(Buffer const& mask, std::size_t offset, std::size_t size, std::size_t nulls,
                                   std::size_t begin, std::size_t end, stream_ref stream) {
  if (nulls == 0) { return 0; }
  if (nulls == size) { return end - begin; }
  return count_unset_bits(static_cast<bitmask_word const*>(mask.data(access::read)), offset + begin, offset + end,
                          stream);
}

/// Bits [begin, end) of `mask` in a fresh mask from its resource, starting at bit 0 (empty for an
/// empty mask). One pass, in order on `stream`.
template <class Buffer>
[[nodiscard]] Buffer copy_mask_bits(Buffer const& mask, std::size_t begin, std::size_t end, stream_ref stream) {
  if (mask.empty()) { return Buffer{}; }
  scoped_device const on_device(mask.device());  // rule 21: copied on, and allocated on, its device
  Buffer out = copy_bits<Buffer>(static_cast<bitmask_word const*>(mask.data(access::read)), begin, end,
                                 mask.resource(), stream);
  mask.read_on(stream);
  return out;
}

/**
 * What every column kind keeps of its rows and does with them the same way: the validity mask,
 * the index of row 0 in the buffers (Arrow's offset, the same in every buffer of the kind), the
 * row count and the null count, which is always known; the accessors, the checks and the
 * bookkeeping of slices and aliases over them.
 *
 * `Kind` derives from it (CRTP) and provides `Kind::kind_name` (its name in errors), and privately,
 * befriending this base: `unshare(stream)` (rule 3 for its own buffers, before a write to the
 * mask), `own_state()`, a `std::tie` of the members it keeps beside the rows (swapped by swap()),
 * and `copy_own_rows(out, stream)`, deep_copy()'s copy of those members' rows into an empty `out`
 * with the kind's device current.
 *
 * Every kind copies as its buffers do (rule 1: a copy shares the owner, in O(1); exposed buffers
 * are copied instead, since a third party may be writing them, rule 12), moves in O(1) leaving an
 * empty column, and assigns by copy and swap (strong guarantee).
 */
template <class Kind, class Policy>
class column_rows {
 public:
  /// The buffers' policy.
  using policy = Policy;
  /// The buffer type holding the kind's buffers and the mask.
  using buffer_type = buffer<Policy>;
  /// What the buffers keep of their resource (see buffer::resource_type).
  using resource_type = typename buffer_type::resource_type;

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
  /// @brief Row 0's index in the buffers, the mask's bits included (Arrow's offset).
  [[nodiscard]] std::size_t offset() const noexcept { return offset_; }

  /// @brief The validity mask, read-only (null without one); row 0 is bit offset(). Never copies.
  [[nodiscard]] bitmask_word const* null_mask(access::read_t) const noexcept(!Policy::spill::enabled) {
    return static_cast<bitmask_word const*>(mask_.data(access::read));
  }
  /**
   * @brief The validity mask, writable (null without one): if the column's buffers are shared under
   * copy-on-write, or borrowed, it first gets its own copy of its rows, in order on `stream`
   * (rule 3: a writer whose buffers are shared copies its own rows first; then offset() is 0), else
   * nothing is copied (rule 4: a sole owner writes in place). Writing the mask does not update
   * null_count(): state the new count with set_null_count(). For use before the column is next
   * copied or sliced.
   */
  [[nodiscard]] bitmask_word* null_mask(access::write_t, stream_ref stream = {}) {
    self().unshare(stream);
    return const_cast<bitmask_word*>(null_mask(access::read));
  }
  /**
   * @brief Replaces the validity mask (empty: none) and states its null count, keeping the rows as
   * they are (never copied, even if exposed). Row 0 is bit offset() of `mask`.
   * @throws devcol::logic_error when the mask is too small or misaligned, or the count impossible
   */
  void replace_null_mask(buffer<Policy> mask, std::size_t null_count) {
    check_mask(Kind::kind_name, "::replace_null_mask", mask, offset_, size_);
    check_null_count(Kind::kind_name, "::replace_null_mask", null_count, size_, !mask.empty());
    mask_ = std::move(mask);
    null_count_ = null_count;
  }
  /**
   * @brief States the null count after the mask was written through null_mask(access::write).
   * @throws devcol::logic_error if the count is impossible for the column
   */
  void set_null_count(std::size_t null_count) {
    check_null_count(Kind::kind_name, "::set_null_count", null_count, size_, nullable());
    null_count_ = null_count;
  }
  /// @brief The mask's buffer (the whole allocation; empty without a mask).
  [[nodiscard]] buffer<Policy> const& mask_buffer() const noexcept { return mask_; }

  /// @brief Exchanges two columns, buffers, children and rows. O(1), never throws.
  /// @param other the column exchanged with this one
  void swap(Kind& other) noexcept {
    std::apply([&other](auto&... mine) {
      std::apply([&](auto&... theirs) { (swap_member(mine, theirs), ...); }, other.own_state());
    }, self().own_state());
    swap_rows(other);
  }

  /**
   * @brief A column owning fresh memory holding only this column's rows (rules 7 and 8: a deep
   * copy always owns fresh memory, and a slice's copy holds only its range), at offset 0 with the
   * rows' mask bits from bit 0, made on the column's device (rule 21: a copy is allocated on, and
   * made with, its device current), in order on `stream`. Offsets are rebased to start at 0 and
   * only the bytes or child rows they span are copied, after reading the first and last offsets to
   * the host (one synchronisation of `stream`, and one per nested list level); a struct copies each
   * child's rows as that child's kind does. Otherwise asynchronous on CUDA.
   * @param stream a stream of the column's device that the reads and copies are ordered on
   * @throws what allocation and copying throw
   */
  [[nodiscard]] Kind deep_copy(stream_ref stream = {}) const {
    detail::operation_spill_lock<Policy> const spill_scope{stream};
    Kind out;
    self().copy_own_rows(out, stream);
    copy_rows_mask(out, stream);
    return out;
  }

  /**
   * @brief Rows [begin, end), sharing every buffer of the column (children whole) with the offset
   * moved (rules 1 and 8: a slice shares the owner, and a slice of a slice sums the offsets): O(1)
   * when the column has no nulls or only nulls, else one pass over the slice's mask bits to count
   * them, synchronising `stream`.
   * @param begin the first row kept
   * @param end one past the last row kept
   * @param stream the stream the null count is ordered on
   * @throws devcol::logic_error naming the bounds unless begin <= end <= size()
   */
  [[nodiscard]] Kind slice(std::size_t begin, std::size_t end, stream_ref stream = {}) const {
    detail::operation_spill_lock<Policy> const spill_scope{stream};
    std::size_t const nulls = nulls_in_rows(begin, end, stream);
    Kind out(self());
    narrow(out, begin, end, nulls);
    return out;
  }

 protected:
  column_rows() noexcept = default;
  /// Keeps what it is given; the kind checks it with check_rows_state() once its own checks passed.
  column_rows(buffer<Policy> mask, std::size_t size, std::size_t null_count, std::size_t offset) noexcept
      : mask_(std::move(mask)), offset_(offset), size_(size), null_count_(null_count) {}
  column_rows(column_rows const&) = default;
  /// Leaves `other` with no rows.
  column_rows(column_rows&& other) noexcept
      : mask_(std::move(other.mask_)),
        offset_(std::exchange(other.offset_, 0)),
        size_(std::exchange(other.size_, 0)),
        null_count_(std::exchange(other.null_count_, 0)) {}
  column_rows& operator=(column_rows const&) = delete;  // kinds assign by copy and swap
  column_rows& operator=(column_rows&&) = delete;
  ~column_rows() = default;

  /// Throws unless offset + size does not wrap, the mask holds bits [offset, offset + size) and the
  /// null count is possible. The kinds' own checks of their buffers compute offset + size too: one
  /// that wraps (an offset of -1 converted to size_t) would pass them with a sum of a row or two.
  void check_rows_state() const {
    DEVCOL_EXPECTS(offset_ <= SIZE_MAX - size_, Kind::kind_name, ": offset ", offset_, " + size ", size_,
                   " overflows (a negative value converted to size_t?)");
    check_mask(Kind::kind_name, "", mask_, offset_, size_);
    check_null_count(Kind::kind_name, "", null_count_, size_, !mask_.empty());
  }
  /// Copy and move assignment of every kind: `other` is the by-value parameter. Never throws.
  Kind& assign_by_swap(Kind& other) noexcept {
    swap(other);
    return self();
  }
  /// Exchanges the rows' state. O(1), never throws.
  void swap_rows(column_rows& other) noexcept {
    mask_.swap(other.mask_);
    std::swap(offset_, other.offset_);
    std::swap(size_, other.size_);
    std::swap(null_count_, other.null_count_);
  }
  /// The nulls among rows [begin, end) (checked against size()): no kernel when the column has no
  /// nulls or only nulls, else one pass over their bits, synchronising `stream`.
  [[nodiscard]] std::size_t nulls_in_rows(std::size_t begin, std::size_t end, stream_ref stream) const {
    check_rows(Kind::kind_name, "::slice", begin, end, size_);
    return nulls_in(mask_, offset_, size_, null_count_, begin, end, stream);
  }
  /// Narrows `out`, a copy of this column, to rows [begin, end) with `nulls` nulls: its buffers
  /// stay shared, its offset moves (rules 1 and 8).
  void narrow(Kind& out, std::size_t begin, std::size_t end, std::size_t nulls) const noexcept {
    column_rows& rows = out;
    rows.offset_ = offset_ + begin;
    rows.size_ = end - begin;
    rows.null_count_ = nulls;
  }
  /// Rule 3: a writer whose buffers are shared (or borrowed) takes its own copy of its own rows,
  /// in this column's sharing mode (rule 9: the memory a write gives a copy keeps its column's mode).
  void take_own_copy(stream_ref stream) {
    keep_sharing_mode<Policy> const keep(self().copy_on_write());
    self() = self().deep_copy(stream);
  }
  /// Gives `out` (the kind's alias of its own buffers) this column's rows on an alias of the mask.
  void alias_rows(Kind& out) const noexcept {
    column_rows& rows = out;
    rows.mask_ = mask_.alias();
    rows.offset_ = offset_;
    rows.size_ = size_;
    rows.null_count_ = null_count_;
  }
  /// Gives the column, which has no mask yet, a mask of its rows as `state` says, from `resource`,
  /// filled in order on `stream`, and the null count that goes with it.
  void allocate_mask(mask_state state, resource_type resource, stream_ref stream) {
    DEVCOL_EXPECTS_ENUMERATOR(state, mask_state::all_null, Kind::kind_name, "mask_state");
    if (state == mask_state::unallocated) { return; }
    // A kind whose rows take no memory (fixed-size binary of width 0) gets here with any count:
    // within 7 of SIZE_MAX, bitmask_allocation_size() wraps to a mask of 0 bytes, no mask at all.
    DEVCOL_EXPECTS(size_ <= static_cast<std::size_t>(PTRDIFF_MAX), Kind::kind_name, ": a mask of ", size_,
                   " rows is more than memory holds (a negative size converted to size_t?)");
    std::size_t const bytes = bitmask_allocation_size(size_);
    mask_ = buffer_type(bytes, stream, mr::default_alignment, std::move(resource));
    fill_bytes(mask_.data(access::write, stream), state == mask_state::all_valid ? 0xFF : 0x00, bytes, stream);
    null_count_ = state == mask_state::all_null ? size_ : 0;
  }
  /// Gives `out` (a deep copy of the kind's rows, offset 0) this column's rows' mask bits from bit
  /// 0, in a fresh mask, and the row and null counts. One pass, in order on `stream`.
  void copy_rows_mask(Kind& out, stream_ref stream) const {
    column_rows& rows = out;
    rows.mask_ = copy_mask_bits(mask_, offset_, offset_ + size_, stream);
    rows.offset_ = 0;
    rows.size_ = size_;
    rows.null_count_ = null_count_;
  }

  buffer<Policy> mask_;
  std::size_t offset_ = 0;
  std::size_t size_ = 0;
  std::size_t null_count_ = 0;

 private:
  template <class T>
  static void swap_member(T& a, T& b) noexcept {
    if constexpr (requires { a.swap(b); }) {
      a.swap(b);
    } else {
      std::swap(a, b);
    }
  }
  [[nodiscard]] Kind& self() noexcept { return static_cast<Kind&>(*this); }
  [[nodiscard]] Kind const& self() const noexcept { return static_cast<Kind const&>(*this); }
};

/**
 * The row accessors of a kind whose rows are those of one column it holds (a decimal's values, a
 * dictionary's indices): `Kind` derives from it (CRTP), befriends it and has a private
 * `row_column()` naming that column.
 */
template <class Kind>
class forwarded_rows {
 public:
  /// @brief The number of rows.
  [[nodiscard]] std::size_t size() const noexcept { return rows().size(); }
  /// @brief Whether there are no rows.
  [[nodiscard]] bool empty() const noexcept { return rows().empty(); }
  /// @brief The number of null rows: always known.
  [[nodiscard]] std::size_t null_count() const noexcept { return rows().null_count(); }
  /// @brief Whether the rows have a validity mask.
  [[nodiscard]] bool nullable() const noexcept { return rows().nullable(); }
  /// @brief Whether any row is null.
  [[nodiscard]] bool has_nulls() const noexcept { return rows().has_nulls(); }
  /// @brief Row 0's index in the rows' buffers (Arrow's offset).
  [[nodiscard]] std::size_t offset() const noexcept { return rows().offset(); }

 private:
  [[nodiscard]] auto const& rows() const noexcept { return static_cast<Kind const&>(*this).row_column(); }
};

}  // namespace detail
DEVCOL_NAMESPACE_END
