/**
 * @file pool.hpp
 * @brief `devcol::mr::pool`: a coalescing, growing, thread-safe sub-allocator over an upstream resource.
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/detail/adaptor_base.hpp>
#include <devcol/memory/detail/stream_order.hpp>
#include <devcol/memory/resource.hpp>

#include <algorithm>
#include <array>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN
namespace mr {

/// @brief How a pool grows.
struct pool_options {
  /// Bytes taken from upstream by the first growth (0: only what the first request needs, or minimum_chunk_bytes).
  std::size_t initial_bytes = 0;
  /// Never hold more than this from upstream; requests past it throw `devcol::out_of_memory`.
  std::size_t maximum_bytes = SIZE_MAX;
  /// The smallest chunk taken from upstream when growing. Growth is geometric: a new chunk is at
  /// least as large as everything held so far, so a pool holds O(log n) chunks.
  std::size_t minimum_chunk_bytes = std::size_t{1} << 20;
};

namespace detail {

/// Growths the calling thread has in flight, in any pool. A thread with one never waits for other
/// threads' growths: what it would wait for could be waiting for it (an on-out-of-memory hook
/// below one pool allocating from another).
inline std::size_t& pool_growths_on_this_thread() noexcept {
  thread_local std::size_t growths = 0;
  return growths;
}

/// The blocks, free lists, cache, chunks and upstream that a `mr::pool` and its copies share; the
/// chunks go back to upstream when the last copy is destroyed.
template <memory_resource Upstream>
class pool_state : public adaptor_state<Upstream> {
 public:
  static constexpr std::size_t granularity = 256;
  static constexpr std::size_t max_alignment = std::size_t{1} << 21;

  template <class... Args>
  explicit pool_state(pool_options options, Args&&... args)
      : adaptor_state<Upstream>(std::forward<Args>(args)...), options_(options) {}

  // Returns every chunk to upstream, with the pool's device current.
  ~pool_state() {
    scoped_device const on_device(device_.get(), std::nothrow);
    order_.before_release(stream_ref{});
    for (auto const& c : chunks_) { this->upstream().deallocate(c.ptr, c.size, granularity, stream_ref{}); }
  }

  void* allocate(std::size_t bytes, std::size_t alignment, stream_ref stream) {
    validate_alignment(alignment, max_alignment, "pool");
    std::size_t const size = block_size(bytes);
    std::unique_lock lock(mutex_);
    char* ptr = take(size, alignment, stream);
    while (ptr == nullptr) {
      try {
        grow(size + (alignment > granularity ? alignment - granularity : 0), stream, lock);
      } catch (out_of_memory const&) {
        // While upstream was failing, other threads (or an on-out-of-memory hook below us) may have
        // freed blocks into the pool: try them before giving up.
        ptr = take(size, alignment, stream);
        if (ptr != nullptr) { break; }
        // Another thread's growth in flight holds its bytes reserved against the maximum (and may
        // hold the upstream's last memory) but has not added its chunk yet: wait for it to end,
        // then take from its chunk or grow again, rather than fail a request the pool can serve.
        if (growing_ == 0 || pool_growths_on_this_thread() != 0) { throw; }
        std::size_t const seen = growths_ended_;
        growth_ended_.wait(lock, [&] { return growths_ended_ != seen; });
        ptr = take(size, alignment, stream);
        continue;
      }
      ptr = take_free(size, alignment, stream);  // fits the new chunk
      if (ptr == nullptr) {
        DEVCOL_OUT_OF_MEMORY(bytes, "pool: no block of ", size, " bytes aligned to ", alignment,
                             " in the pool after growing it");
      }
    }
    used_bytes_ += size;
    return ptr;
  }

  void deallocate(void* ptr, std::size_t bytes, stream_ref stream) noexcept {
    if (ptr == nullptr) { return; }  // never a block: cached, it would be handed out as one
    std::size_t const size = block_size(bytes);
    std::lock_guard lock(mutex_);
    if (cache_size_ == cache_.size()) { flush_cache(); }
    cache_[cache_size_++] = cached_block{static_cast<char*>(ptr), size, order_.on_free(stream)};
    used_bytes_ -= size;
  }

  [[nodiscard]] std::size_t upstream_bytes() const {
    std::lock_guard lock(mutex_);
    return upstream_bytes_;
  }
  [[nodiscard]] std::size_t used_bytes() const {
    std::lock_guard lock(mutex_);
    return used_bytes_;
  }
  [[nodiscard]] std::size_t chunk_count() const {
    std::lock_guard lock(mutex_);
    return chunks_.size();
  }
  [[nodiscard]] std::size_t free_block_count() {
    std::lock_guard lock(mutex_);
    flush_cache();
    return free_by_address_.size();
  }

 private:
  struct chunk {
    char* ptr;
    std::size_t size;
  };
  struct free_block {
    std::size_t size;
    free_tag tag;
  };
  struct cached_block {
    char* ptr = nullptr;
    std::size_t size = 0;
    free_tag tag{};
  };

  static std::size_t block_size(std::size_t bytes) {
    if (bytes > SIZE_MAX - max_alignment) { DEVCOL_OUT_OF_MEMORY(bytes, "pool: cannot allocate ", bytes, " bytes"); }
    return align_up(std::max<std::size_t>(bytes, 1), granularity);
  }

  // A block from the cache, else the free list, else the free list after merging the cache in.
  char* take(std::size_t size, std::size_t alignment, stream_ref stream) {
    if (char* ptr = take_cached(size, alignment, stream)) { return ptr; }
    if (char* ptr = take_free(size, alignment, stream)) { return ptr; }
    flush_cache();
    return take_free(size, alignment, stream);
  }

  // The most recent free of exactly this size that is aligned enough and ready for `stream`.
  char* take_cached(std::size_t size, std::size_t alignment, stream_ref stream) noexcept {
    for (std::size_t i = cache_size_; i-- > 0;) {
      cached_block const& c = cache_[i];
      if (c.size == size && is_aligned(c.ptr, alignment) && c.tag.ready_for(stream)) {
        char* ptr = c.ptr;
        cache_[i] = cache_[--cache_size_];
        return ptr;
      }
    }
    return nullptr;
  }

  // Returns cached blocks to the free list. noexcept: the free list's node allocation failing in a
  // deallocation path (host memory exhausted) terminates rather than lose track of device memory.
  void flush_cache() noexcept {
    for (std::size_t i = 0; i < cache_size_; ++i) { insert_free(cache_[i].ptr, cache_[i].size, cache_[i].tag); }
    cache_size_ = 0;
  }

  using address_index = std::map<char*, free_block>;
  using size_index = std::set<std::pair<std::size_t, char*>>;

  // Best fit from the free list, carving an aligned start; the rest goes back to the list. The
  // taken block's index nodes are re-keyed for the remainder (node handles): no allocation.
  char* take_free(std::size_t size, std::size_t alignment, stream_ref stream) {
    std::size_t const needed = size + (alignment > granularity ? alignment - granularity : 0);
    auto const fit = free_by_size_.lower_bound({needed, nullptr});
    if (fit == free_by_size_.end()) { return nullptr; }
    auto const at = free_by_address_.find(fit->second);
    free_tag const tag = at->second.tag;
    order_.before_reuse(tag, stream);  // may throw: before anything is taken out of the lists
    auto size_node = free_by_size_.extract(fit);
    auto address_node = free_by_address_.extract(at);
    char* const block = address_node.key();
    std::size_t const block_bytes = address_node.mapped().size;
    char* const start = block + (align_up(reinterpret_cast<std::uintptr_t>(block), alignment) -
                                 reinterpret_cast<std::uintptr_t>(block));
    if (std::size_t const tail = block_bytes - static_cast<std::size_t>(start - block) - size; tail != 0) {
      address_node.key() = start + size;
      address_node.mapped().size = tail;
      size_node.value() = {tail, start + size};
      free_by_address_.insert(std::move(address_node));
      free_by_size_.insert(std::move(size_node));
    }
    if (start != block) { add_free(block, static_cast<std::size_t>(start - block), tag); }
    return start;
  }

  // Returns a block to the free list, merged with its free neighbours in the same chunk. Merging
  // re-keys the neighbours' nodes; only a block with no free neighbour needs new nodes.
  void insert_free(char* ptr, std::size_t size, free_tag tag) {
    auto next = free_by_address_.lower_bound(ptr);
    bool const merge_next = next != free_by_address_.end() && ptr + size == next->first && !is_chunk_start(next->first);
    if (next != free_by_address_.begin()) {
      auto const prev = std::prev(next);
      if (prev->first + prev->second.size == ptr && !is_chunk_start(ptr)) {
        if (merge_next) {
          size += next->second.size;
          tag = merge(tag, next->second.tag);
          free_by_size_.erase({next->second.size, next->first});
          free_by_address_.erase(next);
        }
        resize_free(prev, prev->second.size + size, merge(tag, prev->second.tag));
        return;
      }
    }
    if (merge_next) {
      auto address_node = free_by_address_.extract(next);
      auto size_node = free_by_size_.extract({address_node.mapped().size, address_node.key()});
      address_node.key() = ptr;
      address_node.mapped() = free_block{size + address_node.mapped().size, merge(tag, address_node.mapped().tag)};
      size_node.value() = {address_node.mapped().size, ptr};
      free_by_address_.insert(std::move(address_node));
      free_by_size_.insert(std::move(size_node));
      return;
    }
    add_free(ptr, size, tag);
  }

  // Grows a free block in place: its address key stands, its size key is re-keyed.
  void resize_free(typename address_index::iterator block, std::size_t size, free_tag tag) {
    auto size_node = free_by_size_.extract({block->second.size, block->first});
    block->second = free_block{size, tag};
    size_node.value().first = size;
    free_by_size_.insert(std::move(size_node));
  }

  void add_free(char* ptr, std::size_t size, free_tag tag) {
    free_by_address_.emplace(ptr, free_block{size, tag});
    free_by_size_.emplace(size, ptr);
  }

  // chunk_starts_ takes <algorithm>'s iterator algorithms, not std::ranges': a call whose types do
  // not depend on Upstream is checked against the ranges concepts in every file including this
  // header, used or not (2% of g++'s instructions for the umbrella alone, measured).
  [[nodiscard]] bool is_chunk_start(char* ptr) const noexcept {
    return std::binary_search(chunk_starts_.begin(), chunk_starts_.end(), ptr);
  }

  // Takes a chunk of at least `needed` bytes from upstream and adds it to the free list. The lock is
  // released around the upstream call, so an on-out-of-memory hook below the pool may free through
  // it (rule 18: no lock held across an allocation); the bytes are reserved against the maximum first.
  void grow(std::size_t needed, stream_ref stream, std::unique_lock<std::mutex>& lock) {
    std::size_t const room = options_.maximum_bytes - std::min(options_.maximum_bytes, upstream_bytes_);
    if (needed > room) {
      DEVCOL_OUT_OF_MEMORY(needed, "pool: ", needed, " more bytes would exceed the pool's maximum of ",
                           options_.maximum_bytes, " bytes (", upstream_bytes_, " held)");
    }
    std::size_t const first = chunks_.empty() ? options_.initial_bytes : 0;
    std::size_t wanted = std::max({needed, first, options_.minimum_chunk_bytes, upstream_bytes_});
    // Whole granules, at most `room`; counted in granules, since a size within a granule of
    // SIZE_MAX (an initial or minimum chunk option) would wrap to 0 if rounded up in bytes.
    std::size_t const granules = wanted / granularity + (wanted % granularity != 0 ? 1 : 0);
    wanted = granules > room / granularity ? room : granules * granularity;
    upstream_bytes_ += wanted;  // reserved
    growth_in_flight const in_flight(*this);
    void* ptr = nullptr;
    lock.unlock();
    try {
      try {
        ptr = this->upstream().allocate(wanted, granularity, stream);
      } catch (out_of_memory const&) {
        if (wanted == needed) { throw; }
        lock.lock();
        upstream_bytes_ -= wanted - needed;
        lock.unlock();
        wanted = needed;
        ptr = this->upstream().allocate(wanted, granularity, stream);
      }
    } catch (...) {
      lock.lock();
      upstream_bytes_ -= wanted;
      throw;
    }
    lock.lock();
    char* const start = static_cast<char*>(ptr);
    try {
      chunks_.push_back({start, wanted});
      chunk_starts_.insert(std::upper_bound(chunk_starts_.begin(), chunk_starts_.end(), start), start);
      // The chunk is usable by other streams only after the allocation on `stream`: record that.
      add_free(start, wanted, order_.on_free(stream));
    } catch (...) {  // host bookkeeping failed: undo it and give the chunk back
      free_by_address_.erase(start);
      free_by_size_.erase({wanted, start});
      if (auto const found = std::find(chunk_starts_.begin(), chunk_starts_.end(), start);
          found != chunk_starts_.end()) {
        chunk_starts_.erase(found);
      }
      if (!chunks_.empty() && chunks_.back().ptr == start) { chunks_.pop_back(); }
      upstream_bytes_ -= wanted;
      this->upstream().deallocate(ptr, wanted, granularity, stream);
      throw;
    }
  }

  // Counts a growth from its reservation to its end, whichever way grow() leaves (always with the
  // lock held), and wakes the allocations waiting for it.
  class growth_in_flight {
   public:
    explicit growth_in_flight(pool_state& pool) noexcept : pool_(pool) {
      ++pool_.growing_;
      ++pool_growths_on_this_thread();
    }
    growth_in_flight(growth_in_flight const&) = delete;
    growth_in_flight& operator=(growth_in_flight const&) = delete;
    ~growth_in_flight() {
      --pool_growths_on_this_thread();
      --pool_.growing_;
      ++pool_.growths_ended_;
      pool_.growth_ended_.notify_all();
    }

   private:
    pool_state& pool_;
  };

  pool_options options_;
  mutable std::mutex mutex_;
  std::condition_variable growth_ended_;
  std::size_t growing_ = 0;        // growths between reservation and end
  std::size_t growths_ended_ = 0;  // a generation count, for waiting
  address_index free_by_address_;  // for coalescing
  size_index free_by_size_;         // for best fit
  std::array<cached_block, 16> cache_{};
  std::size_t cache_size_ = 0;
  std::vector<chunk> chunks_;
  std::vector<char*> chunk_starts_;  // sorted, for the coalescing boundary test
  std::size_t upstream_bytes_ = 0;
  std::size_t used_bytes_ = 0;
  stream_order order_;
  [[no_unique_address]] ::devcol::detail::recorded_device device_{std::nothrow};
};

}  // namespace detail

/**
 * @brief Sub-allocates blocks from large chunks of `Upstream` memory.
 *
 * - **Sizes** are rounded up to `granularity` (256 bytes); any power-of-two alignment is honoured
 *   by carving the block's start (rmm #2342: a pool must not ignore alignment).
 * - **Reuse**: a freed block first goes to a small cache of recent frees that an allocation of the
 *   same rounded size takes back in O(1); otherwise blocks live in an address-ordered free list
 *   where neighbours coalesce (never across upstream chunks) and requests take the best fit in
 *   O(log n). The cache is merged into the free list before the pool grows.
 * - **Growth**: when nothing fits, the pool takes a new chunk from upstream (see pool_options);
 *   if upstream cannot give a large chunk it retries with just what the request needs.
 * - **Streams** (CUDA backend): a block freed on one stream and reused on another makes the new
 *   stream wait on an event recorded at the free: stream-ordered, no host synchronisation.
 * - **Threads**: one mutex guards the pool; it is released while upstream allocates, so a hook
 *   below the pool (`on_oom`) may free through the pool; if growing fails, blocks freed meanwhile
 *   are tried, and other threads' growths in flight are waited for and their chunks tried, before
 *   `out_of_memory` reaches the caller.
 * - **Copies** share the one pool (blocks, free lists, cache, chunks, upstream): a copy costs an
 *   atomic increment (see `detail::adaptor_handle`), allocates from and frees into the same blocks,
 *   and compares equal. That is what lets CCCL 3.1+'s `cuda::mr::resource_ref` and RMM hold a pool
 *   (`rmm::device_async_resource_ref ref{pool};`, `rmm::mr::set_current_device_resource(pool)`)
 *   while devcol allocates from it too. Copies may be used from any threads at once (the one mutex).
 * - **Destruction** of the last copy, whichever it is, returns every chunk to upstream. Allocations
 *   still live then are dangling: free them first.
 * - **Devices** (CUDA backend): a pool serves one device, the one current when it was made: use it
 *   with that device current (one pool per device, as `mr::set_per_device_default` installs them;
 *   devcol's owners free with their device current). Its destructor makes that device current to
 *   wait for the frees' events and give the chunks back, whichever device is current then (rule 21).
 * @tparam Upstream the resource the adaptor forwards to, owned by value by the shared state (never a
 *         reference that could dangle; pass a copy of another adaptor to share it); chunks are taken
 *         from it `granularity`-aligned and given back when the last copy goes
 */
template <memory_resource Upstream>
class pool : public detail::adaptor_handle<detail::pool_state<Upstream>, pool<Upstream>> {
  using base = detail::adaptor_handle<detail::pool_state<Upstream>, pool<Upstream>>;

 public:
  /// @brief Shares `other`'s state (an atomic increment); written out, not defaulted, for the reason
  /// `detail::adaptor_handle` gives.
  /// @param other the adaptor whose state is shared
  pool(pool const& other) noexcept : base(other) {}
  /// @brief Shares `other`'s state, leaving this one's; written out as the copy constructor is.
  /// @param other the adaptor whose state is shared
  pool& operator=(pool const& other) noexcept {
    base::operator=(other);
    return *this;
  }
  /// Block sizes and chunk alignment: every block starts and ends on this boundary.
  static constexpr std::size_t granularity = detail::pool_state<Upstream>::granularity;
  /// The largest alignment honoured (2 MiB, a huge page).
  static constexpr std::size_t max_alignment = detail::pool_state<Upstream>::max_alignment;

  /// @brief A pool over a default-constructed upstream, growing as `options` say. Takes nothing
  /// from upstream until the first allocation.
  /// @param options the initial, maximum and minimum growth sizes
  /// @throws std::bad_alloc if the pool's state cannot be allocated
  explicit pool(pool_options options = {}) : base(std::in_place, options) {}
  /// @brief Same, over `upstream` (moved in).
  /// @param options the initial, maximum and minimum growth sizes
  /// @param upstream the resource chunks are taken from
  /// @throws std::bad_alloc
  pool(pool_options options, Upstream upstream) : base(std::in_place, options, std::in_place, std::move(upstream)) {}
  /// @brief Same, constructing the upstream in place from `args`.
  /// @tparam Args the types of `Upstream`'s constructor arguments
  /// @param options the initial, maximum and minimum growth sizes
  /// @param args forwarded to `Upstream`'s constructor
  /// @throws std::bad_alloc, or what `Upstream`'s constructor throws
  template <class... Args>
  pool(pool_options options, std::in_place_t, Args&&... args)
      : base(std::in_place, options, std::in_place, std::forward<Args>(args)...) {}

  /**
   * @brief Allocates `bytes` aligned to `alignment`, usable by work on `stream`. O(1) from the
   * cache of recent frees, else O(log n) in the free list; takes the pool's mutex.
   * @param bytes the size in bytes, rounded up to `granularity`
   * @param alignment a power of two up to max_alignment
   * @param stream the stream the block is used on; reusing a block freed on another stream makes
   *        this one wait on an event, never the host
   * @throws devcol::logic_error for an alignment that is not a power of two or exceeds max_alignment
   * @throws devcol::out_of_memory when the maximum size is reached or upstream cannot grow the pool
   */
  void* allocate(std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) {
    return this->state().allocate(bytes, alignment, stream);
  }

  /// @brief Returns a block to the pool (not to upstream). Never throws. A null `ptr` is ignored, as
  /// RMM's pool ignores it (an empty buffer's pointer, which callers such as RMM's may free).
  /// @param ptr a block from allocate() of this pool or a copy of it, or null
  /// @param bytes the size it was allocated with
  /// @param stream the stream whose work last used the block; its later reuse on another stream
  ///        waits for it
  void deallocate(void* ptr, std::size_t bytes, std::size_t = default_alignment, stream_ref stream = {}) noexcept {
    this->state().deallocate(ptr, bytes, stream);
  }

  /// @brief Bytes held from upstream. Takes the pool's mutex.
  [[nodiscard]] std::size_t upstream_bytes() const { return this->state().upstream_bytes(); }
  /// @brief Bytes in live allocations (rounded to the granularity). Takes the pool's mutex.
  [[nodiscard]] std::size_t used_bytes() const { return this->state().used_bytes(); }
  /// @brief Chunks held from upstream. Takes the pool's mutex.
  [[nodiscard]] std::size_t chunk_count() const { return this->state().chunk_count(); }
  /// @brief Free blocks after coalescing everything that can be: 1 per chunk when nothing is live.
  /// Merges the cache of recent frees into the free list, under the pool's mutex.
  [[nodiscard]] std::size_t free_block_count() { return this->state().free_block_count(); }

  // CCCL's entry points (stream-first and *_sync for CCCL 3.1+, *_async for 3.0), which this
  // adaptor's own allocate and deallocate would otherwise hide.
  using base::allocate, base::deallocate;
};

}  // namespace mr
DEVCOL_NAMESPACE_END
