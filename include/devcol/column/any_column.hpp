/**
 * @file any_column.hpp
 * @brief `devcol::any_column`: any column kind of one policy (a closed, recursive variant, declared
 * in detail/any_column_fwd.hpp), and the free functions that work on every kind and on any_column:
 * `size`, `null_count`, `nullable`, `type_name`, `arrow_format`, `slice`, `deep_copy`.
 *
 * Why a variant and not a class hierarchy: the set of kinds is closed (Arrow's layouts), kernels
 * need the concrete types, and `devcol::visit` dispatches once per column at run time instead of
 * instantiating every type combination (which matters for nvcc's compile time).
 */
#pragma once

#include <devcol/buffer/policy.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/any_column_fwd.hpp>
#include <devcol/column/detail/dictionary_column.hpp>
#include <devcol/column/detail/fixed_size_list_column.hpp>
#include <devcol/column/detail/list_column.hpp>
#include <devcol/column/detail/run_end_encoded_column.hpp>
#include <devcol/column/detail/list_view_column.hpp>
#include <devcol/column/detail/struct_column.hpp>
#include <devcol/column/detail/union_column.hpp>
#include <devcol/column/kind.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/stream_ref.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

DEVCOL_NAMESPACE_BEGIN

namespace detail {
template <class C, class AnyColumn>
struct is_alternative : std::false_type {};
template <class C, buffer_policy Policy>
struct is_alternative<C, any_column<Policy>> : std::bool_constant<in_kind_list<C, any_column_kinds<Policy>>> {};
template <class T>
struct is_any_column : std::false_type {};
template <buffer_policy Policy>
struct is_any_column<any_column<Policy>> : std::true_type {};
}  // namespace detail

/**
 * @brief Satisfied by every column kind of `any_column<Policy>` (not by the variant itself).
 * @tparam C the type tested
 * @tparam Policy the buffer policy whose variant is meant; by default `C`'s own
 */
template <class C, class Policy = typename C::policy>
concept column_kind = detail::is_alternative<C, any_column<Policy>>::value;

/**
 * @brief The type of a fixed-width column as pyarrow prints it ("int64", "timestamp[ms]"), but for
 * "float32" and "float64" and without a time zone (see type_name(any_column)). Reads no memory.
 * @tparam T the column's fixed-width value type, which alone decides the name
 * @tparam Policy the column's buffer policy (no effect on the name)
 * @throws std::bad_alloc if the string cannot be made
 */
template <fixed_width T, class Policy>
[[nodiscard]] std::string type_name(column<T, Policy> const&) {
  return std::string(type_name_v<T>);
}
/**
 * @brief The Arrow format of a fixed-width column ("l", "tsm:"). Reads no memory.
 * @tparam T the column's fixed-width value type, which alone decides the format
 * @tparam Policy the column's buffer policy (no effect on the format)
 * @throws std::bad_alloc if the string cannot be made
 */
template <fixed_width T, class Policy>
[[nodiscard]] std::string arrow_format(column<T, Policy> const&) {
  return std::string(arrow_format_v<T>);
}
/**
 * @brief "string", "large_string", "binary" or "large_binary", as pyarrow prints them. Reads no memory.
 * @tparam O the offset type: `std::int32_t` names "string" or "binary", `std::int64_t` the large ones
 * @tparam Policy the column's buffer policy (no effect on the name)
 * @tparam E what the bytes are: UTF-8 text or binary
 * @throws std::bad_alloc if the string cannot be made
 */
template <arrow_offset O, class Policy, encoding E>
[[nodiscard]] std::string type_name(basic_strings_column<O, Policy, E> const&) {
  return std::string(strings_type_name_v<O, E>);
}
/**
 * @brief The Arrow format of a strings or binary column: "u" or "U" (utf8 with 32- or 64-bit
 * offsets), "z" or "Z" (binary). Reads no memory.
 * @tparam O the offset type, `std::int32_t` or `std::int64_t`
 * @tparam Policy the column's buffer policy (no effect on the format)
 * @tparam E what the bytes are: UTF-8 text or binary
 * @throws std::bad_alloc if the string cannot be made
 */
template <arrow_offset O, class Policy, encoding E>
[[nodiscard]] std::string arrow_format(basic_strings_column<O, Policy, E> const&) {
  return std::string(strings_format_v<O, E>);
}
/**
 * @brief The type of a column kind that names itself (lists, structs, dictionaries, decimals…).
 * Reads no device memory.
 * @tparam C a column kind with a `type_name()` member
 * @param col the column
 * @throws what `col.type_name()` throws (std::bad_alloc)
 */
template <class C>
  requires requires(C const& c) {
    { c.type_name() } -> std::convertible_to<std::string>;
  }
[[nodiscard]] std::string type_name(C const& col) {
  return col.type_name();
}
/**
 * @brief The Arrow format of a column kind that names its own. Reads no device memory.
 * @tparam C a column kind with an `arrow_format()` member
 * @param col the column
 * @throws what `col.arrow_format()` throws (std::bad_alloc)
 */
template <class C>
  requires requires(C const& c) {
    { c.arrow_format() } -> std::convertible_to<std::string>;
  }
[[nodiscard]] std::string arrow_format(C const& col) {
  return col.arrow_format();
}

/**
 * @brief The number of rows of any column, whatever kind it holds. O(1); reads no device memory.
 * @tparam Policy the buffer policy shared by every kind in the variant
 * @param col the column
 */
template <buffer_policy Policy>
[[nodiscard]] std::size_t size(any_column<Policy> const& col) noexcept {
  return devcol::visit([](auto const& c) noexcept { return c.size(); }, col);
}
/**
 * @brief The null count of any column, whatever kind it holds. O(1): always known, never counted
 * here.
 * @tparam Policy the buffer policy shared by every kind in the variant
 * @param col the column
 */
template <buffer_policy Policy>
[[nodiscard]] std::size_t null_count(any_column<Policy> const& col) noexcept {
  return devcol::visit([](auto const& c) noexcept { return c.null_count(); }, col);
}
/**
 * @brief The number of rows of a column of any kind (`column<T>`, strings, decimal, fixed-size
 * binary, list, struct, dictionary), so that generic code calls `devcol::size(col)` whether it holds
 * a kind or an `any_column`. O(1).
 * @tparam C a column kind (one with `kind_traits`)
 * @param col the column
 */
template <class C>
  requires requires { kind_traits<std::remove_cvref_t<C>>::value; }
[[nodiscard]] std::size_t size(C const& col) noexcept {
  return col.size();
}
/**
 * @brief The null count of a column of any kind, as size() is for the row count. O(1).
 * @tparam C a column kind (one with `kind_traits`)
 * @param col the column
 */
template <class C>
  requires requires { kind_traits<std::remove_cvref_t<C>>::value; }
[[nodiscard]] std::size_t null_count(C const& col) noexcept {
  return col.null_count();
}
/**
 * @brief Whether any column has a validity mask (a dictionary: its indices). O(1).
 * @tparam Policy the buffer policy shared by every kind in the variant
 * @param col the column
 */
template <buffer_policy Policy>
[[nodiscard]] bool nullable(any_column<Policy> const& col) noexcept {
  return devcol::visit([](auto const& c) noexcept { return c.nullable(); }, col);
}
template <buffer_policy Policy>
std::string type_name(any_column<Policy> const& col) {
  return devcol::visit([](auto const& c) { return devcol::type_name(c); }, col);
}
template <buffer_policy Policy>
std::string arrow_format(any_column<Policy> const& col) {
  return devcol::visit([](auto const& c) { return devcol::arrow_format(c); }, col);
}
template <buffer_policy Policy>
any_column<Policy> slice(any_column<Policy> const& col, std::size_t begin, std::size_t end, stream_ref stream) {
  return devcol::visit([&](auto const& c) { return any_column<Policy>(c.slice(begin, end, stream)); }, col);
}
template <buffer_policy Policy>
any_column<Policy> deep_copy(any_column<Policy> const& col, stream_ref stream) {
  return devcol::visit([&](auto const& c) { return any_column<Policy>(c.deep_copy(stream)); }, col);
}

namespace detail {
template <buffer_policy Policy>
bool any_state(any_column<Policy> const& col, child_state question) noexcept {
  return devcol::visit([question](auto const& c) noexcept { return state_of(c, question); }, col);
}
template <buffer_policy Policy>
std::size_t any_spill(any_column<Policy>& col, stream_ref stream) {
  return devcol::visit([stream](auto& c) { return c.spill(stream); }, col);
}
template <buffer_policy Policy>
void any_unspill(any_column<Policy>& col, stream_ref stream) {
  devcol::visit([stream](auto& c) { c.unspill(stream); }, col);
}
template <buffer_policy Policy>
any_column<Policy> any_alias(any_column<Policy> const& col) {
  return devcol::visit([](auto const& c) { return any_column<Policy>(c.alias()); }, col);
}
template <buffer_policy Policy>
resource_storage_t<typename Policy::resource> any_resource(any_column<Policy> const& col) {
  return devcol::visit([](auto const& c) { return c.resource(); }, col);
}
template <buffer_policy Policy>
std::string any_resource_name(any_column<Policy> const& col) {
  return devcol::visit([](auto const& c) { return c.resource_name(); }, col);
}
}  // namespace detail

/**
 * @brief The device a column's memory belongs to (DESIGN.md rule 21: its copies and host reads run
 * with that device current): its first buffer's (values, offsets or indices); for a struct, its
 * mask's, or else its first child's (a fixed-size list: its mask's, or else its child's; a view
 * column: its views'; run-end encoded: its run ends'). For a
 * column without memory (a null column), the current device. O(1) (a
 * struct without a mask: its depth); never synchronises; nothing on the host backend (device 0).
 * @tparam C a column kind, or `any_column<Policy>`
 * @param col the column
 */
template <class C>
[[nodiscard]] device_id column_device(C const& col) {
  if constexpr (detail::is_any_column<C>::value) {
    return devcol::visit([](auto const& c) { return column_device(c); }, col);
  } else {
    constexpr kind k = kind_of<C>;
    if constexpr (k == kind::strings || k == kind::binary || k == kind::list) {
      return col.offsets_buffer().device();
    } else if constexpr (k == kind::dictionary) {
      return col.visit_indices([](auto const& indices) { return indices.data_buffer().device(); });
    } else if constexpr (k == kind::fixed_size_list) {
      return col.mask_buffer().empty() ? column_device(col.child()) : col.mask_buffer().device();
    } else if constexpr (k == kind::string_view || k == kind::binary_view) {
      return col.views_buffer().device();
    } else if constexpr (k == kind::run_end_encoded) {
      return col.visit_run_ends([](auto const& ends) { return ends.data_buffer().device(); });
    } else if constexpr (k == kind::list_view) {
      return col.offsets_buffer().empty() ? column_device(col.child()) : col.offsets_buffer().device();
    } else if constexpr (k == kind::union_type) {
      if (!col.type_ids_buffer().empty() || col.num_children() == 0) { return col.type_ids_buffer().device(); }
      return column_device(col.child(0));
    } else if constexpr (k == kind::null) {
      return typename C::buffer_type{}.device();  // no memory: the current device
    } else if constexpr (k == kind::structure) {
      if (!col.mask_buffer().empty() || col.num_children() == 0) { return col.mask_buffer().device(); }
      return column_device(col.child(0));
    } else {
      return col.data_buffer().device();
    }
  }
}

#if DEVCOL_USE_PRECOMPILED
// Held by the devcol_precompiled library (core/config.hpp): what visits every kind.
DEVCOL_EXTERN_TEMPLATE any_column<default_policy> slice<default_policy>(any_column<default_policy> const&, std::size_t,
                                                                        std::size_t, stream_ref);
DEVCOL_EXTERN_TEMPLATE any_column<default_policy> deep_copy<default_policy>(any_column<default_policy> const&,
                                                                            stream_ref);
#endif

DEVCOL_NAMESPACE_END
