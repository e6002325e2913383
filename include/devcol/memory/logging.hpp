/**
 * @file logging.hpp
 * @brief `devcol::mr::logging`: writes every allocation event as a CSV line.
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/detail/adaptor_base.hpp>
#include <devcol/memory/resource.hpp>

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <memory>
#include <mutex>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>

// The logging thread is named by its pthread_t where there is one: the value std::thread::id
// prints there, without <thread>, which cost every file that includes devcol 2% of its compile.
#if __has_include(<pthread.h>)
#  include <pthread.h>
#else
#  include <thread>
#endif

DEVCOL_NAMESPACE_BEGIN
namespace mr {

namespace detail {

/// The sink, the lock that orders its lines, the clock's start and the upstream that a
/// `mr::logging` and its copies share.
template <memory_resource Upstream>
class logging_state : public adaptor_state<Upstream> {
 public:
  template <class... Args>
  explicit logging_state(std::ostream& sink, Args&&... args)
      : adaptor_state<Upstream>(std::forward<Args>(args)...), sink_(&sink) {
    write_header();
  }
  // A file is written through C stdio rather than an std::ofstream, whose <fstream> every file
  // that includes devcol would otherwise parse.
  explicit logging_state(std::string const& path) : file_(std::fopen(path.c_str(), "w")) {
    DEVCOL_EXPECTS(file_ != nullptr, "logging: cannot open log file '", path, "'");
    write_header();
  }

  void* allocate(std::size_t bytes, std::size_t alignment, stream_ref stream) {
    void* ptr = nullptr;
    try {
      ptr = this->upstream().allocate(bytes, alignment, stream);
    } catch (...) {
      log_nothrow("allocate_failure", nullptr, bytes, alignment, stream);  // the upstream's error goes on
      throw;
    }
    log_nothrow("allocate", ptr, bytes, alignment, stream);  // a failed write must not leak the memory
    return ptr;
  }
  // Logged before the memory goes back upstream: from then on another thread may be given the same
  // block and log its allocation, which must come after this line (a replay reads them in order).
  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment, stream_ref stream) noexcept {
    log_nothrow("deallocate", ptr, bytes, alignment, stream);
    this->upstream().deallocate(ptr, bytes, alignment, stream);
  }
  void flush() {
    std::lock_guard lock(mutex_);
    if (file_ != nullptr) {
      std::fflush(file_.get());
    } else {
      sink_->flush();
    }
  }

 private:
  struct file_closer {
    void operator()(std::FILE* file) const noexcept { std::fclose(file); }
  };

  static auto thread_id() noexcept {
#if __has_include(<pthread.h>)
    return pthread_self();
#else
    return std::this_thread::get_id();
#endif
  }

  void write_header() { write("thread,time_ns,action,pointer,bytes,alignment,stream\n"); }
  // Under the lock, or before the adaptor is shared.
  void write(std::string const& text) {
    if (file_ != nullptr) {
      std::fwrite(text.data(), 1, text.size(), file_.get());
    } else {
      *sink_ << text;
    }
  }

  // Logging is best effort: a line that cannot be formatted or written is dropped.
  void log_nothrow(char const* action, void* ptr, std::size_t bytes, std::size_t alignment, stream_ref stream) noexcept {
    try {
      log(action, ptr, bytes, alignment, stream);
    } catch (...) {
    }
  }

  void log(char const* action, void* ptr, std::size_t bytes, std::size_t alignment, stream_ref stream) {
    auto const ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_);
    std::ostringstream line;
    line << thread_id() << ',' << ns.count() << ',' << action << ',' << ptr << ',' << bytes << ','
         << alignment << ',' << stream.value() << '\n';
    std::lock_guard lock(mutex_);
    write(line.str());
  }

  std::unique_ptr<std::FILE, file_closer> file_;  // null when writing to the caller's sink
  std::ostream* sink_ = nullptr;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace detail

/**
 * @brief Logs each call to `Upstream` as a CSV line `thread,time_ns,action,pointer,bytes,alignment,stream`
 * (after a header line), `action` being `allocate`, `allocate_failure` or `deallocate`, and
 * `time_ns` counted from the adaptor's construction.
 *
 * A line is formatted outside the lock and written under it, so lines never interleave. Costs a
 * formatted write per call: a debugging aid, like RMM's logging adaptor.
 *
 * Copies share the one sink (and its file, closed with the last copy), its lock and clock, and the
 * upstream (a copy costs an atomic increment and writes no header; see `detail::adaptor_handle`):
 * every copy's calls go to the same log, in one order, from any threads at once; copies compare equal.
 * @tparam Upstream the resource the adaptor forwards to, owned by value by the shared state (never a
 *         reference that could dangle; pass a copy of another adaptor to share it); each of its
 *         calls is logged with its outcome
 */
template <memory_resource Upstream>
class logging : public detail::adaptor_handle<detail::logging_state<Upstream>, logging<Upstream>> {
  using base = detail::adaptor_handle<detail::logging_state<Upstream>, logging<Upstream>>;

 public:
  /// @brief Shares `other`'s state (an atomic increment); written out, not defaulted, for the reason
  /// `detail::adaptor_handle` gives.
  /// @param other the adaptor whose state is shared
  logging(logging const& other) noexcept : base(other) {}
  /// @brief Shares `other`'s state, leaving this one's; written out as the copy constructor is.
  /// @param other the adaptor whose state is shared
  logging& operator=(logging const& other) noexcept {
    base::operator=(other);
    return *this;
  }
  /// @brief Logs to `sink`, which the caller keeps alive as long as this adaptor and its copies.
  /// Writes the header.
  /// @param sink the stream the CSV lines go to
  /// @throws std::bad_alloc
  explicit logging(std::ostream& sink) : base(std::in_place, sink) {}
  /// @brief Same, over `upstream` (moved in).
  /// @param sink the stream the CSV lines go to, alive as long as this adaptor and its copies
  /// @param upstream the resource forwarded to
  /// @throws std::bad_alloc
  logging(std::ostream& sink, Upstream upstream) : base(std::in_place, sink, std::in_place, std::move(upstream)) {}
  /// @brief Same, constructing the upstream in place from `args`.
  /// @tparam Args the types of `Upstream`'s constructor arguments
  /// @param sink the stream the CSV lines go to, alive as long as this adaptor and its copies
  /// @param args forwarded to `Upstream`'s constructor
  /// @throws std::bad_alloc, or what `Upstream`'s constructor throws
  template <class... Args>
  logging(std::ostream& sink, std::in_place_t, Args&&... args)
      : base(std::in_place, sink, std::in_place, std::forward<Args>(args)...) {}
  /**
   * @brief Logs to a file at `path`, created or truncated, owned by the adaptor and its copies.
   * @param path the file's path
   * @throws devcol::logic_error naming the path if it cannot be opened
   */
  explicit logging(std::string const& path) : base(std::in_place, path) {}

  /// @brief Allocates from upstream and logs the outcome (a line that cannot be written is dropped).
  /// Throws what the upstream throws.
  /// @param bytes the size in bytes
  /// @param alignment a power of two
  /// @param stream the stream the allocation is ordered on
  void* allocate(std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) {
    return this->state().allocate(bytes, alignment, stream);
  }
  /// @brief Frees through upstream and logs it. Never throws (a failed write is dropped).
  /// @param ptr memory from allocate() of this adaptor or a copy of it
  /// @param bytes the size it was allocated with
  /// @param alignment the alignment it was allocated with
  /// @param stream the stream the free is ordered on
  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) noexcept {
    this->state().deallocate(ptr, bytes, alignment, stream);
  }

  /// @brief Flushes the sink, under the lock that orders the lines.
  /// @throws what the sink throws if its exceptions are enabled
  void flush() { this->state().flush(); }

  // CCCL's entry points (stream-first and *_sync for CCCL 3.1+, *_async for 3.0), which this
  // adaptor's own allocate and deallocate would otherwise hide.
  using base::allocate, base::deallocate;
};

}  // namespace mr
DEVCOL_NAMESPACE_END
