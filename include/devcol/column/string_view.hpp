/**
 * @file string_view.hpp
 * @brief `devcol::string_view`: one row of a strings column, a (pointer, length) pair usable in
 * kernels (libcu++ has no `cuda::std::string_view`; cuDF's `cudf::string_view` is the model).
 */
#pragma once

#include <devcol/core/config.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief A read-only run of UTF-8 bytes: the row of a strings column, in kernels and on the host.
 * Trivially copyable, two words; compares bytewise (unsigned), as Arrow and cuDF order strings.
 * It does not own its bytes: valid while the column it came from lives and is not written.
 */
class string_view {
 public:
  /// @brief An empty string.
  constexpr string_view() noexcept = default;
  /// @brief `size` bytes at `data`.
  DEVCOL_HOST_DEVICE constexpr string_view(char const* data, std::size_t size) noexcept : data_(data), size_(size) {}
  /// @brief The bytes of `s` (host memory, or device memory for kernels).
  /// @param s the bytes viewed; they must outlive the view
  constexpr string_view(std::string_view s) noexcept : data_(s.data()), size_(s.size()) {}  // NOLINT: implicit, as std's

  /// @brief The first byte.
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr char const* data() const noexcept { return data_; }
  /// @brief The length in bytes (not in characters).
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr std::size_t size() const noexcept { return size_; }
  /// @brief Whether there are no bytes.
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr bool empty() const noexcept { return size_ == 0; }
  /// @brief Byte `i`. No bounds check.
  /// @param i the byte, in [0, size())
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr char operator[](std::size_t i) const noexcept { return data_[i]; }
  /// @brief Iterators over the bytes.
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr char const* begin() const noexcept { return data_; }
  /// @brief See begin().
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr char const* end() const noexcept { return data_ + size_; }
  /// @brief The same bytes as a `std::string_view` (host memory only, to be read).
  [[nodiscard]] constexpr explicit operator std::string_view() const noexcept { return {data_, size_}; }

  /// @brief <0, 0 or >0 as this string orders before, with or after `other`: bytes compared as
  /// unsigned, then lengths (a prefix comes first).
  /// @param other the string compared with
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr int compare(string_view other) const noexcept {
    std::size_t const n = size_ < other.size_ ? size_ : other.size_;
    for (std::size_t i = 0; i < n; ++i) {
      auto const a = static_cast<unsigned char>(data_[i]);
      auto const b = static_cast<unsigned char>(other.data_[i]);
      if (a != b) { return a < b ? -1 : 1; }
    }
    return size_ == other.size_ ? 0 : (size_ < other.size_ ? -1 : 1);
  }
  /// @brief Byte equality.
  /// @param a the left operand
  /// @param b the right operand
  [[nodiscard]] DEVCOL_HOST_DEVICE friend constexpr bool operator==(string_view a, string_view b) noexcept {
    return a.size_ == b.size_ && a.compare(b) == 0;
  }
  /// @brief See compare().
  /// @param a the left operand
  /// @param b the right operand
  [[nodiscard]] DEVCOL_HOST_DEVICE friend constexpr bool operator<(string_view a, string_view b) noexcept {
    return a.compare(b) < 0;
  }
  /// @brief See compare().
  /// @param a the left operand
  /// @param b the right operand
  [[nodiscard]] DEVCOL_HOST_DEVICE friend constexpr bool operator>(string_view a, string_view b) noexcept {
    return b < a;
  }
  /// @brief See compare().
  /// @param a the left operand
  /// @param b the right operand
  [[nodiscard]] DEVCOL_HOST_DEVICE friend constexpr bool operator<=(string_view a, string_view b) noexcept {
    return !(b < a);
  }
  /// @brief See compare().
  /// @param a the left operand
  /// @param b the right operand
  [[nodiscard]] DEVCOL_HOST_DEVICE friend constexpr bool operator>=(string_view a, string_view b) noexcept {
    return !(a < b);
  }

 private:
  char const* data_ = nullptr;
  std::size_t size_ = 0;
};

DEVCOL_NAMESPACE_END
