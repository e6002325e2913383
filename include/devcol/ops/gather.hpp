/**
 * @file gather.hpp
 * @brief `devcol::gather` (Arrow's take) of every column kind, and `devcol::scatter` of
 * fixed-width columns.
 *
 * Each kind's gather is in ops/detail/gather/<kind>.hpp: fixed width moves values, strings scan
 * their new lengths into offsets then copy bytes, fixed-size binary moves `width()` bytes a row,
 * decimals gather their unscaled values, lists gather their child through a row map, structs gather
 * every field, dictionaries gather their indices. The `any_column` gather here dispatches once on
 * the kind; a kind without a gather is a compile error there, not a run-time throw.
 */
#pragma once

#include <devcol/column/any_column.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/width_word.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/gather/binary_view.hpp>
#include <devcol/ops/detail/gather/decimal.hpp>
#include <devcol/ops/detail/gather/fixed_size_binary.hpp>
#include <devcol/ops/detail/gather/fixed_width.hpp>
#include <devcol/ops/detail/gather/nested.hpp>
#include <devcol/ops/detail/gather/run_end_encoded.hpp>
#include <devcol/ops/detail/gather/strings.hpp>
#include <devcol/ops/detail/gather/union.hpp>
#include <devcol/ops/detail/kinds.hpp>
#include <devcol/ops/detail/null_kind.hpp>

#include <concepts>
#include <type_traits>
#include <variant>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief gather() of any column: dispatches once on its kind (`devcol::visit`) to that kind's gather
 * (see there for what it costs, when it synchronises and what it allocates, from `col`'s resource).
 * Every kind `any_column` holds has a gather; a kind without one fails to compile here.
 * @tparam Policy the buffer policy of `col` and of the result
 * @tparam I the integral type of the indices, of at most 64 bits
 * @tparam IndexPolicy the buffer policy of `indices` (any)
 * @param col the column to gather from
 * @param indices the source row of each result row; a null index gives a null row
 * @param stream the stream the work is ordered on
 * @param policy what an index outside [0, col's size) does: throw, or give a null row
 * @throws devcol::logic_error naming the first out-of-bounds index, with out_of_bounds::throw_error
 */
template <buffer_policy Policy, std::integral I, class IndexPolicy>
any_column<Policy> gather(any_column<Policy> const& col, column<I, IndexPolicy> const& indices, stream_ref stream,
                          out_of_bounds policy) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return devcol::visit(
      [&](auto const& c) -> any_column<Policy> {
        using C = std::decay_t<decltype(c)>;
        if constexpr (requires { gather(c, indices, stream, policy); }) {
          return gather(c, indices, stream, policy);
        } else {
          static_assert(detail::kind_has_no<C>,
                        "devcol::gather(any_column): a kind of any_column has no gather; every kind needs one, in "
                        "ops/detail/gather/<kind>.hpp");
        }
      },
      col);
}

/**
 * @brief Stands for scatter() of a kind without one (every kind but fixed width): a compile error.
 * @tparam C the column kind, one without a scatter
 */
template <class C, class... Args>
  requires(detail::is_any_kind<C> && !detail::is_plain_column<C>)
void scatter(C const&, Args const&...) {
  static_assert(detail::kind_has_no<C>,
                "devcol::scatter: this column kind has no scatter (scatter writes into fixed-width columns only)");
}

#if DEVCOL_USE_PRECOMPILED
// Held by the devcol_precompiled library (core/config.hpp): gathers of every kind by 32- and
// 64-bit indices.
DEVCOL_EXTERN_TEMPLATE any_column<default_policy> gather<default_policy, std::int32_t, default_policy>(
    any_column<default_policy> const&, column<std::int32_t, default_policy> const&, stream_ref, out_of_bounds);
DEVCOL_EXTERN_TEMPLATE any_column<default_policy> gather<default_policy, std::int64_t, default_policy>(
    any_column<default_policy> const&, column<std::int64_t, default_policy> const&, stream_ref, out_of_bounds);
// And the fixed-width body of each width by 32- and 64-bit indices, which gather() of every
// fixed-width type that moves as its width's word runs.
#  define DEVCOL_GATHER_WORD(W)                                                                             \
    DEVCOL_EXTERN_TEMPLATE column<W, default_policy>                                                        \
    detail::gather_fixed_width<W, default_policy, std::int32_t, default_policy>(                            \
        column<W, default_policy> const&, column<std::int32_t, default_policy> const&, stream_ref, out_of_bounds); \
    DEVCOL_EXTERN_TEMPLATE column<W, default_policy>                                                        \
    detail::gather_fixed_width<W, default_policy, std::int64_t, default_policy>(                            \
        column<W, default_policy> const&, column<std::int64_t, default_policy> const&, stream_ref, out_of_bounds);
DEVCOL_FOR_EACH_WIDTH_WORD(DEVCOL_GATHER_WORD)
#  undef DEVCOL_GATHER_WORD
#endif

DEVCOL_NAMESPACE_END
