// The NEP 49 handler: resource_handle, the per-thread default, scoped_default, and allocation.
#include "../support.hpp"

#include <atomic>
#include <optional>
#include <thread>

namespace devcol_test::defaults {

using tracker = mr::tracking<mr::host_aligned>;

inline tracker const& tracked(mr::resource_handle const& h) { return *h.target<tracker>(); }

/// Drops this thread's own default for a scope (an earlier `set_default(previous)` pins one), so
/// that the current device's default applies; gives it back at scope exit.
struct no_thread_default {
  std::optional<mr::resource_handle> kept = mr::reset_default();
  no_thread_default() = default;
  no_thread_default(no_thread_default const&) = delete;
  no_thread_default& operator=(no_thread_default const&) = delete;
  ~no_thread_default() {
    if (kept) { (void)mr::set_default(*kept); }
  }
};

/// A custom resource that checks no alignment (none has to): it gives 64-byte-aligned memory
/// whatever is asked, and counts its calls.
struct unchecking_resource {
  std::shared_ptr<int> calls = std::make_shared<int>(0);
  void* allocate(std::size_t bytes, std::size_t, devcol::stream_ref s = {}) {
    ++*calls;
    return mr::host_aligned{}.allocate(bytes, 64, s);
  }
  void deallocate(void* p, std::size_t bytes, std::size_t, devcol::stream_ref s = {}) noexcept {
    mr::host_aligned{}.deallocate(p, bytes, 64, s);
  }
  friend bool operator==(unchecking_resource const& a, unchecking_resource const& b) noexcept {
    return a.calls == b.calls;
  }
};

}  // namespace devcol_test::defaults

TEST_CASE("resource_handle: name, version, properties, target and equality", "[memory][handle]") {
  devcol::mr::resource_handle const host{"host", devcol::mr::host_aligned{}, 3};
  CHECK(host.name() == "host");
  CHECK(host.version() == 3);
  CHECK(host.is_host_accessible());
  CHECK(host.is_device_accessible() == (DEVCOL_BACKEND_HOST == 1));
  CHECK(host.target<devcol::mr::host_aligned>() != nullptr);
  CHECK(host.target<devcol::mr::pool<devcol::mr::host_aligned>>() == nullptr);
  auto const copy = host;
  CHECK(copy == host);
  CHECK(devcol::mr::resource_handle{"other", devcol::mr::host_aligned{}} == host);  // stateless leaves are interchangeable
  auto const p1 = devcol::mr::make_resource_handle<devcol::mr::pool<devcol::mr::host_aligned>>("pool-1");
  auto const p2 = devcol::mr::make_resource_handle<devcol::mr::pool<devcol::mr::host_aligned>>("pool-2");
  CHECK(p1 != p2);  // two pools cannot free each other's blocks
  CHECK(p1.version() == devcol::mr::resource_handle::current_version);
}

TEST_CASE("the initial default is the backend's, and set_default returns the previous handle", "[memory][default]") {
  auto const initial = devcol::mr::get_default();
  CHECK(initial == devcol::mr::initial_default());
  CHECK(initial.name() == (DEVCOL_BACKEND_CUDA ? "cuda_async" : "host_aligned"));
  devcol::mr::resource_handle const mine{"mine", devcol::mr::host_aligned{}};
  auto const previous = devcol::mr::set_default(mine);
  CHECK(previous.name() == initial.name());
  CHECK(devcol::mr::get_default().name() == "mine");
  CHECK(devcol::mr::set_default(previous).name() == "mine");
  CHECK(devcol::mr::get_default().name() == initial.name());
}

TEST_CASE("scoped_default restores the previous default, nested", "[memory][default]") {
  auto const before = devcol::mr::get_default().name();
  {
    devcol::mr::scoped_default outer{devcol::mr::resource_handle{"outer", devcol::mr::host_aligned{}}};
    CHECK(devcol::mr::get_default().name() == "outer");
    {
      devcol::mr::scoped_default inner{devcol::mr::resource_handle{"inner", devcol::mr::host_aligned{}}};
      CHECK(devcol::mr::get_default().name() == "inner");
    }
    CHECK(devcol::mr::get_default().name() == "outer");
  }
  CHECK(devcol::mr::get_default().name() == before);
}

TEST_CASE("the default is per thread: two threads do not see each other's", "[memory][default][threads]") {
  devcol::mr::scoped_default main_default{devcol::mr::resource_handle{"main", devcol::mr::host_aligned{}}};
  std::string seen_at_start;
  std::string seen_after_set;
  std::thread other([&] {
    seen_at_start = devcol::mr::get_default().name();  // a new thread starts from the initial default
    devcol::mr::set_default(devcol::mr::resource_handle{"other", devcol::mr::host_aligned{}});
    seen_after_set = devcol::mr::get_default().name();
  });
  other.join();
  CHECK(seen_at_start == devcol::mr::initial_default().name());
  CHECK(seen_after_set == "other");
  CHECK(devcol::mr::get_default().name() == "main");
}

TEST_CASE("an allocation captures its resource and, freed after the default changed, goes back to it", "[memory][allocation]") {
  using devcol_test::defaults::tracked;
  using devcol_test::defaults::tracker;
  auto const a = devcol::mr::make_resource_handle<tracker>("A");
  auto const b = devcol::mr::make_resource_handle<tracker>("B");
  std::optional<devcol::mr::allocation> block;
  {
    devcol::mr::scoped_default use_a{a};
    block.emplace(1000);
  }
  CHECK(block->resource().name() == "A");
  CHECK(block->size() == 1000);
  CHECK(devcol::mr::is_aligned(block->data(), devcol::mr::default_alignment));
  CHECK(tracked(a).outstanding_count() == 1);
  devcol::mr::scoped_default use_b{b};
  block.reset();  // freed while B is the default
  CHECK(tracked(a).outstanding_count() == 0);
  CHECK(tracked(a).mismatched_deallocations() == 0);
  CHECK(tracked(b).unknown_deallocations() == 0);  // B never saw the free
  CHECK(tracked(b).outstanding_count() == 0);
}

TEST_CASE("an allocation moves without freeing twice", "[memory][allocation]") {
  using devcol_test::defaults::tracked;
  using devcol_test::defaults::tracker;
  auto const r = devcol::mr::make_resource_handle<tracker>("r");
  devcol::mr::allocation first(4096, 256, devcol::stream_ref{}, r);
  void* const p = first.data();
  CHECK(devcol::mr::is_aligned(p, 256));
  devcol::mr::allocation second = std::move(first);
  CHECK(second.data() == p);
  CHECK(first.data() == nullptr);  // NOLINT(bugprone-use-after-move): moved-from is specified empty
  CHECK(first.size() == 0);
  devcol::mr::allocation third(10, 64, devcol::stream_ref{}, r);
  third = std::move(second);  // frees third's 10 bytes, takes the 4096
  CHECK(tracked(r).outstanding_count() == 1);
  CHECK(tracked(r).outstanding_bytes() == 4096);
  third = devcol::mr::allocation(1, 64, devcol::stream_ref{}, r);
  CHECK(tracked(r).outstanding_bytes() == 1);
}

// An integer must never pass for a stream: allocation(4096, 256) is not (bytes, alignment).
static_assert(!std::is_constructible_v<devcol::mr::allocation, std::size_t, std::size_t>);
static_assert(std::is_constructible_v<devcol::mr::allocation, std::size_t, devcol::stream_ref, std::size_t>);

TEST_CASE("an allocation refuses an alignment that is not a power of two, naming it, before allocating",
          "[memory][allocation]") {
  devcol_test::defaults::unchecking_resource const lax;
  for (std::size_t const bad : {std::size_t{0}, std::size_t{3}, std::size_t{96}}) {
    try {
      devcol::mr::basic_allocation<devcol_test::defaults::unchecking_resource> block(100, bad, devcol::stream_ref{}, lax);
      FAIL("alignment " << bad << " was accepted");
    } catch (devcol::logic_error const& e) {
      CHECK_THAT(e.what(), Catch::Contains("alignment " + std::to_string(bad) + " is not a power of two"));
    }
  }
  CHECK(*lax.calls == 0);
}

TEST_CASE("an allocation over a typed resource needs no handle", "[memory][allocation]") {
  devcol::mr::basic_allocation<devcol::mr::host_aligned> block(100, 128, devcol::stream_ref{}, devcol::mr::host_aligned{});
  CHECK(devcol::mr::is_aligned(block.data(), 128));
  static_assert(sizeof(block) < sizeof(devcol::mr::allocation), "a stateless resource costs no handle");
}

// --- the per-device default (RMM's set_per_device_resource), under the thread's ---------------

TEST_CASE("the current device's default serves a thread with no default of its own", "[memory][default][per_device]") {
  devcol_test::defaults::no_thread_default const follow_the_device;
  devcol::device_id const here = devcol::current_device();
  CHECK(devcol::mr::get_per_device_default(here) == devcol::mr::initial_default());
  auto const mine = devcol::mr::make_resource_handle<devcol_test::defaults::tracker>("device default");
  auto const previous = devcol::mr::set_per_device_default(here, mine);
  CHECK(previous == devcol::mr::initial_default());
  CHECK(devcol::mr::get_per_device_default(here).name() == "device default");
  CHECK(devcol::mr::get_default().name() == "device default");
  {
    devcol::mr::allocation block(100);  // no resource named, none scoped: the device's
    CHECK(block.resource().name() == "device default");
    CHECK(block.device() == here);
    CHECK(devcol_test::defaults::tracked(mine).outstanding_count() == 1);
  }
  CHECK(devcol_test::defaults::tracked(mine).outstanding_count() == 0);
  std::string seen_by_other_thread;
  std::thread other([&] { seen_by_other_thread = devcol::mr::get_default().name(); });
  other.join();
  CHECK(seen_by_other_thread == "device default");  // process-wide, unlike set_default
  CHECK(devcol::mr::set_per_device_default(here, previous).name() == "device default");
  CHECK(devcol::mr::get_default() == devcol::mr::initial_default());
}

TEST_CASE("the thread's default wins over the device's, and scoped_default restores 'none'", "[memory][default][per_device]") {
  devcol_test::defaults::no_thread_default const follow_the_device;
  devcol::device_id const here = devcol::current_device();
  auto const previous =
      devcol::mr::set_per_device_default(here, devcol::mr::resource_handle{"device", devcol::mr::host_aligned{}});
  {
    devcol::mr::scoped_default thread_own{devcol::mr::resource_handle{"thread", devcol::mr::host_aligned{}}};
    CHECK(devcol::mr::get_default().name() == "thread");
    devcol::mr::allocation block(8);
    CHECK(block.resource().name() == "thread");
  }
  CHECK(devcol::mr::get_default().name() == "device");  // the thread follows the device again
  // A later change of the device's default is seen at once (the thread's cached read is refreshed).
  (void)devcol::mr::set_per_device_default(here, devcol::mr::resource_handle{"device, again", devcol::mr::host_aligned{}});
  CHECK(devcol::mr::get_default().name() == "device, again");
  // set_default keeps a thread default until reset_default drops it.
  auto const before = devcol::mr::set_default(devcol::mr::resource_handle{"pinned", devcol::mr::host_aligned{}});
  CHECK(before.name() == "device, again");
  CHECK(devcol::mr::get_default().name() == "pinned");
  auto const dropped = devcol::mr::reset_default();
  REQUIRE(dropped.has_value());
  CHECK(dropped->name() == "pinned");
  CHECK_FALSE(devcol::mr::reset_default().has_value());
  CHECK(devcol::mr::get_default().name() == "device, again");
  (void)devcol::mr::set_per_device_default(here, previous);
  CHECK(devcol::mr::get_default() == devcol::mr::initial_default());
}

TEST_CASE("a replaced per-device default goes with its last handle, though threads have read it",
          "[memory][default][per_device]") {
  devcol_test::defaults::no_thread_default const follow_the_device;
  devcol::device_id const here = devcol::current_device();
  auto const checker = devcol::mr::make_resource_handle<devcol_test::defaults::tracker>("checker");
  auto previous = devcol::mr::set_per_device_default(
      here, devcol::mr::resource_handle{"pool", devcol::mr::pool<devcol::mr::resource_handle>{{}, checker}});
  { devcol::mr::allocation block(100); }  // this thread reads the pool; its chunk stays in the pool
  std::atomic<bool> read{false};
  std::atomic<bool> done{false};
  std::thread idle([&] {  // a worker that read the default once and then idles
    { devcol::mr::allocation block(100); }
    read = true;
    while (!done) { std::this_thread::yield(); }
  });
  while (!read) { std::this_thread::yield(); }
  CHECK(devcol_test::defaults::tracked(checker).outstanding_count() == 1);
  (void)devcol::mr::set_per_device_default(here, previous);  // the last handle to the pool goes
  // The pool is destroyed and its chunk is back upstream, with neither thread reading again.
  CHECK(devcol_test::defaults::tracked(checker).outstanding_count() == 0);
  done = true;
  idle.join();
  CHECK(devcol::mr::get_default() == devcol::mr::initial_default());
}

TEST_CASE("a per-device default is refused for a device that does not exist", "[memory][default][per_device]") {
  devcol_test::defaults::no_thread_default const follow_the_device;
  devcol::device_id const past_the_end{devcol::device_count()};
  devcol::mr::resource_handle const h{"h", devcol::mr::host_aligned{}};
  CHECK_THROWS_AS(devcol::mr::set_per_device_default(past_the_end, h), devcol::logic_error);
  CHECK_THROWS_AS(devcol::mr::get_per_device_default(devcol::device_id{-1}), devcol::logic_error);
  CHECK_THROWS_WITH(devcol::mr::get_per_device_default(past_the_end),
                    Catch::Matchers::Contains("device " + std::to_string(devcol::device_count())));
  CHECK(devcol::mr::get_default() == devcol::mr::initial_default());  // nothing changed
}
