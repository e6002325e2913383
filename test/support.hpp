// Shared by every test source. The CUDA build compiles all test sources as one translation unit,
// so helpers live here (once) or in a namespace named after their file.
#pragma once

#include <devcol/devcol.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

namespace devcol_test {

namespace mr = devcol::mr;

/// Every power of two from 1 to 4096: the alignments every resource must honour (when it can).
inline constexpr std::size_t alignments[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};

/// An upstream that honours only `max_alignment` bytes, to exercise adaptors' over-alignment.
template <std::size_t MaxAlignment>
struct small_alignment_upstream {
  static constexpr std::size_t max_alignment = MaxAlignment;
  void* allocate(std::size_t bytes, std::size_t alignment = MaxAlignment, devcol::stream_ref s = {}) {
    mr::detail::validate_alignment(alignment, max_alignment, "small_alignment_upstream");
    return inner.allocate(bytes, alignment, s);
  }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment = MaxAlignment, devcol::stream_ref s = {}) noexcept {
    inner.deallocate(p, bytes, alignment, s);
  }
  friend bool operator==(small_alignment_upstream const&, small_alignment_upstream const&) noexcept { return true; }
  friend void get_property(small_alignment_upstream const&, mr::host_accessible) noexcept {}
  mr::host_aligned inner;
};

/// Builds a resource of type R with arguments fit for tests (adaptors that need some).
template <class R>
std::unique_ptr<R> make_test_resource() {
  return std::make_unique<R>();
}
template <class R>
  requires requires { typename R::upstream_type; }
std::unique_ptr<R> make_test_resource() {
  using U = typename R::upstream_type;
  if constexpr (std::is_same_v<R, mr::limiting<U>>) {
    return std::make_unique<R>(std::size_t{1} << 30);
  } else if constexpr (std::is_same_v<R, mr::logging<U>>) {
    static std::ostringstream sink;  // outlives every logging adaptor of the test run
    return std::make_unique<R>(sink);
  } else if constexpr (std::is_same_v<R, mr::on_oom<U>>) {
    return std::make_unique<R>([](std::size_t, devcol::stream_ref) { return false; });
  } else if constexpr (std::is_same_v<R, mr::aligned<U>>) {
    return std::make_unique<R>(std::size_t{64});
  } else {
    return std::make_unique<R>();
  }
}

}  // namespace devcol_test
