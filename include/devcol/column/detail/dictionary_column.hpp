/**
 * @file detail/dictionary_column.hpp
 * @brief `devcol::dictionary_column`: Arrow dictionary encoding, indices of any integer type (8 to
 * 64 bits, signed or unsigned) into a values column of any kind (cuDF's dictionary32, polars'
 * Categorical with uint32 indices, duckdb's ENUM with uint8 ones).
 *
 * The class alone: its members call the free functions over `any_column`, which any_column.hpp
 * defines after including this header, so include <devcol/column/dictionary_column.hpp> (or
 * any_column.hpp), never this one.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/any_column_fwd.hpp>
#include <devcol/column/detail/box.hpp>
#include <devcol/column/detail/rows.hpp>
#include <devcol/column/detail/visit_alternative.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

DEVCOL_NAMESPACE_BEGIN

/// @brief The integer types a dictionary's indices may have: Arrow's, every signed and unsigned
/// integer of 8 to 64 bits.
/// @tparam I the type tested
template <class I>
concept dictionary_index = std::integral<I> && fixed_width<I> && !std::is_same_v<I, bool>;

/**
 * @brief A dictionary's indices: a column of one of the eight integer types, chosen at run time (an
 * import keeps the producer's type, zero-copy). Operations keep the type: a gathered, filtered or
 * concatenated dictionary has the indices type of its input.
 * @tparam Policy the buffer policy
 */
template <buffer_policy Policy = default_policy>
using dictionary_indices =
    std::variant<column<std::int8_t, Policy>, column<std::int16_t, Policy>, column<std::int32_t, Policy>,
                 column<std::int64_t, Policy>, column<std::uint8_t, Policy>, column<std::uint16_t, Policy>,
                 column<std::uint32_t, Policy>, column<std::uint64_t, Policy>>;

/**
 * @brief `size()` rows, each an index into a values column (row `i` is `values()[indices()[i]]`),
 * null where the index is null (and, to `is_null` and `is_valid`, where the value it names is, as
 * Arrow compute counts logical nulls). The indices are of any `dictionary_index` type (int32 unless made
 * otherwise), held as a `dictionary_indices` variant: `index_type_name()` names it,
 * `visit_indices(f)` calls `f` with the typed column. The rows' offset, mask and null count are the indices': slicing
 * slices the indices in O(1) (a count of nulls when some are null) and keeps every value. The
 * values are held by value in a heap cell; copying the column shares both in O(1) (rule 1: a copy
 * shares the owner), except exposed buffers, which a copy copies since a third party may be
 * writing them (rule 12).
 *
 * The indices are trusted to be within the values (the Arrow importer checks a producer's).
 *
 * @tparam Policy a buffer policy (`devcol::default_policy` unless named)
 */
template <buffer_policy Policy>
class dictionary_column {
 public:
  /// The buffers' policy.
  using policy = Policy;
  /// The indices' column type: a variant over the eight integer types.
  using indices_type = dictionary_indices<Policy>;
  /// The values' column type.
  using values_type = any_column<Policy>;
  /// The buffer type.
  using buffer_type = buffer<Policy>;
  /// What the buffers keep of their resource.
  using resource_type = typename buffer_type::resource_type;

  /// @brief An empty column: no rows (int32 indices), no values (int8); allocates the values' heap
  /// cell, no device memory.
  dictionary_column() : indices_(column<std::int32_t, Policy>{}), values_(values_type{}) {}
  /// @brief Adopts `indices` (their nulls are the rows' nulls) into `values`. Nothing is read or
  /// checked.
  /// @param indices one index per row into `values`, of any integer type; its nulls are the rows'
  /// nulls
  /// @param values the dictionary, of any kind; shared, not copied
  dictionary_column(indices_type indices, values_type values)
      : indices_(std::move(indices)), values_(std::move(values)) {}
  /// @brief As above, from a typed column of indices.
  /// @tparam I the indices' integer type (8 to 64 bits, signed or unsigned)
  /// @param indices one index per row into `values`; its nulls are the rows' nulls
  /// @param values the dictionary, of any kind; shared, not copied
  template <dictionary_index I>
  dictionary_column(column<I, Policy> indices, values_type values)
      : indices_(std::move(indices)), values_(std::move(values)) {}

  // Copies, moves and assignments are the implicit ones: the indices' and values' (shared in
  // O(1), exposed buffers copied; moves leave them empty).

  /// @brief Exchanges two columns. O(1), never throws.
  /// @param other the column exchanged with this one
  void swap(dictionary_column& other) noexcept {
    indices_.swap(other.indices_);
    values_.swap(other.values_);
  }

  /**
   * @brief Rows [begin, end): the indices sliced (O(1) without nulls, else a count of the
   * slice's nulls, synchronising `stream`), every value kept (shared).
   * @param begin the first row kept
   * @param end one past the last row kept
   * @param stream the stream the null count or copy is ordered on
   * @throws devcol::logic_error naming the bounds unless begin <= end <= size()
   */
  [[nodiscard]] dictionary_column slice(std::size_t begin, std::size_t end, stream_ref stream = {}) const {
    detail::operation_spill_lock<Policy> const spill_scope{stream};
    detail::check_rows("dictionary_column", "::slice", begin, end, size());
    return dictionary_column(on_indices([&](auto const& i) { return indices_type(i.slice(begin, end, stream)); }),
                             *values_);
  }
  /**
   * @brief Fresh memory for the rows' indices (only this column's rows, rule 8) and for the whole
   * values column (indices may point anywhere in it), in order on `stream`.
   * @param stream the stream the reads and copies are ordered on
   * @throws what allocation and copying throw
   */
  [[nodiscard]] dictionary_column deep_copy(stream_ref stream = {}) const {
    detail::operation_spill_lock<Policy> const spill_scope{stream};
    return dictionary_column(on_indices([&](auto const& i) { return indices_type(i.deep_copy(stream)); }),
                             devcol::deep_copy(*values_, stream));
  }

  /// @brief The indices (their offset, mask and null count are the rows'), as the variant.
  [[nodiscard]] indices_type const& indices() const noexcept { return indices_; }
  /**
   * @brief Calls `f` with the indices as their typed `column<I, Policy>` (as `std::visit`, through
   * detail::visit_alternative).
   * @tparam F a callable accepting a `column<I, Policy> const&` for every dictionary_index `I`,
   *         returning one type for all
   * @param f the callable
   * @returns what `f` returns
   */
  template <class F>
  decltype(auto) visit_indices(F&& f) const {
    return detail::visit_alternative(std::forward<F>(f), indices_);
  }
  /// @brief The indices' type as pyarrow names it ("int32", "uint8"…).
  [[nodiscard]] std::string index_type_name() const {
    return on_indices([](auto const& i) { return std::string(type_name_v<index_type<decltype(i)>>); });
  }
  /// @brief The values (the dictionary).
  [[nodiscard]] values_type const& values() const noexcept { return *values_; }
  /// @brief The rows' validity mask, read-only (the indices'); row 0 is bit offset().
  [[nodiscard]] bitmask_word const* null_mask(access::read_t) const noexcept(!Policy::spill::enabled) {
    return on_indices([](auto const& i) { return i.null_mask(access::read); });
  }

  /// @brief Spillable policies: moves indices and values to host memory unless exposed or locked.
  /// @param stream the stream the copies to the host are ordered on; synchronised
  std::size_t spill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    return on_indices([&](auto& i) { return i.spill(stream); }) + detail::any_spill(*values_, stream);
  }
  /// @brief Spillable policies: brings indices and values back to the device. Synchronises.
  /// @param stream accepted for symmetry with spill(); the buffers copy on their own streams
  void unspill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    on_indices([&](auto& i) { i.unspill(stream); });
    detail::any_unspill(*values_, stream);
  }
  /// @brief Spillable policies: whether any buffer is in host memory now.
  [[nodiscard]] bool is_spilled() const noexcept
    requires Policy::spill::enabled
  {
    return in_any_part(detail::child_state::spilled);
  }

  /// @brief The number of rows.
  [[nodiscard]] std::size_t size() const noexcept { return on_indices([](auto const& i) { return i.size(); }); }
  /// @brief Whether there are no rows.
  [[nodiscard]] bool empty() const noexcept { return on_indices([](auto const& i) { return i.empty(); }); }
  /// @brief The number of null rows (null indices): always known.
  [[nodiscard]] std::size_t null_count() const noexcept {
    return on_indices([](auto const& i) { return i.null_count(); });
  }
  /// @brief Whether the indices have a validity mask.
  [[nodiscard]] bool nullable() const noexcept { return on_indices([](auto const& i) { return i.nullable(); }); }
  /// @brief Whether any row is null.
  [[nodiscard]] bool has_nulls() const noexcept { return on_indices([](auto const& i) { return i.has_nulls(); }); }
  /// @brief The first row's index in the indices' buffers (Arrow's offset).
  [[nodiscard]] std::size_t offset() const noexcept { return on_indices([](auto const& i) { return i.offset(); }); }
  /// @brief Whether another handle shares any buffer.
  [[nodiscard]] bool is_shared() const noexcept {
    return in_any_part(detail::child_state::shared);
  }
  /// @brief Whether any memory was made elsewhere (an import).
  [[nodiscard]] bool is_borrowed() const noexcept {
    return in_any_part(detail::child_state::borrowed);
  }
  /// @brief Whether any buffer was exposed, handed out as a raw mutable pointer, which marks it for
  /// good (rule 11).
  [[nodiscard]] bool is_exposed() const noexcept {
    return in_any_part(detail::child_state::exposed);
  }
  /// @brief Whether writes copy first, in the indices and the values (see list_column::copy_on_write).
  [[nodiscard]] bool copy_on_write() const noexcept {
    return on_indices([](auto const& i) { return i.copy_on_write(); }) &&
           detail::any_state(*values_, detail::child_state::copy_on_write);
  }
  /// @brief Another column on the same buffers even when exposed (rule 12, which makes a shallow
  /// copy of exposed memory a deep one, does not apply). O(1).
  [[nodiscard]] dictionary_column alias() const {
    return dictionary_column(on_indices([](auto const& i) { return indices_type(i.alias()); }),
                             detail::any_alias(*values_));
  }
  /// @brief The resource that made the indices (what ops allocate results from).
  [[nodiscard]] resource_type resource() const {
    return on_indices([](auto const& i) { return i.resource(); });
  }
  /// @brief The name of that resource.
  [[nodiscard]] std::string resource_name() const {
    return on_indices([](auto const& i) { return i.resource_name(); });
  }
  /// @brief "dictionary<values=string, indices=int32>".
  [[nodiscard]] std::string type_name() const {
    return "dictionary<values=" + devcol::type_name(*values_) + ", indices=" + index_type_name() + ">";
  }
  /// @brief The Arrow format string of the indices ("i", "C"…; the values' is the schema's
  /// dictionary's).
  [[nodiscard]] std::string arrow_format() const {
    return on_indices([](auto const& i) { return std::string(arrow_format_v<index_type<decltype(i)>>); });
  }

 private:
  // The integer type of a column of indices (a reference to one).
  template <class C>
  using index_type = typename std::remove_cvref_t<C>::value_type;

  template <class F>
  decltype(auto) on_indices(F&& f) const {
    return detail::visit_alternative(std::forward<F>(f), indices_);
  }
  template <class F>
  decltype(auto) on_indices(F&& f) {
    return detail::visit_alternative(std::forward<F>(f), indices_);
  }
  // Whether the indices or the values answer `question` with yes.
  [[nodiscard]] bool in_any_part(detail::child_state question) const noexcept {
    return on_indices([question](auto const& i) { return detail::state_of(i, question); }) ||
           detail::any_state(*values_, question);
  }

  indices_type indices_;
  detail::box<values_type> values_;
};

DEVCOL_NAMESPACE_END
