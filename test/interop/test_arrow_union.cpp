// Arrow sparse and dense unions ("+us:<codes>", "+ud:<codes>"): union_column, its ops (the union
// type kept), slices at odd offsets, zero-copy Arrow both ways with the type codes kept, and
// malformed arrays refused naming the value.
#include "interop_support.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace devcol_test::unions {

using devcol_test::interop::arrow_error_of;
using devcol_test::interop::exported;
using union_col = devcol::union_column<>;

/// Row `r`'s type code: 7 (the string child) every third row, else 3 (the int64 child).
inline std::int8_t code_of(std::size_t r) { return r % 3 == 0 ? 7 : 3; }

/// What row `r` reads: its child's value tagged with its type code, or null (int64 10 r, null when
/// r % 5 == 2; string "s<r>", null when r % 4 == 1).
inline std::string text_of(std::size_t r) {
  if (code_of(r) == 3) { return r % 5 == 2 ? "null" : "{3: " + std::to_string(10 * r) + "}"; }
  return r % 4 == 1 ? "null" : "{7: \"s" + std::to_string(r) + "\"}";
}

/// `rows` union rows as text_of() reads them: sparse (both children `rows` long) or dense (each child
/// only its own rows, the string child after one unused row, so that offsets do not start at 0).
inline union_col union_of(devcol::union_mode mode, std::size_t rows = 40) {
  bool const dense = mode == devcol::union_mode::dense;
  std::vector<std::optional<std::int64_t>> ints;
  std::vector<std::optional<std::string>> strings;
  if (dense) { strings.emplace_back("unused"); }
  std::vector<std::int8_t> ids;
  std::vector<std::int32_t> offsets;
  for (std::size_t r = 0; r < rows; ++r) {
    ids.push_back(code_of(r));
    bool const is_int = code_of(r) == 3;
    if (dense) { offsets.push_back(static_cast<std::int32_t>(is_int ? ints.size() : strings.size())); }
    if (!dense || is_int) {
      ints.emplace_back(r % 5 == 2 ? std::nullopt : std::optional<std::int64_t>(static_cast<std::int64_t>(10 * r)));
    }
    if (!dense || !is_int) {
      strings.emplace_back(r % 4 == 1 ? std::nullopt : std::optional<std::string>("s" + std::to_string(r)));
    }
  }
  return devcol::make_union_column(mode, {3, 7},
                                   {{"i", devcol::any_column<>(devcol::make_column<std::int64_t>(ints))},
                                    {"s", devcol::any_column<>(devcol::make_strings_column(strings))}},
                                   ids, offsets);
}

inline std::vector<std::string> texts(std::size_t begin, std::size_t end) {
  std::vector<std::string> out;
  for (std::size_t r = begin; r < end; ++r) { out.push_back(text_of(r)); }
  return out;
}

}  // namespace devcol_test::unions

using namespace devcol_test::unions;  // NOLINT: test brevity
using devcol_test::interop::check_filter_of_thirds;
using devcol_test::interop::check_null_masks_and_any_column;
using devcol_test::interop::host_text;

TEST_CASE("unions: rows, slices at odd offsets, deep copy, the kind in the registry", "[union]") {
  devcol_test::leak_check leaks;
  STATIC_REQUIRE(devcol::kind_of<union_col> == devcol::kind::union_type);
  STATIC_REQUIRE(devcol::kind_traits<union_col>::nested);
  for (auto const mode : {devcol::union_mode::sparse, devcol::union_mode::dense}) {
    bool const dense = mode == devcol::union_mode::dense;
    auto const whole = union_of(mode);
    CHECK(whole.size() == 40);
    CHECK(whole.null_count() == 0);  // Arrow's: a union has no validity of its own
    CHECK(whole.arrow_format() == (dense ? "+ud:3,7" : "+us:3,7"));
    CHECK(whole.type_name() == (dense ? "dense_union<i: int64=3, s: string=7>" : "sparse_union<i: int64=3, s: string=7>"));
    CHECK(host_text(whole) == texts(0, 40));
    auto const col = whole.slice(13, 37);
    CHECK(col.offset() == 13);
    CHECK(host_text(col) == texts(13, 37));
    auto const copy = col.deep_copy();
    CHECK(copy.offset() == 0);
    CHECK(!copy.is_shared());
    CHECK(host_text(copy) == texts(13, 37));
    CHECK(host_text(col.slice(4, 4).deep_copy()).empty());
  }
  auto const ints = devcol::any_column<>(devcol::make_column<std::int64_t>({1, 2}));
  CHECK_THROWS_WITH(devcol::make_union_column(devcol::union_mode::sparse, {3}, {{"i", ints}}, {3, 4}),
                    Catch::Contains("row 1 has type id 4, not a declared type code"));
  CHECK_THROWS_WITH(devcol::make_union_column(devcol::union_mode::dense, {3}, {{"i", ints}}, {3, 3}, {1, 2}),
                    Catch::Contains("row 1 has type id 3 and offset 2"));
  CHECK_THROWS_WITH(devcol::make_union_column(devcol::union_mode::sparse, {3, 3}, {{"i", ints}, {"j", ints}}, {3, 3}),
                    Catch::Contains("type code 3 is declared twice"));
  CHECK_THROWS_WITH(devcol::make_union_column(devcol::union_mode::sparse, {3}, {{"i", ints}}, {3, 3, 3}),
                    Catch::Contains("child 'i' has 2 rows, short of the union's offset 0 + size 3"));
}

TEST_CASE("unions: a dense union's offsets into a child may not decrease, as Arrow requires", "[union]") {
  auto const ints = devcol::any_column<>(devcol::make_column<std::int64_t>({1, 2, 3, 4, 5}));
  auto const strings = devcol::any_column<>(devcol::make_strings_column({"a", "b"}));
  // Row 2 reads child 3's row 0 after row 0 read its row 4: Arrow C++'s ValidateFull refuses it.
  CHECK_THROWS_WITH(devcol::make_union_column(devcol::union_mode::dense, {3, 7}, {{"i", ints}, {"s", strings}},
                                              {3, 7, 3}, {4, 0, 0}),
                    Catch::Contains("row 2 has type id 3 and offset 0, below offset 4"));
  // Equal offsets (a child row read twice) and the other child's offsets interleaved are Arrow's.
  auto const ok = devcol::make_union_column(devcol::union_mode::dense, {3, 7}, {{"i", ints}, {"s", strings}},
                                            {3, 7, 3, 7, 3}, {1, 0, 1, 1, 4});
  CHECK(host_text(ok) == std::vector<std::string>{"{3: 2}", "{7: \"a\"}", "{3: 2}", "{7: \"b\"}", "{3: 5}"});
}

TEST_CASE("unions: gather, filter, concatenate and is_null keep the union type", "[union][ops]") {
  devcol_test::leak_check leaks;
  for (auto const mode : {devcol::union_mode::sparse, devcol::union_mode::dense}) {
    auto const col = union_of(mode).slice(13, 37);
    auto const rows = host_text(col);
    auto const g = devcol::gather(col, devcol::make_column<std::int32_t>({23, std::nullopt, 0, 2, 1, 2, 3, 7}));
    STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(g)>, union_col>);
    CHECK(g.mode() == mode);
    CHECK(g.type_codes() == std::vector<std::int8_t>{3, 7});
    CHECK(host_text(g) == std::vector<std::string>{rows[23], "null", rows[0], rows[2], rows[1], rows[2], rows[3], rows[7]});
    if (mode == devcol::union_mode::dense) {  // each child's offsets count its rows in order
      std::vector<std::int8_t> type_ids(8);
      std::vector<std::int32_t> offsets(8);
      devcol::copy_bytes(type_ids.data(), g.type_ids(devcol::access::read), 8, {});
      devcol::copy_bytes(offsets.data(), g.offsets(devcol::access::read), 8 * sizeof(std::int32_t), {});
      std::int32_t next[2] = {0, 0};
      for (std::size_t i = 0; i < 8; ++i) { CHECK(offsets[i] == next[type_ids[i] == 3 ? 0 : 1]++); }
      CHECK(devcol::size(g.child(0)) + devcol::size(g.child(1)) == 8);
    }
    CHECK_THROWS_WITH(devcol::gather(col, devcol::make_column<std::int32_t>({24})), Catch::Contains("index 24 at row 0"));
    CHECK(host_text(devcol::gather(col, devcol::make_column<std::int32_t>({24}), {}, devcol::out_of_bounds::nullify)) ==
          std::vector<std::string>{"null"});
    CHECK(devcol::gather(col, devcol::make_column<std::int32_t>(std::vector<std::int32_t>{})).size() == 0);

    CHECK(check_filter_of_thirds(col, rows).mode() == mode);

    auto const c = devcol::concatenate(std::vector<union_col>{col.slice(1, 4), col.slice(9, 24), col.slice(2, 3)});
    std::vector<std::string> all(rows.begin() + 1, rows.begin() + 4);
    all.insert(all.end(), rows.begin() + 9, rows.end());
    all.push_back(rows[2]);
    CHECK(host_text(c) == all);
    CHECK(c.offset() == 0);

    check_null_masks_and_any_column(col, rows);
  }
  CHECK_THROWS_WITH(devcol::concatenate(std::vector<union_col>{union_of(devcol::union_mode::sparse),
                                                               union_of(devcol::union_mode::dense)}),
                    Catch::Contains("dense_union<i: int64=3, s: string=7>") &&
                        Catch::Contains("sparse_union<i: int64=3, s: string=7>"));
}

TEST_CASE("unions: is_null of a short slice of a long sparse union reads the slice's rows of each child",
          "[union][ops]") {
  devcol_test::leak_check leaks;
  auto const stats = devcol::mr::make_resource_handle<devcol::mr::statistics<devcol_test::device_memory>>("stats");
  devcol::mr::scoped_default const scope(stats);
  auto const bytes_allocated = [&] { return stats.target<devcol::mr::statistics<devcol_test::device_memory>>()->report().bytes.total; };
  std::size_t const n = 100003;
  // Children of every way a row's flag is found: a plain nullable column, a dictionary whose value
  // is null, a run-end encoded column, and a sparse union nested in the sparse union.
  std::vector<std::optional<std::int64_t>> ints(n);
  std::vector<std::optional<std::int8_t>> codes(n);
  std::vector<std::int8_t> ids(n), inner_ids(n);
  for (std::size_t r = 0; r < n; ++r) {
    ints[r] = r % 5 == 2 ? std::nullopt : std::optional<std::int64_t>(static_cast<std::int64_t>(r));
    codes[r] = r % 7 == 3 ? std::nullopt : std::optional<std::int8_t>(static_cast<std::int8_t>(r % 3));
    ids[r] = static_cast<std::int8_t>(r % 4);
    inner_ids[r] = static_cast<std::int8_t>(r % 2);
  }
  devcol::any_column<> const plain(devcol::make_column<std::int64_t>(ints));
  devcol::any_column<> const dictionary(devcol::make_dictionary_column(
      devcol::make_column<std::int8_t>(codes), devcol::make_strings_column({std::optional<std::string>("a"), std::nullopt,
                                                                            std::optional<std::string>("c")})));
  std::vector<std::int32_t> ends;
  std::vector<std::optional<double>> run_values;
  for (std::size_t r = 10; r < n; r += 10) {
    ends.push_back(static_cast<std::int32_t>(r));
    run_values.push_back(r % 30 == 0 ? std::nullopt : std::optional<double>(0.5));
  }
  ends.push_back(static_cast<std::int32_t>(n));
  run_values.push_back(1.0);
  devcol::any_column<> const runs(devcol::make_run_end_encoded_column(
      devcol::run_ends_column<>(devcol::make_column<std::int32_t>(ends)), devcol::any_column<>(devcol::make_column<double>(run_values))));
  devcol::any_column<> const inner(devcol::make_union_column(devcol::union_mode::sparse, {0, 1}, {{"p", plain}, {"d", dictionary}},
                                                             inner_ids, {}));
  auto const whole = devcol::make_union_column(devcol::union_mode::sparse, {0, 1, 2, 3},
                                               {{"p", plain}, {"d", dictionary}, {"r", runs}, {"u", inner}}, ids, {});
  auto const row_is_null = [&](std::size_t r) {
    bool const plain_null = r % 5 == 2;
    bool const dictionary_null = r % 7 == 3 || r % 3 == 1;
    switch (r % 4) {
      case 0: return plain_null;
      case 1: return dictionary_null;
      case 2: return r < n / 10 * 10 && (r / 10 + 1) * 10 % 30 == 0;  // the run ending at a multiple of 30
      default: return r % 2 == 0 ? plain_null : dictionary_null;
    }
  };
  for (std::size_t const first : {std::size_t{0}, std::size_t{1}, std::size_t{63}, std::size_t{50001}, n - 5}) {
    INFO("rows from " << first);
    std::size_t const rows = std::min<std::size_t>(5, n - first);
    auto const part = whole.slice(first, first + rows);
    auto const before = bytes_allocated();
    auto const flags = devcol::is_null(part);
    auto const used = bytes_allocated() - before;
    auto const nulls = devcol::to_host(flags);
    auto const valid = devcol::to_host(devcol::is_valid(part));
    REQUIRE(nulls.size() == rows);
    for (std::size_t i = 0; i < rows; ++i) {
      INFO("row " << first + i);
      CHECK(*nulls[i] == row_is_null(first + i));
      CHECK(*valid[i] == !row_is_null(first + i));
    }
    // Flags for the slice's rows of each child, not the children's 100003 rows (a dictionary's
    // values and a run-end encoded column's runs are read whole: they are the column's own size).
    CHECK(used < static_cast<std::int64_t>(n / 10 + 256));
  }
}

TEST_CASE("arrow unions: devcol -> Arrow -> devcol at an odd offset, zero-copy, type codes kept", "[union][arrow]") {
  devcol_test::leak_check leaks;
  for (auto const mode : {devcol::union_mode::sparse, devcol::union_mode::dense}) {
    bool const dense = mode == devcol::union_mode::dense;
    auto const col = union_of(mode).slice(13, 37);
    {
      exported e;
      devcol::to_arrow(col, &e.schema, &e.array);
      CHECK(std::string(e.schema.format) == (dense ? "+ud:3,7" : "+us:3,7"));
      REQUIRE(e.schema.n_children == 2);
      CHECK(std::string(e.schema.children[0]->name) == "i");
      CHECK(std::string(e.schema.children[1]->name) == "s");
      CHECK(e.array.array.n_buffers == (dense ? 2 : 1));
      CHECK(e.array.array.null_count == 0);
      CHECK(e.array.array.offset == 13);
      CHECK(e.array.array.length == 24);
      CHECK(static_cast<std::int8_t const*>(e.array.array.buffers[0]) + 13 == col.type_ids(devcol::access::read));
      auto const back = devcol::from_arrow<union_col>(&e.schema, &e.array);
      CHECK(back.offset() == 13);
      CHECK(back.is_borrowed());
      CHECK(back.type_ids(devcol::access::read) == col.type_ids(devcol::access::read));  // zero-copy
      CHECK(host_text(back) == host_text(col));
    }
    {
      exported e;
      devcol::to_arrow(devcol::any_column<>(col), &e.schema, &e.array);
      auto const any = devcol::any_from_arrow(&e.schema, &e.array);
      REQUIRE(devcol::holds_alternative<union_col>(any));
      CHECK(host_text(devcol::get<union_col>(any)) == host_text(col));
    }
    {
      exported e;  // no rows, no buffers: zeroed stand-ins
      devcol::to_arrow(union_col{}, &e.schema, &e.array);
      CHECK(std::string(e.schema.format) == "+us:");
      CHECK(e.array.array.buffers[0] != nullptr);
      CHECK(devcol::from_arrow<union_col>(&e.schema, &e.array).size() == 0);
    }
  }
}

TEST_CASE("arrow unions: malformed arrays are refused naming the value", "[union][arrow]") {
  devcol_test::leak_check leaks;
  auto const refused = [](union_col const& col, auto&& spoil) {
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    spoil(e);
    return arrow_error_of([&] { (void)devcol::any_from_arrow(&e.schema, &e.array); });
  };
  auto const sparse = union_of(devcol::union_mode::sparse, 20).slice(13, 20);
  auto const dense = union_of(devcol::union_mode::dense, 20).slice(13, 20);
  CHECK_THAT(refused(sparse, [](exported& e) { e.schema.format = "+us:3,8"; }),
             Catch::Contains("array: row 15 has type id 7, not one of the type codes of '+us:3,8'"));
  CHECK_THAT(refused(dense,
                     [](exported& e) {
                       e.array.array.children[0]->length = 2;
                       e.array.array.children[0]->null_count = -1;  // unknown: counted over the 2 rows
                     }),
             Catch::Contains("array: row 13 (type id 3) has offset 8, not within the 2 rows of child 0"));
  {  // a child's offsets that decrease: Arrow requires them in increasing order
    auto const spoiled = union_of(devcol::union_mode::dense, 20).slice(13, 20);
    exported e;
    devcol::to_arrow(spoiled, &e.schema, &e.array);
    auto const* ids = static_cast<std::int8_t const*>(e.array.array.buffers[0]);
    auto* offsets = const_cast<std::int32_t*>(static_cast<std::int32_t const*>(e.array.array.buffers[1]));
    std::size_t later = 14;  // the window's next row of row 13's child
    while (ids[later] != ids[13]) { ++later; }
    REQUIRE(offsets[13] > 0);
    offsets[later] = 0;
    CHECK_THAT(arrow_error_of([&] { (void)devcol::any_from_arrow(&e.schema, &e.array); }),
               Catch::Contains("array: row " + std::to_string(later) + " (type id " + std::to_string(int{ids[13]}) +
                               ") has offset 0, below offset " + std::to_string(offsets[13]) +
                               " of an earlier row of that child"));
  }
  CHECK_THAT(refused(sparse, [](exported& e) { e.schema.format = "+us:3"; }),
             Catch::Contains("n_children is 2, the union '+us:3' declares 1 type codes") ||
                 Catch::Contains("n_children is 2, the sparse union '+us:3' declares 1 type codes"));
  CHECK_THAT(refused(sparse, [](exported& e) { e.schema.format = "+us:3,x"; }),
             Catch::Contains("type code 'x' is not a number in 0..127"));
  CHECK_THAT(refused(sparse, [](exported& e) { e.schema.format = "+ud:3,3"; }),
             Catch::Contains("type code 3 is declared twice"));
  CHECK_THAT(refused(sparse, [](exported& e) { e.schema.format = "+us:3,128"; }),
             Catch::Contains("type code '128' is not a number in 0..127"));
  // a long code is refused before its digits could overflow (the fuzzer's find, under UBSan)
  CHECK_THAT(refused(sparse, [](exported& e) { e.schema.format = "+us:3,7999999999999"; }),
             Catch::Contains("type code '7999999999999' is not a number in 0..127"));
  CHECK_THAT(refused(sparse, [](exported& e) { e.array.array.n_buffers = 2; }),
             Catch::Contains("array.n_buffers is 2, a sparse union array has 1 (type ids)"));
  CHECK_THAT(refused(sparse, [](exported& e) { e.schema.format = "+ud:3,7"; }),
             Catch::Contains("array.n_buffers is 1, a dense union array has 2 (type ids, offsets)"));
  CHECK_THAT(refused(sparse, [](exported& e) { e.array.array.null_count = 3; }),
             Catch::Contains("array.null_count is 3, a sparse union's is 0"));
  CHECK_THAT(refused(sparse, [](exported& e) { e.array.array.children[1]->length = 5; }),
             Catch::Contains("array.children[1].length 5 is short of the sparse union's offset 13 + length 7"));
  CHECK_THAT(refused(dense, [](exported& e) { e.array.array.buffers[1] = nullptr; }),
             Catch::Contains("array.buffers[1] (offsets) is NULL for 20 rows"));
  CHECK_THAT(refused(sparse, [](exported& e) { e.array.array.buffers[0] = nullptr; }),
             Catch::Contains("array.buffers[0] (type ids) is NULL for 20 rows"));
}
