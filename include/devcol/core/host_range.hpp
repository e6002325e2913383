/**
 * @file host_range.hpp
 * @brief The range concepts the factories and the null-mask helpers constrain host inputs with,
 * spelled with `<iterator>`'s customisation points (`std::ranges::begin`, `end`, `size`, `data`),
 * which the standard makes available there: `<ranges>` itself, with its views and adaptors, is a
 * tenth of a second of every consumer's compile that these few names do not need. Public so that
 * the column and ops layers need not reach into the core's `detail/` folder; its names stay in
 * `devcol::detail`, since callers pass any range and never name them.
 */
#pragma once

#include <devcol/core/config.hpp>

#include <concepts>
#include <iterator>
#include <type_traits>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// What `std::ranges::begin` returns for an lvalue `R` (`std::ranges::iterator_t<R>`).
/// @tparam R a range type
template <class R>
using host_range_iterator_t = decltype(std::ranges::begin(std::declval<R&>()));

/// `std::ranges::input_range<R>`: `begin` and `end` on an lvalue, the iterator an input iterator
/// and the end its sentinel.
/// @tparam R a range type
template <class R>
concept host_input_range = requires(R& r) {
  std::ranges::begin(r);
  std::ranges::end(r);
} && std::input_iterator<host_range_iterator_t<R>> &&
    std::sentinel_for<decltype(std::ranges::end(std::declval<R&>())), host_range_iterator_t<R>>;

/// `std::ranges::range_value_t<R>`: the value type of the range's iterator.
/// @tparam R a range type satisfying host_input_range
template <host_input_range R>
using host_range_value_t = std::iter_value_t<host_range_iterator_t<R>>;

/// `std::ranges::sized_range<R>`: an input range whose size `std::ranges::size` gives in O(1).
/// @tparam R a range type
template <class R>
concept host_sized_range = host_input_range<R> && requires(R& r) { std::ranges::size(r); };

/// `std::ranges::contiguous_range<R>`: elements adjacent in memory, `std::ranges::data` pointing at
/// the first.
/// @tparam R a range type
template <class R>
concept host_contiguous_range =
    host_input_range<R> && std::contiguous_iterator<host_range_iterator_t<R>> && requires(R& r) {
      { std::ranges::data(r) } -> std::same_as<std::add_pointer_t<std::iter_reference_t<host_range_iterator_t<R>>>>;
    };

}  // namespace detail
DEVCOL_NAMESPACE_END
