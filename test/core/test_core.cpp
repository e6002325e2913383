// Core layer: backend detection, version, errors and check macros, streams and events.
#include "../support.hpp"

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <sstream>
#include <string_view>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>

static_assert(DEVCOL_BACKEND_CUDA + DEVCOL_BACKEND_HOST == 1, "exactly one backend is active");
static_assert(DEVCOL_VERSION == DEVCOL_VERSION_MAJOR * 1000000 + DEVCOL_VERSION_MINOR * 1000 + DEVCOL_VERSION_PATCH);
static_assert(devcol::version == devcol::version_info{DEVCOL_VERSION_MAJOR, DEVCOL_VERSION_MINOR, DEVCOL_VERSION_PATCH});
static_assert(std::is_trivially_copyable_v<devcol::stream_ref>, "stream_ref is passed by value into kernels' launchers");
static_assert(sizeof(devcol::stream_ref) == sizeof(void*));
static_assert(!std::is_copy_constructible_v<devcol::stream> && std::is_nothrow_move_constructible_v<devcol::stream>);
static_assert(!std::is_copy_constructible_v<devcol::event> && std::is_nothrow_move_constructible_v<devcol::event>);

// Each devcol exception is exactly one standard exception and a devcol::error.
static_assert(std::is_base_of_v<devcol::error, devcol::logic_error> && std::is_base_of_v<std::logic_error, devcol::logic_error>);
static_assert(std::is_base_of_v<devcol::error, devcol::cuda_error> && std::is_base_of_v<std::runtime_error, devcol::cuda_error>);
static_assert(std::is_base_of_v<devcol::error, devcol::out_of_memory> && std::is_base_of_v<std::bad_alloc, devcol::out_of_memory>);
static_assert(std::is_base_of_v<devcol::error, devcol::arrow_error> && std::is_base_of_v<std::invalid_argument, devcol::arrow_error>);

namespace devcol_test::core {

int checked_function(int value) {
  DEVCOL_EXPECTS(value >= 0, "value ", value, " must not be negative");
  return value;
}

}  // namespace devcol_test::core

TEST_CASE("DEVCOL_EXPECTS throws devcol::logic_error naming the bad value, the file and the line", "[core][error]") {
  using devcol_test::core::checked_function;
  REQUIRE(checked_function(3) == 3);
  try {
    checked_function(-7);
    FAIL("no exception");
  } catch (devcol::logic_error const& e) {
    std::string const what = e.what();
    CHECK(what.find("value -7 must not be negative") != std::string::npos);
    CHECK(what.find("test_core.cpp:") != std::string::npos);
    CHECK(what.rfind("devcol: ", 0) == 0);
  }
}

namespace devcol_test::core {

enum class shade { light, dark };
std::ostream& operator<<(std::ostream& out, shade s) { return out << (s == shade::light ? "light" : "dark"); }

/// What `operator<<` prints for the same values, which a check's message must match.
template <class... Args>
std::string streamed(Args const&... args) {
  std::ostringstream out;
  (out << ... << args);
  return out.str();
}

/// The text of a DEVCOL_FAIL with these values, without its "devcol: " and location.
template <class... Args>
std::string failed_with(Args const&... args) {
  try {
    DEVCOL_FAIL(args...);
  } catch (devcol::logic_error const& e) {
    std::string const what = e.what();
    std::size_t const at = what.rfind(" [at ");
    REQUIRE(what.rfind("devcol: ", 0) == 0);
    REQUIRE(at != std::string::npos);
    return what.substr(8, at - 8);
  }
  FAIL("no exception");
  return {};
}

}  // namespace devcol_test::core

TEST_CASE("a check's message prints each value as operator<< does", "[core][error]") {
  using devcol_test::core::failed_with;
  using devcol_test::core::shade;
  using devcol_test::core::streamed;
  int local = 0;
  void const* const pointer = &local;
  void const* const null_pointer = nullptr;
  char const* const null_text = nullptr;
  std::string const text = "text";
  double const nan = std::numeric_limits<double>::quiet_NaN();
  double const inf = std::numeric_limits<double>::infinity();
  CHECK(failed_with("a ", 7, " b") == "a 7 b");
  CHECK(failed_with(std::numeric_limits<long long>::min(), ' ', std::numeric_limits<unsigned long long>::max()) ==
        streamed(std::numeric_limits<long long>::min(), ' ', std::numeric_limits<unsigned long long>::max()));
  CHECK(failed_with(std::int8_t{-5}, std::uint16_t{65535}, short{-1}, 3u) ==
        streamed(std::int8_t{-5}, std::uint16_t{65535}, short{-1}, 3u));
  CHECK(failed_with(true, false, 'x', static_cast<unsigned char>('y')) ==
        streamed(true, false, 'x', static_cast<unsigned char>('y')));
  CHECK(failed_with(0.1, ' ', -0.0, ' ', 1e300, ' ', 2.5f, ' ', 1234567.0, ' ', 5e-7) ==
        streamed(0.1, ' ', -0.0, ' ', 1e300, ' ', 2.5f, ' ', 1234567.0, ' ', 5e-7));
  CHECK(failed_with(inf, ' ', -inf) == "inf -inf");
  CHECK(failed_with(nan) == "nan");
  CHECK(failed_with(pointer, ' ', null_pointer) == streamed(pointer, ' ', null_pointer));
  CHECK(failed_with(text, std::string_view("view"), null_text) == "textview(null)");
  CHECK(failed_with(shade::dark, '/', shade::light) == "dark/light");
}

TEST_CASE("every devcol exception is caught as devcol::error and, unambiguously, as std::exception", "[core][error]") {
  auto catch_both = [](auto thrower) {
    int caught = 0;
    try {
      thrower();
    } catch (devcol::error const& e) {
      caught += std::string(e.what()).empty() ? 0 : 1;
    }
    try {
      thrower();
    } catch (std::exception const& e) {
      caught += std::string(e.what()).empty() ? 0 : 1;
    }
    return caught;
  };
  CHECK(catch_both([] { DEVCOL_FAIL("logic ", 1); }) == 2);
  CHECK(catch_both([] { throw devcol::cuda_error("devcol: cuda", 2, "cudaMalloc(&p, n)"); }) == 2);
  CHECK(catch_both([] { DEVCOL_OUT_OF_MEMORY(std::size_t{42}, "no room for ", 42, " bytes"); }) == 2);
  CHECK(catch_both([] { throw devcol::arrow_error("devcol: n_buffers 7"); }) == 2);
}

TEST_CASE("out_of_memory is a std::bad_alloc that carries the requested size", "[core][error]") {
  try {
    DEVCOL_OUT_OF_MEMORY(std::size_t{4096}, "cannot allocate ", 4096, " bytes");
  } catch (std::bad_alloc const& e) {
    auto const* oom = dynamic_cast<devcol::out_of_memory const*>(&e);
    REQUIRE(oom != nullptr);
    CHECK(oom->requested_bytes() == 4096);
    CHECK(std::string(e.what()).find("cannot allocate 4096 bytes") != std::string::npos);
  }
}

TEST_CASE("cuda_error carries the error code and the failing call", "[core][error]") {
  devcol::cuda_error const e("devcol: failed", 700, "cudaMemcpy(a, b, n, k)");
  CHECK(e.code() == 700);
  CHECK(std::string(e.call()) == "cudaMemcpy(a, b, n, k)");
  devcol::cuda_error const copy = e;  // exceptions copy without throwing
  CHECK(std::string(copy.what()) == "devcol: failed");
}

TEST_CASE("stream_ref: default, identity and synchronize", "[core][stream]") {
  devcol::stream_ref const default_stream{};
  CHECK(default_stream.is_default());
  devcol::stream owned;
  devcol::stream_ref const ref = owned;
  CHECK(ref == owned.ref());
  CHECK(ref.value() == owned.value());
  CHECK_NOTHROW(ref.synchronize());
#if DEVCOL_BACKEND_HOST
  // On the host backend each stream has its own identity; with CUDA this holds too but needs a GPU.
  devcol::stream other;
  CHECK_FALSE(ref.is_default());
  CHECK(ref != other.ref());
#endif
}

TEST_CASE("stream moves leave the source referring to the default stream", "[core][stream]") {
  devcol::stream a;
  auto const value = a.value();
  devcol::stream b = std::move(a);
  CHECK(b.value() == value);
  CHECK(a.ref().is_default());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
}

TEST_CASE("event: record, wait and synchronize in stream order", "[core][event]") {
  devcol::stream s1;
  devcol::stream s2;
  devcol::event e;
  e.record(s1);
  e.wait(s2);
  e.synchronize();
  CHECK(e.ready());
}

TEST_CASE("scoped_device on the current device changes nothing, and streams and events record it",
          "[core][device]") {
  devcol::device_id const here = devcol::current_device();
  CHECK(devcol::device_count() >= 1);
  if (DEVCOL_BACKEND_HOST) {
    CHECK(here == devcol::device_id{0});  // the host backend's one device
    CHECK(devcol::device_count() == 1);
  }
  {
    devcol::scoped_device const same(here);
    CHECK(devcol::current_device() == here);
    devcol::stream s;
    devcol::event e;
    CHECK(s.device() == here);
    CHECK(e.device() == here);
    e.record(s);
    e.wait(s);
    e.synchronize();
  }
  CHECK(devcol::current_device() == here);
  static_assert(devcol::device_id{1} != devcol::device_id{0} && devcol::device_id{} == devcol::device_id{0});
  static_assert(!std::is_convertible_v<int, devcol::device_id>, "an integer must not pass for a device");
}

TEST_CASE("callback holds, copies and moves a callable as std::function does, and an empty one throws when called", "[core][callback]") {
  using counter = devcol::callback<int(int)>;
  counter empty;
  CHECK_FALSE(empty);
  CHECK(empty == nullptr);
  CHECK_THROWS_AS(empty(1), devcol::logic_error);
  CHECK(counter(nullptr) == nullptr);

  // A mutable lambda changes its own captures; a copy has its own, as a std::function copy does.
  counter count = [calls = 0](int step) mutable { return calls += step; };
  REQUIRE(count);
  CHECK(count(2) == 2);
  counter copy = count;
  CHECK(copy(10) == 12);
  CHECK(count(1) == 3);

  counter moved = std::move(count);
  CHECK(moved(1) == 4);
  CHECK(count == nullptr);  // NOLINT(bugprone-use-after-move): a moved-from callback is empty
  count = moved;
  CHECK(count(1) == 5);
  CHECK(moved(1) == 5);

  // A function pointer and a std::function convert; a result converts to R.
  devcol::callback<long(int)> pointer = +[](int v) { return v * 2; };
  CHECK(pointer(21) == 42L);
  std::function<int(int)> const standard = [](int v) { return -v; };
  counter from_standard = standard;
  CHECK(from_standard(5) == -5);

  // Reference parameters reach the callable as references.
  devcol::callback<void(int&)> bump = [](int& v) { ++v; };
  int value = 1;
  bump(value);
  CHECK(value == 2);
}
