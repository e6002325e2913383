/**
 * @file stream_order.hpp
 * @brief Makes reuse of freed memory across streams safe without host synchronisation.
 */
#pragma once

#include <devcol/core/config.hpp>
#include <devcol/core/event.hpp>
#include <devcol/core/stream_ref.hpp>

#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN
namespace mr::detail {

#if DEVCOL_BACKEND_CUDA
/// Where a freed block may still be in use: by work queued on `stream` before its free, or on any
/// stream this pool has seen (`any`, after blocks freed on different streams were merged).
struct free_tag {
  stream_ref stream{};
  bool any = false;
  /// The tag of a block made by merging blocks tagged `a` and `b`.
  friend free_tag merge(free_tag a, free_tag b) noexcept { return a.any || b.any || a.stream != b.stream ? free_tag{{}, true} : a; }
  /// Whether a block with this tag can be handed to `s` with no wait at all.
  [[nodiscard]] bool ready_for(stream_ref s) const noexcept { return !any && stream == s; }
};

/**
 * @brief One event per stream that freed memory, recorded at each free. A block freed on stream A
 * and reused on stream B makes B wait for A's event (`cudaStreamWaitEvent`): ordered, no host sync.
 * Not thread-safe: the owner's lock guards it.
 */
class stream_order {
 public:
  /// @brief Marks the point after which memory freed (or allocated) on `s` is usable by other
  /// streams; returns the block's tag. Never throws:
  /// if no event can be made, it synchronises `s`, so the block needs no wait at all.
  free_tag on_free(stream_ref s) noexcept {
    try {
      event_for(s).record(s);
      return free_tag{s, false};
    } catch (...) {
      (void)cudaStreamSynchronize(s.value());
      (void)cudaGetLastError();
      return free_tag{s, false};
    }
  }
  /// @brief Makes `s` wait until a block tagged `tag` is no longer in use. @throws devcol::cuda_error
  void before_reuse(free_tag tag, stream_ref s) {
    for (auto& [stream, ev] : events_) {
      if (stream != s && (tag.any || stream == tag.stream)) { ev.wait(s); }
    }
  }
  /// @brief Makes `s` wait for every free this object has seen (before memory goes back upstream).
  void before_release(stream_ref s) noexcept {
    try {
      before_reuse(free_tag{{}, true}, s);
    } catch (...) {
      (void)cudaDeviceSynchronize();
    }
  }

 private:
  event& event_for(stream_ref s) {
    for (auto& [stream, ev] : events_) {
      if (stream == s) { return ev; }
    }
    // Programs that make a stream per task would grow this list for ever: past a few dozen
    // streams, drop the events whose work is done (no block needs to wait for them any more).
    if (events_.size() >= prune_threshold) {
      std::erase_if(events_, [](auto const& entry) {
        try {
          return entry.second.ready();
        } catch (...) {
          return false;
        }
      });
    }
    return events_.emplace_back(s, event{}).second;
  }
  static constexpr std::size_t prune_threshold = 32;
  std::vector<std::pair<stream_ref, event>> events_;
};
#else
/// The host backend's streams are always complete: freed memory is reusable at once.
struct free_tag {
  friend constexpr free_tag merge(free_tag, free_tag) noexcept { return {}; }
  [[nodiscard]] constexpr bool ready_for(stream_ref) const noexcept { return true; }
};
/// Nothing to order on the host backend.
class stream_order {
 public:
  constexpr free_tag on_free(stream_ref) noexcept { return {}; }
  constexpr void before_reuse(free_tag, stream_ref) noexcept {}
  constexpr void before_release(stream_ref) noexcept {}
};
#endif

}  // namespace mr::detail
DEVCOL_NAMESPACE_END
