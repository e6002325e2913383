/**
 * @file detail/union_column.hpp
 * @brief `devcol::union_column`: Arrow sparse ("+us:<codes>") and dense ("+ud:<codes>") unions,
 * each row one value of one of the children (any kinds), selected by an int8 type code.
 *
 * The layout: an int8 type id per row (one of the declared type codes, which need not be 0..n-1),
 * for a dense union an int32 offset per row into the selected child, and the children. A union has
 * no validity of its own (Arrow's unions have none): a row is null when its selected child's row
 * is. The offset applies to the type ids, to the dense offsets and to a sparse union's children
 * (row `i` of every sparse child is row `offset() + i`), so a slice moves one offset in O(1).
 * Include <devcol/column/union_column.hpp> (or any_column.hpp), never this header.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/any_column_fwd.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/detail/rows.hpp>
#include <devcol/column/fwd.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/resource.hpp>

#include <thrust/find.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

/// @brief The two layouts of an Arrow union: every child as long as the union (sparse, "+us"), or
/// an offset per row into the selected child (dense, "+ud").
enum class union_mode : std::uint8_t {
  sparse,  ///< row `i` of the selected child is the union's row `i` (children as long as the union)
  dense,   ///< row `offsets[i]` of the selected child (each child holds only its own rows)
};

namespace detail {

/// The most children a union has: Arrow's type codes are 0 to 127.
inline constexpr std::size_t max_union_children = 128;

/// A type code's child (-1: the code is not declared), and each child's rows: what device code
/// reads of a union's type, by value (no device allocation).
struct union_children_table {
  std::int8_t child_of[max_union_children];
  std::int64_t rows[max_union_children];
};

/// The table of `codes` (each 0..127, checked by the caller) and children of `rows` rows each.
[[nodiscard]] inline union_children_table make_union_table(std::vector<std::int8_t> const& codes,
                                                           std::vector<std::int64_t> const& rows) noexcept {
  union_children_table t{};
  std::fill(std::begin(t.child_of), std::end(t.child_of), static_cast<std::int8_t>(-1));
  for (std::size_t k = 0; k < codes.size(); ++k) {
    t.child_of[static_cast<std::uint8_t>(codes[k])] = static_cast<std::int8_t>(k);
    t.rows[k] = k < rows.size() ? rows[k] : 0;
  }
  return t;
}

/// The child a type id selects, or -1 when the id is not a declared code.
DEVCOL_HOST_DEVICE inline int union_child_of(union_children_table const& t, std::int8_t id) noexcept {
  return id < 0 ? -1 : static_cast<int>(t.child_of[static_cast<std::uint8_t>(id)]);
}

/// Whether row `i` of a union is malformed: its type id is not a declared code, or (dense) its
/// offset is negative or past its child's rows.
struct union_row_is_bad {
  std::int8_t const* ids;
  std::int32_t const* offsets;  // null for a sparse union
  union_children_table table;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept {
    int const k = union_child_of(table, ids[i]);
    if (k < 0) { return true; }
    if (offsets == nullptr) { return false; }
    std::int32_t const o = offsets[i];
    return o < 0 || static_cast<std::int64_t>(o) >= table.rows[k];
  }
};

/// The first malformed row of a union (none: `row == rows`), its type id and (dense) offset.
struct union_bad_row {
  std::size_t row;
  std::int8_t id;
  std::int32_t offset;
};

/**
 * Finds the first of `rows` union rows (type ids `ids`, dense offsets `offsets` or null) whose
 * type id is not a declared code, or whose offset is outside its child: one pass
 * (find_first_n), its answer and the row's values read back (synchronises `stream`).
 * A template, called as a plain function, so that its kernel is compiled only in a file that
 * calls it, not in every file that includes this header (as bitmask.hpp's kernels are).
 */
template <int = 0>
[[nodiscard]] union_bad_row find_bad_union_row(std::int8_t const* ids, std::int32_t const* offsets, std::size_t rows,
                                               union_children_table const& children, stream_ref stream) {
  union_bad_row out{rows, 0, 0};
  if (rows == 0) { return out; }
  executor exec(stream);
  out.row = find_first_n(exec, rows, union_row_is_bad{ids, offsets, children});
  if (out.row != rows) {
    copy_bytes(&out.id, ids + out.row, 1, stream);
    if (offsets != nullptr) { copy_bytes(&out.offset, offsets + out.row, sizeof(std::int32_t), stream); }
    stream.synchronize();
  }
  return out;
}

/// The first dense union row whose offset is below an earlier row's into the same child (none:
/// `row == ids.size()`), its type id and offset, and that earlier offset.
struct union_decreasing_row {
  std::size_t row;
  std::int8_t id;
  std::int32_t offset;
  std::int32_t earlier;
};

/**
 * Finds the first row of a dense union, from host copies of its type ids and offsets (every id a
 * declared code, 0..127), whose offset is below the last offset an earlier row gave its child:
 * Arrow requires each child's offsets in increasing order (equal ones allowed, as Arrow C++'s
 * validation allows them). One pass; a template for the reason find_bad_union_row is.
 */
template <int = 0>
[[nodiscard]] union_decreasing_row find_decreasing_union_offset(std::span<std::int8_t const> ids,
                                                                std::span<std::int32_t const> offsets) {
  std::int32_t last[max_union_children] = {};
  for (std::size_t i = 0; i < ids.size(); ++i) {
    auto const code = static_cast<std::size_t>(static_cast<std::uint8_t>(ids[i])) % max_union_children;
    if (offsets[i] < last[code]) { return {i, ids[i], offsets[i], last[code]}; }
    last[code] = offsets[i];
  }
  return {ids.size(), 0, 0, 0};
}

/// Throws unless `codes` are `children` distinct type codes in 0..127 (names the bad one).
template <int = 0>
void check_union_codes(std::string_view what, std::vector<std::int8_t> const& codes, std::size_t children) {
  DEVCOL_EXPECTS(codes.size() == children, what, ": ", codes.size(), " type codes for ", children, " children");
  DEVCOL_EXPECTS(children <= max_union_children, what, ": ", children, " children, more than Arrow's 128");
  for (std::size_t k = 0; k < codes.size(); ++k) {
    DEVCOL_EXPECTS(codes[k] >= 0, what, ": type code ", static_cast<int>(codes[k]), " is negative");
    for (std::size_t j = 0; j < k; ++j) {
      DEVCOL_EXPECTS(codes[j] != codes[k], what, ": type code ", static_cast<int>(codes[k]), " is declared twice");
    }
  }
}

}  // namespace detail

/**
 * @brief `size()` rows in Arrow's union layout: an int8 type id per row (one of type_codes()), for
 * a dense union an int32 offset per row into the child the id selects, and the children (one
 * `any_column` each, of any kind, named). Row `i` is row `offset() + i` (sparse) or
 * `offsets[i]` (dense) of child `k` where `type_codes()[k]` is the row's type id.
 *
 * It has no validity of its own (null_count() is 0 and there is no mask, as Arrow's unions): a row
 * is null when its selected child's row is, which is_null and is_valid read. Copies and slices
 * share every buffer and child in O(1) (rules 1 and 8: a slice moves the offset); deep_copy() owns
 * only its rows' type ids and offsets, and a sparse union only its rows of each child (a dense
 * union copies its children whole, since the offsets may name any of their rows).
 *
 * @tparam Policy a buffer policy (`devcol::default_policy` unless named)
 */
template <buffer_policy Policy = default_policy>
class union_column : public detail::column_rows<union_column<Policy>, Policy> {
  using rows_base = detail::column_rows<union_column, Policy>;
  friend rows_base;
  using rows_base::mask_, rows_base::null_count_, rows_base::offset_, rows_base::size_;
  static constexpr std::string_view kind_name = "union_column";

 public:
  using typename rows_base::buffer_type, typename rows_base::policy, typename rows_base::resource_type;
  /// The children's type.
  using child_type = any_column<Policy>;

  /// @brief An empty sparse union without children: nothing allocated.
  union_column() noexcept = default;
  /// Copies share the buffers in O(1) (exposed ones are copied), moves leave `other` empty,
  /// assignment copies (or moves) and swaps: strong guarantee. See detail::column_rows.
  union_column(union_column const&) = default;
  union_column(union_column&&) noexcept = default;
  union_column& operator=(union_column other) noexcept { return this->assign_by_swap(other); }

  /**
   * @brief Adopts type ids, offsets and children: rows [offset, offset + size). O(1) but for the
   * checks of the counts; the content (every type id a declared code, every dense offset within its
   * child) is trusted as given (make_union_column and the Arrow import check it in one pass).
   * @param mode sparse or dense
   * @param type_codes the type code of each child, distinct, in 0..127 (Arrow's "+us:3,7" codes)
   * @param names one name per child
   * @param children the children, shared; a sparse union's each at least offset + size rows
   * @param type_ids int8 type ids, elements [offset, offset + size) are the rows'
   * @param offsets dense: int32 offsets, elements [offset, offset + size); sparse: empty
   * @param size the number of rows
   * @param offset the first row, in the type ids, the offsets and (sparse) every child
   * @throws devcol::logic_error naming the counts when names, codes and children differ in number,
   * a code is negative or repeated, a buffer is too small, a sparse child is too short, or a sparse
   * union is given offsets
   */
  union_column(union_mode mode, std::vector<std::int8_t> type_codes, std::vector<std::string> names,
               std::vector<child_type> children, buffer_type type_ids, buffer_type offsets, std::size_t size,
               std::size_t offset = 0)
      : rows_base(buffer_type{}, size, 0, offset),
        mode_(mode),
        type_codes_(std::move(type_codes)),
        names_(std::move(names)),
        children_(std::move(children)),
        type_ids_(std::move(type_ids)),
        offsets_(std::move(offsets)) {
    detail::check_union_codes(kind_name, type_codes_, children_.size());
    DEVCOL_EXPECTS(names_.size() == children_.size(), kind_name, ": ", names_.size(), " names for ",
                   children_.size(), " children");
    std::size_t const rows = offset + size;
    DEVCOL_EXPECTS(rows == 0 || type_ids_.size() >= rows, kind_name, ": type ids of ", type_ids_.size(),
                   " bytes cannot hold rows [", offset, ", ", rows, ")");
    if (mode_ == union_mode::dense) {
      DEVCOL_EXPECTS(rows == 0 || offsets_.size() >= rows * sizeof(std::int32_t), kind_name, ": offsets of ",
                     offsets_.size(), " bytes cannot hold rows [", offset, ", ", rows, ")");
      DEVCOL_EXPECTS(offsets_.offset() % sizeof(std::int32_t) == 0, kind_name, ": offsets at byte offset ",
                     offsets_.offset(), " are not aligned to 4 bytes");
    } else {
      DEVCOL_EXPECTS(offsets_.empty(), kind_name, ": a sparse union has no offsets");
      for (std::size_t k = 0; k < children_.size(); ++k) {
        DEVCOL_EXPECTS(devcol::size(children_[k]) >= rows, kind_name, ": child '", names_[k], "' has ",
                       devcol::size(children_[k]), " rows, short of the union's offset ", offset, " + size ", size);
      }
    }
    DEVCOL_EXPECTS(rows == 0 || !children_.empty(), kind_name, ": ", size, " rows without any child");
    this->check_rows_state();
  }

  /// @brief Sparse or dense.
  [[nodiscard]] union_mode mode() const noexcept { return mode_; }
  /// @brief The type code of each child, in child order (Arrow's "+us:<codes>").
  [[nodiscard]] std::vector<std::int8_t> const& type_codes() const noexcept { return type_codes_; }
  /// @brief The child names, in order.
  [[nodiscard]] std::vector<std::string> const& names() const noexcept { return names_; }
  /// @brief The children, whole, in order.
  [[nodiscard]] std::vector<child_type> const& children() const noexcept { return children_; }
  /// @brief The number of children.
  [[nodiscard]] std::size_t num_children() const noexcept { return children_.size(); }
  /// @brief Child `k`, whole (a sparse union's row `i` is its row `offset() + i`).
  /// @param k the child's position, in [0, num_children())
  /// @throws devcol::logic_error if out of range
  [[nodiscard]] child_type const& child(std::size_t k) const {
    check_child(k);
    return children_[k];
  }
  /// @brief Child `k`'s name.
  /// @param k the child's position, in [0, num_children())
  /// @throws devcol::logic_error if out of range
  [[nodiscard]] std::string const& name(std::size_t k) const {
    check_child(k);
    return names_[k];
  }
  /// @brief The rows' type ids, read-only, from row 0 (null without rows). Never copies.
  [[nodiscard]] std::int8_t const* type_ids(access::read_t) const noexcept(!Policy::spill::enabled) {
    auto const* p = static_cast<std::int8_t const*>(type_ids_.data(access::read));
    return p == nullptr ? nullptr : p + offset_;
  }
  /// @brief A dense union's offsets, read-only, from row 0 (null for a sparse union). Never copies.
  [[nodiscard]] std::int32_t const* offsets(access::read_t) const noexcept(!Policy::spill::enabled) {
    auto const* p = static_cast<std::int32_t const*>(offsets_.data(access::read));
    return p == nullptr ? nullptr : p + offset_;
  }
  /// @brief The type ids' buffer, whole (element offset() is row 0's).
  [[nodiscard]] buffer_type const& type_ids_buffer() const noexcept { return type_ids_; }
  /// @brief The dense offsets' buffer, whole (empty for a sparse union).
  [[nodiscard]] buffer_type const& offsets_buffer() const noexcept { return offsets_; }
  /// @brief What device code reads of the type: each code's child and each child's rows. O(children).
  [[nodiscard]] detail::union_children_table children_table() const {
    std::vector<std::int64_t> rows;
    for (auto const& c : children_) { rows.push_back(static_cast<std::int64_t>(devcol::size(c))); }
    return detail::make_union_table(type_codes_, rows);
  }

  /// @brief Spillable policies: moves the type ids, offsets and every child to host memory unless
  /// exposed or locked; returns the device bytes freed. Synchronises `stream`.
  /// @param stream the stream the copies to the host are ordered on
  /// @throws devcol::out_of_memory when host memory runs out; devcol::cuda_error if a copy fails
  std::size_t spill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    std::size_t freed = type_ids_.spill(stream) + offsets_.spill(stream);
    for (auto& c : children_) { freed += detail::any_spill(c, stream); }
    return freed;
  }
  /// @brief Spillable policies: brings every buffer and child back to the device. Synchronises.
  /// @param stream accepted for symmetry with spill()
  /// @throws what the device allocation throws
  void unspill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    type_ids_.unspill(stream);
    offsets_.unspill(stream);
    for (auto& c : children_) { detail::any_unspill(c, stream); }
  }
  /// @brief Spillable policies: whether any buffer or child is in host memory now.
  [[nodiscard]] bool is_spilled() const noexcept
    requires Policy::spill::enabled
  {
    return type_ids_.is_spilled() || offsets_.is_spilled() || any_child(detail::child_state::spilled);
  }

  /// @brief Whether another handle shares any buffer, children's included.
  [[nodiscard]] bool is_shared() const noexcept {
    return type_ids_.is_shared() || offsets_.is_shared() || any_child(detail::child_state::shared);
  }
  /// @brief Whether any memory was made elsewhere (an import).
  [[nodiscard]] bool is_borrowed() const noexcept {
    return type_ids_.is_borrowed() || offsets_.is_borrowed() ||
           any_child(detail::child_state::borrowed);
  }
  /// @brief Whether any buffer was exposed (rule 11), children's included.
  [[nodiscard]] bool is_exposed() const noexcept {
    return type_ids_.is_exposed() || offsets_.is_exposed() || any_child(detail::child_state::exposed);
  }
  /// @brief Whether writes copy first, in every buffer and child; a sparse union's empty offsets have
  /// no say (detail::part_copies_on_write).
  [[nodiscard]] bool copy_on_write() const noexcept {
    return type_ids_.copy_on_write() && detail::part_copies_on_write(offsets_) &&
           std::all_of(children_.begin(), children_.end(),
                       [](auto const& c) { return detail::any_state(c, detail::child_state::copy_on_write); });
  }
  /// @brief Another column on the same buffers even when exposed (rule 12 does not apply). O(children).
  [[nodiscard]] union_column alias() const {
    union_column out;
    out.mode_ = mode_;
    out.type_codes_ = type_codes_;
    out.names_ = names_;
    for (auto const& c : children_) {
      out.children_.push_back(detail::any_alias(c));
    }
    out.type_ids_ = type_ids_.alias();
    out.offsets_ = offsets_.alias();
    this->alias_rows(out);
    return out;
  }
  /// @brief The resource results are allocated from: the type ids', else the first child's, else the
  /// policy's.
  [[nodiscard]] resource_type resource() const {
    if (!type_ids_.empty() || children_.empty()) {
      return type_ids_.empty() ? detail::policy_resource<typename Policy::resource>() : type_ids_.resource();
    }
    return detail::any_resource(children_.front());
  }
  /// @brief The name of that resource.
  [[nodiscard]] std::string resource_name() const {
    if (!type_ids_.empty() || children_.empty()) { return type_ids_.resource_name(); }
    return detail::any_resource_name(children_.front());
  }
  /// @brief "sparse_union<a: int64=3, b: string=7>" (or dense_union), as pyarrow prints the type.
  [[nodiscard]] std::string type_name() const {
    std::string out = mode_ == union_mode::sparse ? "sparse_union<" : "dense_union<";
    for (std::size_t k = 0; k < children_.size(); ++k) {
      if (k != 0) { out += ", "; }
      out += names_[k] + ": " + devcol::type_name(children_[k]) + "=" + std::to_string(type_codes_[k]);
    }
    return out + ">";
  }
  /// @brief The Arrow format: "+us:" (sparse) or "+ud:" (dense) and the type codes, comma-separated.
  [[nodiscard]] std::string arrow_format() const {
    std::string out = mode_ == union_mode::sparse ? "+us:" : "+ud:";
    for (std::size_t k = 0; k < type_codes_.size(); ++k) {
      if (k != 0) { out += ','; }
      out += std::to_string(type_codes_[k]);
    }
    return out;
  }

  /// The column has no mask to replace (its nulls are its children's): deleted.
  void replace_null_mask(buffer_type, std::size_t) = delete;

 private:
  [[nodiscard]] bool any_child(detail::child_state question) const noexcept {
    return std::any_of(children_.begin(), children_.end(),
                       [question](auto const& c) { return detail::any_state(c, question); });
  }
  void check_child(std::size_t k) const {
    DEVCOL_EXPECTS(k < children_.size(), kind_name, ": child ", k, " is out of range for ", children_.size(),
                   " children");
  }
  auto own_state() noexcept { return std::tie(mode_, type_codes_, names_, children_, type_ids_, offsets_); }
  // `count` elements of `bytes_each` from element offset_ of `from`, in a fresh buffer of its resource.
  [[nodiscard]] buffer_type copy_range(buffer_type const& from, std::size_t bytes_each, stream_ref stream) const {
    if (from.empty() || size_ == 0) { return buffer_type{}; }
    buffer_type out(size_ * bytes_each, stream, mr::default_alignment, from.resource());
    copy_bytes(out.data(access::write, stream),
               static_cast<unsigned char const*>(from.data(access::read)) + offset_ * bytes_each, size_ * bytes_each,
               stream);
    from.read_on(stream);
    return out;
  }
  // deep_copy()'s part: the rows' type ids and offsets, and each child's rows (sparse) or each
  // child whole (dense: the offsets may name any of its rows).
  void copy_own_rows(union_column& out, stream_ref stream) const {
    out.mode_ = mode_;
    out.type_codes_ = type_codes_;
    out.names_ = names_;
    out.type_ids_ = copy_range(type_ids_, 1, stream);
    out.offsets_ = copy_range(offsets_, sizeof(std::int32_t), stream);
    for (auto const& c : children_) {
      out.children_.push_back(mode_ == union_mode::sparse
                                  ? devcol::deep_copy(devcol::slice(c, offset_, offset_ + size_, stream), stream)
                                  : devcol::deep_copy(c, stream));
    }
  }
  // No mask to write: nothing to unshare (the buffers are never written in place).
  void unshare(stream_ref) noexcept {}

  union_mode mode_ = union_mode::sparse;
  std::vector<std::int8_t> type_codes_;
  std::vector<std::string> names_;
  std::vector<child_type> children_;
  buffer_type type_ids_;
  buffer_type offsets_;
};

DEVCOL_NAMESPACE_END
