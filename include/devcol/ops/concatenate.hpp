/**
 * @file concatenate.hpp
 * @brief `devcol::concatenate` of every column kind: the rows of several columns of one type, one
 * after the other.
 *
 * Each kind's concatenate is in ops/detail/concatenate/<kind>.hpp: fixed width and fixed-size
 * binary copy their values, strings rebase their offsets and copy bytes, decimals concatenate
 * their unscaled values, lists and structs concatenate their children, dictionaries concatenate
 * their values and move their indices. The null count of a result is the inputs' sum (nothing is
 * recounted). The `any_column` concatenate here dispatches once on the first input's kind; a kind
 * without a concatenate is a compile error there, not a run-time throw.
 */
#pragma once

#include <devcol/column/any_column.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/concatenate/binary_view.hpp>
#include <devcol/ops/detail/concatenate/decimal.hpp>
#include <devcol/ops/detail/concatenate/fixed_size_binary.hpp>
#include <devcol/ops/detail/concatenate/fixed_width.hpp>
#include <devcol/ops/detail/concatenate/nested.hpp>
#include <devcol/ops/detail/concatenate/run_end_encoded.hpp>
#include <devcol/ops/detail/concatenate/strings.hpp>
#include <devcol/ops/detail/concatenate/union.hpp>
#include <devcol/ops/detail/kinds.hpp>
#include <devcol/ops/detail/null_kind.hpp>

#include <span>
#include <type_traits>
#include <variant>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief concatenate() of any columns, all of the first's type: each input's alternative is copied
 * out (O(1): buffers are shared), then one dispatch on the kind (`devcol::visit`) to that kind's
 * concatenate (see there for its costs), in memory from the first's resource. Every kind
 * `any_column` holds has a concatenate; a kind without one fails to compile here. An empty list
 * gives an empty int8 column.
 * @tparam Policy the buffer policy of the inputs and of the result
 * @param cols the columns, in order
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both types when an input's type differs from the first's
 */
template <buffer_policy Policy>
any_column<Policy> concatenate(std::span<any_column<Policy> const> cols, stream_ref stream) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (cols.empty()) { return {}; }
  detail::expect_same_types(cols, "concatenate");
  return devcol::visit(
      [&](auto const& first) -> any_column<Policy> {
        using C = std::decay_t<decltype(first)>;
        std::vector<C> typed;
        typed.reserve(cols.size());
        for (auto const& c : cols) { typed.push_back(devcol::get<C>(c)); }
        if constexpr (requires { concatenate(std::span<C const>(typed), stream); }) {
          return concatenate(std::span<C const>(typed), stream);
        } else {
          static_assert(detail::kind_has_no<C>,
                        "devcol::concatenate(any_column): a kind of any_column has no concatenate; every kind needs "
                        "one, in ops/detail/concatenate/<kind>.hpp");
        }
      },
      cols.front());
}

/**
 * @brief concatenate() of a vector of any columns (see the span overload).
 * @tparam Policy the buffer policy of the inputs and of the result
 * @param cols the columns, in order
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both types when an input's type differs from the first's
 */
template <buffer_policy Policy>
[[nodiscard]] any_column<Policy> concatenate(std::vector<any_column<Policy>> const& cols, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return concatenate(std::span<any_column<Policy> const>(cols), stream);
}

#if DEVCOL_USE_PRECOMPILED
// Held by the devcol_precompiled library (core/config.hpp): concatenation of every kind.
DEVCOL_EXTERN_TEMPLATE any_column<default_policy> concatenate<default_policy>(std::span<any_column<default_policy> const>,
                                                                              stream_ref);
#endif

DEVCOL_NAMESPACE_END
