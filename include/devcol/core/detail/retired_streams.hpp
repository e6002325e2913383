/**
 * @file retired_streams.hpp
 * @brief Keeps work off destroyed streams: what an allocation, an import or an exported Arrow
 * stream captured may outlive the `devcol::stream` it came from.
 */
#pragma once

#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

#if DEVCOL_BACKEND_CUDA
#  include <devcol/core/detail/immortal.hpp>

#  include <atomic>
#  include <cstddef>
#  include <mutex>
#  include <shared_mutex>
#  include <unordered_set>
#endif

DEVCOL_NAMESPACE_BEGIN
namespace detail {

#if DEVCOL_BACKEND_CUDA
/**
 * @brief The handles of `devcol::stream`s destroyed so far (after their work completed), until
 * CUDA hands the same handle to a new stream. Queuing work on a destroyed stream is undefined
 * behaviour in CUDA, so whatever captured a stream_ref asks live_stream() before queuing on it.
 * Costs one relaxed load while no devcol::stream has been destroyed, one shared lock and a hash
 * lookup after (never per element: per free, import release or exported batch).
 */
class retired_streams {
 public:
  /// The one set, never destroyed: a stream at namespace scope retires into it at exit.
  static retired_streams& global() noexcept {
    static immortal<retired_streams> instance;
    return instance.get();
  }
  /// `stream`'s work is complete and it is about to be destroyed.
  void retire(cudaStream_t stream) {
    std::unique_lock const lock(mutex_);
    if (handles_.insert(stream).second) { count_.fetch_add(1, std::memory_order_release); }
  }
  /// CUDA gave `stream`'s handle to a new stream: it names that one from now on.
  void revive(cudaStream_t stream) noexcept {
    if (count_.load(std::memory_order_acquire) == 0) { return; }
    std::unique_lock const lock(mutex_);
    if (handles_.erase(stream) != 0) { count_.fetch_sub(1, std::memory_order_release); }
  }
  [[nodiscard]] bool contains(cudaStream_t stream) const {
    if (count_.load(std::memory_order_acquire) == 0) { return false; }
    std::shared_lock const lock(mutex_);
    return handles_.contains(stream);
  }

 private:
  friend class immortal<retired_streams>;
  retired_streams() = default;
  std::atomic<std::size_t> count_{0};
  mutable std::shared_mutex mutex_;
  std::unordered_set<cudaStream_t> handles_;
};

/**
 * @brief `stream`, or the default stream if `stream` names a destroyed `devcol::stream`. Its
 * destructor waited for its work, and the host queues what follows, so work moved to the default
 * stream is still ordered after everything the destroyed stream ran. Never throws: a failure to
 * look up (out of memory) keeps `stream`.
 */
[[nodiscard]] inline stream_ref live_stream(stream_ref stream) noexcept {
  try {
    return !stream.is_default() && retired_streams::global().contains(stream.value()) ? stream_ref{} : stream;
  } catch (...) {
    return stream;
  }
}
#else
/// The host backend's streams are identities, never reused: nothing to redirect.
[[nodiscard]] constexpr stream_ref live_stream(stream_ref stream) noexcept { return stream; }
#endif

}  // namespace detail
DEVCOL_NAMESPACE_END
