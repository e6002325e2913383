// Lists, structs, dictionaries and any_column through the Arrow C Device Data Interface: round
// trips of every kind, tables and streams of them, and untrusted input refused and released once.
#include "interop_support.hpp"

#include <devcol/interop/arrow_stream.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace devcol_test::interop_nested {

using devcol::host_value;
using hv = host_value;
using values = std::vector<host_value>;
using devcol_test::interop::arrow_error_of;
using devcol_test::interop::exported;
using devcol_test::interop::release_counter;

/// `n` rows of list<struct<a: string, b: int64>>, nulls at every level, empty lists, and its model.
inline std::pair<devcol::any_column<>, values> list_of_structs(std::size_t n) {
  std::vector<std::int32_t> offsets{0};
  std::vector<std::optional<std::string>> a;
  std::vector<std::optional<std::int64_t>> b;
  std::vector<bool> struct_valid;
  std::vector<bool> list_valid;
  values model;
  std::size_t e = 0;
  for (std::size_t i = 0; i < n; ++i) {
    host_value::list row;
    for (std::size_t k = 0; k < (i * 7) % 4; ++k, ++e) {
      std::optional<std::string> s;
      if (e % 5 != 1) { s = std::string(e % 3, 'q') + std::to_string(e); }
      std::optional<std::int64_t> v;
      if (e % 6 != 4) { v = static_cast<std::int64_t>(e * 3) - 20; }
      bool const ok = e % 9 != 7;
      a.push_back(s);
      b.push_back(v);
      struct_valid.push_back(ok);
      row.push_back(ok ? devcol::host_struct({{"a", s}, {"b", v}}) : hv());
    }
    offsets.push_back(static_cast<std::int32_t>(e));
    list_valid.push_back(i % 8 != 3);
    model.push_back(list_valid.back() ? hv(row) : hv());
  }
  auto st = devcol::make_struct_column(
      {{"a", devcol::make_strings_column(a)}, {"b", devcol::make_column<std::int64_t>(b)}}, struct_valid);
  return {devcol::make_list_column(offsets, std::move(st), list_valid), model};
}

/// Exports `col` and imports it back as any_column; the export released exactly once by then.
inline devcol::any_column<> round_trip(devcol::any_column<> const& col) {
  exported e;
  devcol::to_arrow(col, &e.schema, &e.array, {}, "col");
  return devcol::any_from_arrow(&e.schema, &e.array);
}

inline values part(values const& v, std::size_t b, std::size_t e) {
  return values(v.begin() + static_cast<std::ptrdiff_t>(b), v.begin() + static_cast<std::ptrdiff_t>(e));
}

}  // namespace devcol_test::interop_nested

using namespace devcol_test::interop_nested;

TEST_CASE("list<struct<a: string, b: int64>> round-trips through Arrow, sliced at odd offsets", "[nested][arrow]") {
  devcol_test::leak_check leaks;
  for (std::size_t n : {0, 1, 65, 1000}) {
    auto const [col, model] = list_of_structs(n);
    std::size_t const b = n > 20 ? 13 : 0;
    std::size_t const e = n > 20 ? n - 3 : n;
    auto const sliced = devcol::slice(col, b, e);
    exported ex;
    devcol::to_arrow(sliced, &ex.schema, &ex.array, {}, "col");
    CHECK(std::string(ex.schema.format) == "+l");
    CHECK(std::string(ex.schema.children[0]->format) == "+s");
    CHECK(std::string(ex.schema.children[0]->children[0]->format) == "u");
    CHECK(std::string(ex.schema.children[0]->children[1]->name) == "b");
    CHECK(ex.array.array.offset == static_cast<std::int64_t>(b));  // zero-copy: the offset kept
    CHECK(ex.array.array.n_buffers == 2);
    CHECK(ex.array.array.buffers[1] != nullptr);  // an empty column too: the {0} offsets buffer
    auto const back = devcol::any_from_arrow(&ex.schema, &ex.array);
    CHECK(ex.array.array.release == nullptr);
    CHECK(devcol::type_name(back) == "list<struct<a: string, b: int64>>");
    CHECK(devcol::to_host_values(back) == part(model, b, e));
    CHECK(devcol::null_count(back) == devcol::null_count(sliced));
    if (n != 0) {  // zero-copy both ways: the imported offsets are the exported ones
      CHECK(std::get<devcol::list_column>(back).offsets(devcol::access::read) ==
            std::get<devcol::list_column>(sliced).offsets(devcol::access::read));
    }
  }
}

TEST_CASE("every nested kind round-trips, typed and as any_column, with nulls and empty lists", "[nested][arrow]") {
  devcol_test::leak_check leaks;
  auto const ints = devcol::make_column<std::int64_t>({1, std::nullopt, 3, 4, 5});
  auto const list = devcol::make_list_column({0, 2, 2, 5}, ints, {true, false, true});
  auto const large = devcol::make_large_list_column({0, 0, 1}, devcol::make_strings_column({"x"}));
  auto const st = devcol::make_struct_column({{"x", devcol::make_column<double>({0.5, 1.5, std::nullopt})},
                                              {"y", devcol::make_column<bool>({true, false, true})}},
                                             {true, true, false});
  auto const dict = devcol::make_dictionary_column(devcol::make_column<std::int32_t>({1, std::nullopt, 0, 1}),
                                                   devcol::make_strings_column({"p", std::nullopt}));
  auto const nested_dict = devcol::make_list_column({0, 3, 4}, dict);
  for (devcol::any_column<> const& col : std::vector<devcol::any_column<>>{
           list, large, st, dict, nested_dict, devcol::slice(devcol::any_column<>(list), 1, 3),
           devcol::slice(devcol::any_column<>(st), 1, 3), devcol::slice(devcol::any_column<>(dict), 1, 4),
           devcol::list_column{}, devcol::struct_column<>{}, devcol::make_list_column({0}, ints)}) {
    INFO(devcol::type_name(col));
    auto const back = round_trip(col);
    CHECK(devcol::type_name(back) == devcol::type_name(col));
    CHECK(devcol::to_host_values(back) == devcol::to_host_values(col));
  }
  // Typed: to_arrow(K) and from_arrow<K>.
  exported e;
  devcol::to_arrow(list, &e.schema, &e.array);
  auto const typed = devcol::from_arrow<devcol::list_column>(&e.schema, &e.array);
  CHECK(devcol::to_host_values(typed) == values{devcol::host_list({1, hv()}), hv(), devcol::host_list({3, 4, 5})});
  exported d;
  devcol::to_arrow(dict, &d.schema, &d.array);
  CHECK(d.schema.dictionary != nullptr);
  CHECK(std::string(d.schema.dictionary->format) == "u");
  CHECK(d.array.array.dictionary != nullptr);
  auto const dict_back = devcol::from_arrow<devcol::dictionary_column<>>(&d.schema, &d.array);
  CHECK(devcol::to_host_values(dict_back) == values{hv(), hv(), "p", hv()});
  exported s;
  devcol::to_arrow(st, &s.schema, &s.array);
  CHECK_THAT(arrow_error_of([&] { (void)devcol::from_arrow<devcol::list_column>(&s.schema, &s.array); }),
             Catch::Contains("array.format '+s' is not a list ('+l')"));
  CHECK(s.array.array.release == nullptr);  // released on the failure
}

TEST_CASE("a table of every kind goes through Arrow and a stream", "[nested][arrow][table]") {
  devcol_test::leak_check leaks;
  auto const [lists, model] = list_of_structs(65);
  devcol::table t;
  t.add("id", devcol::sequence<std::int64_t>(65))
      .add_any("l", lists)
      .add("s", devcol::make_strings_column(std::vector<std::string>(65, "z")))
      .add("d", devcol::make_dictionary_column(devcol::sequence<std::int32_t>(65, 0, 0),
                                               devcol::make_column<std::int8_t>({7})));
  auto const part_table = [&](std::size_t b, std::size_t e) {
    devcol::table out;
    for (std::size_t i = 0; i < t.num_columns(); ++i) { out.add_any(t.name(i), devcol::slice(t[i], b, e)); }
    return out;
  };
  auto const sliced = part_table(9, 60);
  exported e;
  devcol::to_arrow(sliced, &e.schema, &e.array);
  auto const back = devcol::table_from_arrow(&e.schema, &e.array);
  CHECK(back.names() == sliced.names());
  for (std::size_t i = 0; i < back.num_columns(); ++i) {
    CHECK(devcol::type_name(back[i]) == devcol::type_name(sliced[i]));
    CHECK(devcol::to_host_values(back[i]) == devcol::to_host_values(sliced[i]));
  }
  CHECK(devcol::to_host_values(back.get<devcol::list_column>("l")) == part(model, 9, 60));
  ArrowDeviceArrayStream stream{};
  devcol::to_arrow_stream(std::vector<devcol::table>{part_table(0, 30), part_table(30, 65)}, &stream);
  auto const tables = devcol::tables_from_arrow(&stream);
  REQUIRE(tables.size() == 2);
  CHECK(devcol::to_host_values(tables[1].get<devcol::list_column>("l")) == part(model, 30, 65));
  // A batch whose nested type differs from the schema's is refused by the producer.
  devcol::table other;
  other.add("id", devcol::sequence<std::int64_t>(1)).add_any("l", devcol::make_list_column({0, 1}, devcol::sequence<std::int8_t>(1)));
  other.add("s", devcol::make_strings_column({"a"})).add("d", devcol::make_dictionary_column(devcol::sequence<std::int32_t>(1, 0, 0), devcol::make_column<std::int8_t>({7})));
  ArrowDeviceArrayStream bad{};
  devcol::to_arrow_stream(std::vector<devcol::table>{part_table(0, 2), other}, &bad);
  devcol::arrow_stream_reader<> reader(&bad);
  CHECK(reader.next().has_value());
  CHECK_THAT(arrow_error_of([&] { (void)reader.next(); }),
             Catch::Contains("column 1 is 'l' list<int8>, the stream's schema has 'l' list<struct<a: string, b: int64>>"));
}

TEST_CASE("untrusted nested input is refused, naming the field and value, and released once", "[nested][arrow][errors]") {
  devcol_test::leak_check leaks;
  auto const list = devcol::make_list_column({0, 2, 3, 5}, devcol::sequence<std::int64_t>(5));
  auto const rejects = [](exported& e, std::string const& what) {
    release_counter::watch(e.schema, e.array);
    CHECK_THAT(arrow_error_of([&] { (void)devcol::any_from_arrow(&e.schema, &e.array); }), Catch::Contains(what));
    CHECK(release_counter::schemas == 1);
    CHECK(release_counter::arrays == 1);
  };
  // Offsets are rewritten in a copy the test owns (the export's memory is devcol's, immutable).
  std::vector<std::int32_t> offsets;
  auto const with_offsets = [&](exported& e, std::vector<std::int32_t> o) {
    devcol::to_arrow(list, &e.schema, &e.array);
    offsets = std::move(o);
    e.array.array.buffers[1] = offsets.data();
  };
  SECTION("non-monotonic offsets") {
    exported e;
    with_offsets(e, {0, 3, 2, 5});
    rejects(e, "array.buffers[1] (offsets)");
  }
  SECTION("a negative first offset") {
    exported e;
    with_offsets(e, {-1, 2, 3, 5});
    rejects(e, "-1");
  }
  SECTION("offsets past the child") {
    exported e;
    with_offsets(e, {0, 2, 3, 9});
    rejects(e, "9");
  }
  SECTION("a list without its child") {
    exported e;
    devcol::to_arrow(list, &e.schema, &e.array);
    e.schema.n_children = 0;
    e.array.array.n_children = 0;
    rejects(e, "array.n_children is 0, a list array has 1");
  }
  SECTION("children counts that differ between schema and array") {
    exported e;
    devcol::to_arrow(list, &e.schema, &e.array);
    e.array.array.n_children = 0;
    rejects(e, "array.n_children is 0, its schema has 1 children");
  }
  SECTION("a dictionary schema without the dictionary array") {
    auto const dict = devcol::make_dictionary_column(devcol::make_column<std::int32_t>({0, 1}),
                                                     devcol::make_column<double>({1.0, 2.0}));
    exported e;
    devcol::to_arrow(dict, &e.schema, &e.array);
    ArrowArray* values = e.array.array.dictionary;
    e.array.array.dictionary = nullptr;
    release_counter::watch(e.schema, e.array);
    CHECK_THAT(arrow_error_of([&] { (void)devcol::any_from_arrow(&e.schema, &e.array); }),
               Catch::Contains("array.dictionary is NULL, its schema has one"));
    CHECK(release_counter::arrays == 1);
    (void)values;  // owned by the released export's node, freed with it
  }
  SECTION("dictionary indices outside the values") {
    auto const dict = devcol::make_dictionary_column(devcol::make_column<std::int32_t>({0, 1}),
                                                     devcol::make_column<double>({1.0, 2.0}));
    exported e;
    devcol::to_arrow(dict, &e.schema, &e.array);
    std::vector<std::int32_t> bad{0, 5};
    e.array.array.buffers[1] = bad.data();
    rejects(e, "array.buffers[1] (indices): index 5 at row 1 is outside the 2 dictionary values");
  }
  SECTION("a struct child shorter than the struct") {
    auto const st = devcol::make_struct_column({{"a", devcol::sequence<std::int32_t>(4)}});
    exported e;
    devcol::to_arrow(st, &e.schema, &e.array);
    e.array.array.children[0]->length = 2;
    rejects(e, "array.children[0].length 2 is short of the struct's offset 0 + length 4");
  }
}
