/**
 * @file kind.hpp
 * @brief The kind registry: `devcol::kind` names every column kind (Arrow layout) devcol has,
 * `kind_traits<C>` says what each column type is (its kind, name, whether it has children, its
 * view), and `devcol::visit` dispatches over `any_column` with every kind checked at compile time.
 *
 * Code that treats kinds differently asks `kind_of<C>` instead of testing which members a type
 * happens to have, so a new kind is a compile error where it is not handled, not a silent branch.
 * Everything here is compile-time: no cost at run time beyond any_column's own dispatch.
 */
#pragma once

#include <devcol/buffer/policy.hpp>
#include <devcol/column/column_view.hpp>
#include <devcol/column/detail/any_column_fwd.hpp>
#include <devcol/column/fwd.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/config.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

DEVCOL_NAMESPACE_BEGIN

/// @brief Every column kind: one Arrow physical layout each (the alternatives of `any_column`).
enum class kind : std::uint8_t {
  fixed_width,        ///< `column<T>`: one value buffer of a fixed-width type, and validity
  strings,            ///< `strings_column` / `large_strings_column`: offsets and characters
  binary,             ///< `binary_column` / `large_binary_column`: the strings layout over bytes that need not be UTF-8
  decimal,            ///< `decimal_column<Rep>`: fixed-width integers with a precision and scale
  fixed_size_binary,  ///< `fixed_size_binary_column`: values of one byte width
  list,               ///< `list_column` / `large_list_column`: offsets into one child column
  structure,          ///< `struct_column`: named children of the same length
  dictionary,         ///< `dictionary_column`: integer indices (8 to 64 bits) into a values column
  null,               ///< `null_column`: every row null, no buffers (Arrow's null type)
  fixed_size_list,    ///< `fixed_size_list_column`: lists of one size over one child column, no offsets
  string_view,        ///< `string_view_column`: 16-byte views over UTF-8 bytes, inline or in N data buffers
  binary_view,        ///< `binary_view_column`: the string view layout over bytes that need not be UTF-8
  run_end_encoded,    ///< `run_end_encoded_column`: run ends (int16/32/64) and one value per run
  list_view,          ///< `list_view_column` / `large_list_view_column`: an offset and a size per row into one child
  union_type,         ///< `union_column`: sparse or dense, an int8 type id per row selecting one of the children
};

/**
 * @brief What a column type is: `value` (its `devcol::kind`), `name` (the type's family, as
 * `type_name()` begins: "int64", "string", "large_list", "decimal"…), `nested` (whether it has
 * child columns) and
 * `view_type` (its non-owning view; `void` for struct and dictionary, which are viewed through
 * their children, for a fixed-size list, whose rows its mask and list size describe, for run-end encoded, whose rows
 * its runs describe, for a union, whose rows its type ids select from its children, and for null,
 * which has nothing to view). Defined for every alternative of `any_column` and for nothing else.
 * @tparam C a column type
 */
template <class C>
struct kind_traits;

namespace detail {
/// The Arrow family name of a kind that is not fixed-width; `large`: its 64-bit-offset variant.
[[nodiscard]] constexpr std::string_view kind_family_name(kind k, bool large) noexcept {
  switch (k) {
    case kind::strings: return large ? "large_string" : "string";
    case kind::binary: return large ? "large_binary" : "binary";
    case kind::decimal: return "decimal";
    case kind::fixed_size_binary: return "fixed_size_binary";
    case kind::list: return large ? "large_list" : "list";
    case kind::structure: return "struct";
    case kind::dictionary: return "dictionary";
    case kind::null: return "null";
    case kind::fixed_size_list: return "fixed_size_list";
    case kind::string_view: return "string_view";
    case kind::binary_view: return "binary_view";
    case kind::run_end_encoded: return "run_end_encoded";
    case kind::list_view: return large ? "large_list_view" : "list_view";
    case kind::union_type: return "union";
    case kind::fixed_width: break;
  }
  return "fixed_width";
}

/// One kind's entry in the registry, the base of its `kind_traits`: a kind has children when it
/// is a list (fixed-size or not), a struct, a dictionary, run-end encoded, a list view or a union
/// (whose `name` is "union"; its type_name() begins "sparse_union" or "dense_union"). `OffsetBytes` is 8 for
/// the large variants.
template <kind K, class View, std::size_t OffsetBytes = 4>
struct kind_entry {
  static constexpr kind value = K;
  static constexpr std::string_view name = kind_family_name(K, OffsetBytes == 8);
  static constexpr bool nested =
      K == kind::list || K == kind::fixed_size_list || K == kind::structure || K == kind::dictionary ||
      K == kind::run_end_encoded || K == kind::list_view || K == kind::union_type;
  using view_type = View;
};
}  // namespace detail

template <fixed_width T, class Policy>
struct kind_traits<column<T, Policy>> : detail::kind_entry<kind::fixed_width, column_view<T>> {
  static constexpr std::string_view name = type_name_v<T>;
};
template <arrow_offset O, class Policy, encoding E>
struct kind_traits<basic_strings_column<O, Policy, E>>
    : detail::kind_entry<E == encoding::utf8 ? kind::strings : kind::binary, strings_column_view<O>, sizeof(O)> {};
template <class Rep, class Policy>
struct kind_traits<decimal_column<Rep, Policy>> : detail::kind_entry<kind::decimal, column_view<Rep>> {};
template <class Policy>
struct kind_traits<fixed_size_binary_column<Policy>>
    : detail::kind_entry<kind::fixed_size_binary, fixed_size_binary_column_view> {};
template <arrow_offset O, class Policy>
struct kind_traits<basic_list_column<O, Policy>> : detail::kind_entry<kind::list, list_column_view<O>, sizeof(O)> {};
template <class Policy>
struct kind_traits<struct_column<Policy>> : detail::kind_entry<kind::structure, void> {};
template <class Policy>
struct kind_traits<dictionary_column<Policy>> : detail::kind_entry<kind::dictionary, void> {};
template <class Policy>
struct kind_traits<null_column<Policy>> : detail::kind_entry<kind::null, void> {};
template <class Policy>
struct kind_traits<fixed_size_list_column<Policy>> : detail::kind_entry<kind::fixed_size_list, void> {};
template <class Policy, encoding E>
struct kind_traits<basic_binary_view_column<Policy, E>>
    : detail::kind_entry<E == encoding::utf8 ? kind::string_view : kind::binary_view, binary_view_column_view> {};
template <class Policy>
struct kind_traits<run_end_encoded_column<Policy>> : detail::kind_entry<kind::run_end_encoded, void> {};
template <arrow_offset O, class Policy>
struct kind_traits<basic_list_view_column<O, Policy>> : detail::kind_entry<kind::list_view, void, sizeof(O)> {};
template <class Policy>
struct kind_traits<union_column<Policy>> : detail::kind_entry<kind::union_type, void> {};

/// @brief The kind of column type `C` (a compile error for a type that is not a column kind).
/// @tparam C a column type (cv and reference qualifiers ignored)
template <class C>
inline constexpr kind kind_of = kind_traits<std::remove_cvref_t<C>>::value;

/// @brief Whether `C` is a column of kind `K`.
/// @tparam C a column type (cv and reference qualifiers ignored)
/// @tparam K the kind asked about
template <class C, kind K>
concept of_kind = requires { kind_traits<std::remove_cvref_t<C>>::value; } && kind_of<C> == K;

namespace detail {
/// Whether `C` is a plain `column<T, Policy>` (decimals, whose values are one, are not).
template <class C>
inline constexpr bool is_plain_column = of_kind<C, kind::fixed_width>;
/// Whether `C` is a list, struct or dictionary column (a kind with child columns).
template <class C>
inline constexpr bool is_nested_kind = requires { requires kind_traits<C>::nested; };

// One static_assert per kind, so the compiler names the column type that `F` does not accept.
template <class F, class C>
constexpr bool accepts_kind() {
  static_assert(std::is_invocable_v<F, C&>,
                "devcol::visit: the callable does not accept this column kind (see the type C in the note "
                "below); give it an overload, or a generic one, for every kind of any_column");
  return std::is_invocable_v<F, C&>;
}
/// Whether `F` accepts every kind, each as `C const&` (`as_const`) or `C&`.
template <class F, bool as_const, class... Cs>
constexpr bool accepts_every_kind(kind_list<Cs...>) {
  return (accepts_kind<F, std::conditional_t<as_const, Cs const, Cs>>() && ...);
}
}  // namespace detail

/**
 * @brief Calls `f` with the column `col` holds, as its concrete kind, after checking at compile
 * time that `f` accepts every kind: a kind it misses is a `static_assert` naming that column type,
 * never a run-time error. One indirect call through a table of one entry per kind; nothing is
 * copied.
 * @tparam F a callable accepting `C const&` for every column kind `C` of `any_column<Policy>`, and
 * returning the same type for all
 * @tparam Policy the columns' buffer policy
 * @param f the callable
 * @param col the column
 * @returns what `f` returns
 * @throws what `f` throws
 */
template <class F, buffer_policy Policy>
decltype(auto) visit(F&& f, any_column<Policy> const& col) {
  static_assert(detail::accepts_every_kind<F, true>(detail::any_column_kinds<Policy>{}));
  return col.visit(f);
}
/**
 * @brief As visit() of a const column, with each kind passed as `C&` for `f` to change in place.
 * @tparam F a callable accepting `C&` for every column kind `C` of `any_column<Policy>`, and
 * returning the same type for all
 * @tparam Policy the columns' buffer policy
 * @param f the callable
 * @param col the column
 * @returns what `f` returns
 * @throws what `f` throws
 */
template <class F, buffer_policy Policy>
decltype(auto) visit(F&& f, any_column<Policy>& col) {
  static_assert(detail::accepts_every_kind<F, false>(detail::any_column_kinds<Policy>{}));
  return col.visit(f);
}

DEVCOL_NAMESPACE_END
