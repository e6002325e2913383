// The host backend's fast paths (include/devcol/ops/detail/host/) against the Thrust path the CUDA
// backend runs, on data that hurts: NaN, infinities, signed zeros, extremes, denormals, nulls at
// odd offsets, slices whose mask starts mid-word, sizes around the 64-row block and large enough
// to split over threads. Built only where the fast paths are on (see test/CMakeLists.txt).
#define DEVCOL_TEST_PATH fast_path
#include <catch2/catch.hpp>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <type_traits>
#include <vector>

#include <devcol/column/detail/execution.hpp>
#include <devcol/core/stream.hpp>

#include "host_fast_paths_ops.hpp"
#include "../scoped_knob.hpp"

#if defined(_OPENMP)
#  include <omp.h>
#endif

#if !DEVCOL_HOST_FAST_PATHS
#error "test_host_fast_paths.cpp compares the fast paths: build it with them on"
#endif

namespace devcol_test::fast_paths {
namespace {

/// One input's shape: rows, slice start, nulls (0: none, else about one row in that many).
struct shape {
  std::size_t n;
  std::size_t offset;
  unsigned nulls;
};
/// Sizes around the 64-row block and its vector widths at slice starts that put the mask mid-word
/// (none, odd, past a word); 256 and 1000, which the folds read as four sub-ranges of whole blocks
/// (with no rows after them, and with blocks and rows after them); and one input that two threads
/// split (the fast paths chunk passes of 2^15 rows and more per thread). Small enough for a
/// sanitized debug build.
std::vector<shape> shapes(std::initializer_list<unsigned> nulls) {
  std::vector<shape> out;
  for (std::size_t const n : {0, 1, 63, 64, 65, 129, 256, 1000}) {
    for (std::size_t const offset : {0, 3, 70}) {
      for (unsigned const every : nulls) { out.push_back({n, offset, every}); }
    }
  }
  out.push_back({70001, 3, 10});
  return out;
}

/// Lowers the fast paths' instruction-set cap for one test run and restores it after, so every
/// build this CPU has (baseline, AVX2, AVX-512) is compared with the Thrust path.
class simd_cap {
 public:
  explicit simd_cap(int level) : level_(static_cast<devcol::detail::host::simd_level>(level)) {
    devcol::detail::host::simd_level_cap().store(level_);
  }
  simd_cap(simd_cap const&) = delete;
  simd_cap& operator=(simd_cap const&) = delete;
  ~simd_cap() { devcol::detail::host::simd_level_cap().store(devcol::detail::host::simd_level::avx512); }
  /// Whether this CPU has the build (a run above it would repeat the highest one).
  [[nodiscard]] bool runs_here() const { return level_ <= devcol::detail::host::detected_simd_level(); }

 private:
  devcol::detail::host::simd_level level_;
};

/// Runs the fast paths' kernels with streaming stores on every output (threshold 0), or on none,
/// for one test run, and restores the threshold after: the inputs here are far below it.
class streaming_stores {
 public:
  explicit streaming_stores(bool on)
      : saved_(devcol::detail::host::nontemporal_threshold().exchange(on ? 0 : std::numeric_limits<std::size_t>::max())) {}
  streaming_stores(streaming_stores const&) = delete;
  streaming_stores& operator=(streaming_stores const&) = delete;
  ~streaming_stores() { devcol::detail::host::nontemporal_threshold().store(saved_); }

 private:
  std::size_t saved_;
};

/// The rows each thread of a split pass takes while a four_threads is alive: few, so that the
/// sanitizers run the split tests quickly.
inline constexpr std::size_t split_rows_per_thread = 1024;

/// A bit more than four threads' worth of rows: every thread has rows, the last one fewer.
inline constexpr std::size_t split_rows = 4 * split_rows_per_thread + 100;

/// Four OpenMP threads for one test run, each given split_rows_per_thread rows of a pass (both
/// settings restored after): more chunks than this machine's cores, so that a fast path's work is
/// split as on a larger one.
class four_threads {
 public:
#if defined(_OPENMP)
  four_threads() : rows_(devcol::detail::host::rows_per_thread(), split_rows_per_thread) { omp_set_num_threads(4); }
  four_threads(four_threads const&) = delete;
  four_threads& operator=(four_threads const&) = delete;
  ~four_threads() { omp_set_num_threads(saved_); }

 private:
  int saved_ = omp_get_max_threads();
  devcol_test::scoped_knob rows_;
#endif
};

enum class pool { hurt, summable, small };

template <class T>
T value_from(std::mt19937_64& rng, pool kind) {
  using lim = std::numeric_limits<T>;
  if constexpr (std::is_floating_point_v<T>) {
    switch (rng() % (kind == pool::small ? 1 : 12)) {
      case 1:
        return lim::quiet_NaN();
      case 2:
        return -lim::quiet_NaN();
      case 3:
        return lim::infinity();
      case 4:
        return -lim::infinity();
      case 5:
        return T(-0.0);
      case 6:
        return T(0.0);
      case 7:
        return lim::denorm_min();
      case 8:
        return -lim::denorm_min();
      case 9:
        return kind == pool::hurt ? lim::max() : T(1e6);
      case 10:
        return kind == pool::hurt ? lim::lowest() : T(-1e6);
      default:
        return static_cast<T>(std::uniform_real_distribution<double>(-1000, 1000)(rng));
    }
  } else {
    if (kind == pool::hurt) {
      switch (rng() % 8) {
        case 1:
          return lim::max();
        case 2:
          return lim::lowest();
        case 3:
          return T(0);
        default:
          break;
      }
    }
    if constexpr (std::is_signed_v<T>) {
      return static_cast<T>(static_cast<std::int64_t>(rng() % 201) - 100);
    } else {
      return static_cast<T>(rng() % 201);
    }
  }
}

/// `n` rows at `offset` of a larger column; `null_every` 0: no nulls, else about one in that many.
template <class T>
sliced<T> make_input(std::size_t n, std::size_t offset, unsigned null_every, pool kind, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  sliced<T> in{rows<T>(offset + n + 3), offset, offset + n};
  for (auto& v : in.whole) {
    if (null_every == 0 || rng() % null_every != 0) { v = value_from<T>(rng, kind); }
  }
  return in;
}

/// Every row of one value (or NaN), some null: the inputs whose min and max are an identity.
template <class T>
sliced<T> uniform_input(std::size_t n, T value, bool nulls) {
  sliced<T> in{rows<T>(n + 5), 5, n + 5};
  for (std::size_t i = 0; i < in.whole.size(); ++i) {
    if (!nulls || i % 3 != 0) { in.whole[i] = value; }
  }
  return in;
}

template <class T>
bool same(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return a == b || (std::isnan(a) && std::isnan(b));  // -0.0 == 0.0: either is a right extreme
  } else {
    return a == b;
  }
}
template <class T>
bool same(std::optional<T> const& a, std::optional<T> const& b) {
  return a.has_value() == b.has_value() && (!a || same(*a, *b));
}
template <class T>
bool same_rows(rows<T> const& a, rows<T> const& b) {
  if (a.size() != b.size()) { return false; }
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!same(a[i], b[i])) { return false; }
  }
  return true;
}
/// Sums agree exactly for integers; floating point within rounding (the order of additions
/// differs), NaN and the infinities exactly.
template <class S>
bool close_sum(std::optional<S> const& a, std::optional<S> const& b) {
  if (a.has_value() != b.has_value()) { return false; }
  if (!a) { return true; }
  if constexpr (std::is_floating_point_v<S>) {
    if (!std::isfinite(*a) || !std::isfinite(*b)) { return same(*a, *b); }
    return std::abs(*a - *b) <= 1e-9 * (1 + std::abs(*b)) * 1e3;
  } else {
    return *a == *b;
  }
}

/// Sum and mean where both sides computed them (both empty where neither did), min, max, minmax.
template <class T>
void check_reductions(reductions<T> const& fast, reductions<T> const& thrust) {
  CHECK(close_sum(fast.sum, thrust.sum));
  CHECK(close_sum(fast.mean, thrust.mean));
  CHECK(same(fast.min, thrust.min));
  CHECK(same(fast.max, thrust.max));
  REQUIRE(fast.minmax.has_value() == thrust.minmax.has_value());
  if (fast.minmax) {
    CHECK(same(fast.minmax->first, thrust.minmax->first));
    CHECK(same(fast.minmax->second, thrust.minmax->second));
  }
}

/// Runs `check` once per instruction-set build this CPU has (baseline, AVX2, AVX-512), the fast
/// paths capped at it. The Thrust path's results do not depend on the cap: a caller computes them
/// once, outside, and `check` compares each build's with them.
template <class F>
void for_each_simd_level(F&& check) {
  for (int const level : {0, 1, 2}) {
    simd_cap const cap{level};
    if (!cap.runs_here()) { continue; }
    for (bool const streaming : {false, true}) {
      streaming_stores const stores{streaming};
      INFO("instruction-set build " << static_cast<int>(devcol::detail::host::active_simd_level()) << ", "
                                    << (streaming ? "streaming" : "plain") << " stores");
      check();
    }
  }
}

}  // namespace

// The knobs set through devcol_test::scoped_knob: how many sub-ranges the folds read a column as
// (fold_read_streams(): one or four, which one a CPU gets depends on its vendor), or the row count
// from which argsort's radix records carry 64-bit row numbers (radix_wide_rows_from(): 0 for every
// column's, so that the records of columns past 2^32 rows are tested on small ones).
using devcol_test::scoped_knob;

/// Both record layouts of argsort's radix sort: 32-bit row numbers (what columns below 2^32 rows
/// get), then 64-bit ones.
inline constexpr std::size_t radix_row_layouts[] = {devcol::detail::host::radix_narrow_rows_below, 0};
}  // namespace devcol_test::fast_paths

using namespace devcol_test::fast_paths;  // NOLINT: test brevity

TEMPLATE_TEST_CASE("host fast paths: sum, mean, min, max and minmax give what the Thrust path gives",
                   "[ops][fast_paths][reduce]", std::int8_t, std::int32_t, std::int64_t, float, double) {
  std::uint64_t seed = 1;
  for (auto const [n, offset, nulls] : shapes({0U, 10U, 2U})) {
    INFO("rows " << n << ", offset " << offset << ", nulls 1 in " << nulls);
    // min and max over everything that hurts; sums and means over values whose sum stays finite and
    // in range, where the two paths' different orders of addition round alike
    auto const hurt = make_input<TestType>(n, offset, nulls, pool::hurt, ++seed);
    auto const thrust = thrust_path::reduce(hurt, false);
    auto const summable = make_input<TestType>(n, offset, nulls, pool::summable, ++seed);
    auto const thrust_sums = thrust_path::reduce(summable, true);
    for (std::size_t const streams : {std::size_t{1}, devcol::detail::host::read_streams}) {
      INFO("sub-ranges " << streams);
      scoped_knob const set(devcol::detail::host::fold_read_streams(), streams);
      for_each_simd_level([&] {
        check_reductions(fast_path::reduce(hurt, false), thrust);  // no sums on either side
        check_reductions(fast_path::reduce(summable, true), thrust_sums);
      });
    }
  }
  if constexpr (std::is_floating_point_v<TestType>) {
    using lim = std::numeric_limits<TestType>;
    for (std::size_t const n : {1UL, 64UL, 65UL, 1000UL}) {
      for (bool const nulls : {false, true}) {
        INFO("uniform rows " << n << ", nulls " << nulls);
        for (TestType const v : {lim::quiet_NaN(), lim::infinity(), -lim::infinity(), TestType(-0.0), lim::max()}) {
          auto const in = uniform_input<TestType>(n, v, nulls);
          auto const thrust = thrust_path::reduce(in, true);
          for_each_simd_level([&] { check_reductions(fast_path::reduce(in, true), thrust); });
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("host fast paths: compare, add and cast give what the Thrust path gives",
                   "[ops][fast_paths][elementwise]", std::int8_t, std::int32_t, std::int64_t, float, double) {
  std::uint64_t seed = 100;
  for (auto const [n, offset, nulls] : shapes({0U, 10U})) {
    INFO("rows " << n << ", offset " << offset << ", nulls 1 in " << nulls);
    auto const a = make_input<TestType>(n, offset, nulls, pool::hurt, ++seed);
    auto const b = make_input<TestType>(n, offset + 1, nulls, pool::hurt, ++seed);
    std::mt19937_64 rng(seed);
    TestType const value = value_from<TestType>(rng, pool::hurt);
    // add: values whose sums do not overflow (a signed overflow is undefined)
    constexpr pool addable = std::is_floating_point_v<TestType> ? pool::hurt : pool::small;
    auto const x = make_input<TestType>(n, offset, nulls, addable, ++seed);
    auto const y = make_input<TestType>(n, offset + 3, nulls == 0 ? 3 : nulls, addable, ++seed);
    std::vector<rows<bool>> thrust_scalar;
    std::vector<rows<bool>> thrust_columns;
    for (int op = 0; op < 6; ++op) {
      thrust_scalar.push_back(thrust_path::compare(a, op, value));
      thrust_columns.push_back(thrust_path::compare_columns(a, op, b));
    }
    auto const thrust_sum = thrust_path::add(x, y);
    auto const thrust_twice = thrust_path::add(x, x);
    auto const thrust_cast = thrust_path::cast_to_double(a);
    for_each_simd_level([&] {
      for (int op = 0; op < 6; ++op) {
        INFO("cmp " << op);
        CHECK(same_rows(fast_path::compare(a, op, value), thrust_scalar[static_cast<std::size_t>(op)]));
        CHECK(same_rows(fast_path::compare_columns(a, op, b), thrust_columns[static_cast<std::size_t>(op)]));
      }
      CHECK(same_rows(fast_path::add(x, y), thrust_sum));
      CHECK(same_rows(fast_path::add(x, x), thrust_twice));
      CHECK(same_rows(fast_path::cast_to_double(a), thrust_cast));
    });
  }
}

TEMPLATE_TEST_CASE("host fast paths: gather and filter give what the Thrust path gives", "[ops][fast_paths][selection]",
                   std::int8_t, std::int32_t, std::int64_t, float, double) {
  std::uint64_t seed = 1000;
  for (auto const [n, offset, nulls] : shapes({0U, 10U})) {
    INFO("rows " << n << ", offset " << offset << ", nulls 1 in " << nulls);
    auto const a = make_input<TestType>(n, offset, nulls, pool::hurt, ++seed);
    std::mt19937_64 rng(++seed);
    for (int kind = 0; kind < 3; ++kind) {  // in range; a few out of bounds; null indices
      sliced<std::int32_t> indices{rows<std::int32_t>(n + offset + 2), offset + 1, offset + 1 + n};
      for (auto& i : indices.whole) {
        auto const r = static_cast<std::int64_t>(rng() % (n + 4)) - 2;
        i = kind == 0 ? static_cast<std::int32_t>(n == 0 ? 0 : rng() % n) : static_cast<std::int32_t>(r);
        if (kind == 2 && rng() % 7 == 0) { i.reset(); }
      }
      for (bool const nullify : {false, true}) {
        INFO("indices " << kind << ", nullify " << nullify);
        auto const thrust = thrust_path::gather(a, indices, nullify);
        for_each_simd_level([&] {
          auto const fast = fast_path::gather(a, indices, nullify);
          CHECK(fast.error == thrust.error);
          CHECK(same_rows(fast.values, thrust.values));
        });
      }
    }
    // Two in three rows kept (blocks of 64 partly kept), every row and none: a block whose kept
    // rows end where its thread's result ends is copied with a test per row, the others without.
    for (int const density : {3, 1, 0}) {
      for (unsigned const keep_nulls : {0U, 5U}) {
        sliced<bool> keep{rows<bool>(n + offset + 9), offset + 5, offset + 5 + n};
        for (auto& k : keep.whole) {
          if (keep_nulls == 0 || rng() % keep_nulls != 0) { k = density > 1 ? rng() % 3 != 0 : density == 1; }
        }
        INFO("keep nulls 1 in " << keep_nulls << ", density " << density);
        auto const thrust = thrust_path::filter(a, keep);
        for_each_simd_level([&] { CHECK(same_rows(fast_path::filter(a, keep), thrust)); });
      }
    }
  }
}

// The filter splits its rows over the threads and writes each thread's kept rows and their
// validity bits where the threads before it stop: the result words that two threads share are
// merged after. Four threads over a bit more than four chunks' worth of rows, with one thread that
// keeps nothing and one that keeps three rows (its bits within one result word).
TEMPLATE_TEST_CASE("host fast paths: a filter split over threads gives what the Thrust path gives",
                   "[ops][fast_paths][selection]", std::int8_t, std::int64_t, double) {
  [[maybe_unused]] four_threads const four;
  std::size_t const n = split_rows;
  std::size_t const per = ((n + 3) / 4 + 63) / 64 * 64;  // the rows of a thread (dispatch.hpp's run_chunks)
  std::uint64_t seed = 7000;
  for (std::size_t const offset : {std::size_t{0}, std::size_t{5}}) {
    for (unsigned const nulls : {0U, 10U}) {
      for (unsigned const keep_nulls : {0U, 5U}) {
        INFO("offset " << offset << ", nulls 1 in " << nulls << ", keep nulls 1 in " << keep_nulls);
        auto const a = make_input<TestType>(n, offset, nulls, pool::hurt, ++seed);
        std::mt19937_64 rng(++seed);
        sliced<bool> keep{rows<bool>(n + offset + 9), offset + 3, offset + 3 + n};
        for (std::size_t i = 0; i < n; ++i) {
          bool kept = rng() % 3 != 0;
          if (i >= per && i < 2 * per) { kept = false; }  // a thread that keeps nothing
          if (i >= 2 * per && i < 3 * per) { kept = i == 2 * per + 7 || i == 2 * per + 9 || i == 2 * per + 100; }
          std::optional<bool> flag = kept;
          if (keep_nulls != 0 && rng() % keep_nulls == 0) { flag.reset(); }
          keep.whole[offset + 3 + i] = flag;
        }
        auto const thrust = thrust_path::filter(a, keep);
        for_each_simd_level([&] { CHECK(same_rows(fast_path::filter(a, keep), thrust)); });
      }
    }
  }
}

namespace devcol_test::fast_paths {
namespace {
/// Whether two scans of `in` agree: integers and min / max exactly (-0.0 and 0.0 alike); floating-
/// point sums within the rounding of a different order of additions (2 k u times the sum of the
/// magnitudes of the k rows so far, u the unit roundoff), NaN and the infinities exactly.
template <class T>
bool same_scan(sliced<T> const& in, rows<T> const& a, rows<T> const& b, bool sum) {
  if (a.size() != b.size() || a.size() != in.end - in.begin) { return false; }
  double magnitude = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].has_value() != b[i].has_value()) { return false; }
    auto const& x = in.whole[in.begin + i];
    if (x && std::isfinite(static_cast<double>(*x))) { magnitude += std::abs(static_cast<double>(*x)); }
    if (!a[i]) { continue; }
    if constexpr (std::is_floating_point_v<T>) {
      if (sum && std::isfinite(*a[i]) && std::isfinite(*b[i])) {
        double const bound = 2.0 * static_cast<double>(i + 1) * std::numeric_limits<T>::epsilon() * magnitude;
        if (std::abs(static_cast<double>(*a[i]) - static_cast<double>(*b[i])) > bound) { return false; }
        continue;
      }
    }
    if (!same(*a[i], *b[i])) { return false; }
  }
  return true;
}

/// Every scan (sum, min, max; inclusive and exclusive) against the Thrust path's, in every
/// instruction-set build: min and max of `hurt`; sums of `hurt` too for integers, which wrap alike
/// on both paths past the type's range, and of `summable` for floating point, whose extremes would
/// overflow to infinity or not depending on the order of the additions.
template <class T>
void check_scans(sliced<T> const& hurt, sliced<T> const& summable) {
  for (int const op : {0, 1, 2}) {  // devcol::scan_op: sum, min, max
    auto const& in = op == 0 && std::is_floating_point_v<T> ? summable : hurt;
    for (bool const inclusive : {true, false}) {
      INFO("scan op " << op << ", inclusive " << inclusive);
      auto const thrust = thrust_path::scan(in, op, inclusive);
      for_each_simd_level([&] { CHECK(same_scan(in, fast_path::scan(in, op, inclusive), thrust, op == 0)); });
    }
  }
}
}  // namespace
}  // namespace devcol_test::fast_paths

// The scans run each 64-row block as a SIMD prefix, rows past the last whole block one at a time,
// and, over several threads, each thread's chunk from the fold of the chunks before it.
TEMPLATE_TEST_CASE("host fast paths: scans give what the Thrust path gives", "[ops][fast_paths][scan]", std::int8_t,
                   std::int32_t, std::int64_t, float, double) {
  std::uint64_t seed = 5000;
  for (auto const [n, offset, nulls] : shapes({0U, 10U, 2U})) {
    INFO("rows " << n << ", offset " << offset << ", nulls 1 in " << nulls);
    auto const hurt = make_input<TestType>(n, offset, nulls, pool::hurt, ++seed);
    check_scans(hurt, make_input<TestType>(n, offset, nulls, pool::summable, ++seed));
  }
  if constexpr (std::is_floating_point_v<TestType>) {  // a min or max scan whose rows are all NaN or null
    for (bool const nulls : {false, true}) {
      INFO("every row NaN, nulls " << nulls);
      auto const nan = uniform_input<TestType>(200, std::numeric_limits<TestType>::quiet_NaN(), nulls);
      check_scans(nan, nan);
    }
  }
}

TEMPLATE_TEST_CASE("host fast paths: a scan split over threads gives what the Thrust path gives",
                   "[ops][fast_paths][scan]", std::int8_t, std::int64_t, double) {
  [[maybe_unused]] four_threads const four;
  // Not split_rows: the threads take tiles of 256 KiB (scan.hpp's scan_tile_rows), and these rows
  // make five of them for 8-byte values.
  std::size_t const n = 4 * (std::size_t{1} << 15) + 100;
  std::uint64_t seed = 6000;
  for (unsigned const nulls : {0U, 10U}) {
    INFO("nulls 1 in " << nulls);
    auto const hurt = make_input<TestType>(n, 5, nulls, pool::hurt, ++seed);
    check_scans(hurt, make_input<TestType>(n, 5, nulls, pool::summable, ++seed));
  }
}

namespace devcol_test::fast_paths {
namespace {
/// The row numbers a stable sort puts `in`'s rows in, as Arrow's sort_indices orders them: null
/// rows first or last, NaN beside them, -0.0 and 0.0 equal; equal rows in row order.
template <class T>
std::vector<std::int64_t> stable_sorted(sliced<T> const& in, bool descending, bool nulls_first) {
  std::vector<std::int64_t> order(in.end - in.begin);
  for (std::size_t i = 0; i < order.size(); ++i) { order[i] = static_cast<std::int64_t>(i); }
  auto const group = [&](std::int64_t i) {  // 0 a number, 1 NaN, 2 null
    auto const& v = in.whole[in.begin + static_cast<std::size_t>(i)];
    if (!v) { return 2; }
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(*v)) { return 1; }
    }
    return 0;
  };
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    int const ga = group(a);
    int const gb = group(b);
    if (ga != gb) { return nulls_first ? gb < ga : ga < gb; }
    if (ga != 0) { return false; }
    T const x = *in.whole[in.begin + static_cast<std::size_t>(a)];
    T const y = *in.whole[in.begin + static_cast<std::size_t>(b)];
    return descending ? y < x : x < y;
  });
  return order;
}

/// The first position where two orders differ (-1 for none; the shorter one's size where one is a
/// prefix of the other): what a failing check shows instead of two vectors of 10^5 row numbers.
inline std::int64_t first_difference(std::vector<std::int64_t> const& a, std::vector<std::int64_t> const& b) {
  auto const [x, y] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  return x == a.end() && y == b.end() ? -1 : static_cast<std::int64_t>(x - a.begin());
}

/// Whether two columns' rows are the same bit for bit: NaN payloads and signs, and -0.0 against 0.0.
template <class T>
bool same_bits(rows<T> const& a, rows<T> const& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](std::optional<T> const& x, std::optional<T> const& y) {
    if (x.has_value() != y.has_value()) { return false; }
    return !x || std::memcmp(&*x, &*y, sizeof(T)) == 0;
  });
}

/// `in`'s rows in `order` (row numbers of the slice).
template <class T>
rows<T> rows_in(sliced<T> const& in, std::vector<std::int64_t> const& order) {
  rows<T> out;
  for (auto const i : order) { out.push_back(in.whole[in.begin + static_cast<std::size_t>(i)]); }
  return out;
}

/// Inputs for argsort: the hurtful pool (extremes: every key byte differs), a few values (one byte
/// differs: one radix pass), a wider range (two or three), one value (no pass at all), and, with
/// nulls, every row null.
template <class T>
std::vector<sliced<T>> sort_inputs(std::size_t n, std::size_t offset, unsigned nulls, std::uint64_t seed) {
  std::vector<sliced<T>> out{make_input<T>(n, offset, nulls, pool::hurt, seed)};
  for (std::uint64_t const range : {std::uint64_t{200}, std::uint64_t{60000}}) {
    std::mt19937_64 rng(seed + range);
    sliced<T> in{rows<T>(offset + n + 3), offset, offset + n};
    for (auto& v : in.whole) {
      if (nulls == 0 || rng() % nulls != 0) { v = static_cast<T>(rng() % range); }
    }
    out.push_back(std::move(in));
  }
  out.push_back(uniform_input<T>(n, T(1), nulls != 0));
  if (nulls != 0) { out.push_back(sliced<T>{rows<T>(offset + n + 3), offset, offset + n}); }
  return out;
}
}  // namespace
}  // namespace devcol_test::fast_paths

// The radix sort (host/radix_sort.hpp): against the Thrust path (a radix or merge sort of its own)
// and against std::stable_sort with Arrow's order, for both orders and null placements, on inputs
// that take every number of passes, on sizes that one thread and two sort.
TEMPLATE_TEST_CASE("host fast paths: argsort and sort give what the Thrust path and std::stable_sort give",
                   "[ops][fast_paths][sort]", bool, std::int8_t, std::uint16_t, std::int32_t, std::int64_t, float,
                   double) {
  std::uint64_t seed = 9000;
  for (auto const [n, offset, nulls] : shapes({0U, 10U})) {
    if (n > 1000) { continue; }  // the test below splits large inputs over threads
    std::size_t input = 0;
    for (auto const& a : sort_inputs<TestType>(n, offset, nulls, ++seed)) {
      for (bool const descending : {false, true}) {
        for (bool const nulls_first : {false, true}) {
          auto const expected = stable_sorted(a, descending, nulls_first);
          auto const thrust = thrust_path::argsort(a, descending, nulls_first);
          for (std::size_t const wide_from : radix_row_layouts) {
            INFO("rows " << n << ", offset " << offset << ", nulls 1 in " << nulls << ", input " << input
                         << ", descending " << descending << ", nulls first " << nulls_first
                         << ", 64-bit row numbers from " << wide_from << " rows");
            scoped_knob const set(devcol::detail::host::radix_wide_rows_from(), wide_from);
            auto const fast = fast_path::argsort(a, descending, nulls_first);
            CHECK(first_difference(fast, thrust) == -1);
            CHECK(first_difference(fast, expected) == -1);
            // sort: the same rows, bit for bit (a NaN keeps its payload, -0.0 its sign)
            auto const sorted = fast_path::sort(a, descending, nulls_first);
            CHECK(same_bits(sorted, rows_in(a, expected)));
            CHECK(same_bits(sorted, thrust_path::sort(a, descending, nulls_first)));
          }
        }
      }
      ++input;
    }
  }
}

// Four threads (more than the machine's cores), each chunk's rows of one bucket placed after the
// chunks before it.
TEMPLATE_TEST_CASE("host fast paths: argsort and sort split over threads give what std::stable_sort gives",
                   "[ops][fast_paths][sort]", std::int8_t, std::int32_t, std::int64_t, float, double) {
  [[maybe_unused]] four_threads const four;
  std::size_t const n = split_rows;
  std::uint64_t seed = 9500;
  for (unsigned const nulls : {0U, 10U}) {
    for (auto const& a : sort_inputs<TestType>(n, 5, nulls, ++seed)) {
      for (bool const descending : {false, true}) {
        INFO("nulls 1 in " << nulls << ", descending " << descending);
        for (bool const nulls_first : {false, true}) {
          auto const expected = stable_sorted(a, descending, nulls_first);
          for (std::size_t const wide_from : radix_row_layouts) {
            INFO("nulls first " << nulls_first << ", 64-bit row numbers from " << wide_from << " rows");
            scoped_knob const set(devcol::detail::host::radix_wide_rows_from(), wide_from);
            CHECK(first_difference(fast_path::argsort(a, descending, nulls_first), expected) == -1);
            CHECK(same_bits(fast_path::sort(a, descending, nulls_first), rows_in(a, expected)));
          }
        }
      }
    }
  }
}

namespace devcol_test::fast_paths {
namespace {
/// An interval of row numbers, and whether it was folded from adjacent ones in order: the value of
/// a reduction that is associative but does not commute, so that a fold that skips, repeats or
/// reorders rows (or puts `init` anywhere but first) says so.
struct row_interval {
  std::size_t begin = 0;
  std::size_t end = 0;
  bool in_order = true;
};
struct row_as_interval {
  row_interval operator()(std::size_t i) const noexcept { return {i, i + 1, true}; }
};
struct join_intervals {
  row_interval operator()(row_interval const& a, row_interval const& b) const noexcept {
    return {a.begin, b.end, a.in_order && b.in_order && a.end == b.begin};
  }
};
}  // namespace
}  // namespace devcol_test::fast_paths

// The executor's launches that the host fast paths run as loops over chunks of rows (transform_n,
// transform_reduce_n, find_first_n: what every kind's Arrow import checks and null counts go
// through), split over four threads, against the standard library's algorithms.
TEST_CASE("host fast paths: the executor's element-wise, reducing and searching launches split over threads",
          "[ops][fast_paths][executor]") {
  [[maybe_unused]] four_threads const four;
  devcol::stream s;
  devcol::detail::executor exec(s);
  std::mt19937_64 rng(9700);
  for (std::size_t const n : {std::size_t{0}, std::size_t{1}, std::size_t{3}, split_rows_per_thread - 1,
                              split_rows_per_thread * 2, split_rows}) {
    INFO("rows " << n);
    std::vector<std::int64_t> a(n);
    std::vector<std::int64_t> b(n);
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = static_cast<std::int64_t>(rng() % 2001) - 1000;
      b[i] = static_cast<std::int64_t>(rng());
    }

    std::vector<std::int64_t> out(n, -1);
    std::vector<std::int64_t> expected(n);
    auto const twice_plus_one = [](std::int64_t v) { return 2 * v + 1; };
    devcol::detail::transform_n(exec, a.data(), n, out.data(), twice_plus_one);
    std::transform(a.begin(), a.end(), expected.begin(), twice_plus_one);
    CHECK(out == expected);
    auto const wrapping_sum = [](std::int64_t x, std::int64_t y) {
      return static_cast<std::int64_t>(static_cast<std::uint64_t>(x) + static_cast<std::uint64_t>(y));
    };
    devcol::detail::transform_n(exec, a.data(), b.data(), n, out.data(), wrapping_sum);
    std::transform(a.begin(), a.end(), b.begin(), expected.begin(), wrapping_sum);
    CHECK(out == expected);

    auto const identity = [](std::int64_t v) { return v; };
    CHECK(devcol::detail::transform_reduce_n(exec, a.data(), n, identity, std::int64_t{7}, std::plus<>{}) ==
          std::accumulate(a.begin(), a.end(), std::int64_t{7}));
    row_interval const folded = devcol::detail::transform_reduce_n(
        exec, thrust::counting_iterator<std::size_t>(0), n, row_as_interval{}, row_interval{}, join_intervals{});
    CHECK(folded.begin == 0);
    CHECK(folded.end == n);
    CHECK(folded.in_order);
    auto const negative = [](std::int64_t v) { return v < 0; };
    CHECK(devcol::detail::count_if_n(exec, a.data(), n, negative) ==
          static_cast<std::size_t>(std::count_if(a.begin(), a.end(), negative)));

    // Bad rows nowhere, at either end, at each chunk's first and last row, and a random few.
    std::vector<std::vector<std::size_t>> bad_sets{{}};
    if (n > 0) {
      bad_sets.push_back({0});
      bad_sets.push_back({n - 1});
      bad_sets.push_back({n / 2, n - 1});
      for (std::size_t const chunks : {std::size_t{2}, std::size_t{4}}) {
        for (std::size_t c = 1; c < chunks; ++c) {
          std::size_t const first_of_chunk = devcol::detail::host::chunk_begin(n, chunks, c);
          if (first_of_chunk < n) { bad_sets.push_back({first_of_chunk, n - 1}); }
          if (first_of_chunk > 0) { bad_sets.push_back({first_of_chunk - 1}); }
        }
      }
      for (int k = 0; k < 4; ++k) { bad_sets.push_back({rng() % n, rng() % n, rng() % n}); }
    }
    for (auto const& bad_rows : bad_sets) {
      std::vector<unsigned char> bad(n, 0);
      for (std::size_t const row : bad_rows) { bad[row] = 1; }
      auto const is_bad = [rows = bad.data()](std::size_t i) { return rows[i] != 0; };
      auto const expected_row =
          static_cast<std::size_t>(std::find(bad.begin(), bad.end(), 1) - bad.begin());
      INFO("first bad row " << expected_row);
      CHECK(devcol::detail::find_first_n(exec, n, is_bad) == expected_row);
    }
  }
}
