// Random inputs and host references for the ops tests.
#pragma once

#include "../support.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

namespace devcol_test::ops {

template <class T>
using model = std::vector<std::optional<T>>;

/// The sizes every op is checked at (1e6 only where the test says so: debug builds are slow).
inline constexpr std::size_t sizes[] = {0, 1, 63, 64, 65, 1000};
/// Row offsets of the inputs: not sliced, sliced off a byte boundary, sliced past a word.
inline constexpr std::size_t offsets[] = {0, 3, 70};

template <class T>
T random_value(std::mt19937_64& rng) {
  if constexpr (std::is_same_v<T, bool>) {
    return rng() % 2 == 0;
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(std::uniform_real_distribution<double>(-100, 100)(rng));
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(rng() % 100);  // small: ties in sorts, no overflow in sums
  } else {
    // Timestamps, dates, times of day, durations: counts either side of zero, so that a sort by
    // counts must order signed values.
    auto const count = static_cast<typename T::rep>(static_cast<std::int64_t>(rng() % 1000) - 500);
    if constexpr (requires { typename T::duration; }) {
      return T{typename T::duration{count}};
    } else {
      return T{count};
    }
  }
}

/// A column of `n` random rows (about a third null when `nulls`), taken as a slice at `offset` of a
/// larger column, and its host model.
template <class T>
std::pair<devcol::column<T>, model<T>> random_column(std::size_t n, std::size_t offset, bool nulls, unsigned seed) {
  std::mt19937_64 rng(seed);
  model<T> all(offset + n + 5);
  for (auto& v : all) {
    if (!nulls || rng() % 3 != 0) { v = random_value<T>(rng); }
  }
  auto whole = devcol::make_column<T>(all);
  return {whole.slice(offset, offset + n), model<T>(all.begin() + static_cast<std::ptrdiff_t>(offset),
                                                    all.begin() + static_cast<std::ptrdiff_t>(offset + n))};
}

template <class T>
std::size_t nulls_of(model<T> const& m) {
  return static_cast<std::size_t>(std::count(m.begin(), m.end(), std::nullopt));
}

/// Checks a column against its model: values, validity and the null count.
template <class T, class P>
void check_equal(devcol::column<T, P> const& got, model<T> const& expected) {
  REQUIRE(got.size() == expected.size());
  CHECK(got.null_count() == nulls_of(expected));
  CHECK(devcol::to_host(got) == expected);
}

}  // namespace devcol_test::ops
