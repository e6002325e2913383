// ArrowDeviceArrayStream: tables out and in, the end, errors, early close, device types.
#include "interop_support.hpp"

#include <devcol/column/factories.hpp>
#include <devcol/column/nested_factories.hpp>
#include <devcol/column/table.hpp>
#include <devcol/column/to_host.hpp>
#include <devcol/column/types.hpp>
#include <devcol/interop/arrow_stream.hpp>

#include <catch2/catch.hpp>

#include <cerrno>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using devcol_test::leak_check;
using devcol_test::interop::arrow_error_of;
using devcol_test::interop::model_of;
using Catch::Contains;
using i64 = std::int64_t;

namespace {
devcol::table batch(std::size_t rows, std::size_t seed) {
  devcol::table t;
  t.add("id", devcol::sequence<i64>(rows, static_cast<i64>(seed * 1000)));
  t.add("v", devcol::make_column<double>(model_of<double>(rows, true)));
  return t;
}

/// Wraps a stream to spoil what its get_next hands out (the device type of each array).
struct spoiling_stream {
  ArrowDeviceArrayStream inner{};
  ArrowDeviceType array_device = 0;

  static spoiling_stream& of(ArrowDeviceArrayStream* s) { return *static_cast<spoiling_stream*>(s->private_data); }
  static void wrap(ArrowDeviceArrayStream* s, ArrowDeviceType array_device) {
    auto* self = new spoiling_stream{*s, array_device};
    s->get_schema = [](ArrowDeviceArrayStream* w, ArrowSchema* out) { return of(w).inner.get_schema(&of(w).inner, out); };
    s->get_next = [](ArrowDeviceArrayStream* w, ArrowDeviceArray* out) {
      int const rc = of(w).inner.get_next(&of(w).inner, out);
      if (rc == 0 && out->array.release != nullptr) { out->device_type = of(w).array_device; }
      return rc;
    };
    s->get_last_error = [](ArrowDeviceArrayStream* w) { return of(w).inner.get_last_error(&of(w).inner); };
    s->release = [](ArrowDeviceArrayStream* w) {
      of(w).inner.release(&of(w).inner);
      delete &of(w);
      w->release = nullptr;
    };
    s->private_data = self;
  }
};
}  // namespace

TEST_CASE("arrow stream: tables out and back in, then a released array at the end", "[arrow][stream]") {
  leak_check leaks;
  std::vector<devcol::table> batches{batch(10, 0), batch(0, 1), batch(70, 2)};
  ArrowDeviceArrayStream stream;
  devcol::to_arrow_stream(batches, &stream);
#if DEVCOL_BACKEND_CUDA
  CHECK(stream.device_type == ARROW_DEVICE_CUDA);
#else
  CHECK(stream.device_type == ARROW_DEVICE_CPU);
#endif
  auto const back = devcol::tables_from_arrow(&stream);
  CHECK(stream.release == nullptr);  // taken over, and released by the reader
  REQUIRE(back.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(back[i].names() == batches[i].names());
    CHECK(devcol::to_host(back[i].get<i64>("id")) == devcol::to_host(batches[i].get<i64>("id")));
    CHECK(devcol::to_host(back[i].get<double>("v")) == devcol::to_host(batches[i].get<double>("v")));
  }
}

TEST_CASE("arrow stream: the exported stream's callbacks follow the specification", "[arrow][stream]") {
  leak_check leaks;
  ArrowDeviceArrayStream stream;
  devcol::to_arrow_stream(std::vector<devcol::table>{batch(5, 0)}, &stream);
  ArrowSchema schema;
  REQUIRE(stream.get_schema(&stream, &schema) == 0);
  CHECK(std::string(schema.format) == "+s");
  CHECK(schema.n_children == 2);
  CHECK(std::string(schema.children[0]->name) == "id");
  schema.release(&schema);
  ArrowDeviceArray array;
  REQUIRE(stream.get_next(&stream, &array) == 0);
  CHECK(array.array.length == 5);
  CHECK(stream.get_last_error(&stream) == nullptr);
  array.array.release(&array.array);
  REQUIRE(stream.get_next(&stream, &array) == 0);
  CHECK(array.array.release == nullptr);  // the end
  stream.release(&stream);
  CHECK(stream.release == nullptr);
}

TEST_CASE("arrow stream: after the end, get_next gives released arrays without asking the source again",
          "[arrow][stream]") {
  leak_check leaks;
  // A source that would start over after its end, as a careless generator might.
  int calls = 0;
  auto const held = std::make_shared<int>(0);
  devcol::table_source<> source = [&calls, held]() -> std::optional<devcol::table> {
    ++calls;
    if (calls % 3 == 0) { return std::nullopt; }
    return batch(2, static_cast<std::size_t>(calls));
  };
  ArrowDeviceArrayStream stream;
  devcol::to_arrow_stream(batch(0, 0), std::move(source), &stream);
  CHECK(held.use_count() == 2);
  std::size_t arrays = 0;
  for (int i = 0; i < 6; ++i) {
    ArrowDeviceArray array;
    REQUIRE(stream.get_next(&stream, &array) == 0);
    if (array.array.release != nullptr) {
      ++arrays;
      array.array.release(&array.array);
    }
  }
  CHECK(arrays == 2);
  CHECK(calls == 3);
  CHECK(held.use_count() == 1);  // the source is gone at the end, before the stream is released
  stream.release(&stream);
}

TEST_CASE("arrow stream: the reader's schema() is the stream's schema as a table of no rows, with no batch read",
          "[arrow][stream]") {
  leak_check leaks;
  devcol::table schema;
  devcol::field_info id;
  id.nullable = false;
  id.metadata = {{"unit", "count"}};
  schema.add("id", devcol::make_column<i64>({1, 2}), id);
  devcol::field_info zoned;
  zoned.time_zone = "America/New_York";
  schema.add("at", devcol::make_column<devcol::timestamp_us>({devcol::timestamp_us{}, devcol::timestamp_us{}}), zoned);
  schema.add("name", devcol::make_strings_column(std::vector<std::string>{"a", "bc"}));
  schema.add("items", devcol::make_list_column<std::int32_t>({0, 1, 2}, devcol::make_column<float>({1.0F, 2.0F})));
  devcol::field_info ordered;
  ordered.ordered = true;
  schema.add("code", devcol::make_dictionary_column(devcol::make_column<std::uint8_t>({1, 0}),
                                                    devcol::make_strings_column(std::vector<std::string>{"x", "y"})),
             ordered);
  schema.add("price", devcol::make_decimal_column<devcol::int128_t>(std::vector<devcol::int128_t>{12345, -5}, 20, 3));
  schema.set_metadata({{"origin", "a query with no rows"}});

  // What an import of a batch of this schema says of each field (children's and dictionaries' fields
  // included, which a table made here leaves default).
  ArrowSchema batch_schema;
  ArrowDeviceArray batch_array;
  devcol::to_arrow(schema, &batch_schema, &batch_array);
  auto const imported = devcol::table_from_arrow(&batch_schema, &batch_array);

  ArrowDeviceArrayStream stream;
  devcol::to_arrow_stream(schema, [] { return std::optional<devcol::table>{}; }, &stream);  // a lambda as the source
  devcol::arrow_stream_reader reader(&stream);
  auto const got = reader.schema();
  CHECK(got.num_rows() == 0);
  REQUIRE(got.names() == schema.names());
  for (std::size_t i = 0; i < schema.num_columns(); ++i) {
    INFO("column " << i << " '" << schema.name(i) << "'");
    CHECK(devcol::type_name(got[i]) == devcol::type_name(schema[i]));
    CHECK(got.field(i) == imported.field(i));
  }
  CHECK(got.metadata() == schema.metadata());
  CHECK_FALSE(reader.next().has_value());
  CHECK(reader.schema().names() == schema.names());  // still there after the end
}

TEST_CASE("arrow stream: a batch of another schema fails get_next with EINVAL and a message", "[arrow][stream]") {
  leak_check leaks;
  devcol::table odd;
  odd.add("id", devcol::make_column<std::int32_t>({1, 2}));
  odd.add("v", devcol::make_column<double>({1.0, 2.0}));
  ArrowDeviceArrayStream stream;
  devcol::to_arrow_stream(std::vector<devcol::table>{batch(3, 0), odd}, &stream);
  ArrowDeviceArray array;
  REQUIRE(stream.get_next(&stream, &array) == 0);
  array.array.release(&array.array);
  CHECK(stream.get_next(&stream, &array) == EINVAL);
  REQUIRE(stream.get_last_error(&stream) != nullptr);
  CHECK_THAT(std::string(stream.get_last_error(&stream)), Contains("column 0 is 'id' int32, the stream's schema has 'id' int64"));
  stream.release(&stream);

  // The reader turns it into devcol::arrow_error with the producer's message.
  devcol::to_arrow_stream(std::vector<devcol::table>{batch(3, 0), odd}, &stream);
  devcol::arrow_stream_reader reader(&stream);
  CHECK(reader.column_names() == std::vector<std::string>{"id", "v"});
  CHECK(reader.next().has_value());
  CHECK_THAT(arrow_error_of([&] { (void)reader.next(); }), Contains("get_next failed with errno 22"));
}

TEST_CASE("arrow stream: closing early releases the stream and what it still holds", "[arrow][stream]") {
  leak_check leaks;
  std::vector<devcol::table> batches{batch(10, 0), batch(10, 1), batch(10, 2)};
  std::size_t const live = leaks.live();
  {
    ArrowDeviceArrayStream stream;
    devcol::to_arrow_stream(batches, &stream);
    devcol::arrow_stream_reader reader(&stream);
    auto const first = reader.next();
    REQUIRE(first.has_value());
    CHECK(first->num_rows() == 10);
  }
  CHECK(leaks.live() == live);
  CHECK(batches[2].get<i64>("id").data_buffer().use_count() == 1);
}

TEST_CASE("arrow stream: every array's device type is checked against the stream's", "[arrow][stream]") {
  leak_check leaks;
  ArrowDeviceArrayStream stream;
  devcol::to_arrow_stream(std::vector<devcol::table>{batch(4, 0)}, &stream);
  spoiling_stream::wrap(&stream, ARROW_DEVICE_CUDA_MANAGED);
  devcol::arrow_stream_reader reader(&stream);
  CHECK_THAT(arrow_error_of([&] { (void)reader.next(); }), Contains("is not the stream's"));
}

TEST_CASE("arrow stream: the reader checks the stream before taking it, and releases it on failure", "[arrow][stream]") {
  leak_check leaks;
  CHECK_THAT(arrow_error_of([] { devcol::arrow_stream_reader reader(nullptr); }), Contains("ArrowDeviceArrayStream is NULL"));
  ArrowDeviceArrayStream released{};
  CHECK_THAT(arrow_error_of([&] { devcol::arrow_stream_reader reader(&released); }), Contains("is released"));

  ArrowDeviceArrayStream stream;
  devcol::to_arrow_stream(std::vector<devcol::table>{batch(4, 0)}, &stream);
#if DEVCOL_BACKEND_CUDA
  stream.device_type = ARROW_DEVICE_CPU;
#else
  stream.device_type = ARROW_DEVICE_CUDA;
#endif
  CHECK_THAT(arrow_error_of([&] { devcol::arrow_stream_reader reader(&stream); }), Contains("stream.device_type"));
  CHECK(stream.release == nullptr);  // taken, then released by the failing reader
}

TEST_CASE("arrow stream: export needs a schema and an output", "[arrow][stream]") {
  leak_check leaks;
  ArrowDeviceArrayStream stream;
  CHECK_THROWS_AS(devcol::to_arrow_stream(std::vector<devcol::table>{}, &stream), devcol::logic_error);
  CHECK_THROWS_AS(devcol::to_arrow_stream(std::vector<devcol::table>{batch(1, 0)}, nullptr), devcol::logic_error);
  // A generator with an explicit schema streams nothing at all, cleanly.
  devcol::to_arrow_stream<devcol::default_policy>(batch(0, 0), [] { return std::optional<devcol::table>{}; }, &stream);
  CHECK(devcol::tables_from_arrow(&stream).empty());
}
