// What the Arrow C++ peer tests share: the 19 column types and their Arrow types, test columns
// made by devcol and by Arrow's builders, row-by-row and bit-exact comparisons, and a spy on the
// release callback of an array Arrow exported. Included after the translation unit has included the
// two copies of the ABI header in its own order.
#pragma once

#include "../interop_support.hpp"

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/c/bridge.h>
#include <arrow/record_batch.h>
#include <arrow/result.h>
#include <arrow/status.h>
#include <arrow/type.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace devcol_test::peer {

/// Every element type of devcol::any_column, in its order.
#define DEVCOL_PEER_ALL_TYPES DEVCOL_INTEROP_ALL_TYPES
/// The same, as a tuple.
using all_types = std::tuple<DEVCOL_PEER_ALL_TYPES>;

/// Whether `T` is one of the types of the tuple `Tuple`.
template <class T, class Tuple>
inline constexpr bool one_of = false;
template <class T, class... Ts>
inline constexpr bool one_of<T, std::tuple<Ts...>> = (std::is_same_v<T, Ts> || ...);

/// The Arrow C++ type of each devcol element type, and its array class.
template <class T>
struct arrow_of;
#define DEVCOL_PEER_ARROW_OF(T, ArrowT, make)                                   \
  template <>                                                                   \
  struct arrow_of<T> {                                                          \
    using array_type = typename arrow::TypeTraits<ArrowT>::ArrayType;           \
    using builder_type = typename arrow::TypeTraits<ArrowT>::BuilderType;       \
    static std::shared_ptr<arrow::DataType> type() { return make; }             \
  }
DEVCOL_PEER_ARROW_OF(std::int8_t, arrow::Int8Type, arrow::int8());
DEVCOL_PEER_ARROW_OF(std::int16_t, arrow::Int16Type, arrow::int16());
DEVCOL_PEER_ARROW_OF(std::int32_t, arrow::Int32Type, arrow::int32());
DEVCOL_PEER_ARROW_OF(std::int64_t, arrow::Int64Type, arrow::int64());
DEVCOL_PEER_ARROW_OF(std::uint8_t, arrow::UInt8Type, arrow::uint8());
DEVCOL_PEER_ARROW_OF(std::uint16_t, arrow::UInt16Type, arrow::uint16());
DEVCOL_PEER_ARROW_OF(std::uint32_t, arrow::UInt32Type, arrow::uint32());
DEVCOL_PEER_ARROW_OF(std::uint64_t, arrow::UInt64Type, arrow::uint64());
DEVCOL_PEER_ARROW_OF(float, arrow::FloatType, arrow::float32());
DEVCOL_PEER_ARROW_OF(double, arrow::DoubleType, arrow::float64());
DEVCOL_PEER_ARROW_OF(bool, arrow::BooleanType, arrow::boolean());
DEVCOL_PEER_ARROW_OF(devcol::timestamp_s, arrow::TimestampType, arrow::timestamp(arrow::TimeUnit::SECOND));
DEVCOL_PEER_ARROW_OF(devcol::timestamp_ms, arrow::TimestampType, arrow::timestamp(arrow::TimeUnit::MILLI));
DEVCOL_PEER_ARROW_OF(devcol::timestamp_us, arrow::TimestampType, arrow::timestamp(arrow::TimeUnit::MICRO));
DEVCOL_PEER_ARROW_OF(devcol::timestamp_ns, arrow::TimestampType, arrow::timestamp(arrow::TimeUnit::NANO));
DEVCOL_PEER_ARROW_OF(devcol::duration_s, arrow::DurationType, arrow::duration(arrow::TimeUnit::SECOND));
DEVCOL_PEER_ARROW_OF(devcol::duration_ms, arrow::DurationType, arrow::duration(arrow::TimeUnit::MILLI));
DEVCOL_PEER_ARROW_OF(devcol::duration_us, arrow::DurationType, arrow::duration(arrow::TimeUnit::MICRO));
DEVCOL_PEER_ARROW_OF(devcol::duration_ns, arrow::DurationType, arrow::duration(arrow::TimeUnit::NANO));
#undef DEVCOL_PEER_ARROW_OF

/// What Arrow's `Value(i)` returns for a `T` row: the count for time types, the value otherwise.
template <class T>
auto raw(T const& v) {
  if constexpr (requires { v.time_since_epoch(); }) {
    return v.time_since_epoch().count();
  } else if constexpr (requires { v.count(); }) {
    return v.count();
  } else {
    return v;
  }
}

/// Row i's value: spread over the type's range (wrapping), negatives and high bits included.
template <class T>
T value_at(std::size_t i) {
  auto const k = static_cast<std::int64_t>(i);
  if constexpr (std::is_same_v<T, bool>) {
    return i % 3 != 1;
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(k - 40) * static_cast<T>(0.375);
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<std::uint64_t>(i) * 0xD1B54A32D192ED03ULL + 5U);
  } else if constexpr (requires { typename T::clock; }) {
    return T(typename T::duration((k - 40) * 86399999937));
  } else {
    return T((k - 40) * 86399999937);
  }
}
inline bool null_at(std::size_t i) { return i % 5 == 2; }

/// The host model of rows [0, n): value_at, null_at.
template <class T>
std::vector<std::optional<T>> model(std::size_t n) {
  std::vector<std::optional<T>> rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!null_at(i)) { rows[i] = value_at<T>(i); }
  }
  return rows;
}

/// The model as a devcol column.
template <class T>
devcol::column<T> devcol_column(std::size_t n) {
  return devcol::make_column<T>(model<T>(n));
}

/// The model as an Arrow array, made by Arrow's own builder.
template <class T>
std::shared_ptr<arrow::Array> arrow_array(std::size_t n, std::shared_ptr<arrow::DataType> type = arrow_of<T>::type()) {
  auto made = arrow::MakeBuilder(type);
  REQUIRE(made.ok());
  std::unique_ptr<arrow::ArrayBuilder> builder = std::move(made).ValueUnsafe();
  auto& typed = static_cast<typename arrow_of<T>::builder_type&>(*builder);
  for (auto const& row : model<T>(n)) {
    arrow::Status const s = row ? typed.Append(raw(*row)) : typed.AppendNull();
    REQUIRE(s.ok());
  }
  auto finished = builder->Finish();
  REQUIRE(finished.ok());
  return *finished;
}

/// Requires an Arrow status to be OK, showing its message otherwise.
inline void require_ok(arrow::Status const& s) {
  INFO(s.ToString());
  REQUIRE(s.ok());
}
/// The value of an Arrow result, which must be OK.
template <class V>
V require_ok(arrow::Result<V> r) {
  INFO(r.status().ToString());
  REQUIRE(r.ok());
  return std::move(r).ValueUnsafe();
}

/// Checks that an Arrow array holds the rows of a devcol column: nulls, then values, row by row.
template <class T>
void check_same_rows(arrow::Array const& arrow_rows, devcol::column<T> const& col) {
  REQUIRE(arrow_rows.length() == static_cast<std::int64_t>(col.size()));
  CHECK(arrow_rows.null_count() == static_cast<std::int64_t>(col.null_count()));
  auto const& typed = static_cast<typename arrow_of<T>::array_type const&>(arrow_rows);
  auto const rows = devcol::to_host(col);
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto const at = static_cast<std::int64_t>(i);
    bool const same = rows[i] ? typed.IsValid(at) && typed.Value(at) == raw(*rows[i]) : typed.IsNull(at);
    if (!same) {
      UNSCOPED_INFO("row " << i << " differs");
      ++mismatches;
    }
  }
  CHECK(mismatches == 0);
}

/// Checks that two columns are bit-exact: sizes, null counts, validity of each row and the bytes of
/// every row's value, null rows included (zero-copy keeps what sits under a null; for bool, devcol
/// packs a null row as 0, and the model's null rows hold false).
template <class T>
void check_bit_exact(devcol::column<T> const& got, devcol::column<T> const& want) {
  REQUIRE(got.size() == want.size());
  CHECK(got.null_count() == want.null_count());
  CHECK(std::memcmp(got.data(devcol::access::read), want.data(devcol::access::read), got.size() * sizeof(T)) == 0);
  auto const a = devcol::to_host(got);
  auto const b = devcol::to_host(want);
  std::size_t validity_mismatches = 0;
  for (std::size_t i = 0; i < a.size(); ++i) { validity_mismatches += a[i].has_value() != b[i].has_value() ? 1U : 0U; }
  CHECK(validity_mismatches == 0);
}

using devcol_test::interop::exported;

/// Counts the calls of an Arrow-exported array's base `release` (tests run one at a time): wraps
/// the release and private data, and restores both before calling Arrow's own.
struct release_spy {
  static inline int calls = 0;
  struct saved {
    void (*release)(ArrowArray*);
    void* private_data;
  };
  static void release(ArrowArray* array) noexcept {
    auto* s = static_cast<saved*>(array->private_data);
    array->release = s->release;
    array->private_data = s->private_data;
    delete s;
    ++calls;
    array->release(array);
  }
  static void wrap(ArrowArray& array) {
    calls = 0;
    array.private_data = new saved{array.release, array.private_data};
    array.release = &release;
  }
};

/// A table of the model's rows [first, last) in every type, each column named after its type.
inline devcol::table devcol_table(std::size_t n, std::size_t first, std::size_t last) {
  devcol::table t;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (t.add(std::string(devcol::type_name_v<std::tuple_element_t<I, all_types>>),
           devcol_column<std::tuple_element_t<I, all_types>>(n).slice(first, last)),
     ...);
  }(std::make_index_sequence<std::tuple_size_v<all_types>>{});
  return t;
}

/// The same columns as an Arrow record batch of n rows, made by Arrow's builders.
inline std::shared_ptr<arrow::RecordBatch> arrow_batch(std::size_t n) {
  arrow::FieldVector fields;
  arrow::ArrayVector columns;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((fields.push_back(arrow::field(std::string(devcol::type_name_v<std::tuple_element_t<I, all_types>>),
                                    arrow_of<std::tuple_element_t<I, all_types>>::type())),
      columns.push_back(arrow_array<std::tuple_element_t<I, all_types>>(n))),
     ...);
  }(std::make_index_sequence<std::tuple_size_v<all_types>>{});
  return arrow::RecordBatch::Make(arrow::schema(std::move(fields)), static_cast<std::int64_t>(n), std::move(columns));
}

/// Checks that a record batch holds a devcol table's columns: names, types and rows.
inline void check_same_table(arrow::RecordBatch const& batch, devcol::table const& t) {
  REQUIRE(batch.num_columns() == static_cast<int>(t.num_columns()));
  CHECK(batch.num_rows() == static_cast<std::int64_t>(t.num_rows()));
  for (std::size_t i = 0; i < t.num_columns(); ++i) {
    INFO("column " << i << " '" << t.name(i) << "'");
    CHECK(batch.schema()->field(static_cast<int>(i))->name() == t.name(i));
    devcol::visit(
        [&](auto const& col) {
          using C = std::decay_t<decltype(col)>;
          if constexpr (devcol::detail::is_plain_column<C>) {  // the tables here are of all_types
            using T = typename C::value_type;
            if constexpr (one_of<T, all_types>) {
              auto const& arrow_column = *batch.column(static_cast<int>(i));
              CHECK(arrow_column.type()->Equals(*arrow_of<T>::type()));
              check_same_rows(arrow_column, col);
            } else {
              FAIL("check_same_table compares the types of all_types; column " << i << " is " << devcol::type_name(col));
            }
          } else {
            FAIL("check_same_table compares fixed-width columns; column " << i << " is " << devcol::type_name(col));
          }
        },
        t[i]);
  }
}

/// Checks that two tables are bit-exact, column by column, names and types included.
inline void check_bit_exact(devcol::table const& got, devcol::table const& want) {
  REQUIRE(got.names() == want.names());
  for (std::size_t i = 0; i < got.num_columns(); ++i) {
    INFO("column " << i << " '" << got.name(i) << "'");
    REQUIRE(got[i].index() == want[i].index());
    devcol::visit(
        [&](auto const& col) {
          using C = std::decay_t<decltype(col)>;
          if constexpr (devcol::detail::is_plain_column<C>) {
            check_bit_exact(col, devcol::get<C>(want[i]));
          } else {  // other kinds: the same rows
            CHECK(devcol::to_host_values(col) == devcol::to_host_values(want[i]));
          }
        },
        got[i]);
  }
}

}  // namespace devcol_test::peer
