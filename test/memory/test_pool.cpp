// The pool adaptor: reuse, coalescing, growth, limits, threads, and giving everything back.
#include "../support.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

namespace devcol_test::pool {

using counted_upstream = mr::statistics<mr::host_aligned>;
using tracker = mr::tracking<mr::host_aligned>;

/// Hands out consecutive slices of one buffer, so consecutive chunks of a pool are neighbours in
/// memory: the case where coalescing across chunks would go wrong.
class bump_upstream {
 public:
  static constexpr std::size_t capacity = std::size_t{1} << 20;
  void* allocate(std::size_t bytes, std::size_t alignment = 64, devcol::stream_ref = {}) {
    std::size_t const at = mr::align_up(used_, alignment);
    if (at + bytes > capacity) { DEVCOL_OUT_OF_MEMORY(bytes, "bump_upstream is full"); }
    used_ = at + bytes;
    return static_cast<char*>(buffer_.data()) + at;
  }
  void deallocate(void*, std::size_t, std::size_t = 64, devcol::stream_ref = {}) noexcept {}
  friend bool operator==(bump_upstream const& a, bump_upstream const& b) noexcept { return &a == &b; }

 private:
  mr::basic_allocation<mr::host_aligned> buffer_{capacity, 4096, {}, {}};
  std::size_t used_ = 0;
};

/// Holds every allocation until open() is called: a growth other threads run into while it is in
/// flight. Copies share the gate.
class gated_upstream {
 public:
  void* allocate(std::size_t bytes, std::size_t alignment = 64, devcol::stream_ref s = {}) {
    {
      std::unique_lock lock(gate_->mutex);
      ++gate_->waiting;
      gate_->changed.notify_all();
      gate_->changed.wait(lock, [&] { return gate_->open; });
    }
    return gate_->inner.allocate(bytes, alignment, s);
  }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment = 64, devcol::stream_ref s = {}) noexcept {
    gate_->inner.deallocate(p, bytes, alignment, s);
  }
  void wait_for_a_caller() const {
    std::unique_lock lock(gate_->mutex);
    gate_->changed.wait(lock, [&] { return gate_->waiting != 0; });
  }
  void open() const {
    std::lock_guard lock(gate_->mutex);
    gate_->open = true;
    gate_->changed.notify_all();
  }
  friend bool operator==(gated_upstream const& a, gated_upstream const& b) noexcept { return a.gate_ == b.gate_; }

 private:
  struct gate {
    std::mutex mutex;
    std::condition_variable changed;
    int waiting = 0;
    bool open = false;
    mr::host_aligned inner;
  };
  std::shared_ptr<gate> gate_ = std::make_shared<gate>();
};

}  // namespace devcol_test::pool

TEST_CASE("pool reuses a freed block for the next request of its size", "[memory][pool]") {
  devcol::mr::pool<devcol_test::pool::counted_upstream> pool;
  void* a = pool.allocate(1000);
  pool.deallocate(a, 1000);
  void* b = pool.allocate(1000);
  CHECK(b == a);
  pool.deallocate(b, 1000);
  CHECK(pool.upstream().report().allocations.total == 1);
}

TEST_CASE("pool ignores a null pointer freed to it, as RMM's pool does", "[memory][pool]") {
  devcol::mr::pool<devcol::mr::host_aligned> pool;
  void* a = pool.allocate(100);
  pool.deallocate(a, 100);
  pool.deallocate(nullptr, 0);  // what an empty buffer holds
  pool.deallocate(nullptr, 100);
  CHECK(pool.used_bytes() == 0);
  CHECK(pool.free_block_count() == pool.chunk_count());  // no block at address 0
  void* b = pool.allocate(100);
  CHECK(b != nullptr);
  CHECK(pool.used_bytes() == 256);
  pool.deallocate(b, 100);
  CHECK(pool.used_bytes() == 0);
}

TEST_CASE("pool coalesces free neighbours into one block", "[memory][pool]") {
  devcol::mr::pool<devcol_test::pool::counted_upstream> pool;
  std::vector<void*> blocks;
  for (int i = 0; i < 8; ++i) { blocks.push_back(pool.allocate(64 << 10)); }
  REQUIRE(pool.chunk_count() == 1);  // 8 x 64 KiB fit the first 1 MiB chunk
  std::shuffle(blocks.begin(), blocks.end(), std::mt19937{7});
  for (void* p : blocks) { pool.deallocate(p, 64 << 10); }
  CHECK(pool.free_block_count() == 1);
  // The coalesced space serves a request larger than any freed block, without growing.
  void* big = pool.allocate(512 << 10);
  CHECK(pool.upstream().report().allocations.total == 1);
  pool.deallocate(big, 512 << 10);
  CHECK(pool.used_bytes() == 0);
}

TEST_CASE("pool never coalesces across upstream chunks", "[memory][pool]") {
  devcol::mr::pool<devcol_test::pool::bump_upstream> pool{{.initial_bytes = 4096, .minimum_chunk_bytes = 4096}};
  void* a = pool.allocate(4096);
  void* b = pool.allocate(4096);  // the first chunk is full: a second one
  void* c = pool.allocate(8192);  // geometric growth: a third chunk at least as large as all so far
  CHECK(pool.chunk_count() == 3);
  REQUIRE(static_cast<char*>(a) + 4096 == static_cast<char*>(b));  // the chunks are neighbours in memory
  pool.deallocate(a, 4096);
  pool.deallocate(b, 4096);
  pool.deallocate(c, 8192);
  CHECK(pool.free_block_count() == pool.chunk_count());
}

TEST_CASE("pool returns every upstream byte on destruction", "[memory][pool]") {
  auto checker = devcol::mr::make_resource_handle<devcol_test::pool::tracker>("checker");
  auto const* t = checker.target<devcol_test::pool::tracker>();
  {
    devcol::mr::pool<devcol::mr::resource_handle> pool{{}, checker};
    std::vector<std::pair<void*, std::size_t>> live;
    for (std::size_t bytes = 1; bytes < (std::size_t{1} << 24); bytes *= 3) { live.emplace_back(pool.allocate(bytes), bytes); }
    CHECK(t->outstanding_count() > 0);
    for (auto const& [p, n] : live) { pool.deallocate(p, n); }
    CHECK(t->outstanding_count() > 0);  // a pool keeps its chunks while it lives
  }
  CHECK(t->outstanding_count() == 0);
  CHECK(t->outstanding_bytes() == 0);
  CHECK(t->mismatched_deallocations() == 0);
}

TEST_CASE("pool honours its maximum and stays usable after refusing", "[memory][pool]") {
  devcol::mr::pool<devcol::mr::host_aligned> pool{{.maximum_bytes = 1 << 20}};
  void* a = pool.allocate(256 << 10);
  try {
    (void)pool.allocate(2 << 20);
    FAIL("the pool exceeded its maximum");
  } catch (devcol::out_of_memory const& e) {
    CHECK_THAT(e.what(), Catch::Contains("maximum of 1048576 bytes"));
  }
  CHECK(pool.used_bytes() == 256 << 10);
  void* b = pool.allocate(512 << 10);
  CHECK(pool.upstream_bytes() <= 1 << 20);
  pool.deallocate(a, 256 << 10);
  pool.deallocate(b, 512 << 10);
}

TEST_CASE("pool waits for another thread's growth in flight instead of refusing what its chunk can serve",
          "[memory][pool][threads]") {
  constexpr std::size_t mib = std::size_t{1} << 20;
  devcol_test::pool::gated_upstream gate;
  devcol::mr::pool<devcol_test::pool::gated_upstream> pool{{.maximum_bytes = mib, .minimum_chunk_bytes = mib}, gate};
  void* first = nullptr;
  std::thread grower([&] { first = pool.allocate(256); });  // reserves the whole maximum, then waits upstream
  gate.wait_for_a_caller();
  void* second = nullptr;
  std::string refused;
  std::thread other([&] {
    try {
      second = pool.allocate(256);  // fits the chunk being taken: must not see "exceeds the maximum"
    } catch (devcol::out_of_memory const& e) {
      refused = e.what();
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // let it reach the pool first
  gate.open();
  grower.join();
  other.join();
  CHECK(refused.empty());
  CHECK(pool.chunk_count() == 1);
  if (second != nullptr) {
    CHECK(second != first);
    pool.deallocate(second, 256);
  }
  pool.deallocate(first, 256);
  CHECK(pool.used_bytes() == 0);
}

TEST_CASE("pool retries with just the request when upstream refuses a large chunk", "[memory][pool]") {
  using limited = devcol::mr::limiting<devcol::mr::host_aligned>;
  devcol::mr::pool<limited> pool{{.initial_bytes = 8 << 20}, std::in_place, std::size_t{3} << 20};
  void* p = pool.allocate(1000);
  CHECK(pool.upstream().used_bytes() < 3 << 20);  // the 8 MiB first chunk was refused: it took less
  CHECK(pool.upstream_bytes() == pool.upstream().used_bytes());
  pool.deallocate(p, 1000);
  CHECK_THROWS_AS(pool.allocate(4 << 20), devcol::out_of_memory);
}

TEST_CASE("pool carves aligned blocks and gives the padding back", "[memory][pool]") {
  devcol::mr::pool<devcol::mr::host_aligned> pool;
  void* small = pool.allocate(256);  // the next free block starts 256 bytes into the chunk
  auto* const next = static_cast<char*>(small) + 256;
  void* a = pool.allocate(1000, 4096);
  CHECK(devcol::mr::is_aligned(a, 4096));
  if (!devcol::mr::is_aligned(next, 4096)) { CHECK(a != next); }  // it carved past the unaligned start
  CHECK(pool.used_bytes() == 256 + 1024);
  pool.deallocate(a, 1000, 4096);
  pool.deallocate(small, 256);
  CHECK(pool.free_block_count() == 1);
}

TEST_CASE("many threads allocating from one pool concurrently lose nothing", "[memory][pool][threads]") {
  auto checker = devcol::mr::make_resource_handle<devcol_test::pool::tracker>("checker");
  {
    devcol::mr::pool<devcol::mr::resource_handle> pool{{}, checker};
    constexpr int threads = 8;
    constexpr int operations = 20000;
    std::atomic<int> overlaps{0};
    std::atomic<int> misaligned{0};
    std::vector<std::thread> workers;
    for (int id = 0; id < threads; ++id) {
      workers.emplace_back([&, id] {
        std::mt19937 rng(static_cast<unsigned>(id));
        std::vector<std::pair<unsigned char*, std::size_t>> mine;
        auto const mark = static_cast<unsigned char>(id + 1);
        auto release_one = [&] {
          auto const i = rng() % mine.size();
          auto const [p, n] = mine[i];
          // Another thread's block overlapping ours would have overwritten our mark.
          if (std::any_of(p, p + n, [&](unsigned char c) { return c != mark; })) { ++overlaps; }
          pool.deallocate(p, n);
          mine[i] = mine.back();
          mine.pop_back();
        };
        for (int op = 0; op < operations; ++op) {
          if (!mine.empty() && (rng() % 2 == 0 || mine.size() > 64)) {
            release_one();
          } else {
            std::size_t const n = 1 + rng() % 20000;
            std::size_t const alignment = std::size_t{1} << (rng() % 10);
            auto* p = static_cast<unsigned char*>(pool.allocate(n, alignment));
            if (!devcol::mr::is_aligned(p, alignment)) { ++misaligned; }
            std::memset(p, mark, n);
            mine.emplace_back(p, n);
          }
        }
        while (!mine.empty()) { release_one(); }
      });
    }
    for (auto& w : workers) { w.join(); }
    CHECK(overlaps.load() == 0);
    CHECK(misaligned.load() == 0);
    CHECK(pool.used_bytes() == 0);
    CHECK(pool.free_block_count() == pool.chunk_count());
  }
  auto const* t = checker.target<devcol_test::pool::tracker>();
  CHECK(t->outstanding_count() == 0);
  CHECK(t->mismatched_deallocations() == 0);
}
