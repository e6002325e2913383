/**
 * @file host_aligned.hpp
 * @brief `devcol::mr::host_aligned`: aligned host memory; the "device" memory of the host backend.
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/resource.hpp>

#include <cstddef>
#include <cstdint>
#include <new>

#if defined(__linux__)
#  include <sys/mman.h>
#endif

DEVCOL_NAMESPACE_BEGIN
namespace mr {

/**
 * @brief Host memory from aligned `operator new`, 64-byte aligned unless asked for more.
 *
 * Stateless: all instances compare equal. Synchronous; the stream is ignored. On the host backend
 * its memory is also device-accessible (the "device" is the CPU), so it is that backend's default
 * resource.
 *
 * **Huge pages.** A block of `huge_page_threshold` bytes or more is aligned to 2 MiB and, on
 * Linux, advised `MADV_HUGEPAGE`: where transparent huge pages are in `madvise` mode (a common
 * default) the kernel then maps it with 2 MiB pages, and a pass over a large column stops
 * missing the TLB every 4 KiB (measured on one AVX2 core: streaming ops such as add and cast
 * about 20% faster on 2^24 rows). Cost: one `madvise` call per large allocation (about a
 * microsecond); up to 2 MiB of address space before the block for the alignment (never touched,
 * so never resident); and memory resident in 2 MiB steps, so up to 2 MiB more than 4 KiB pages
 * would make resident at the block's end, at most 1/8 of a block at the threshold. The first
 * touch of each huge page zeroes 2 MiB at once. Where the kernel has no transparent huge pages
 * the advice fails and is ignored: the block is still valid, on 4 KiB pages.
 */
class host_aligned : public detail::cccl_interop<host_aligned> {
 public:
  /// The largest alignment honoured (2 MiB, a huge page).
  static constexpr std::size_t max_alignment = std::size_t{1} << 21;
  /// allocate(bytes, alignment) is synchronous: CCCL's allocate_sync calls it as it is.
  static constexpr bool synchronous_allocate = true;
  /// The size of a huge page, the alignment of blocks of huge_page_threshold bytes or more.
  static constexpr std::size_t huge_page_bytes = std::size_t{1} << 21;
  /// Blocks this large or larger are advised onto huge pages (see the class comment); at this
  /// size the 2 MiB rounding costs at most 1/8 of the block.
  static constexpr std::size_t huge_page_threshold = std::size_t{16} << 20;

  /**
   * @brief Allocates `bytes` (0 is allowed and gives a unique pointer) aligned to `alignment`;
   * from huge_page_threshold bytes on, aligned to 2 MiB and advised onto huge pages.
   * @param bytes the size in bytes
   * @param alignment a power of two up to max_alignment
   * @throws devcol::out_of_memory when the system has no memory for it
   * @throws devcol::logic_error when `alignment` is not a power of two or exceeds max_alignment
   */
  void* allocate(std::size_t bytes, std::size_t alignment = default_alignment, stream_ref = {}) {
    detail::validate_alignment(alignment, max_alignment, "host_aligned");
    // libstdc++'s aligned operator new rounds the size up and can wrap to a tiny block.
    if (bytes > SIZE_MAX - block_alignment(bytes, alignment)) {
      DEVCOL_OUT_OF_MEMORY(bytes, "host_aligned: cannot allocate ", bytes, " bytes aligned to ", alignment);
    }
    // The nothrow form: failure is a null to test, not an exception to translate, and sanitizer
    // runtimes (with allocator_may_return_null=1) return null here where the throwing form aborts.
    void* ptr = ::operator new(bytes, std::align_val_t{block_alignment(bytes, alignment)}, std::nothrow);
    if (ptr == nullptr) {
      DEVCOL_OUT_OF_MEMORY(bytes, "host_aligned: out of memory allocating ", bytes, " bytes aligned to ", alignment);
    }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= huge_page_threshold) {
      // Advice only: a kernel without transparent huge pages refuses it and the block stays valid.
      (void)::madvise(ptr, bytes / huge_page_bytes * huge_page_bytes, MADV_HUGEPAGE);
    }
#endif
    return ptr;
  }

  /// @brief Frees memory from allocate() with the same size and alignment. Never throws.
  /// @param ptr memory from allocate() of any host_aligned
  /// @param bytes the size it was allocated with
  /// @param alignment the alignment it was allocated with
  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment = default_alignment, stream_ref = {}) noexcept {
#if defined(__cpp_sized_deallocation)
    ::operator delete(ptr, bytes, std::align_val_t{block_alignment(bytes, alignment)});
#else  // clang before 19 leaves sized deallocation off unless asked (-fsized-deallocation)
    ::operator delete(ptr, std::align_val_t{block_alignment(bytes, alignment)});
#endif
  }

  /// @brief Any instance frees any other's memory.
  friend constexpr bool operator==(host_aligned const&, host_aligned const&) noexcept { return true; }
  friend constexpr void get_property(host_aligned const&, host_accessible) noexcept {}
#if DEVCOL_BACKEND_HOST
  friend constexpr void get_property(host_aligned const&, device_accessible) noexcept {}
#endif
  // CCCL's entry points (stream-first and *_sync for CCCL 3.1+, *_async for 3.0), which this
  // class's own allocate and deallocate would otherwise hide.
  using detail::cccl_interop<host_aligned>::allocate, detail::cccl_interop<host_aligned>::deallocate;

 private:
  // The alignment a block is made with; deallocate() recomputes it from the same size, so the
  // caller's (size, alignment) pair still names the block.
  static constexpr std::size_t block_alignment(std::size_t bytes, std::size_t alignment) noexcept {
    return bytes >= huge_page_threshold && alignment < huge_page_bytes ? huge_page_bytes : alignment;
  }
};

}  // namespace mr
DEVCOL_NAMESPACE_END
