// devcol and RMM sharing memory resources, both ways (CUDA only; needs the librmm-cu13 wheel):
//   nvcc -std=c++20 -arch=sm_90 -Iinclude $(python3 examples/rapids_flags.py rmm) examples/rmm_both_ways.cu -o rmm_both_ways
// 1. a devcol resource stack serves RMM: behind rmm::device_async_resource_ref, and as RMM's
//    current device resource (what libcudf allocates from);
// 2. an RMM pool serves devcol: as the upstream of a devcol adaptor, inside a resource handle;
// 3. devcol's default follows RMM's current device resource.
// Every step checks what it prints; the program fails (exit 1) if one does not hold.
#include <devcol/devcol.hpp>
#include <devcol/memory/rmm.hpp>

#include <rmm/device_buffer.hpp>
#include <rmm/mr/cuda_async_memory_resource.hpp>
#include <rmm/mr/per_device_resource.hpp>
#include <rmm/mr/pool_memory_resource.hpp>

#include <concepts>
#include <cstdint>
#include <iostream>
#include <optional>
#include <vector>

namespace mr = devcol::mr;

// Any RMM resource is a devcol leaf or upstream: held by value (RMM 26's resources are shared
// handles) or through rmm::device_async_resource_ref. And a devcol stack over one is a CCCL
// resource again, for RMM and libcudf to take.
static_assert(mr::device_accessible_resource<mr::cccl_resource<rmm::mr::cuda_async_memory_resource>>);
static_assert(mr::device_accessible_resource<mr::cccl_resource<rmm::mr::pool_memory_resource>>);
static_assert(mr::device_accessible_resource<mr::rmm_resource_ref>);
static_assert(mr::device_accessible_resource<mr::rmm_current_device_resource>);
static_assert(cuda::mr::resource_with<mr::pool<mr::cccl_resource<rmm::mr::pool_memory_resource>>, cuda::mr::device_accessible>);
static_assert(std::copyable<mr::statistics<mr::pool<mr::cuda_async>>>, "what CCCL 3.1+'s resource_ref asks of a resource");

namespace {
int failures = 0;
void expect(bool ok, char const* what) {
  std::cout << (ok ? "  ok: " : "  FAILED: ") << what << '\n';
  failures += ok ? 0 : 1;
}
}  // namespace

int main() {
  devcol::stream s;
  ::cuda::stream_ref const rmm_stream = s.ref();  // RMM 26 takes CCCL's stream reference
  std::vector<std::optional<std::int64_t>> const values{1, 2, std::nullopt, 4};

  // 1. devcol -> RMM. CCCL 3.1+'s resource references (RMM's device_async_resource_ref) take only
  //    resources they could copy; devcol's adaptors are shared handles, so the adaptor goes in as
  //    it is, and every copy RMM makes allocates from the same pool.
  std::cout << "1. a devcol stack serves RMM\n";
  devcol::mr::pool<devcol::mr::cuda_async> pool;
  {
    rmm::device_async_resource_ref ref{pool};
    rmm::device_buffer buffer{1 << 20, rmm_stream, ref};
    expect(pool.used_bytes() == 1 << 20, "an rmm::device_buffer took 1 MiB from devcol's pool");
  }
  expect(pool.used_bytes() == 0, "and gave it back");
  using devcol_stack = mr::statistics<mr::pool<mr::cuda_async>>;
  devcol_stack stack;
  {
    auto previous = rmm::mr::set_current_device_resource(stack);  // RMM keeps a copy: it shares the stack
    rmm::device_buffer buffer{4096, rmm_stream};                     // RMM's (and libcudf's) default now
    expect(stack.report().bytes.current == 4096, "RMM's current device resource is devcol's stack");
    buffer = rmm::device_buffer{};
    rmm::mr::set_current_device_resource(std::move(previous));
  }
  expect(stack.report().bytes.current == 0, "RMM's copy freed into the same stack");

  // 2. RMM -> devcol: RMM's resources are CCCL resources; mr::cccl_resource makes one a devcol leaf.
  rmm::mr::cuda_async_memory_resource async;
  rmm::mr::pool_memory_resource rmm_pool{async, std::size_t{1} << 24};
  using over_rmm = mr::statistics<mr::cccl_resource<rmm::mr::pool_memory_resource>>;
  std::cout << "2. an RMM pool serves devcol\n";
  {
    auto handle = mr::make_resource_handle<over_rmm>("statistics over an RMM pool", std::in_place, rmm_pool);
    mr::scoped_default use_it{handle};
    auto col = devcol::make_column<std::int64_t>({1, 2, std::nullopt, 4}, s);
    std::cout << "  " << col << '\n';
    expect(devcol::to_host(col, s) == values, "a column allocated from RMM's pool reads back");
    expect(handle.target<over_rmm>()->report().allocations.current > 0, "its buffers came through the handle");
  }

  // 3. devcol's default follows RMM's current device resource, whatever it is at each allocation.
  std::cout << "3. devcol's default follows RMM's\n";
  {
    auto previous_rmm = rmm::mr::set_current_device_resource(rmm_pool);
    auto previous_devcol = mr::follow_rmm_current_device_resource();
    auto col = devcol::make_column<std::int64_t>({1, 2, std::nullopt, 4}, s);
    expect(devcol::to_host(col, s) == values, "a column allocated from RMM's current resource reads back");
    rmm::mr::set_current_device_resource(std::move(previous_rmm));
    col = devcol::make_column<std::int64_t>({4}, s);  // the first column's memory goes back to rmm_pool
    expect(devcol::to_host(col, s).size() == 1, "RMM's resource changed under devcol: each allocation still goes home");
    mr::set_per_device_default(devcol::current_device(), previous_devcol);
  }
  s.synchronize();
  std::cout << (failures == 0 ? "all held\n" : "some did not hold\n");
  return failures == 0 ? 0 : 1;
}
