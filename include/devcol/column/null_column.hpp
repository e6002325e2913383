/**
 * @file null_column.hpp
 * @brief `devcol::null_column`: Arrow's null type ("n"), a column whose every row is null. It has
 * no buffers at all, as Arrow's layout has none: a length, and nothing else.
 *
 * Why a kind of its own, not a `column<T>` with every bit clear: a null column's producer (pyarrow's
 * `pa.nulls`, a query's all-null result, a schema's placeholder) sends no memory, and an import
 * must give back exactly that type; a `column<T>` would have to invent a value type and allocate a
 * mask for nothing.
 */
#pragma once

#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/detail/rows.hpp>
#include <devcol/column/fwd.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

#include <cstddef>
#include <string>
#include <utility>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief `size()` rows, every one null, with no memory: Arrow's null type. Everything it does is
 * O(1) and allocates nothing; copies, slices and deep copies are the same thing (a length), so the
 * sharing, exposure and spilling rules hold trivially (there is nothing to share, expose or spill).
 * @tparam Policy the buffer policy (of the columns ops make from it: `is_null` gives a `column<bool,
 *         Policy>`, allocated from the policy's resource)
 */
template <buffer_policy Policy>
class null_column {
 public:
  /// The buffer policy.
  using policy = Policy;
  /// The buffer type of the policy (a null column holds none).
  using buffer_type = buffer<Policy>;
  /// What ops allocate their results from.
  using resource_type = typename buffer_type::resource_type;

  /// @brief An empty column: 0 rows.
  null_column() noexcept = default;
  /// @brief `size` null rows. O(1), allocates nothing.
  /// @param size the number of rows
  explicit null_column(std::size_t size) noexcept : size_(size) {}

  /// @brief The number of rows.
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  /// @brief Whether there are no rows.
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  /// @brief The number of null rows: every row.
  [[nodiscard]] std::size_t null_count() const noexcept { return size_; }
  /// @brief Whether any row is null: whether there is a row.
  [[nodiscard]] bool has_nulls() const noexcept { return size_ != 0; }
  /// @brief Whether the column has a validity mask: never (Arrow's null type has no buffer).
  [[nodiscard]] bool nullable() const noexcept { return false; }
  /// @brief Row 0's index in the buffers: 0, as there are none.
  [[nodiscard]] std::size_t offset() const noexcept { return 0; }
  /// @brief "null", as pyarrow names the type.
  [[nodiscard]] std::string type_name() const { return "null"; }
  /// @brief "n", the Arrow format.
  [[nodiscard]] std::string arrow_format() const { return "n"; }

  /**
   * @brief Rows [begin, end). O(1).
   * @param begin the first row kept
   * @param end one past the last row kept
   * @param stream unused: nothing is read
   * @throws devcol::logic_error naming the bounds unless begin <= end <= size()
   */
  [[nodiscard]] null_column slice(std::size_t begin, std::size_t end, stream_ref stream = {}) const {
    (void)stream;
    detail::check_rows("null_column", "::slice", begin, end, size_);
    return null_column(end - begin);
  }
  /// @brief The same rows: there is no memory to copy (rule 7 holds vacuously). O(1).
  /// @param stream unused
  [[nodiscard]] null_column deep_copy(stream_ref stream = {}) const noexcept {
    (void)stream;
    return *this;
  }
  /// @brief The same rows. O(1).
  [[nodiscard]] null_column alias() const noexcept { return *this; }
  /// @brief Exchanges two columns' lengths. @param other the column exchanged with this one
  void swap(null_column& other) noexcept { std::swap(size_, other.size_); }

  /// @brief Never shared: there is no buffer.
  [[nodiscard]] bool is_shared() const noexcept { return false; }
  /// @brief Never borrowed: an import keeps nothing of its producer.
  [[nodiscard]] bool is_borrowed() const noexcept { return false; }
  /// @brief Never exposed: there is no memory to hand out.
  [[nodiscard]] bool is_exposed() const noexcept { return false; }
  /// @brief The policy's sharing mode now, as a new buffer would take it.
  [[nodiscard]] bool copy_on_write() const { return buffer_type{}.copy_on_write(); }
  /// @brief Spillable policies: 0 bytes freed; nothing is on the device.
  /// @param stream unused
  std::size_t spill(stream_ref stream = {}) const noexcept
    requires Policy::spill::enabled
  {
    (void)stream;
    return 0;
  }
  /// @brief Spillable policies: nothing to bring back. @param stream unused
  void unspill(stream_ref stream = {}) const noexcept
    requires Policy::spill::enabled
  {
    (void)stream;
  }
  /// @brief Spillable policies: never spilled.
  [[nodiscard]] bool is_spilled() const noexcept
    requires Policy::spill::enabled
  {
    return false;
  }
  /// @brief The resource ops allocate their results from: the one a new buffer would use now.
  [[nodiscard]] resource_type resource() const { return buffer_type{}.resource(); }
  /// @brief Empty: no allocation, so no resource made one.
  [[nodiscard]] std::string resource_name() const { return {}; }

 private:
  std::size_t size_ = 0;
};

DEVCOL_NAMESPACE_END
