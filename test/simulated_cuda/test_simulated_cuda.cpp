// The simulated CUDA runtime's own tests (it reports what CUDA does not order, and nothing else),
// and devcol's stream order checked by it: the CUDA backend's synchronisation without a GPU.
#include "simulated_cuda.hpp"

#include <devcol/devcol.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace sim_test {

using i64 = std::int64_t;
namespace access = devcol::access;

// The reports since the last call (the double printed each one when it made it).
std::vector<std::string> reports() { return devcol_sim::take_reports(); }
bool any_mentions(std::vector<std::string> const& rs, std::string const& a, std::string const& b = {}) {
  return std::any_of(rs.begin(), rs.end(), [&](std::string const& r) {
    return r.find(a) != std::string::npos && r.find(b) != std::string::npos;
  });
}

// A raw CUDA stream, destroyed at scope exit.
struct raw_stream {
  cudaStream_t value{};
  raw_stream() { REQUIRE(cudaStreamCreateWithFlags(&value, cudaStreamNonBlocking) == cudaSuccess); }
  raw_stream(raw_stream const&) = delete;
  raw_stream& operator=(raw_stream const&) = delete;
  ~raw_stream() { (void)cudaStreamDestroy(value); }
};
struct raw_event {
  cudaEvent_t value{};
  raw_event() { REQUIRE(cudaEventCreateWithFlags(&value, cudaEventDisableTiming) == cudaSuccess); }
  raw_event(raw_event const&) = delete;
  raw_event& operator=(raw_event const&) = delete;
  ~raw_event() { (void)cudaEventDestroy(value); }
};
// Makes `device` current until scope exit.
struct on_device {
  int previous = 0;
  explicit on_device(int device) {
    REQUIRE(cudaGetDevice(&previous) == cudaSuccess);
    REQUIRE(cudaSetDevice(device) == cudaSuccess);
  }
  on_device(on_device const&) = delete;
  on_device& operator=(on_device const&) = delete;
  ~on_device() { (void)cudaSetDevice(previous); }
};

// --- the double ---------------------------------------------------------------------------------

TEST_CASE("the double reports a free on one stream of memory another stream reads, naming both", "[simulated_cuda]") {
  raw_stream a;
  raw_stream b;
  void* p = nullptr;
  std::vector<char> host(64);
  REQUIRE(cudaMallocAsync(&p, 64, a.value) == cudaSuccess);
  REQUIRE(cudaMemsetAsync(p, 7, 64, a.value) == cudaSuccess);
  raw_event filled;
  REQUIRE(cudaEventRecord(filled.value, a.value) == cudaSuccess);
  REQUIRE(cudaStreamWaitEvent(b.value, filled.value, 0) == cudaSuccess);
  REQUIRE(cudaMemcpyAsync(host.data(), p, 64, cudaMemcpyDefault, b.value) == cudaSuccess);
  REQUIRE(reports().empty());  // the read on b follows the fill on a: ordered by the event

  SECTION("freed on a with no edge from b's read: reported") {
    REQUIRE(cudaFreeAsync(p, a.value) == cudaSuccess);
    auto const rs = reports();
    REQUIRE(rs.size() == 1);
    CHECK(any_mentions(rs, "race: cudaFreeAsync on stream", "that cudaMemcpyAsync on stream"));
  }
  SECTION("freed on a after waiting for b: quiet") {
    raw_event read;
    REQUIRE(cudaEventRecord(read.value, b.value) == cudaSuccess);
    REQUIRE(cudaStreamWaitEvent(a.value, read.value, 0) == cudaSuccess);
    REQUIRE(cudaFreeAsync(p, a.value) == cudaSuccess);
    REQUIRE(reports().empty());
  }
  SECTION("freed on a after the host synchronised b: quiet (the host's order carries to what it queues)") {
    REQUIRE(cudaStreamSynchronize(b.value) == cudaSuccess);
    REQUIRE(cudaFreeAsync(p, a.value) == cudaSuccess);
    REQUIRE(reports().empty());
  }
  REQUIRE(cudaStreamSynchronize(b.value) == cudaSuccess);
}

TEST_CASE("the double reports a host read of memory a stream writes before the host waits for it", "[simulated_cuda]") {
  raw_stream s;
  void* p = nullptr;
  REQUIRE(cudaMallocAsync(&p, 32, s.value) == cudaSuccess);
  REQUIRE(cudaMemsetAsync(p, 1, 32, s.value) == cudaSuccess);
  std::vector<char> host(32);
  REQUIRE(cudaMemcpyAsync(host.data(), p, 32, cudaMemcpyDefault, s.value) == cudaSuccess);
  devcol_sim::host_read(host.data(), host.size());
  auto const rs = reports();
  REQUIRE(rs.size() == 1);
  CHECK(any_mentions(rs, "race: a host read on the host reads", "that cudaMemcpyAsync on stream"));

  REQUIRE(cudaStreamSynchronize(s.value) == cudaSuccess);
  devcol_sim::host_read(host.data(), host.size());
  REQUIRE(reports().empty());
  CHECK(host[31] == 1);  // the work itself ran
  REQUIRE(cudaFreeAsync(p, s.value) == cudaSuccess);
  REQUIRE(reports().empty());
}

TEST_CASE("the double orders by events only the work queued before the record", "[simulated_cuda]") {
  raw_stream a;
  raw_stream b;
  void* p = nullptr;
  REQUIRE(cudaMallocAsync(&p, 16, a.value) == cudaSuccess);
  raw_event allocated;
  REQUIRE(cudaEventRecord(allocated.value, a.value) == cudaSuccess);
  REQUIRE(cudaMemsetAsync(p, 0, 16, a.value) == cudaSuccess);  // after the record
  REQUIRE(cudaStreamWaitEvent(b.value, allocated.value, 0) == cudaSuccess);
  REQUIRE(cudaMemsetAsync(p, 1, 8, b.value) == cudaSuccess);
  auto const rs = reports();
  REQUIRE(rs.size() == 1);
  CHECK(any_mentions(rs, "race: cudaMemsetAsync on stream", "that cudaMemsetAsync on stream"));
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  REQUIRE(cudaFreeAsync(p, a.value) == cudaSuccess);
  REQUIRE(reports().empty());
}

TEST_CASE("the double fails a call on a stream or event of a device that is not current", "[simulated_cuda]") {
  int count = 0;
  REQUIRE(cudaGetDeviceCount(&count) == cudaSuccess);
  REQUIRE(count >= 2);
  raw_event on_zero;  // device 0's
  raw_stream zero;
  on_device one(1);
  raw_stream s1;
  CHECK(cudaEventRecord(on_zero.value, s1.value) == cudaErrorInvalidResourceHandle);
  CHECK(cudaGetLastError() == cudaErrorInvalidResourceHandle);
  CHECK(cudaGetLastError() == cudaSuccess);
  auto rs = reports();
  REQUIRE(rs.size() == 1);
  CHECK(any_mentions(rs, "cudaEventRecord of an event of device 0 on stream", "(device 1)"));

  CHECK(cudaMemsetAsync(nullptr, 0, 0, zero.value) == cudaErrorInvalidResourceHandle);
  (void)cudaGetLastError();
  rs = reports();
  REQUIRE(rs.size() == 1);
  CHECK(any_mentions(rs, "(device 0) while device 1 is current"));

  raw_event on_one;
  CHECK(cudaEventRecord(on_one.value, s1.value) == cudaSuccess);
  CHECK(cudaStreamWaitEvent(s1.value, on_zero.value, 0) == cudaSuccess);  // CUDA allows a wait across devices
  REQUIRE(reports().empty());
}

TEST_CASE("the double reports work queued on a destroyed stream, and memory used after its free", "[simulated_cuda]") {
  cudaStream_t s{};
  REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  void* p = nullptr;
  REQUIRE(cudaMallocAsync(&p, 8, s) == cudaSuccess);
  REQUIRE(cudaFreeAsync(p, s) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(cudaMemsetAsync(p, 0, 8, nullptr) == cudaErrorInvalidValue);
  (void)cudaGetLastError();
  auto rs = reports();
  REQUIRE(rs.size() == 1);
  CHECK(any_mentions(rs, "touches memory freed by stream"));

  REQUIRE(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaErrorInvalidResourceHandle);
  (void)cudaGetLastError();
  rs = reports();
  REQUIRE(rs.size() == 1);
  CHECK(any_mentions(rs, "cudaStreamSynchronize on stream", "after cudaStreamDestroy"));
}

TEST_CASE("the double reports a pool that hands a block freed on one stream to another with no event", "[simulated_cuda]") {
  // What a stream-unaware pool does: the block returns to its free list on a's free and is handed
  // out on b at once. The double sees the upstream allocation only, so b's first write races a's.
  raw_stream a;
  raw_stream b;
  void* block = nullptr;
  REQUIRE(cudaMallocAsync(&block, 512, a.value) == cudaSuccess);  // the pool's upstream memory
  REQUIRE(cudaMemsetAsync(block, 1, 512, a.value) == cudaSuccess);  // a's user, then "freed" to the pool
  SECTION("reused on b with no wait: reported") {
    REQUIRE(cudaMemsetAsync(block, 2, 256, b.value) == cudaSuccess);
    auto const rs = reports();
    REQUIRE(rs.size() == 1);
    CHECK(any_mentions(rs, "race: cudaMemsetAsync on stream", "that cudaMemsetAsync on stream"));
  }
  SECTION("reused on b after b waits for a's free: quiet") {
    raw_event freed;
    REQUIRE(cudaEventRecord(freed.value, a.value) == cudaSuccess);
    REQUIRE(cudaStreamWaitEvent(b.value, freed.value, 0) == cudaSuccess);
    REQUIRE(cudaMemsetAsync(block, 2, 256, b.value) == cudaSuccess);
    REQUIRE(reports().empty());
  }
  REQUIRE(cudaStreamSynchronize(b.value) == cudaSuccess);
  REQUIRE(cudaFreeAsync(block, a.value) == cudaSuccess);
  REQUIRE(reports().empty());
}

TEST_CASE("the double stays quiet on work ordered across three streams by events and host waits", "[simulated_cuda]") {
  raw_stream a;
  raw_stream b;
  raw_stream c;
  void* p = nullptr;
  void* q = nullptr;
  REQUIRE(cudaMallocAsync(&p, 256, a.value) == cudaSuccess);
  REQUIRE(cudaMallocAsync(&q, 256, a.value) == cudaSuccess);
  REQUIRE(cudaMemsetAsync(p, 3, 256, a.value) == cudaSuccess);
  raw_event e;
  REQUIRE(cudaEventRecord(e.value, a.value) == cudaSuccess);
  REQUIRE(cudaStreamWaitEvent(b.value, e.value, 0) == cudaSuccess);
  REQUIRE(cudaStreamWaitEvent(c.value, e.value, 0) == cudaSuccess);
  // Two readers of p at once, writers of disjoint halves of q: no conflict.
  REQUIRE(cudaMemcpyAsync(q, p, 128, cudaMemcpyDefault, b.value) == cudaSuccess);
  REQUIRE(cudaMemcpyAsync(static_cast<char*>(q) + 128, p, 128, cudaMemcpyDefault, c.value) == cudaSuccess);
  raw_event eb;
  raw_event ec;
  REQUIRE(cudaEventRecord(eb.value, b.value) == cudaSuccess);
  REQUIRE(cudaEventRecord(ec.value, c.value) == cudaSuccess);
  REQUIRE(cudaStreamWaitEvent(a.value, eb.value, 0) == cudaSuccess);
  REQUIRE(cudaStreamWaitEvent(a.value, ec.value, 0) == cudaSuccess);
  std::vector<unsigned char> host(256);
  REQUIRE(cudaMemcpyAsync(host.data(), q, 256, cudaMemcpyDefault, a.value) == cudaSuccess);
  REQUIRE(cudaFreeAsync(p, a.value) == cudaSuccess);
  REQUIRE(cudaFreeAsync(q, a.value) == cudaSuccess);
  REQUIRE(cudaEventSynchronize(e.value) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(a.value) == cudaSuccess);
  devcol_sim::host_read(host.data(), host.size());
  REQUIRE(reports().empty());
  CHECK(std::all_of(host.begin(), host.end(), [](unsigned char v) { return v == 3; }));
  CHECK_FALSE(devcol_sim::is_live_allocation(p));
}

// --- devcol on the double -----------------------------------------------------------------------

TEST_CASE("devcol's CUDA backend runs on the double: columns, ops, to_host, with no report", "[simulated_cuda][devcol]") {
  static_assert(DEVCOL_BACKEND_CUDA && DEVCOL_SIMULATED_CUDA, "this file tests the CUDA backend");
  std::size_t const before = devcol_sim::live_allocations();
  {
    devcol::stream s;
    auto a = devcol::make_column<i64>({1, 2, std::nullopt, 4}, s);
    CHECK(devcol_sim::is_live_allocation(a.data(access::read)));
    auto b = devcol::transform(a, [](i64 v) { return v * 10; }, s);
    devcol::fill(a, i64{5}, s);
    auto const values = devcol::to_host(b, s);
    REQUIRE(values == std::vector<std::optional<i64>>{10, 20, std::nullopt, 40});
    CHECK(devcol::to_host(a, s) == std::vector<std::optional<i64>>{5, 5, 5, 5});
  }
  CHECK(devcol_sim::live_allocations() == before);
  REQUIRE(reports().empty());
}

TEST_CASE("the double reports devcol ops on two streams with no event between them", "[simulated_cuda][devcol]") {
  devcol::stream s1;
  devcol::stream s2;
  auto a = devcol::make_column<i64>({1, 2, 3}, s1);
  s1.synchronize();
  devcol::fill(a, i64{9}, s1);  // queued on s1 ...
  auto b = devcol::transform(a, [](i64 v) { return v + 1; }, s2);  // ... read on s2: no edge
  auto rs = reports();
  REQUIRE(!rs.empty());
  CHECK(any_mentions(rs, "race: a kernel on stream", "that a kernel on stream"));

  devcol::event done;  // the fix: s2 waits for s1's work
  done.record(s1);
  done.wait(s2);
  auto c = devcol::transform(a, [](i64 v) { return v + 1; }, s2);
  CHECK(devcol::to_host(c, s2) == std::vector<std::optional<i64>>{10, 10, 10});
  s1.synchronize();
  s2.synchronize();
  REQUIRE(reports().empty());
}

TEST_CASE("a deep copy on another stream orders the source's free after the copy", "[simulated_cuda][devcol]") {
  devcol::stream s1;
  devcol::stream s2;
  devcol::buffer<> copy;
  {
    devcol::buffer<> source(1024, s1);
    devcol::fill_bytes(source.data(access::write, s1), 1, 1024, s1);
    s1.synchronize();
    copy = source.deep_copy(s2);  // read on s2; `source` is freed on s1 next
  }
  s2.synchronize();
  devcol_sim::host_read(copy.data(access::read), 1);
  REQUIRE(reports().empty());
}

TEST_CASE("a pool hands a block freed on one stream to another only after an event", "[simulated_cuda][devcol]") {
  devcol::mr::pool<devcol::mr::cuda_async> pool;
  devcol::stream s1;
  devcol::stream s2;
  void* p = pool.allocate(4096, 256, s1);
  devcol::fill_bytes(p, 1, 4096, s1);
  pool.deallocate(p, 4096, 256, s1);
  void* q = pool.allocate(4096, 256, s2);  // the same block, most likely: then s2 waits for s1
  devcol::fill_bytes(q, 2, 4096, s2);
  pool.deallocate(q, 4096, 256, s2);
  s2.synchronize();
  s1.synchronize();
  REQUIRE(reports().empty());
}

TEST_CASE("an Arrow export's sync event orders the consumer after the producer's writes", "[simulated_cuda][devcol]") {
  devcol::stream producer;
  devcol::stream consumer;
  auto col = devcol::make_column<i64>({4, 5, 6}, producer);
  devcol::fill(col, i64{8}, producer);  // still queued on the producer's stream at export
  ArrowSchema schema{};
  ArrowDeviceArray array{};
  devcol::to_arrow(col, &schema, &array, producer);
  auto back = devcol::from_arrow<i64>(&schema, &array, consumer);
  auto doubled = devcol::transform(back, [](i64 v) { return 2 * v; }, consumer);
  CHECK(devcol::to_host(doubled, consumer) == std::vector<std::optional<i64>>{16, 16, 16});
  producer.synchronize();
  REQUIRE(reports().empty());
}

// --- defect 4: what captured a stream outlives the devcol::stream --------------------------------

TEST_CASE("memory allocated on a devcol::stream is used and freed safely after the stream is destroyed",
          "[simulated_cuda][devcol][stream_lifetime][defect_4]") {
  std::optional<devcol::column<i64>> col;
  {
    devcol::stream s;
    col = devcol::make_column<i64>({1, 2, 3}, s);
    devcol::fill(*col, i64{4}, s);  // still queued when s goes
  }
  CHECK(devcol::to_host(*col) == std::vector<std::optional<i64>>{4, 4, 4});  // the default stream: after s's work
  auto copy = *col;
  devcol::fill(copy, i64{5});  // copy-on-write: the copy's order after the source's stream, which is gone
  col.reset();  // freed on the stream it was allocated on, which is gone
  CHECK(devcol::to_host(copy) == std::vector<std::optional<i64>>{5, 5, 5});
  REQUIRE(reports().empty());
}

// Made (empty) before main, so before the first stream made the set of retired streams: its stream
// is destroyed at exit after that set would have been, and retires into it.
std::optional<devcol::stream> stream_at_namespace_scope;  // NOLINT: the case under test

TEST_CASE("a devcol::stream at namespace scope is destroyed safely at exit",
          "[simulated_cuda][devcol][stream_lifetime]") {
  { devcol::stream const retired; }  // the set of retired streams now holds memory
  stream_at_namespace_scope.emplace();
  auto col = devcol::make_column<i64>({1, 2, 3}, *stream_at_namespace_scope);
  CHECK(devcol::to_host(col, *stream_at_namespace_scope) == std::vector<std::optional<i64>>{1, 2, 3});
  REQUIRE(reports().empty());
}

// What is destroyed after the runtime began to shut down at exit (a stream, event or column of
// static storage duration made before the runtime's first use) meets cudaErrorCudartUnloading from
// every call: nothing is left to free or wait for, so it is no failure, in debug builds too.
TEST_CASE("a stream, event and column destroyed while the CUDA runtime unloads at exit do not abort",
          "[simulated_cuda][devcol][stream_lifetime]") {
  std::optional<devcol::stream> s(std::in_place);
  std::optional<devcol::column<i64>> col = devcol::make_column<i64>({1, 2, 3}, *s);
  std::optional<devcol::event> done(std::in_place);
  done->record(*s);
  s->synchronize();
  devcol_sim::set_unloading(true);
  col.reset();
  done.reset();
  s.reset();
  devcol_sim::set_unloading(false);
  (void)cudaGetLastError();  // the cases that follow start with none
  REQUIRE(reports().empty());
}

TEST_CASE("an Arrow import is released safely after its devcol::stream is destroyed",
          "[simulated_cuda][devcol][stream_lifetime][defect_4]") {
  auto col = devcol::make_column<i64>({1, 2, 3});
  ArrowSchema schema{};
  ArrowDeviceArray array{};
  devcol::to_arrow(col, &schema, &array);
  std::optional<devcol::column<i64>> back;
  {
    devcol::stream s;
    back = devcol::from_arrow<i64>(&schema, &array, s);
  }
  CHECK(devcol::to_host(*back) == std::vector<std::optional<i64>>{1, 2, 3});
  back.reset();  // the release waits for the import's stream, which is gone
  REQUIRE(reports().empty());
}

TEST_CASE("an exported Arrow stream exports safely after its devcol::stream is destroyed",
          "[simulated_cuda][devcol][stream_lifetime][defect_4]") {
  ArrowDeviceArrayStream out{};
  {
    devcol::stream s;
    std::vector<devcol::table> batches(1);
    batches[0].add("x", devcol::make_column<i64>({7, 8}, s));
    devcol::to_arrow_stream(std::move(batches), &out, s);
  }
  ArrowDeviceArray array{};
  REQUIRE(out.get_next(&out, &array) == 0);  // exports (records its sync event) on the stream given, which is gone
  REQUIRE(array.array.release != nullptr);
  CHECK(array.array.length == 2);
  array.array.release(&array.array);
  out.release(&out);
  REQUIRE(reports().empty());
}

// --- the stream-order defects: 2, 5 and 6 fixed and checked; 3 hidden until its fix lands -------
// (test/simulated_cuda/CMakeLists.txt runs the hidden ones expecting the double's report).

TEST_CASE("defect 2: a column's copy-on-write copy on another stream orders the source's free after it",
          "[devcol][defect_2]") {
  devcol::stream s1;
  devcol::stream s2;
  SECTION("fixed-width: a write's copy") {
    std::optional<devcol::column<i64>> a = devcol::make_column<i64>({1, 2, 3, 4}, s1);
    s1.synchronize();
    auto b = *a;                 // shares a's memory
    devcol::fill(b, i64{9}, s2);  // b copies its rows on s2 first: a read of a's memory on s2
    a.reset();                   // a's memory is freed on s1: it must wait for that read
    CHECK(devcol::to_host(b, s2) == std::vector<std::optional<i64>>{9, 9, 9, 9});
  }
  SECTION("strings: a deep copy") {
    std::optional<devcol::strings_column> a = devcol::make_strings_column({"ab", "c", std::nullopt, "def"}, s1);
    s1.synchronize();
    auto b = a->deep_copy(s2);  // reads a's characters on s2
    a.reset();                  // freed on s1: it must wait for that read
    s2.synchronize();
    CHECK(b.size() == 4);
  }
  REQUIRE(reports().empty());
}

TEST_CASE("defect 3: a spill or free waits for the operations another stream queued on the owner",
          "[devcol][defect_3]") {
  struct spilling : devcol::default_policy {
    using spill = devcol::spillable;
  };
  using spill_column = devcol::column<i64, spilling>;
  bool const was_on = devcol::options::set_spill(true);
  {
    devcol::stream s1;
    devcol::stream s2;
    SECTION("an explicit spill after a write on another stream") {
      auto c = devcol::make_column<i64, spilling>({1, 2, 3, 4}, s1);
      s1.synchronize();
      devcol::fill(c, i64{6}, s2);  // the last write, on s2 (a spill may come at any time after it)
      REQUIRE(c.spill() == 4 * sizeof(i64));
      c.unspill();
      CHECK(devcol::to_host(c) == std::vector<std::optional<i64>>{6, 6, 6, 6});
    }
    SECTION("on-demand spilling of an operand another stream still reads") {
      auto a = devcol::make_column<i64, spilling>({1, 2, 3, 4}, s1);
      s1.synchronize();
      auto doubled = devcol::transform(a, [](i64 v) { return 2 * v; }, s2);  // reads a on s2
      // What the manager does under pressure: every owner that is not locked spills, a first.
      CHECK(devcol::spill_manager::global().spill(std::size_t{1} << 20) >= 4 * sizeof(i64));
      CHECK(a.is_spilled());
      CHECK(devcol::to_host(doubled, s2) == std::vector<std::optional<i64>>{2, 4, 6, 8});
    }
    SECTION("the free of an operand another stream still reads") {
      std::optional<spill_column> a = devcol::make_column<i64, spilling>({1, 2, 3, 4}, s1);
      s1.synchronize();
      auto plus_one = devcol::transform(*a, [](i64 v) { return v + 1; }, s2);  // reads a on s2
      a.reset();                                                              // freed on s1
      CHECK(devcol::to_host(plus_one, s2) == std::vector<std::optional<i64>>{2, 3, 4, 5});
    }
    SECTION("an operation inside the user's spill_lock: ordered when the lock ends") {
      auto c = devcol::make_column<i64, spilling>({1, 2, 3, 4}, s1);
      s1.synchronize();
      {
        devcol::spill_lock const lock;
        devcol::fill(c, i64{3}, s2);
        CHECK(c.spill() == 0);  // held by the lock
      }
      REQUIRE(c.spill() == 4 * sizeof(i64));
      CHECK(devcol::to_host(c) == std::vector<std::optional<i64>>{3, 3, 3, 3});
    }
    s1.synchronize();
    s2.synchronize();
  }
  devcol::options::set_spill(was_on);
  REQUIRE(reports().empty());
}

TEST_CASE("defect 8: cuda_async's synchronous allocate and deallocate order the caller's other streams after them",
          "[devcol][defect_8]") {
  raw_stream other;
  devcol::mr::cuda_async resource;
  void* p = resource.allocate(256, 256);  // CCCL's synchronous form: usable by any stream on return
  REQUIRE(cudaMemsetAsync(p, 1, 256, other.value) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(other.value) == cudaSuccess);
  resource.deallocate(p, 256, 256);  // and back with the resource on return
  REQUIRE(reports().empty());
}

// CCCL's synchronous_resource (allocate_sync) through what is not a leaf: an adaptor, a pool or a
// handle over cuda_async allocates on the default stream (cudaMallocAsync there, or a pool's wait
// for a block's free), so the memory is usable by another stream only once that stream is synchronised.
TEST_CASE("an adaptor's, pool's or handle's synchronous allocate over cuda_async is usable by any stream on return",
          "[devcol][cccl]") {
#if DEVCOL_HAS_CCCL_MR
  raw_stream other;
  auto const use_on_other = [&](auto& resource) {
    void* p = resource.allocate_sync(256, 256);
    REQUIRE(cudaMemsetAsync(p, 1, 256, other.value) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(other.value) == cudaSuccess);
    resource.deallocate_sync(p, 256, 256);
  };
  SECTION("statistics") {
    devcol::mr::statistics<devcol::mr::cuda_async> resource;
    use_on_other(resource);
  }
  SECTION("pool") {
    devcol::mr::pool<devcol::mr::cuda_async> resource;
    use_on_other(resource);
  }
  SECTION("resource_handle") {
    devcol::mr::resource_handle resource{"cuda_async", devcol::mr::cuda_async{}};
    use_on_other(resource);
  }
#endif
  REQUIRE(reports().empty());
}

TEST_CASE("defect 5: a DLPack import's deleter runs after devcol's work on the imported memory",
          "[devcol][defect_5]") {
  // A producer that frees its memory on its own stream when devcol hands the tensor back.
  struct producer {
    raw_stream stream;
    std::int64_t shape[1]{4};
    DLManagedTensorVersioned tensor{};
    producer() {
      void* p = nullptr;
      REQUIRE(cudaMallocAsync(&p, 4 * sizeof(i64), stream.value) == cudaSuccess);
      REQUIRE(cudaMemsetAsync(p, 0, 4 * sizeof(i64), stream.value) == cudaSuccess);
      REQUIRE(cudaStreamSynchronize(stream.value) == cudaSuccess);  // ready when handed over
      tensor.version = {1, 0};
      tensor.manager_ctx = &stream.value;
      tensor.dl_tensor.data = p;
      tensor.dl_tensor.device = {kDLCUDA, 0};
      tensor.dl_tensor.ndim = 1;
      tensor.dl_tensor.dtype = {kDLInt, 64, 1};
      tensor.dl_tensor.shape = shape;
      tensor.deleter = [](DLManagedTensorVersioned* t) {
        (void)cudaFreeAsync(t->dl_tensor.data, *static_cast<cudaStream_t*>(t->manager_ctx));
      };
    }
  } p;
  devcol::stream s;
  {
    auto col = devcol::from_dlpack<i64>(&p.tensor, s);
    auto plus_one = devcol::transform(col, [](i64 v) { return v + 1; }, s);  // reads the producer's memory on s
  }  // the deleter runs here: the producer frees on its stream
  s.synchronize();
  REQUIRE(reports().empty());
}

TEST_CASE("defect 6: a column made on device 1 is copied and freed with device 1 current",
          "[devcol][defect_6]") {
  REQUIRE(cudaSetDevice(1) == cudaSuccess);
  {
    devcol::stream s1;  // device 1's
    std::optional<devcol::column<i64>> col = devcol::make_column<i64>({1, 2, 3}, s1);
    s1.synchronize();
    REQUIRE(cudaSetDevice(0) == cudaSuccess);  // the caller moves on to device 0
    auto copy = col->deep_copy();              // rule 21: devcol makes device 1 current for the copy...
    col.reset();                               // ... and for the free
    CHECK(devcol::to_host(copy) == std::vector<std::optional<i64>>{1, 2, 3});
    REQUIRE(cudaSetDevice(1) == cudaSuccess);  // s1 is destroyed on its device
  }
  REQUIRE(cudaSetDevice(0) == cudaSuccess);
  REQUIRE(reports().empty());
}

// --- rule 21: every owner records its device; its work runs with that device current -----------

// The device current on this thread now.
int current_device() {
  int device = -1;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  return device;
}

TEST_CASE("scoped_device makes a device current for a scope and restores the previous one", "[devcol][device]") {
  REQUIRE(current_device() == 0);
  {
    devcol::scoped_device const one(devcol::device_id{1});
    CHECK(current_device() == 1);
    CHECK(devcol::current_device() == devcol::device_id{1});
    {
      devcol::scoped_device const zero(devcol::device_id{0});
      CHECK(current_device() == 0);
    }
    CHECK(current_device() == 1);
  }
  CHECK(current_device() == 0);
  CHECK_THROWS_AS(devcol::scoped_device(devcol::device_id{devcol_sim::device_count}), devcol::cuda_error);
  CHECK(current_device() == 0);  // a failed guard changes nothing
  CHECK(devcol::device_count() == devcol_sim::device_count);
  REQUIRE(reports().empty());
}

TEST_CASE("a devcol::stream and event made on device 1 are used and destroyed with device 0 current",
          "[devcol][device]") {
  std::optional<devcol::stream> s;
  std::optional<devcol::event> e;
  {
    on_device one(1);
    s.emplace();
    e.emplace();
  }
  REQUIRE(current_device() == 0);
  CHECK(s->device() == devcol::device_id{1});
  CHECK(e->device() == devcol::device_id{1});
  e->record(*s);  // recorded with device 1 current: CUDA fails a record across devices
  CHECK(current_device() == 0);
  e->wait(*s);  // a devcol::stream knows its device
  CHECK(current_device() == 0);
  devcol::stream zero;  // device 0's
  e->wait(zero);  // a stream of device 0 waits for device 1's event: CUDA allows it
  CHECK(current_device() == 0);
  CHECK(e->ready());
  e->synchronize();
  e.reset();  // destroyed with device 1 current
  s.reset();
  CHECK(current_device() == 0);
  REQUIRE(reports().empty());
}

TEST_CASE("a buffer made on device 1 records it, and its copies are made on it, with device 0 current",
          "[devcol][device]") {
  std::optional<devcol::buffer<>> b;
  {
    on_device one(1);
    b.emplace(256);
    devcol::fill_bytes(b->data(access::write), 3, 256, {});
  }
  CHECK(b->device() == devcol::device_id{1});
  auto copy = b->deep_copy();  // on device 1's default stream, with device 1 current
  CHECK(copy.device() == devcol::device_id{1});
  CHECK(current_device() == 0);
  auto shared = *b;
  void* const written = shared.data(access::write);  // copy-on-write: the copy is device 1's too
  CHECK(shared.device() == devcol::device_id{1});
  CHECK(written != b->data(access::read));
  b.reset();
  {
    on_device one(1);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  }
  devcol_sim::host_read(copy.data(access::read), 1);
  CHECK(*static_cast<unsigned char const*>(copy.data(access::read)) == 3);
  CHECK(current_device() == 0);
  REQUIRE(reports().empty());
}

TEST_CASE("columns of every kind made on device 1 are deep-copied and read back with device 0 current",
          "[devcol][device]") {
  std::optional<devcol::any_column<>> columns[5];
  {
    on_device one(1);
    columns[0] = devcol::make_column<i64>({1, std::nullopt, 3});
    columns[1] = devcol::make_strings_column({"ab", std::nullopt, "c"});
    columns[2] = devcol::make_fixed_size_binary_column({"xy", "zz", std::nullopt}, 2);
    columns[3] = devcol::make_list_column({0, 2, 2, 3}, devcol::make_column<i64>({4, 5, 6}), {true, false, true});
    columns[4] = devcol::make_struct_column({{"a", devcol::make_column<i64>({7, 8, 9})}}, {true, true, false});
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  }
  for (auto& c : columns) {
    INFO(devcol::type_name(*c));
    auto const before = devcol::to_host_values(*c);  // copied to the host with device 1 current
    auto copy = devcol::deep_copy(*c);              // copied, and allocated, on device 1
    c.reset();                                      // freed on device 1
    CHECK(devcol::to_host_values(copy) == before);
    CHECK(current_device() == 0);
  }
  {
    on_device one(1);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  }
  REQUIRE(reports().empty());
}

TEST_CASE("a column made on device 1 is exported with device 0 current, and imported on device 1",
          "[devcol][device]") {
  std::optional<devcol::column<i64>> col;
  {
    on_device one(1);
    col = devcol::make_column<i64>({1, std::nullopt, 3});
    devcol::fill(*col, i64{7});  // still queued on device 1's default stream at export
  }
  ArrowSchema schema{};
  ArrowDeviceArray array{};
  devcol::to_arrow(*col, &schema, &array);  // its event recorded after that write, on device 1's default stream
  CHECK(current_device() == 0);
  CHECK(array.device_id == 1);
  col.reset();  // the export keeps the memory alive
  {
    on_device one(1);  // the importer's contract: the producer's device is current
    devcol::stream consumer;
    auto back = devcol::from_arrow<i64>(&schema, &array, consumer);  // waits on the export's event
    auto doubled = devcol::transform(back, [](i64 v) { return 2 * v; }, consumer);
    CHECK(devcol::to_host(doubled, consumer) == std::vector<std::optional<i64>>{14, 14, 14});
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  }
  CHECK(current_device() == 0);
  REQUIRE(reports().empty());
}

// Exports a stream of one batch, whose column `make` makes with device 1 current, on a stream of
// device 1; then asks for the batch, as a consumer whose current device is 0 would (another
// thread, say): the export's event and copies, and the spill lock's ordering when it ends, belong
// to device 1. Returns the batch's device id and length.
template <class Policy, class Make>
std::pair<std::int64_t, std::int64_t> read_device_1_stream_on_device_0(Make make) {
  ArrowDeviceArrayStream out{};
  std::optional<devcol::stream> s;
  {
    on_device one(1);
    s.emplace();
    std::vector<devcol::basic_table<Policy>> batches(1);
    batches[0].add("x", make(*s));
    devcol::to_arrow_stream(std::move(batches), &out, *s);
  }
  ArrowDeviceArray array{};
  REQUIRE(out.get_next(&out, &array) == 0);
  CHECK(current_device() == 0);
  std::pair<std::int64_t, std::int64_t> const got{array.device_id, array.array.length};
  array.array.release(&array.array);
  out.release(&out);
  {
    on_device one(1);
    s.reset();
  }
  REQUIRE(reports().empty());
  return got;
}

TEST_CASE("an exported Arrow stream of device 1 exports a batch when its consumer has device 0 current",
          "[devcol][device]") {
  auto const [device, length] = read_device_1_stream_on_device_0<devcol::default_policy>(
      [](devcol::stream_ref s) { return devcol::make_column<i64>({7, 8}, s); });
  CHECK(device == 1);
  CHECK(length == 2);
}

TEST_CASE("an exported Arrow stream of spillable device-1 columns orders them after the export with device 1 current",
          "[devcol][device]") {
  struct spilling : devcol::default_policy {
    using spill = devcol::spillable;
  };
  // Made on device 1's default stream and exported on another: the export's spill lock orders the
  // column's stream after the export's when it ends, through an event of device 1.
  auto const [device, length] = read_device_1_stream_on_device_0<spilling>(
      [](devcol::stream_ref) { return devcol::make_column<i64, spilling>({7, 8}); });
  CHECK(device == 1);
  CHECK(length == 2);
}

// Imports, with device 1 current and on its default stream, what `import` makes of a column
// exported there, and queues a kernel reading the import on that stream; then drops the import's
// last handle with device 0 current. Handing the memory back (which the producer frees on its own
// stream) must wait for device 1's default stream, not device 0's.
template <class Import>
void hand_back_device_1_import_on_device_0(Import import) {
  std::optional<devcol::stream> producer;
  std::optional<devcol::column<i64>> back;
  std::optional<devcol::column<i64>> doubled;
  {
    on_device one(1);
    producer.emplace();
    back = import(devcol::make_column<i64>({1, 2, 3}, *producer), *producer);  // on device 1's default stream
    doubled = devcol::transform(*back, [](i64 v) { return 2 * v; });          // still reading it there
  }
  back.reset();
  CHECK(current_device() == 0);
  {
    on_device one(1);
    CHECK(devcol::to_host(*doubled) == std::vector<std::optional<i64>>{2, 4, 6});
    doubled.reset();
    producer.reset();
  }
  REQUIRE(reports().empty());
}

TEST_CASE("an Arrow import on device 1's default stream is handed back after that stream's work, with device 0 current",
          "[devcol][device]") {
  hand_back_device_1_import_on_device_0([](devcol::column<i64> col, devcol::stream_ref producer) {
    ArrowSchema schema{};
    ArrowDeviceArray array{};
    devcol::to_arrow(col, &schema, &array, producer);
    col = devcol::column<i64>{};  // the export holds the only handle now
    return devcol::from_arrow<i64>(&schema, &array);
  });
}

TEST_CASE("a DLPack import on device 1's default stream is handed back after that stream's work, with device 0 current",
          "[devcol][device]") {
  hand_back_device_1_import_on_device_0([](devcol::column<i64> col, devcol::stream_ref producer) {
    DLManagedTensorVersioned* tensor = devcol::to_dlpack(col, producer);
    producer.synchronize();
    col = devcol::column<i64>{};  // the tensor holds the only handle now
    return devcol::from_dlpack<i64>(tensor);
  });
}

TEST_CASE("a spillable column made on device 1 is spilled and unspilled with device 0 current", "[devcol][device]") {
  struct spilling : devcol::default_policy {
    using spill = devcol::spillable;
  };
  bool const was_on = devcol::options::set_spill(true);
  {
    std::optional<devcol::stream> s1;
    std::optional<devcol::column<i64, spilling>> c;
    {
      on_device one(1);
      s1.emplace();
      c = devcol::make_column<i64, spilling>({1, 2, 3, 4}, *s1);
      s1->synchronize();
    }
    REQUIRE(current_device() == 0);
    REQUIRE(c->spill() == 4 * sizeof(i64));  // copied to the host and freed with device 1 current
    CHECK(c->is_spilled());
    CHECK(current_device() == 0);
    c->unspill();  // allocated on device 1 again, and copied there
    CHECK_FALSE(c->is_spilled());
    CHECK(c->data_buffer().device() == devcol::device_id{1});
    CHECK(current_device() == 0);
    REQUIRE(c->spill() == 4 * sizeof(i64));
    auto copy = c->deep_copy();  // of a spilled column: a host-side copy, still device 1's
    CHECK(copy.data_buffer().device() == devcol::device_id{1});
    CHECK(devcol::to_host(copy) == std::vector<std::optional<i64>>{1, 2, 3, 4});  // unspills on device 1
    CHECK(devcol::to_host(*c) == std::vector<std::optional<i64>>{1, 2, 3, 4});
    CHECK(current_device() == 0);
    c.reset();
    s1.reset();
  }
  devcol::options::set_spill(was_on);
  CHECK(current_device() == 0);
  REQUIRE(reports().empty());
}

// A user's spill_lock ends with device 0 current around an operation that ran on device 1, on
// `work` (a stream of device 1, or its default stream), writing a spillable column made on another
// stream of device 1. The lock's end must order that column's stream after the work with an event
// of device 1, waited on with device 1 current: no failed record, no host wait on device 0's
// default stream instead of device 1's; the spill that follows then copies after the write.
TEST_CASE("a spill_lock that ends with device 0 current orders device 1's work through an event of device 1",
          "[devcol][device]") {
  struct spilling : devcol::default_policy {
    using spill = devcol::spillable;
  };
  bool const was_on = devcol::options::set_spill(true);
  {
    std::optional<devcol::stream> made_on;
    std::optional<devcol::stream> other;
    std::optional<devcol::column<i64, spilling>> c;
    {
      on_device one(1);
      made_on.emplace();
      other.emplace();
      c = devcol::make_column<i64, spilling>({1, 2, 3, 4}, *made_on);
      made_on->synchronize();
    }
    auto const write_under_lock_on_device_1 = [&](devcol::stream_ref work) {
      devcol::spill_lock const lock;  // device 0 is current here, and when it ends
      on_device one(1);
      devcol::fill(*c, i64{5}, work);
    };
    SECTION("the work on another stream of device 1") { write_under_lock_on_device_1(*other); }
    SECTION("the work on device 1's default stream") { write_under_lock_on_device_1(devcol::stream_ref{}); }
    REQUIRE(current_device() == 0);
    CHECK(reports().empty());
    REQUIRE(c->spill(*made_on) == 4 * sizeof(i64));  // copies on made_on, with device 1 current: after the write
    {
      on_device one(1);
      CHECK(devcol::to_host(*c) == std::vector<std::optional<i64>>{5, 5, 5, 5});
      c.reset();
      other.reset();
      made_on.reset();
    }
  }
  devcol::options::set_spill(was_on);
  REQUIRE(reports().empty());
}

// The same for a consumer that reads an exported Arrow stream of device 1 under its own spill_lock
// with device 0 current: the export's stream is noted as device 1's.
TEST_CASE("an exported Arrow stream of device 1 read under a spill_lock with device 0 current orders through device 1",
          "[devcol][device]") {
  struct spilling : devcol::default_policy {
    using spill = devcol::spillable;
  };
  ArrowDeviceArrayStream out{};
  std::optional<devcol::stream> s;
  {
    on_device one(1);
    s.emplace();
    std::vector<devcol::basic_table<spilling>> batches(1);
    batches[0].add("x", devcol::make_column<i64, spilling>({7, 8}));  // on device 1's default stream
    devcol::to_arrow_stream(std::move(batches), &out, *s);
  }
  ArrowDeviceArray array{};
  {
    devcol::spill_lock const lock;
    REQUIRE(out.get_next(&out, &array) == 0);
  }
  CHECK(current_device() == 0);
  CHECK(array.device_id == 1);
  CHECK(array.array.length == 2);
  array.array.release(&array.array);
  out.release(&out);
  {
    on_device one(1);
    s.reset();
  }
  REQUIRE(reports().empty());
}

// What an mr::on_oom adaptor of device 0 calls when an allocation there fails: it must free device
// 0's memory, not spill device 1's least recently used columns (which frees nothing device 0 can use).
TEST_CASE("on-demand spilling for an allocation on device 0 spills device 0's owners only", "[devcol][device]") {
  struct spilling : devcol::default_policy {
    using spill = devcol::spillable;
  };
  bool const was_on = devcol::options::set_spill(true);
  bool const was_on_demand = devcol::options::set_spill_on_demand(true);
  {
    std::optional<devcol::column<i64, spilling>> older;  // device 1's, the least recently used
    {
      on_device one(1);
      older = devcol::make_column<i64, spilling>({1, 2, 3, 4});
      devcol::stream_ref{}.synchronize();
    }
    auto newer = devcol::make_column<i64, spilling>({5, 6, 7, 8});  // device 0's
    devcol::stream_ref{}.synchronize();
    REQUIRE(current_device() == 0);
    CHECK(devcol::spill_manager::on_demand(4 * sizeof(i64), devcol::stream_ref{}));
    CHECK(newer.is_spilled());
    CHECK_FALSE(older->is_spilled());
    CHECK(devcol::to_host(newer) == std::vector<std::optional<i64>>{5, 6, 7, 8});
    {
      on_device one(1);
      older.reset();
    }
  }
  devcol::options::set_spill_on_demand(was_on_demand);
  devcol::options::set_spill(was_on);
  REQUIRE(reports().empty());
}

// The soft device limit holds for each device: device 0's allocations count against device 0's
// bytes alone, and spill device 0's owners, not device 1's least recently used ones.
TEST_CASE("the soft device limit counts and spills each device's owners apart", "[devcol][device]") {
  struct spilling : devcol::default_policy {
    using spill = devcol::spillable;
  };
  bool const was_on = devcol::options::set_spill(true);
  std::size_t const was_limit = devcol::options::set_spill_device_limit(6 * sizeof(i64));
  {
    std::optional<devcol::column<i64, spilling>> older;  // device 1's, the least recently used
    {
      on_device one(1);
      older = devcol::make_column<i64, spilling>({1, 2, 3, 4});
      devcol::stream_ref{}.synchronize();
    }
    auto first = devcol::make_column<i64, spilling>({5, 6, 7, 8});  // device 0: 32 of its 48 bytes
    CHECK_FALSE(older->is_spilled());
    CHECK_FALSE(first.is_spilled());
    auto second = devcol::make_column<i64, spilling>({9, 10, 11, 12});  // device 0 past its limit
    CHECK_FALSE(older->is_spilled());
    CHECK(first.is_spilled());
    CHECK_FALSE(second.is_spilled());
    CHECK(devcol::spill_manager::global().device_bytes() == 8 * sizeof(i64));
    {
      on_device one(1);
      older.reset();
    }
  }
  devcol::options::set_spill_device_limit(was_limit);
  devcol::options::set_spill(was_on);
  REQUIRE(reports().empty());
}

TEST_CASE("a pool made on device 1 gives its chunks back with device 1 current, whichever device is current",
          "[devcol][device]") {
  std::optional<devcol::mr::pool<devcol::mr::cuda_async>> pool;
  {
    on_device one(1);
    pool.emplace();
    void* p = pool->allocate(4096, 256, devcol::stream_ref{});
    devcol::fill_bytes(p, 1, 4096, {});
    pool->deallocate(p, 4096, 256, devcol::stream_ref{});
  }
  pool.reset();  // device 0 is current: the chunk goes back to device 1's cudaFreeAsync on device 1
  CHECK(current_device() == 0);
  REQUIRE(reports().empty());
}

// A policy naming a resource type allocates from that type's instance for the current device: a pool
// that grew on device 0 must not hand its blocks to a column made with device 1 current.
TEST_CASE("a policy's pool serves each device from chunks of its own", "[devcol][device]") {
  struct pooled : devcol::default_policy {
    using resource = devcol::mr::pool<devcol::mr::cuda_async>;
  };
  std::optional<devcol::column<i64, pooled>> on_zero = devcol::make_column<i64, pooled>({1, 2});
  devcol::stream_ref{}.synchronize();
  auto const* const zero_pool = &devcol::mr::shared_instance<pooled::resource>();
  {
    on_device one(1);
    auto on_one = devcol::make_column<i64, pooled>({3, 4});
    CHECK(on_one.data_buffer().device() == devcol::device_id{1});
    CHECK(devcol::to_host(on_one) == std::vector<std::optional<i64>>{3, 4});
    CHECK(&devcol::mr::shared_instance<pooled::resource>() != zero_pool);
  }
  CHECK(&devcol::mr::shared_instance<pooled::resource>() == zero_pool);
  on_zero.reset();
  REQUIRE(reports().empty());
}

TEST_CASE("with no thread default, allocations use the current device's default", "[devcol][device][per_device]") {
  // An earlier case's set_default(previous) may have pinned a thread default: drop it for this case.
  std::optional<devcol::mr::resource_handle> const kept = devcol::mr::reset_default();
  using tracker = devcol::mr::tracking<devcol::mr::cuda_async>;
  auto const ones = devcol::mr::make_resource_handle<tracker>("device 1's");
  auto const previous = devcol::mr::set_per_device_default(devcol::device_id{1}, ones);
  std::optional<devcol::buffer<>> made_on_one;
  {
    on_device one(1);
    CHECK(devcol::mr::get_default().name() == "device 1's");
    made_on_one.emplace(128);
    CHECK(made_on_one->resource_name() == "device 1's");
    {
      devcol::mr::scoped_default thread_own{devcol::mr::resource_handle{"thread's", devcol::mr::cuda_async{}}};
      CHECK(devcol::mr::get_default().name() == "thread's");  // the thread's default wins
      devcol::buffer<> b(64);
      CHECK(b.resource_name() == "thread's");
    }
    CHECK(devcol::mr::get_default().name() == "device 1's");
  }
  CHECK(devcol::mr::get_default().name() == "cuda_async");  // device 0's is still the initial one
  CHECK(devcol::mr::get_per_device_default(devcol::device_id{0}) == devcol::mr::initial_default());
  devcol::buffer<> made_on_zero(64);
  CHECK(made_on_zero.resource_name() == "cuda_async");
  CHECK(made_on_zero.device() == devcol::device_id{0});
  CHECK(ones.target<tracker>()->outstanding_count() == 1);
  made_on_one.reset();  // freed through device 1's resource, with device 1 current
  CHECK(ones.target<tracker>()->outstanding_count() == 0);
  CHECK(current_device() == 0);
  CHECK(devcol::mr::set_per_device_default(devcol::device_id{1}, previous).name() == "device 1's");
  if (kept) { (void)devcol::mr::set_default(*kept); }
  REQUIRE(reports().empty());
}

}  // namespace sim_test
