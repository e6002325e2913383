/**
 * @file spill_state.hpp
 * @brief What the buffer layer keeps for spillable owners: the type-erased registry of live
 * spillable owners, the per-owner spill state, the epoch that orders them least-recently-used, the
 * thread's active spill locks and the spill statistics. The spill layer (`devcol/spill/`) drives it;
 * nothing here is used by a `no_spill` owner.
 *
 * The buffer layer's interface to the layers above it, and no more: `devcol/spill/` builds
 * `spill_manager` and `spill_lock` on it, and an Arrow export keeps what it points to on the device
 * with its `spill_pins`. Its names stay in `devcol::detail`, since code outside devcol uses those
 * public classes instead; the header is public so that no layer reaches into another's `detail/`
 * folder. It never includes the spill layer (which is above it).
 */
#pragma once

#include <devcol/buffer/options.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/detail/immortal.hpp>
#include <devcol/core/detail/retired_streams.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/event.hpp>
#include <devcol/core/source_location.hpp>
#include <devcol/core/stream_ref.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Where a spillable owner's bytes are.
enum class spill_location : std::uint8_t {
  device,  ///< on the device (the owner's resource)
  host,    ///< spilled: in host memory, the device memory freed
  moving   ///< being spilled or unspilled by one thread; others wait, the manager skips it
};

struct spill_node;

/// The LRU clock: advanced by spillable allocations, unspills and by an access to an owner that was
/// not the last one used, read (relaxed) by every access. Constant-initialised at namespace scope,
/// so reading it needs no guard.
inline std::atomic<std::uint64_t> spill_epoch{0};
/// How many spill locks are active on this thread: a trivially initialised thread_local, so the
/// access fast path tests it without a call to a thread_local initialiser.
inline thread_local std::size_t spill_lock_depth = 0;

/// What the registry and the spill layer may do with an owner whose type they do not know.
struct spill_node_ops {
  /// Pins the owner (keeps it alive, without counting as a handle) unless it has no handle left.
  bool (*try_pin)(spill_node*) noexcept;
  /// Drops a pin (the last pin, once no handle is left, destroys the owner).
  void (*unpin)(spill_node*) noexcept;
  /// Moves the bytes to host memory if allowed now; returns the device bytes freed (0 if none).
  std::size_t (*spill)(spill_node*);
  /// The stream the owner was made on: its spills copy, and its memory is freed, in order on it.
  stream_ref (*stream)(spill_node const*) noexcept;
  /// The owner's device (rule 21): its stream belongs to it (the default stream is that device's).
  device_id (*device)(spill_node const*) noexcept;
};

/// A stream an operation under a spill lock queued work on, with its device: the one current when
/// the operation noted it (a default stream is each device's own, so the handle alone cannot say).
struct noted_stream {
  stream_ref stream;
  device_id device;
  friend bool operator==(noted_stream const& a, noted_stream const& b) noexcept {
    return a.stream == b.stream && a.device == b.device;
  }
};

/**
 * @brief The spill state every spillable owner carries (its base class): an intrusive list link
 * for the registry, the owner's mutex, where its bytes are, its spill-lock count and its last use.
 */
struct spill_node {
  spill_node* prev = nullptr;  // registry list, guarded by the registry mutex
  spill_node* next = nullptr;
  spill_node_ops const* ops = nullptr;
  std::mutex mutex;  // guards the transitions of `location` and the host copy
  std::atomic<spill_location> location{spill_location::device};
  std::atomic<std::size_t> lock_count{0};    // spill locks holding it on the device
  std::atomic<std::uint64_t> last_use{0};    // the epoch of its last access
  // Set for good by a pointer access outside every spill lock (rule 20): that pointer may be kept
  // anywhere, so the bytes never move again. Written under `mutex` while on the device.
  std::atomic<bool> pinned_for_good{false};
  // Liveness apart from the handle count (as a weak count): all handles together hold one pin,
  // each spill lock and manager snapshot holding the owner one more. A pin is not a handle, so it
  // never makes a write copy (use_count() counts handles only).
  std::atomic<std::size_t> pins{1};
  std::size_t bytes_ = 0;       // the allocation's size, wherever it is
  std::size_t alignment_ = 0;   // and its alignment
  std::byte* host = nullptr;    // the host copy while spilled
  bool registered = false;
};

/// Level-1 counters: bytes, counts and nanoseconds per direction.
struct spill_counters {
  std::atomic<std::uint64_t> spilled_bytes{0};
  std::atomic<std::uint64_t> spill_count{0};
  std::atomic<std::uint64_t> spill_ns{0};
  std::atomic<std::uint64_t> unspilled_bytes{0};
  std::atomic<std::uint64_t> unspill_count{0};
  std::atomic<std::uint64_t> unspill_ns{0};
};

/**
 * @brief Every live spillable owner, in an intrusive list under one mutex: register and
 * unregister are O(1); nothing scans it per allocation or access (rule 18). Also the epoch, the
 * device bytes it tracks (per device), the statistics level and counters; it spills
 * least-recently-used owners when asked, and after an allocation when its device passes the soft
 * device limit.
 *
 * The members that sort, map or grow vectors are `template <int = 0>`, so that only a file that
 * uses spillable owners compiles them (the body of a non-template member is compiled in every file
 * that includes this header, which is every file that includes a column).
 */
class spill_registry {
 public:
  /// The one registry, never destroyed: a spillable owner at namespace scope unregisters at exit.
  static spill_registry& global() noexcept {
    static immortal<spill_registry> registry;
    return registry.get();
  }

  /// Registers `node` (its ops set), with `bytes` on its device.
  void add(spill_node* node, std::size_t bytes) {
    std::lock_guard const guard(mutex_);
    node->prev = nullptr;
    node->next = head_;
    if (head_ != nullptr) { head_->prev = node; }
    head_ = node;
    node->registered = true;
    add_device_bytes(bytes, node->ops->device(node));
  }
  void remove(spill_node* node, std::size_t device_bytes) noexcept {
    std::lock_guard const guard(mutex_);
    if (!node->registered) { return; }
    if (node->prev != nullptr) { node->prev->next = node->next; } else { head_ = node->next; }
    if (node->next != nullptr) { node->next->prev = node->prev; }
    node->registered = false;
    sub_device_bytes(device_bytes, node->ops->device(node));
  }

  /// Pins on every live owner on the device now (taken under the mutex, each only if it still has
  /// a handle), with their last-use stamps: the caller unpins each through its ops.
  template <int = 0>
  [[nodiscard]] std::vector<std::pair<std::uint64_t, spill_node*>> snapshot() {
    std::vector<std::pair<std::uint64_t, spill_node*>> out;
    std::lock_guard const guard(mutex_);
    for (spill_node* n = head_; n != nullptr; n = n->next) {
      if (n->location.load(std::memory_order_acquire) == spill_location::device &&
          !n->pinned_for_good.load(std::memory_order_relaxed) && n->ops->try_pin(n)) {
        out.emplace_back(n->last_use.load(std::memory_order_relaxed), n);
      }
    }
    return out;
  }

  /// The current epoch: what an access stamps its owner with (one relaxed load).
  [[nodiscard]] static std::uint64_t epoch() noexcept { return spill_epoch.load(std::memory_order_relaxed); }
  /// Advances the epoch (on a spillable allocation or unspill) and returns the new value.
  static std::uint64_t advance() noexcept { return spill_epoch.fetch_add(1, std::memory_order_relaxed) + 1; }

  void add_device_bytes(std::size_t bytes, device_id device) noexcept {
    device_bytes_[device_slot(device)].fetch_add(bytes, std::memory_order_relaxed);
  }
  void sub_device_bytes(std::size_t bytes, device_id device) noexcept {
    device_bytes_[device_slot(device)].fetch_sub(bytes, std::memory_order_relaxed);
  }
  /// Device bytes held by registered owners of `device` now.
  [[nodiscard]] std::size_t device_bytes(device_id device) const noexcept {
    return device_bytes_[device_slot(device)].load(std::memory_order_relaxed);
  }
  /// Device bytes held by registered owners now, on every device.
  [[nodiscard]] std::size_t device_bytes() const noexcept {
    std::size_t total = 0;
    for (auto const& bytes : device_bytes_) { total += bytes.load(std::memory_order_relaxed); }
    return total;
  }
  /// The number of registered owners (a scan: for tests and reports only).
  [[nodiscard]] std::size_t count() {
    std::lock_guard const guard(mutex_);
    std::size_t n = 0;
    for (spill_node* p = head_; p != nullptr; p = p->next) { ++n; }
    return n;
  }

  /**
   * Spills least-recently-used owners until at least `bytes` device bytes were freed or nothing
   * more can be spilled (what `spill_manager::spill` does); with `only`, owners of that device
   * alone (what frees memory for an allocation on it). Allocates host memory; takes the mutex
   * once, for a snapshot, and no lock while copying.
   * @returns the device bytes freed
   */
  template <int = 0>
  std::size_t spill_least_recently_used(std::size_t bytes, std::optional<device_id> only = std::nullopt) noexcept {
    std::vector<std::pair<std::uint64_t, spill_node*>> candidates;
    try {
      candidates = snapshot();
    } catch (...) {
      return 0;  // no memory for the list: nothing to spill with
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](auto const& a, auto const& b) { return a.first < b.first; });
    std::size_t freed = 0;
    for (auto const& [stamp, node] : candidates) {
      if (freed < bytes && (!only || node->ops->device(node) == *only)) {
        try {
          freed += node->ops->spill(node);
        } catch (...) {
          // no host memory for this one: try the next
        }
      }
      node->ops->unpin(node);
    }
    return freed;
  }

  /**
   * Called after every spillable allocation and unspill on `device`, with no lock held: with
   * `options::spill()` on and a device limit set, spills that device's owners until its tracked
   * bytes are under it (rule 17's soft limit, a limit per device: another device's owners hold
   * none of its memory). Here rather than in the spill layer so that the limit applies in a
   * program that never names the manager, without a start-up initialiser in every file that
   * includes devcol.
   */
  template <int = 0>
  void after_allocation(device_id device) noexcept {
    if (!options::spill()) { return; }
    std::size_t const limit = options::spill_device_limit();
    if (limit == 0) { return; }
    thread_local bool busy = false;  // a spill never allocates device memory, but be sure
    if (busy) { return; }
    std::size_t const used = device_bytes(device);
    if (used <= limit) { return; }
    busy = true;
    spill_least_recently_used(used - limit, device);
    busy = false;
  }

  /// 0: nothing counted; 1: bytes, counts and time per direction; 2: also exposure sites.
  [[nodiscard]] int stats_level() const noexcept { return stats_level_.load(std::memory_order_relaxed); }
  void set_stats_level(int level) noexcept { stats_level_.store(level, std::memory_order_relaxed); }
  [[nodiscard]] spill_counters& counters() noexcept { return counters_; }

  /// Level 2: how many owners (and bytes) were first exposed at each place.
  struct exposure_count {
    std::size_t owners = 0;
    std::size_t bytes = 0;
  };
  template <int = 0>
  void record_exposure(source_location const& where, std::size_t bytes) noexcept {
    try {
      std::string key = std::string(where.file_name()) + ":" + std::to_string(where.line()) + " (" +
                        where.function_name() + ")";
      std::lock_guard const guard(sites_mutex_);
      auto& site = sites_[std::move(key)];
      ++site.owners;
      site.bytes += bytes;
    } catch (...) {
      // statistics only: no memory for them is no reason to fail an exposure
    }
  }
  template <int = 0>
  [[nodiscard]] std::map<std::string, exposure_count> exposure_sites() {
    std::lock_guard const guard(sites_mutex_);
    return sites_;
  }
  void clear_exposure_sites() noexcept {
    std::lock_guard const guard(sites_mutex_);
    sites_.clear();
  }

 private:
  // The level from the environment applies from the first spillable owner on (or the first
  // question about statistics), whether or not the program ever names the manager.
  friend class immortal<spill_registry>;
  spill_registry() : stats_level_(options::spill_stats()) {}

  std::mutex mutex_;
  spill_node* head_ = nullptr;
  std::array<std::atomic<std::size_t>, device_slots> device_bytes_{};  // each device's owners' (device_slot)
  std::atomic<int> stats_level_;
  spill_counters counters_;
  std::mutex sites_mutex_;
  std::map<std::string, exposure_count> sites_;
};

/**
 * @brief The spill locks active on this thread: only the outermost one records owners (nested
 * locks compose into it); each recorded owner has its lock count raised and a pin held until
 * the outermost lock ends.
 */
class spill_lock_frame {
 public:
  static spill_lock_frame& current() noexcept {
    thread_local spill_lock_frame frame;
    return frame;
  }
  [[nodiscard]] static bool active() noexcept { return spill_lock_depth > 0; }
  static void enter() noexcept { ++spill_lock_depth; }
  /// Ends one lock; the outermost orders the owners it recorded after the operations' work (see
  /// order_after()), then lowers every recorded owner's count and drops its reference.
  void leave() noexcept {
    if (--spill_lock_depth != 0) { return; }
    order_after(held_, streams_);
    streams_.clear();
    let_go(held_);
  }
  /**
   * Notes that an operation under this thread's locks queues work on `stream`, a stream of
   * `device`, so that the owners it uses are ordered after that work when the outermost lock ends,
   * whichever device is current then. Nothing on the host backend, whose work is done when the
   * call returns.
   * @throws std::bad_alloc if the note cannot be kept (before anything changed)
   */
  void note_stream([[maybe_unused]] stream_ref stream, [[maybe_unused]] device_id device) {
#if DEVCOL_BACKEND_CUDA
    noted_stream const noted{stream, device};
    if (std::find(streams_.begin(), streams_.end(), noted) == streams_.end()) { streams_.push_back(noted); }
#endif
  }
  /**
   * Orders the stream of each owner in `held` after the work queued so far on each of `streams`
   * that is another stream: one event recorded there, waited on by the owner's stream. Once the
   * lock lets go of an owner, a spill (which copies on the owner's stream) or the free of its
   * memory therefore waits for the kernels an operation queued on another stream. Rule 21: the
   * event is made and recorded with the work's device current, and each owner's stream waits with
   * the owner's device current, whichever device the thread has current when the lock ends (a
   * default stream names the current device's). Never synchronises the host, unless CUDA cannot
   * make, record or wait on the event: then it waits for that stream on the host, which orders
   * all that follows as well.
   */
  static void order_after([[maybe_unused]] std::vector<spill_node*> const& held,
                          [[maybe_unused]] std::vector<noted_stream> const& streams) noexcept {
#if DEVCOL_BACKEND_CUDA
    for (noted_stream const& work : streams) {
      if (live_stream(work.stream) != work.stream) { continue; }  // destroyed: its destructor waited for its work
      std::optional<event> done;
      std::optional<noted_stream> last_waiting;
      try {
        for (spill_node const* n : held) {
          noted_stream const own{live_stream(n->ops->stream(n)), n->ops->device(n)};
          if (own == work || own == last_waiting) { continue; }
          if (!done) {
            scoped_device const on_work(work.device);  // the event belongs to the work's device
            done.emplace().record(work.stream);
          }
          scoped_device const on_own(own.device);
          done->wait(own.stream);
          last_waiting = own;
        }
      } catch (...) {
        scoped_device const on_work(work.device, std::nothrow);
        (void)cudaStreamSynchronize(work.stream.value());
        (void)cudaGetLastError();
      }
    }
#endif
  }
  /// Replaces the noted streams with `streams`, returning those noted so far (spill_capture).
  std::vector<noted_stream> exchange_streams(std::vector<noted_stream> streams) noexcept {
    return std::exchange(streams_, std::move(streams));
  }
  /// Lowers the lock count of every owner in `held` and drops its pin; empties `held`.
  static void let_go(std::vector<spill_node*>& held) noexcept {
    for (spill_node* n : held) {
      n->lock_count.fetch_sub(1, std::memory_order_acq_rel);
      n->ops->unpin(n);
    }
    held.clear();
  }
  /// Replaces the recorded owners with `held`, returning those recorded so far (spill_capture).
  std::vector<spill_node*> exchange_held(std::vector<spill_node*> held) noexcept {
    return std::exchange(held_, std::move(held));
  }
  /// Whether `node` is held by this thread's locks already.
  template <int = 0>
  [[nodiscard]] bool holds(spill_node const* node) const noexcept {
    return std::find(held_.rbegin(), held_.rend(), node) != held_.rend();
  }
  /// Records `node`, whose lock count the caller raised and which it pinned.
  void record(spill_node* node) { held_.push_back(node); }
  /// Makes room to record one more owner, so that record() cannot throw after counts were raised.
  void reserve_one() { held_.reserve(held_.size() + 1); }

 private:
  std::vector<spill_node*> held_;
  std::vector<noted_stream> streams_;
};

/**
 * @brief A spill lock on this thread for the lifetime of the object when `Enabled`, nothing
 * otherwise: what every devcol operation on spillable columns holds, so that its operands, the
 * column it writes and its result stay on the device until it returns (DESIGN.md rule 20, cuDF's
 * `acquire_spill_lock` around each operation), and so that its own pointer accesses pin instead of
 * exposing. Costs one thread-local increment and decrement; for a `no_spill` policy, nothing.
 */
template <bool Enabled>
class [[nodiscard]] scoped_spill_lock {
 public:
  /// A lock around pointer work that queues nothing of its own.
  scoped_spill_lock() noexcept { spill_lock_frame::enter(); }
  /// The lock of an operation that queues its work on `stream`, a stream of the current device:
  /// when the outermost lock ends, the owners it held are ordered after that work
  /// (spill_lock_frame::order_after()).
  /// @throws std::bad_alloc, devcol::cuda_error on CUDA if the stream cannot be noted (before
  /// anything changed)
  explicit scoped_spill_lock(stream_ref stream) : scoped_spill_lock(stream, current_device()) {}
  /// The same for `stream`, a stream of `device` (which need not be current now).
  scoped_spill_lock(stream_ref stream, device_id device) {
    spill_lock_frame::current().note_stream(stream, device);
    spill_lock_frame::enter();
  }
  scoped_spill_lock(scoped_spill_lock const&) = delete;
  scoped_spill_lock& operator=(scoped_spill_lock const&) = delete;
  ~scoped_spill_lock() { spill_lock_frame::current().leave(); }
};
template <>
class [[nodiscard]] scoped_spill_lock<false> {
 public:
  scoped_spill_lock() noexcept {}  // user-provided: a named no-op lock is not an unused variable
  explicit scoped_spill_lock(stream_ref) noexcept {}
  scoped_spill_lock(stream_ref, device_id) noexcept {}
  scoped_spill_lock(scoped_spill_lock const&) = delete;
  scoped_spill_lock& operator=(scoped_spill_lock const&) = delete;
};
/// @brief The operation-scoped spill lock for columns of `Policy` (see scoped_spill_lock).
template <class Policy>
using operation_spill_lock = scoped_spill_lock<Policy::spill::enabled>;

/**
 * @brief Spillable owners held on the device until this object goes, from whichever thread: what
 * an Arrow export keeps for the memory its consumer reads, until the consumer releases it (rule 20).
 */
class spill_pins {
 public:
  spill_pins() noexcept = default;
  explicit spill_pins(std::vector<spill_node*> held) noexcept : held_(std::move(held)) {}
  spill_pins(spill_pins&& other) noexcept : held_(std::move(other.held_)) {}
  spill_pins& operator=(spill_pins&& other) noexcept {
    spill_lock_frame::let_go(held_);
    held_ = std::move(other.held_);
    return *this;
  }
  ~spill_pins() { spill_lock_frame::let_go(held_); }

 private:
  std::vector<spill_node*> held_;
};

/**
 * @brief While it lives, this thread is under a spill lock of its own, apart from any outer one:
 * every spillable owner accessed or made meanwhile is recorded here, then take() hands them over,
 * still held, to a spill_pins (what an export keeps); without take() they are let go, as a lock's.
 * The outer locks, if any, are as they were afterwards. Nothing when `Enabled` is false.
 */
template <bool Enabled>
class [[nodiscard]] spill_capture {
 public:
  spill_capture() noexcept
      : saved_(spill_lock_frame::current().exchange_held({})),
        saved_streams_(spill_lock_frame::current().exchange_streams({})),
        saved_depth_(std::exchange(spill_lock_depth, 1)) {}
  spill_capture(spill_capture const&) = delete;
  spill_capture& operator=(spill_capture const&) = delete;
  ~spill_capture() {
    if (taken_) { return; }
    auto held = restore();
    spill_lock_frame::let_go(held);
  }
  /// The owners recorded since construction, held until the result goes, and ordered after the
  /// work noted meanwhile (as a lock's); restores the outer locks.
  [[nodiscard]] spill_pins take() noexcept {
    taken_ = true;
    return spill_pins(restore());
  }

 private:
  // Orders what was recorded after what was noted, gives the frame back to the outer locks and
  // returns what was recorded.
  std::vector<spill_node*> restore() noexcept {
    auto& frame = spill_lock_frame::current();
    auto held = frame.exchange_held(std::move(saved_));
    auto const streams = frame.exchange_streams(std::move(saved_streams_));
    spill_lock_frame::order_after(held, streams);
    spill_lock_depth = saved_depth_;
    return held;
  }

  std::vector<spill_node*> saved_;
  std::vector<noted_stream> saved_streams_;
  std::size_t saved_depth_;
  bool taken_ = false;
};
template <>
class [[nodiscard]] spill_capture<false> {
 public:
  spill_capture() noexcept {}  // user-provided: a named no-op is not an unused variable
  spill_capture(spill_capture const&) = delete;
  spill_capture& operator=(spill_capture const&) = delete;
  [[nodiscard]] static spill_pins take() noexcept { return {}; }
};

/// Measures a spill or unspill when statistics are on; reads no clock at level 0.
class spill_timer {
 public:
  explicit spill_timer(bool on) noexcept : on_(on) {
    if (on_) { start_ = std::chrono::steady_clock::now(); }
  }
  [[nodiscard]] std::uint64_t elapsed_ns() const noexcept {
    if (!on_) { return 0; }
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_).count());
  }

 private:
  bool on_;
  std::chrono::steady_clock::time_point start_{};
};

}  // namespace detail
DEVCOL_NAMESPACE_END
