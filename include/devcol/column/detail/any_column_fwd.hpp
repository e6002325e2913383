/**
 * @file any_column_fwd.hpp
 * @brief What the recursive column kinds need before they are defined: `any_column` over every
 * kind (the kinds themselves are declared in column/fwd.hpp), and the free functions over it that
 * a nested column's members call on its children (defined in column/any_column.hpp).
 */
#pragma once

#include <devcol/buffer/policy.hpp>
#include <devcol/column/binary_view_column.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/decimal_column.hpp>
#include <devcol/column/detail/kind_variant.hpp>
#include <devcol/column/fixed_size_binary_column.hpp>
#include <devcol/column/fwd.hpp>
#include <devcol/column/null_column.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

DEVCOL_NAMESPACE_BEGIN

namespace detail {
/// Every kind `any_column<Policy>` may hold, in the order of its index(). Naming the list
/// instantiates no kind, so concepts and traits ask it instead of the class.
template <buffer_policy Policy>
using any_column_kinds = kind_list<column<std::int8_t, Policy>, column<std::int16_t, Policy>, column<std::int32_t, Policy>,
                 column<std::int64_t, Policy>, column<std::uint8_t, Policy>, column<std::uint16_t, Policy>,
                 column<std::uint32_t, Policy>, column<std::uint64_t, Policy>, column<float, Policy>,
                 column<double, Policy>, column<bool, Policy>, column<timestamp_s, Policy>,
                 column<timestamp_ms, Policy>, column<timestamp_us, Policy>, column<timestamp_ns, Policy>,
                 column<duration_s, Policy>, column<duration_ms, Policy>, column<duration_us, Policy>,
                 column<duration_ns, Policy>, column<date32, Policy>, column<date64, Policy>,
                 column<time32_s, Policy>, column<time32_ms, Policy>, column<time64_us, Policy>,
                 column<time64_ns, Policy>, column<float16, Policy>, column<interval_months, Policy>,
                 column<interval_day_time, Policy>, column<interval_month_day_nano, Policy>,
                 basic_strings_column<std::int32_t, Policy>, basic_strings_column<std::int64_t, Policy>,
                 decimal_column<std::int32_t, Policy>, decimal_column<std::int64_t, Policy>,
                 decimal_column<int128_t, Policy>, fixed_size_binary_column<Policy>,
                 basic_list_column<std::int32_t, Policy>, basic_list_column<std::int64_t, Policy>,
                 struct_column<Policy>, dictionary_column<Policy>, basic_binary_column<std::int32_t, Policy>,
                 basic_binary_column<std::int64_t, Policy>, decimal_column<int256_t, Policy>,
                 null_column<Policy>, fixed_size_list_column<Policy>,
                 basic_binary_view_column<Policy, encoding::utf8>, basic_binary_view_column<Policy, encoding::binary>,
                 run_end_encoded_column<Policy>, basic_list_view_column<std::int32_t, Policy>,
                 basic_list_view_column<std::int64_t, Policy>, union_column<Policy>>;
}  // namespace detail

/**
 * @brief Any column of one policy: every kind devcol has (the conventions' table), held in place
 * with the index of the one held. `devcol::visit` calls a function with the kind held, and
 * `devcol::holds_alternative`, `devcol::get_if` and `devcol::get` ask for one kind, as their
 * `std::` namesakes do on a `std::variant` (it is not one: see detail/kind_variant.hpp for why).
 * It is recursive: a list's child, a struct's children and a dictionary's values are
 * `any_column`s, held by value (a list's child and a dictionary's values in a heap cell,
 * `detail::box`, whose copy copies the column). Copying an any_column copies the column: buffers
 * are shared in O(1) (rule 1: a copy shares the owner), and exposed buffers are copied since a
 * third party may be writing them (rule 12), as for the column itself. Never empty: a default
 * one holds an empty `column<std::int8_t>`, and a throwing copy-assignment leaves it as it was.
 *
 * The fixed-width kinds come first, so that their indices do not depend on the nested kinds that
 * follow them.
 * @tparam Policy the buffer policy of every kind, children included
 */
template <buffer_policy Policy>
class any_column : public detail::kind_variant<detail::any_column_kinds<Policy>> {
  using base = detail::kind_variant<detail::any_column_kinds<Policy>>;

 public:
  using base::base;
  using base::operator=;
  any_column() = default;
};

/**
 * @brief The number of kinds an `any_column<Policy>` may hold.
 * @tparam Policy the buffer policy
 */
template <buffer_policy Policy = default_policy>
inline constexpr std::size_t any_column_kind_count = detail::kind_list_size<detail::any_column_kinds<Policy>>;
/**
 * @brief The kind at index `I` of `any_column<Policy>` (what `index()` returns when it holds one).
 * @tparam I the index, below any_column_kind_count
 * @tparam Policy the buffer policy
 */
template <std::size_t I, buffer_policy Policy = default_policy>
using any_column_kind_t = typename detail::kind_list_at<I, detail::any_column_kinds<Policy>>::type;

/**
 * @brief Whether `col` holds a `K`. O(1).
 * @tparam K one of the kinds of `any_column<Policy>` (another type is a compile error)
 * @tparam Policy the buffer policy
 * @param col the column asked
 */
template <class K, buffer_policy Policy>
[[nodiscard]] bool holds_alternative(any_column<Policy> const& col) noexcept {
  return col.template if_holds<K>() != nullptr;
}
/**
 * @brief The `K` that `*col` holds, or nullptr when it holds another kind (or `col` is null). O(1).
 * @tparam K one of the kinds of `any_column<Policy>` (another type is a compile error)
 * @tparam Policy the buffer policy
 * @param col the column asked
 */
template <class K, buffer_policy Policy>
[[nodiscard]] K const* get_if(any_column<Policy> const* col) noexcept {
  return col != nullptr ? col->template if_holds<K>() : nullptr;
}
template <class K, buffer_policy Policy>
[[nodiscard]] K* get_if(any_column<Policy>* col) noexcept {
  return col != nullptr ? col->template if_holds<K>() : nullptr;
}
template <class C>
struct kind_traits;  // column/kind.hpp, which includes this header, defines it for every kind
namespace detail {
[[noreturn]] inline void wrong_kind(std::string const& held, std::string_view asked) {
  DEVCOL_FAIL("devcol::get: the column holds ", held, ", not the ", asked, " column asked for");
}
}  // namespace detail
/**
 * @brief The `K` that `col` holds. O(1).
 * @tparam K one of the kinds of `any_column<Policy>` (another type is a compile error)
 * @tparam Policy the buffer policy
 * @param col the column asked
 * @throws devcol::logic_error naming the kind held and the kind asked for when `col` holds another
 */
template <class K, buffer_policy Policy>
[[nodiscard]] K const& get(any_column<Policy> const& col) {
  if (auto const* held = col.template if_holds<K>()) { return *held; }
  detail::wrong_kind(type_name(col), kind_traits<K>::name);
}
template <class K, buffer_policy Policy>
[[nodiscard]] K& get(any_column<Policy>& col) {
  if (auto* held = col.template if_holds<K>()) { return *held; }
  detail::wrong_kind(type_name(col), kind_traits<K>::name);
}


/**
 * @brief The number of rows of any column. O(1); reads no device memory.
 * @tparam Policy the buffer policy shared by every kind in the variant
 * @param col the column
 */
template <buffer_policy Policy>
[[nodiscard]] std::size_t size(any_column<Policy> const& col) noexcept;
/**
 * @brief The null rows of any column (a dictionary: its indices' nulls). O(1): the count is kept
 * with the column, never computed by a hidden kernel.
 * @tparam Policy the buffer policy shared by every kind in the variant
 * @param col the column
 */
template <buffer_policy Policy>
[[nodiscard]] std::size_t null_count(any_column<Policy> const& col) noexcept;
/**
 * @brief The type as pyarrow prints it ("int64", "list<string>", "struct<a: int64>"…), as the
 * held kind's own type_name() gives it, with two differences: float and double are named
 * "float32" and "float64" (as NumPy and cuDF name them, where pyarrow prints "float" and
 * "double"), and what an Arrow field adds to its type (a time zone, child names, nullability,
 * `keys_sorted`, `ordered`) is left out, since a column does not hold its field (`field_info`
 * does). Reads no device memory.
 * @tparam Policy the buffer policy shared by every kind in the variant
 * @param col the column
 * @throws std::bad_alloc if the string cannot be made
 */
template <buffer_policy Policy>
[[nodiscard]] std::string type_name(any_column<Policy> const& col);
/**
 * @brief The Arrow format string of the top level ("l", "+l", "+s", "i" for a dictionary…), as the
 * held kind's own arrow_format() gives it. Reads no device memory.
 * @tparam Policy the buffer policy shared by every kind in the variant
 * @param col the column
 * @throws std::bad_alloc if the string cannot be made
 */
template <buffer_policy Policy>
[[nodiscard]] std::string arrow_format(any_column<Policy> const& col);
/**
 * @brief Rows [begin, end), as the column kind's slice(): sharing its buffers with the offsets
 * summed, O(1) without nulls, else one pass counting the slice's nulls that synchronises `stream`;
 * exposed buffers are copied, since a shallow copy of exposed memory is a deep one (rule 12).
 * @tparam Policy the buffer policy shared by every kind in the variant
 * @param col the column
 * @param begin the first row kept
 * @param end one past the last row kept
 * @param stream the stream a null count or copy is ordered on
 * @throws devcol::logic_error naming the bounds unless begin <= end <= size(col); what allocation
 * and copying throw when the rows are copied
 */
template <buffer_policy Policy>
[[nodiscard]] any_column<Policy> slice(any_column<Policy> const& col, std::size_t begin, std::size_t end,
                                       stream_ref stream = {});
/**
 * @brief A column owning fresh memory for only its rows, as the column kind's deep_copy(), in order
 * on `stream` (a nested kind synchronises it to learn its children's range).
 * @tparam Policy the buffer policy shared by every kind in the variant
 * @param col the column
 * @param stream the stream the copies are ordered on
 * @throws what allocation and copying throw
 */
template <buffer_policy Policy>
[[nodiscard]] any_column<Policy> deep_copy(any_column<Policy> const& col, stream_ref stream = {});

namespace detail {
/**
 * @brief What a nested column asks of a child of any kind about its buffers. Every nested kind
 * (lists, list views, fixed-size lists, structs, unions, dictionaries, run-end encoded) asks through
 * any_state(), one dispatch on the child's kind shared by all of them: a visit per question in each
 * nested kind compiled every kind's answer once per question and nested kind, in every file that
 * holds a nested column.
 */
enum class child_state : unsigned char {
  spilled,        ///< whether any buffer is in host memory now (spillable policies)
  shared,         ///< whether another handle shares any buffer
  borrowed,       ///< whether any memory was made elsewhere (an import)
  exposed,        ///< whether any buffer was handed out as a raw mutable pointer (rule 11)
  copy_on_write,  ///< whether writes to every buffer copy first
};
/// @brief One buffer's part in a nested kind's copy_on_write(): an empty buffer (no mask, a sparse
/// union's offsets) has no mode of its own. It would answer with the option in force now, and so
/// decide the mode of the copy a write makes (rule 9); it leaves the answer to the other parts.
/// @tparam Buffer a `buffer` of any policy
/// @param part the buffer asked
template <class Buffer>
[[nodiscard]] bool part_copies_on_write(Buffer const& part) noexcept {
  return part.empty() || part.copy_on_write();
}
/// @brief The answer of one column of a known kind to `question` (its own member of that name).
/// @tparam C a column kind
/// @param col the column asked
/// @param question what is asked (spilled: false for a policy that does not spill)
template <class C>
[[nodiscard]] bool state_of(C const& col, child_state question) noexcept {
  switch (question) {
    case child_state::spilled:
      if constexpr (C::policy::spill::enabled) { return col.is_spilled(); }
      return false;
    case child_state::shared: return col.is_shared();
    case child_state::borrowed: return col.is_borrowed();
    case child_state::exposed: return col.is_exposed();
    case child_state::copy_on_write:
      // A null column has no buffer: under runtime_sharing its own answer is the option in force
      // now, which would decide the mode of the copy a parent's write makes (rule 9); it has no
      // say in its parent's answer.
      if constexpr (!C::policy::sharing::fixed && std::is_same_v<C, null_column<typename C::policy>>) { return true; }
      return col.copy_on_write();
  }
  return false;
}
/// @brief The answer of the kind `col` holds to `question` (its own member of that name). O(1) per
/// buffer (a nested child: its depth); reads no device memory.
/// @tparam Policy the buffer policy shared by every kind in the variant
/// @param col the column asked
/// @param question what is asked
template <buffer_policy Policy>
[[nodiscard]] bool any_state(any_column<Policy> const& col, child_state question) noexcept;
/// @brief The held kind's spill(): the device bytes freed. Synchronises `stream`.
/// @tparam Policy a spillable buffer policy
/// @param col the column spilled
/// @param stream the stream the copies to the host are ordered on
/// @throws what the kind's spill() throws
template <buffer_policy Policy>
std::size_t any_spill(any_column<Policy>& col, stream_ref stream);
/// @brief The held kind's unspill(). Synchronises.
/// @tparam Policy a spillable buffer policy
/// @param col the column brought back
/// @param stream accepted for symmetry with any_spill()
/// @throws what the device allocation throws
template <buffer_policy Policy>
void any_unspill(any_column<Policy>& col, stream_ref stream);
/// @brief The held kind's alias(): the same buffers even when exposed. O(1) per buffer.
/// @tparam Policy the buffer policy shared by every kind in the variant
/// @param col the column aliased
/// @throws std::bad_alloc (a nested kind's heap cells)
template <buffer_policy Policy>
[[nodiscard]] any_column<Policy> any_alias(any_column<Policy> const& col);
/// @brief The held kind's resource(): what ops allocate its results from.
/// @tparam Policy the buffer policy shared by every kind in the variant
/// @param col the column asked
template <buffer_policy Policy>
[[nodiscard]] resource_storage_t<typename Policy::resource> any_resource(any_column<Policy> const& col);
/// @brief The held kind's resource_name().
/// @tparam Policy the buffer policy shared by every kind in the variant
/// @param col the column asked
/// @throws std::bad_alloc
template <buffer_policy Policy>
[[nodiscard]] std::string any_resource_name(any_column<Policy> const& col);
}  // namespace detail

DEVCOL_NAMESPACE_END
