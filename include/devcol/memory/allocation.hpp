/**
 * @file allocation.hpp
 * @brief `devcol::mr::allocation`: RAII ownership of bytes, freed by the resource that made them.
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/detail/retired_streams.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/default_resource.hpp>
#include <devcol/memory/resource.hpp>
#include <devcol/memory/resource_handle.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace mr {

/**
 * @brief Owns `size()` bytes from a resource it keeps a copy of, and frees them through that copy
 * on `stream()` when destroyed, whatever the default resource is by then (NEP 49: every array
 * carries the handler that allocated it). What the buffer layer's owners are built on.
 *
 * Move-only; a moved-from allocation is empty (null data, size 0) and frees nothing.
 * Uninitialised memory: nothing is written.
 *
 * Devices (rule 21): on CUDA it records the device current when it was made (one `cudaGetDevice`,
 * an `int`), and frees with that device current, whatever device the thread has made current
 * since (a `cudaSetDevice` pair only when they differ). To allocate on another device, make it
 * current first (`devcol::scoped_device`). The host backend records nothing.
 *
 * @tparam Resource a copyable resource, or a handle to one (`resource_handle` by default)
 */
template <memory_resource Resource = resource_handle>
  requires std::copyable<Resource>
class basic_allocation {
 public:
  /**
   * @brief Allocates `bytes` aligned to `alignment` from `resource`, usable on `stream`. A custom
   * resource's answer is checked, since devcol then reads `T`s and whole mask words there: a null
   * pointer for a non-zero size is `out_of_memory` (NEP 49's failure), a pointer not aligned as asked
   * is handed back and refused.
   * @param bytes the size in bytes
   * @param alignment a power of two the resource honours
   * @param stream the stream the memory is usable on, and later freed on
   * @param resource what the memory comes from; kept, so the free goes back to it
   * @throws devcol::logic_error naming an alignment that is not a power of two, before allocating;
   *         what `resource.allocate` throws (`devcol::out_of_memory`, `devcol::logic_error`);
   *         devcol::out_of_memory for a null result; devcol::logic_error naming a misaligned one
   */
  basic_allocation(std::size_t bytes, std::size_t alignment, stream_ref stream, Resource resource)
      : device_(),
        resource_(std::move(resource)),
        data_(resource_.allocate(bytes, checked_alignment(alignment), stream)),
        size_(bytes),
        alignment_(alignment),
        stream_(stream) {
    check_result();
  }

  /// @brief Allocates from the default resource now (mr::get_default(): the thread's, else the
  /// current device's), which it keeps. Throws as the constructor above.
  /// @param bytes the size in bytes
  /// @param stream the stream the memory is usable on, and later freed on
  /// @param alignment a power of two the default resource honours
  explicit basic_allocation(std::size_t bytes, stream_ref stream = {}, std::size_t alignment = default_alignment)
    requires std::same_as<Resource, resource_handle>
      : basic_allocation(bytes, alignment, stream, get_default()) {}

  /// @brief An empty allocation (null data, size 0) that keeps `resource`, as the owner of memory
  /// made elsewhere does (its copies come from `resource`). Allocates nothing, frees nothing.
  /// @param resource the resource kept for later allocations through this owner
  /// @param stream the stream recorded as the allocation's
  basic_allocation(Resource resource, stream_ref stream) noexcept(std::is_nothrow_move_constructible_v<Resource>)
      : device_(std::nothrow),
        resource_(std::move(resource)),
        data_(nullptr),
        size_(0),
        alignment_(default_alignment),
        stream_(stream) {}

  basic_allocation(basic_allocation const&) = delete;
  basic_allocation& operator=(basic_allocation const&) = delete;
  /// @brief Takes over `other`'s memory; `other` becomes empty. Copies the resource (a handle copy
  /// costs an atomic increment).
  /// @param other the allocation emptied
  basic_allocation(basic_allocation&& other) noexcept(std::is_nothrow_copy_constructible_v<Resource>)
      : device_(other.device_),
        resource_(other.resource_),
        data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        alignment_(other.alignment_),
        stream_(other.stream_) {}
  /// @brief Frees this allocation's memory, then takes over `other`'s.
  /// @param other the allocation emptied
  basic_allocation& operator=(basic_allocation&& other) noexcept(std::is_nothrow_copy_assignable_v<Resource>) {
    if (this != &other) {
      free();
      device_ = other.device_;
      resource_ = other.resource_;
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      alignment_ = other.alignment_;
      stream_ = other.stream_;
    }
    return *this;
  }
  /// @brief Frees the memory through its resource, on stream(), with device() current. Never throws.
  ~basic_allocation() { free(); }

  /// @brief The memory (null when empty; possibly null for 0 bytes).
  [[nodiscard]] void* data() noexcept { return data_; }
  /// @brief The memory (null when empty; possibly null for 0 bytes).
  [[nodiscard]] void const* data() const noexcept { return data_; }
  /// @brief The size in bytes asked for.
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  /// @brief The alignment asked for.
  [[nodiscard]] std::size_t alignment() const noexcept { return alignment_; }
  /// @brief The stream the memory will be freed on: the one it was allocated (or last set) on, or
  /// the default stream once that `devcol::stream` is destroyed (its work is complete by then).
  [[nodiscard]] stream_ref stream() const noexcept { return ::devcol::detail::live_stream(stream_); }
  /// @brief Frees on `stream` instead: the caller makes sure its work follows every use of the memory.
  /// @param stream the stream the free will be ordered on
  void set_stream(stream_ref stream) noexcept { stream_ = stream; }
  /**
   * @brief Gives the memory up without freeing it: the caller frees it through resource() with
   * the size and alignment it had. Leaves the allocation empty, its resource, stream and alignment
   * untouched (so threads reading resource() meanwhile see no write: what spilling relies on).
   */
  [[nodiscard]] void* release() noexcept {
    size_ = 0;
    return std::exchange(data_, nullptr);
  }
  /**
   * @brief Takes ownership of `bytes` at `data`, which resource() allocated with `alignment` on a
   * stream ordered before stream(); they are freed with that size and alignment. Only for an empty
   * allocation; writes no resource.
   * @param data the memory taken over
   * @param bytes its size, passed back to the resource when it is freed
   * @param alignment its alignment, passed back likewise
   */
  void adopt(void* data, std::size_t bytes, std::size_t alignment) noexcept {
    data_ = data;
    size_ = bytes;
    alignment_ = alignment;
  }
  /// @brief The device current when the allocation was made, which its free makes current again
  /// (0 on the host backend).
  [[nodiscard]] device_id device() const noexcept { return device_.get(); }
  /// @brief The resource that made the memory and will free it.
  [[nodiscard]] Resource const& resource() const noexcept { return resource_; }

 private:
  // The result check divides by the alignment, and a custom resource need not have checked it.
  static std::size_t checked_alignment(std::size_t alignment) {
    DEVCOL_EXPECTS(is_valid_alignment(alignment), "allocation: alignment ", alignment, " is not a power of two");
    return alignment;
  }

  // Refuses what a (custom) resource must never give: see the constructor.
  void check_result() {
    if (data_ == nullptr) {
      if (size_ != 0) {
        DEVCOL_OUT_OF_MEMORY(size_, "allocation: the resource returned null for ", size_, " bytes");
      }
      return;
    }
    if (reinterpret_cast<std::uintptr_t>(data_) % alignment_ != 0) {
      void* const misaligned = std::exchange(data_, nullptr);
      resource_.deallocate(misaligned, size_, alignment_, stream_);
      DEVCOL_FAIL("allocation: the resource returned ", misaligned, " for ", size_, " bytes aligned to ", alignment_,
                  ", which is not aligned to ", alignment_);
    }
  }

  void free() noexcept {
    if (data_ != nullptr) {
      scoped_device const on_device(device_.get(), std::nothrow);
      resource_.deallocate(data_, size_, alignment_, stream());
    }
    data_ = nullptr;
    size_ = 0;
  }

  // First: recorded before the resource allocates, so that a failing cudaGetDevice leaks nothing.
  [[no_unique_address]] ::devcol::detail::recorded_device device_;
  [[no_unique_address]] Resource resource_;
  void* data_;
  std::size_t size_;
  std::size_t alignment_;
  stream_ref stream_;
};

/// @brief An allocation from a `resource_handle`: the per-thread default unless one is given.
using allocation = basic_allocation<resource_handle>;

}  // namespace mr
DEVCOL_NAMESPACE_END
