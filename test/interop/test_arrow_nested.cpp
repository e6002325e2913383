// Lists, structs, dictionaries and any_column through the Arrow C Device Data Interface: round
// trips of every kind, tables and streams of them, and untrusted input refused and released once.
#include "../nested_support.hpp"
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

using nested_samples::list_of_structs;

/// Exports `col` and imports it back as any_column; the export released exactly once by then.
inline devcol::any_column<> round_trip(devcol::any_column<> const& col) {
  exported e;
  devcol::to_arrow(col, &e.schema, &e.array, {}, "col");
  return devcol::any_from_arrow(&e.schema, &e.array);
}

}  // namespace devcol_test::interop_nested

// The test cases live in the helpers' namespace: in the CUDA unity build every test source is one
// translation unit, and a using-directive would make these helpers clash with other files'.
namespace devcol_test::interop_nested {

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
    CHECK(devcol::to_host_values(back) == nested_samples::rows_of(model, b, e));
    CHECK(devcol::null_count(back) == devcol::null_count(sliced));
    if (n != 0) {  // zero-copy both ways: the imported offsets are the exported ones
      CHECK(devcol::get<devcol::list_column>(back).offsets(devcol::access::read) ==
            devcol::get<devcol::list_column>(sliced).offsets(devcol::access::read));
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
  CHECK(devcol::to_host_values(back.get<devcol::list_column>("l")) == nested_samples::rows_of(model, 9, 60));
  ArrowDeviceArrayStream stream{};
  devcol::to_arrow_stream(std::vector<devcol::table>{part_table(0, 30), part_table(30, 65)}, &stream);
  auto const tables = devcol::tables_from_arrow(&stream);
  REQUIRE(tables.size() == 2);
  CHECK(devcol::to_host_values(tables[1].get<devcol::list_column>("l")) == nested_samples::rows_of(model, 30, 65));
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
    e.array.array.dictionary = nullptr;  // the values' struct stays owned (and freed) by the export's node
    release_counter::watch(e.schema, e.array);
    CHECK_THAT(arrow_error_of([&] { (void)devcol::any_from_arrow(&e.schema, &e.array); }),
               Catch::Contains("array.dictionary is NULL, its schema has one"));
    CHECK(release_counter::arrays == 1);
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

TEST_CASE("a dictionary index outside the values is named at its place in the producer's buffer, past the offset",
          "[nested][arrow][errors]") {
  devcol_test::leak_check leaks;
  auto const dict = devcol::make_dictionary_column(devcol::make_column<std::int32_t>({0, 1, 0, 1, 1, 0}),
                                                   devcol::make_column<double>({1.0, 2.0}));
  exported e;
  devcol::to_arrow(dict, &e.schema, &e.array);
  std::vector<std::int32_t> bad{0, 1, 0, 1, 9, 0};  // index 9 at row 4 of the buffer: row 1 of the array
  e.array.array.buffers[1] = bad.data();
  e.array.array.offset = 3;
  e.array.array.length = 3;
  release_counter::watch(e.schema, e.array);
  CHECK_THAT(arrow_error_of([&] { (void)devcol::any_from_arrow(&e.schema, &e.array); }),
             Catch::Contains("array.buffers[1] (indices): index 9 at row 4 is outside the 2 dictionary values"));
  CHECK(release_counter::schemas == 1);
  CHECK(release_counter::arrays == 1);
}

TEST_CASE("list offsets past the child are named against the child's rows, not a data buffer a list has not",
          "[nested][arrow][errors]") {
  devcol_test::leak_check leaks;
  auto const list = devcol::make_list_column({0, 2, 3, 5}, devcol::sequence<std::int64_t>(5));
  exported e;
  devcol::to_arrow(list, &e.schema, &e.array);
  std::vector<std::int32_t> bad{0, 2, 3, 9};
  e.array.array.buffers[1] = bad.data();
  release_counter::watch(e.schema, e.array);
  CHECK_THAT(arrow_error_of([&] { (void)devcol::any_from_arrow(&e.schema, &e.array); }),
             Catch::Contains("array.buffers[1] (offsets): the last offset 9 is past the 5 rows of array.children[0]"));
  CHECK(release_counter::schemas == 1);
  CHECK(release_counter::arrays == 1);
}

TEST_CASE("a list without buffers at a non-zero offset exports offset 0 beside its {0} offsets (review 1)",
          "[nested][arrow]") {
  devcol_test::leak_check leaks;
  devcol::list_column const odd(devcol::list_column::buffer_type{}, devcol::sequence<std::int64_t>(3),
                                devcol::list_column::buffer_type{}, 0, 0, 5);
  exported e;
  devcol::to_arrow(odd, &e.schema, &e.array);
  CHECK(e.array.array.offset == 0);  // offsets[offset] lies in the one-element buffer
  CHECK(e.array.array.length == 0);
  auto const back = devcol::any_from_arrow(&e.schema, &e.array);
  CHECK(devcol::size(back) == 0);
  CHECK(devcol::type_name(back) == "list<int64>");
}

TEST_CASE("dictionary indices whose offset + length overflows their bytes are refused (review 3)",
          "[nested][arrow][errors]") {
  devcol_test::leak_check leaks;
  auto const dict = devcol::make_dictionary_column(devcol::make_column<std::int32_t>({0, 1}),
                                                   devcol::make_column<double>({1.0, 2.0}));
  exported e;
  devcol::to_arrow(dict, &e.schema, &e.array);
  e.array.array.offset = std::int64_t{1} << 62;  // (offset + length) * 4 wraps a 64-bit size
  release_counter::watch(e.schema, e.array);
  CHECK_THAT(arrow_error_of([&] { (void)devcol::any_from_arrow(&e.schema, &e.array); }),
             Catch::Contains("indices of 4 bytes overflow"));
  CHECK(release_counter::arrays == 1);
}

/// Sharing decided at run time (cuDF's copy_on_write option): a buffer keeps the mode it was made in.
struct runtime_sharing_policy : devcol::default_policy {
  using sharing = devcol::runtime_sharing;
};

TEST_CASE("a nested column copies on write only if all of it does, an export snapshots it otherwise (review 5)",
          "[nested][arrow][cow]") {
  devcol_test::leak_check leaks;
  using list_type = devcol::basic_list_column<std::int32_t, runtime_sharing_policy>;
  auto child = [] {
    devcol::scoped_copy_on_write const legacy{false};  // shared views: writes through any view propagate
    return devcol::sequence<std::int64_t, runtime_sharing_policy>(4);
  }();
  devcol::scoped_copy_on_write const cow{true};
  auto const list = devcol::make_list_column<std::int32_t, runtime_sharing_policy>({0, 1, 4}, child);
  CHECK(!devcol::get<devcol::column<std::int64_t, runtime_sharing_policy>>(list.child()).copy_on_write());
  CHECK(!list.copy_on_write());  // its offsets copy on write, its child does not
  auto const st = devcol::make_struct_column<runtime_sharing_policy>({{"x", child}});
  CHECK(!st.copy_on_write());    // no mask: the children decide
  exported e;
  devcol::to_arrow(list, &e.schema, &e.array);
  // Each level is snapshotted on its own: the child, whose writes propagate, is exported as a copy;
  // the list's own offsets copy on write, so a later write through `list` cannot reach the export's.
  auto const& child_values = devcol::get<devcol::column<std::int64_t, runtime_sharing_policy>>(list.child());
  CHECK(e.array.array.children[0]->buffers[1] != child_values.data_buffer().data(devcol::access::read));
  list_type const same = list;
  CHECK(devcol::to_host_values(same) == values{devcol::host_list({0}), devcol::host_list({1, 2, 3})});
}


TEST_CASE("arrow nested: lists, list views, fixed-size lists, structs and unions export their own buffers zero-copy, "
          "an exposed one as a copy of it (rule 12)",
          "[nested][arrow][review]") {
  devcol_test::leak_check leaks;
  using devcol::access::read;
  auto const host_of = [](auto const& col) { return devcol_test::interop::host_text(col); };
  auto const reimported = [](exported& e) { return devcol::any_from_arrow(&e.schema, &e.array); };
  auto const child = devcol::sequence<std::int64_t>(8);

  // A list whose buffers copy on write shares them with its export; one with its offsets exposed
  // (a third party may write them) exports a copy of them, and its mask still zero-copy.
  auto const list = devcol::make_list_column<std::int32_t>({0, 1, 4, 4, 8}, child, {true, true, false, true});
  std::vector<std::string> const list_rows = host_of(list.slice(1, 4));
  {
    exported e;
    devcol::to_arrow(list.slice(1, 4), &e.schema, &e.array);
    CHECK(e.array.array.offset == 1);
    CHECK(e.array.array.buffers[0] == list.mask_buffer().data(read));
    CHECK(e.array.array.buffers[1] == list.offsets_buffer().data(read));
    CHECK(host_of(reimported(e)) == list_rows);
  }
  {
    auto offsets = list.offsets_buffer().deep_copy();
    auto* const handed_out = static_cast<std::int32_t*>(offsets.expose());
    devcol::list_column const exposed(std::move(offsets), list.child(), list.mask_buffer(), 3, 1, 1);
    exported e;
    devcol::to_arrow(exposed, &e.schema, &e.array);
    CHECK(e.array.array.buffers[1] != handed_out);
    CHECK(e.array.array.buffers[0] == list.mask_buffer().data(read));
    std::fill(handed_out, handed_out + 5, 0);  // the third party's write reaches the column, not the export
    CHECK(host_of(reimported(e)) == list_rows);
  }

  // A list view with only its sizes exposed: the sizes copied, the offsets shared.
  auto const view = devcol::make_list_view_column<std::int64_t>({4, 0, 1, 6}, {2, 1, 3, 0}, child, {true, false, true, true});
  std::vector<std::string> const view_rows = host_of(view);
  {
    auto sizes = view.sizes_buffer().deep_copy();
    auto* const handed_out = static_cast<std::int64_t*>(sizes.expose());
    devcol::large_list_view_column const exposed(view.offsets_buffer(), std::move(sizes), view.child(), view.mask_buffer(),
                                                 4, 1);
    exported e;
    devcol::to_arrow(exposed, &e.schema, &e.array);
    CHECK(e.array.array.buffers[1] == view.offsets_buffer().data(read));
    CHECK(e.array.array.buffers[2] != handed_out);
    std::fill(handed_out, handed_out + 4, 0);
    CHECK(host_of(reimported(e)) == view_rows);
  }

  // A fixed-size list with its mask exposed: the mask copied.
  auto const pairs = devcol::make_fixed_size_list_column(2, child, {true, false, true, true});
  std::vector<std::string> const pair_rows = host_of(pairs);
  {
    auto mask = pairs.mask_buffer().deep_copy();
    auto* const handed_out = static_cast<std::uint8_t*>(mask.expose());
    devcol::fixed_size_list_column<> const exposed(2, pairs.child(), std::move(mask), 4, 1);
    exported e;
    devcol::to_arrow(exposed, &e.schema, &e.array);
    CHECK(e.array.array.buffers[0] != handed_out);
    handed_out[0] = 0;  // every row null in the column, not in the export
    CHECK(host_of(reimported(e)) == pair_rows);
  }

  // A struct with its mask exposed, and a dense union with its offsets exposed: each copied, the
  // union's type ids shared.
  auto const st = devcol::make_struct_column({{"x", devcol::any_column<>(child.slice(0, 4))}}, {true, false, true, true});
  std::vector<std::string> const struct_rows = host_of(st);
  {
    auto mask = st.mask_buffer().deep_copy();
    auto* const handed_out = static_cast<std::uint8_t*>(mask.expose());
    devcol::struct_column<> const exposed(st.names(), st.children(), std::move(mask), 4, 1);
    exported e;
    devcol::to_arrow(exposed, &e.schema, &e.array);
    CHECK(e.array.array.buffers[0] != handed_out);
    handed_out[0] = 0;
    CHECK(host_of(reimported(e)) == struct_rows);
  }
  auto const un = devcol::make_union_column(devcol::union_mode::dense, {3, 5}, {{"a", child}, {"b", devcol::any_column<>(child)}},
                                            {3, 5, 5, 3}, {0, 2, 7, 1});
  std::vector<std::string> const union_rows = host_of(un);
  {
    auto offsets = un.offsets_buffer().deep_copy();
    auto* const handed_out = static_cast<std::int32_t*>(offsets.expose());
    devcol::union_column<> const exposed(un.mode(), un.type_codes(), un.names(), un.children(), un.type_ids_buffer(),
                                         std::move(offsets), 4);
    exported e;
    devcol::to_arrow(exposed, &e.schema, &e.array);
    CHECK(e.array.array.buffers[0] == un.type_ids_buffer().data(read));
    CHECK(e.array.array.buffers[1] != handed_out);
    std::fill(handed_out, handed_out + 4, 0);
    CHECK(host_of(reimported(e)) == union_rows);
  }
}
}  // namespace devcol_test::interop_nested
