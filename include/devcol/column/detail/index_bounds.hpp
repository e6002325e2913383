/**
 * @file index_bounds.hpp
 * @brief The bounds check of index columns (gather's and scatter's indices, a dictionary's), one
 * kernel for every integer type of index.
 */
#pragma once

#include <devcol/column/column_view.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/validity_view.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>

#include <thrust/iterator/counting_iterator.h>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Whether `index` lies in [0, size): the bounds of gather's row maps and of every index check.
template <class I>
DEVCOL_HOST_DEVICE bool in_bounds(I index, std::size_t size) noexcept {
  if constexpr (std::is_signed_v<I>) {
    if (index < 0) { return false; }
  }
  return static_cast<std::size_t>(index) < size;
}

/**
 * An index column's rows whatever their integer type: the first row's address, its width and
 * signedness, and the rows' validity. The check reads each index once, so a switch on the type per
 * row costs nothing next to the load, and one find kernel (two, with Thrust's 32-bit offsets)
 * serves the eight index types instead of one each.
 */
class any_index_view : public validity_view {
 public:
  template <std::integral I>
  explicit any_index_view(column_view<I> indices) noexcept
      : validity_view(indices), data_(indices.data()), type_(type_of<I>) {
    static_assert(sizeof(I) <= sizeof(std::uint64_t), "devcol: indices are integers of at most 64 bits");
  }

  /// The first row's address, and the bytes the rows take from it.
  [[nodiscard]] void const* data() const noexcept { return data_; }
  [[nodiscard]] std::size_t bytes() const noexcept { return size() * (type_ & width_mask); }

  /// Whether row `i` is valid and outside [0, n).
  DEVCOL_HOST_DEVICE bool outside(std::size_t i, std::size_t n) const noexcept {
    return is_valid(i) && visit(i, [n](auto index) { return !in_bounds(index, n); });
  }

  /// Row `i`'s value in decimal. Copies it to the host and synchronises `stream`.
  [[nodiscard]] std::string text(std::size_t i, stream_ref stream) const {
    std::size_t const width = type_ & width_mask;
    std::uint64_t bits = 0;  // little-endian: the index's bytes are its low bytes
    copy_bytes(&bits, static_cast<unsigned char const*>(data_) + i * width, width, stream);
    stream.synchronize();
    if ((type_ & signed_flag) == 0) { return std::to_string(bits); }
    auto const shift = static_cast<unsigned>(64 - 8 * width);  // sign-extends the index's top bit
    return std::to_string(static_cast<std::int64_t>(bits << shift) >> shift);
  }

 private:
  static constexpr unsigned char width_mask = 0x0f;
  static constexpr unsigned char signed_flag = 0x10;
  template <class I>
  static constexpr unsigned char type_of =
      static_cast<unsigned char>(sizeof(I) | (std::is_signed_v<I> ? signed_flag : 0));

  /// `f` of row `i`, read as the index type.
  template <class F>
  DEVCOL_HOST_DEVICE auto visit(std::size_t i, F f) const noexcept -> decltype(f(std::uint64_t{})) {
    switch (type_) {
      case type_of<std::int8_t>: return f(static_cast<std::int8_t const*>(data_)[i]);
      case type_of<std::uint8_t>: return f(static_cast<std::uint8_t const*>(data_)[i]);
      case type_of<std::int16_t>: return f(static_cast<std::int16_t const*>(data_)[i]);
      case type_of<std::uint16_t>: return f(static_cast<std::uint16_t const*>(data_)[i]);
      case type_of<std::int32_t>: return f(static_cast<std::int32_t const*>(data_)[i]);
      case type_of<std::uint32_t>: return f(static_cast<std::uint32_t const*>(data_)[i]);
      case type_of<std::int64_t>: return f(static_cast<std::int64_t const*>(data_)[i]);
      default: return f(static_cast<std::uint64_t const*>(data_)[i]);
    }
  }

  void const* data_;
  unsigned char type_;
};

/// Whether row `i` of the indices is valid and outside [0, n): find's predicate.
struct index_outside {
  any_index_view indices;
  std::size_t n;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept { return indices.outside(i, n); }
};

/**
 * The first valid index outside [0, n), as its row and its value in decimal, or nothing: one pass
 * over the indices, which synchronises `stream` (find returns its row to the host), and a copy of
 * the index found. Null indices are not checked. A template only so that a file that never calls it
 * does not compile its kernels.
 */
template <int = 0>
[[nodiscard]] std::optional<std::pair<std::size_t, std::string>> first_index_outside(any_index_view indices,
                                                                                     std::size_t n, stream_ref stream) {
  executor exec(stream);
  exec.reads(indices.data(), indices.bytes());
  std::size_t const row = find_first_n(exec, indices.size(), index_outside{indices, n});
  if (row == indices.size()) { return std::nullopt; }
  return std::pair{row, indices.text(row, stream)};
}

}  // namespace detail
DEVCOL_NAMESPACE_END
