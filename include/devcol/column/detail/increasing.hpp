/**
 * @file detail/increasing.hpp
 * @brief The check that a device sequence of integers increases, shared by Arrow offsets (which
 * may repeat) and run ends (which may not): one element-wise kernel per integer width, whichever
 * buffer it checks.
 */
#pragma once

#include <devcol/column/detail/execution.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>

#include <cstddef>
#include <cstdint>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Whether `values[i + 1]` fails to follow `values[i]`: is below it, or (when `strictly`) equal.
template <class T>
struct stops_increasing {
  T const* values;
  bool strictly;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept {
    return strictly ? !(values[i] < values[i + 1]) : values[i + 1] < values[i];
  }
};

/// What summarise_increasing() learns of a sequence: its first and last values, and the first
/// place `bad` (none when nowhere) where it stops increasing, with the values there.
struct increasing_summary {
  static constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::int64_t first;
  std::int64_t last;
  std::size_t bad;
  std::int64_t here;
  std::int64_t next;
};

/**
 * The summary of the `count` integers at `values` (memory this backend's kernels read): all zero,
 * with no bad place, when `count` is 0. Offsets may repeat (`strictly` false); run ends may not.
 *
 * Cost: one find_first_n over the sequence and copies of its two ends, ordered before the one
 * synchronisation of `stream` that reads them all; two more values and a second synchronisation
 * only when the sequence stops increasing.
 * @tparam T the integer type of the sequence
 * @throws devcol::cuda_error, what the allocator throws
 */
template <class T>
[[nodiscard]] increasing_summary summarise_increasing(T const* values, std::size_t count, bool strictly,
                                                      stream_ref stream) {
  increasing_summary s{0, 0, increasing_summary::none, 0, 0};
  if (count == 0) { return s; }
  T ends[2]{};
  copy_bytes(&ends[0], values, sizeof(T), stream);
  copy_bytes(&ends[1], values + (count - 1), sizeof(T), stream);
  executor exec(stream);
  exec.reads(values, count * sizeof(T));
  std::size_t const bad = find_first_n(exec, count - 1, stops_increasing<T>{values, strictly});
  if (count == 1) { stream.synchronize(); }  // find_first_n had no rows to search, and did not
  s.first = static_cast<std::int64_t>(ends[0]);
  s.last = static_cast<std::int64_t>(ends[1]);
  if (bad == count - 1) { return s; }
  copy_bytes(&ends[0], values + bad, 2 * sizeof(T), stream);
  stream.synchronize();
  s.bad = bad;
  s.here = static_cast<std::int64_t>(ends[0]);
  s.next = static_cast<std::int64_t>(ends[1]);
  return s;
}

}  // namespace detail
DEVCOL_NAMESPACE_END
