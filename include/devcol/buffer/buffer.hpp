/**
 * @file buffer.hpp
 * @brief `devcol::buffer`: a handle on a byte range of a shared allocation, with copy-on-write.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/detail/owner.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/event.hpp>
#include <devcol/core/source_location.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/resource.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief A handle on `size()` bytes at `offset()` in an allocation that other handles may share.
 *
 * Under copy-on-write (the default sharing policy):
 * - copying a handle or slicing it shares the allocation: no allocation, no device work, O(1)
 *   (rule 1), unless the allocation is exposed: then the copy is deep (rule 12);
 * - `data(access::read)` never copies (rule 2);
 * - `data(access::write, s)` and `expose(s)` first give this handle its own copy of its own range if
 *   another handle shares the allocation (rule 3), and copy nothing otherwise (rule 4);
 * - the last handle to go frees the allocation once, through the resource that made it (rule 5).
 * Under `shared_views` copies and slices are views: writes through any are seen by all (rule 9).
 *
 * A handle object is not itself thread-safe; distinct handles on one allocation may be copied,
 * read, written and destroyed from many threads under `atomic_refcount` (rule 10).
 *
 * Streams (CUDA backend): a copy is queued on the stream the caller passes, and the allocation's own
 * stream (on which it is freed) waits for it, so the last handle never frees memory a copy has yet
 * to read. Work queued on other streams by other handles of the same allocation is ordered by the
 * caller, as with any memory shared between streams in libcudf or RMM.
 *
 * Devices (rule 21, CUDA backend): an allocation belongs to the device current when it was made
 * (device()). Its copies (deep_copy, the copy a write or an exposed allocation makes), spill,
 * unspill and free run with that device current, and the copies are made on that device, whatever
 * device the calling thread has made current: each costs a `cudaGetDevice`, and a `cudaSetDevice`
 * pair when the devices differ. The stream given to a copy must then be one of that device (the
 * default stream is). The host backend has one device, 0, and records nothing.
 *
 * @tparam Policy a `buffer_policy` (`default_policy` unless named)
 */
template <buffer_policy Policy = default_policy>
class buffer {
  using owner_type = detail::owner<Policy>;

 public:
  /// The policy this buffer was composed from.
  using policy = Policy;
  /// Whether the policy spills (`devcol::spillable`).
  static constexpr bool spillable = Policy::spill::enabled;
  /// What a buffer keeps of its resource: a `mr::resource_handle` for `default_policy`, the
  /// resource itself when it is stateless, else a `mr::resource_ref` to its shared instance.
  using resource_type = detail::resource_storage_t<typename Policy::resource>;

  /// @brief An empty buffer: no allocation, size 0.
  buffer() noexcept = default;

  /**
   * @brief Allocates `bytes` uninitialised bytes aligned to `alignment`, from the policy's resource
   * (for `default_policy`, this thread's default resource now), usable on `stream`.
   * @param bytes the size in bytes
   * @param stream the stream the allocation is ordered on, and later its free
   * @param alignment a power of two the resource honours; 64 by default, what Arrow asks of buffers
   * @throws devcol::out_of_memory, devcol::logic_error (bad alignment), devcol::cuda_error
   */
  explicit buffer(std::size_t bytes, stream_ref stream = {}, std::size_t alignment = mr::default_alignment)
      : buffer(bytes, stream, alignment, detail::policy_resource<typename Policy::resource>()) {}

  /**
   * @brief Allocates `bytes` uninitialised bytes from `resource` (kept to free them).
   * @param bytes the size in bytes
   * @param stream the stream the allocation is ordered on, and later its free
   * @param alignment a power of two the resource honours
   * @param resource what the bytes come from and go back to
   * @throws what the resource throws
   */
  buffer(std::size_t bytes, stream_ref stream, std::size_t alignment, resource_type resource)
      : owner_(new owner_type(bytes, alignment, stream, std::move(resource))), size_(bytes) {
    if constexpr (spillable) { detail::spill_registry::global().after_allocation(owner_->device()); }
  }

  /**
   * @brief A handle on `bytes` bytes at `data` that devcol did not allocate (an import): nothing is
   * allocated or copied. `keep_alive` keeps the memory valid; its last copy is dropped when the last
   * handle goes (that is how an import hands memory back to its producer, exactly once). The memory
   * is read-only to devcol: data(access::write) and expose() first copy it, under every sharing
   * policy, into memory from `resource` (which also serves deep copies). If a third party may
   * still write the memory (`writable_elsewhere`, a writable DLPack tensor), it counts as exposed:
   * copies of it are deep (rule 12).
   * @param data the first byte; any memory the policy's copies can read
   * @param bytes the number of bytes at `data`
   * @param keep_alive keeps `data` valid while any handle refers to it; required
   * @param stream the stream whose work the memory is ready for
   * @param writable_elsewhere true when a third party may still write the memory
   * @param resource what a write's or deep copy's fresh memory comes from
   * @throws devcol::logic_error when `keep_alive` is empty; std::bad_alloc (the owner's
   * bookkeeping)
   */
  [[nodiscard]] static buffer borrow(void const* data, std::size_t bytes, std::shared_ptr<void const> keep_alive,
                                     stream_ref stream = {}, bool writable_elsewhere = false,
                                     resource_type resource = detail::policy_resource<typename Policy::resource>()) {
    DEVCOL_EXPECTS(keep_alive != nullptr, "buffer::borrow: a keep-alive handle is required");
    buffer out{new owner_type(detail::borrowed_memory_t{}, data, bytes, stream, std::move(resource), std::move(keep_alive)),
               0, bytes};
    if (writable_elsewhere) { out.owner_->mark_exposed(); }
    return out;
  }

  /// @brief Shares `other`'s allocation (rule 1), or copies its range if it is exposed (rule 12),
  /// on the stream the allocation was made on.
  /// @param other the handle copied
  /// @throws what allocation throws, in the deep case
  buffer(buffer const& other) : owner_(other.owner_), offset_(other.offset_), size_(other.size_) {
    if (owner_ == nullptr) { return; }
    if (other.copies_are_deep()) {
      owner_ = nullptr;  // not ours yet: a throwing copy must leave nothing to release
      buffer fresh = other.copy_range(0, size_, other.owner_->stream(), keep_mode::of_source);
      swap(fresh);
    } else {
      owner_->retain();
    }
  }
  /// @brief Takes over `other`'s handle; `other` becomes empty. O(1).
  /// @param other the handle emptied
  buffer(buffer&& other) noexcept
      : owner_(std::exchange(other.owner_, nullptr)),
        offset_(std::exchange(other.offset_, 0)),
        size_(std::exchange(other.size_, 0)) {}
  /// @brief Copy and move assignment in one (copy and swap): `other` was copied as the copy
  /// constructor copies, or moved; what this handle held is released. Strong guarantee.
  /// @param other the copied or moved-from handle
  buffer& operator=(buffer other) noexcept {
    swap(other);
    return *this;
  }
  /// @brief Releases this handle; the last handle frees the allocation (rule 5).
  ~buffer() {
    if (owner_ != nullptr) { owner_type::release(owner_); }
  }

  /// @brief Exchanges two handles. O(1), never throws.
  /// @param other the handle exchanged with this one
  void swap(buffer& other) noexcept {
    std::swap(owner_, other.owner_);
    std::swap(offset_, other.offset_);
    std::swap(size_, other.size_);
  }

  /**
   * @brief A handle on bytes [begin, end) of this one: it shares the allocation, with its offset
   * added to this handle's (slices are flat, rule 8), or copies the range if the allocation is
   * exposed (rule 12). It keeps the whole allocation alive.
   * @param begin the first byte kept, relative to this handle
   * @param end one past the last byte kept
   * @throws devcol::logic_error naming the bounds unless begin <= end <= size()
   */
  [[nodiscard]] buffer slice(std::size_t begin, std::size_t end) const {
    DEVCOL_EXPECTS(begin <= end && end <= size_, "buffer::slice: [", begin, ", ", end, ") is not within the ", size_,
                   " bytes of the buffer");
    return share_or_copy(begin, end - begin);
  }

  /**
   * @brief A new allocation holding a copy of this handle's bytes (only its range), in order on
   * `stream` (rule 7: a deep copy always owns fresh memory), from the resource that made this one,
   * on this allocation's device (made current for the call). Memory made from nothing: under
   * `runtime_sharing` it takes the mode in force (rule 9: only memory made from nothing takes the
   * option's mode; copies and slices keep their source's). Asynchronous on CUDA.
   * @param stream the stream the copy is ordered on
   * @throws what allocation and copying throw
   */
  [[nodiscard]] buffer deep_copy(stream_ref stream = {}) const { return copy_range(0, size_, stream, keep_mode::in_force); }

  /**
   * @brief Declares that the work queued so far on `stream` reads this allocation: the allocation
   * is freed (and may be written in place) in order on its own stream(), so when `stream` is
   * another one, that stream is made to wait for what `stream` has queued (an event recorded on
   * `stream`, waited on by stream()), or the last handle could free memory a copy has yet to read.
   * Call it after queuing a copy or kernel that reads this buffer on a stream of the caller's.
   *
   * Cost: nothing on the host backend, for an empty handle or on the allocation's own stream;
   * else one event, made with the allocation's device current (`stream` must be one of that
   * device), never a host synchronisation.
   * @param stream the stream whose queued work reads this allocation
   * @throws devcol::cuda_error if CUDA fails to create, record or wait on the event
   */
  void read_on(stream_ref stream) const {
#if DEVCOL_BACKEND_CUDA
    if (owner_ != nullptr && stream != owner_->stream()) {
      scoped_device const on_device(owner_->device());
      event read;
      read.record(stream);
      read.wait(owner_->stream());
    }
#else
    (void)stream;
#endif
  }

  /// @brief The bytes, read-only: never copies, never exposes (rules 2 and 13). Null when empty.
  /// Spillable: unspills first (rule 16; it may throw then). Taken under a `devcol::spill_lock`,
  /// the bytes stay on the device until the lock ends; taken outside every lock, they stay on the
  /// device for good (rule 20: the pointer may be kept anywhere), without making copies deep.
  [[nodiscard]] void const* data(access::read_t) const noexcept(!spillable) { return begin(); }

  /**
   * @brief The bytes, writable. If the policy copies on write and another handle shares the
   * allocation, or the memory is borrowed, this handle first gets its own copy of its range, made
   * in order on `stream` (rule 3: other handles keep the old values); otherwise nothing is copied
   * (rule 4: a sole owner writes in place). Not an exposure: the pointer is for use before this
   * handle is next copied or sliced (a later copy would share what is still being written; use
   * expose() to hand the pointer to code that keeps it). Spillable: as data(access::read), held on
   * the device until the spill_lock ends, or for good outside every lock (rule 20).
   * @param stream the stream a copy, if one is needed, is ordered on
   * @throws what allocation and copying throw, when it copies
   */
  [[nodiscard]] void* data(access::write_t, stream_ref stream = {}) {
    unshare(stream);
    return begin();
  }

  /**
   * @brief A writable pointer for code outside devcol to keep: unshares as data(access::write)
   * does, then marks the allocation exposed, for good (rule 11). Copies of an exposed allocation are
   * deep (rule 12). Without exposure tracking it is data(access::write).
   * @param stream the stream a copy, if one is needed, is ordered on
   * @throws what allocation and copying throw, when it copies
   */
  [[nodiscard]] void* expose(stream_ref stream = {})
    requires(!spillable)
  {
    unshare(stream);
    if (owner_ != nullptr) { owner_->mark_exposed(); }
    return begin();
  }
  /// @brief As above for a spillable policy: unspills first, and the owner is never spilled again
  /// (rule 14). With spill statistics at level 2, `where` (the caller, unless given) is recorded
  /// as the place of the permanent exposure (`spill_manager::exposure_sites()`).
  /// @param stream the stream a copy, if one is needed, is ordered on
  /// @param where the place recorded for the exposure
  /// @throws what allocation and copying throw, and what unspilling throws
  [[nodiscard]] void* expose(stream_ref stream = {}, source_location where = source_location::current())
    requires spillable
  {
    unshare(stream);
    if (owner_ == nullptr) { return nullptr; }
    return owner_->device_access(true, &where) + offset_;  // exposed under the owner's mutex
  }

  /**
   * @brief Spillable: moves the allocation's bytes to host memory and frees its device memory,
   * unless it is exposed, spill-locked, borrowed, empty or spilled already (rules 14, 15). One
   * spill serves every handle sharing the allocation. Copies on `stream` after the allocation's
   * own stream, and synchronises. Allocates host memory (pinned on CUDA).
   * @param stream the stream the copy to the host is ordered on
   * @returns the device bytes freed (0 when it did not spill)
   * @throws devcol::out_of_memory (host), devcol::cuda_error
   */
  std::size_t spill(stream_ref stream = {})
    requires spillable
  {
    return owner_ != nullptr ? owner_->spill(stream) : 0;
  }
  /**
   * @brief Spillable: brings spilled bytes back to the device, from the allocation's resource
   * (which may itself spill other owners on demand, never this one: rule 18). Synchronises.
   * @throws what the allocation throws (the bytes stay on the host)
   */
  void unspill(stream_ref /*stream*/ = {})
    requires spillable
  {
    if (owner_ != nullptr) { owner_->unspill(); }
  }
  /// @brief Spillable: whether the bytes are in host memory now.
  [[nodiscard]] bool is_spilled() const noexcept
    requires spillable
  {
    return owner_ != nullptr && owner_->is_spilled();
  }

  /**
   * @brief Another handle on this range that shares the allocation even when it is exposed
   * (rule 12, which makes a shallow copy of exposed memory a deep one, does not apply): for code
   * that keeps exposed memory alive while a third party uses it, such as a DLPack export. O(1),
   * never copies; writes through either handle are seen by the other.
   */
  [[nodiscard]] buffer alias() const noexcept {
    if (owner_ == nullptr) { return buffer{}; }
    owner_->retain();
    return buffer{owner_, offset_, size_};
  }

  /// @brief Whether data(access::write) or expose() would copy first: the allocation is shared under
  /// copy-on-write (exposed memory excepted: only alias() shares it, and aliases are views), or
  /// borrowed (see borrow()).
  [[nodiscard]] bool writes_copy() const noexcept {
    return owner_ != nullptr &&
           ((owner_->copy_on_write() && owner_->use_count() > 1 && !owner_->is_exposed()) || owner_->is_borrowed());
  }

  /// @brief The size in bytes of this handle's range.
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  /// @brief Whether the range is empty.
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  /// @brief Where this handle's range starts in its allocation, in bytes.
  [[nodiscard]] std::size_t offset() const noexcept { return offset_; }
  /// @brief Whether another live handle shares this allocation.
  [[nodiscard]] bool is_shared() const noexcept { return use_count() > 1; }
  /// @brief How many live handles share this allocation (0 when empty).
  [[nodiscard]] std::size_t use_count() const noexcept { return owner_ != nullptr ? owner_->use_count() : 0; }
  /// @brief Whether the memory was made elsewhere and borrowed (see borrow()).
  [[nodiscard]] bool is_borrowed() const noexcept { return owner_ != nullptr && owner_->is_borrowed(); }
  /// @brief Whether the allocation was exposed (always false without exposure tracking).
  [[nodiscard]] bool is_exposed() const noexcept { return owner_ != nullptr && owner_->is_exposed(); }
  /// @brief Whether writes copy first (the policy's mode, or for runtime_sharing the one at creation).
  [[nodiscard]] bool copy_on_write() const noexcept {
    return owner_ != nullptr ? owner_->copy_on_write() : detail::sharing_cell<typename Policy::sharing>{}.copy_on_write();
  }
  /// @brief Whether both handles refer to the same allocation (whatever their ranges). O(1).
  /// @param other the other handle
  [[nodiscard]] bool shares_memory_with(buffer const& other) const noexcept {
    return owner_ != nullptr && owner_ == other.owner_;
  }
  /// @brief The name of the resource that made the allocation ("" when empty).
  [[nodiscard]] std::string resource_name() const { return owner_ != nullptr ? owner_->resource_name() : std::string{}; }
  /// @brief The resource that made the allocation (for an empty buffer, the one a new buffer would
  /// use now).
  [[nodiscard]] resource_type resource() const {
    return owner_ != nullptr ? owner_->resource() : detail::policy_resource<typename Policy::resource>();
  }
  /// @brief The device the allocation belongs to: the one current when it was made (for an empty
  /// buffer, the current one; always 0 on the host backend). @throws devcol::cuda_error (CUDA,
  /// empty buffer only) if `cudaGetDevice` fails
  [[nodiscard]] device_id device() const { return owner_ != nullptr ? owner_->device() : current_device(); }
  /// @brief The stream the allocation was made on, and is freed on.
  [[nodiscard]] stream_ref stream() const noexcept { return owner_ != nullptr ? owner_->stream() : stream_ref{}; }
  /// @brief The allocation's alignment (the start of the range may be less aligned).
  [[nodiscard]] std::size_t alignment() const noexcept {
    return owner_ != nullptr ? owner_->alignment() : mr::default_alignment;
  }

 private:
  buffer(owner_type* owner, std::size_t offset, std::size_t size) noexcept : owner_(owner), offset_(offset), size_(size) {}

  // Every pointer access goes through here: a spillable owner unspills first (rule 16).
  [[nodiscard]] std::byte* begin() const noexcept(!spillable) {
    if (owner_ == nullptr) { return nullptr; }
    if constexpr (spillable) {
      return owner_->device_access() + offset_;
    } else {
      return owner_->data() + offset_;
    }
  }

  // Copies of an exposed allocation must not share it: a third party may be writing (rule 12).
  // Only for a handle with an allocation.
  [[nodiscard]] bool copies_are_deep() const noexcept { return owner_->copy_on_write() && owner_->is_exposed(); }

  [[nodiscard]] buffer share_or_copy(std::size_t begin, std::size_t size) const {
    if (owner_ == nullptr) { return buffer{}; }
    if (copies_are_deep()) { return copy_range(begin, size, owner_->stream(), keep_mode::of_source); }
    owner_->retain();
    return buffer{owner_, offset_ + begin, size};
  }

  // Which sharing mode a copy takes (rule 9): the source's, for the copy a write or an exposed
  // allocation makes of an existing handle; the mode in force, for a deep copy asked for.
  enum class keep_mode : bool { in_force, of_source };

  // A copy of the range in new memory from the same resource (the allocation's handler, as NEP 49).
  // Under a spill lock for its duration (rule 20): the source is held on the device before the copy
  // is allocated, so that allocation cannot spill what it is about to read, and the copy is held
  // from birth until the outermost lock ends.
  [[nodiscard]] buffer copy_range(std::size_t begin, std::size_t size, stream_ref stream, keep_mode mode) const {
    if (owner_ == nullptr) { return buffer{}; }
    scoped_device const on_device(owner_->device());  // rule 21: the copy is made on this device
    std::optional<detail::keep_sharing_mode<Policy>> kept;
    if (mode == keep_mode::of_source) { (void)kept.emplace(owner_->copy_on_write()); }
    detail::operation_spill_lock<Policy> const lock{stream};
    if constexpr (spillable) {
      // A spilled allocation is copied on the host side and stays spilled (cuDF's behaviour).
      if (owner_type* copy = owner_->spilled_copy(offset_ + begin, size)) { return buffer{copy, 0, size}; }
    }
    std::byte const* const source = this->begin() + begin;
    buffer fresh(size, stream, owner_->alignment(), owner_->resource());
    copy_bytes(fresh.begin(), source, size, stream);
    read_on(stream);
    return fresh;
  }

  void unshare(stream_ref stream) {
    if (writes_copy()) { *this = copy_range(0, size_, stream, keep_mode::of_source); }
  }

  owner_type* owner_ = nullptr;
  std::size_t offset_ = 0;
  std::size_t size_ = 0;
};

DEVCOL_NAMESPACE_END
