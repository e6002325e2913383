/**
 * @file detail/run_end_encoded_column.hpp
 * @brief `devcol::run_end_encoded_column`: Arrow run-end encoded ("+r") over values of any column
 * kind: logical row `r` is the value of the first run whose end is greater than `r`.
 *
 * The layout has no buffers of its own, only two children: the run ends (int16, int32 or int64, no
 * nulls, strictly increasing, positive) and the values (one per run). The column's size and offset
 * are logical rows, as Arrow's: a slice moves the offset and keeps both children whole (O(1)).
 * Include <devcol/column/run_end_encoded_column.hpp> (or any_column.hpp), never this header.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/any_column_fwd.hpp>
#include <devcol/column/detail/box.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/detail/increasing.hpp>
#include <devcol/column/detail/rows.hpp>
#include <devcol/column/detail/visit_alternative.hpp>
#include <devcol/column/fwd.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

#include <thrust/binary_search.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief The run ends of a run-end encoded column: a column of one of Arrow's three run-end types.
 * @tparam Policy the buffer policy
 */
template <buffer_policy Policy = default_policy>
using run_ends_column =
    std::variant<column<std::int16_t, Policy>, column<std::int32_t, Policy>, column<std::int64_t, Policy>>;

namespace detail {
/**
 * The runs [first run, last run) of `ends` (strictly increasing run ends) that hold the logical rows
 * [first, last): two binary searches (`thrust::upper_bound`), each reading its answer back (they
 * synchronise `stream`); nothing when the range is empty.
 */
template <class I, class Policy>
[[nodiscard]] std::pair<std::size_t, std::size_t> runs_of_rows(column<I, Policy> const& ends, std::size_t first,
                                                               std::size_t last, stream_ref stream) {
  if (first >= last || ends.empty()) { return {0, 0}; }
  executor exec(stream);
  I const* const b = ends.data(access::read);
  I const* const e = b + ends.size();
  auto const r0 = static_cast<std::size_t>(thrust::upper_bound(exec.policy(), b, e, static_cast<std::int64_t>(first)) - b);
  read_back(exec);  // each search's result comes back to the host
  auto const r1 = static_cast<std::size_t>(thrust::upper_bound(exec.policy(), b, e, static_cast<std::int64_t>(last - 1)) - b);
  read_back(exec);
  return {r0, r1 + 1};
}

/**
 * The summary of the run ends `ends` (without nulls): summarise_increasing(), strictly; all zero
 * and no bad run when there are none. Synchronises `stream`.
 */
template <class I, class Policy>
[[nodiscard]] increasing_summary summarise_run_ends(column<I, Policy> const& ends, stream_ref stream) {
  return summarise_increasing(ends.data(access::read), ends.size(), true, stream);
}

/// A run end moved to a slice's first row (`offset`) and cut at its `size` rows: deep_copy()'s.
template <class I>
struct rebase_run_end {
  std::int64_t offset;
  std::int64_t size;
  DEVCOL_HOST_DEVICE I operator()(I end) const noexcept {
    std::int64_t const e = static_cast<std::int64_t>(end) - offset;
    return static_cast<I>(e < size ? e : size);
  }
};
}  // namespace detail

/**
 * @brief `size()` rows in Arrow's run-end encoded layout: run ends (`run_ends_column`: int16, int32
 * or int64, no nulls, strictly increasing, positive) and values (`any_column`, any kind, at least
 * one per run), the offset and size counting logical rows. Logical row `i` is the value of the
 * first run whose end is greater than `offset() + i`.
 *
 * It has no validity of its own (Arrow's parent null count is always 0, so null_count() is 0 and
 * there is no mask): a row is null when its run's value is, which is_null and is_valid read through
 * the runs. Copies and slices share both children in O(1) (rules 1 and 8: a slice moves the
 * offset, never a child); deep_copy() owns only the runs the rows span, rebased to offset 0.
 *
 * @tparam Policy a buffer policy (`devcol::default_policy` unless named)
 */
template <buffer_policy Policy = default_policy>
class run_end_encoded_column : public detail::column_rows<run_end_encoded_column<Policy>, Policy> {
  using rows_base = detail::column_rows<run_end_encoded_column, Policy>;
  friend rows_base;
  using rows_base::mask_, rows_base::null_count_, rows_base::offset_, rows_base::size_;
  static constexpr std::string_view kind_name = "run_end_encoded_column";

 public:
  using typename rows_base::buffer_type, typename rows_base::policy, typename rows_base::resource_type;
  /// The run ends' type: an int16, int32 or int64 column.
  using run_ends_type = run_ends_column<Policy>;
  /// The values' type: a column of any kind.
  using values_type = any_column<Policy>;

  /// @brief An empty column (int32 run ends, int32 values): nothing allocated.
  run_end_encoded_column() : run_ends_(column<std::int32_t, Policy>{}), values_(values_type{}) {}
  /// Copies share both children in O(1) (exposed buffers are copied), moves leave `other` empty,
  /// assignment copies (or moves) and swaps: strong guarantee. See detail::column_rows.
  run_end_encoded_column(run_end_encoded_column const&) = default;
  run_end_encoded_column(run_end_encoded_column&&) noexcept = default;
  run_end_encoded_column& operator=(run_end_encoded_column other) noexcept { return this->assign_by_swap(other); }

  /**
   * @brief Adopts run ends and values: logical rows [offset, offset + size). O(1): the run ends'
   * content (strictly increasing, positive, the last at least offset + size) is trusted as given
   * (make_run_end_encoded_column and the Arrow import check it).
   * @param run_ends the run ends, without nulls; shared, not copied
   * @param values one value per run (at least as many rows as run ends), of any kind; shared
   * @param size the number of logical rows
   * @param offset the first logical row
   * @throws devcol::logic_error naming the counts when the run ends have nulls, the values are
   * fewer than the runs, or rows are named without any run
   */
  run_end_encoded_column(run_ends_type run_ends, values_type values, std::size_t size, std::size_t offset = 0)
      : rows_base(buffer_type{}, size, 0, offset), run_ends_(std::move(run_ends)), values_(std::move(values)) {
    std::size_t const runs = run_count();
    std::size_t const ends_nulls = detail::visit_alternative([](auto const& c) { return c.null_count(); }, run_ends_);
    DEVCOL_EXPECTS(ends_nulls == 0, kind_name, ": run ends may not be null (", ends_nulls, " are)");
    DEVCOL_EXPECTS(devcol::size(*values_) >= runs, kind_name, ": ", devcol::size(*values_), " values for ", runs,
                   " runs");
    DEVCOL_EXPECTS(offset + size == 0 || runs != 0, kind_name, ": rows [", offset, ", ", offset + size,
                   ") without any run");
    this->check_rows_state();
  }

  /// @brief The run ends, whole (absolute logical rows, the offset not subtracted). Never copies.
  [[nodiscard]] run_ends_type const& run_ends() const noexcept { return run_ends_; }
  /// @brief The values, whole: value `r` is run `r`'s. Never copies.
  [[nodiscard]] values_type const& values() const noexcept { return *values_; }
  /// @brief The number of runs (run ends), whole. O(1).
  [[nodiscard]] std::size_t run_count() const noexcept {
    return detail::visit_alternative([](auto const& c) { return c.size(); }, run_ends_);
  }
  /// @brief Calls `f` with the typed run-ends column (`column<std::int16_t, Policy>`, int32 or int64).
  /// @tparam F a callable accepting each of the three
  /// @param f the callable
  template <class F>
  decltype(auto) visit_run_ends(F&& f) const {
    return detail::visit_alternative(std::forward<F>(f), run_ends_);
  }
  /// @brief The runs [first, last) that hold this column's rows: two binary searches, which
  /// synchronise `stream`; {0, 0} without rows. Under a spill lock of its own, so it never pins the
  /// run ends on the device for good (rule 20).
  /// @param stream the stream the searches are ordered on
  [[nodiscard]] std::pair<std::size_t, std::size_t> run_range(stream_ref stream = {}) const {
    detail::operation_spill_lock<Policy> const spill_scope{stream};
    return detail::visit_alternative([&](auto const& e) { return detail::runs_of_rows(e, offset_, offset_ + size_, stream); },
                      run_ends_);
  }

  /// @brief Spillable policies: moves both children to host memory unless exposed or locked;
  /// returns the device bytes freed. Synchronises `stream`.
  /// @param stream the stream the copies to the host are ordered on
  /// @throws devcol::out_of_memory when host memory runs out; devcol::cuda_error if a copy fails
  std::size_t spill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    return detail::visit_alternative([&](auto& c) { return c.spill(stream); }, run_ends_) +
           detail::any_spill(*values_, stream);
  }
  /// @brief Spillable policies: brings both children back to the device. Synchronises.
  /// @param stream accepted for symmetry with spill()
  /// @throws what the device allocation throws
  void unspill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    detail::visit_alternative([&](auto& c) { c.unspill(stream); }, run_ends_);
    detail::any_unspill(*values_, stream);
  }
  /// @brief Spillable policies: whether any of either child is in host memory now.
  [[nodiscard]] bool is_spilled() const noexcept
    requires Policy::spill::enabled
  {
    return any_child(detail::child_state::spilled);
  }

  /// @brief Whether another handle shares either child's buffers.
  [[nodiscard]] bool is_shared() const noexcept { return any_child(detail::child_state::shared); }
  /// @brief Whether any memory was made elsewhere (an import).
  [[nodiscard]] bool is_borrowed() const noexcept {
    return any_child(detail::child_state::borrowed);
  }
  /// @brief Whether either child was exposed (rule 11).
  [[nodiscard]] bool is_exposed() const noexcept { return any_child(detail::child_state::exposed); }
  /// @brief Whether writes copy first.
  [[nodiscard]] bool copy_on_write() const noexcept {
    return detail::visit_alternative([](auto const& c) { return c.copy_on_write(); }, run_ends_) &&
           detail::any_state(*values_, detail::child_state::copy_on_write);
  }
  /// @brief Another column on the same children even when exposed (rule 12 does not apply). O(1).
  [[nodiscard]] run_end_encoded_column alias() const {
    run_end_encoded_column out;
    out.run_ends_ = detail::visit_alternative([](auto const& c) { return run_ends_type(c.alias()); }, run_ends_);
    *out.values_ = detail::any_alias(*values_);
    this->alias_rows(out);
    return out;
  }
  /// @brief The resource results are allocated from: the run ends'.
  [[nodiscard]] resource_type resource() const {
    return detail::visit_alternative([](auto const& c) { return c.resource(); }, run_ends_);
  }
  /// @brief The name of that resource.
  [[nodiscard]] std::string resource_name() const {
    return detail::visit_alternative([](auto const& c) { return c.resource_name(); }, run_ends_);
  }
  /// @brief "run_end_encoded<run_ends: int32, values: int64>", as pyarrow prints the type.
  [[nodiscard]] std::string type_name() const {
    return "run_end_encoded<run_ends: " + detail::visit_alternative([]<class I>(column<I, Policy> const&) { return std::string(type_name_v<I>); }, run_ends_) +
           ", values: " + devcol::type_name(*values_) + ">";
  }
  /// @brief "+r", the Arrow format.
  [[nodiscard]] std::string arrow_format() const { return "+r"; }

  /// The column has no mask to replace (its nulls are its values'): deleted.
  void replace_null_mask(buffer_type, std::size_t) = delete;

 private:
  [[nodiscard]] bool any_child(detail::child_state question) const noexcept {
    return detail::visit_alternative([question](auto const& c) { return detail::state_of(c, question); }, run_ends_) ||
           detail::any_state(*values_, question);
  }
  auto own_state() noexcept { return std::tie(run_ends_, values_); }
  // deep_copy()'s part: the runs the rows span, their ends rebased to the offset and cut at the
  // size, and a deep copy of their values (two binary searches: synchronises `stream`).
  void copy_own_rows(run_end_encoded_column& out, stream_ref stream) const {
    auto const range = run_range(stream);  // not a structured binding: clang 14 cannot capture one in a lambda
    std::size_t const first = range.first;
    std::size_t const last = range.second;
    out.run_ends_ = detail::visit_alternative(
        [&]<class I>(column<I, Policy> const& ends) {
          column<I, Policy> rebased(last - first, stream, mask_state::unallocated, ends.resource());
          if (last != first) {
            detail::executor exec(stream);
            I const* const src = ends.data(access::read) + first;
            detail::transform_n(
                exec, src, (last - first), rebased.data(access::write, stream),
                detail::rebase_run_end<I>{static_cast<std::int64_t>(offset_), static_cast<std::int64_t>(size_)});
          }
          return run_ends_type(std::move(rebased));
        },
        run_ends_);
    *out.values_ = devcol::deep_copy(devcol::slice(*values_, first, last, stream), stream);
  }
  // No mask to write: nothing to unshare (the children are never written in place).
  void unshare(stream_ref) noexcept {}

  run_ends_type run_ends_;
  detail::box<values_type> values_;
};

DEVCOL_NAMESPACE_END
