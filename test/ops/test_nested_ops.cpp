// Ops over nested columns and any_column: gather, filter, concatenate, is_null / is_valid,
// checked against host references (host_value rows).
#include "../nested_support.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace devcol_test::nested_ops {

using devcol::host_value;
using hv = host_value;
using values = std::vector<host_value>;

using nested_samples::int_lists;
using nested_samples::list_of_structs;

inline values reference_gather(values const& model, std::vector<std::optional<std::int64_t>> const& idx) {
  values out;
  for (auto const& i : idx) {
    out.push_back(i && *i >= 0 && static_cast<std::size_t>(*i) < model.size() ? model[static_cast<std::size_t>(*i)] : hv());
  }
  return out;
}
/// Indices into `n` rows, reversed and strided, every seventh null.
inline std::vector<std::optional<std::int64_t>> some_indices(std::size_t n, std::size_t count) {
  std::vector<std::optional<std::int64_t>> idx;
  for (std::size_t i = 0; i < count && n > 0; ++i) {
    if (i % 7 == 6) {
      idx.emplace_back();
    } else {
      idx.emplace_back(static_cast<std::int64_t>((n - 1 - (i * 5) % n)));
    }
  }
  return idx;
}

}  // namespace devcol_test::nested_ops

// The test cases live in the helpers' namespace: in the CUDA unity build every test source is one
// translation unit, and a using-directive would make these helpers clash with other files'.
namespace devcol_test::nested_ops {

TEMPLATE_TEST_CASE("gather of nested columns matches the host reference, nulls at every level", "[nested][ops][gather]",
                   devcol::list_column, devcol::struct_column<>) {
  devcol_test::leak_check leaks;
  for (std::size_t n : {0, 1, 65, 1000}) {
    auto const [whole, model] = list_of_structs(n);
    devcol::any_column<> col = whole;
    if constexpr (std::is_same_v<TestType, devcol::struct_column<>>) {  // the struct inside, sliced
      auto const& list = devcol::get<devcol::list_column>(whole);
      auto const [first, last] = list.child_range();
      col = devcol::slice(list.child(), first, last);
    }
    values const rows = devcol::to_host_values(col);
    std::size_t const m = rows.size();
    std::size_t const b = m > 20 ? 13 : 0;
    std::size_t const e = m > 20 ? m - 2 : m;
    auto const sliced = devcol::slice(col, b, e);
    auto const idx = some_indices(e - b, 2 * (e - b) + 1);
    auto const indices = devcol::make_column<std::int64_t>(idx);
    auto const out = devcol::gather(sliced, indices);
    CHECK(devcol::type_name(out) == devcol::type_name(col));
    CHECK(devcol::to_host_values(out) == reference_gather(nested_samples::rows_of(rows, b, e), idx));
    CHECK(devcol::visit([](auto const& c) { return c.resource_name(); }, out) == "leak_check");
  }
}

TEST_CASE("gather of lists: out of bounds throws or nullifies, int32 indices, empty lists", "[nested][ops][gather]") {
  devcol_test::leak_check leaks;
  auto const [list, model] = int_lists(65);
  CHECK_THROWS_WITH(devcol::gather(list, devcol::make_column<std::int32_t>({1, 65})),
                    Catch::Contains("index 65 at row 1 is out of bounds for 65 rows"));
  std::vector<std::optional<std::int64_t>> const idx{64, -1, 0, 99, std::nullopt, 4};
  auto const nullified = devcol::gather(list, devcol::make_column<std::int64_t>(idx), {}, devcol::out_of_bounds::nullify);
  CHECK(devcol::to_host_values(nullified) == reference_gather(model, idx));
  auto const by32 = devcol::gather(list, devcol::make_column<std::int32_t>({8, 4, 0}));  // lengths 0: empty lists
  CHECK(devcol::to_host_values(by32) == values{host_value::list{}, host_value::list{}, host_value::list{}});
  CHECK(by32.null_count() == 0);
  CHECK(!by32.nullable());
  auto const none = devcol::gather(list, devcol::column<std::int32_t>{});
  CHECK(none.size() == 0);
}

TEST_CASE("gather of a dictionary gathers its indices and shares its values", "[nested][ops][gather]") {
  devcol_test::leak_check leaks;
  auto const dict = devcol::make_dictionary_column(devcol::make_column<std::int32_t>({2, std::nullopt, 0, 1, 2}),
                                                   devcol::make_strings_column({"x", "yy", std::nullopt}));
  auto const out = devcol::gather(dict.slice(1, 5), devcol::make_column<std::int32_t>({3, 0, std::nullopt, 1}));
  CHECK(devcol::to_host_values(out) == values{hv(), hv(), hv(), "x"});
  CHECK(out.null_count() == 2);  // the null index and the index of the null slot; the null value stays a value
  CHECK(&devcol::get<devcol::strings_column>(out.values()) != nullptr);
  CHECK(devcol::get<devcol::strings_column>(out.values()).chars(devcol::access::read) ==
        devcol::get<devcol::strings_column>(dict.values()).chars(devcol::access::read));
}

TEST_CASE("filter of nested columns keeps the flagged rows, a null flag drops", "[nested][ops][filter]") {
  devcol_test::leak_check leaks;
  for (std::size_t n : {0, 1, 65, 1000}) {
    auto const [col, model] = list_of_structs(n);
    std::size_t const b = n > 20 ? 5 : 0;
    auto const sliced = devcol::slice(col, b, n);
    std::vector<std::optional<bool>> flags;
    values expected;
    for (std::size_t i = b; i < n; ++i) {
      std::optional<bool> f = i % 3 != 0;
      if (i % 11 == 4) { f.reset(); }
      flags.push_back(f);
      if (f && *f) { expected.push_back(model[i]); }
    }
    auto const out = devcol::filter(sliced, devcol::make_column<bool>(flags));
    CHECK(devcol::to_host_values(out) == expected);
    auto const& list = devcol::get<devcol::list_column>(sliced);
    CHECK(devcol::to_host_values(devcol::filter(list, devcol::make_column<bool>(flags))) == expected);
  }
  auto const dict = devcol::make_dictionary_column(devcol::make_column<std::int32_t>({0, 1, 0}),
                                                   devcol::make_column<double>({0.5, 1.5}));
  CHECK(devcol::to_host_values(devcol::filter(dict, devcol::make_column<bool>({false, true, true}))) == values{1.5, 0.5});
  CHECK_THROWS_WITH(devcol::filter(dict, devcol::make_column<bool>({true})), Catch::Contains("inputs have 3 and 1 rows"));
  // uint8 indices with nulls, sliced off the byte boundary, by flags with nulls: the indices'
  // filter, the values shared
  std::vector<std::optional<std::uint8_t>> codes;
  for (std::size_t i = 0; i < 90; ++i) {
    codes.emplace_back(i % 7 == 3 ? std::nullopt : std::optional<std::uint8_t>(static_cast<std::uint8_t>(i % 2)));
  }
  auto const coded = devcol::make_dictionary_column(devcol::make_column<std::uint8_t>(codes),
                                                    devcol::make_column<double>({0.5, 1.5}))
                         .slice(11, 90);
  std::vector<std::optional<bool>> flags;
  values expected;
  for (std::size_t i = 11; i < 90; ++i) {
    std::optional<bool> f = i % 3 != 0;
    if (i % 11 == 4) { f.reset(); }
    flags.push_back(f);
    if (f && *f) { expected.push_back(codes[i] ? hv(*codes[i] == 0 ? 0.5 : 1.5) : hv(std::nullopt)); }
  }
  auto const kept = devcol::filter(coded, devcol::make_column<bool>(flags));
  CHECK(devcol::to_host_values(kept) == expected);
  CHECK(devcol::type_name(kept) == devcol::type_name(coded));
  CHECK(devcol::get<devcol::column<double>>(kept.values()).data(devcol::access::read) ==
        devcol::get<devcol::column<double>>(coded.values()).data(devcol::access::read));
}

TEST_CASE("concatenate of nested columns: slices at odd offsets, nulls, empty inputs", "[nested][ops][concatenate]") {
  devcol_test::leak_check leaks;
  auto const [a, ma] = list_of_structs(65);
  auto const [b, mb] = list_of_structs(1000);
  std::vector<devcol::any_column<>> const inputs{devcol::slice(a, 3, 60), devcol::slice(b, 0, 0), devcol::slice(b, 9, 1000),
                                                 devcol::slice(a, 1, 2)};
  values expected = nested_samples::rows_of(ma, 3, 60);
  auto const tail = nested_samples::rows_of(mb, 9, 1000);
  expected.insert(expected.end(), tail.begin(), tail.end());
  expected.push_back(ma[1]);
  auto const out = devcol::concatenate(inputs);
  CHECK(devcol::to_host_values(out) == expected);
  CHECK(devcol::null_count(out) == [&] {
    std::size_t nulls = 0;
    for (auto const& v : expected) { nulls += v.is_null() ? 1 : 0; }
    return nulls;
  }());
  // Structs: the same names and types, else an error naming both.
  auto const s1 = devcol::make_struct_column({{"x", devcol::sequence<std::int32_t>(3)}}, {true, false, true});
  auto const s2 = devcol::make_struct_column({{"x", devcol::sequence<std::int32_t>(2, 10)}});
  auto const s = devcol::concatenate(std::vector{s1.slice(1, 3), s2});
  CHECK(devcol::to_host_values(s) == values{hv(), devcol::host_struct({{"x", 2}}), devcol::host_struct({{"x", 10}}),
                                           devcol::host_struct({{"x", 11}})});
  auto const s3 = devcol::make_struct_column({{"y", devcol::sequence<std::int32_t>(2)}});
  CHECK_THROWS_WITH(devcol::concatenate(std::vector{s1, s3}),
                    Catch::Contains("input 1 is struct<y: int32>, input 0 struct<x: int32>"));
  CHECK_THROWS_WITH(devcol::concatenate(std::vector<devcol::any_column<>>{s1, devcol::sequence<std::int32_t>(1)}),
                    Catch::Contains("input 1 is int32, input 0 struct<x: int32>"));
  // Dictionaries: indices re-based, values concatenated (not unified).
  auto const d1 = devcol::make_dictionary_column(devcol::make_column<std::int32_t>({1, std::nullopt, 0}),
                                                 devcol::make_strings_column({"p", "q"}));
  auto const d2 = devcol::make_dictionary_column(devcol::make_column<std::int32_t>({0, 0}),
                                                 devcol::make_strings_column({"p"}));
  auto const d = devcol::concatenate(std::vector{d1, d2.slice(1, 2)});
  CHECK(devcol::to_host_values(d) == values{"q", hv(), "p", "p"});
  CHECK(devcol::size(d.values()) == 3);
  CHECK(devcol::to_host(std::get<devcol::column<std::int32_t>>(d.indices())) ==
        std::vector<std::optional<std::int32_t>>{1, std::nullopt, 0, 2});
}

TEST_CASE("is_null and is_valid of every kind read the rows' validity at their offset", "[nested][ops][null]") {
  devcol_test::leak_check leaks;
  auto const [col, model] = list_of_structs(65);
  auto const sliced = devcol::slice(col, 11, 65);
  auto const nulls = devcol::to_host(devcol::is_null(sliced));
  auto const valid = devcol::to_host(devcol::is_valid(devcol::get<devcol::list_column>(sliced)));
  for (std::size_t i = 0; i < nulls.size(); ++i) {
    CHECK(*nulls[i] == model[11 + i].is_null());
    CHECK(*valid[i] == !model[11 + i].is_null());
  }
  auto const strings = devcol::make_strings_column({"a", std::nullopt});
  CHECK(devcol::to_host(devcol::is_null(devcol::any_column<>(strings))) == std::vector<std::optional<bool>>{false, true});
  auto const dict = devcol::make_dictionary_column(devcol::make_column<std::int32_t>({std::nullopt, 0}),
                                                   devcol::make_column<double>({1.0}));
  CHECK(devcol::to_host(devcol::is_valid(dict)) == std::vector<std::optional<bool>>{false, true});
}

TEST_CASE("is_null and is_valid of a dictionary are logical: a row naming a null value is null, as in Arrow",
          "[nested][ops][null]") {
  devcol_test::leak_check leaks;
  // pyarrow: DictionaryArray.from_arrays([0, 1, None, 2, 1, ...], ["a", None, "c"]), is_null -> [F, T, T, F, T, ...]
  std::vector<std::optional<std::uint8_t>> indices;
  std::vector<std::optional<bool>> nulls;
  for (std::size_t r = 0; r < 130; ++r) {
    bool const null_index = r % 3 == 2;
    auto const value = static_cast<std::uint8_t>(r % 5 == 4 ? 1 : (r % 2 == 0 ? 0 : 2));
    indices.push_back(null_index ? std::nullopt : std::optional(value));
    nulls.push_back(null_index || value == 1);
  }
  auto const dict = devcol::make_dictionary_column(devcol::make_column<std::uint8_t>(indices),
                                                   devcol::make_strings_column({"a", std::nullopt, "c"}));
  CHECK(devcol::to_host(devcol::is_null(dict)) == nulls);
  CHECK(dict.null_count() == 43);  // the null indices alone, as Arrow's null_count
  for (std::size_t const first : {1, 63, 65}) {
    INFO("slice at " << first);
    auto const sliced = devcol::get<devcol::dictionary_column<>>(devcol::slice(devcol::any_column<>(dict), first, 130));
    std::vector<std::optional<bool>> valid;
    for (std::size_t r = first; r < 130; ++r) { valid.push_back(!*nulls[r]); }
    CHECK(devcol::to_host(devcol::is_valid(sliced)) == valid);
  }
  // As a union's child or a run-end encoded column's values, its flags are read the same way.
  auto const small = devcol::make_dictionary_column(devcol::make_column<std::uint8_t>({0, 1, 2, std::nullopt}),
                                                    devcol::make_strings_column({"a", std::nullopt, "c"}));
  auto const sparse = devcol::make_union_column(devcol::union_mode::sparse, {0, 1},
                                                {{"d", devcol::any_column<>(small)}, {"i", devcol::any_column<>(devcol::sequence<std::int64_t>(4))}},
                                                {0, 0, 1, 0});
  CHECK(devcol::to_host(devcol::is_null(sparse)) == std::vector<std::optional<bool>>{false, true, false, true});
  auto const runs = devcol::make_run_end_encoded_column(devcol::run_ends_column<>(devcol::make_column<std::int32_t>({2, 3, 5, 6})),
                                                        devcol::any_column<>(small));
  CHECK(devcol::to_host(devcol::is_valid(runs)) == std::vector<std::optional<bool>>{true, true, false, true, true, false});
  auto const no_null_values = devcol::make_dictionary_column(
      devcol::make_column<std::int16_t>({std::optional<std::int16_t>{1}, std::nullopt}), devcol::make_column<double>({1.0, 2.0}));
  CHECK(devcol::to_host(devcol::is_null(no_null_values)) == std::vector<std::optional<bool>>{false, true});
}

TEST_CASE("concatenating dictionaries moves indices without signed overflow in null slots (review 4)",
          "[nested][ops][concatenate][dictionary]") {
  devcol_test::leak_check leaks;
  // Row 0 is null, its slot holding INT32_MAX: moving it by the first input's one value would
  // overflow int32 (undefined behaviour, reported by the asan preset's UBSan) unless done unsigned.
  auto const indices = devcol::set_null_mask(devcol::make_column<std::int32_t>({INT32_MAX, 0}),
                                             devcol::make_column<bool>({false, true}));
  auto const d1 = devcol::make_dictionary_column(devcol::make_column<std::int32_t>({0}), devcol::make_column<double>({1.0}));
  auto const d2 = devcol::make_dictionary_column(indices, devcol::make_column<double>({2.0}));
  auto const d = devcol::concatenate(std::vector{d1, d2});
  CHECK(devcol::to_host_values(d) == values{1.0, hv(), 2.0});
  CHECK(devcol::to_host(std::get<devcol::column<std::int32_t>>(d.indices())) ==
        std::vector<std::optional<std::int32_t>>{0, std::nullopt, 1});
}

TEST_CASE("concatenating dictionaries whose values fill the index type takes inputs without valid indices",
          "[nested][ops][concatenate][dictionary]") {
  devcol_test::leak_check leaks;
  std::vector<double> all(128);
  for (std::size_t i = 0; i < all.size(); ++i) { all[i] = static_cast<double>(i); }
  // 128 values: int8 indices reach every one. An input after them with no valid index moves no
  // index, yet it was refused as "128 dictionary values overflow int8 indices".
  auto const full = devcol::make_dictionary_column(devcol::make_column<std::int8_t>({127, 0}), devcol::make_column<double>(all));
  auto const empty = devcol::make_dictionary_column(devcol::make_column<std::int8_t>(std::vector<std::int8_t>{}),
                                                    devcol::make_column<double>(std::vector<double>{}));
  auto const null_rows = devcol::make_dictionary_column(devcol::make_column<std::int8_t>({std::nullopt}),
                                                        devcol::make_column<double>(std::vector<double>{}));
  auto const d = devcol::concatenate(std::vector{full, empty, null_rows});
  CHECK(devcol::to_host_values(d) == values{127.0, 0.0, hv()});
  CHECK(devcol::size(d.values()) == 128);
  CHECK(devcol::type_name(d) == devcol::type_name(full));
  // A valid index past them is still refused: its value would be the 129th.
  auto const one = devcol::make_dictionary_column(devcol::make_column<std::int8_t>({0}), devcol::make_column<double>({1.0}));
  CHECK_THROWS_WITH(devcol::concatenate(std::vector{full, one}), Catch::Contains("dictionary values overflow int8 indices"));
}

}  // namespace devcol_test::nested_ops
