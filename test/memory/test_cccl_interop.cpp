// Memory layer and CCCL's cuda::mr, both ways: devcol resources called through CCCL's type-erased
// references (what RMM's device_async_resource_ref is), and a CCCL resource as a devcol leaf and
// upstream (what an RMM resource is to devcol). The compile-time half is cccl_concept_checks.hpp.
#include "../support.hpp"
#include "cccl_concept_checks.hpp"

#if DEVCOL_HAS_CCCL_MR
#  include <cstdlib>
#  include <memory>
#  include <new>
#  include <vector>

namespace devcol_test::cccl_interop {
using devcol_test::cccl_concepts::cccl_api;
using devcol_test::cccl_concepts::stream_ordered_ref;

/// A resource written against CCCL alone, as RMM writes its own: host memory, counting its calls;
/// refuses (std::bad_alloc, as rmm::out_of_memory is one) any request above `limit`.
class counting_cccl_resource {
 public:
  struct counts {
    int allocations = 0;
    int deallocations = 0;
    std::size_t last_bytes = 0;
    std::size_t last_alignment = 0;
  };
  explicit counting_cccl_resource(counts* c, std::size_t limit = 1 << 20) : counts_(c), limit_(limit) {}

#  if CCCL_VERSION >= 3001000
  void* allocate(::cuda::stream_ref, std::size_t bytes, std::size_t alignment) { return do_allocate(bytes, alignment); }
  void deallocate(::cuda::stream_ref, void* p, std::size_t bytes, std::size_t alignment) noexcept {
    do_deallocate(p, bytes, alignment);
  }
  void* allocate_sync(std::size_t bytes, std::size_t alignment) { return do_allocate(bytes, alignment); }
  void deallocate_sync(void* p, std::size_t bytes, std::size_t alignment) noexcept { do_deallocate(p, bytes, alignment); }
#  else
  void* allocate_async(std::size_t bytes, std::size_t alignment, ::cuda::stream_ref) { return do_allocate(bytes, alignment); }
  void deallocate_async(void* p, std::size_t bytes, std::size_t alignment, ::cuda::stream_ref) noexcept {
    do_deallocate(p, bytes, alignment);
  }
  void* allocate(std::size_t bytes, std::size_t alignment) { return do_allocate(bytes, alignment); }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment) noexcept { do_deallocate(p, bytes, alignment); }
#  endif
  friend bool operator==(counting_cccl_resource const& a, counting_cccl_resource const& b) noexcept {
    return a.counts_ == b.counts_;
  }
  friend void get_property(counting_cccl_resource const&, ::cuda::mr::host_accessible) noexcept {}

 private:
  void* do_allocate(std::size_t bytes, std::size_t alignment) {
    if (bytes > limit_) { throw std::bad_alloc{}; }
    ++counts_->allocations;
    counts_->last_bytes = bytes;
    counts_->last_alignment = alignment;
    return ::operator new(bytes, std::align_val_t{alignment});
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) noexcept {
    ++counts_->deallocations;
    counts_->last_bytes = bytes;
    counts_->last_alignment = alignment;
    ::operator delete(p, std::align_val_t{alignment});
  }
  counts* counts_;
  std::size_t limit_;
};
static_assert(mr::cccl_memory_resource<counting_cccl_resource>);
static_assert(cccl_concepts::stream_ordered_with<counting_cccl_resource, mr::host_accessible>);

/// Allocates and frees through a CCCL reference, stream-ordered, in the spelling of this CCCL.
template <class Ref>
void round_trip_through_cccl(Ref ref, std::size_t bytes, std::size_t alignment) {
  ::cuda::stream_ref const stream{::cudaStream_t{}};
#  if CCCL_VERSION >= 3001000
  void* p = ref.allocate(stream, bytes, alignment);
  REQUIRE(mr::is_aligned(p, alignment));
  ref.deallocate(stream, p, bytes, alignment);
  void* q = ref.allocate_sync(bytes, alignment);
  ref.deallocate_sync(q, bytes, alignment);
#  else
  void* p = ref.allocate_async(bytes, alignment, stream);
  REQUIRE(mr::is_aligned(p, alignment));
  ref.deallocate_async(p, bytes, alignment, stream);
  void* q = ref.allocate(bytes, alignment);
  ref.deallocate(q, bytes, alignment);
#  endif
}


TEST_CASE("a devcol resource stack serves calls through CCCL's stream-ordered reference", "[memory][cccl]") {
  using stack = mr::statistics<mr::pool<mr::host_aligned>>;
  mr::shared_resource<stack> shared;
  round_trip_through_cccl(stream_ordered_ref<mr::host_accessible>{shared}, 1000, 128);
  // Both calls reached the one shared stack, and everything came back.
  CHECK(shared.get().report().allocations.total == 2);
  CHECK(shared.get().report().bytes.current == 0);

  mr::shared_resource<stack> copy = shared;  // a copy shares the stack
  CHECK(copy == shared);
  CHECK(&copy.get() == &shared.get());
  CHECK_FALSE(mr::shared_resource<stack>{} == shared);

  stack direct;
  mr::resource_ref<stack> ref{direct};
  round_trip_through_cccl(stream_ordered_ref<mr::host_accessible>{ref}, 64, 64);
  CHECK(direct.report().allocations.total == 2);
  CHECK(direct.report().bytes.current == 0);
}

TEST_CASE("a devcol adaptor goes into CCCL's stream-ordered reference as it is, and copies CCCL makes share it",
          "[memory][cccl][copies]") {
  using stack = mr::statistics<mr::pool<mr::host_aligned>>;
  stack direct;  // RMM's `rmm::device_async_resource_ref ref{pool};`, on CCCL 3.0 and on 3.1+
  round_trip_through_cccl(stream_ordered_ref<mr::host_accessible>{direct}, 1000, 128);
  CHECK(direct.report().allocations.total == 2);
  CHECK(direct.report().bytes.current == 0);
#  if CCCL_VERSION >= 3001000
  {
    // An owning any_resource (what rmm::mr::set_current_device_resource keeps) holds a copy: the
    // same pool, the same counters, alive after the original handle is gone.
    auto original = std::make_unique<stack>();
    ::cuda::mr::any_resource<mr::host_accessible> owned{*original};
    ::cuda::stream_ref const stream{::cudaStream_t{}};
    void* p = owned.allocate(stream, 512, 64);
    CHECK(original->report().bytes.current == 512);
    CHECK(original->upstream().used_bytes() == 512);
    original.reset();
    owned.deallocate(stream, p, 512, 64);
  }
#  endif
}

TEST_CASE("a CCCL resource is a devcol leaf, an upstream and the resource of a handle", "[memory][cccl]") {
  counting_cccl_resource::counts counts;
  using leaf = mr::cccl_resource<counting_cccl_resource>;
  {
    leaf r{counting_cccl_resource{&counts}};
    void* p = r.allocate(4096, 256, devcol::stream_ref{});
    CHECK(counts.allocations == 1);
    CHECK(counts.last_bytes == 4096);
    CHECK(counts.last_alignment == 256);
    r.deallocate(p, 4096, 256, devcol::stream_ref{});
    CHECK(counts.deallocations == 1);
    CHECK(r == leaf{counting_cccl_resource{&counts}});
  }
  {
    mr::pool<leaf> pool{mr::pool_options{}, leaf{counting_cccl_resource{&counts}}};
    void* p = pool.allocate(100);
    CHECK(counts.allocations == 2);  // the pool took its chunk from the CCCL resource
    pool.deallocate(p, 100);
  }
  CHECK(counts.deallocations == 2);  // and gave it back when it went
  {
    mr::scoped_default use_it{mr::make_resource_handle<leaf>("cccl", counting_cccl_resource{&counts})};
    auto col = devcol::make_column<std::int32_t>({1, 2, 3});
    CHECK(counts.allocations == 3);
    CHECK(devcol::to_host(col) == std::vector<std::optional<std::int32_t>>{1, 2, 3});
  }
  CHECK(counts.deallocations == 3);
}

TEST_CASE("a CCCL resource's bad_alloc becomes devcol::out_of_memory, which on_oom sees", "[memory][cccl]") {
  counting_cccl_resource::counts counts;
  mr::cccl_resource<counting_cccl_resource> r{counting_cccl_resource{&counts, 1024}};
  CHECK_THROWS_AS(r.allocate(2048), devcol::out_of_memory);
  int calls = 0;
  mr::on_oom<mr::cccl_resource<counting_cccl_resource>> guarded{
      [&calls](std::size_t, devcol::stream_ref) {
        ++calls;
        return false;
      },
      std::in_place, counting_cccl_resource{&counts, 1024}};
  CHECK_THROWS_AS(guarded.allocate(2048), devcol::out_of_memory);
  CHECK(calls == 1);
  CHECK(counts.allocations == 0);
}

TEST_CASE("a CCCL reference to a devcol stack wraps back into devcol", "[memory][cccl]") {
  mr::shared_resource<mr::tracking<mr::host_aligned>> tracked;
  mr::cccl_resource<stream_ordered_ref<mr::host_accessible>> back{stream_ordered_ref<mr::host_accessible>{tracked}};
  void* p = back.allocate(512, 64, devcol::stream_ref{});
  CHECK(tracked.get().outstanding_count() == 1);
  back.deallocate(p, 512, 64, devcol::stream_ref{});
  CHECK(tracked.get().outstanding_count() == 0);
  CHECK_THROWS_AS(back.allocate(8, 512), devcol::logic_error);  // beyond the 256 bytes it promises
}

}  // namespace devcol_test::cccl_interop
#endif
