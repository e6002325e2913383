/**
 * @file column_view.hpp
 * @brief `devcol::column_view` and `devcol::mutable_column_view`: non-owning, trivially copyable
 * views of a column's rows, what kernels take by value.
 */
#pragma once

#include <devcol/column/bitmask.hpp>
#include <devcol/column/types.hpp>
#include <devcol/column/validity_view.hpp>
#include <devcol/core/config.hpp>

#include <cstddef>
#include <type_traits>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief A read-only view of `size()` rows of `T`: the first row's address, and the rows'
 * validity (validity_view: the mask, or none, with the bit of the first row, and the null count).
 * Never allocates; copying it copies five words. Valid while the column it came from lives and is
 * not written through another handle.
 * @tparam T the fixed-width value type of the rows
 */
template <fixed_width T>
class column_view : public validity_view {
 public:
  /// The element type.
  using value_type = T;

  /// @brief An empty view.
  constexpr column_view() noexcept = default;
  /**
   * @brief Views `size` rows at `data`; row `i`'s validity is bit `mask_offset + i` of `mask` (no
   * mask: all valid). Nothing is read or checked.
   * @param data the first row (device memory on the CUDA backend)
   * @param size the number of rows
   * @param mask the validity words, or null when every row is valid
   * @param mask_offset the bit of `mask` that holds row 0's validity
   * @param null_count the number of null rows, trusted as given
   */
  DEVCOL_HOST_DEVICE constexpr column_view(T const* data, std::size_t size, bitmask_word const* mask = nullptr,
                                           std::size_t mask_offset = 0, std::size_t null_count = 0) noexcept
      : validity_view(size, mask, mask_offset, null_count), data_(data) {}

  /// @brief The first row's address.
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr T const* data() const noexcept { return data_; }
  /// @brief Row `i`'s value (unspecified for a null row). No bounds check. Device memory: kernels only.
  /// @param i the row, in [0, size())
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr T const& operator[](std::size_t i) const noexcept { return data_[i]; }
  /// @brief Iterators over the values (nulls included), for Thrust and the standard algorithms.
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr T const* begin() const noexcept { return data_; }
  /// @brief See begin().
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr T const* end() const noexcept { return data_ + size(); }

 private:
  T const* data_ = nullptr;
};

/**
 * @brief A writable view of a column's rows: as column_view, with mutable values and mask. Getting
 * one from a column unshares and exposes the column: a shared column first copies its own rows
 * (rule 3), a sole owner does not copy (rule 4), and handing out mutable memory marks the column
 * exposed for good (rule 11). Writing the mask does not update the column's null count: recompute
 * it, or write values only.
 * @tparam T the fixed-width value type of the rows
 */
template <fixed_width T>
class mutable_column_view : public mutable_validity_view {
 public:
  /// The element type.
  using value_type = T;

  /// @brief An empty view.
  constexpr mutable_column_view() noexcept = default;
  /// @brief Views `size` writable rows at `data`, validity as column_view's. Nothing is read.
  /// @param data the first row (device memory on the CUDA backend)
  /// @param size the number of rows
  /// @param mask the validity words, or null when every row is valid
  /// @param mask_offset the bit of `mask` that holds row 0's validity
  /// @param null_count the number of null rows, trusted as given
  DEVCOL_HOST_DEVICE constexpr mutable_column_view(T* data, std::size_t size, bitmask_word* mask = nullptr,
                                                   std::size_t mask_offset = 0, std::size_t null_count = 0) noexcept
      : mutable_validity_view(size, mask, mask_offset, null_count), data_(data) {}

  /// @brief The read-only view of the same rows.
  DEVCOL_HOST_DEVICE constexpr operator column_view<T>() const noexcept {  // NOLINT: implicit, as libcudf's
    return column_view<T>{data_, size(), null_mask(), mask_offset(), null_count()};
  }

  /// @brief The first row's address.
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr T* data() const noexcept { return data_; }
  /// @brief Row `i`, writable. No bounds check. Device memory: kernels only.
  /// @param i the row, in [0, size())
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr T& operator[](std::size_t i) const noexcept { return data_[i]; }
  /// @brief Iterators over the values.
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr T* begin() const noexcept { return data_; }
  /// @brief See begin().
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr T* end() const noexcept { return data_ + size(); }

 private:
  T* data_ = nullptr;
};

namespace detail {
/// Valid where a bool column is true and not null, as a functor over row indices (a kept row, a valid row of a new mask).
struct true_and_valid {
  column_view<bool> flags;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept { return flags.is_valid(i) && flags[i]; }
};

}  // namespace detail

DEVCOL_NAMESPACE_END
