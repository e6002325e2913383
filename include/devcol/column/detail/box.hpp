/**
 * @file box.hpp
 * @brief `detail::box`: a value-semantic heap cell, what makes the column variant recursive (a
 * list's child, a dictionary's values are `any_column`s, and `any_column` holds lists).
 */
#pragma once

#include <devcol/core/config.hpp>

#include <memory>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/**
 * One `T` on the heap with the semantics of a `T` member: copying a box copies its `T` (for a
 * column, that shares buffers in O(1), or copies exposed ones: rule 12, a shallow copy of exposed
 * memory is a deep one, holds as for any column copy), never a pointer to a mutable `T` that two
 * owners would share. `T` may be incomplete where the box is declared. Moving steals the cell: a moved-from box is empty and may only be assigned
 * to or destroyed (as `std::indirect` of C++26).
 */
template <class T>
class box {
 public:
  /// Holds `value`. @throws std::bad_alloc
  explicit box(T value) : cell_(std::make_unique<T>(std::move(value))) {}
  /// Holds a copy of `other`'s value.
  box(box const& other) : cell_(other.cell_ != nullptr ? std::make_unique<T>(*other.cell_) : nullptr) {}
  box(box&& other) noexcept = default;
  box& operator=(box const& other) {
    if (this != &other) { *this = box(other); }
    return *this;
  }
  box& operator=(box&& other) noexcept = default;
  ~box() = default;

  /// The value (a moved-from box has none: not to be called then).
  [[nodiscard]] T& operator*() noexcept { return *cell_; }
  [[nodiscard]] T const& operator*() const noexcept { return *cell_; }
  [[nodiscard]] T* operator->() noexcept { return cell_.get(); }
  [[nodiscard]] T const* operator->() const noexcept { return cell_.get(); }
  /// Whether the box holds a value (false only after a move).
  [[nodiscard]] bool has_value() const noexcept { return cell_ != nullptr; }
  void swap(box& other) noexcept { cell_.swap(other.cell_); }

 private:
  std::unique_ptr<T> cell_;
};

}  // namespace detail
DEVCOL_NAMESPACE_END
