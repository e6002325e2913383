/**
 * @file validity_view.hpp
 * @brief `devcol::validity_view`: the rows' count and validity that every column view is built on
 * (as libcudf's views on `column_view_base`), so "row i is valid" is written once.
 */
#pragma once

#include <devcol/column/bitmask.hpp>
#include <devcol/core/config.hpp>

#include <cstddef>
#include <type_traits>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief `size()` rows and their validity: a mask (or none: every row valid), the bit of row 0 in
 * it (the column's Arrow offset) and the null count. Trivially copyable: four words, passed to
 * kernels by value; never allocates. Valid while the column it came from lives.
 * @tparam Word `bitmask_word const` for a read-only view, `bitmask_word` for a writable one
 */
template <class Word>
class basic_validity_view {
  static_assert(std::is_same_v<std::remove_const_t<Word>, bitmask_word>, "a validity mask is made of bitmask_words");

 public:
  /// @brief No rows.
  constexpr basic_validity_view() noexcept = default;
  /**
   * @brief `size` rows whose validity is bits [mask_offset, mask_offset + size) of `mask` (no
   * mask: all valid), `null_count` of them null.
   * @param size the number of rows
   * @param mask the validity mask, or null when every row is valid
   * @param mask_offset the bit of row 0
   * @param null_count how many rows are null (0 without a mask)
   */
  DEVCOL_HOST_DEVICE constexpr basic_validity_view(std::size_t size, Word* mask, std::size_t mask_offset,
                                                   std::size_t null_count) noexcept
      : mask_(mask), mask_offset_(mask_offset), size_(size), null_count_(null_count) {}
  /// @brief A read-only view of a writable view's rows (implicit: a writable view reads as one).
  /// @tparam Other `bitmask_word`: only a read-only view is made from a writable one
  /// @param writable the writable view
  template <class Other>
    requires(std::is_const_v<Word> && std::is_same_v<Other, bitmask_word>)
  DEVCOL_HOST_DEVICE constexpr basic_validity_view(basic_validity_view<Other> const& writable) noexcept  // NOLINT
      : mask_(writable.null_mask()),
        mask_offset_(writable.mask_offset()),
        size_(writable.size()),
        null_count_(writable.null_count()) {}

  /// @brief The number of rows.
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr std::size_t size() const noexcept { return size_; }
  /// @brief Whether there are no rows.
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr bool empty() const noexcept { return size_ == 0; }
  /// @brief The number of null rows (always known: never a hidden kernel; for a writable view, as
  /// it was when the view was made).
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr std::size_t null_count() const noexcept { return null_count_; }
  /// @brief Whether the rows have a validity mask.
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr bool nullable() const noexcept { return mask_ != nullptr; }
  /// @brief The validity mask (null when there is none); row 0 is bit mask_offset().
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr Word* null_mask() const noexcept { return mask_; }
  /// @brief The mask bit of row 0 (the column's Arrow offset).
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr std::size_t mask_offset() const noexcept { return mask_offset_; }
  /// @brief Whether row `i` is valid (not null). No bounds check; the mask is device memory on
  /// the CUDA backend, so call it from kernels there.
  /// @param i the row, in [0, size())
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr bool is_valid(std::size_t i) const noexcept {
    return mask_ == nullptr || bit_is_set(mask_, mask_offset_ + i);
  }
  /// @brief Whether row `i` is null. No bounds check.
  /// @param i the row, in [0, size())
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr bool is_null(std::size_t i) const noexcept { return !is_valid(i); }

 private:
  Word* mask_ = nullptr;
  std::size_t mask_offset_ = 0;
  std::size_t size_ = 0;
  std::size_t null_count_ = 0;
};

/// @brief The read-only validity of a view's rows (see basic_validity_view).
using validity_view = basic_validity_view<bitmask_word const>;
/// @brief The writable validity of a mutable view's rows (see basic_validity_view).
using mutable_validity_view = basic_validity_view<bitmask_word>;

static_assert(std::is_trivially_copyable_v<validity_view> && std::is_trivially_copyable_v<mutable_validity_view>);

DEVCOL_NAMESPACE_END
