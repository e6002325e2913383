// The ops the host fast-path tests compare, run through whichever path the including translation
// unit compiles: test_host_fast_paths.cpp includes it with the fast paths (namespace fast_path),
// host_fast_paths_reference.cpp with DEVCOL_HOST_FAST_PATHS=0, Thrust's path as the CUDA backend
// runs it (namespace thrust_path). The two builds of devcol live in different inline namespaces,
// so only standard types cross between them.
#pragma once

#include <devcol/column/factories.hpp>
#include <devcol/column/to_host.hpp>
#include <devcol/ops/cast.hpp>
#include <devcol/ops/compare.hpp>
#include <devcol/ops/filter.hpp>
#include <devcol/ops/gather.hpp>
#include <devcol/ops/null_mask.hpp>
#include <devcol/ops/reduce.hpp>
#include <devcol/ops/scan.hpp>
#include <devcol/ops/sort.hpp>
#include <devcol/ops/transform.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if !defined(DEVCOL_TEST_PATH)
#  error "define DEVCOL_TEST_PATH to the namespace of this build of the ops"
#endif

namespace devcol_test::fast_paths {

template <class T>
using rows = std::vector<std::optional<T>>;

/// Rows [begin, end) of `whole`: the ops see a slice, its mask at an odd bit offset.
template <class T>
struct sliced {
  rows<T> whole;
  std::size_t begin = 0;
  std::size_t end = 0;
};

template <class T>
using sum_t = std::conditional_t<std::is_floating_point_v<T>, double,
                                 std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>>;

template <class T>
struct reductions {
  std::optional<sum_t<T>> sum;
  std::optional<double> mean;
  std::optional<T> min;
  std::optional<T> max;
  std::optional<std::pair<T, T>> minmax;
};

/// What gather gave: its rows, or the message it threw, less where it was thrown from.
template <class T>
struct gathered {
  rows<T> values;
  std::string error;
};

/// a + b, wrapping for integers: transform runs the op on every row, the values under null rows
/// (under_null()'s extremes) too, as libcudf's binary ops do, where a signed overflow would be
/// undefined.
template <class T>
struct add_values {
  DEVCOL_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    } else {
      return static_cast<T>(a + b);
    }
  }
};

/// The Thrust path's build of the ops below (host_fast_paths_reference.cpp instantiates them).
namespace thrust_path {
template <class T>
reductions<T> reduce(sliced<T> const& in, bool sums);
template <class T>
rows<bool> compare(sliced<T> const& a, int op, T value);
template <class T>
rows<bool> compare_columns(sliced<T> const& a, int op, sliced<T> const& b);
template <class T>
rows<T> add(sliced<T> const& a, sliced<T> const& b);
template <class T>
rows<double> cast_to_double(sliced<T> const& a);
template <class T>
gathered<T> gather(sliced<T> const& a, sliced<std::int32_t> const& indices, bool nullify);
template <class T>
rows<T> filter(sliced<T> const& a, sliced<bool> const& keep);
template <class T>
rows<T> scan(sliced<T> const& a, int op, bool inclusive);
template <class T>
std::vector<std::int64_t> argsort(sliced<T> const& a, bool descending, bool nulls_first);
template <class T>
rows<T> sort(sliced<T> const& a, bool descending, bool nulls_first);
}  // namespace thrust_path

namespace DEVCOL_TEST_PATH {

/**
 * What a null row of the tests' columns holds underneath: an extreme that changes any sum, min,
 * max, comparison or order it reaches (the pools hold it only among valid rows), so a kernel that
 * folds, compares or copies a null row's value, instead of the identity or nothing, is caught.
 */
template <class T>
T under_null(std::size_t row) {
  using lim = std::numeric_limits<T>;
  if constexpr (std::is_same_v<T, bool>) {
    return row % 2 == 0;
  } else if constexpr (std::is_floating_point_v<T>) {
    return row % 3 == 0 ? lim::quiet_NaN() : row % 3 == 1 ? lim::infinity() : -lim::infinity();
  } else {
    return row % 2 == 0 ? lim::max() : lim::lowest();
  }
}

/// The column of `in`'s rows, a null row holding under_null()'s value.
template <class T>
devcol::column<T> make(sliced<T> const& in) {
  std::vector<T> values(in.whole.size());
  std::vector<bool> valid(in.whole.size());
  bool nulls = false;
  for (std::size_t i = 0; i < in.whole.size(); ++i) {
    valid[i] = in.whole[i].has_value();
    values[i] = valid[i] ? *in.whole[i] : under_null<T>(i);
    nulls = nulls || !valid[i];
  }
  auto col = devcol::make_column<T>(values);
  if (nulls) { col = devcol::set_null_mask(col, devcol::make_column<bool>(valid)); }
  return col.slice(in.begin, in.end);
}

/// `sums`: also sum and mean (not over extremes, whose floating-point sums and integer means round
/// differently in the two paths' orders of addition).
template <class T>
reductions<T> reduce(sliced<T> const& in, bool sums) {
  auto const col = make(in);
  reductions<T> out{{}, {}, devcol::min(col), devcol::max(col), devcol::minmax(col)};
  if (sums) {
    out.sum = devcol::sum(col);
    out.mean = devcol::mean(col);
  }
  return out;
}

/// `op` is devcol::cmp as an int (the enum's type differs between the two builds).
template <class T>
rows<bool> compare(sliced<T> const& a, int op, T value) {
  return devcol::to_host(devcol::compare(make(a), static_cast<devcol::cmp>(op), value));
}

template <class T>
rows<bool> compare_columns(sliced<T> const& a, int op, sliced<T> const& b) {
  return devcol::to_host(devcol::compare(make(a), static_cast<devcol::cmp>(op), make(b)));
}

template <class T>
rows<T> add(sliced<T> const& a, sliced<T> const& b) {
  return devcol::to_host(devcol::transform(make(a), make(b), add_values<T>{}));
}

template <class T>
rows<double> cast_to_double(sliced<T> const& a) {
  return devcol::to_host(devcol::cast<double>(make(a)));
}

template <class T>
gathered<T> gather(sliced<T> const& a, sliced<std::int32_t> const& indices, bool nullify) {
  try {
    auto const out = devcol::gather(make(a), make(indices), {},
                                    nullify ? devcol::out_of_bounds::nullify : devcol::out_of_bounds::throw_error);
    return {devcol::to_host(out), {}};
  } catch (devcol::logic_error const& e) {
    std::string const what = e.what();
    return {{}, what.substr(0, what.find(" [at "))};
  }
}

template <class T>
rows<T> filter(sliced<T> const& a, sliced<bool> const& keep) {
  return devcol::to_host(devcol::filter(make(a), make(keep)));
}

/// `op` is devcol::scan_op as an int (the enum's type differs between the two builds).
template <class T>
rows<T> scan(sliced<T> const& a, int op, bool inclusive) {
  auto const col = make(a);
  auto const kind = static_cast<devcol::scan_op>(op);
  return devcol::to_host(inclusive ? devcol::inclusive_scan(col, kind) : devcol::exclusive_scan(col, kind));
}

/// argsort's row numbers (it makes no nulls).
template <class T>
std::vector<std::int64_t> argsort(sliced<T> const& a, bool descending, bool nulls_first) {
  auto const order = devcol::argsort(make(a), descending ? devcol::order::descending : devcol::order::ascending, {},
                                     nulls_first ? devcol::null_order::first : devcol::null_order::last);
  std::vector<std::int64_t> out;
  for (auto const& i : devcol::to_host(order)) {
    if (!i) { throw std::logic_error("argsort made a null row number"); }
    out.push_back(*i);
  }
  return out;
}

template <class T>
rows<T> sort(sliced<T> const& a, bool descending, bool nulls_first) {
  return devcol::to_host(devcol::sort(make(a), descending ? devcol::order::descending : devcol::order::ascending, {},
                                      nulls_first ? devcol::null_order::first : devcol::null_order::last));
}

}  // namespace DEVCOL_TEST_PATH
}  // namespace devcol_test::fast_paths
