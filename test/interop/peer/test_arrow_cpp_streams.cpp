// Arrow C++ (from the pyarrow wheel) against devcol: streams of record batches through
// ArrowDeviceArrayStream, both ways, errors and early closing included. This translation unit
// includes Arrow's copy of the ABI header first and devcol's second (test_arrow_cpp_arrays.cpp does
// the reverse).
#include <arrow/c/abi.h>
// devcol's copy second: every guarded block is already defined, so it adds only its layout checks.
#include <devcol/interop/arrow_abi.hpp>

#include "arrow_peer_support.hpp"

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace peer = devcol_test::peer;

static_assert(sizeof(ArrowDeviceArrayStream) == 48, "one layout, whoever defined it");

namespace {

/// Batches [0, 30), [37, 61) and [61, 100) of the devcol test table: offsets off the byte boundary.
std::vector<devcol::table> devcol_batches() {
  return {peer::devcol_table(100, 0, 30), peer::devcol_table(100, 37, 61), peer::devcol_table(100, 61, 100)};
}

/// An Arrow reader that serves `batches`, then fails with `failure` if one is given.
class scripted_reader final : public arrow::RecordBatchReader {
 public:
  scripted_reader(std::shared_ptr<arrow::Schema> schema, arrow::RecordBatchVector batches,
                  std::optional<arrow::Status> failure)
      : schema_(std::move(schema)), batches_(std::move(batches)), failure_(std::move(failure)) {}
  [[nodiscard]] std::shared_ptr<arrow::Schema> schema() const override { return schema_; }
  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    if (next_ < batches_.size()) {
      *batch = batches_[next_++];
      return arrow::Status::OK();
    }
    if (failure_) { return *failure_; }
    batch->reset();
    return arrow::Status::OK();
  }

 private:
  std::shared_ptr<arrow::Schema> schema_;
  arrow::RecordBatchVector batches_;
  std::optional<arrow::Status> failure_;
  std::size_t next_ = 0;
};

}  // namespace

TEST_CASE("a devcol stream is read whole by Arrow C++'s ImportDeviceRecordBatchReader", "[peer][arrow][stream]") {
  devcol_test::leak_check leaks;
  auto const tables = devcol_batches();
  ArrowDeviceArrayStream stream{};
  devcol::to_arrow_stream(tables, &stream);
  CHECK(stream.device_type == ARROW_DEVICE_CPU);
  {
    auto const reader = peer::require_ok(arrow::ImportDeviceRecordBatchReader(&stream));
    CHECK(stream.release == nullptr);  // moved into Arrow
    CHECK(reader->device_type() == arrow::DeviceAllocationType::kCPU);
    CHECK(reader->schema()->num_fields() == 19);
    auto const batches = peer::require_ok(reader->ToRecordBatches());
    REQUIRE(batches.size() == tables.size());
    for (std::size_t i = 0; i < batches.size(); ++i) {
      INFO("batch " << i);
      peer::require_ok(batches[i]->ValidateFull());
      CHECK(batches[i]->schema()->Equals(*reader->schema()));
      peer::check_same_table(*batches[i], tables[i]);
    }
  }
}

TEST_CASE("Arrow C++'s ExportDeviceRecordBatchReader is read whole by devcol::tables_from_arrow",
          "[peer][arrow][stream]") {
  devcol_test::leak_check leaks;
  auto const whole = peer::arrow_batch(100);
  arrow::RecordBatchVector const parts{whole->Slice(0, 30), whole->Slice(37, 24), whole->Slice(61, 39)};
  auto const reader = peer::require_ok(arrow::RecordBatchReader::Make(parts, whole->schema()));
  ArrowDeviceArrayStream stream{};
  peer::require_ok(arrow::ExportDeviceRecordBatchReader(reader, &stream));
  CHECK(stream.device_type == ARROW_DEVICE_CPU);

  auto const tables = devcol::tables_from_arrow(&stream);
  CHECK(stream.release == nullptr);  // taken over, released by the reader
  REQUIRE(tables.size() == parts.size());
  for (std::size_t i = 0; i < tables.size(); ++i) {
    INFO("batch " << i);
    peer::check_same_table(*parts[i], tables[i]);
  }
  // And back through devcol's stream to Arrow: the same batches, Equals().
  ArrowDeviceArrayStream again{};
  devcol::to_arrow_stream(tables, &again);
  auto const round = peer::require_ok(peer::require_ok(arrow::ImportDeviceRecordBatchReader(&again))->ToRecordBatches());
  REQUIRE(round.size() == parts.size());
  for (std::size_t i = 0; i < round.size(); ++i) { CHECK(round[i]->Equals(*parts[i])); }
}

TEST_CASE("a devcol stream batch of another schema reaches Arrow C++ as an error with devcol's message",
          "[peer][arrow][stream]") {
  devcol_test::leak_check leaks;
  devcol::table other;
  other.add("int8", devcol::sequence<std::int64_t>(4));  // int64 where the schema has int8
  std::vector<devcol::table> tables{peer::devcol_table(10, 0, 10), other};
  ArrowDeviceArrayStream stream{};
  devcol::to_arrow_stream(tables, &stream);
  auto const reader = peer::require_ok(arrow::ImportDeviceRecordBatchReader(&stream));
  std::shared_ptr<arrow::RecordBatch> batch;
  peer::require_ok(reader->ReadNext(&batch));
  REQUIRE(batch != nullptr);
  arrow::Status const failed = reader->ReadNext(&batch);
  INFO(failed.ToString());
  CHECK_FALSE(failed.ok());
  CHECK_THAT(failed.ToString(), Catch::Contains("stream batch 1 has 1 columns, the stream's schema 19"));
}

TEST_CASE("Arrow C++ closing a devcol stream early releases it and all it held", "[peer][arrow][stream]") {
  devcol_test::leak_check leaks;
  ArrowDeviceArrayStream stream{};
  devcol::to_arrow_stream(devcol_batches(), &stream);
  CHECK(leaks.live() > 0);  // the tables wait in the stream
  {
    auto const reader = peer::require_ok(arrow::ImportDeviceRecordBatchReader(&stream));
    std::shared_ptr<arrow::RecordBatch> first;
    peer::require_ok(reader->ReadNext(&first));
    REQUIRE(first != nullptr);
    peer::require_ok(first->ValidateFull());
    peer::require_ok(reader->Close());
  }
  // leak_check: nothing of devcol's is left once Arrow dropped the reader and the batch.
}

TEST_CASE("an Arrow C++ stream that fails midway: devcol reports Arrow's error, and releases the stream",
          "[peer][arrow][stream]") {
  devcol_test::leak_check leaks;
  auto const whole = peer::arrow_batch(40);
  auto const reader = std::make_shared<scripted_reader>(whole->schema(), arrow::RecordBatchVector{whole->Slice(3, 20)},
                                                        arrow::Status::IOError("the disk went away"));
  ArrowDeviceArrayStream stream{};
  peer::require_ok(arrow::ExportDeviceRecordBatchReader(reader, &stream));
  devcol::arrow_stream_reader<> devcol_reader(&stream);
  CHECK(stream.release == nullptr);
  CHECK(devcol_reader.column_names().size() == 19);
  auto const first = devcol_reader.next();
  REQUIRE(first.has_value());
  peer::check_same_table(*whole->Slice(3, 20), *first);
  CHECK_THROWS_WITH(devcol_reader.next(), Catch::Contains("stream.get_next failed with errno") &&
                                              Catch::Contains("the disk went away"));
}

/// A stream whose schema names a format that is no Arrow type ("+x") for its first column: devcol
/// imports every Arrow format, so only such a schema is left to refuse.
struct non_arrow_schema {
  static inline int (*arrow_get_schema)(ArrowDeviceArrayStream*, ArrowSchema*) = nullptr;
  static int get_schema(ArrowDeviceArrayStream* stream, ArrowSchema* out) {
    int const rc = arrow_get_schema(stream, out);
    if (rc == 0) { out->children[0]->format = "+x"; }  // Arrow's release frees its own copy, not this pointer
    return rc;
  }
};

TEST_CASE("devcol refuses an Arrow C++ stream of a type no table holds, and releases it", "[peer][arrow][stream]") {
  devcol_test::leak_check leaks;
  auto const ints = peer::require_ok(arrow::MakeArrayOfNull(arrow::int8(), 1));
  auto const batch = arrow::RecordBatch::Make(arrow::schema({arrow::field("s", ints->type())}), 1, {ints});
  ArrowDeviceArrayStream stream{};
  peer::require_ok(arrow::ExportDeviceRecordBatchReader(peer::require_ok(arrow::RecordBatchReader::Make({batch})), &stream));
  non_arrow_schema::arrow_get_schema = stream.get_schema;
  stream.get_schema = &non_arrow_schema::get_schema;
  CHECK_THROWS_WITH(devcol::tables_from_arrow(&stream), Catch::Contains("schema.children[0].format '+x'") &&
                                                            Catch::Contains("union"));
  CHECK(stream.release == nullptr);
}
