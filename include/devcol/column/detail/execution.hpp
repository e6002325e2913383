/**
 * @file execution.hpp
 * @brief The Thrust execution policy for a stream: CUDA's `par_nosync` on the stream (no hidden
 * synchronisation; temporary storage from this thread's default resource), or the host backend's
 * device system (OpenMP, or serial C++). Under the simulated CUDA runtime of devcol's tests, the
 * host system runs the work at once and the runtime double orders it on the stream. And the
 * element-wise, reducing and scanning launches devcol makes through it: CUB's with a 64-bit count
 * on CUDA, loops over chunks of rows on the host's fast paths, Thrust's elsewhere.
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/default_resource.hpp>
#include <devcol/memory/resource_handle.hpp>

#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scan.h>

#if DEVCOL_HOST_FAST_PATHS
#  include <devcol/column/detail/host_chunks.hpp>

#  include <atomic>
#  include <vector>
#else
#  include <thrust/find.h>
#  include <thrust/transform.h>
#  include <thrust/transform_reduce.h>
#endif

#if DEVCOL_BACKEND_CUDA
#  include <devcol/core/copy.hpp>

#  include <cuda/atomic>
#endif
#if DEVCOL_SIMULATED_CUDA
#  include <thrust/for_each.h>
#endif
#if DEVCOL_BACKEND_CUDA && !DEVCOL_SIMULATED_CUDA
#  include <cub/device/device_for.cuh>
#  include <cub/device/device_reduce.cuh>
#  include <cub/device/device_scan.cuh>
#  include <cub/device/device_select.cuh>
#  include <cub/device/device_transform.cuh>
#endif

#include <cstddef>
#include <cstdint>
#include <type_traits>

#if DEVCOL_BACKEND_CUDA && !DEVCOL_HAS_DEVICE_COMPILER && !DEVCOL_SIMULATED_CUDA
#  error "devcol's column and ops layers launch kernels: compile this translation unit with a CUDA compiler"
#endif

#if DEVCOL_SIMULATED_CUDA
// Defined by the simulated CUDA runtime (test/simulated_cuda): a kernel is queued on `stream`; the
// kernel on `stream` reads (or writes) `bytes` at `ptr`.
extern "C" cudaError_t devcol_simulated_cuda_launch(cudaStream_t stream);
extern "C" void devcol_simulated_cuda_access(cudaStream_t stream, void const* ptr, std::size_t bytes, int write);
#endif

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Thrust's temporary storage from a devcol resource, on the algorithm's stream.
class temporary_allocator {
 public:
  using value_type = char;
  temporary_allocator(mr::resource_handle resource, stream_ref stream) : resource_(std::move(resource)), stream_(stream) {}
  char* allocate(std::ptrdiff_t bytes) {
    return static_cast<char*>(resource_.allocate(static_cast<std::size_t>(bytes), 256, stream_));
  }
  void deallocate(char* ptr, std::size_t bytes) noexcept { resource_.deallocate(ptr, bytes, 256, stream_); }

 private:
  mr::resource_handle resource_;
  stream_ref stream_;
};

#if DEVCOL_SIMULATED_CUDA
/// The host system, its work queued on `stream` of the simulated runtime, with temporaries from this
/// thread's default resource (stream-ordered simulated device memory).
inline auto execution_policy(stream_ref stream, temporary_allocator& temporaries) {
  DEVCOL_CUDA_TRY(devcol_simulated_cuda_launch(stream.value()));
  return thrust::device(temporaries);
}
#elif DEVCOL_BACKEND_CUDA
/// The execution policy for `stream`, with temporaries from this thread's default resource.
inline auto execution_policy(stream_ref stream, temporary_allocator& temporaries) {
  return thrust::cuda::par_nosync(temporaries).on(stream.value());
}
#else
/// The host backend's device system; its temporaries are host memory.
inline auto execution_policy(stream_ref, temporary_allocator&) { return thrust::device; }
#endif

/// Holds the temporaries' allocator alive for the duration of one or more algorithm calls.
class executor {
 public:
  explicit executor(stream_ref stream) : stream_(stream), temporaries_(mr::get_default(), stream) {}
  [[nodiscard]] auto policy() { return execution_policy(stream_, temporaries_); }
  [[nodiscard]] stream_ref stream() const noexcept { return stream_; }
  /// @brief The allocator of the temporaries of algorithms run through this executor.
  [[nodiscard]] temporary_allocator& temporaries() noexcept { return temporaries_; }
  /// @brief Names `bytes` at `ptr` as read by the algorithms run through this executor. Costs
  /// nothing: only the simulated CUDA runtime of devcol's tests checks it against the stream order.
  void reads([[maybe_unused]] void const* ptr, [[maybe_unused]] std::size_t bytes) const noexcept {
#if DEVCOL_SIMULATED_CUDA
    devcol_simulated_cuda_access(stream_.value(), ptr, bytes, 0);
#endif
  }
  /// @brief Names `bytes` at `ptr` as written by the algorithms run through this executor (see reads()).
  void writes([[maybe_unused]] void const* ptr, [[maybe_unused]] std::size_t bytes) const noexcept {
#if DEVCOL_SIMULATED_CUDA
    devcol_simulated_cuda_access(stream_.value(), ptr, bytes, 1);
#endif
  }

 private:
  stream_ref stream_;
  temporary_allocator temporaries_;
};

/// Where a value a Thrust algorithm made on the device comes back to the host, which on CUDA waits
/// for the stream: the simulated runtime, whose host system made the value at once, is told so by
/// the same wait (it counts the host's synchronisations); elsewhere nothing. Once per wait CCCL's
/// algorithm makes (find_if, all_of, any_of and the scalar searches read one value back).
inline void read_back([[maybe_unused]] executor const& exec) {
#if DEVCOL_SIMULATED_CUDA
  DEVCOL_CUDA_TRY(cudaStreamSynchronize(exec.stream().value()));
#endif
}

// The launches below are what devcol calls instead of Thrust's transform, transform_reduce,
// count_if, find_if, scans and copy_if. On CUDA, Thrust compiles each of the first five twice, for
// 32- and for 64-bit counts, and picks one at run time; CUB's with a 64-bit count compiles one (the
// same kernels: the transform keeps its arguments' addresses stable as Thrust's does), halving what
// each call costs nvcc's device compiler and ptxas. Thrust's copy_if compiles one already, but reads
// the count of kept rows back, a synchronisation devcol's callers do not need. The simulated CUDA
// runtime, and the host backend without its fast paths, run Thrust's algorithms on the executor's
// policy. The host fast paths run the element-wise, reducing and searching launches as plain loops
// over chunks of rows, one chunk per OpenMP thread (host_chunks.hpp), as Thrust's OpenMP system
// does: Thrust's generic find_if and reduce compile a reduction of zipped iterators, some 1-2 KB of
// code per predicate that g++ takes about 0.13 G instructions a kilobyte to make, and the Arrow
// importer's content checks alone call them with a dozen predicates. The scans and copy_if stay
// Thrust's there too (on its OpenMP system, a serial loop and the generic three passes).

#if DEVCOL_BACKEND_CUDA
/// `bytes` from an executor's temporaries, given back in order on its stream when destroyed (no
/// synchronisation, as Thrust gives back its own): the temporary storage of a CUB launch.
class temporary_block {
 public:
  temporary_block(temporary_allocator& from, std::size_t bytes)
      : from_(from), bytes_(bytes == 0 ? 1 : bytes), data_(from.allocate(static_cast<std::ptrdiff_t>(bytes_))) {}
  temporary_block(temporary_block const&) = delete;
  temporary_block& operator=(temporary_block const&) = delete;
  ~temporary_block() { from_.deallocate(data_, bytes_); }
  [[nodiscard]] char* data() const noexcept { return data_; }

 private:
  temporary_allocator& from_;
  std::size_t bytes_;
  char* data_;
};

#endif
#if DEVCOL_BACKEND_CUDA && !DEVCOL_SIMULATED_CUDA
/// Bytes kept ahead of CUB's temporaries for a launch's own result (a reduction's value, a
/// selection's count): 256, CUB's alignment for the temporaries that follow.
inline constexpr std::size_t cub_head_bytes = 256;

/**
 * Runs a CUB algorithm of the two-call kind: `launch(temp, temp_bytes, head)` asks for the size of
 * its temporaries when `temp` is null, else runs on the executor's stream. The temporaries come
 * from the executor's allocator, after `head_bytes` (0 or cub_head_bytes) for the launch's own
 * result at `head`; `finish(head)` then runs before they are given back (in stream order, so it
 * may enqueue a copy of that result). No synchronisation.
 * @param what the algorithm's name, for the error
 * @throws devcol::cuda_error naming `what`, what the allocator throws
 */
template <class Launch, class Finish>
void launch_cub(executor& exec, char const* what, std::size_t head_bytes, Launch launch, Finish finish) {
  std::size_t temp_bytes = 0;
  if (cudaError_t const status = launch(static_cast<void*>(nullptr), temp_bytes, static_cast<char*>(nullptr));
      status != cudaSuccess) {
    throw_cuda_error(status, what, __FILE__, __LINE__);
  }
  temporary_block const temporaries(exec.temporaries(), head_bytes + temp_bytes);
  if (cudaError_t const status =
          launch(static_cast<void*>(temporaries.data() + head_bytes), temp_bytes, temporaries.data());
      status != cudaSuccess) {
    throw_cuda_error(status, what, __FILE__, __LINE__);
  }
  finish(temporaries.data());
}
/// launch_cub() with nothing to finish.
struct nothing_to_finish {
  void operator()(char const*) const noexcept {}
};
#endif

#if DEVCOL_BACKEND_CUDA && !DEVCOL_SIMULATED_CUDA
/// Whether `In` is one of Thrust's counting iterators: an input that is row numbers, not memory.
template <class In>
inline constexpr bool is_counting_iterator = false;
template <class T, class System, class Traversal, class Difference>
inline constexpr bool is_counting_iterator<thrust::counting_iterator<T, System, Traversal, Difference>> = true;

/// transform_n's element-wise step where the input is row numbers: `out[i] = f(in[i])`.
template <class In, class Out, class F>
struct transform_step {
  In in;
  Out out;
  F f;
  DEVCOL_HOST_DEVICE void operator()(std::size_t i) const { out[i] = f(in[i]); }
};
#endif

/**
 * Writes `f(in[i])` to `out[i]` for every i in [0, n), in order on the executor's stream. No
 * synchronisation, no allocation. On CUDA, CUB's transform over memory inputs (which it prefetches);
 * over row numbers (a counting iterator: what tabulate() and the gathers, masks and row maps pass),
 * which leave it nothing to prefetch, CUB's plain element-wise launch (`DeviceFor::Bulk`), whose
 * kernel is a fraction of the transform's code for nvcc and ptxas, and its host side too. On the
 * host, a loop over each chunk of rows on OpenMP threads.
 * @tparam In a random-access input iterator
 * @tparam Out a random-access output iterator
 * @tparam F a callable the device can call (DEVCOL_HOST_DEVICE)
 * @throws devcol::cuda_error when the launch fails
 */
template <class In, class Out, class F>
void transform_n(executor& exec, In in, std::size_t n, Out out, F f) {
  if (n == 0) { return; }
#if DEVCOL_BACKEND_CUDA && !DEVCOL_SIMULATED_CUDA
  if constexpr (is_counting_iterator<In>) {
    DEVCOL_CUDA_TRY(cub::DeviceFor::Bulk(n, transform_step<In, Out, F>{in, out, f}, exec.stream().value()));
  } else {
    DEVCOL_CUDA_TRY(cub::DeviceTransform::TransformStableArgumentAddresses(in, out, static_cast<std::int64_t>(n), f,
                                                                           exec.stream().value()));
  }
#elif DEVCOL_HOST_FAST_PATHS
  (void)exec;
  host::for_each_row_chunk(n, host::chunk_count(n), [&](std::size_t, std::size_t begin, std::size_t end) {
    for (auto i = static_cast<std::ptrdiff_t>(begin); i < static_cast<std::ptrdiff_t>(end); ++i) { out[i] = f(in[i]); }
  });
#else
  thrust::transform(exec.policy(), in, in + static_cast<std::ptrdiff_t>(n), out, f);
#endif
}

/// As transform_n(exec, in, n, out, f), writing `f(a[i], b[i])`.
/// @tparam A a random-access input iterator, the first argument's
/// @tparam B a random-access input iterator, the second argument's
/// @tparam Out a random-access output iterator
/// @tparam F a callable of two arguments the device can call
/// @throws devcol::cuda_error when the launch fails
template <class A, class B, class Out, class F>
void transform_n(executor& exec, A a, B b, std::size_t n, Out out, F f) {
  if (n == 0) { return; }
#if DEVCOL_BACKEND_CUDA && !DEVCOL_SIMULATED_CUDA
  DEVCOL_CUDA_TRY(cub::DeviceTransform::TransformStableArgumentAddresses(
      ::cuda::std::make_tuple(a, b), out, static_cast<std::int64_t>(n), f, exec.stream().value()));
#elif DEVCOL_HOST_FAST_PATHS
  (void)exec;
  host::for_each_row_chunk(n, host::chunk_count(n), [&](std::size_t, std::size_t begin, std::size_t end) {
    for (auto i = static_cast<std::ptrdiff_t>(begin); i < static_cast<std::ptrdiff_t>(end); ++i) {
      out[i] = f(a[i], b[i]);
    }
  });
#else
  thrust::transform(exec.policy(), a, a + static_cast<std::ptrdiff_t>(n), b, out, f);
#endif
}

/// Writes `f(i)` to `out[i]` for every row number i in [0, n) (a `std::size_t`): transform_n over
/// the row numbers.
/// @tparam Out a random-access output iterator
/// @tparam F a callable of a row number the device can call
/// @throws devcol::cuda_error when the launch fails
template <class Out, class F>
void tabulate(executor& exec, std::size_t n, Out out, F f) {
  transform_n(exec, thrust::counting_iterator<std::size_t>(0), n, out, f);
}

/**
 * The reduction by `op`, from `init`, of `transform(in[i])` for every i in [0, n) (`init` when
 * `n` is 0): on CUDA, CUB's with a 64-bit count (one kernel pair per call rather than Thrust's
 * two), its temporaries and result from the executor's allocator; on the host, chunks of rows on
 * OpenMP threads, their folds in a vector (Thrust's transform_reduce without the fast paths).
 * Synchronises the stream to return the value, as Thrust's does.
 * @tparam T the result type, trivially copyable
 * @tparam In a random-access input iterator
 * @tparam Transform a callable the device can call, from `In`'s values to `T`
 * @tparam Op an associative binary operation on `T` the device can call
 * @throws devcol::cuda_error, what the allocator throws
 */
template <class T, class In, class Transform, class Op>
T transform_reduce_n(executor& exec, In in, std::size_t n, Transform transform, T init, Op op) {
  if (n == 0) { return init; }
#if DEVCOL_BACKEND_CUDA && !DEVCOL_SIMULATED_CUDA
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= cub_head_bytes,
                "transform_reduce_n: the result is copied back as bytes");
  auto const count = static_cast<std::int64_t>(n);
  cudaStream_t const stream = exec.stream().value();
  T value;
  launch_cub(
      exec, "cub::DeviceReduce::TransformReduce", cub_head_bytes,
      [&](void* temp, std::size_t& temp_bytes, char* head) {
        return cub::DeviceReduce::TransformReduce(temp, temp_bytes, in, reinterpret_cast<T*>(head), count, op,
                                                  transform, init, stream);
      },
      [&](char const* head) {
        DEVCOL_CUDA_TRY(cudaMemcpyAsync(&value, head, sizeof(T), cudaMemcpyDeviceToHost, stream));
      });
  DEVCOL_CUDA_TRY(cudaStreamSynchronize(stream));
  return value;
#elif DEVCOL_HOST_FAST_PATHS
  (void)exec;
  // Each chunk folds its rows from its first (op need have no identity), and the chunks' folds
  // are folded after `init` in row order: `op` need not commute.
  auto const fold = [&](std::size_t begin, std::size_t end) {
    auto i = static_cast<std::ptrdiff_t>(begin);
    T acc = transform(in[i]);
    for (++i; i < static_cast<std::ptrdiff_t>(end); ++i) { acc = op(acc, transform(in[i])); }
    return acc;
  };
  std::size_t const chunks = host::chunk_count(n);
  if (chunks == 1) { return op(init, fold(0, n)); }
  std::vector<T> folds(chunks, init);
  host::for_each_row_chunk(n, chunks, [&](std::size_t c, std::size_t begin, std::size_t end) {
    folds[c] = fold(begin, end);
  });
  for (T const& folded : folds) { init = op(init, folded); }
  return init;
#else
  T const value = thrust::transform_reduce(exec.policy(), in, in + static_cast<std::ptrdiff_t>(n), transform, init, op);
  read_back(exec);
  return value;
#endif
}

/**
 * Writes to `out[i]` the fold by `op` of `in[0]` to `in[i]` (inclusive), for every i in [0, n), in
 * order on the executor's stream; `out` may be `in`. CUB's scan with a 64-bit count on CUDA (its
 * temporaries from the executor's allocator), Thrust's elsewhere. No synchronisation.
 * @tparam In a random-access input iterator
 * @tparam Out a random-access output iterator
 * @tparam Op an associative binary operation on `In`'s values the device can call
 * @throws devcol::cuda_error, what the allocator throws
 */
template <class In, class Out, class Op>
void inclusive_scan_n(executor& exec, In in, std::size_t n, Out out, Op op) {
  if (n == 0) { return; }
#if DEVCOL_BACKEND_CUDA && !DEVCOL_SIMULATED_CUDA
  auto const count = static_cast<std::int64_t>(n);
  launch_cub(
      exec, "cub::DeviceScan::InclusiveScan", 0,
      [&](void* temp, std::size_t& temp_bytes, char*) {
        return cub::DeviceScan::InclusiveScan(temp, temp_bytes, in, out, op, count, exec.stream().value());
      },
      nothing_to_finish{});
#else
  thrust::inclusive_scan(exec.policy(), in, in + static_cast<std::ptrdiff_t>(n), out, op);
#endif
}

/**
 * As inclusive_scan_n, but exclusive from `init`: `out[0]` is `init`, `out[i]` the fold of `init`
 * and `in[0]` to `in[i - 1]`.
 * @tparam In a random-access input iterator
 * @tparam Out a random-access output iterator
 * @tparam T the type of `init`, the scan's accumulator
 * @tparam Op an associative binary operation the device can call
 * @throws devcol::cuda_error, what the allocator throws
 */
template <class In, class Out, class T, class Op>
void exclusive_scan_n(executor& exec, In in, std::size_t n, Out out, T init, Op op) {
  if (n == 0) { return; }
#if DEVCOL_BACKEND_CUDA && !DEVCOL_SIMULATED_CUDA
  auto const count = static_cast<std::int64_t>(n);
  launch_cub(
      exec, "cub::DeviceScan::ExclusiveScan", 0,
      [&](void* temp, std::size_t& temp_bytes, char*) {
        return cub::DeviceScan::ExclusiveScan(temp, temp_bytes, in, out, op, init, count, exec.stream().value());
      },
      nothing_to_finish{});
#else
  thrust::exclusive_scan(exec.policy(), in, in + static_cast<std::ptrdiff_t>(n), out, init, op);
#endif
}

/**
 * Copies `in[i]`, for every i in [0, n) where `pred(stencil[i])` holds, to `out` in order, on the
 * executor's stream. The caller knows how many rows are kept (a count_if_n before it): nothing is
 * read back, so nothing synchronises; on CUDA, CUB's select with a 64-bit count, its count of
 * kept rows and temporaries from the executor's allocator.
 * @tparam In a random-access input iterator
 * @tparam Stencil a random-access iterator of what `pred` tests
 * @tparam Out a random-access output iterator, room for every kept row
 * @tparam Pred a predicate of `Stencil`'s values the device can call
 * @throws devcol::cuda_error, what the allocator throws
 */
template <class In, class Stencil, class Out, class Pred>
void copy_if_n(executor& exec, In in, Stencil stencil, std::size_t n, Out out, Pred pred) {
  if (n == 0) { return; }
#if DEVCOL_BACKEND_CUDA && !DEVCOL_SIMULATED_CUDA
  auto const count = static_cast<std::int64_t>(n);
  launch_cub(
      exec, "cub::DeviceSelect::FlaggedIf", cub_head_bytes,
      [&](void* temp, std::size_t& temp_bytes, char* head) {  // the count of kept rows at `head`, never read
        return cub::DeviceSelect::FlaggedIf(temp, temp_bytes, in, stencil, out, reinterpret_cast<std::int64_t*>(head),
                                            count, pred, exec.stream().value());
      },
      nothing_to_finish{});
#else
  thrust::copy_if(exec.policy(), in, in + static_cast<std::ptrdiff_t>(n), stencil, out, pred);
#endif
}

/// copy_if_n(exec, in, in, n, out, pred): copies the values for which `pred` holds.
/// @tparam In a random-access input iterator
/// @tparam Out a random-access output iterator, room for every kept value
/// @tparam Pred a predicate of `In`'s values the device can call
/// @throws devcol::cuda_error, what the allocator throws
template <class In, class Out, class Pred>
void copy_if_n(executor& exec, In in, std::size_t n, Out out, Pred pred) {
  copy_if_n(exec, in, in, n, out, pred);
}

/// 1 where `pred` holds of a value, else 0: count_if_n's transform.
template <class Pred>
struct count_one {
  Pred pred;
  template <class V>
  DEVCOL_HOST_DEVICE std::size_t operator()(V const& v) const {
    return pred(v) ? 1 : 0;
  }
};
/// The sum of two counts: count_if_n's reduction.
struct add_counts {
  DEVCOL_HOST_DEVICE std::size_t operator()(std::size_t a, std::size_t b) const noexcept { return a + b; }
};
/// A value as the predicate: count_if_n over flags counts the true ones.
struct is_true {
  template <class V>
  DEVCOL_HOST_DEVICE bool operator()(V const& v) const {
    return static_cast<bool>(v);
  }
};

/**
 * How many of `in[0, n)` satisfy `pred`: one transform_reduce_n (so, on CUDA, one kernel pair with
 * a 64-bit count). Synchronises the stream.
 * @tparam In a random-access input iterator
 * @tparam Pred a predicate of `In`'s values the device can call
 * @throws devcol::cuda_error, what the allocator throws
 */
template <class In, class Pred>
std::size_t count_if_n(executor& exec, In in, std::size_t n, Pred pred) {
  return transform_reduce_n(exec, in, n, count_one<Pred>{pred}, std::size_t{0}, add_counts{});
}

#if DEVCOL_BACKEND_CUDA
/**
 * find_first_n's element-wise step on CUDA: when `pred(i)` holds, raises `*mark` to `n - i`, so that
 * the largest mark names the first such row and 0 names none. A row reads the mark before raising
 * it, so a run of bad rows behind an earlier one costs no atomic.
 */
template <class Pred>
struct mark_first_row {
  Pred pred;
  std::size_t n;
  unsigned long long* mark;
  DEVCOL_HOST_DEVICE void operator()(std::size_t i) const {
    if (!pred(i)) { return; }
    ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device> const word(*mark);
    auto const m = static_cast<unsigned long long>(n - i);
    if (m > word.load(::cuda::std::memory_order_relaxed)) { word.fetch_max(m, ::cuda::std::memory_order_relaxed); }
  }
};
#elif DEVCOL_HOST_FAST_PATHS
/**
 * find_first_n's scan of rows [begin, end) on the host: the first row where the predicate at
 * `pred` (a `Pred`) holds, or `end`. Blocks of 256 rows are tested whole first, a loop without an
 * exit that the compiler may vectorise, and only a block with such a row row by row.
 */
template <class Pred>
std::size_t first_row_where(void const* pred, std::size_t begin, std::size_t end) {
  auto const& holds = *static_cast<Pred const*>(pred);
  constexpr std::size_t block = 256;
  for (std::size_t first = begin; first < end; first += block) {
    std::size_t const last = std::min(end, first + block);
    bool any = false;
    for (std::size_t i = first; i < last; ++i) { any |= static_cast<bool>(holds(i)); }
    if (!any) { continue; }
    for (std::size_t i = first;; ++i) {
      if (holds(i)) { return i; }
    }
  }
  return end;
}

/**
 * find_first_n on the host: the least row that `first(pred, begin, end)` finds in any chunk of
 * [0, n), or `n`. One body for every predicate; each predicate compiles only its first_row_where.
 */
template <int = 0>
std::size_t first_row_in_chunks(std::size_t n, void const* pred,
                                std::size_t (*first)(void const*, std::size_t, std::size_t)) {
  std::size_t const chunks = host::chunk_count(n);
  if (chunks == 1) { return first(pred, 0, n); }
  std::atomic<std::size_t> found{n};
  host::for_each_row_chunk(n, chunks, [&](std::size_t, std::size_t begin, std::size_t end) {
    std::size_t const row = first(pred, begin, end);
    if (row == end) { return; }
    std::size_t least = found.load(std::memory_order_relaxed);
    while (row < least && !found.compare_exchange_weak(least, row, std::memory_order_relaxed)) {}
  });
  return found.load(std::memory_order_relaxed);
}
#endif

/**
 * The first row number i in [0, n) for which `pred(i)` holds, or `n`: the checks' search for a bad
 * row. On the host, chunks of rows on OpenMP threads (Thrust's find_if without the fast paths). On
 * CUDA, since a check usually finds nothing and must then read every row, one element-wise kernel
 * over the row numbers that raises a word in the executor's temporaries with an atomic
 * (mark_first_row), then a copy of that word back: a reduction would compile a kernel pair of
 * CUB's reduce per predicate, several times the code for nvcc and ptxas, and Thrust's find_if two
 * such pairs (32- and 64-bit counts), run and synchronised once per 2^20 rows. Synchronises the
 * stream once.
 * @tparam Pred a predicate of a row number (`std::size_t`) the device can call
 * @throws devcol::cuda_error, what the allocator throws
 */
template <class Pred>
std::size_t find_first_n(executor& exec, std::size_t n, Pred pred) {
#if DEVCOL_BACKEND_CUDA
  if (n == 0) { return 0; }
  temporary_block const word(exec.temporaries(), sizeof(unsigned long long));
  auto* const mark = reinterpret_cast<unsigned long long*>(word.data());
  fill_bytes(mark, 0, sizeof *mark, exec.stream());
  mark_first_row<Pred> const step{pred, n, mark};
#  if DEVCOL_SIMULATED_CUDA
  exec.writes(mark, sizeof *mark);
  thrust::for_each_n(exec.policy(), thrust::counting_iterator<std::size_t>(0), n, step);
#  else
  DEVCOL_CUDA_TRY(cub::DeviceFor::Bulk(n, step, exec.stream().value()));
#  endif
  unsigned long long found = 0;
  copy_bytes(&found, mark, sizeof found, exec.stream());
  DEVCOL_CUDA_TRY(cudaStreamSynchronize(exec.stream().value()));
  return n - static_cast<std::size_t>(found);
#elif DEVCOL_HOST_FAST_PATHS
  (void)exec;
  return n == 0 ? 0 : first_row_in_chunks(n, &pred, &first_row_where<Pred>);
#else
  return static_cast<std::size_t>(*thrust::find_if(exec.policy(), thrust::counting_iterator<std::size_t>(0),
                                                   thrust::counting_iterator<std::size_t>(n), pred));
#endif
}

}  // namespace detail
DEVCOL_NAMESPACE_END
