// Arrow string view ("vu") and binary view ("vz"): basic_binary_view_column, its ops (the view
// layout kept, data buffers shared), slicing and Arrow offsets at odd rows, zero-copy Arrow both
// ways, and malformed views refused.
#include "interop_support.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <sstream>
#include <numeric>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace devcol_test::binary_view {

using devcol_test::interop::arrow_error_of;
using devcol_test::interop::exported;
using svc = devcol::string_view_column;
using bvc = devcol::binary_view_column;
using rows_t = std::vector<std::optional<std::string>>;

/// `n` rows: row r null when r % 7 == 3, else inline ("r<r>") when r is even, else out of line
/// (27 bytes or more).
inline rows_t model(std::size_t n) {
  rows_t rows(n);
  for (std::size_t r = 0; r < n; ++r) {
    if (r % 7 == 3) { continue; }
    rows[r] = r % 2 == 0 ? "r" + std::to_string(r) : "a longer row, out of line #" + std::to_string(r);
  }
  return rows;
}

template <class C = svc>
C make(rows_t const& rows, std::size_t block = 100) {
  return devcol::make_binary_view_column<devcol::default_policy, C::bytes_encoding>(rows, {}, block);
}

rows_t sub(rows_t const& rows, std::size_t b, std::size_t e) {
  return {rows.begin() + static_cast<std::ptrdiff_t>(b), rows.begin() + static_cast<std::ptrdiff_t>(e)};
}

/// A CPU view array built by hand over host vectors, for malformed input: released by a no-op.
struct handmade {
  std::vector<devcol::binary_view_row> views;
  std::vector<std::string> data;
  std::vector<std::int64_t> sizes;
  std::vector<void const*> buffers;
  ArrowSchema schema{};
  ArrowDeviceArray array{};

  static void release_schema(ArrowSchema* s) { s->release = nullptr; }
  static void release_array(ArrowArray* a) { a->release = nullptr; }

  /// Views for `rows` as make_binary_view_column lays them out in one data buffer.
  explicit handmade(std::vector<std::string> const& rows) {
    data.emplace_back();
    for (auto const& s : rows) {
      devcol::binary_view_row v{};
      v.size = static_cast<std::int32_t>(s.size());
      if (v.is_inline()) {
        std::memcpy(reinterpret_cast<char*>(&v) + 4, s.data(), s.size());
      } else {
        std::memcpy(v.prefix, s.data(), 4);
        v.buffer_index = 0;
        v.offset = static_cast<std::int32_t>(data[0].size());
        data[0] += s;
      }
      views.push_back(v);
    }
    sizes.push_back(static_cast<std::int64_t>(data[0].size()));
  }
  /// Publishes the structs (after the test has spoiled what it wants).
  void publish() {
    buffers = {nullptr, views.data()};
    for (auto const& d : data) { buffers.push_back(d.data()); }
    buffers.push_back(sizes.data());
    schema.format = "vu";
    schema.name = "";
    schema.flags = ARROW_FLAG_NULLABLE;
    schema.release = &release_schema;
    array.array.length = static_cast<std::int64_t>(views.size());
    array.array.n_buffers = static_cast<std::int64_t>(buffers.size());
    array.array.buffers = buffers.data();
    array.array.release = &release_array;
    array.device_type = ARROW_DEVICE_CPU;
    array.device_id = -1;
  }
  std::string error() {
    publish();
    return arrow_error_of([&] { (void)devcol::any_from_arrow(&schema, &array); });
  }
};

}  // namespace devcol_test::binary_view

using namespace devcol_test::binary_view;  // NOLINT: test brevity

TEST_CASE("string view: rows inline and out of line, slices at odd offsets, the kind in the registry",
          "[binary_view]") {
  devcol_test::leak_check leaks;
  STATIC_REQUIRE(devcol::kind_of<svc> == devcol::kind::string_view);
  STATIC_REQUIRE(devcol::kind_of<bvc> == devcol::kind::binary_view);
  STATIC_REQUIRE(!devcol::kind_traits<svc>::nested);
  STATIC_REQUIRE(std::is_trivially_copyable_v<devcol::binary_view_column_view>);
  auto const rows = model(40);
  auto const whole = make(rows, 100);
  CHECK(whole.num_data_buffers() > 3);  // 20 long rows of ~29 bytes in buffers of at most 100
  CHECK(whole.type_name() == "string_view");
  CHECK(whole.arrow_format() == "vu");
  CHECK(devcol::to_host(whole) == rows);
  auto const col = whole.slice(13, 37);
  CHECK(col.offset() == 13);
  CHECK(col.null_count() == 3);  // rows 17, 24 and 31
  CHECK(devcol::to_host(col) == sub(rows, 13, 37));
  auto const copy = col.deep_copy();
  CHECK(copy.offset() == 0);
  CHECK(copy.data_buffer(0).data(devcol::access::read) != col.data_buffer(0).data(devcol::access::read));
  CHECK(devcol::to_host(copy) == sub(rows, 13, 37));
  auto const bin = make<bvc>(rows);
  CHECK(bin.type_name() == "binary_view");
  CHECK(bin.arrow_format() == "vz");
  CHECK(devcol::type_name(devcol::any_column<>(bin)) == "binary_view");
  auto const values = devcol::to_host_values(devcol::any_column<>(col));
  REQUIRE(values.size() == 24);
  std::ostringstream printed;
  printed << make(rows_t{"ab", std::nullopt}) << ' ' << make<bvc>(rows_t{std::string("\x01\xff", 2)});
  CHECK(printed.str() == "string_view[\"ab\", null] binary_view[0x01ff]");
}

TEST_CASE("string view: length reads the views, nulls kept", "[binary_view][ops]") {
  devcol_test::leak_check leaks;
  auto const rows = model(40);
  auto const col = make(rows, 64).slice(13, 37);
  auto const lengths = devcol::to_host(devcol::length(col));
  STATIC_REQUIRE(std::is_same_v<decltype(devcol::length(col)), devcol::column<std::int32_t>>);
  REQUIRE(lengths.size() == 24);
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    auto const& want = rows[13 + i];
    CHECK(lengths[i] == (want ? std::optional<std::int32_t>(static_cast<std::int32_t>(want->size())) : std::nullopt));
  }
}

TEST_CASE("string view: gather, filter and concatenate keep the view layout and share the data buffers",
          "[binary_view][ops]") {
  devcol_test::leak_check leaks;
  auto const rows = model(40);
  auto const col = make(rows, 64).slice(13, 37);
  auto const in = sub(rows, 13, 37);
  auto const g = devcol::gather(col, devcol::make_column<std::int32_t>({22, std::nullopt, 1, 4, 3, 0}));
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(g)>, svc>);
  CHECK(devcol::to_host(g) == rows_t{in[22], std::nullopt, in[1], in[4], in[3], in[0]});
  REQUIRE(g.num_data_buffers() == col.num_data_buffers());
  CHECK(g.data_buffer(0).data(devcol::access::read) == col.data_buffer(0).data(devcol::access::read));  // shared
  CHECK_THROWS_WITH(devcol::gather(col, devcol::make_column<std::int32_t>({24})), Catch::Contains("index 24 at row 0"));
  CHECK(devcol::to_host(devcol::gather(col, devcol::make_column<std::int32_t>({24}), {}, devcol::out_of_bounds::nullify)) ==
        rows_t{std::nullopt});

  std::vector<std::optional<bool>> keep;
  rows_t kept;
  for (std::size_t i = 0; i < in.size(); ++i) {
    keep.emplace_back(i % 3 != 1);
    if (i % 3 != 1) { kept.push_back(in[i]); }
  }
  auto const f = devcol::filter(col, devcol::make_column<bool>(keep));
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(f)>, svc>);
  CHECK(devcol::to_host(f) == kept);

  auto const a = col.slice(1, 9);
  auto const b = make(model(30), 50).slice(5, 29);
  auto const c = devcol::concatenate(std::vector<svc>{a, b, col.slice(0, 0), a});
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(c)>, svc>);
  CHECK(c.num_data_buffers() == 2 * a.num_data_buffers() + b.num_data_buffers() + col.num_data_buffers());
  rows_t both = sub(in, 1, 9);
  auto const tail = sub(model(30), 5, 29);
  both.insert(both.end(), tail.begin(), tail.end());
  both.insert(both.end(), in.begin() + 1, in.begin() + 9);
  CHECK(c.null_count() == a.null_count() * 2 + b.null_count());
  CHECK(devcol::to_host(c) == both);

  auto const nulls = devcol::to_host(devcol::is_null(col));
  for (std::size_t i = 0; i < in.size(); ++i) { CHECK(*nulls[i] == !in[i].has_value()); }
  devcol::any_column<> const any(col);
  CHECK(devcol::type_name(devcol::gather(any, devcol::make_column<std::int32_t>({2}))) == "string_view");
  CHECK(devcol::type_name(devcol::concatenate(std::vector{any, any})) == "string_view");
}

TEST_CASE("arrow string view and binary view: devcol -> Arrow -> devcol at an odd offset, zero-copy",
          "[binary_view][arrow]") {
  devcol_test::leak_check leaks;
  auto const rows = model(40);
  auto const col = make(rows, 100).slice(13, 37);
  {
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    CHECK(std::string(e.schema.format) == "vu");
    CHECK(e.array.array.offset == 13);
    CHECK(e.array.array.n_buffers == static_cast<std::int64_t>(col.num_data_buffers() + 3));
    auto const* sizes = static_cast<std::int64_t const*>(e.array.array.buffers[e.array.array.n_buffers - 1]);
    for (std::size_t i = 0; i < col.num_data_buffers(); ++i) {
      CHECK(sizes[i] == static_cast<std::int64_t>(col.data_buffer(i).size()));  // host backend: readable here
      CHECK(e.array.array.buffers[i + 2] == col.data_buffer(i).data(devcol::access::read));
    }
    CHECK(e.array.array.buffers[1] == col.views_buffer().data(devcol::access::read));
    auto const back = devcol::from_arrow<svc>(&e.schema, &e.array);
    CHECK(back.offset() == 13);
    CHECK(back.is_borrowed());
    CHECK(back.views_buffer().data(devcol::access::read) == col.views_buffer().data(devcol::access::read));
    CHECK(devcol::to_host(back) == devcol::to_host(col));
  }
  {
    auto const bin = make<bvc>(rows, 100).slice(13, 37);
    exported e;
    devcol::to_arrow(devcol::any_column<>(bin), &e.schema, &e.array);
    CHECK(std::string(e.schema.format) == "vz");
    auto const any = devcol::any_from_arrow(&e.schema, &e.array);
    REQUIRE(devcol::holds_alternative<bvc>(any));
    CHECK(devcol::to_host(devcol::get<bvc>(any)) == devcol::to_host(bin));
  }
  {  // no rows, no buffers: still every buffer non-NULL, and the sizes buffer last
    exported e;
    devcol::to_arrow(svc{}, &e.schema, &e.array);
    CHECK(e.array.array.n_buffers == 3);
    CHECK(e.array.array.buffers[1] != nullptr);
    CHECK(e.array.array.buffers[2] != nullptr);
    CHECK(devcol::from_arrow<svc>(&e.schema, &e.array).size() == 0);
  }
  {  // only inline rows: no data buffer
    auto const short_rows = make(rows_t{"a", std::nullopt, "twelve bytes"});
    CHECK(short_rows.num_data_buffers() == 0);
    exported e;
    devcol::to_arrow(short_rows, &e.schema, &e.array);
    CHECK(e.array.array.n_buffers == 3);
    CHECK(devcol::to_host(devcol::from_arrow<svc>(&e.schema, &e.array)) == devcol::to_host(short_rows));
  }
}

TEST_CASE("arrow binary view: an exposed data buffer is exported as a snapshot (rule 12)", "[binary_view][arrow][review]") {
  devcol_test::leak_check leaks;
  auto const rows = model(40);
  auto const made = make<bvc>(rows);
  std::vector<devcol::buffer<devcol::default_policy>> data = made.data_buffers();
  REQUIRE_FALSE(data.empty());
  auto const* handed_out = static_cast<char const*>(data[0].expose());  // a third party may write these
  bvc const col(made.views_buffer(), std::move(data), made.mask_buffer(), made.size(), made.null_count(), 0);
  REQUIRE(col.is_exposed());
  exported e;
  devcol::to_arrow(col, &e.schema, &e.array);
  CHECK(std::string(e.schema.format) == "vz");
  CHECK(static_cast<char const*>(e.array.array.buffers[2]) != handed_out);  // the export's own bytes
  CHECK(devcol::to_host(devcol::from_arrow<bvc>(&e.schema, &e.array)) == rows);
}

TEST_CASE("arrow string view: malformed views and buffers are refused naming the value", "[binary_view][arrow]") {
  devcol_test::leak_check leaks;
  std::vector<std::string> const good{"short", "a row of more than twelve bytes", "another long row here!"};
  {
    handmade h(good);
    h.publish();
    auto const col = devcol::any_from_arrow(&h.schema, &h.array);
    REQUIRE(devcol::holds_alternative<svc>(col));
    CHECK(devcol::to_host(devcol::get<svc>(col)) == rows_t{good[0], good[1], good[2]});
  }
  {
    handmade h(good);
    h.views[1].buffer_index = 1;
    CHECK_THAT(h.error(), Catch::Contains("array.buffers[1][1] (the view of row 1) names data buffer 1 of 1"));
  }
  {
    handmade h(good);
    h.views[2].offset = 40;
    CHECK_THAT(h.error(), Catch::Contains("reaches bytes [40, 62) of data buffer 0, which has 53"));
  }
  {
    handmade h(good);
    h.views[0].size = -3;
    CHECK_THAT(h.error(), Catch::Contains("(the view of row 0) has length -3"));
  }
  {
    handmade h(good);
    h.sizes[0] = -1;
    CHECK_THAT(h.error(), Catch::Contains("(the size of data buffer 0) is -1"));
  }
  {  // the sizes buffer left out: validity, views, one data buffer
    handmade h(good);
    h.publish();
    h.array.array.n_buffers = 2;
    CHECK_THAT(arrow_error_of([&] { (void)devcol::any_from_arrow(&h.schema, &h.array); }),
               Catch::Contains(".n_buffers is 2") && Catch::Contains("the buffer sizes are missing"));
  }
  {  // a NULL sizes buffer with a data buffer
    handmade h(good);
    h.publish();
    h.buffers.back() = nullptr;
    CHECK_THAT(arrow_error_of([&] { (void)devcol::any_from_arrow(&h.schema, &h.array); }),
               Catch::Contains("array.buffers[3] (the sizes of 1 data buffers) is NULL"));
  }
}

TEST_CASE("arrow string view: a null row's view may hold anything, as Arrow leaves it unspecified",
          "[binary_view][arrow]") {
  devcol_test::leak_check leaks;
  std::vector<std::string> good;
  for (int r = 0; r < 70; ++r) { good.push_back(r % 2 == 0 ? "s" + std::to_string(r) : "a row of more than twelve bytes #" + std::to_string(r)); }
  for (std::int64_t const offset : {0, 1, 65}) {
    INFO("offset " << offset);
    handmade h(good);
    // Null rows 3, 8 (inline) and 66; their views name a missing buffer, run past the data, and are negative.
    std::vector<devcol::bitmask_word> valid(2, ~devcol::bitmask_word{0});
    for (std::size_t const r : {3, 8, 66}) { valid[r / 64] &= ~(devcol::bitmask_word{1} << (r % 64)); }
    h.views[3] = {1000, {'a', 'b', 'c', 'd'}, 9, 0};
    h.views[8] = {20, {'x', 'y', 'z', 'w'}, 0, 1 << 30};
    h.views[66] = {-5, {}, 0, 0};
    h.publish();
    h.buffers[0] = valid.data();
    h.array.array.offset = offset;
    h.array.array.length = static_cast<std::int64_t>(good.size()) - offset;
    h.array.array.null_count = offset == 0 ? 3 : -1;
    auto const any = devcol::any_from_arrow(&h.schema, &h.array);
    REQUIRE(devcol::holds_alternative<svc>(any));
    auto const& col = devcol::get<svc>(any);
    rows_t expect(good.begin() + offset, good.end());
    for (std::size_t const r : {3, 8, 66}) {
      if (r >= static_cast<std::size_t>(offset)) { expect[r - static_cast<std::size_t>(offset)] = std::nullopt; }
    }
    CHECK(col.null_count() == static_cast<std::size_t>(std::count(expect.begin(), expect.end(), std::nullopt)));
    CHECK(devcol::to_host(col) == expect);
    // Every op may read every row's view: gather, compare and length over all rows.
    std::vector<std::int32_t> everything(expect.size());
    std::iota(everything.rbegin(), everything.rend(), 0);
    CHECK(devcol::to_host(devcol::gather(col, devcol::make_column<std::int32_t>(everything))) == rows_t(expect.rbegin(), expect.rend()));
    CHECK(devcol::to_host(devcol::length(col)).size() == expect.size());
    exported e;  // and its export holds views within its buffers
    devcol::to_arrow(col, &e.schema, &e.array);
    auto const back = devcol::any_from_arrow(&e.schema, &e.array);
    CHECK(devcol::to_host(devcol::get<svc>(back)) == expect);
  }
  handmade bad(good);  // a valid row's bad view is still refused
  bad.views[9] = {1000, {'a', 'b', 'c', 'd'}, 9, 0};
  CHECK_THAT(bad.error(), Catch::Contains("array.buffers[1][9] (the view of row 9) names data buffer 9 of 1"));
}
