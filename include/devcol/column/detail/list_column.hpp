/**
 * @file detail/list_column.hpp
 * @brief `devcol::basic_list_column`: Arrow list (`list_column`, 32-bit offsets, "+l") and large
 * list (`large_list_column`, 64-bit offsets, "+L") of any column kind, and `list_column_view`.
 *
 * Modelled on strings_column.hpp (a strings column is a list of bytes): the same names, slicing by
 * moving an Arrow offset (never rewriting offsets), the same copy-on-write and exposure semantics.
 * The child is an `any_column`, held by value in a heap cell: copying a list copies its child,
 * which shares the child's buffers in O(1).
 *
 * The class alone: its members call the free functions over `any_column`, which any_column.hpp
 * defines after including this header, so include <devcol/column/list_column.hpp> (or any_column.hpp),
 * never this one.
 *
 * The class's default template arguments and its aliases (`list_column`, `large_list_column`) are
 * declared in column/fwd.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/detail/any_column_fwd.hpp>
#include <devcol/column/detail/box.hpp>
#include <devcol/column/detail/rows.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/column/validity_view.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/resource.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief A read-only view of a list column's offsets and validity, for kernels: five words,
 * trivially copyable, never allocates. Row `i` is child rows [offsets()[i], offsets()[i + 1]);
 * the child is viewed on its own (its kind is known only at run time).
 * @tparam O the offset type, `std::int32_t` (list) or `std::int64_t` (large list)
 */
template <arrow_offset O>
class list_column_view : public validity_view {
 public:
  /// The offset type.
  using offset_type = O;
  /// @brief An empty view.
  constexpr list_column_view() noexcept = default;
  /// @brief `size` rows whose offsets start at `offsets`; validity bit `mask_offset + i` of `mask`.
  /// Nothing is read or checked.
  /// @param offsets row 0's offset; `size + 1` follow, absolute rows of the child
  /// @param size the number of rows
  /// @param mask the validity words, or null when every row is valid
  /// @param mask_offset the bit of `mask` that holds row 0's validity
  /// @param null_count the number of null rows, trusted as given
  DEVCOL_HOST_DEVICE constexpr list_column_view(O const* offsets, std::size_t size, bitmask_word const* mask = nullptr,
                                                std::size_t mask_offset = 0, std::size_t null_count = 0) noexcept
      : validity_view(size, mask, mask_offset, null_count), offsets_(offsets) {}
  /// @brief Row 0's start offset; `size() + 1` follow (absolute rows of the child).
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr O const* offsets() const noexcept { return offsets_; }
  /// @brief Row `i`'s number of child rows. No bounds check; reads two offsets (device memory).
  /// @param i the row, in [0, size())
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr std::size_t length(std::size_t i) const noexcept {
    return static_cast<std::size_t>(offsets_[i + 1] - offsets_[i]);
  }

 private:
  O const* offsets_ = nullptr;
};

/**
 * @brief `size()` lists in Arrow's list layout: an offsets buffer of `O` (`size() + 1` of them
 * from the column's offset on, absolute rows of the child), the child column (`any_column`, any
 * kind, nested ones included), an optional validity bitmask, the offset of the first row (in
 * offsets and mask alike) and the null count, which is always known.
 *
 * Sharing follows the policy as for `devcol::column`: copies and slices share the buffers, the
 * child's included, in O(1) (rules 1 and 8; a slice moves the offset and keeps the whole child),
 * reads never copy (rule 2), and write access through a handle whose buffers are shared (or
 * borrowed) first gives it its own copy of its own rows, offsets rebased to start at child row 0
 * and the child cut to those rows (rules 3 and 4). Lists are never resized in place.
 *
 * The offsets are trusted as given (monotonic, within the child); the Arrow importer checks a
 * producer's before adopting them. An empty column may have no offsets buffer.
 *
 * An Arrow map ("+m") is this layout too (a list of a struct of keys and values), so it is a list
 * column that says so (`is_map()`, set by `as_map()`): every list operation serves it, and those
 * that make a new list of a map (gather, filter, concatenate, slice, deep copy) make a map. Whether
 * its keys are sorted is the field's business (`field_info::keys_sorted`), as Arrow keeps it in the
 * schema's flags.
 *
 * @tparam O `std::int32_t` (Arrow list) or `std::int64_t` (large list)
 * @tparam Policy a buffer policy (`devcol::default_policy` unless named)
 */
template <arrow_offset O, buffer_policy Policy>
class basic_list_column : public detail::column_rows<basic_list_column<O, Policy>, Policy> {
  using rows_base = detail::column_rows<basic_list_column, Policy>;
  friend rows_base;
  using rows_base::mask_, rows_base::null_count_, rows_base::offset_, rows_base::size_;
  static constexpr std::string_view kind_name = "list_column";

 public:
  /// The offset type.
  using offset_type = O;
  using typename rows_base::buffer_type, typename rows_base::policy, typename rows_base::resource_type;
  /// The child's type.
  using child_type = any_column<Policy>;
  /// The view kernels take.
  using view_type = list_column_view<O>;

  /// @brief An empty column: 0 rows of list<int8>; allocates the child's heap cell, no device memory.
  basic_list_column() : child_(child_type{}) {}
  /// Copies share the buffers in O(1) (exposed ones are copied), moves leave `other` empty,
  /// assignment copies (or moves) and swaps: strong guarantee. See detail::column_rows.
  basic_list_column(basic_list_column const&) = default;
  basic_list_column(basic_list_column&&) noexcept = default;
  basic_list_column& operator=(basic_list_column other) noexcept { return this->assign_by_swap(other); }

  /**
   * @brief Adopts buffers: rows [offset, offset + size), row `i` being child rows
   * [offsets[offset + i], offsets[offset + i + 1]); validity from bits [offset, offset + size) of
   * `mask` (empty: no mask), with `null_count` nulls (not recounted). Offsets are not read.
   * @param offsets at least `offset + size + 1` offsets of `O`, aligned for `O`
   * @param child the elements the offsets index, of any kind; shared, not copied
   * @param mask the validity words covering bits [offset, offset + size), or empty
   * @param size the number of rows
   * @param null_count the number of null rows among them, trusted as given
   * @param offset the first row, in offsets and mask alike
   * @throws devcol::logic_error naming the sizes when a buffer is too small or misaligned, or the
   * count impossible
   */
  basic_list_column(buffer_type offsets, child_type child, buffer_type mask, std::size_t size, std::size_t null_count,
                    std::size_t offset = 0)
      : rows_base(std::move(mask), size, null_count, offset), offsets_(std::move(offsets)), child_(std::move(child)) {
    detail::check_offsets_buffer<O>(kind_name, offsets_, offset, size);
    this->check_rows_state();
  }

  /**
   * @brief The child rows [first, last) that the lists span: reads two offsets to the host and
   * synchronises `stream`. {0, 0} without an offsets buffer. Under a spill lock of its own, so it
   * never pins the offsets on the device for good (rule 20).
   * @param stream the stream the two offset reads are ordered on; synchronised
   */
  [[nodiscard]] std::pair<std::size_t, std::size_t> child_range(stream_ref stream = {}) const {
    detail::operation_spill_lock<Policy> const spill_scope{stream};
    return detail::offsets_span(offsets(access::read), size_, stream);
  }

  /// @brief Whether the lists are an Arrow map ("+m"): a struct child of two fields, keys (never
  /// null) and values. O(1).
  [[nodiscard]] bool is_map() const noexcept { return map_; }

  /**
   * @brief The same lists as an Arrow map ("+m") when `map`, else as a plain list: O(1), the
   * buffers moved, nothing read but the keys' null count (always known).
   * @param map whether the result is a map
   * @throws devcol::logic_error naming what is wrong when `map` and the offsets are not 32-bit, the
   * child is not a struct of exactly two fields, or its first field (the keys) holds null rows
   */
  [[nodiscard]] basic_list_column as_map(bool map = true) && {
    if (map) {
      DEVCOL_EXPECTS(sizeof(O) == 4, kind_name, ": a map has 32-bit offsets, not a large list's");
      auto const* entries = devcol::get_if<struct_column<Policy>>(&*child_);
      DEVCOL_EXPECTS(entries != nullptr && entries->num_children() == 2, kind_name,
                     ": a map's child is a struct of 2 fields (keys and values), not ", devcol::type_name(*child_));
      std::size_t const null_keys = devcol::null_count(entries->child(0));
      DEVCOL_EXPECTS(null_keys == 0, kind_name, ": a map's keys are never null; ", null_keys, " of ",
                     devcol::size(entries->child(0)), " key rows are");
    }
    map_ = map;
    return std::move(*this);
  }

  /// @brief The child, whole: offsets are absolute rows of it (a slice keeps all of it). Never copies.
  [[nodiscard]] child_type const& child() const noexcept { return *child_; }
  /// @brief Row 0's offset, read-only (`size() + 1` follow); null without buffers. Never copies.
  [[nodiscard]] O const* offsets(access::read_t) const noexcept(!Policy::spill::enabled) {
    auto const* base = static_cast<O const*>(offsets_.data(access::read));
    return base != nullptr ? base + offset_ : nullptr;
  }

  /// @brief A read-only view of offsets and validity for kernels; never copies.
  [[nodiscard]] view_type view() const noexcept(!Policy::spill::enabled) {
    return view_type{offsets(access::read), size_, this->null_mask(access::read), offset_, null_count_};
  }

  /// @brief Spillable policies: moves the buffers (the child's too) to host memory unless exposed
  /// or locked; returns the device bytes freed.
  /// @param stream the stream the copies to the host are ordered on; synchronised
  std::size_t spill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    return offsets_.spill(stream) + mask_.spill(stream) +
           detail::any_spill(*child_, stream);
  }
  /// @brief Spillable policies: brings the buffers (the child's too) back to the device. Synchronises.
  /// @param stream accepted for symmetry with spill(); the buffers copy on their own streams
  void unspill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    offsets_.unspill(stream);
    mask_.unspill(stream);
    detail::any_unspill(*child_, stream);
  }
  /// @brief Spillable policies: whether any buffer (the child's too) is in host memory now.
  [[nodiscard]] bool is_spilled() const noexcept
    requires Policy::spill::enabled
  {
    return offsets_.is_spilled() || mask_.is_spilled() ||
           detail::any_state(*child_, detail::child_state::spilled);
  }

  /// @brief Whether another handle shares any buffer, the child's included.
  [[nodiscard]] bool is_shared() const noexcept {
    return offsets_.is_shared() || mask_.is_shared() || detail::any_state(*child_, detail::child_state::shared);
  }
  /// @brief Whether any memory was made elsewhere (an import): writes copy it first.
  [[nodiscard]] bool is_borrowed() const noexcept {
    return offsets_.is_borrowed() || mask_.is_borrowed() ||
           detail::any_state(*child_, detail::child_state::borrowed);
  }
  /// @brief Whether any buffer was exposed, handed out as a raw mutable pointer, which marks it for
  /// good (rule 11), the child's included.
  [[nodiscard]] bool is_exposed() const noexcept {
    return offsets_.is_exposed() || mask_.is_exposed() ||
           detail::any_state(*child_, detail::child_state::exposed);
  }
  /// @brief Whether writes copy first, here and in the child (under `runtime_sharing` the child may
  /// have been made in another mode; an export snapshots a column unless all of it copies on write).
  /// A list without a mask answers for its offsets and child (detail::part_copies_on_write).
  [[nodiscard]] bool copy_on_write() const noexcept {
    return offsets_.copy_on_write() && detail::part_copies_on_write(mask_) &&
           detail::any_state(*child_, detail::child_state::copy_on_write);
  }
  /// @brief Another column on the same buffers even when exposed (rule 12, which makes a shallow
  /// copy of exposed memory a deep one, does not apply). O(1).
  [[nodiscard]] basic_list_column alias() const {
    basic_list_column out;
    out.map_ = map_;
    out.offsets_ = offsets_.alias();
    *out.child_ = detail::any_alias(*child_);
    this->alias_rows(out);
    return out;
  }
  /// @brief The offsets' buffer (the whole allocation; empty for a column without buffers).
  [[nodiscard]] buffer_type const& offsets_buffer() const noexcept { return offsets_; }
  /// @brief The resource that made the offsets (what ops allocate results from).
  [[nodiscard]] resource_type resource() const { return offsets_.resource(); }
  /// @brief The name of that resource.
  [[nodiscard]] std::string resource_name() const { return offsets_.resource_name(); }
  /// @brief "list<child>" or "large_list<child>", as pyarrow prints them (e.g. "list<int64>"); a
  /// map's "map<keys, values>" ("map<string, int32>").
  [[nodiscard]] std::string type_name() const {
    if (map_) {
      auto const& entries = devcol::get<struct_column<Policy>>(*child_);
      return "map<" + devcol::type_name(entries.child(0)) + ", " + devcol::type_name(entries.child(1)) + ">";
    }
    return std::string(sizeof(O) == 4 ? "list<" : "large_list<") + devcol::type_name(*child_) + ">";
  }
  /// @brief The Arrow format string: "+l" or "+L"; "+m" for a map.
  [[nodiscard]] std::string arrow_format() const { return map_ ? "+m" : sizeof(O) == 4 ? "+l" : "+L"; }

 private:
  auto own_state() noexcept { return std::tie(offsets_, child_, map_); }
  // deep_copy()'s part: offsets rebased to start at 0 and a deep copy of the child rows they span
  // (recursively: only those), after reading the first and last offsets to the host.
  void copy_own_rows(basic_list_column& out, stream_ref stream) const {
    scoped_device const on_device(offsets_.device());  // rule 21: copied on, and allocated on, its device
    auto const [first, last] = child_range(stream);
    out.map_ = map_;
    *out.child_ = devcol::deep_copy(devcol::slice(*child_, first, last, stream), stream);
    if (offsets_.empty()) { return; }  // 0 rows (see the constructor)
    out.offsets_ = detail::rebased_offsets<O, buffer_type>(offsets(access::read), size_, first, stream, offsets_.resource());
    offsets_.read_on(stream);
  }
  // Rule 3: a writer whose buffers are shared (or borrowed) takes its own copy of its own rows.
  void unshare(stream_ref stream) {
    if (offsets_.writes_copy() || mask_.writes_copy()) { this->take_own_copy(stream); }
  }

  buffer_type offsets_;
  detail::box<child_type> child_;
  bool map_ = false;  // an Arrow map ("+m"): see as_map()
};

DEVCOL_NAMESPACE_END
