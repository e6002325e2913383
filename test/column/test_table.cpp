// Tables: named columns of mixed types, all of one size.
#include "../support.hpp"

#include <cstdint>
#include <string>
#include <vector>

// The fixed-width list that the precompiled declarations expand (types.hpp) is any_column's
// fixed-width kinds. Checked here, not in table.hpp: the check instantiates any_column and the 50
// kinds it holds, which a file that includes the header without naming a table need not pay for.
// In devcol's namespace, where the list's names are.
namespace devcol {
#define DEVCOL_TABLE_COUNT_TYPE(T) +1
#define DEVCOL_TABLE_IS_ALTERNATIVE(T) &&detail::is_alternative<column<T>, any_column<>>::value
static_assert(0 DEVCOL_FOR_EACH_FIXED_WIDTH_TYPE(DEVCOL_TABLE_COUNT_TYPE) == 29 &&
                  (true DEVCOL_FOR_EACH_FIXED_WIDTH_TYPE(DEVCOL_TABLE_IS_ALTERNATIVE)),
              "types.hpp: DEVCOL_FOR_EACH_FIXED_WIDTH_TYPE must list any_column's 29 fixed-width value types");
#undef DEVCOL_TABLE_COUNT_TYPE
#undef DEVCOL_TABLE_IS_ALTERNATIVE
}  // namespace devcol

TEST_CASE("a table holds named columns of mixed types, select by name and index, add, drop", "[table]") {
  devcol_test::leak_check leaks;
  devcol::table t;
  t.add("id", devcol::sequence<std::int64_t>(4))
      .add("price", devcol::make_column<double>({1.5, std::nullopt, 3.0, 4.0}))
      .add("flag", devcol::make_column<bool>({true, false, true, false}));
  CHECK(t.num_columns() == 3);
  CHECK(t.num_rows() == 4);
  CHECK(t.names() == std::vector<std::string>{"id", "price", "flag"});
  CHECK(t.get<double>("price").null_count() == 1);
  CHECK(t.get<std::int64_t>(0).size() == 4);
  CHECK(t.name(2) == "flag");
  CHECK(t.format("price") == "g");
  CHECK(t.contains("id"));

  std::size_t const live = leaks.live();
  auto const some = t.select({"flag", "id"});
  CHECK(leaks.live() == live);  // selecting shares the columns' buffers
  CHECK(some.names() == std::vector<std::string>{"flag", "id"});
  CHECK(some.get<std::int64_t>("id").data(devcol::access::read) == t.get<std::int64_t>("id").data(devcol::access::read));
  CHECK(t.select(std::vector<std::size_t>{1}).names() == std::vector<std::string>{"price"});

  t.drop("price");
  CHECK(t.names() == std::vector<std::string>{"id", "flag"});
  CHECK(devcol::holds_alternative<devcol::column<bool>>(t[1]));
}

TEST_CASE("a table's format and type name of a timestamp carry its field's time zone, as its export does",
          "[table]") {
  devcol_test::leak_check leaks;
  devcol::table t;
  devcol::field_info zoned;
  zoned.time_zone = "America/New_York";
  t.add("at", devcol::make_column<devcol::timestamp_ns>({devcol::timestamp_ns{}}), zoned)
      .add("plain", devcol::make_column<devcol::timestamp_s>({devcol::timestamp_s{}}))
      .add("day", devcol::make_column<devcol::date32>({devcol::date32{}}), zoned);  // a zone fits no date
  CHECK(t.format("at") == "tsn:America/New_York");
  CHECK(t.type_name("at") == "timestamp[ns, tz=America/New_York]");  // pyarrow's str(pa.timestamp("ns", tz=...))
  CHECK(t.format("plain") == "tss:");
  CHECK(t.type_name("plain") == "timestamp[s]");
  CHECK(t.format("day") == "tdD");
  CHECK(t.type_name("day") == "date32[day]");
  ArrowSchema schema;
  devcol::to_arrow_schema(t, &schema);
  CHECK(std::string(schema.children[0]->format) == t.format("at"));
  CHECK(std::string(schema.children[2]->format) == t.format("day"));
  schema.release(&schema);
}

TEST_CASE("a table may repeat a name, as an Arrow schema may: lookups by it throw, indices reach each", "[table]") {
  devcol_test::leak_check leaks;
  devcol::table t;
  t.add("a", devcol::sequence<std::int32_t>(3)).add("b", devcol::sequence<double>(3)).add("a", devcol::sequence<std::int64_t>(3, 10));
  CHECK(t.names() == std::vector<std::string>{"a", "b", "a"});
  CHECK(t.contains("a"));
  CHECK(t.get<double>("b").size() == 3);  // a name no other column has is reached as before
  for (std::string const op : {"get", "operator[]", "field", "format", "drop", "select", "set_field"}) {
    INFO(op);
    auto const lookup = [&] {
      if (op == "get") { (void)t.get<std::int32_t>("a"); }
      if (op == "operator[]") { (void)t["a"]; }
      if (op == "field") { (void)t.field("a"); }
      if (op == "format") { (void)t.format("a"); }
      if (op == "drop") { t.drop("a"); }
      if (op == "select") { (void)t.select({"b", "a"}); }
      if (op == "set_field") { t.set_field("a", {}); }
    };
    CHECK_THROWS_WITH(lookup(), Catch::Contains("2 columns are named 'a': name one by its index"));
  }
  CHECK(t.num_columns() == 3);  // nothing changed
  CHECK(devcol::to_host(t.get<std::int64_t>(2)) == std::vector<std::optional<std::int64_t>>{10, 11, 12});
  devcol::field_info info;
  info.nullable = false;
  t.set_field(2, info);
  CHECK(t.field(2).name == "a");
  CHECK_FALSE(t.field(2).nullable);
  CHECK(t.field(0).nullable);
  CHECK_THROWS_WITH(t.set_field(3, info), Catch::Contains("column index 3 is out of range for 3 columns"));
  CHECK_THROWS_WITH(t.drop(std::size_t{3}), Catch::Contains("column index 3 is out of range for 3 columns"));
  t.drop(std::size_t{0});
  CHECK(t.names() == std::vector<std::string>{"b", "a"});
  CHECK(t.get<std::int64_t>("a").size() == 3);  // one left: reached by name again
  CHECK_FALSE(t.field("a").nullable);
}

TEST_CASE("select keeps the schema's metadata, even when it keeps no column", "[table]") {
  // pyarrow's Table.select([]) keeps it too: the metadata is the schema's, not any column's.
  devcol_test::leak_check leaks;
  devcol::table t;
  t.add("a", devcol::sequence<std::int32_t>(3)).set_metadata({{"pandas", "{}"}, {"", ""}});
  CHECK(t.select({"a"}).metadata() == t.metadata());
  CHECK(t.select(std::vector<std::size_t>{}).metadata() == t.metadata());
  CHECK(t.select(std::initializer_list<std::string_view>{}).metadata() == t.metadata());
}

TEST_CASE("a table refuses bad input with messages naming it", "[table][errors]") {
  devcol_test::leak_check leaks;
  devcol::table t;
  t.add("a", devcol::sequence<std::int32_t>(3));
  CHECK_THROWS_WITH(t.add("b", devcol::sequence<std::int32_t>(5)), Catch::Contains("column 'b' has 5 rows, the table 3"));
  CHECK_THROWS_WITH(t.get<double>("a"), Catch::Contains("column 'a' holds int32, not float64"));
  CHECK_THROWS_WITH(t.get<std::int32_t>("zz"), Catch::Contains("no column named 'zz'"));
  CHECK_THROWS_WITH(t[7], Catch::Contains("column index 7 is out of range for 1 columns"));
  CHECK_THROWS_AS(t.drop("nope"), devcol::logic_error);
  CHECK_THROWS_AS(t.select({"a", "nope"}), devcol::logic_error);
  CHECK(t.num_columns() == 1);  // nothing changed
}
