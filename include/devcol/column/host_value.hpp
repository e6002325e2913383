/**
 * @file host_value.hpp
 * @brief `devcol::host_value`: one row of any column on the host (null, an integer, a float, a
 * bool, a string, a list or a struct of them, as pyarrow's `to_pylist` gives), `to_host_values`
 * for every column kind, and printing of the nested kinds and of `any_column`.
 *
 * For tests, printing and small results: it is a tree of host allocations per row, not a fast
 * path. Fixed-width values widen (signed integers, timestamps and durations to int64 counts,
 * unsigned to uint64, floats to double).
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/kind.hpp>
#include <devcol/column/to_host.hpp>
#include <devcol/column/types.hpp>
#include <devcol/column/validity_view.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/stream_ref.hpp>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

namespace detail {
template <int = 0>
class host_value_t;
}  // namespace detail

/**
 * @brief One row of any column, on the host: a recursive value with pyarrow's to_pylist
 * semantics. Compares by value (an int64 5 and a uint64 5 differ: the types are part of the value).
 */
using host_value = detail::host_value_t<>;

namespace detail {
/// host_value's definition. A template (of an unused `int`) so that a file compiles its members,
/// and the `std::variant` machinery they instantiate, only where it uses them: as a plain class its
/// inline comparison, printing and copies cost every file that includes the umbrella 2.3% of the
/// compiler's instructions (`valgrind --tool=callgrind` of g++ -O2).
template <int>
class host_value_t {
 public:
  /// A list row.
  using list = std::vector<host_value_t>;
  /// A struct row: named fields, in order.
  using fields = std::vector<std::pair<std::string, host_value_t>>;
  /// What a row holds.
  using variant_type = std::variant<std::monostate, std::int64_t, std::uint64_t, double, bool, std::string, list, fields>;

  /// @brief Null.
  host_value_t() noexcept = default;
  /// @brief Null.
  host_value_t(std::nullopt_t) noexcept {}  // NOLINT: implicit, so rows read as literals
  /// @brief A signed integer, widened to int64. Never allocates.
  /// @tparam I any signed integer type of at most 64 bits
  /// @param v the value
  template <std::signed_integral I>
  host_value_t(I v) noexcept : value_(static_cast<std::int64_t>(v)) {}  // NOLINT
  /// @brief An unsigned integer, widened to uint64 (so it compares unequal to the same int64).
  /// @tparam I any unsigned integer type but `bool`, which has a constructor of its own
  /// @param v the value
  template <std::unsigned_integral I>
    requires(!std::same_as<I, bool>)
  host_value_t(I v) noexcept : value_(static_cast<std::uint64_t>(v)) {}  // NOLINT
  /// @brief A float, widened to double. Never allocates.
  /// @tparam F `float`, `double` (or `long double`, narrowed)
  /// @param v the value
  template <std::floating_point F>
  host_value_t(F v) noexcept : value_(static_cast<double>(v)) {}  // NOLINT
  /// @brief A bool; a template so that pointers and integers do not convert to it silently.
  /// @tparam B exactly `bool`
  /// @param v the value
  template <std::same_as<bool> B>
  host_value_t(B v) noexcept : value_(v) {}  // NOLINT
  /// @brief A string.
  /// @param s a null-terminated string, copied
  host_value_t(char const* s) : value_(std::string(s)) {}  // NOLINT
  /// @brief A string.
  /// @param s the string, moved in
  host_value_t(std::string s) noexcept : value_(std::move(s)) {}  // NOLINT
  /// @brief A string.
  /// @param s the bytes, copied
  host_value_t(std::string_view s) : value_(std::string(s)) {}  // NOLINT
  /// @brief A list row.
  /// @param l the elements, moved in
  host_value_t(list l) noexcept : value_(std::move(l)) {}  // NOLINT
  /// @brief A struct row.
  /// @param f the named fields, moved in
  host_value_t(fields f) noexcept : value_(std::move(f)) {}  // NOLINT
  /// @brief The value of an optional, null when empty; copies a string or tree it holds.
  /// @tparam T any type a host_value is made from
  /// @param v the optional
  /// @throws std::bad_alloc when a string, list or struct value cannot be copied
  template <class T>
    requires std::constructible_from<host_value_t, T>
  host_value_t(std::optional<T> const& v) : host_value_t(v ? host_value_t(*v) : host_value_t()) {}  // NOLINT

  /// @brief Whether the row is null.
  [[nodiscard]] bool is_null() const noexcept { return std::holds_alternative<std::monostate>(value_); }
  /// @brief What it holds.
  [[nodiscard]] variant_type const& value() const noexcept { return value_; }
  /// @brief Equal types and values (lists and structs element by element, names included).
  /// O(size of the trees); doubles compare as IEEE does (a NaN row is unequal to itself).
  /// @param a one row
  /// @param b the other
  friend bool operator==(host_value_t const& a, host_value_t const& b) { return a.value_ == b.value_; }

  /// @brief Prints `null`, `5`, `2.5`, `true`, `"text"`, `[1, null]`, `{a: 1, b: "x"}`.
  /// @param out the stream written to; strings go out unescaped
  /// @param v the row printed
  /// @returns `out`
  friend std::ostream& operator<<(std::ostream& out, host_value_t const& v) {
    // Named through the parameter: nvcc's front end finds no member of the class from the lambda.
    using row_list = typename std::decay_t<decltype(v)>::list;
    using row_fields = typename std::decay_t<decltype(v)>::fields;
    std::visit(
        [&](auto const& x) {
          using X = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<X, std::monostate>) {
            out << "null";
          } else if constexpr (std::is_same_v<X, bool>) {
            out << (x ? "true" : "false");
          } else if constexpr (std::is_same_v<X, std::string>) {
            out << '"' << x << '"';
          } else if constexpr (std::is_same_v<X, row_list>) {
            out << '[';
            for (std::size_t i = 0; i < x.size(); ++i) { out << (i != 0 ? ", " : "") << x[i]; }
            out << ']';
          } else if constexpr (std::is_same_v<X, row_fields>) {
            out << '{';
            for (std::size_t i = 0; i < x.size(); ++i) { out << (i != 0 ? ", " : "") << x[i].first << ": " << x[i].second; }
            out << '}';
          } else {
            out << x;
          }
        },
        v.value_);
    return out;
  }

 private:
  variant_type value_;
};
}  // namespace detail

/// @brief A list row: `host_list({1, 2, std::nullopt})`.
/// @param values the elements, in order
template <int N = 0>
[[nodiscard]] detail::host_value_t<N> host_list(typename detail::host_value_t<N>::list values) {
  return detail::host_value_t<N>(std::move(values));
}
/// @brief A struct row: `host_struct({{"a", 1}, {"b", "x"}})`.
/// @param values the fields, named and in order
template <int N = 0>
[[nodiscard]] detail::host_value_t<N> host_struct(typename detail::host_value_t<N>::fields values) {
  return detail::host_value_t<N>(std::move(values));
}

// Declared ahead of its definition because host_values_of() recurses through it for children.
template <buffer_policy Policy>
[[nodiscard]] std::vector<host_value> to_host_values(any_column<Policy> const& col, stream_ref stream = {});

namespace detail {

/**
 * host_value through a type that depends on `T`, for the templates below. Named directly, in a
 * template never called, host_value's class (and its `std::variant`) is instantiated where the
 * template names one of its members, and clang also compiles the constexpr functions (host_value's,
 * `std::vector`'s) that the template calls with arguments that depend on none of its parameters.
 * Named through this, all of it is compiled only where the template is.
 */
template <class T>
inline constexpr int zero_for = 0;
template <class T>
using host_value_for = host_value_t<zero_for<T>>;

/// A fixed-width value as a host_value (widened).
template <class T>
host_value_for<T> widen(T const& v) {
  using value = host_value_for<T>;
  if constexpr (std::is_same_v<T, float16>) {
    return value(to_float(v));
  } else if constexpr (std::is_same_v<T, interval_months>) {
    return value(v.months);
  } else if constexpr (std::is_same_v<T, interval_day_time>) {
    return value(typename value::fields{{"days", v.days}, {"milliseconds", v.milliseconds}});
  } else if constexpr (std::is_same_v<T, interval_month_day_nano>) {
    return value(typename value::fields{{"months", v.months}, {"days", v.days}, {"nanoseconds", v.nanoseconds}});
  } else if constexpr (requires { v.time_since_epoch(); }) {
    return value(static_cast<std::int64_t>(v.time_since_epoch().count()));
  } else if constexpr (requires { v.count(); }) {
    return value(static_cast<std::int64_t>(v.count()));
  } else {
    return value(v);
  }
}

/// Rows [0, size) of a validity mask whose row 0 is bit `offset` (all valid without one), on the host.
template <int = 0>
std::vector<bool> validity_to_host(bitmask_word const* mask, std::size_t offset, std::size_t size,
                                   stream_ref stream) {
  std::vector<bool> valid(size, true);
  if (mask == nullptr || size == 0) { return valid; }
  auto const words = mask_words_to_host(mask, offset, size, stream);
  stream.synchronize();
  validity_view const rows(size, words.data(), offset % bits_per_word, 0);
  for (std::size_t i = 0; i < size; ++i) { valid[i] = rows.is_valid(i); }
  return valid;
}

template <class C>
std::vector<host_value_for<C>> host_values_of(C const& col, stream_ref stream) {
  using value = host_value_for<C>;
  using Policy = typename C::policy;
  std::size_t const n = col.size();
  std::vector<value> rows(n);
  constexpr kind k = kind_of<C>;
  if constexpr (k == kind::decimal) {  // its text, as Python's str(Decimal) gives it
    auto const values = to_host(col, stream);
    for (std::size_t i = 0; i < n; ++i) {
      if (values[i]) { rows[i] = value(format_decimal(*values[i], col.scale())); }
    }
  } else if constexpr (k == kind::fixed_width || k == kind::strings || k == kind::binary || k == kind::fixed_size_binary ||
                       k == kind::string_view || k == kind::binary_view) {
    auto const values = to_host(col, stream);
    for (std::size_t i = 0; i < n; ++i) {
      if (values[i]) { rows[i] = widen(*values[i]); }
    }
  } else if constexpr (k == kind::list) {
    if (n == 0) { return rows; }
    using O = typename C::offset_type;
    auto const [first, last] = col.child_range(stream);
    std::vector<O> offsets(n + 1);
    copy_bytes(offsets.data(), col.offsets(access::read), offsets.size() * sizeof(O), stream);
    auto const valid = validity_to_host(col.null_mask(access::read), col.offset(), n, stream);
    stream.synchronize();
    auto const child = to_host_values(devcol::slice(col.child(), first, last, stream), stream);
    for (std::size_t i = 0; i < n; ++i) {
      if (!valid[i]) { continue; }
      auto const b = child.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(offsets[i]) - first);
      auto const e = child.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(offsets[i + 1]) - first);
      rows[i] = value(typename value::list(b, e));
    }
  } else if constexpr (k == kind::fixed_size_list) {
    auto const [first, last] = col.child_range();
    auto const child = to_host_values(devcol::slice(col.child(), first, last, stream), stream);
    auto const valid = validity_to_host(col.null_mask(access::read), col.offset(), n, stream);
    auto const k_size = static_cast<std::ptrdiff_t>(col.list_size());
    for (std::size_t i = 0; i < n; ++i) {
      if (!valid[i]) { continue; }
      auto const b = child.begin() + static_cast<std::ptrdiff_t>(i) * k_size;
      rows[i] = value(typename value::list(b, b + k_size));
    }
  } else if constexpr (k == kind::run_end_encoded) {
    auto const range = col.run_range(stream);  // not a structured binding: clang 14 cannot capture one in a lambda
    std::size_t const first = range.first;
    std::size_t const last = range.second;
    auto const values = to_host_values(devcol::slice(col.values(), first, last, stream), stream);
    col.visit_run_ends([&](auto const& ends) {
      auto const host_ends = to_host(ends.slice(first, last, stream), stream);
      std::size_t run = 0;  // on the host: the runs' ends rise with the rows
      for (std::size_t i = 0; i < n; ++i) {
        while (static_cast<std::size_t>(*host_ends[run]) <= col.offset() + i) { ++run; }
        rows[i] = values[run];
      }
    });
  } else if constexpr (k == kind::list_view) {
    if (n == 0) { return rows; }
    using O = typename C::offset_type;
    std::vector<O> offsets(n), sizes(n);
    copy_bytes(offsets.data(), col.offsets(access::read), n * sizeof(O), stream);
    copy_bytes(sizes.data(), col.sizes(access::read), n * sizeof(O), stream);
    auto const valid = validity_to_host(col.null_mask(access::read), col.offset(), n, stream);
    stream.synchronize();
    auto const child = to_host_values(col.child(), stream);  // whole: views may name any of it
    for (std::size_t i = 0; i < n; ++i) {
      if (!valid[i]) { continue; }
      auto const b = child.begin() + static_cast<std::ptrdiff_t>(offsets[i]);
      rows[i] = value(typename value::list(b, b + static_cast<std::ptrdiff_t>(sizes[i])));
    }
  } else if constexpr (k == kind::union_type) {
    if (n == 0) { return rows; }
    std::vector<std::int8_t> ids(n);
    std::vector<std::int32_t> offsets(col.mode() == union_mode::dense ? n : 0);
    copy_bytes(ids.data(), col.type_ids(access::read), n, stream);
    if (!offsets.empty()) { copy_bytes(offsets.data(), col.offsets(access::read), n * sizeof(std::int32_t), stream); }
    stream.synchronize();
    std::vector<std::vector<value>> children;  // a sparse union's rows of each child; a dense one's whole
    for (auto const& c : col.children()) {
      children.push_back(to_host_values(
          col.mode() == union_mode::sparse ? devcol::slice(c, col.offset(), col.offset() + n, stream) : c, stream));
    }
    auto const& codes = col.type_codes();
    for (std::size_t i = 0; i < n; ++i) {
      auto const child = static_cast<std::size_t>(std::find(codes.begin(), codes.end(), ids[i]) - codes.begin());
      value const& v = children.at(child).at(offsets.empty() ? i : static_cast<std::size_t>(offsets[i]));
      if (!v.is_null()) { rows[i] = value(typename value::fields{{std::to_string(ids[i]), v}}); }
    }
  } else if constexpr (k == kind::null) {
    return rows;  // every row null, as host_value is by default
  } else if constexpr (k == kind::structure) {
    std::vector<std::vector<value>> fields;
    for (std::size_t f = 0; f < col.num_children(); ++f) { fields.push_back(to_host_values(col.field(f, stream), stream)); }
    auto const valid = validity_to_host(col.null_mask(access::read), col.offset(), n, stream);
    for (std::size_t i = 0; i < n; ++i) {
      if (!valid[i]) { continue; }
      typename value::fields row;
      for (std::size_t f = 0; f < fields.size(); ++f) { row.emplace_back(col.name(f), fields[f][i]); }
      rows[i] = value(std::move(row));
    }
  } else {
    static_assert(k == kind::dictionary, "host_values_of: a column kind without a host form");
    auto const values = to_host_values(col.values(), stream);
    col.visit_indices([&](auto const& typed) {
      auto const indices = to_host(typed, stream);
      for (std::size_t i = 0; i < n; ++i) {
        if (indices[i]) { rows[i] = values.at(static_cast<std::size_t>(*indices[i])); }
      }
    });
  }
  (void)sizeof(Policy);
  return rows;
}

/// Prints "<type>[row, row, …]", the first 20 rows then the row count.
template <buffer_policy Policy>
void print_rows(std::ostream& out, any_column<Policy> const& col) {
  constexpr std::size_t shown = 20;
  std::size_t const n = devcol::size(col);
  auto const head = to_host_values(devcol::slice(col, 0, std::min(n, shown)));
  out << devcol::type_name(col) << '[';
  for (std::size_t i = 0; i < head.size(); ++i) { out << (i != 0 ? ", " : "") << head[i]; }
  if (n > shown) { out << ", ... (" << n << " rows)"; }
  out << ']';
}

}  // namespace detail

/**
 * @brief Every row of `col` on the host, as pyarrow's to_pylist gives them (null rows are null
 * host_values; a list row holds its child rows, a struct row its named fields, a dictionary row
 * its value, a union row its selected child's value as a one-field struct named by the type code,
 * "{3: 5}", or null when that value is null). Copies each level's buffers in order on `stream` and synchronises it (lists: twice
 * per level, to learn their child rows first).
 * @tparam Policy the column's buffer policy; reading never copies or exposes its buffers
 * @param col the column, of any kind; a slice gives only its own rows
 * @param stream a stream of the column's device (rule 21: every owner's reads run with its device
 *        current), which the copies are ordered on
 * @returns one host_value per row, in row order
 * @throws devcol::cuda_error if a copy fails; std::bad_alloc if the host has no room
 */
template <buffer_policy Policy>
std::vector<host_value> to_host_values(any_column<Policy> const& col, stream_ref stream) {
  scoped_device const on_device(column_device(col));  // rule 21: read with its device current
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return devcol::visit([&](auto const& c) { return detail::host_values_of(c, stream); }, col);
}
/**
 * @brief to_host_values() of one column kind, without wrapping it in an `any_column` first.
 * Copies and synchronises as the `any_column` overload does.
 * @tparam C one of the column kinds of `any_column<C::policy>`
 * @param col the column; a slice gives only its own rows
 * @param stream a stream of the column's device, which the copies are ordered on
 * @throws devcol::cuda_error if a copy fails; std::bad_alloc if the host has no room
 */
template <class C>
  requires column_kind<C>
[[nodiscard]] std::vector<host_value> to_host_values(C const& col, stream_ref stream = {}) {
  scoped_device const on_device(column_device(col));  // rule 21: read with its device current
  detail::operation_spill_lock<typename C::policy> const spill_scope{stream};
  return detail::host_values_of(col, stream);
}

/**
 * @brief Prints a list, struct or dictionary column as pyarrow's rows read: `list<int64>[[1, 2],
 * null, []]`, `struct<a: int64, b: string>[{a: 1, b: "x"}, null]`, `dictionary<values=string,
 * indices=int32>["a", null, "a"]`, and a null column as `null[null, null]`; the first 20 rows.
 * Copies to the host on the default stream and synchronises it.
 * @tparam C a nested column kind, or `null_column`
 * @param out the stream written to
 * @param col the column printed
 * @returns `out`
 * @throws what to_host_values() throws, and what `out` throws if its exceptions are enabled
 */
template <class C>
  requires(kind_traits<C>::nested || kind_traits<C>::value == kind::null)
std::ostream& operator<<(std::ostream& out, C const& col) {
  detail::operation_spill_lock<typename C::policy> const spill_scope;  // copied and synchronised on the host
  detail::print_rows(out, any_column<typename C::policy>(col));
  return out;
}
/**
 * @brief Prints any column as its kind prints (fixed-width and strings as to_host.hpp prints them):
 * the first 20 rows, copied to the host on the default stream, which is synchronised.
 * @tparam Policy the column's buffer policy
 * @param out the stream written to
 * @param col the column printed
 * @returns `out`
 * @throws what to_host() and to_host_values() throw, and what `out` throws if its exceptions are
 * enabled
 */
template <buffer_policy Policy>
std::ostream& operator<<(std::ostream& out, any_column<Policy> const& col) {
  detail::operation_spill_lock<Policy> const spill_scope;  // the rows are copied and synchronised on the host
  devcol::visit([&](auto const& c) { out << c; }, col);
  return out;
}

#if DEVCOL_USE_PRECOMPILED
// Held by the devcol_precompiled library (core/config.hpp): host values and printing of every kind.
DEVCOL_EXTERN_TEMPLATE std::vector<host_value> to_host_values<default_policy>(any_column<default_policy> const&,
                                                                              stream_ref);
DEVCOL_EXTERN_TEMPLATE std::ostream& operator<< <default_policy>(std::ostream&, any_column<default_policy> const&);
#endif

DEVCOL_NAMESPACE_END
