/**
 * @file detail/list_view_column.hpp
 * @brief `devcol::basic_list_view_column`: Arrow list view (`list_view_column`, 32-bit offsets and
 * sizes, "+vl") and large list view (`large_list_view_column`, 64-bit, "+vL") of any column kind.
 *
 * A view row names its child rows by an offset and a size of its own, so rows may share child rows,
 * overlap or come in any order: a gather or filter moves offsets and sizes only and keeps the child
 * whole (a gathered view stays a view, no child copy). Include <devcol/column/list_view_column.hpp>
 * (or any_column.hpp), never this header.
 *
 * The class's default template arguments and its aliases (`list_view_column`,
 * `large_list_view_column`) are declared in column/fwd.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/detail/any_column_fwd.hpp>
#include <devcol/column/detail/box.hpp>
#include <devcol/column/detail/rows.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/stream_ref.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>

DEVCOL_NAMESPACE_BEGIN

namespace detail {
/// Checks that a list view's offsets or sizes buffer holds the `size` values of rows [offset,
/// offset + size), aligned for `O` (an empty column may have none).
template <arrow_offset O, class Buffer>
void check_view_buffer(std::string_view kind, std::string_view what, Buffer const& b, std::size_t offset,
                       std::size_t size) {
  DEVCOL_EXPECTS((size == 0 && b.empty()) || (offset + size < SIZE_MAX / sizeof(O) && b.size() >= (offset + size) * sizeof(O)),
                 kind, ": a ", what, " buffer of ", b.size(), " bytes cannot hold the ", size, " ", what, " of rows [",
                 offset, ", ", offset + size, ")");
  DEVCOL_EXPECTS(b.offset() % alignof(O) == 0, kind, ": a ", what, " buffer at byte offset ", b.offset(),
                 " is not aligned for ", sizeof(O), "-byte values");
}
}  // namespace detail

/**
 * @brief `size()` lists in Arrow's list-view layout: an offsets buffer and a sizes buffer of `O`
 * (one each per row from the column's offset on: row `i` is child rows [offsets[i], offsets[i] +
 * sizes[i]), in any order, overlapping or not), the child column (`any_column`, any kind), an
 * optional validity bitmask and the null count, which is always known.
 *
 * Sharing follows the policy as for the list column: copies and slices share every buffer, the
 * child's included, in O(1) (a slice moves the offset), reads never copy, and write access through
 * a handle whose buffers are shared (or borrowed) first gives it its own copy (rules 3 and 4). The
 * offsets and sizes are trusted as given (within the child for every row, null rows too, as Arrow
 * requires); the Arrow importer checks a producer's before adopting them.
 *
 * @tparam O `std::int32_t` (Arrow list view) or `std::int64_t` (large list view)
 * @tparam Policy a buffer policy (`devcol::default_policy` unless named)
 */
template <arrow_offset O, buffer_policy Policy>
class basic_list_view_column : public detail::column_rows<basic_list_view_column<O, Policy>, Policy> {
  using rows_base = detail::column_rows<basic_list_view_column, Policy>;
  friend rows_base;
  using rows_base::mask_, rows_base::null_count_, rows_base::offset_, rows_base::size_;
  static constexpr std::string_view kind_name = "list_view_column";

 public:
  /// The offset and size type.
  using offset_type = O;
  using typename rows_base::buffer_type, typename rows_base::policy, typename rows_base::resource_type;
  /// The child's type: a column of any kind.
  using child_type = any_column<Policy>;

  /// @brief An empty column over an empty child: nothing allocated on the device.
  basic_list_view_column() : child_(child_type{}) {}
  /// Copies share the buffers in O(1) (exposed ones are copied), moves leave `other` empty,
  /// assignment copies (or moves) and swaps: strong guarantee. See detail::column_rows.
  basic_list_view_column(basic_list_view_column const&) = default;
  basic_list_view_column(basic_list_view_column&&) noexcept = default;
  basic_list_view_column& operator=(basic_list_view_column other) noexcept { return this->assign_by_swap(other); }

  /**
   * @brief Adopts buffers: rows [offset, offset + size), row `i` being child rows [offsets[offset +
   * i], offsets[offset + i] + sizes[offset + i]); validity from bits [offset, offset + size) of
   * `mask` (empty: no mask), with `null_count` nulls (not recounted). Offsets and sizes are not read.
   * @param offsets at least `offset + size` values of `O`, aligned for `O`
   * @param sizes at least `offset + size` values of `O`, aligned for `O`
   * @param child the elements, of any kind; shared, not copied
   * @param mask the validity words covering bits [offset, offset + size), or empty
   * @param size the number of rows
   * @param null_count the number of null rows among them, trusted as given
   * @param offset the first row, in offsets, sizes and mask alike
   * @throws devcol::logic_error naming the sizes when a buffer is too small or misaligned, or the
   * count impossible
   */
  basic_list_view_column(buffer_type offsets, buffer_type sizes, child_type child, buffer_type mask, std::size_t size,
                         std::size_t null_count, std::size_t offset = 0)
      : rows_base(std::move(mask), size, null_count, offset), offsets_(std::move(offsets)), sizes_(std::move(sizes)),
        child_(std::move(child)) {
    detail::check_view_buffer<O>(kind_name, "offsets", offsets_, offset, size);
    detail::check_view_buffer<O>(kind_name, "sizes", sizes_, offset, size);
    this->check_rows_state();
  }

  /// @brief The child, whole (rows index it anywhere). Never copies.
  [[nodiscard]] child_type const& child() const noexcept { return *child_; }
  /// @brief Row 0's offset, read-only (`size()` follow); null without buffers. Never copies.
  [[nodiscard]] O const* offsets(access::read_t) const noexcept(!Policy::spill::enabled) {
    auto const* base = static_cast<O const*>(offsets_.data(access::read));
    return base != nullptr ? base + offset_ : nullptr;
  }
  /// @brief Row 0's size, read-only (`size()` follow); null without buffers. Never copies.
  [[nodiscard]] O const* sizes(access::read_t) const noexcept(!Policy::spill::enabled) {
    auto const* base = static_cast<O const*>(sizes_.data(access::read));
    return base != nullptr ? base + offset_ : nullptr;
  }
  /// @brief The offsets' buffer (the whole allocation; empty for a column without buffers).
  [[nodiscard]] buffer_type const& offsets_buffer() const noexcept { return offsets_; }
  /// @brief The sizes' buffer (the whole allocation; empty for a column without buffers).
  [[nodiscard]] buffer_type const& sizes_buffer() const noexcept { return sizes_; }

  /// @brief Spillable policies: moves the buffers (the child's too) to host memory unless exposed
  /// or locked; returns the device bytes freed. Synchronises `stream`.
  /// @param stream the stream the copies to the host are ordered on
  std::size_t spill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    return offsets_.spill(stream) + sizes_.spill(stream) + mask_.spill(stream) +
           detail::any_spill(*child_, stream);
  }
  /// @brief Spillable policies: brings the buffers (the child's too) back to the device. Synchronises.
  /// @param stream accepted for symmetry with spill()
  void unspill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    offsets_.unspill(stream);
    sizes_.unspill(stream);
    mask_.unspill(stream);
    detail::any_unspill(*child_, stream);
  }
  /// @brief Spillable policies: whether any buffer (the child's too) is in host memory now.
  [[nodiscard]] bool is_spilled() const noexcept
    requires Policy::spill::enabled
  {
    return offsets_.is_spilled() || sizes_.is_spilled() || mask_.is_spilled() ||
           detail::any_state(*child_, detail::child_state::spilled);
  }
  /// @brief Whether another handle shares any buffer, the child's included.
  [[nodiscard]] bool is_shared() const noexcept {
    return offsets_.is_shared() || sizes_.is_shared() || mask_.is_shared() ||
           detail::any_state(*child_, detail::child_state::shared);
  }
  /// @brief Whether any memory was made elsewhere (an import).
  [[nodiscard]] bool is_borrowed() const noexcept {
    return offsets_.is_borrowed() || sizes_.is_borrowed() || mask_.is_borrowed() ||
           detail::any_state(*child_, detail::child_state::borrowed);
  }
  /// @brief Whether any buffer, the child's included, was exposed (rule 11).
  [[nodiscard]] bool is_exposed() const noexcept {
    return offsets_.is_exposed() || sizes_.is_exposed() || mask_.is_exposed() ||
           detail::any_state(*child_, detail::child_state::exposed);
  }
  /// @brief Whether writes copy first, here and in the child; without a mask, in its other buffers
  /// and the child (detail::part_copies_on_write).
  [[nodiscard]] bool copy_on_write() const noexcept {
    return offsets_.copy_on_write() && sizes_.copy_on_write() && detail::part_copies_on_write(mask_) &&
           detail::any_state(*child_, detail::child_state::copy_on_write);
  }
  /// @brief Another column on the same buffers even when exposed (rule 12 does not apply). O(1).
  [[nodiscard]] basic_list_view_column alias() const {
    basic_list_view_column out;
    out.offsets_ = offsets_.alias();
    out.sizes_ = sizes_.alias();
    *out.child_ = detail::any_alias(*child_);
    this->alias_rows(out);
    return out;
  }
  /// @brief The resource results are allocated from: the offsets', else the child's.
  [[nodiscard]] resource_type resource() const {
    return offsets_.empty() ? detail::any_resource(*child_) : offsets_.resource();
  }
  /// @brief The name of that resource.
  [[nodiscard]] std::string resource_name() const {
    return offsets_.empty() ? detail::any_resource_name(*child_)
                            : offsets_.resource_name();
  }
  /// @brief "list_view<int64>" or "large_list_view<int64>", as pyarrow prints them.
  [[nodiscard]] std::string type_name() const {
    return std::string(sizeof(O) == 4 ? "list_view<" : "large_list_view<") + devcol::type_name(*child_) + ">";
  }
  /// @brief The Arrow format string: "+vl" or "+vL".
  [[nodiscard]] std::string arrow_format() const { return sizeof(O) == 4 ? "+vl" : "+vL"; }

 private:
  auto own_state() noexcept { return std::tie(offsets_, sizes_, child_); }
  // deep_copy()'s part: the rows' offsets and sizes, and a deep copy of the whole child (the rows
  // may name any of it: finding the span they use would cost a reduction for no layout change).
  void copy_own_rows(basic_list_view_column& out, stream_ref stream) const {
    // rule 21: copied on, and allocated on, its device
    scoped_device const on_device(offsets_.empty() ? current_device() : offsets_.device());
    *out.child_ = devcol::deep_copy(*child_, stream);
    if (offsets_.empty()) { return; }
    for (auto [from, to] : {std::pair{&offsets_, &out.offsets_}, std::pair{&sizes_, &out.sizes_}}) {
      *to = buffer_type(size_ * sizeof(O), stream, mr::default_alignment, from->resource());
      if (size_ != 0) {
        copy_bytes(to->data(access::write, stream), static_cast<O const*>(from->data(access::read)) + offset_,
                   size_ * sizeof(O), stream);
      }
      from->read_on(stream);
    }
  }
  // Rule 3: a writer whose buffers are shared (or borrowed) takes its own copy of its own rows.
  void unshare(stream_ref stream) {
    if (offsets_.writes_copy() || sizes_.writes_copy() || mask_.writes_copy()) { this->take_own_copy(stream); }
  }

  buffer_type offsets_;
  buffer_type sizes_;
  detail::box<child_type> child_;
};

DEVCOL_NAMESPACE_END
