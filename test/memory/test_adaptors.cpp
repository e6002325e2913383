// Statistics, limiting, on-out-of-memory, tracking, logging and aligned adaptors.
#include "../support.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

TEST_CASE("statistics figures are exact after a scripted sequence", "[memory][statistics]") {
  devcol::mr::statistics<devcol::mr::host_aligned> stats;
  CHECK(stats.report() == devcol::mr::statistics_report{});
  void* a = stats.allocate(100);
  void* b = stats.allocate(200);
  void* c = stats.allocate(300);
  stats.deallocate(b, 200);
  CHECK(stats.report() == devcol::mr::statistics_report{{400, 600, 600}, {2, 3, 3}});
  void* d = stats.allocate(50);
  stats.deallocate(a, 100);
  stats.deallocate(c, 300);
  stats.deallocate(d, 50);
  CHECK(stats.report() == devcol::mr::statistics_report{{0, 600, 650}, {0, 3, 4}});
}

TEST_CASE("statistics does not count a failed allocation", "[memory][statistics]") {
  using limited = devcol::mr::limiting<devcol::mr::host_aligned>;
  devcol::mr::statistics<limited> stats{std::in_place, std::size_t{1000}};
  CHECK_THROWS_AS(stats.allocate(2000), devcol::out_of_memory);
  CHECK(stats.report() == devcol::mr::statistics_report{});
}

namespace test_adaptors {
// What the CUDA leaves (cudaMallocAsync, cudaMalloc) answer to 0 bytes: null, with no CUDA call.
struct null_for_empty_upstream {
  void* allocate(std::size_t bytes, std::size_t alignment = devcol::mr::default_alignment, devcol::stream_ref s = {}) {
    return bytes == 0 ? nullptr : inner.allocate(bytes, alignment, s);
  }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment = devcol::mr::default_alignment,
                  devcol::stream_ref s = {}) noexcept {
    if (p != nullptr) { inner.deallocate(p, bytes, alignment, s); }
  }
  friend bool operator==(null_for_empty_upstream const&, null_for_empty_upstream const&) noexcept { return true; }
  friend void get_property(null_for_empty_upstream const&, devcol::mr::host_accessible) noexcept {}
  devcol::mr::host_aligned inner;
};
}  // namespace test_adaptors

TEST_CASE("statistics counts no live allocation for an empty one that gives null and is never freed",
          "[memory][statistics]") {
  using counted = devcol::mr::statistics<test_adaptors::null_for_empty_upstream>;
  counted stats;
  {  // an empty column's buffer: its allocation frees nothing, since it holds no pointer
    devcol::mr::basic_allocation<counted> const empty(0, devcol::mr::default_alignment, devcol::stream_ref{}, stats);
    CHECK(empty.data() == nullptr);
    devcol::mr::basic_allocation<counted> const full(64, devcol::mr::default_alignment, devcol::stream_ref{}, stats);
  }
  CHECK(stats.report() == devcol::mr::statistics_report{{0, 64, 64}, {0, 1, 1}});
}

TEST_CASE("limiting throws out_of_memory past its limit and its counters stay right", "[memory][limiting]") {
  devcol::mr::limiting<devcol::mr::host_aligned> limited{1000};
  void* a = limited.allocate(600);
  CHECK(limited.used_bytes() == 600);
  try {
    (void)limited.allocate(500);
    FAIL("the limit was exceeded");
  } catch (devcol::out_of_memory const& e) {
    CHECK(e.requested_bytes() == 500);
    CHECK_THAT(e.what(), Catch::Contains("allocating 500 bytes would exceed the limit of 1000 bytes (600 in use)"));
  }
  CHECK(limited.used_bytes() == 600);
  CHECK_THROWS_AS(limited.allocate(SIZE_MAX), devcol::out_of_memory);  // no wrap-around
  CHECK(limited.used_bytes() == 600);
  limited.deallocate(a, 600);
  CHECK(limited.used_bytes() == 0);
  void* all = limited.allocate(1000);
  CHECK(limited.used_bytes() == 1000);
  limited.deallocate(all, 1000);
}

TEST_CASE("limiting never counts a request past the limit on its own, so a full limit stays full",
          "[memory][limiting][threads]") {
  devcol::mr::limiting<devcol::mr::host_aligned> limited{1000};
  void* full = limited.allocate(1000);
  std::atomic<bool> stop{false};
  std::thread huge([&] {  // Catch's assertions are for the test's own thread
    while (!stop) {
      try {
        (void)limited.allocate(SIZE_MAX);
      } catch (devcol::out_of_memory const&) {
      }
    }
  });
  // SIZE_MAX added to the count, even for a moment, wraps it to 999: a request counted then gets
  // through the full limit. A race, so it is tried for up to a second (about 10^6 tries).
  int through = 0;
  auto const until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (through == 0 && std::chrono::steady_clock::now() < until) {
    for (int i = 0; i < 1000; ++i) {
      try {
        void* p = limited.allocate(1);
        ++through;
        limited.deallocate(p, 1);
      } catch (devcol::out_of_memory const&) {
      }
    }
  }
  stop = true;
  huge.join();
  CHECK(through == 0);
  CHECK(limited.used_bytes() == 1000);
  limited.deallocate(full, 1000);
}

TEST_CASE("limiting gives back its count when upstream throws", "[memory][limiting]") {
  devcol::mr::limiting<devcol_test::small_alignment_upstream<64>> limited{1000};
  CHECK_THROWS_AS(limited.allocate(100, 128), devcol::logic_error);
  CHECK(limited.used_bytes() == 0);
}

TEST_CASE("on_oom calls back on out_of_memory and the retry succeeds", "[memory][on_oom]") {
  using limited = devcol::mr::limiting<devcol::mr::host_aligned>;
  std::vector<std::pair<void*, std::size_t>> spillable;  // what the callback may free
  std::vector<std::size_t> calls;
  devcol::mr::on_oom<limited>* self = nullptr;
  devcol::mr::on_oom<limited> hooked{[&](std::size_t bytes, devcol::stream_ref) {
                                       calls.push_back(bytes);
                                       if (spillable.empty()) { return false; }
                                       auto const [p, n] = spillable.back();
                                       spillable.pop_back();
                                       self->deallocate(p, n);
                                       return true;
                                     },
                                     std::in_place, std::size_t{1000}};
  self = &hooked;
  spillable.emplace_back(hooked.allocate(800), 800);
  void* p = hooked.allocate(500);  // fails once, the callback frees 800 bytes, the retry succeeds
  CHECK(calls == std::vector<std::size_t>{500});
  CHECK(hooked.upstream().used_bytes() == 500);
  // Nothing left to free: the callback says so and the failure reaches the caller.
  CHECK_THROWS_AS(hooked.allocate(900), devcol::out_of_memory);
  CHECK(calls == std::vector<std::size_t>{500, 900});
  hooked.deallocate(p, 500);
}

TEST_CASE("tracking reports an outstanding allocation", "[memory][tracking]") {
  devcol::mr::tracking<devcol::mr::host_aligned> tracked;
  tracked.report_leaks_on_destruction(false);
  void* p = tracked.allocate(123, 128);
  auto const live = tracked.outstanding();
  REQUIRE(live.size() == 1);
  CHECK(live[0].pointer == p);
  CHECK(live[0].bytes == 123);
  CHECK(live[0].alignment == 128);
  CHECK(tracked.outstanding_bytes() == 123);
  CHECK_THAT(tracked.report(), Catch::Contains("1 allocation(s) outstanding") && Catch::Contains("123 bytes, alignment 128"));
  tracked.deallocate(p, 123, 128);
  CHECK(tracked.outstanding_count() == 0);
  CHECK(tracked.report().empty());
}

TEST_CASE("logging writes one CSV line per event, failures included", "[memory][logging]") {
  using limited = devcol::mr::limiting<devcol::mr::host_aligned>;
  std::ostringstream log;
  {
    devcol::mr::logging<limited> logged{log, std::in_place, std::size_t{1000}};
    void* p = logged.allocate(100, 64);
    std::ostringstream address;
    address << p;  // printed while the block is live: a freed pointer's value is not to be used
    CHECK_THROWS_AS(logged.allocate(5000, 64), devcol::out_of_memory);
    logged.deallocate(p, 100, 64);
    CHECK_THAT(log.str(), Catch::Contains(",allocate," + address.str() + ",100,64,"));
    CHECK_THAT(log.str(), Catch::Contains(",deallocate," + address.str() + ",100,64,"));
  }
  std::vector<std::string> lines;
  std::istringstream in(log.str());
  for (std::string line; std::getline(in, line);) { lines.push_back(line); }
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] == "thread,time_ns,action,pointer,bytes,alignment,stream");
  CHECK_THAT(lines[2], Catch::Contains(",allocate_failure,") && Catch::Contains(",5000,64,"));
  for (auto const& line : lines) { CHECK(std::count(line.begin(), line.end(), ',') == 6); }
}

namespace test_adaptors {
// Hands the block it was last given back to the next allocation, and calls `after_free` right after
// a free: where another thread may be given the block that was just freed.
struct reusing_upstream {
  struct shared {
    void* last_freed = nullptr;
    std::function<void()> after_free;
  };
  void* allocate(std::size_t bytes, std::size_t alignment = devcol::mr::default_alignment, devcol::stream_ref s = {}) {
    if (void* p = std::exchange(state->last_freed, nullptr)) { return p; }
    return devcol::mr::host_aligned{}.allocate(bytes, alignment, s);
  }
  void deallocate(void* p, std::size_t, std::size_t = devcol::mr::default_alignment, devcol::stream_ref = {}) noexcept {
    state->last_freed = p;
    if (auto hook = std::exchange(state->after_free, {})) { hook(); }
  }
  friend bool operator==(reusing_upstream const& a, reusing_upstream const& b) noexcept { return a.state == b.state; }
  friend void get_property(reusing_upstream const&, devcol::mr::host_accessible) noexcept {}
  std::shared_ptr<shared> state = std::make_shared<shared>();
};
}  // namespace test_adaptors

TEST_CASE("logging writes a free before the allocation that is given the freed block", "[memory][logging]") {
  test_adaptors::reusing_upstream const upstream;
  std::ostringstream log;
  {
    devcol::mr::logging<test_adaptors::reusing_upstream> logged{log, upstream};
    void* p = logged.allocate(64, 64);
    void* again = nullptr;
    upstream.state->after_free = [&] { again = logged.allocate(64, 64); };  // another thread, as soon as it can
    logged.deallocate(p, 64, 64);
    REQUIRE(again == p);
    logged.deallocate(again, 64, 64);
  }
  std::vector<std::string> lines;
  std::istringstream in(log.str());
  for (std::string line; std::getline(in, line);) { lines.push_back(line); }
  REQUIRE(lines.size() == 5);
  CHECK_THAT(lines[1], Catch::Contains(",allocate,"));
  CHECK_THAT(lines[2], Catch::Contains(",deallocate,"));  // the free, then the allocation given its block
  CHECK_THAT(lines[3], Catch::Contains(",allocate,"));
  CHECK_THAT(lines[4], Catch::Contains(",deallocate,"));
  devcol::mr::host_aligned{}.deallocate(std::exchange(upstream.state->last_freed, nullptr), 64, 64);
}

TEST_CASE("logging to a file writes the header and a line per event, and flushes", "[memory][logging]") {
  std::string const path = "devcol_test_logging_" + std::to_string(reinterpret_cast<std::uintptr_t>(&path)) + ".csv";
  {
    devcol::mr::logging<devcol::mr::host_aligned> logged{path};
    void* p = logged.allocate(64, 64);
    logged.deallocate(p, 64, 64);
    logged.flush();
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) { lines.push_back(line); }
    REQUIRE(lines.size() == 3);  // flushed: everything is in the file while the adaptor lives
    CHECK(lines[0] == "thread,time_ns,action,pointer,bytes,alignment,stream");
    CHECK_THAT(lines[1], Catch::Contains(",allocate,") && Catch::Contains(",64,64,"));
    CHECK_THAT(lines[2], Catch::Contains(",deallocate,"));
    CHECK(lines[1].substr(0, lines[1].find(',')) == lines[2].substr(0, lines[2].find(',')));  // one thread
  }
  CHECK(std::remove(path.c_str()) == 0);
}

TEST_CASE("logging to a file that cannot be opened names the path", "[memory][logging]") {
  CHECK_THROWS_WITH(devcol::mr::logging<devcol::mr::host_aligned>(std::string("/nonexistent-dir/log.csv")),
                    Catch::Contains("'/nonexistent-dir/log.csv'"));
}

TEST_CASE("aligned raises every allocation to its alignment, over-allocating only beyond upstream's", "[memory][aligned]") {
  using counted = devcol::mr::statistics<devcol_test::small_alignment_upstream<64>>;
  devcol::mr::aligned<counted> over{1024};
  void* p = over.allocate(100, 8);
  CHECK(devcol::mr::is_aligned(p, 1024));
  CHECK(over.upstream().report().bytes.current == 100 + 1024 - 64);
  over.deallocate(p, 100, 8);
  CHECK(over.upstream().report().bytes.current == 0);

  devcol::mr::aligned<devcol::mr::statistics<devcol::mr::host_aligned>> direct{1024};
  void* q = direct.allocate(100, 8);
  CHECK(devcol::mr::is_aligned(q, 1024));
  CHECK(direct.upstream().report().bytes.current == 100);  // host_aligned honours 1024 itself
  direct.deallocate(q, 100, 8);
  CHECK_THROWS_AS(devcol::mr::aligned<devcol::mr::host_aligned>{48}, devcol::logic_error);
}

TEST_CASE("aligned finds an over-aligned block even when freed with a smaller alignment", "[memory][aligned]") {
  using counted = devcol::mr::statistics<devcol_test::small_alignment_upstream<64>>;
  devcol::mr::aligned<counted> over{64};
  void* p = over.allocate(100, 1024);  // over-aligned: padded upstream
  CHECK(devcol::mr::is_aligned(p, 1024));
  over.deallocate(p, 100, 64);         // the caller forgot the alignment it asked for
  CHECK(over.upstream().report().bytes.current == 0);
  CHECK(over.upstream().report().allocations.current == 0);
}

TEST_CASE("an on_oom hook below a pool may free through the pool: no deadlock, and the pool reuses what it freed",
          "[memory][on_oom][pool]") {
  using limited = devcol::mr::limiting<devcol::mr::host_aligned>;
  using hooked = devcol::mr::on_oom<limited>;
  constexpr std::size_t mib = std::size_t{1} << 20;
  devcol::mr::pool<hooked>* pool_ptr = nullptr;
  std::vector<void*> spillable;
  int calls = 0;
  devcol::mr::pool<hooked> pool{{.minimum_chunk_bytes = mib},
                                std::in_place,
                                [&](std::size_t, devcol::stream_ref) {
                                  ++calls;
                                  if (spillable.empty()) { return false; }
                                  pool_ptr->deallocate(spillable.back(), mib);  // re-enters the pool
                                  spillable.pop_back();
                                  return true;
                                },
                                std::in_place,
                                2 * mib};
  pool_ptr = &pool;
  void* a = pool.allocate(mib);
  void* b = pool.allocate(mib);
  spillable.push_back(a);
  void* c = pool.allocate(mib);  // upstream is full: the hook frees a into the pool, which then serves c
  CHECK(c == a);
  // The pool first asks for a geometric 2 MiB chunk (hook: frees a, then has nothing left), then for
  // just the 1 MiB it needs (hook: nothing left); then it finds a in its own free list.
  CHECK(calls == 3);
  CHECK(pool.upstream_bytes() == 2 * mib);
  pool.deallocate(b, mib);
  pool.deallocate(c, mib);
}

// Copies of an adaptor share its state (CCCL 3.1+'s resource references and RMM copy what they
// are given): one pool, one set of counters, one limit, one table, whichever copy is used or
// destroyed first.
TEST_CASE("a copy of a pool allocates from the same blocks, and the last copy gives the chunks back",
          "[memory][pool][copies]") {
  namespace mr = devcol::mr;
  mr::statistics<mr::host_aligned> upstream;  // a copy of it goes into the pool: it sees the chunks
  auto original = std::make_unique<mr::pool<mr::statistics<mr::host_aligned>>>(mr::pool_options{}, upstream);
  mr::pool<mr::statistics<mr::host_aligned>> copy = *original;
  CHECK(copy == *original);
  CHECK(&copy.upstream() == &original->upstream());
  CHECK_FALSE(copy == mr::pool<mr::statistics<mr::host_aligned>>{});

  void* p = original->allocate(1000);
  CHECK(copy.used_bytes() == 1024);
  CHECK(copy.chunk_count() == 1);
  copy.deallocate(p, 1000);  // freed into the one pool through the other handle
  CHECK(original->used_bytes() == 0);
  std::int64_t const held = upstream.report().bytes.current;
  CHECK(held > 0);

  original.reset();  // the first handle goes: the pool stays, with its chunk
  CHECK(upstream.report().bytes.current == held);
  void* q = copy.allocate(1000);
  CHECK(q == p);  // the block just freed, from the cache of recent frees
  copy.deallocate(q, 1000);

  mr::pool<mr::statistics<mr::host_aligned>> moved = std::move(copy);  // a move shares too
  CHECK(moved == copy);
  void* r = copy.allocate(10);  // the moved-from handle still works
  moved.deallocate(r, 10);
  copy = mr::pool<mr::statistics<mr::host_aligned>>{};  // leaves the pool to `moved` alone
  CHECK(upstream.report().bytes.current == held);
  moved = copy;  // the last handle of the first pool goes: its chunks go back
  CHECK(upstream.report().bytes.current == 0);
}

TEST_CASE("copies of a statistics adaptor count together", "[memory][statistics][copies]") {
  namespace mr = devcol::mr;
  mr::statistics<mr::host_aligned> stats;
  mr::statistics<mr::host_aligned> copy = stats;
  void* p = copy.allocate(100);
  CHECK(stats.report().bytes.current == 100);
  stats.deallocate(p, 100);
  CHECK(copy.report() == stats.report());
  CHECK(copy.report() == mr::statistics_report{{0, 100, 100}, {0, 1, 1}});
}

TEST_CASE("copies of a limiting adaptor share one limit", "[memory][limiting][copies]") {
  namespace mr = devcol::mr;
  mr::limiting<mr::host_aligned> limited{1000};
  auto copy = limited;
  void* p = copy.allocate(600);
  CHECK(limited.used_bytes() == 600);
  CHECK_THROWS_AS(limited.allocate(600), devcol::out_of_memory);  // the copy's bytes count here too
  limited.deallocate(p, 600);
  CHECK(copy.used_bytes() == 0);
}

TEST_CASE("copies of tracking, aligned, on_oom and logging adaptors share their state", "[memory][copies]") {
  namespace mr = devcol::mr;
  mr::tracking<mr::host_aligned> tracker;
  auto tracker_copy = tracker;
  void* p = tracker_copy.allocate(64);
  CHECK(tracker.outstanding_count() == 1);
  tracker.deallocate(p, 64);
  CHECK(tracker_copy.outstanding_count() == 0);
  CHECK(tracker.unknown_deallocations() == 0);

  mr::aligned<mr::host_aligned> over{4096};
  auto over_copy = over;
  void* q = over.allocate(100);
  CHECK(mr::is_aligned(q, 4096));
  over_copy.deallocate(q, 100);  // found in the one table of padded blocks

  int calls = 0;
  mr::on_oom<mr::limiting<mr::host_aligned>> hook{[&](std::size_t, devcol::stream_ref) {
                                                    ++calls;
                                                    return false;
                                                  },
                                                  std::in_place, std::size_t{10}};
  auto hook_copy = hook;
  CHECK_THROWS_AS(hook_copy.allocate(100), devcol::out_of_memory);
  CHECK(calls == 1);

  std::ostringstream log;
  {
    mr::logging<mr::host_aligned> logger{log};
    auto logger_copy = logger;
    logger_copy.deallocate(logger.allocate(8), 8);
  }
  CHECK(log.str().find("thread,time_ns") == log.str().rfind("thread,time_ns"));  // one header
  CHECK(log.str().find(",allocate,") != std::string::npos);
  CHECK(log.str().find(",deallocate,") != std::string::npos);
}
