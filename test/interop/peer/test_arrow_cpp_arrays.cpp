// Arrow C++ (the library the pyarrow wheel ships) against devcol: arrays and record batches through
// the C Device Data Interface, both ways, for every column type, with nulls, sliced off the byte
// boundary on each side. This translation unit includes devcol's copy of the ABI header first and
// Arrow's second (test_arrow_cpp_streams.cpp does the reverse): the shared include guards let both
// copies live in one translation unit.
#include <devcol/interop/arrow_abi.hpp>
// Arrow's copy second: its guarded blocks are skipped, its own extensions (async streams) are not.
#include <arrow/c/abi.h>

#include <arrow/array/concatenate.h>
// The reference xxHash (XXH64), as Arrow vendors it: the peer of devcol::hash.
#define XXH_INLINE_ALL
#include <arrow/vendored/xxhash.h>

#include "arrow_peer_support.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace peer = devcol_test::peer;

static_assert(sizeof(ArrowDeviceArray) == 128 && sizeof(ArrowSchema) == 72, "one layout, whoever defined it");
static_assert(ARROW_DEVICE_CPU == 1 && ARROW_DEVICE_CUDA == 2 && ARROW_FLAG_NULLABLE == 2);
#ifndef ARROW_C_ASYNC_STREAM_INTERFACE
#  error "Arrow's abi.h, included after devcol's, must still define what devcol's copy does not"
#endif

TEMPLATE_TEST_CASE("devcol -> Arrow C++ -> devcol: validated, the same rows, bit-exact, zero-copy", "[peer][arrow]",
                   DEVCOL_PEER_ALL_TYPES) {
  using T = TestType;
  devcol_test::leak_check leaks;
  auto const col = peer::devcol_column<T>(100).slice(13, 83);  // offset 13: not on a byte boundary
  std::size_t const live = leaks.live();
  {
    peer::exported out;
    devcol::to_arrow(col, &out.schema, &out.array, {}, "x");
    CHECK(out.array.device_type == ARROW_DEVICE_CPU);
    CHECK(out.array.device_id == -1);
    void const* const exported_values = out.array.array.buffers[1];

    auto const arr = peer::require_ok(arrow::ImportDeviceArray(&out.array, &out.schema));
    CHECK(out.array.array.release == nullptr);  // moved into Arrow
    CHECK(out.schema.release == nullptr);       // released by Arrow
    peer::require_ok(arr->ValidateFull());
    CHECK(arr->type()->Equals(*peer::arrow_of<T>::type()));
    CHECK(arr->device_type() == arrow::DeviceAllocationType::kCPU);
    CHECK(arr->offset() == 13);
    CHECK(arr->data()->buffers[1]->data() == exported_values);  // Arrow reads devcol's buffer
    if constexpr (!std::is_same_v<T, bool>) {
      CHECK(exported_values == col.data_buffer().data(devcol::access::read));  // which is the column's memory
    }
    peer::check_same_rows(*arr, col);

    // Arrow slices (offsets add up: 13 + 5), then exports back to devcol.
    for (auto const& [first, length] : {std::pair<std::int64_t, std::int64_t>{0, 70}, {5, 20}}) {
      INFO("Arrow slice [" << first << ", " << first + length << ")");
      auto const part = arr->Slice(first, length);
      peer::exported back;
      peer::require_ok(arrow::ExportDeviceArray(*part, nullptr, &back.array, &back.schema));
      CHECK(back.array.device_type == ARROW_DEVICE_CPU);
      peer::release_spy::wrap(back.array.array);
      {
        auto const round = devcol::from_arrow<T>(&back.schema, &back.array);
        CHECK(back.array.array.release == nullptr);
        CHECK(back.schema.release == nullptr);
        auto const want = col.slice(static_cast<std::size_t>(first), static_cast<std::size_t>(first + length));
        peer::check_bit_exact(round, want);
        if constexpr (!std::is_same_v<T, bool>) {
          CHECK(round.data(devcol::access::read) == want.data(devcol::access::read));  // devcol's own memory, still
          CHECK(peer::release_spy::calls == 0);  // the column still borrows Arrow's array
        }  // (bool rows are unpacked and their validity shifted: nothing of Arrow's is kept, so it may go at once)
      }
      CHECK(peer::release_spy::calls == 1);  // released once, when the column went
    }
  }
  CHECK(leaks.live() == live);  // Arrow released the export: what it made (bool's bits) is freed
}

TEMPLATE_TEST_CASE("Arrow C++ -> devcol -> Arrow C++: an array Arrow built comes back Equals()", "[peer][arrow]",
                   DEVCOL_PEER_ALL_TYPES) {
  using T = TestType;
  devcol_test::leak_check leaks;
  auto const whole = peer::arrow_array<T>(100);
  auto const sliced = whole->Slice(13, 70);
  for (auto const& original : {whole, sliced}) {
    INFO("Arrow offset " << original->offset());
    peer::exported out;
    peer::require_ok(arrow::ExportDeviceArray(*original, nullptr, &out.array, &out.schema));
    auto const col = devcol::from_arrow<T>(&out.schema, &out.array);
    CHECK(out.array.array.release == nullptr);
    CHECK(col.size() == static_cast<std::size_t>(original->length()));
    CHECK(col.null_count() == static_cast<std::size_t>(original->null_count()));
    peer::check_same_rows(*original, col);
    if constexpr (!std::is_same_v<T, bool>) {
      // Borrowed at Arrow's offset, not copied.
      CHECK(static_cast<void const*>(col.data(devcol::access::read)) ==
            original->data()->buffers[1]->data() + original->offset() * static_cast<std::int64_t>(sizeof(T)));
    }

    peer::exported again;
    devcol::to_arrow(col, &again.schema, &again.array);
    auto const back = peer::require_ok(arrow::ImportDeviceArray(&again.array, &again.schema));
    peer::require_ok(back->ValidateFull());
    CHECK(back->Equals(*original));
  }
}

TEST_CASE("Arrow C++ timestamps with a time zone import as their unit, the zone kept in a field_info", "[peer][arrow]") {
  devcol_test::leak_check leaks;
  for (std::string const zone : {"UTC", "Europe/Paris", "+05:30"}) {
    INFO("zone " << zone);
    auto const type = arrow::timestamp(arrow::TimeUnit::MILLI, zone);
    auto const original = peer::arrow_array<devcol::timestamp_ms>(40, type)->Slice(3, 30);
    peer::exported out;
    peer::require_ok(arrow::ExportDeviceArray(*original, nullptr, &out.array, &out.schema));
    CHECK(std::string(out.schema.format) == "tsm:" + zone);
    auto const col = devcol::from_arrow<devcol::timestamp_ms>(&out.schema, &out.array);
    peer::check_same_rows(*original, col);

    peer::exported again;
    devcol::to_arrow(col, &again.schema, &again.array);
    auto const back = peer::require_ok(arrow::ImportDeviceArray(&again.array, &again.schema));
    CHECK(back->type()->Equals(*arrow::timestamp(arrow::TimeUnit::MILLI)));  // a bare column has no zone
    CHECK(back->View(type).ValueOrDie()->Equals(*original));

    // With the field_info the import read, the export names the zone again.
    peer::exported with_zone;
    peer::require_ok(arrow::ExportDeviceArray(*original, nullptr, &with_zone.array, &with_zone.schema));
    devcol::field_info info;
    auto const any = devcol::any_from_arrow(&with_zone.schema, &with_zone.array, {}, &info);
    CHECK(info.time_zone == zone);
    peer::exported zoned;
    devcol::to_arrow(any, &zoned.schema, &zoned.array, {}, info);
    auto const kept = peer::require_ok(arrow::ImportDeviceArray(&zoned.array, &zoned.schema));
    CHECK(kept->type()->Equals(*type));
    CHECK(kept->Equals(*original));
  }
}

TEST_CASE("Arrow C++ refuses nothing devcol exports, and devcol refuses an Arrow type it does not hold, releasing it",
          "[peer][arrow]") {
  devcol_test::leak_check leaks;
  arrow::StringBuilder builder;
  peer::require_ok(builder.AppendValues(std::vector<std::string>{"a", "bc", "def"}));
  auto const strings = peer::require_ok(builder.Finish());
  peer::exported out;
  peer::require_ok(arrow::ExportDeviceArray(*strings, nullptr, &out.array, &out.schema));
  peer::release_spy::wrap(out.array.array);
  CHECK_THROWS_WITH(devcol::from_arrow<std::int64_t>(&out.schema, &out.array),
                    Catch::Contains("format 'u' is not int64"));
  CHECK(peer::release_spy::calls == 1);  // released on the failure path
  CHECK(out.array.array.release == nullptr);
  CHECK(out.schema.release == nullptr);
  CHECK(strings->ValidateFull().ok());  // Arrow's own array is untouched
}

TEST_CASE("a devcol table is an Arrow C++ record batch and back, sliced on both sides", "[peer][arrow][table]") {
  devcol_test::leak_check leaks;
  auto const t = peer::devcol_table(100, 13, 83);
  peer::exported out;
  devcol::to_arrow(t, &out.schema, &out.array);
  auto const batch = peer::require_ok(arrow::ImportDeviceRecordBatch(&out.array, &out.schema));
  CHECK(out.array.array.release == nullptr);
  peer::require_ok(batch->ValidateFull());
  CHECK(batch->device_type() == arrow::DeviceAllocationType::kCPU);
  peer::check_same_table(*batch, t);

  for (auto const& [first, length] : {std::pair<std::int64_t, std::int64_t>{0, 70}, {5, 20}}) {
    INFO("Arrow slice [" << first << ", " << first + length << ")");
    peer::exported back;
    peer::require_ok(arrow::ExportDeviceRecordBatch(*batch->Slice(first, length), nullptr, &back.array, &back.schema));
    peer::release_spy::wrap(back.array.array);
    {
      auto const round = devcol::table_from_arrow(&back.schema, &back.array);
      CHECK(back.array.array.release == nullptr);
      devcol::table want;
      for (std::size_t i = 0; i < t.num_columns(); ++i) {
        devcol::visit([&](auto const& col) {
          want.add(t.name(i), col.slice(static_cast<std::size_t>(first), static_cast<std::size_t>(first + length)));
        }, t[i]);
      }
      peer::check_bit_exact(round, want);
      CHECK(peer::release_spy::calls == 0);
    }
    CHECK(peer::release_spy::calls == 1);  // one release of the whole batch, after its last column
  }
}

TEST_CASE("an Arrow C++ record batch is a devcol table and back, Equals()", "[peer][arrow][table]") {
  devcol_test::leak_check leaks;
  auto const whole = peer::arrow_batch(100);
  for (auto const& original : {whole, whole->Slice(13, 70)}) {
    INFO("rows " << original->num_rows());
    peer::exported out;
    peer::require_ok(arrow::ExportDeviceRecordBatch(*original, nullptr, &out.array, &out.schema));
    auto const t = devcol::table_from_arrow(&out.schema, &out.array);
    peer::check_same_table(*original, t);

    peer::exported again;
    devcol::to_arrow(t, &again.schema, &again.array);
    auto const back = peer::require_ok(arrow::ImportDeviceRecordBatch(&again.array, &again.schema));
    peer::require_ok(back->ValidateFull());
    CHECK(back->Equals(*original));
  }
}

TEMPLATE_TEST_CASE("empty and all-null columns cross to Arrow C++ and back", "[peer][arrow]", std::int64_t, bool,
                   devcol::timestamp_ns) {
  using T = TestType;
  devcol_test::leak_check leaks;
  std::vector<devcol::column<T>> const columns{devcol::column<T>{}, devcol::full<T>(37, std::nullopt),
                                               devcol::full<T>(37, std::nullopt).slice(9, 30),
                                               peer::devcol_column<T>(20).slice(7, 7)};
  for (auto const& col : columns) {
    INFO(col.size() << " rows at offset " << col.offset() << ", " << col.null_count() << " null");
    peer::exported out;
    devcol::to_arrow(col, &out.schema, &out.array);
    auto const arr = peer::require_ok(arrow::ImportDeviceArray(&out.array, &out.schema));
    peer::require_ok(arr->ValidateFull());
    peer::check_same_rows(*arr, col);

    peer::exported back;
    peer::require_ok(arrow::ExportDeviceArray(*arr, nullptr, &back.array, &back.schema));
    auto const round = devcol::from_arrow<T>(&back.schema, &back.array);
    CHECK(round.size() == col.size());
    CHECK(round.null_count() == col.null_count());
    peer::check_same_rows(*arr, round);
  }
  // And Arrow's own empty array (its buffers may be NULL or zero-length).
  auto const empty = peer::require_ok(arrow::MakeEmptyArray(peer::arrow_of<T>::type()));
  peer::exported out;
  peer::require_ok(arrow::ExportDeviceArray(*empty, nullptr, &out.array, &out.schema));
  CHECK(devcol::from_arrow<T>(&out.schema, &out.array).size() == 0);
}

TEMPLATE_TEST_CASE("an empty slice of a string or binary view column at an offset passes Arrow C++'s ValidateFull",
                   "[peer][arrow]", devcol::string_view_column, devcol::binary_view_column) {
  using C = TestType;
  devcol_test::leak_check leaks;
  std::vector<std::optional<std::string>> rows;
  for (std::size_t i = 0; i < 70; ++i) {
    if (i % 3 == 1) {
      rows.emplace_back(std::nullopt);
    } else {
      rows.emplace_back(std::string(i % 20, 'a'));
    }
  }
  auto const col = devcol::make_binary_view_column<devcol::default_policy, C::bytes_encoding>(rows);
  for (std::size_t at : {std::size_t{1}, std::size_t{63}, std::size_t{65}, std::size_t{70}}) {
    INFO("rows [" << at << ", " << at << ")");
    peer::exported out;
    devcol::to_arrow(col.slice(at, at), &out.schema, &out.array);
    auto const arr = peer::require_ok(arrow::ImportDeviceArray(&out.array, &out.schema));
    peer::require_ok(arr->ValidateFull());
    CHECK(arr->length() == 0);
  }
}

TEST_CASE("a sliced Arrow C++ struct array (the struct's offset selecting rows) is a devcol table", "[peer][arrow][table]") {
  devcol_test::leak_check leaks;
  auto const batch = peer::arrow_batch(100);
  auto const structs = peer::require_ok(batch->ToStructArray());
  auto const sliced = structs->Slice(13, 70);  // the struct's offset is 13; its children keep offset 0
  peer::exported out;
  peer::require_ok(arrow::ExportDeviceArray(*sliced, nullptr, &out.array, &out.schema));
  CHECK(out.array.array.offset == 13);
  auto const t = devcol::table_from_arrow(&out.schema, &out.array);
  peer::check_same_table(*batch->Slice(13, 70), t);
}

namespace {
/// Rows of the decimal / fixed-size binary peer columns: both signs, past 64 bits for int128, a null every fifth row.
template <class Rep>
std::vector<std::optional<Rep>> peer_decimals(std::size_t n) {
  std::vector<std::optional<Rep>> rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (peer::null_at(i)) { continue; }
    auto const k = static_cast<std::int64_t>(i) - 40;
    rows[i] = sizeof(Rep) == 16 ? static_cast<Rep>(static_cast<Rep>(k) << 90) + static_cast<Rep>(i) : static_cast<Rep>(k * 99991);
  }
  return rows;
}

/// The decimal column an Arrow array holds, read through devcol's import of Arrow's export (no devcol code on Arrow's side).
template <class Rep>
std::vector<std::optional<Rep>> rows_of_arrow(arrow::Array const& arr) {
  std::vector<std::optional<Rep>> rows(static_cast<std::size_t>(arr.length()));
  auto const* values = arr.data()->buffers[1]->data() + arr.offset() * static_cast<std::int64_t>(sizeof(Rep));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (arr.IsNull(static_cast<std::int64_t>(i))) { continue; }
    Rep v;
    std::memcpy(&v, values + i * sizeof(Rep), sizeof(Rep));  // Arrow's layout: little-endian two's complement
    rows[i] = v;
  }
  return rows;
}
}  // namespace

TEMPLATE_TEST_CASE("decimals: devcol -> Arrow C++ (ValidateFull) -> devcol, sliced, zero-copy", "[peer][arrow][decimal]",
                   std::int32_t, std::int64_t, devcol::int128_t) {
  using Rep = TestType;
  devcol_test::leak_check leaks;
  constexpr int precision = devcol::max_decimal_precision_v<Rep>;
  auto const model = peer_decimals<Rep>(100);
  auto const col = devcol::make_decimal_column<Rep>(model, precision, 3).slice(13, 83);
  std::shared_ptr<arrow::DataType> const type = sizeof(Rep) == 4   ? arrow::decimal32(precision, 3)
                                                : sizeof(Rep) == 8 ? arrow::decimal64(precision, 3)
                                                                   : arrow::decimal128(precision, 3);
  {
    peer::exported out;
    devcol::to_arrow(col, &out.schema, &out.array);
    auto const arr = peer::require_ok(arrow::ImportDeviceArray(&out.array, &out.schema));
    peer::require_ok(arr->ValidateFull());  // every value within the precision
    CHECK(arr->type()->Equals(*type));
    CHECK(arr->offset() == 13);
    CHECK(arr->data()->buffers[1]->data() == static_cast<void const*>(col.data_buffer().data(devcol::access::read)));
    CHECK(rows_of_arrow<Rep>(*arr) == devcol::to_host(col));

    auto const part = arr->Slice(5, 20);
    peer::exported back;
    peer::require_ok(arrow::ExportDeviceArray(*part, nullptr, &back.array, &back.schema));
    auto const round = devcol::from_arrow<devcol::decimal_column<Rep>>(&back.schema, &back.array);
    CHECK(round.type_name() == col.type_name());
    CHECK(devcol::to_host(round) == devcol::to_host(col.slice(5, 25)));
    CHECK(round.data(devcol::access::read) == col.data(devcol::access::read) + 5);
  }
  // Arrow's own empty array.
  auto const empty = peer::require_ok(arrow::MakeEmptyArray(type));
  peer::exported out;
  peer::require_ok(arrow::ExportDeviceArray(*empty, nullptr, &out.array, &out.schema));
  CHECK(devcol::from_arrow<devcol::decimal_column<Rep>>(&out.schema, &out.array).empty());
}

TEST_CASE("decimal128 and fixed_size_binary built by Arrow C++ import into devcol and export back Equals()",
          "[peer][arrow][decimal][fixed_size_binary]") {
  devcol_test::leak_check leaks;
  arrow::Decimal128Builder decimals(arrow::decimal128(38, 10));
  arrow::FixedSizeBinaryBuilder binary(arrow::fixed_size_binary(6));
  for (std::size_t i = 0; i < 100; ++i) {
    if (peer::null_at(i)) {
      peer::require_ok(decimals.AppendNull());
      peer::require_ok(binary.AppendNull());
      continue;
    }
    auto const k = static_cast<std::int64_t>(i) - 40;
    peer::require_ok(decimals.Append(arrow::Decimal128(k * 7, static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ULL)));
    std::string bytes(6, '\0');
    for (std::size_t b = 0; b < 6; ++b) { bytes[b] = static_cast<char>(i * 13 + b); }
    peer::require_ok(binary.Append(bytes));
  }
  auto const whole_decimals = peer::require_ok(decimals.Finish());
  auto const whole_binary = peer::require_ok(binary.Finish());
  for (std::int64_t first : {0, 13}) {
    INFO("Arrow offset " << first);
    auto const d = whole_decimals->Slice(first, 70);
    auto const f = whole_binary->Slice(first, 70);
    peer::exported dout;
    peer::exported fout;
    peer::require_ok(arrow::ExportDeviceArray(*d, nullptr, &dout.array, &dout.schema));
    peer::require_ok(arrow::ExportDeviceArray(*f, nullptr, &fout.array, &fout.schema));
    auto const dcol = devcol::from_arrow<devcol::decimal128_column>(&dout.schema, &dout.array);
    auto const fcol = devcol::from_arrow<devcol::fixed_size_binary_column<>>(&fout.schema, &fout.array);
    CHECK(dcol.type_name() == "decimal128(38, 10)");
    CHECK(fcol.type_name() == "fixed_size_binary[6]");
    CHECK(dcol.null_count() == static_cast<std::size_t>(d->null_count()));
    CHECK(devcol::to_host(dcol) == rows_of_arrow<devcol::int128_t>(*d));
    auto const& typed = static_cast<arrow::FixedSizeBinaryArray const&>(*f);
    auto const rows = devcol::to_host(fcol);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      auto const at = static_cast<std::int64_t>(i);
      CHECK(rows[i] == (typed.IsNull(at) ? std::nullopt : std::optional<std::string>(typed.GetString(at))));
    }
    CHECK(static_cast<void const*>(fcol.data(devcol::access::read)) == f->data()->buffers[1]->data());  // borrowed

    peer::exported dagain;
    peer::exported fagain;
    devcol::to_arrow(dcol, &dagain.schema, &dagain.array);
    devcol::to_arrow(fcol, &fagain.schema, &fagain.array);
    auto const dback = peer::require_ok(arrow::ImportDeviceArray(&dagain.array, &dagain.schema));
    auto const fback = peer::require_ok(arrow::ImportDeviceArray(&fagain.array, &fagain.schema));
    peer::require_ok(dback->ValidateFull());
    peer::require_ok(fback->ValidateFull());
    CHECK(dback->Equals(*d));
    CHECK(fback->Equals(*f));
  }
}

TEST_CASE("list<struct<a: string, b: int64>>: Arrow C++ -> devcol -> Arrow C++, sliced, Equals() and ValidateFull()",
          "[peer][arrow][nested]") {
  devcol_test::leak_check leaks;
  auto const type = arrow::list(arrow::struct_({arrow::field("a", arrow::utf8()), arrow::field("b", arrow::int64())}));
  auto builder_ptr = peer::require_ok(arrow::MakeBuilder(type));
  auto& lists = static_cast<arrow::ListBuilder&>(*builder_ptr);
  auto& structs = static_cast<arrow::StructBuilder&>(*lists.value_builder());
  auto& a = static_cast<arrow::StringBuilder&>(*structs.field_builder(0));
  auto& b = static_cast<arrow::Int64Builder&>(*structs.field_builder(1));
  for (int i = 0; i < 100; ++i) {
    if (i % 7 == 3) {
      peer::require_ok(lists.AppendNull());
      continue;
    }
    peer::require_ok(lists.Append());
    for (int k = 0; k < i % 4; ++k) {
      if ((i + k) % 9 == 7) {
        peer::require_ok(structs.AppendNull());
        peer::require_ok(a.AppendNull());
        peer::require_ok(b.AppendNull());
        continue;
      }
      peer::require_ok(structs.Append());
      peer::require_ok(k == 1 ? a.AppendNull() : a.Append(std::string(static_cast<std::size_t>(k), 's') + std::to_string(i)));
      peer::require_ok((i + k) % 6 == 4 ? b.AppendNull() : b.Append(i * 10 + k));
    }
  }
  auto const whole = peer::require_ok(lists.Finish());
  for (std::int64_t first : {0, 13}) {
    INFO("Arrow offset " << first);
    auto const original = whole->Slice(first, 70);
    peer::exported out;
    peer::require_ok(arrow::ExportDeviceArray(*original, nullptr, &out.array, &out.schema));
    auto const col = devcol::any_from_arrow(&out.schema, &out.array);
    CHECK(devcol::type_name(col) == "list<struct<a: string, b: int64>>");
    CHECK(devcol::null_count(col) == static_cast<std::size_t>(original->null_count()));
    CHECK(devcol::get<devcol::list_column>(col).offset() == static_cast<std::size_t>(first));  // borrowed at its offset
    peer::exported again;
    devcol::to_arrow(col, &again.schema, &again.array);
    auto const back = peer::require_ok(arrow::ImportDeviceArray(&again.array, &again.schema));
    peer::require_ok(back->ValidateFull());
    CHECK(back->Equals(*original));
  }
  // devcol's own nested kinds, exported and validated by Arrow C++.
  auto const dict = devcol::make_dictionary_column(devcol::make_column<std::int32_t>({1, std::nullopt, 0}),
                                                   devcol::make_strings_column({"p", "q"}));
  auto const st = devcol::make_struct_column({{"x", devcol::sequence<std::int64_t>(3)}}, {true, false, true});
  for (devcol::any_column<> const& c : std::vector<devcol::any_column<>>{dict, st, devcol::large_list_column{}}) {
    peer::exported e;
    devcol::to_arrow(c, &e.schema, &e.array);
    auto const arr = peer::require_ok(arrow::ImportDeviceArray(&e.array, &e.schema));
    peer::require_ok(arr->ValidateFull());
    CHECK(arr->length() == static_cast<std::int64_t>(devcol::size(c)));
    CHECK(arr->null_count() == static_cast<std::int64_t>(devcol::null_count(c)));
  }
}

namespace devcol_test::peer_strings {

/// Row i of the strings model: ("s" + i + "é") repeated i % 4 times (every fourth empty), null when
/// peer::null_at(i).
inline std::vector<std::optional<std::string>> model(std::size_t n) {
  std::vector<std::optional<std::string>> rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!devcol_test::peer::null_at(i)) {
      rows[i] = std::string();
      for (std::size_t k = 0; k < i % 4; ++k) { *rows[i] += "s" + std::to_string(i) + "\xC3\xA9"; }
    }
  }
  return rows;
}

/// The model as an Arrow utf8 (O = int32) or large utf8 (int64) array, made by Arrow's builder.
template <class O>
std::shared_ptr<arrow::Array> arrow_strings(std::size_t n) {
  using builder_type = std::conditional_t<sizeof(O) == 4, arrow::StringBuilder, arrow::LargeStringBuilder>;
  builder_type builder;
  for (auto const& row : model(n)) { peer::require_ok(row ? builder.Append(*row) : builder.AppendNull()); }
  return peer::require_ok(builder.Finish());
}

/// Checks an Arrow utf8 / large utf8 array against a devcol strings column, row by row.
template <class O>
void check_same_strings(arrow::Array const& arr, devcol::basic_strings_column<O> const& col) {
  using array_type = std::conditional_t<sizeof(O) == 4, arrow::StringArray, arrow::LargeStringArray>;
  REQUIRE(arr.length() == static_cast<std::int64_t>(col.size()));
  CHECK(arr.null_count() == static_cast<std::int64_t>(col.null_count()));
  auto const& typed = static_cast<array_type const&>(arr);
  auto const rows = devcol::to_host(col);
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto const at = static_cast<std::int64_t>(i);
    bool const same = rows[i] ? typed.IsValid(at) && typed.GetView(at) == *rows[i] : typed.IsNull(at);
    mismatches += same ? 0U : 1U;
  }
  CHECK(mismatches == 0);
}

}  // namespace devcol_test::peer_strings

TEMPLATE_TEST_CASE("strings: devcol -> Arrow C++ ImportDeviceArray -> ExportDeviceArray -> devcol, sliced, zero-copy",
                   "[peer][arrow][strings]", std::int32_t, std::int64_t) {
  using O = TestType;
  namespace ps = devcol_test::peer_strings;
  devcol_test::leak_check leaks;
  auto const whole = devcol::make_strings_column<O>(ps::model(100));
  for (auto const& [first, last] : {std::pair<std::size_t, std::size_t>{13, 83}, {0, 100}, {9, 9}}) {
    INFO("devcol rows [" << first << ", " << last << ")");
    auto const col = whole.slice(first, last);
    peer::exported out;
    devcol::to_arrow(col, &out.schema, &out.array, {}, "s");
    auto const arr = peer::require_ok(arrow::ImportDeviceArray(&out.array, &out.schema));
    peer::require_ok(arr->ValidateFull());
    CHECK(arr->type()->Equals(sizeof(O) == 4 ? *arrow::utf8() : *arrow::large_utf8()));
    CHECK(arr->offset() == static_cast<std::int64_t>(first));
    CHECK(arr->data()->buffers[2]->data() == reinterpret_cast<std::uint8_t const*>(whole.chars(devcol::access::read)));
    ps::check_same_strings(*arr, col);

    std::int64_t const skip = std::min<std::int64_t>(3, arr->length());
    auto const part = arr->Slice(skip, arr->length() - skip);
    peer::exported back;
    peer::require_ok(arrow::ExportDeviceArray(*part, nullptr, &back.array, &back.schema));
    peer::release_spy::wrap(back.array.array);
    {
      auto const round = devcol::from_arrow<devcol::basic_strings_column<O>>(&back.schema, &back.array);
      ps::check_same_strings(*part, round);
      if (round.size() != 0) {
        CHECK(round.chars(devcol::access::read) == whole.chars(devcol::access::read));  // devcol's memory, still
        CHECK(round.offset() == static_cast<std::size_t>(part->offset()));
      }
      CHECK(peer::release_spy::calls == 0);
    }
    CHECK(peer::release_spy::calls == 1);
  }
}

TEMPLATE_TEST_CASE("strings: Arrow C++ -> devcol -> Arrow C++ comes back Equals(), sliced off the byte boundary",
                   "[peer][arrow][strings]", std::int32_t, std::int64_t) {
  using O = TestType;
  namespace ps = devcol_test::peer_strings;
  devcol_test::leak_check leaks;
  auto const whole = ps::arrow_strings<O>(100);
  for (auto const& original : {whole, whole->Slice(13, 70), whole->Slice(50, 0)}) {
    INFO("Arrow offset " << original->offset() << ", length " << original->length());
    peer::exported out;
    peer::require_ok(arrow::ExportDeviceArray(*original, nullptr, &out.array, &out.schema));
    auto const col = devcol::from_arrow<devcol::basic_strings_column<O>>(&out.schema, &out.array);
    ps::check_same_strings(*original, col);
    CHECK(col.offset() == static_cast<std::size_t>(original->offset()));
    peer::exported again;
    devcol::to_arrow(col, &again.schema, &again.array);
    auto const back = peer::require_ok(arrow::ImportDeviceArray(&again.array, &again.schema));
    peer::require_ok(back->ValidateFull());
    CHECK(back->Equals(*original));
  }
  // An empty devcol column without buffers: Arrow reads its one {0} offset.
  peer::exported empty;
  devcol::to_arrow(devcol::basic_strings_column<O>{}, &empty.schema, &empty.array);
  auto const arr = peer::require_ok(arrow::ImportDeviceArray(&empty.array, &empty.schema));
  peer::require_ok(arr->ValidateFull());
  CHECK(arr->length() == 0);
}

TEST_CASE("Arrow C++ intervals (months, day-time, month-day-nano) go through devcol and back equal, at an offset",
          "[peer][arrow][types]") {
  devcol_test::leak_check leaks;
  arrow::MonthIntervalBuilder months;
  arrow::DayTimeIntervalBuilder day_times;
  arrow::MonthDayNanoIntervalBuilder month_day_nanos;
  for (std::int32_t i = 0; i < 40; ++i) {
    if (i % 7 == 3) {
      peer::require_ok(months.AppendNull());
      peer::require_ok(day_times.AppendNull());
      peer::require_ok(month_day_nanos.AppendNull());
      continue;
    }
    peer::require_ok(months.Append(i * 5 - 90));
    peer::require_ok(day_times.Append({i - 20, i * 1000 + 7}));
    peer::require_ok(month_day_nanos.Append({i - 20, i % 31, std::int64_t{i} * 1000000007}));
  }
  std::vector<std::shared_ptr<arrow::Array>> arrays{peer::require_ok(months.Finish()),
                                                    peer::require_ok(day_times.Finish()),
                                                    peer::require_ok(month_day_nanos.Finish())};
  for (auto const& whole : arrays) {
    INFO(whole->type()->ToString());
    auto const original = whole->Slice(13, 20);
    peer::exported out;
    peer::require_ok(arrow::ExportDeviceArray(*original, nullptr, &out.array, &out.schema));
    devcol::field_info info;
    auto const col = devcol::any_from_arrow(&out.schema, &out.array, {}, &info);
    CHECK(devcol::null_count(col) == static_cast<std::size_t>(original->null_count()));
    peer::exported again;
    devcol::to_arrow(devcol::gather(col, devcol::make_column<std::int32_t>({19, 0, 2, 3}), {}), &again.schema,
                     &again.array, {}, info);
    auto const back = peer::require_ok(arrow::ImportDeviceArray(&again.array, &again.schema));
    REQUIRE(back->ValidateFull().ok());
    auto const expected =
        peer::require_ok(arrow::Concatenate({original->Slice(19, 1), original->Slice(0, 1), original->Slice(2, 2)}));
    CHECK(back->type()->Equals(*original->type()));
    CHECK(back->Equals(*expected));
  }
}

TEMPLATE_TEST_CASE("devcol::hash is the reference XXH64 of each row's bytes, every length 0-300, sliced",
                   "[peer][hash]", devcol::strings_column, devcol::large_strings_column, devcol::binary_column,
                   devcol::large_binary_column) {
  devcol_test::leak_check leaks;
  std::mt19937_64 random(7);
  std::vector<std::optional<std::string>> rows;
  for (std::size_t length = 0; length <= 300; ++length) {  // every tail of XXH64's 32-byte stripes
    std::string bytes(length, '\0');
    for (auto& b : bytes) { b = static_cast<char>(random()); }
    rows.emplace_back(std::move(bytes));
    if (length % 7 == 3) { rows.emplace_back(std::nullopt); }
  }
  rows.emplace_back(std::string(3 << 20, 'x'));  // a row of megabytes
  std::vector<std::optional<std::string_view>> views(rows.begin(), rows.end());
  auto const whole =
      devcol::make_strings_column<typename TestType::offset_type, devcol::default_policy, TestType::bytes_encoding>(views);
  std::size_t checked = 0;
  std::size_t valid = 0;
  for (std::uint64_t const seed : {std::uint64_t{0}, std::uint64_t{1}, ~std::uint64_t{0}}) {
    for (std::size_t const first : {std::size_t{0}, std::size_t{1}, std::size_t{65}}) {
      INFO("seed " << seed << ", rows from " << first);
      auto const hashes = devcol::to_host(devcol::hash(whole.slice(first, rows.size()), seed));
      REQUIRE(hashes.size() == rows.size() - first);
      for (std::size_t r = first; r < rows.size(); ++r) { valid += rows[r].has_value() ? 1 : 0; }
      for (std::size_t i = 0; i < hashes.size(); ++i) {
        auto const& row = rows[first + i];
        INFO("row " << first + i);
        REQUIRE(hashes[i].has_value() == row.has_value());
        if (row) {
          CHECK(*hashes[i] == XXH64(row->data(), row->size(), seed));
          ++checked;
        }
      }
    }
  }
  CHECK(checked == valid);  // every valid row of every slice compared
}
