// Regression tests for the bugs the allocation-failure sweep found: each fails one allocation of an
// operation at the point where the old code had already changed its target.
#include "failing_resource.hpp"

#include <devcol/interop/arrow_stream.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace devcol_test::reliability {

namespace {

/// The failing resource as this thread's default, and its schedule.
struct failing_default {
  std::shared_ptr<failure_schedule> schedule = std::make_shared<failure_schedule>();
  mr::resource_handle handle = mr::make_resource_handle<failing_device>("failing", std::in_place, schedule);
  mr::scoped_default scope{handle};
  [[nodiscard]] failing_device const& tracker() const { return *handle.target<failing_device>(); }
};

/// Runs `op` with its last allocation failing (the one after which the old code had written).
template <class Op>
std::size_t fail_last_allocation(failure_schedule& schedule, Op op) {
  schedule.arm(SIZE_MAX);  // counts without failing
  op();
  std::size_t const n = schedule.allocations;
  schedule.disarm();
  return n;
}

}  // namespace

TEST_CASE("scatter that runs out of memory while making the new mask leaves its target as it was",
          "[reliability][scatter]") {
  failing_default mem;
  for (bool shared : {false, true}) {
    INFO((shared ? "shared target" : "unshared target"));
    auto target = devcol::make_column<std::int64_t>({1, std::nullopt, 3, 4, 5});
    auto const source = devcol::make_column<std::int64_t>({std::nullopt, 20});
    auto const indices = devcol::make_column<std::int32_t>({0, 2});
    devcol::column<std::int64_t> other = shared ? target : devcol::column<std::int64_t>{};
    auto const values = devcol::to_host(target);
    void const* const data = target.data(devcol::access::read);
    auto probe = target.deep_copy();  // the same state, to count scatter's allocations on
    auto const probe_other = shared ? probe : devcol::column<std::int64_t>{};
    std::size_t const allocations =
        fail_last_allocation(*mem.schedule, [&] { devcol::scatter(source, indices, probe); });
    REQUIRE(allocations >= 2);  // the winners, (the copy,) the mask
    std::size_t const live = mem.tracker().outstanding_count();
    mem.schedule->arm(allocations);
    CHECK_THROWS_AS(devcol::scatter(source, indices, target), devcol::out_of_memory);
    mem.schedule->disarm();
    CHECK(devcol::to_host(target) == values);
    CHECK(target.data(devcol::access::read) == data);
    CHECK(target.null_count() == 1);
    CHECK(mem.tracker().outstanding_count() == live);
    devcol::scatter(source, indices, target);  // and it still works
    CHECK(devcol::to_host(target) == std::vector<std::optional<std::int64_t>>{std::nullopt, std::nullopt, 20, 4, 5});
  }
}

TEST_CASE("copy_into that runs out of memory while copying the mask leaves its target as it was",
          "[reliability][copy_into]") {
  failing_default mem;
  for (bool shared : {false, true}) {
    INFO((shared ? "shared target" : "unshared target"));
    auto const src = devcol::make_column<std::int64_t>({std::nullopt, 7, 8});
    auto dst = devcol::make_column<std::int64_t>({1, 2, 3});
    devcol::column<std::int64_t> other = shared ? dst : devcol::column<std::int64_t>{};
    void const* const data = dst.data(devcol::access::read);
    mem.schedule->arm(shared ? 2 : 1);  // the mask (after fresh values when shared)
    CHECK_THROWS_AS(devcol::copy_into(src, dst), devcol::out_of_memory);
    mem.schedule->disarm();
    CHECK(devcol::to_host(dst) == std::vector<std::optional<std::int64_t>>{1, 2, 3});
    CHECK(dst.data(devcol::access::read) == data);
    CHECK_FALSE(dst.nullable());
    devcol::copy_into(src, dst);
    CHECK(devcol::to_host(dst) == devcol::to_host(src));
  }
}

TEST_CASE("fill of a spilled column that runs out of memory bringing its mask back leaves it as it was",
          "[reliability][fill][spill]") {
  failing_default mem;
  using devcol_test::spilling;
  auto col = devcol::make_column<std::int64_t, spilling>({1, std::nullopt, 3, 4});
  auto const values = devcol::to_host(col);
  REQUIRE(col.spill() > 0);
  mem.schedule->arm(2);  // the values come back (allocation 1), the mask does not (allocation 2)
  CHECK_THROWS_AS(devcol::fill(col, std::int64_t{9}), devcol::out_of_memory);
  mem.schedule->disarm();
  CHECK(devcol::to_host(col) == values);
  CHECK(col.null_count() == 1);
  devcol::fill(col, std::int64_t{9});  // and it still works
  CHECK(devcol::to_host(col) == std::vector<std::optional<std::int64_t>>{9, 9, 9, 9});
  CHECK(col.null_count() == 0);
}

TEST_CASE("a stream whose producer fails get_next with ENOMEM raises out_of_memory, not arrow_error",
          "[reliability][arrow][stream]") {
  failing_default mem;
  devcol::table batch;  // bool: exported bit-packed, so get_next allocates
  batch.add("x", devcol::make_column<bool>({true, false, true}));
  ArrowDeviceArrayStream stream{};
  devcol::to_arrow_stream(std::vector{batch}, &stream);
  mem.schedule->arm(1);  // devcol's exporter allocates when get_next exports the batch
  CHECK_THROWS_AS(devcol::tables_from_arrow(&stream), devcol::out_of_memory);
  mem.schedule->disarm();
  CHECK(stream.release == nullptr);  // taken over and released
}

}  // namespace devcol_test::reliability
