// DLPack: export exposes (rule 11), import borrows and keeps the producer's deleter.
#include "interop_support.hpp"

#include <devcol/column/factories.hpp>
#include <devcol/column/to_host.hpp>
#include <devcol/interop/dlpack.hpp>

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

using devcol_test::leak_check;
using Catch::Contains;
using i64 = std::int64_t;

namespace {
template <class F>
std::string dlpack_error_of(F&& f) {
  return devcol_test::interop::error_of<devcol::dlpack_error>(std::forward<F>(f));
}

/// A producer's tensor over memory devcol made, with a deleter that counts.
struct producer {
  static inline int deletions = 0;
  devcol::column<i64> memory;
  std::int64_t shape[2]{};
  std::int64_t strides[2]{1, 1};
  DLManagedTensorVersioned tensor{};

  explicit producer(std::size_t rows) : memory(devcol::sequence<i64>(rows, 100)) {
    deletions = 0;
    shape[0] = static_cast<std::int64_t>(rows);
    tensor.version = {1, 0};
    tensor.dl_tensor.data = const_cast<i64*>(memory.data(devcol::access::read));
    tensor.dl_tensor.device = {DEVCOL_BACKEND_CUDA ? kDLCUDA : kDLCPU, 0};
    tensor.dl_tensor.ndim = 1;
    tensor.dl_tensor.dtype = {kDLInt, 64, 1};
    tensor.dl_tensor.shape = shape;
    tensor.dl_tensor.strides = strides;
    tensor.deleter = [](DLManagedTensorVersioned*) { ++deletions; };
  }
};
}  // namespace

TEST_CASE("dlpack: export shares the column's memory and exposes it (rule 11)", "[dlpack]") {
  leak_check leaks;
  auto col = devcol::make_column<i64>({1, 2, 3, 4});
  auto shared = col;  // so the export must unshare first
  DLManagedTensorVersioned* t = devcol::to_dlpack(col);
  CHECK(col.is_exposed());
  CHECK_FALSE(shared.is_exposed());
  CHECK_FALSE(col.data_buffer().shares_memory_with(shared.data_buffer()));
  CHECK(t->dl_tensor.data == col.data(devcol::access::read));
  CHECK(t->version.major == 1);
  CHECK(t->dl_tensor.ndim == 1);
  CHECK(t->dl_tensor.shape[0] == 4);
  CHECK(t->dl_tensor.dtype.code == kDLInt);
  CHECK(t->dl_tensor.dtype.bits == 64);
  CHECK(t->dl_tensor.device.device_type == (DEVCOL_BACKEND_CUDA ? kDLCUDA : kDLCPU));
  // A shallow copy of an exposed column is deep (rule 12).
  auto const copy = col;
  CHECK(copy.data(devcol::access::read) != col.data(devcol::access::read));
  // Writes through the tensor are the column's.
  i64 const nine = 9;
  devcol::copy_bytes(t->dl_tensor.data, &nine, sizeof nine, {});
  CHECK(devcol_test::host_values(col) == std::vector<i64>{9, 2, 3, 4});
  // The tensor keeps the memory alive after the column goes.
  auto const* p = t->dl_tensor.data;
  col = devcol::column<i64>{};
  CHECK(t->dl_tensor.data == p);
  t->deleter(t);
}

TEST_CASE("dlpack: export refuses nulls, maps element types to their representation", "[dlpack]") {
  leak_check leaks;
  auto nullable = devcol::make_column<i64>({1, std::nullopt});
  CHECK_THROWS_AS(devcol::to_dlpack(nullable), devcol::logic_error);
  CHECK_FALSE(nullable.is_exposed());
  auto flags = devcol::make_column<bool>({true, false});
  auto* b = devcol::to_dlpack(flags);
  CHECK(b->dl_tensor.dtype.code == kDLBool);
  CHECK(b->dl_tensor.dtype.bits == 8);
  b->deleter(b);
  auto times = devcol::make_column<devcol::timestamp_ns>({devcol::timestamp_ns{devcol::duration_ns{5}}});
  auto* ts = devcol::to_dlpack(times);
  CHECK(ts->dl_tensor.dtype.code == kDLInt);
  CHECK(ts->dl_tensor.dtype.bits == 64);
  ts->deleter(ts);
  auto floats = devcol::make_column<float>({1.0f});
  auto* f = devcol::to_dlpack(floats);
  CHECK(f->dl_tensor.dtype.code == kDLFloat);
  CHECK(f->dl_tensor.dtype.bits == 32);
  f->deleter(f);
}

TEST_CASE("dlpack: dates, times of day and half floats export as their ticks and bits, and import back",
          "[dlpack]") {
  leak_check leaks;
  STATIC_REQUIRE(devcol::dlpack_element<devcol::date32>);
  STATIC_REQUIRE(devcol::dlpack_element<devcol::float16>);
  STATIC_REQUIRE(devcol::dlpack_element<devcol::int128_t>);
  STATIC_REQUIRE_FALSE(devcol::dlpack_element<devcol::interval_month_day_nano>);
  STATIC_REQUIRE_FALSE(devcol::dlpack_element<devcol::interval_day_time>);
  STATIC_REQUIRE_FALSE(devcol::dlpack_element<devcol::int256_t>);
  auto expect = [](auto col, std::uint8_t code, int bits) {
    using T = typename decltype(col)::value_type;
    auto* tensor = devcol::to_dlpack(col);
    CHECK(tensor->dl_tensor.dtype.code == code);
    CHECK(tensor->dl_tensor.dtype.bits == bits);
    auto back = devcol::from_dlpack<T>(tensor);
    CHECK(back.data(devcol::access::read) == col.data(devcol::access::read));
    CHECK(devcol::to_host(back) == devcol::to_host(col));
  };
  expect(devcol::make_column<devcol::date32>({devcol::date32{devcol::date32::duration{-719162}},
                                              devcol::date32{devcol::date32::duration{19000}}}),
         kDLInt, 32);
  expect(devcol::make_column<devcol::time32_ms>({devcol::time32_ms{devcol::time32_ms::duration{86399999}}}), kDLInt,
         32);
  expect(devcol::make_column<devcol::time64_ns>({devcol::time64_ns{devcol::duration_ns{1}}}), kDLInt, 64);
  expect(devcol::make_column<devcol::date64>({devcol::date64{devcol::date64::duration{86400000}}}), kDLInt, 64);
  // -0.0, +inf and a NaN payload: bits go through unchanged.
  expect(devcol::make_column<devcol::float16>({devcol::float16{0x8000}, devcol::float16{0x7C00}, devcol::float16{0x7E01}}),
         kDLFloat, 16);
  // A tensor of int32 is not a date64 column: the width is checked, not only the code.
  auto days = devcol::make_column<devcol::date32>({devcol::date32{devcol::date32::duration{1}}});
  CHECK_THROWS_WITH(devcol::from_dlpack<devcol::date64>(devcol::to_dlpack(days)),
                    Contains("dtype (code 0, bits 32, lanes 1)") && Contains("(code 0, bits 64, lanes 1)"));
}

TEST_CASE("dlpack: a devcol export imports back as the same memory", "[dlpack]") {
  leak_check leaks;
  auto col = devcol::make_column<double>({1.5, -2.5, 3.25});
  auto back = devcol::from_dlpack<double>(devcol::to_dlpack(col));
  CHECK(back.data(devcol::access::read) == col.data(devcol::access::read));
  CHECK(back.is_borrowed());
  CHECK(devcol::to_host(back) == devcol::to_host(col));
}

TEST_CASE("dlpack: import borrows, and calls the producer's deleter once, after the last handle", "[dlpack]") {
  leak_check leaks;
  producer p(10);
  p.tensor.flags = DLPACK_FLAG_BITMASK_READ_ONLY;  // else the column counts as exposed and slices copy
  std::optional<devcol::column<i64>> col = devcol::from_dlpack<i64>(&p.tensor);
  CHECK(col->data(devcol::access::read) == p.memory.data(devcol::access::read));
  CHECK(devcol_test::host_values(*col)[9] == 109);
  auto slice = col->slice(2, 5);
  col.reset();
  CHECK(producer::deletions == 0);
  CHECK(devcol_test::host_values(slice) == std::vector<i64>{102, 103, 104});
  {
    auto gone = std::move(slice);
  }
  CHECK(producer::deletions == 1);
}

TEST_CASE("dlpack: a kDLBool tensor with a byte other than 0 or 1 is refused by row and byte, its deleter called",
          "[dlpack]") {
  leak_check leaks;
  auto const tensor_of = [](devcol::column<std::uint8_t> const& bytes, std::int64_t* shape) {
    DLManagedTensorVersioned t{};
    t.version = {1, 0};
    t.dl_tensor.data = const_cast<std::uint8_t*>(bytes.data(devcol::access::read));
    t.dl_tensor.device = {DEVCOL_BACKEND_CUDA ? kDLCUDA : kDLCPU, 0};
    t.dl_tensor.ndim = 1;
    t.dl_tensor.dtype = {kDLBool, 8, 1};
    t.dl_tensor.shape = shape;
    t.deleter = [](DLManagedTensorVersioned*) { ++producer::deletions; };
    return t;
  };
  producer::deletions = 0;
  auto const bad = devcol::make_column<std::uint8_t>({0, 1, 1, 2, 255});
  std::int64_t shape[1] = {5};
  auto t = tensor_of(bad, shape);
  CHECK_THAT(dlpack_error_of([&] { (void)devcol::from_dlpack<bool>(&t); }),
             Contains("row 3 of a kDLBool tensor holds the byte 2, not 0 or 1"));
  CHECK(producer::deletions == 1);
  auto const good = devcol::make_column<std::uint8_t>({0, 1, 1, 0, 1});
  auto t2 = tensor_of(good, shape);
  {
    auto const flags = devcol::from_dlpack<bool>(&t2);
    CHECK(devcol::sum(flags) == 3U);
  }
  CHECK(producer::deletions == 2);
}

TEST_CASE("dlpack: import checks the tensor and calls its deleter on failure", "[dlpack]") {
  leak_check leaks;
  auto const rejects = [](producer& p, std::string const& what) {
    CHECK_THAT(dlpack_error_of([&] { (void)devcol::from_dlpack<i64>(&p.tensor); }), Contains(what));
    CHECK(producer::deletions == 1);
  };
  CHECK_THAT(dlpack_error_of([] { (void)devcol::from_dlpack<i64>(nullptr); }), Contains("tensor is NULL"));
  SECTION("version") {
    producer p(4);
    p.tensor.version = {2, 0};
    rejects(p, "version 2.0 is not DLPack 1.x");
  }
  SECTION("two dimensions") {
    producer p(4);
    p.tensor.dl_tensor.ndim = 2;
    rejects(p, "ndim is 2");
  }
  SECTION("another element type") {
    producer p(4);
    p.tensor.dl_tensor.dtype = {kDLFloat, 64, 1};
    rejects(p, "dtype (code 2, bits 64, lanes 1) is not int64's");
  }
  SECTION("vector lanes") {
    producer p(4);
    p.tensor.dl_tensor.dtype.lanes = 2;
    rejects(p, "lanes 2");
  }
  SECTION("a stride") {
    producer p(4);
    p.strides[0] = 2;
    rejects(p, "stride 2 is not 1");
  }
  SECTION("negative shape") {
    producer p(4);
    p.shape[0] = -1;
    rejects(p, "shape[0] is -1");
  }
  SECTION("a device the backend cannot read") {
    producer p(4);
    p.tensor.dl_tensor.device = {kDLVulkan, 0};
    rejects(p, "device type 7 (VULKAN)");
  }
  SECTION("NULL data") {
    producer p(4);
    p.tensor.dl_tensor.data = nullptr;
    rejects(p, "data is NULL for 4 rows");
  }
  SECTION("misaligned data") {
    producer p(4);
    p.tensor.dl_tensor.byte_offset = 3;
    rejects(p, "is not aligned for int64");
  }
}

TEST_CASE("dlpack: after an export, the column and the tensor keep sharing: writes do not copy", "[dlpack][review]") {
  leak_check leaks;
  auto col = devcol::make_column<i64>({1, 2, 3, 4});
  auto* t = devcol::to_dlpack(col);
  devcol_test::assign(col, 0, std::vector<i64>{42});
  CHECK(col.data(devcol::access::read) == t->dl_tensor.data);
  i64 first = 0;
  devcol::copy_bytes(&first, t->dl_tensor.data, sizeof first, {});
  CHECK(first == 42);
  auto* again = devcol::to_dlpack(col);  // a second export shares the same memory too
  CHECK(again->dl_tensor.data == t->dl_tensor.data);
  again->deleter(again);
  t->deleter(t);
}

TEST_CASE("dlpack: an exported column may gain nulls: the tensor holds its values alone", "[dlpack][review]") {
  leak_check leaks;
  using opt = std::optional<i64>;
  auto const nulls = devcol::make_column<i64>({opt{7}, opt{}, opt{9}, opt{}});
  auto const rows = devcol::make_column<std::int32_t>({0, 1});
  auto filled = devcol::make_column<i64>({1, 2, 3, 4});
  auto scattered = filled.deep_copy();
  auto* filled_tensor = devcol::to_dlpack(filled);
  auto* scattered_tensor = devcol::to_dlpack(scattered);
  devcol::copy_into(nulls, filled);  // exposed, so written in place, where the tensor sees it
  devcol::scatter(nulls.slice(0, 2), rows, scattered);
  CHECK(devcol::to_host(filled) == std::vector<opt>{7, {}, 9, {}});
  CHECK(devcol::to_host(scattered) == std::vector<opt>{7, {}, 3, 4});
  i64 first = 0;
  devcol::copy_bytes(&first, filled_tensor->dl_tensor.data, sizeof first, {});
  CHECK(first == 7);
  CHECK(filled.data(devcol::access::read) == filled_tensor->dl_tensor.data);
  CHECK(scattered.data(devcol::access::read) == scattered_tensor->dl_tensor.data);
  filled_tensor->deleter(filled_tensor);
  scattered_tensor->deleter(scattered_tensor);
}

TEST_CASE("dlpack: a writable imported tensor counts as exposed, a read-only one does not", "[dlpack][review]") {
  leak_check leaks;
  {
    producer p(4);
    auto const col = devcol::from_dlpack<i64>(&p.tensor);
    CHECK(col.is_exposed());
    auto const copy = col;  // deep: the producer may still write
    CHECK(copy.data(devcol::access::read) != col.data(devcol::access::read));
  }
  {
    producer p(4);
    p.tensor.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
    auto const col = devcol::from_dlpack<i64>(&p.tensor);
    CHECK_FALSE(col.is_exposed());
    auto const copy = col;
    CHECK(copy.data(devcol::access::read) == col.data(devcol::access::read));
  }
  CHECK(producer::deletions == 1);
}
