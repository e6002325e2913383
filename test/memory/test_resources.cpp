// Memory layer: the resource concept, leaf resources, alignment and the size-comes-back contract.
#include "../support.hpp"

#include <algorithm>
#include <cstring>
#include <random>
#include <tuple>
#include <vector>

namespace devcol_test::resources {

using host_resources = std::tuple<                        //
    mr::host_aligned,                                     //
    mr::pool<mr::host_aligned>,                           //
    mr::pool<small_alignment_upstream<256>>,              //
    mr::statistics<mr::host_aligned>,                     //
    mr::tracking<mr::host_aligned>,                       //
    mr::limiting<mr::host_aligned>,                       //
    mr::logging<mr::host_aligned>,                        //
    mr::on_oom<mr::host_aligned>,                         //
    mr::aligned<mr::host_aligned>,                        //
    mr::aligned<small_alignment_upstream<64>>,            //
    mr::statistics<mr::pool<mr::host_aligned>>>;

// Each adaptor over a shared tracking resource, which checks every call that reaches it.
using checked_adaptors = std::tuple<mr::pool<mr::resource_handle>, mr::statistics<mr::resource_handle>,
                                    mr::tracking<mr::resource_handle>, mr::limiting<mr::resource_handle>,
                                    mr::logging<mr::resource_handle>, mr::on_oom<mr::resource_handle>,
                                    mr::aligned<mr::resource_handle>>;

}  // namespace devcol_test::resources

// --- compile-time contract --------------------------------------------------------------------------
static_assert(devcol::mr::memory_resource<devcol::mr::host_aligned>);
static_assert(devcol::mr::host_accessible_resource<devcol::mr::host_aligned>);
#if DEVCOL_BACKEND_HOST
static_assert(devcol::mr::device_accessible_resource<devcol::mr::host_aligned>, "the host backend's device is the CPU");
#else
static_assert(!devcol::mr::device_accessible_resource<devcol::mr::host_aligned>);
static_assert(devcol::mr::device_accessible_resource<devcol::mr::cuda_device>);
static_assert(devcol::mr::device_accessible_resource<devcol::mr::cuda_async>);
static_assert(!devcol::mr::host_accessible_resource<devcol::mr::cuda_async>);
static_assert(devcol::mr::host_accessible_resource<devcol::mr::pinned_host> &&
              devcol::mr::device_accessible_resource<devcol::mr::pinned_host>);
static_assert(devcol::mr::host_accessible_resource<devcol::mr::managed> &&
              devcol::mr::device_accessible_resource<devcol::mr::managed>);
static_assert(devcol::mr::device_accessible_resource<devcol::mr::pool<devcol::mr::cuda_async>>);
#endif
// Adaptors have their upstream's properties, and only those.
static_assert(devcol::mr::host_accessible_resource<devcol::mr::statistics<devcol::mr::pool<devcol::mr::host_aligned>>>);
static_assert(!devcol::mr::host_accessible_resource<devcol::mr::resource_handle>, "a handle's properties are known at run time");
static_assert(devcol::mr::memory_resource<devcol::mr::resource_handle>);
static_assert(devcol::mr::max_alignment_v<devcol::mr::tracking<devcol_test::small_alignment_upstream<64>>> == 64);

// CCCL's cuda::mr concepts, in the names of the CCCL release this is compiled with.
#include "cccl_concept_checks.hpp"

TEMPLATE_LIST_TEST_CASE("every resource and adaptor honours every power-of-two alignment up to 4096", "[memory][alignment]",
                        devcol_test::resources::host_resources) {
  auto resource = devcol_test::make_test_resource<TestType>();
  for (std::size_t const alignment : devcol_test::alignments) {
    for (std::size_t const bytes : {std::size_t{1}, std::size_t{100}, std::size_t{4099}, std::size_t{1} << 20}) {
      void* p = resource->allocate(bytes, alignment);
      INFO("bytes " << bytes << ", alignment " << alignment);
      REQUIRE(p != nullptr);
      CHECK(devcol::mr::is_aligned(p, alignment));
      auto* bytes_ptr = static_cast<unsigned char*>(p);
      bytes_ptr[0] = 1;  // the whole range is ours: first and last byte are writable
      bytes_ptr[bytes - 1] = 2;
      resource->deallocate(p, bytes, alignment);
    }
  }
}

TEMPLATE_LIST_TEST_CASE("every resource rejects an alignment that is not a power of two, naming it", "[memory][alignment]",
                        devcol_test::resources::host_resources) {
  auto resource = devcol_test::make_test_resource<TestType>();
  for (std::size_t const bad : {std::size_t{0}, std::size_t{3}, std::size_t{48}, std::size_t{1000}}) {
    try {
      (void)resource->allocate(64, bad);
      FAIL("alignment " << bad << " was accepted");
    } catch (devcol::logic_error const& e) {
      CHECK_THAT(e.what(), Catch::Contains("alignment " + std::to_string(bad) + " is not a power of two"));
    }
  }
}

TEST_CASE("a leaf resource rejects an alignment beyond its guarantee instead of ignoring it", "[memory][alignment]") {
  devcol_test::small_alignment_upstream<64> small;
  CHECK_THROWS_WITH(small.allocate(64, 128), Catch::Contains("alignment 128 exceeds the 64 bytes"));
  devcol::mr::host_aligned host;
  CHECK_THROWS_AS(host.allocate(64, devcol::mr::host_aligned::max_alignment * 2), devcol::logic_error);
  // The same request through the aligned adaptor is honoured.
  devcol::mr::aligned<devcol_test::small_alignment_upstream<64>> over{128};
  void* p = over.allocate(64, 128);
  CHECK(devcol::mr::is_aligned(p, 128));
  over.deallocate(p, 64, 128);
}

TEMPLATE_LIST_TEST_CASE("every deallocate reaches upstream with the size and alignment of its allocate", "[memory][contract]",
                        devcol_test::resources::checked_adaptors) {
  using tracker = devcol::mr::tracking<devcol::mr::host_aligned>;
  auto checker = devcol::mr::make_resource_handle<tracker>("checker");
  {
    auto adaptor = devcol_test::make_test_resource<TestType>(checker);
    std::mt19937 rng(42);
    std::vector<std::tuple<void*, std::size_t, std::size_t>> live;
    for (int i = 0; i < 500; ++i) {
      std::size_t const bytes = std::uniform_int_distribution<std::size_t>(0, 70000)(rng);
      std::size_t const alignment = devcol_test::alignments[std::uniform_int_distribution<std::size_t>(0, 12)(rng)];
      live.emplace_back(adaptor->allocate(bytes, alignment), bytes, alignment);
      if (rng() % 3 == 0) {
        std::swap(live[rng() % live.size()], live.back());
        auto const [p, b, a] = live.back();
        adaptor->deallocate(p, b, a);
        live.pop_back();
      }
    }
    std::shuffle(live.begin(), live.end(), rng);
    for (auto const& [p, b, a] : live) { adaptor->deallocate(p, b, a); }
  }  // the adaptor is gone: a pool has returned its chunks
  auto const* t = checker.target<tracker>();
  REQUIRE(t != nullptr);
  CHECK(t->mismatched_deallocations() == 0);
  CHECK(t->unknown_deallocations() == 0);
  CHECK(t->outstanding_count() == 0);
}

TEST_CASE("the checking resource does catch a deallocation with the wrong size", "[memory][contract]") {
  devcol::mr::tracking<devcol::mr::host_aligned> checker;
  void* p = checker.allocate(128, 64);
  checker.deallocate(p, 64, 64);  // wrong size: counted, and upstream still gets the right one
  CHECK(checker.mismatched_deallocations() == 1);
  CHECK(checker.outstanding_count() == 0);
  int not_ours = 0;
  checker.deallocate(&not_ours, 4, 4);
  CHECK(checker.unknown_deallocations() == 1);
}

// Tagged [huge_allocation]: sanitizer runtimes abort on a 4 EiB request unless allocator_may_return_null=1
// (the sanitizer presets set it; host_aligned then sees a null from the nothrow operator new).
TEST_CASE("host_aligned defaults to the 64-byte Arrow alignment and turns exhaustion into out_of_memory",
          "[memory][host_aligned][huge_allocation]") {
  devcol::mr::host_aligned r;
  void* p = r.allocate(3);
  CHECK(devcol::mr::is_aligned(p, 64));
  r.deallocate(p, 3);
  CHECK(r == devcol::mr::host_aligned{});
  try {
    (void)r.allocate(std::size_t{1} << 62, 64);
    FAIL("a 4 EiB allocation succeeded");
  } catch (devcol::out_of_memory const& e) {
    CHECK(e.requested_bytes() == std::size_t{1} << 62);
    CHECK_THAT(e.what(), Catch::Contains(std::to_string(std::size_t{1} << 62)));
  }
}

TEST_CASE("host_aligned refuses sizes that would wrap around instead of returning a tiny block", "[memory][host_aligned]") {
  devcol::mr::host_aligned r;
  for (std::size_t const bytes : {SIZE_MAX, SIZE_MAX - 62, SIZE_MAX - 63}) {  // each wraps when aligned
    for (std::size_t const alignment : {std::size_t{64}, std::size_t{4096}}) {
      INFO("bytes " << bytes << ", alignment " << alignment);
      CHECK_THROWS_AS(r.allocate(bytes, alignment), devcol::out_of_memory);
    }
  }
  devcol::mr::pool<devcol::mr::host_aligned> pool;
  CHECK_THROWS_AS(pool.allocate(SIZE_MAX - 100), devcol::out_of_memory);
  devcol::mr::aligned<devcol_test::small_alignment_upstream<64>> over{4096};
  CHECK_THROWS_AS(over.allocate(SIZE_MAX - 100), devcol::out_of_memory);
}

TEST_CASE("host_aligned blocks past the huge-page threshold keep every alignment asked and free cleanly",
          "[memory][host_aligned][huge_pages]") {
  using host = devcol::mr::host_aligned;
  host r;
  std::size_t const t = host::huge_page_threshold;
  for (std::size_t const bytes : {t - 1, t, t + 1, t + 4096, 2 * t + 12345}) {
    for (std::size_t const alignment : {std::size_t{1}, std::size_t{64}, std::size_t{4096}, host::max_alignment}) {
      INFO("bytes " << bytes << ", alignment " << alignment);
      auto* p = static_cast<unsigned char*>(r.allocate(bytes, alignment));
      CHECK(devcol::mr::is_aligned(p, alignment));
      if (bytes >= t) { CHECK(devcol::mr::is_aligned(p, host::huge_page_bytes)); }
      p[0] = 1;  // the first and last byte, and a byte in each huge page between, are usable
      for (std::size_t at = 0; at < bytes; at += host::huge_page_bytes) { p[at] = 2; }
      p[bytes - 1] = 3;
      CHECK(p[bytes - 1] == 3);
      r.deallocate(p, bytes, alignment);
    }
  }
  // Through a pool: its chunks grow past the threshold and go back to host_aligned on destruction.
  using tracker = devcol::mr::tracking<host>;
  auto checker = devcol::mr::make_resource_handle<tracker>("checker");
  {
    devcol::mr::pool<devcol::mr::resource_handle> pool{devcol::mr::pool_options{}, checker};
    std::vector<std::pair<void*, std::size_t>> live;
    for (std::size_t const bytes : {t / 2, t, 3 * t, std::size_t{100}}) { live.emplace_back(pool.allocate(bytes), bytes); }
    for (auto const& [p, bytes] : live) {
      CHECK(devcol::mr::is_aligned(p, devcol::mr::default_alignment));
      std::memset(p, 7, bytes);
      pool.deallocate(p, bytes);
    }
  }
  auto const* tracked = checker.target<tracker>();
  REQUIRE(tracked != nullptr);
  CHECK(tracked->mismatched_deallocations() == 0);
  CHECK(tracked->outstanding_count() == 0);
}

#if DEVCOL_BACKEND_CUDA
using devcol_test_cuda_leaves = std::tuple<devcol::mr::cuda_device, devcol::mr::cuda_async, devcol::mr::managed>;

TEMPLATE_LIST_TEST_CASE("CUDA device leaf resources honour alignments up to 256 and reject larger ones", "[memory][cuda]",
                        devcol_test_cuda_leaves) {
  TestType r;
  for (std::size_t const alignment : devcol_test::alignments) {
    if (alignment <= 256) {
      void* p = r.allocate(1000, alignment);
      CHECK(devcol::mr::is_aligned(p, alignment));
      r.deallocate(p, 1000, alignment);
    } else {
      CHECK_THROWS_AS(r.allocate(1000, alignment), devcol::logic_error);
    }
  }
  devcol::mr::aligned<TestType> over{4096};
  void* p = over.allocate(1000, 64);
  CHECK(devcol::mr::is_aligned(p, 4096));
  over.deallocate(p, 1000, 64);
}

TEST_CASE("pinned_host honours every power-of-two alignment up to 2 MiB, any instance frees it", "[memory][cuda]") {
  // Spilled owners keep their alignment on the host: one aligned beyond 256 bytes must spill too.
  devcol::mr::pinned_host r;
  for (std::size_t alignment = 1; alignment <= devcol::mr::pinned_host::max_alignment; alignment *= 2) {
    INFO("alignment " << alignment);
    void* p = r.allocate(1000, alignment);
    CHECK(devcol::mr::is_aligned(p, alignment));
    devcol::mr::pinned_host{}.deallocate(p, 1000, alignment);
  }
  CHECK(devcol::mr::pinned_host::max_alignment == std::size_t{1} << 21);
  CHECK_THROWS_AS(r.allocate(1000, 3), devcol::logic_error);
  CHECK_THROWS_AS(r.allocate(1000, devcol::mr::pinned_host::max_alignment * 2), devcol::logic_error);
}

TEST_CASE("cudaMalloc failure becomes devcol::out_of_memory with the size", "[memory][cuda]") {
  devcol::mr::cuda_device r;
  CHECK_THROWS_AS(r.allocate(std::size_t{1} << 60), devcol::out_of_memory);
}
#endif
