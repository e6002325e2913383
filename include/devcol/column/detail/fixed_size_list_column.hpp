/**
 * @file detail/fixed_size_list_column.hpp
 * @brief `devcol::fixed_size_list_column`: Arrow fixed-size list ("+w:N") of any column kind: every
 * row holds `list_size()` child rows, so the layout has no offsets, only validity and the child.
 *
 * Row `i` of a column at Arrow offset `o` is child rows [(o + i) * N, (o + i + 1) * N): a slice
 * moves `o` and keeps the whole child (O(1)), as Arrow's own slices do. Include
 * <devcol/column/fixed_size_list_column.hpp> (or any_column.hpp), never this header.
 */
#pragma once

#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/detail/any_column_fwd.hpp>
#include <devcol/column/detail/box.hpp>
#include <devcol/column/detail/rows.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief `size()` lists of `list_size()` elements each, in Arrow's fixed-size list layout: an
 * optional validity bitmask, the offset of the first row (in the mask, and in the child in units
 * of `list_size()` rows), the null count (always known) and the child column (`any_column`, any
 * kind), which holds at least `(offset() + size()) * list_size()` rows. A null row still owns its
 * `list_size()` child rows, whose values are unspecified.
 *
 * Sharing follows the policy as for the other nested kinds: copies and slices share the mask and
 * the child in O(1) (rules 1 and 8; a slice moves the offset, never the child), reads never copy
 * (rule 2), and write access to the mask through a handle whose buffers are shared (or borrowed)
 * first gives it its own copy of its rows, the child cut to them (rules 3 and 4).
 *
 * @tparam Policy a buffer policy (`devcol::default_policy` unless named)
 */
template <buffer_policy Policy>
class fixed_size_list_column : public detail::column_rows<fixed_size_list_column<Policy>, Policy> {
  using rows_base = detail::column_rows<fixed_size_list_column, Policy>;
  friend rows_base;
  using rows_base::mask_, rows_base::null_count_, rows_base::offset_, rows_base::size_;
  static constexpr std::string_view kind_name = "fixed_size_list_column";

 public:
  using typename rows_base::buffer_type, typename rows_base::policy, typename rows_base::resource_type;
  /// The child's type: a column of any kind.
  using child_type = any_column<Policy>;

  /// @brief An empty column of lists of 0 elements over an empty child: nothing allocated.
  fixed_size_list_column() : child_(child_type{}) {}
  /// Copies share the mask and the child in O(1) (exposed buffers are copied), moves leave `other`
  /// empty, assignment copies (or moves) and swaps: strong guarantee. See detail::column_rows.
  fixed_size_list_column(fixed_size_list_column const&) = default;
  fixed_size_list_column(fixed_size_list_column&&) noexcept = default;
  fixed_size_list_column& operator=(fixed_size_list_column other) noexcept { return this->assign_by_swap(other); }

  /**
   * @brief Adopts a child and a mask: rows [offset, offset + size), row `i` being child rows
   * [(offset + i) * list_size, (offset + i + 1) * list_size); validity from bits [offset, offset +
   * size) of `mask` (empty: no mask), with `null_count` nulls (not recounted). O(1).
   * @param list_size the number of child rows in every list (0 allowed, as Arrow allows it)
   * @param child the elements, of any kind; shared, not copied
   * @param mask the validity words covering bits [offset, offset + size), or empty for no mask
   * @param size the number of rows
   * @param null_count the number of null rows among them, trusted as given
   * @param offset the first row
   * @throws devcol::logic_error naming the sizes when `list_size` is past INT32_MAX (Arrow's list
   * size is an int32), the child holds fewer than `(offset + size) * list_size` rows, the mask is
   * too small or the count impossible
   */
  fixed_size_list_column(std::size_t list_size, child_type child, buffer_type mask, std::size_t size,
                         std::size_t null_count, std::size_t offset = 0)
      : rows_base(std::move(mask), size, null_count, offset), list_size_(list_size), child_(std::move(child)) {
    std::size_t const rows = devcol::size(*child_);
    DEVCOL_EXPECTS(list_size <= std::size_t{INT32_MAX}, kind_name, ": a list size of ", list_size,
                   " is past Arrow's (an int32: at most 2147483647)");
    DEVCOL_EXPECTS(list_size == 0 || (offset + size <= rows / list_size), kind_name, ": a child of ", rows,
                   " rows cannot hold the lists of size ", list_size, " of rows [", offset, ", ", offset + size, ")");
    this->check_rows_state();
  }

  /// @brief The number of child rows in every list.
  [[nodiscard]] std::size_t list_size() const noexcept { return list_size_; }
  /// @brief The child column, whole (row `i` of this column is its rows [(offset() + i) *
  /// list_size(), (offset() + i + 1) * list_size())). Never copies.
  [[nodiscard]] child_type const& child() const noexcept { return *child_; }
  /// @brief The child rows [first, last) that the lists span. O(1): no read, no synchronisation.
  [[nodiscard]] std::pair<std::size_t, std::size_t> child_range() const noexcept {
    return {offset_ * list_size_, (offset_ + size_) * list_size_};
  }

  /// @brief Spillable policies: moves the mask and the child to host memory unless exposed or
  /// locked; returns the device bytes freed. Synchronises `stream`.
  /// @param stream the stream the copies to the host are ordered on
  /// @throws devcol::out_of_memory when host memory runs out; devcol::cuda_error if a copy fails
  std::size_t spill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    return mask_.spill(stream) + detail::any_spill(*child_, stream);
  }
  /// @brief Spillable policies: brings the mask and the child back to the device. Synchronises.
  /// @param stream accepted for symmetry with spill()
  /// @throws what the device allocation throws
  void unspill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    mask_.unspill(stream);
    detail::any_unspill(*child_, stream);
  }
  /// @brief Spillable policies: whether the mask or any of the child is in host memory now.
  [[nodiscard]] bool is_spilled() const noexcept
    requires Policy::spill::enabled
  {
    return mask_.is_spilled() || detail::any_state(*child_, detail::child_state::spilled);
  }

  /// @brief Whether another handle shares the mask or the child's buffers.
  [[nodiscard]] bool is_shared() const noexcept {
    return mask_.is_shared() || detail::any_state(*child_, detail::child_state::shared);
  }
  /// @brief Whether any memory was made elsewhere (an import).
  [[nodiscard]] bool is_borrowed() const noexcept {
    return mask_.is_borrowed() || detail::any_state(*child_, detail::child_state::borrowed);
  }
  /// @brief Whether the mask or the child was exposed (rule 11).
  [[nodiscard]] bool is_exposed() const noexcept {
    return mask_.is_exposed() || detail::any_state(*child_, detail::child_state::exposed);
  }
  /// @brief Whether writes copy first. Without a mask, the child's answer (detail::part_copies_on_write).
  [[nodiscard]] bool copy_on_write() const noexcept {
    return detail::part_copies_on_write(mask_) && detail::any_state(*child_, detail::child_state::copy_on_write);
  }
  /// @brief Another column on the same mask and child even when exposed (rule 12 does not apply). O(1).
  [[nodiscard]] fixed_size_list_column alias() const {
    fixed_size_list_column out;
    out.list_size_ = list_size_;
    *out.child_ = detail::any_alias(*child_);
    this->alias_rows(out);
    return out;
  }
  /// @brief The resource results are allocated from: the mask's, else the child's.
  [[nodiscard]] resource_type resource() const {
    return mask_.empty() ? detail::any_resource(*child_) : mask_.resource();
  }
  /// @brief The name of that resource.
  [[nodiscard]] std::string resource_name() const {
    return mask_.empty() ? detail::any_resource_name(*child_)
                         : mask_.resource_name();
  }
  /// @brief "fixed_size_list<int64>[4]", as pyarrow prints the type.
  [[nodiscard]] std::string type_name() const {
    return "fixed_size_list<" + devcol::type_name(*child_) + ">[" + std::to_string(list_size_) + "]";
  }
  /// @brief "+w:4", the Arrow format.
  [[nodiscard]] std::string arrow_format() const { return "+w:" + std::to_string(list_size_); }

 private:
  auto own_state() noexcept { return std::tie(list_size_, child_); }
  // deep_copy()'s part: a deep copy of the child rows the lists span (recursively: only those).
  void copy_own_rows(fixed_size_list_column& out, stream_ref stream) const {
    auto const [first, last] = child_range();
    out.list_size_ = list_size_;
    *out.child_ = devcol::deep_copy(devcol::slice(*child_, first, last, stream), stream);
  }
  // Rule 3: a writer whose mask is shared (or borrowed) takes its own copy of its own rows.
  void unshare(stream_ref stream) {
    if (mask_.writes_copy()) { this->take_own_copy(stream); }
  }

  std::size_t list_size_ = 0;
  detail::box<child_type> child_;
};

DEVCOL_NAMESPACE_END
