// What the interop tests share: values of every type, release counting, exported structs.
#pragma once

#include "../support.hpp"

#include <devcol/column/any_column.hpp>
#include <devcol/column/host_value.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/from_arrow.hpp>
#include <devcol/interop/to_arrow.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

/// Every element type of devcol::any_column, in its order (for TEMPLATE_TEST_CASE, whose test names
/// then show the type).
#define DEVCOL_INTEROP_ALL_TYPES                                                                             \
  std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t, std::uint16_t, std::uint32_t,           \
      std::uint64_t, float, double, bool, devcol::timestamp_s, devcol::timestamp_ms, devcol::timestamp_us,     \
      devcol::timestamp_ns, devcol::duration_s, devcol::duration_ms, devcol::duration_us, devcol::duration_ns

namespace devcol_test::interop {

/// The host rows of any column kind, as text (null rows "null"): how the newer kinds' tests compare
/// a result with what its rows should read.
/// @tparam C a column type that any_column holds
template <class C>
std::vector<std::string> host_text(C const& col) {
  std::vector<std::string> out;
  for (auto const& row : devcol::to_host_values(devcol::any_column<>(col))) {
    std::ostringstream s;
    s << row;
    out.push_back(s.str());
  }
  return out;
}

/// filter() of `col` (whose rows read `rows`) by flags that drop each third row's middle one:
/// checks that the result is of the input's type and holds the rows kept. Returns it for the
/// caller's kind-specific checks.
/// @tparam C a column type that any_column holds
template <class C>
C check_filter_of_thirds(C const& col, std::vector<std::string> const& rows) {
  std::vector<std::optional<bool>> keep;
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    keep.emplace_back(i % 3 != 1);
    if (i % 3 != 1) { kept.push_back(rows[i]); }
  }
  C out = devcol::filter(col, devcol::make_column<bool>(keep));
  STATIC_REQUIRE(std::is_same_v<decltype(devcol::filter(col, devcol::make_column<bool>(keep))), C>);
  CHECK(host_text(out) == kept);
  return out;
}

/// concatenate() of two slices of `col` (whose rows read `rows`), rows [1, 4) and [9, end): checks
/// that the result is of the input's type and holds those rows. Returns it for the caller's
/// kind-specific checks.
/// @tparam C a column type that any_column holds
template <class C>
C check_concatenate_of_slices(C const& col, std::vector<std::string> const& rows) {
  REQUIRE(rows.size() > 9);
  C out = devcol::concatenate(std::vector<C>{col.slice(1, 4), col.slice(9, col.size())});
  STATIC_REQUIRE(std::is_same_v<decltype(devcol::concatenate(std::vector<C>{})), C>);
  std::vector<std::string> both(rows.begin() + 1, rows.begin() + 4);
  both.insert(both.end(), rows.begin() + 9, rows.end());
  CHECK(host_text(out) == both);
  return out;
}

/// is_null and is_valid of `col` (whose rows read `rows`), directly and through any_column, against
/// the rows that read "null"; and a gather through any_column (rows 2 and 20) that keeps the kind.
/// @tparam C a column type that any_column holds
template <class C>
void check_null_masks_and_any_column(C const& col, std::vector<std::string> const& rows) {
  REQUIRE(rows.size() > 20);
  auto const nulls = devcol::to_host(devcol::is_null(col));
  auto const valid = devcol::to_host(devcol::is_valid(col));
  REQUIRE(nulls.size() == rows.size());
  REQUIRE(valid.size() == rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CHECK(*nulls[i] == (rows[i] == "null"));
    CHECK(*valid[i] == (rows[i] != "null"));
  }
  devcol::any_column<> const any(col);
  CHECK(devcol::to_host(devcol::is_null(any)) == nulls);
  auto const gathered = devcol::gather(any, devcol::make_column<std::int64_t>({2, 20}));
  REQUIRE(devcol::holds_alternative<C>(gathered));
  CHECK(host_text(devcol::get<C>(gathered)) == std::vector<std::string>{rows[2], rows[20]});
}

/// A value of `T` for row `i`, varied enough that a shifted or misread row shows.
template <class T>
T value_of(std::size_t i) {
  auto const k = static_cast<std::int64_t>(i);
  if constexpr (std::is_same_v<T, bool>) {
    return i % 3 == 0;
  } else if constexpr (std::is_arithmetic_v<T>) {
    return static_cast<T>(std::is_signed_v<T> ? k * 7 % 101 - 50 : k * 7 % 101);
  } else if constexpr (requires { typename T::clock; }) {
    return T(typename T::duration(k * 1000 - 777));
  } else {
    return T(k * 13 - 7);
  }
}

/// `n` rows of `T`, every third null when `nulls`, and the host model.
template <class T>
std::vector<std::optional<T>> model_of(std::size_t n, bool nulls) {
  std::vector<std::optional<T>> rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!nulls || i % 3 != 1) { rows[i] = value_of<T>(i); }
  }
  return rows;
}

/// An export's two structs, released at the end of the scope if nobody took them.
struct exported {
  ArrowSchema schema{};
  ArrowDeviceArray array{};
  exported() = default;
  exported(exported const&) = delete;
  exported& operator=(exported const&) = delete;
  ~exported() {
    if (schema.release != nullptr) { schema.release(&schema); }
    if (array.array.release != nullptr) { array.array.release(&array.array); }
  }
};

/// Counts the release calls of one schema and one array (tests run one at a time).
struct release_counter {
  static inline int schemas = 0;
  static inline int arrays = 0;
  static inline void (*schema_release)(ArrowSchema*) = nullptr;
  static inline void (*array_release)(ArrowArray*) = nullptr;

  static void counted_schema(ArrowSchema* s) {
    ++schemas;
    schema_release(s);
  }
  static void counted_array(ArrowArray* a) {
    ++arrays;
    array_release(a);
  }
  /// Routes both structs' release through the counters, which start at 0.
  static void watch(ArrowSchema& s, ArrowDeviceArray& a) {
    schemas = arrays = 0;
    schema_release = s.release;
    array_release = a.array.release;
    s.release = &counted_schema;
    a.array.release = &counted_array;
  }
};

/// The message of the `Error` `f` throws ("no error" if it throws none).
template <class Error, class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (Error const& e) {
    return e.what();
  }
  return "no error";
}

/// The message of the devcol::arrow_error `f` throws ("no error" if it throws none).
template <class F>
std::string arrow_error_of(F&& f) {
  return error_of<devcol::arrow_error>(std::forward<F>(f));
}

}  // namespace devcol_test::interop
