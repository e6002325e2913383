// Arrow C Device Data Interface: export, import, ownership and the checks of untrusted input.
#include "interop_support.hpp"

#include <devcol/column/factories.hpp>
#include <devcol/column/table.hpp>
#include <devcol/column/to_host.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/from_arrow.hpp>
#include <devcol/interop/to_arrow.hpp>

#include <catch2/catch.hpp>

#include <cstring>
#include <limits>
#include <string_view>
#include <vector>

using devcol_test::leak_check;
using devcol_test::interop::arrow_error_of;
using devcol_test::interop::exported;
using devcol_test::interop::model_of;
using devcol_test::interop::release_counter;
using Catch::Contains;
using i64 = std::int64_t;

#if DEVCOL_BACKEND_CUDA
constexpr ArrowDeviceType backend_device = ARROW_DEVICE_CUDA;
constexpr ArrowDeviceType foreign_device = ARROW_DEVICE_CPU;
#else
constexpr ArrowDeviceType backend_device = ARROW_DEVICE_CPU;
constexpr ArrowDeviceType foreign_device = ARROW_DEVICE_CUDA;
#endif

TEST_CASE("arrow: the ABI structs have the specification's layout", "[arrow]") {
  STATIC_REQUIRE(sizeof(ArrowDeviceArray) == 128);
  STATIC_REQUIRE(offsetof(ArrowDeviceArray, device_id) == 80);
  STATIC_REQUIRE(offsetof(ArrowDeviceArray, device_type) == 88);
  STATIC_REQUIRE(offsetof(ArrowDeviceArray, sync_event) == 96);
  STATIC_REQUIRE(ARROW_DEVICE_CUDA == 2 && ARROW_DEVICE_CUDA_MANAGED == 13 && ARROW_FLAG_NULLABLE == 2);
}

TEST_CASE("arrow: export is zero-copy, holds a live handle, and release frees only what it made", "[arrow]") {
  leak_check leaks;
  auto col = devcol::make_column<i64>({1, std::nullopt, 3, 4, 5, 6, 7, 8, 9, 10});
  auto const slice = col.slice(3, 9);
  std::size_t const before = leaks.live();
  exported e;
  e.array.reserved[1] = 42;  // stale bytes: the export zeroes them
  devcol::to_arrow(slice, &e.schema, &e.array, {}, "x");
  CHECK(leaks.live() == before);  // nothing allocated for fixed width
  CHECK(std::string_view(e.schema.format) == "l");
  CHECK(std::string_view(e.schema.name) == "x");
  CHECK(e.schema.flags == ARROW_FLAG_NULLABLE);
  CHECK(e.schema.n_children == 0);
  ArrowArray const& a = e.array.array;
  CHECK(a.length == 6);
  CHECK(a.offset == 3);  // values and mask keep the column's offset
  CHECK(a.null_count == 0);
  CHECK(a.n_buffers == 2);
  CHECK(a.buffers[1] == col.data_buffer().data(devcol::access::read));
  CHECK(a.buffers[0] == col.mask_buffer().data(devcol::access::read));
  CHECK(e.array.device_type == backend_device);
#if !DEVCOL_BACKEND_CUDA
  CHECK(e.array.device_id == -1);
  CHECK(e.array.sync_event == nullptr);
#else
  CHECK(e.array.sync_event != nullptr);
#endif
  CHECK(e.array.reserved[0] == 0);
  CHECK(e.array.reserved[1] == 0);
  CHECK(e.array.reserved[2] == 0);
  CHECK(col.data_buffer().use_count() == 3);  // col, slice, the export

  // A write through devcol copies: the exported memory stays as it was.
  devcol_test::assign(col, 4, std::vector<i64>{-5});
  CHECK(col.data_buffer().data(devcol::access::read) != a.buffers[1]);
  CHECK(devcol::to_host(devcol::from_arrow<i64>(&e.schema, &e.array))[1] == 5);
  CHECK(e.array.array.release == nullptr);
  CHECK(e.schema.release == nullptr);
  CHECK(slice.data_buffer().use_count() == 1);
}

TEST_CASE("arrow: an exported base struct moves, and its release runs once from its new place", "[arrow]") {
  leak_check leaks;
  auto col = devcol::make_column<double>({1.5, 2.5, std::nullopt});
  ArrowSchema schema;
  ArrowDeviceArray first;
  devcol::to_arrow(col, &schema, &first);
  ArrowDeviceArray moved;
  std::memcpy(&moved, &first, sizeof moved);  // the specification's move: copy, then mark the source released
  first.array.release = nullptr;
  CHECK(col.data_buffer().use_count() == 2);
  moved.array.release(&moved.array);
  CHECK(moved.array.release == nullptr);
  CHECK(col.data_buffer().use_count() == 1);
  schema.release(&schema);
  CHECK(schema.release == nullptr);
}

TEST_CASE("arrow: a table exports as a struct array whose release skips children moved out", "[arrow]") {
  leak_check leaks;
  devcol::table t;
  t.add("a", devcol::make_column<std::int32_t>({1, 2, std::nullopt, 4}));
  t.add("b", devcol::make_column<bool>({true, false, std::nullopt, true}));
  exported e;
  devcol::to_arrow(t, &e.schema, &e.array);
  CHECK(std::string_view(e.schema.format) == "+s");
  REQUIRE(e.schema.n_children == 2);
  CHECK(std::string_view(e.schema.children[1]->name) == "b");
  CHECK(std::string_view(e.schema.children[1]->format) == "b");
  ArrowArray& a = e.array.array;
  CHECK(a.n_buffers == 1);
  CHECK(a.buffers[0] == nullptr);
  CHECK(a.null_count == 0);
  REQUIRE(a.n_children == 2);
  CHECK(a.children[0]->null_count == 1);
  CHECK(a.children[1]->null_count == 1);
  // A consumer takes child 0 for itself, then releases the parent, then the child.
  ArrowArray child;
  std::memcpy(&child, a.children[0], sizeof child);
  a.children[0]->release = nullptr;
  a.release(&a);
  CHECK(a.release == nullptr);
  CHECK(t.get<std::int32_t>("a").data_buffer().use_count() == 2);  // the moved-out child still holds it
  child.release(&child);
  CHECK(t.get<std::int32_t>("a").data_buffer().use_count() == 1);
}

TEMPLATE_TEST_CASE("arrow: devcol -> Arrow -> devcol is bit-exact, sliced and not", "[arrow][roundtrip]", DEVCOL_INTEROP_ALL_TYPES) {
  leak_check leaks;
  using T = TestType;
  for (std::size_t n : {0, 1, 63, 64, 65, 300}) {
    for (bool nulls : {false, true}) {
      auto const model = model_of<T>(n, nulls);
      auto const col = devcol::make_column<T>(model);
      for (auto [begin, end] : {std::pair<std::size_t, std::size_t>{0, n}, {n / 3, n - n / 5}, {n / 2 + (n > 4), n}}) {
        CAPTURE(n, nulls, begin, end);
        auto const part = col.slice(begin, end);
        exported e;
        devcol::to_arrow(part, &e.schema, &e.array);
        CHECK(std::string_view(e.schema.format) == devcol::arrow_format_v<T>);
        CHECK(e.array.array.null_count == static_cast<i64>(part.null_count()));
        auto const back = devcol::from_arrow<T>(&e.schema, &e.array);
        CHECK(back.size() == end - begin);
        CHECK(back.null_count() == part.null_count());
        CHECK(devcol::to_host(back) == std::vector<std::optional<T>>(model.begin() + static_cast<std::ptrdiff_t>(begin),
                                                                     model.begin() + static_cast<std::ptrdiff_t>(end)));
        if (!std::is_same_v<T, bool> && end > begin) {
          CHECK(back.data(devcol::access::read) == part.data(devcol::access::read));  // zero-copy both ways
        }
      }
    }
  }
}

TEST_CASE("arrow: a table round-trips, names and types kept, the struct's offset selecting rows", "[arrow][roundtrip]") {
  leak_check leaks;
  devcol::table t;
  t.add("id", devcol::make_column<i64>(model_of<i64>(100, false)));
  t.add("flag", devcol::make_column<bool>(model_of<bool>(100, true)));
  t.add("at", devcol::make_column<devcol::timestamp_us>(model_of<devcol::timestamp_us>(100, true)));
  exported e;
  devcol::to_arrow(t, &e.schema, &e.array);
  // Slice the record batch as Arrow does: the struct's offset and length, children untouched.
  e.array.array.offset = 11;
  e.array.array.length = 70;
  auto const back = devcol::table_from_arrow(&e.schema, &e.array);
  REQUIRE(back.names() == std::vector<std::string>{"id", "flag", "at"});
  CHECK(back.num_rows() == 70);
  auto const expect = [](auto model) { return decltype(model)(model.begin() + 11, model.begin() + 81); };
  CHECK(devcol::to_host(back.get<i64>("id")) == expect(model_of<i64>(100, false)));
  CHECK(devcol::to_host(back.get<bool>("flag")) == expect(model_of<bool>(100, true)));
  CHECK(devcol::to_host(back.get<devcol::timestamp_us>("at")) == expect(model_of<devcol::timestamp_us>(100, true)));
  CHECK(back.get<devcol::timestamp_us>("at").null_count() == 23);  // recounted for the struct's rows
}

TEST_CASE("arrow: a record batch whose columns repeat a name round-trips, each column in its place", "[arrow][roundtrip]") {
  leak_check leaks;
  devcol::table t;
  t.add("x", devcol::make_column<i64>(model_of<i64>(20, true)));
  t.add("y", devcol::make_column<bool>(model_of<bool>(20, false)));
  t.add("x", devcol::make_column<double>(model_of<double>(20, true)));  // as a query's `SELECT x, y, z AS x` gives
  exported e;
  devcol::to_arrow(t, &e.schema, &e.array);
  REQUIRE(e.schema.n_children == 3);
  CHECK(std::string{e.schema.children[0]->name} == "x");
  CHECK(std::string{e.schema.children[2]->name} == "x");
  auto const back = devcol::table_from_arrow(&e.schema, &e.array);
  REQUIRE(back.names() == std::vector<std::string>{"x", "y", "x"});
  CHECK(devcol::to_host(back.get<i64>(0)) == model_of<i64>(20, true));
  CHECK(devcol::to_host(back.get<bool>("y")) == model_of<bool>(20, false));
  CHECK(devcol::to_host(back.get<double>(2)) == model_of<double>(20, true));
}

TEST_CASE("arrow: import keeps the producer's memory until the last handle goes, then releases once", "[arrow]") {
  leak_check leaks;
  auto const col = devcol::make_column<i64>(model_of<i64>(50, true));
  exported e;
  devcol::to_arrow(col, &e.schema, &e.array);
  release_counter::watch(e.schema, e.array);
  std::optional<devcol::column<i64>> imported = devcol::from_arrow<i64>(&e.schema, &e.array);
  CHECK(release_counter::schemas == 1);  // the schema is not kept
  CHECK(release_counter::arrays == 0);
  CHECK(e.array.array.release == nullptr);  // ownership moved
  CHECK(imported->is_borrowed());
  auto slice = imported->slice(5, 20);
  auto copy = *imported;
  imported.reset();
  CHECK(release_counter::arrays == 0);
  {
    auto const moved = std::move(slice);
    CHECK(release_counter::arrays == 0);
  }
  CHECK(release_counter::arrays == 0);
  copy = devcol::column<i64>{};
  CHECK(release_counter::arrays == 1);
  CHECK(col.data_buffer().use_count() == 1);
}

TEST_CASE("arrow: imported memory is never written: a write copies first", "[arrow]") {
  leak_check leaks;
  auto const col = devcol::make_column<i64>({1, 2, 3});
  exported e;
  devcol::to_arrow(col, &e.schema, &e.array);
  auto imported = devcol::from_arrow<i64>(&e.schema, &e.array);
  auto const* producer = imported.data(devcol::access::read);
  devcol_test::assign(imported, 0, std::vector<i64>{9});
  CHECK(imported.data(devcol::access::read) != producer);
  CHECK_FALSE(imported.is_borrowed());
  CHECK(devcol_test::host_values(imported) == std::vector<i64>{9, 2, 3});
  CHECK(devcol_test::host_values(col) == std::vector<i64>{1, 2, 3});
}

TEST_CASE("arrow: an exposed column exports a snapshot, not memory a third party may write", "[arrow]") {
  leak_check leaks;
  auto col = devcol::make_column<i64>({1, 2, 3});
  i64* raw = col.expose();
  exported e;
  devcol::to_arrow(col, &e.schema, &e.array);
  CHECK(e.array.array.buffers[1] != raw);
  CHECK(devcol::to_host(devcol::from_arrow<i64>(&e.schema, &e.array)) == devcol::to_host(col));
}

namespace {
// A fresh valid export of an int64 column, for the checks to spoil one field of.
struct spoiled : exported {
  explicit spoiled(std::size_t rows = 10, bool nulls = true) {
    devcol::to_arrow(devcol::make_column<i64>(model_of<i64>(rows, nulls)), &schema, &array);
    release_counter::watch(schema, array);
  }
  /// Imports as int64, expecting a devcol::arrow_error containing `what`, with both structs released once.
  void rejects(std::string const& what) {
    std::string const message = arrow_error_of([&] { (void)devcol::from_arrow<i64>(&schema, &array); });
    CHECK_THAT(message, Contains(what));
    CHECK(release_counter::schemas == 1);
    CHECK(release_counter::arrays == 1);
    CHECK(schema.release == nullptr);
    CHECK(array.array.release == nullptr);
  }
  void accepts() {
    CHECK_NOTHROW((void)devcol::from_arrow<i64>(&schema, &array));
    CHECK(release_counter::arrays == 1);
  }
};
}  // namespace

TEST_CASE("arrow: import checks untrusted input and releases it on every failure", "[arrow][validation]") {
  leak_check leaks;
  SECTION("NULL structs") {
    spoiled s;
    CHECK_THAT(arrow_error_of([&] { (void)devcol::from_arrow<i64>(nullptr, &s.array); }), Contains("ArrowSchema is NULL"));
    CHECK(release_counter::arrays == 1);
    spoiled t;
    CHECK_THAT(arrow_error_of([&] { (void)devcol::from_arrow<i64>(&t.schema, nullptr); }),
               Contains("ArrowDeviceArray is NULL"));
    CHECK(release_counter::schemas == 1);
  }
  SECTION("released base schema") {
    spoiled s;
    auto const release = s.schema.release;
    s.schema.release = nullptr;
    CHECK_THAT(arrow_error_of([&] { (void)devcol::from_arrow<i64>(&s.schema, &s.array); }),
               Contains("schema is released"));
    CHECK(release_counter::arrays == 1);
    s.schema.release = release;  // the fixture's cleanup frees it
  }
  SECTION("released base array") {
    spoiled s;
    auto const release = s.array.array.release;
    s.array.array.release = nullptr;
    CHECK_THAT(arrow_error_of([&] { (void)devcol::from_arrow<i64>(&s.schema, &s.array); }), Contains("array is released"));
    CHECK(release_counter::schemas == 1);
    s.array.array.release = release;
  }
  SECTION("a device type the backend cannot read") {
    spoiled s;
    s.array.device_type = foreign_device;
    s.rejects("array.device_type");
  }
  SECTION("a device type nobody knows") {
    spoiled s;
    s.array.device_type = 99;
    s.rejects("99 (unknown)");
  }
#if !DEVCOL_BACKEND_CUDA
  SECTION("a CPU device id other than -1 or 0") {
    spoiled s;
    s.array.device_id = 3;
    s.rejects("device_id 3");
  }
#endif
  SECTION("a format that is not the column's type") {
    spoiled s;
    s.schema.format = "i";
    s.rejects("format 'i' is not int64");
  }
  SECTION("an unparsable format") {
    spoiled s;
    s.schema.format = "\x01zz";
    s.rejects("is not int64");
  }
  SECTION("NULL format") {
    spoiled s;
    s.schema.format = nullptr;
    s.rejects("schema.format is NULL");
  }
  SECTION("n_buffers not the layout's") {
    spoiled s;
    s.array.array.n_buffers = 3;
    s.rejects("n_buffers is 3");
  }
  SECTION("NULL buffers array") {
    spoiled s;
    s.array.array.buffers = nullptr;
    s.rejects("buffers is NULL");
  }
  SECTION("n_children not the schema's") {
    spoiled s;
    s.array.array.n_children = 1;
    ArrowArray* child = &s.array.array;
    s.array.array.children = &child;
    s.rejects("n_children is 1, its schema has 0");
  }
  SECTION("negative n_children") {
    spoiled s;
    s.schema.n_children = -1;
    s.rejects("n_children is -1");
  }
  SECTION("dictionary in the array, none in the schema") {
    spoiled s;
    spoiled dict;
    s.array.array.dictionary = &dict.array.array;
    s.rejects("dictionary is present, its schema has none");
  }
  SECTION("dictionary in the schema, none in the array") {
    spoiled s;
    spoiled dict;
    s.schema.dictionary = &dict.schema;
    s.rejects("dictionary is NULL, its schema has one");
  }
  SECTION("dictionary-encoded") {
    spoiled s;
    spoiled dict;
    s.schema.dictionary = &dict.schema;
    s.array.array.dictionary = &dict.array.array;
    s.rejects("dictionary-encoded int64 is not supported");
  }
  SECTION("released dictionary") {
    spoiled s;
    spoiled dict;
    auto const release = dict.schema.release;
    dict.schema.release = nullptr;
    s.schema.dictionary = &dict.schema;
    s.array.array.dictionary = &dict.array.array;
    s.rejects("schema.dictionary is released");
    dict.schema.release = release;
  }
  SECTION("negative length") {
    spoiled s;
    s.array.array.length = -1;
    s.rejects("length is -1");
  }
  SECTION("negative offset") {
    spoiled s;
    s.array.array.offset = -3;
    s.rejects("offset is -3");
  }
  SECTION("offset + length overflows") {
    spoiled s;
    s.array.array.offset = std::numeric_limits<i64>::max() - 4;
    s.rejects("overflows");
  }
  SECTION("rows whose bytes overflow") {
    spoiled s;
    s.array.array.offset = std::numeric_limits<i64>::max() - 10;
    s.rejects("bytes overflow");
  }
  SECTION("null_count below -1") {
    spoiled s;
    s.array.array.null_count = -2;
    s.rejects("null_count is -2");
  }
  SECTION("null_count above length") {
    spoiled s;
    s.array.array.null_count = 11;
    s.rejects("null_count is 11 for length 10");
  }
  SECTION("nulls without a bitmap") {
    spoiled s(10, false);
    s.array.array.null_count = 2;
    s.rejects("null_count is 2 without a validity buffer");
  }
  SECTION("NULL values for rows") {
    spoiled s;
    s.array.array.buffers[1] = nullptr;
    s.rejects("buffers[1] (values) is NULL for 10 rows");
  }
  SECTION("a schema nested deeper than 64") {
    spoiled s;
    std::vector<ArrowSchema> chain(70);
    std::vector<ArrowSchema*> links(70);
    for (std::size_t i = 0; i < chain.size(); ++i) {
      chain[i] = ArrowSchema{};
      chain[i].format = "+s";
      chain[i].release = &release_counter::counted_schema;  // never called: children are the parent's
      links[i] = &chain[i];
      if (i + 1 < chain.size()) {
        chain[i].n_children = 1;
        chain[i].children = &links[i + 1];
      }
    }
    s.schema.n_children = 1;
    s.schema.children = &links[0];
    s.rejects("nesting is deeper than 64 levels");
  }
  SECTION("a cycle") {
    spoiled s;
    ArrowSchema* self = &s.schema;
    s.schema.n_children = 1;
    s.schema.children = &self;
    s.rejects("appears twice in the tree: a cycle");
  }
  SECTION("a table whose child is released") {
    devcol::table t;
    t.add("a", devcol::make_column<i64>({1, 2}));
    exported e;
    devcol::to_arrow(t, &e.schema, &e.array);
    release_counter::watch(e.schema, e.array);
    // A consumer moved child 0 out earlier: the parent's release skips it, the test frees it.
    ArrowArray taken;
    std::memcpy(&taken, e.array.array.children[0], sizeof taken);
    e.array.array.children[0]->release = nullptr;
    CHECK_THAT(arrow_error_of([&] { (void)devcol::table_from_arrow(&e.schema, &e.array); }),
               Contains("array.children[0] is released"));
    CHECK(release_counter::arrays == 1);
    CHECK(release_counter::schemas == 1);
    taken.release(&taken);
  }
}

TEST_CASE("arrow: import accepts what the specification allows and producers send", "[arrow][validation]") {
  leak_check leaks;
  SECTION("CPU device id -1 or 0, non-zero reserved, a sync_event on a CPU array") {
    for ([[maybe_unused]] i64 id : {-1, 0}) {  // a CPU device id: unused by the CUDA backend
      spoiled s;
#if !DEVCOL_BACKEND_CUDA
      s.array.device_id = id;
      static int event = 0;
      s.array.sync_event = &event;  // ignored for CPU memory
#endif
      s.array.reserved[0] = 7;
      s.array.reserved[2] = -1;
      s.accepts();
    }
  }
  SECTION("null_count -1: counted") {
    spoiled s(100, true);
    s.array.array.null_count = -1;
    auto const col = devcol::from_arrow<i64>(&s.schema, &s.array);
    CHECK(col.null_count() == 33);
  }
  SECTION("null_count 0 and a NULL bitmap") {
    spoiled s(10, false);
    CHECK(s.array.array.buffers[0] == nullptr);
    s.accepts();
  }
  SECTION("timestamps of any time zone match their unit") {
    exported e;
    devcol::to_arrow(devcol::make_column<devcol::timestamp_ms>(model_of<devcol::timestamp_ms>(5, true)), &e.schema, &e.array);
    e.schema.format = "tsm:Europe/Paris";
    auto const col = devcol::from_arrow<devcol::timestamp_ms>(&e.schema, &e.array);
    CHECK(devcol::to_host(col) == model_of<devcol::timestamp_ms>(5, true));
  }
}

TEST_CASE("arrow: a table import checks its struct and each child", "[arrow][validation]") {
  leak_check leaks;
  auto const make = [](exported& e) {
    devcol::table t;
    t.add("a", devcol::make_column<i64>({1, 2, 3}));
    t.add("b", devcol::make_column<double>({1.0, std::nullopt, 3.0}));
    devcol::to_arrow(t, &e.schema, &e.array);
    release_counter::watch(e.schema, e.array);
  };
  auto const rejects = [](exported& e, std::string const& what) {
    CHECK_THAT(arrow_error_of([&] { (void)devcol::table_from_arrow(&e.schema, &e.array); }), Contains(what));
    CHECK(release_counter::arrays == 1);
    CHECK(release_counter::schemas == 1);
  };
  SECTION("not a struct") {
    exported e;
    make(e);
    e.schema.format = "l";
    rejects(e, "is not a struct ('+s')");
  }
  SECTION("null rows") {
    exported e;
    make(e);
    e.array.array.null_count = 1;
    rejects(e, "null_count is 1 without a validity buffer");
  }
  SECTION("a child shorter than the struct") {
    exported e;
    make(e);
    e.array.array.length = 4;
    rejects(e, "array.children[0].length 3 is short of the struct's offset 0 + length 4");
  }
  SECTION("a child of a type a table does not hold") {
    exported e;
    make(e);
    e.schema.children[1]->format = "vx";  // not an Arrow format ("vu", utf8 view, is imported since issue 19)
    rejects(e, "format 'vx' is not a type devcol imports");
  }
  SECTION("a child whose buffers are wrong") {
    exported e;
    make(e);
    e.array.array.children[1]->n_buffers = 1;
    rejects(e, "array.children[1].n_buffers is 1");
  }
  SECTION("a cycle through the children") {
    exported e;
    make(e);
    ArrowArray* self = &e.array.array;
    e.array.array.children[1] = self;  // the release frees the children it made, not what this points to
    rejects(e, "appears twice in the tree");
  }
}

TEST_CASE("arrow: misaligned producer buffers are copied, not read misaligned", "[arrow]") {
  leak_check leaks;
  // A producer whose values start one byte into its allocation and whose bitmap is not word-aligned.
  std::vector<std::uint64_t> storage(20, 0);
  auto* bytes = reinterpret_cast<std::byte*>(storage.data());
  auto* values = bytes + 1;
  for (i64 i = 0; i < 8; ++i) { std::memcpy(values + i * 8, &i, 8); }
  auto* bitmap = reinterpret_cast<std::uint8_t*>(bytes + 100);
  bitmap[0] = 0b1111'0110;  // rows 0 and 3 null
  static int releases = 0;
  releases = 0;
  void const* buffers[2] = {bitmap, values};
  ArrowSchema schema{};
  schema.format = "l";
  schema.release = [](ArrowSchema* s) { s->release = nullptr; };
  ArrowDeviceArray array{};
  array.array.length = 6;
  array.array.offset = 1;
  array.array.null_count = -1;
  array.array.n_buffers = 2;
  array.array.buffers = buffers;
  array.array.release = [](ArrowArray* a) {
    ++releases;
    a->release = nullptr;
  };
  array.device_type = ARROW_DEVICE_CPU;
  array.device_id = -1;
#if DEVCOL_BACKEND_CUDA
  // Pageable host memory is not the CUDA backend's: rejected, and released.
  CHECK_THAT(arrow_error_of([&] { (void)devcol::from_arrow<i64>(&schema, &array); }), Contains("device_type 1 (CPU)"));
  CHECK(releases == 1);
#else
  auto const col = devcol::from_arrow<i64>(&schema, &array);
  CHECK_FALSE(col.is_borrowed());  // values and bitmap both copied to aligned memory
  CHECK(releases == 1);             // nothing borrowed: the producer's array is released at once
  CHECK(col.null_count() == 1);     // rows 0..5 are bits 1..6 of 0b11110110
  CHECK(devcol::to_host(col) == std::vector<std::optional<i64>>{1, 2, std::nullopt, 4, 5, 6});
#endif
}

// Review findings, each kept as a regression test.

TEST_CASE("arrow: an exposed slice exports a snapshot at its own offset", "[arrow][review]") {
  leak_check leaks;
  auto whole = devcol::sequence<std::int32_t>(100, 0);
  auto part = whole.slice(60, 100);
  whole = devcol::column<std::int32_t>{};  // part is the only handle: expose() does not copy
  (void)part.expose();
  REQUIRE(part.offset() == 60);
  exported e;
  devcol::to_arrow(part, &e.schema, &e.array);
  CHECK(e.array.array.offset == 0);  // the snapshot's rows start at 0
  CHECK(e.array.array.length == 40);
  auto const back = devcol::from_arrow<std::int32_t>(&e.schema, &e.array);
  CHECK(devcol::to_host(back) == devcol::to_host(part));
}

TEST_CASE("arrow: an exposed bool column in a table exports its own bits", "[arrow][review]") {
  leak_check leaks;
  auto flags = devcol::full<bool>(100, true).slice(60, 100);
  (void)flags.expose();
  devcol::table t;
  t.add("f", std::move(flags));
  exported e;
  devcol::to_arrow(t, &e.schema, &e.array);
  auto const back = devcol::table_from_arrow(&e.schema, &e.array);
  CHECK(devcol::to_host(back.get<bool>("f")) == std::vector<std::optional<bool>>(40, true));
}

TEST_CASE("arrow: an exposed nullable slice exports a snapshot of its own rows and validity, bool and not",
          "[arrow][review]") {
  leak_check leaks;
  auto const bools = model_of<bool>(1000, true);
  auto const shorts = model_of<std::int16_t>(1000, true);
  auto flags = devcol::make_column<bool>(bools).slice(901, 977);
  auto values = devcol::make_column<std::int16_t>(shorts).slice(901, 977);
  (void)flags.expose();
  (void)values.expose();
  exported f;
  exported v;
  devcol::to_arrow(flags, &f.schema, &f.array);
  devcol::to_arrow(values, &v.schema, &v.array);
  for (auto const* e : {&f, &v}) {
    CHECK(e->array.array.offset == 0);  // copies of the rows start at 0
    CHECK(e->array.array.length == 76);
  }
  CHECK(f.array.array.null_count == static_cast<std::int64_t>(flags.null_count()));
  // Not the columns' own memory, which a third party may be writing.
  CHECK(v.array.array.buffers[1] != values.data_buffer().data(devcol::access::read));
  CHECK(v.array.array.buffers[0] != values.mask_buffer().data(devcol::access::read));
  CHECK(f.array.array.buffers[0] != flags.mask_buffer().data(devcol::access::read));
  auto const flags_back = devcol::from_arrow<bool>(&f.schema, &f.array);
  auto const values_back = devcol::from_arrow<std::int16_t>(&v.schema, &v.array);
  CHECK(devcol::to_host(flags_back) == std::vector<std::optional<bool>>(bools.begin() + 901, bools.begin() + 977));
  CHECK(devcol::to_host(values_back) ==
        std::vector<std::optional<std::int16_t>>(shorts.begin() + 901, shorts.begin() + 977));
}

TEST_CASE("arrow: exports under shared views are snapshots, since writes would reach them", "[arrow][review]") {
  struct views : devcol::default_policy {
    using sharing = devcol::shared_views;
  };
  leak_check leaks;
  auto col = devcol::make_column<i64, views>({1, 2, 3});
  exported e;
  devcol::to_arrow(col, &e.schema, &e.array);
  devcol_test::assign(col, 0, std::vector<i64>{99});
  auto const back = devcol::from_arrow<i64>(&e.schema, &e.array);
  CHECK(devcol_test::host_values(back) == std::vector<i64>{1, 2, 3});
}

TEST_CASE("arrow: a bitmap whose bytes may end before its last word is copied, a padded one borrowed",
          "[arrow][review]") {
  leak_check leaks;
  SECTION("padded: devcol's own export") {
    exported e;
    devcol::to_arrow(devcol::make_column<i64>(model_of<i64>(3, true)), &e.schema, &e.array);
    auto const col = devcol::from_arrow<i64>(&e.schema, &e.array);
    CHECK(col.mask_buffer().is_borrowed());
  }
  SECTION("padded: another producer's bitmap that ends on a word") {
    exported e;
    devcol::to_arrow(devcol::make_column<i64>(model_of<i64>(128, true)), &e.schema, &e.array);
    release_counter::watch(e.schema, e.array);  // no longer devcol's release: padding unknown
    auto const col = devcol::from_arrow<i64>(&e.schema, &e.array);
    CHECK(col.mask_buffer().is_borrowed());
  }
  SECTION("unpadded as far as import knows: another producer, 3 rows") {
    exported e;
    devcol::to_arrow(devcol::make_column<i64>(model_of<i64>(3, true)), &e.schema, &e.array);
    release_counter::watch(e.schema, e.array);
    auto const col = devcol::from_arrow<i64>(&e.schema, &e.array);
    CHECK_FALSE(col.mask_buffer().is_borrowed());
    CHECK(devcol::to_host(col) == model_of<i64>(3, true));
  }
#if !DEVCOL_BACKEND_CUDA
  SECTION("one byte for three rows") {
    std::vector<i64> values{1, 2, 3};
    auto* bitmap = new std::uint8_t[1]{0b101};  // exactly what the producer must provide
    void const* buffers[2] = {bitmap, values.data()};
    ArrowSchema schema{};
    schema.format = "l";
    schema.release = [](ArrowSchema* s) { s->release = nullptr; };
    ArrowDeviceArray array{};
    array.array.length = 3;
    array.array.null_count = -1;
    array.array.n_buffers = 2;
    array.array.buffers = buffers;
    array.array.private_data = bitmap;
    array.array.release = [](ArrowArray* a) {
      delete[] static_cast<std::uint8_t*>(a->private_data);
      a->release = nullptr;
    };
    array.device_type = ARROW_DEVICE_CPU;
    array.device_id = -1;
    auto const col = devcol::from_arrow<i64>(&schema, &array);
    CHECK_FALSE(col.mask_buffer().is_borrowed());
    CHECK(col.data_buffer().is_borrowed());
    CHECK(devcol::to_host(col) == std::vector<std::optional<i64>>{1, std::nullopt, 3});
  }
#endif
}

TEST_CASE("arrow: an absurd child count is an arrow_error, not an allocation", "[arrow][review]") {
  leak_check leaks;
  exported e;
  devcol::table t;
  t.add("a", devcol::make_column<i64>({1}));
  devcol::to_arrow(t, &e.schema, &e.array);
  release_counter::watch(e.schema, e.array);
  ArrowSchema* missing[1] = {nullptr};
  e.schema.n_children = std::int64_t{1} << 60;
  e.schema.children = missing;
  CHECK_THAT(arrow_error_of([&] { (void)devcol::table_from_arrow(&e.schema, &e.array); }),
             Contains("schema.children[0] is NULL"));
  CHECK(release_counter::arrays == 1);
}

TEST_CASE("arrow: a bool column whose rows are all null exports without reading their bytes", "[arrow][review]") {
  leak_check leaks;
  devcol::column<bool> const nulls(10, {}, devcol::mask_state::all_null);  // values uninitialised
  exported e;
  devcol::to_arrow(nulls, &e.schema, &e.array);
  auto const back = devcol::from_arrow<bool>(&e.schema, &e.array);
  CHECK(back.null_count() == 10);
  CHECK(devcol::to_host(back) == std::vector<std::optional<bool>>(10));
}

TEST_CASE("arrow: a bool slice far into its column exports its rows' bits, not its offset's", "[arrow][review]") {
  leak_check leaks;
  auto const model = model_of<bool>(1000, true);
  auto const col = devcol::make_column<bool>(model);
  auto const slice = col.slice(901, 911);
  exported e;
  devcol::to_arrow(slice, &e.schema, &e.array);
  CHECK(e.array.array.offset == 901 % 64);  // the mask is pointed at the word of row 901
  CHECK(e.array.array.buffers[0] ==
        static_cast<devcol::bitmask_word const*>(col.mask_buffer().data(devcol::access::read)) + 901 / 64);
  auto const back = devcol::from_arrow<bool>(&e.schema, &e.array);
  CHECK(devcol::to_host(back) == std::vector<std::optional<bool>>(model.begin() + 901, model.begin() + 911));
}
