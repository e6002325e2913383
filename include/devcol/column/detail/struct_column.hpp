/**
 * @file detail/struct_column.hpp
 * @brief `devcol::struct_column`: Arrow struct ("+s"), named children of any kind.
 *
 * Arrow's semantics, which cuDF's struct columns share: the struct's offset applies to its
 * children (row `i` is row `offset() + i` of every child), so slicing a struct moves one offset in
 * O(1) and never touches the children. A null struct row says nothing of its children's rows.
 *
 * The class alone: its members call the free functions over `any_column`, which any_column.hpp
 * defines after including this header, so include <devcol/column/struct_column.hpp> (or any_column.hpp),
 * never this one.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/detail/any_column_fwd.hpp>
#include <devcol/column/detail/rows.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief `size()` rows of named fields: one child column (`any_column`) per field, an optional
 * validity bitmask, the offset of the first row (in the mask and in every child) and the null
 * count, which is always known. Field names may repeat, as Arrow allows; a lookup by a repeated name throws, as pyarrow's does.
 *
 * Sharing follows the policy as for `devcol::column`: copies and slices share every buffer in
 * O(1) per child (rules 1 and 8), reads never copy (rule 2), and write access through a handle
 * whose mask is shared (or borrowed) first gives it its own copy of its own rows, children cut to
 * those rows (rules 3 and 4).
 *
 * @tparam Policy a buffer policy (`devcol::default_policy` unless named)
 */
template <buffer_policy Policy>
class struct_column : public detail::column_rows<struct_column<Policy>, Policy> {
  using rows_base = detail::column_rows<struct_column, Policy>;
  friend rows_base;
  using rows_base::mask_, rows_base::null_count_, rows_base::offset_, rows_base::size_;
  static constexpr std::string_view kind_name = "struct_column";

 public:
  using typename rows_base::buffer_type, typename rows_base::policy, typename rows_base::resource_type;
  /// The children's type.
  using child_type = any_column<Policy>;

  /// @brief An empty struct: no fields, 0 rows, nothing allocated.
  struct_column() noexcept = default;
  /// Copies share the buffers in O(1) (exposed ones are copied), moves leave `other` empty,
  /// assignment copies (or moves) and swaps: strong guarantee. See detail::column_rows.
  struct_column(struct_column const&) = default;
  struct_column(struct_column&&) noexcept = default;
  struct_column& operator=(struct_column other) noexcept { return this->assign_by_swap(other); }

  /**
   * @brief Adopts children and a mask: rows [offset, offset + size) of every child, named by
   * `names` in order; validity from bits [offset, offset + size) of `mask` (empty: no mask), with
   * `null_count` nulls (not recounted).
   * @param names one name per child, in order
   * @param children the fields' columns, each at least `offset + size` rows; shared
   * @param mask the validity words covering bits [offset, offset + size), or empty
   * @param size the number of rows
   * @param null_count the number of null rows among them, trusted as given
   * @param offset the first row, in every child and the mask alike
   * @throws devcol::logic_error naming the field when a child is shorter than offset + size, when
   * names and children differ in number, or when the mask is too small or the count impossible
   */
  struct_column(std::vector<std::string> names, std::vector<child_type> children, buffer_type mask, std::size_t size,
                std::size_t null_count, std::size_t offset = 0)
      : rows_base(std::move(mask), size, null_count, offset), names_(std::move(names)), children_(std::move(children)) {
    DEVCOL_EXPECTS(names_.size() == children_.size(), "struct_column: ", names_.size(), " names for ",
                   children_.size(), " children");
    for (std::size_t i = 0; i < children_.size(); ++i) {
      std::size_t const rows = devcol::size(children_[i]);
      DEVCOL_EXPECTS(rows >= offset + size, "struct_column: field '", names_[i], "' has ", rows,
                     " rows, short of the struct's offset ", offset, " + size ", size);
    }
    this->check_rows_state();
  }

  /// @brief The number of fields.
  [[nodiscard]] std::size_t num_children() const noexcept { return children_.size(); }
  /// @brief Field `i`'s column, whole (row `offset() + r` is the struct's row `r`).
  /// @param i the field's position, in [0, num_children())
  /// @throws devcol::logic_error if out of range
  [[nodiscard]] child_type const& child(std::size_t i) const {
    check_field(i);
    return children_[i];
  }
  /// @brief The column of the field named `name`, whole.
  /// @param name the field's name; looked up by a linear scan
  /// @throws devcol::logic_error naming it if no field or several have it
  [[nodiscard]] child_type const& child(std::string_view name) const { return children_[index_of(name)]; }
  /**
   * @brief Field `i`'s rows of this struct, [offset(), offset() + size()) of its column: a slice
   * (O(1) without nulls, else a count of its nulls, synchronising `stream`).
   * @param i the field's position, in [0, num_children())
   * @param stream the stream the null count of the slice is ordered on
   * @throws devcol::logic_error if out of range
   */
  [[nodiscard]] child_type field(std::size_t i, stream_ref stream = {}) const {
    check_field(i);
    return devcol::slice(children_[i], offset_, offset_ + size_, stream);
  }
  /// @brief Field `name`'s rows of this struct (see field(i)).
  /// @param name the field's name; looked up by a linear scan
  /// @param stream the stream the null count of the slice is ordered on
  /// @throws devcol::logic_error naming it if no field or several have it
  [[nodiscard]] child_type field(std::string_view name, stream_ref stream = {}) const {
    return field(index_of(name), stream);
  }
  /// @brief Field `i`'s name.
  /// @param i the field's position, in [0, num_children())
  /// @throws devcol::logic_error if out of range
  [[nodiscard]] std::string const& name(std::size_t i) const {
    check_field(i);
    return names_[i];
  }
  /// @brief The field names, in order.
  [[nodiscard]] std::vector<std::string> const& names() const noexcept { return names_; }
  /// @brief The children, in order (whole columns).
  [[nodiscard]] std::vector<child_type> const& children() const noexcept { return children_; }

  /// @brief Spillable policies: moves the mask and every child to host memory unless exposed or locked.
  /// @param stream the stream the copies to the host are ordered on; synchronised
  std::size_t spill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    std::size_t freed = mask_.spill(stream);
    for (auto& c : children_) { freed += detail::any_spill(c, stream); }
    return freed;
  }
  /// @brief Spillable policies: brings the mask and every child back to the device. Synchronises.
  /// @param stream accepted for symmetry with spill(); the buffers copy on their own streams
  void unspill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    mask_.unspill(stream);
    for (auto& c : children_) { detail::any_unspill(c, stream); }
  }
  /// @brief Spillable policies: whether any buffer is in host memory now.
  [[nodiscard]] bool is_spilled() const noexcept
    requires Policy::spill::enabled
  {
    return mask_.is_spilled() || any_child(detail::child_state::spilled);
  }

  /// @brief Whether another handle shares any buffer, children's included.
  [[nodiscard]] bool is_shared() const noexcept {
    return mask_.is_shared() || any_child(detail::child_state::shared);
  }
  /// @brief Whether any memory was made elsewhere (an import).
  [[nodiscard]] bool is_borrowed() const noexcept {
    return mask_.is_borrowed() || any_child(detail::child_state::borrowed);
  }
  /// @brief Whether any buffer was exposed, handed out as a raw mutable pointer, which marks it for
  /// good (rule 11), children's included.
  [[nodiscard]] bool is_exposed() const noexcept {
    return mask_.is_exposed() || any_child(detail::child_state::exposed);
  }
  /// @brief Whether writes copy first in the mask and every child (under `runtime_sharing` children
  /// may have been made in another mode). Without a mask, the children's answer
  /// (detail::part_copies_on_write); without a mask or fields, the policy's mode now.
  [[nodiscard]] bool copy_on_write() const noexcept {
    return (children_.empty() ? mask_.copy_on_write() : detail::part_copies_on_write(mask_)) &&
           std::all_of(children_.begin(), children_.end(),
                       [](auto const& c) { return detail::any_state(c, detail::child_state::copy_on_write); });
  }
  /// @brief Another column on the same buffers even when exposed (rule 12, which makes a shallow
  /// copy of exposed memory a deep one, does not apply). O(1) per child.
  [[nodiscard]] struct_column alias() const {
    struct_column out;
    out.names_ = names_;
    for (auto const& c : children_) {
      out.children_.push_back(detail::any_alias(c));
    }
    this->alias_rows(out);
    return out;
  }
  /// @brief The resource ops allocate results from: the mask's, else the first child's, else the
  /// policy's.
  [[nodiscard]] resource_type resource() const {
    if (!mask_.empty() || children_.empty()) {
      return mask_.empty() ? detail::policy_resource<typename Policy::resource>() : mask_.resource();
    }
    return detail::any_resource(children_.front());
  }
  /// @brief The name of that resource ("" for a struct with neither mask nor fields).
  [[nodiscard]] std::string resource_name() const {
    if (!mask_.empty() || children_.empty()) { return mask_.resource_name(); }
    return detail::any_resource_name(children_.front());
  }
  /// @brief "struct<a: int64, b: string>", as pyarrow prints it.
  [[nodiscard]] std::string type_name() const {
    std::string out = "struct<";
    for (std::size_t i = 0; i < children_.size(); ++i) {
      if (i != 0) { out += ", "; }
      out += names_[i] + ": " + devcol::type_name(children_[i]);
    }
    return out + ">";
  }
  /// @brief The Arrow format string: "+s".
  [[nodiscard]] std::string arrow_format() const { return "+s"; }

 private:
  auto own_state() noexcept { return std::tie(names_, children_); }
  // deep_copy()'s part: each child's rows, deep-copied as that child's kind deep-copies.
  void copy_own_rows(struct_column& out, stream_ref stream) const {
    out.names_ = names_;
    out.children_.reserve(children_.size());
    for (auto const& c : children_) {
      out.children_.push_back(devcol::deep_copy(devcol::slice(c, offset_, offset_ + size_, stream), stream));
    }
  }
  // Rule 3 for the struct's own buffer: a writer of the mask whose mask is shared (or borrowed)
  // takes its own copy of its rows (the children are theirs to unshare).
  void unshare(stream_ref stream) {
    if (mask_.writes_copy()) { this->take_own_copy(stream); }
  }

  [[nodiscard]] bool any_child(detail::child_state question) const noexcept {
    return std::any_of(children_.begin(), children_.end(),
                       [question](auto const& c) { return detail::any_state(c, question); });
  }
  void check_field(std::size_t i) const {
    DEVCOL_EXPECTS(i < children_.size(), "struct_column: field index ", i, " is out of range for ",
                   children_.size(), " fields");
  }
  [[nodiscard]] std::size_t index_of(std::string_view name) const {
    auto const at = std::find(names_.begin(), names_.end(), name);
    DEVCOL_EXPECTS(at != names_.end(), "struct_column: no field named '", name, "'");
    auto const named = static_cast<std::size_t>(std::count(at, names_.end(), name));
    DEVCOL_EXPECTS(named == 1, "struct_column: ", named, " fields are named '", name, "': name one by its index");
    return static_cast<std::size_t>(at - names_.begin());
  }

  std::vector<std::string> names_;
  std::vector<child_type> children_;
};

DEVCOL_NAMESPACE_END
