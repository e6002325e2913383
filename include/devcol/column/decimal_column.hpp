/**
 * @file decimal_column.hpp
 * @brief `devcol::decimal_column`: Arrow decimal32 / decimal64 / decimal128 / decimal256
 * (`decimal32_column`, `decimal64_column`, `decimal128_column`, `decimal256_column`), fixed-point
 * numbers with a run-time precision and scale.
 *
 * Why a class around `column<Rep>`, not `column<decimal<P, S>>`: Arrow carries precision and scale
 * in the type at run time ("d:P,S"), and an import learns them only then; a compile-time pair
 * would need 38 x 77+ instantiations to import one array. The values are plain integers (the
 * unscaled value: row `v` means `v * 10^-scale`), so the fixed-width `column<Rep>` holds them and
 * its ops (gather, filter, concatenate, compare, sort, null masks) serve decimals unchanged; this
 * class adds the precision and scale, and the Arrow names, as cuDF's fixed_point columns keep a
 * scale beside int32/int64/__int128 storage.
 *
 * The class's default policy and its aliases are declared in column/fwd.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/column_view.hpp>
#include <devcol/column/detail/rows.hpp>
#include <devcol/column/fwd.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

DEVCOL_NAMESPACE_BEGIN

/// @brief The greatest precision (decimal digits) a `Rep` holds, as Arrow allows: 9, 18, 38 or 76.
/// @tparam Rep `std::int32_t`, `std::int64_t`, `devcol::int128_t` or `devcol::int256_t`
template <decimal_rep Rep>
inline constexpr int max_decimal_precision_v = sizeof(Rep) == 4 ? 9 : sizeof(Rep) == 8 ? 18 : sizeof(Rep) == 16 ? 38 : 76;

/// @brief The bit width of a `Rep` as Arrow's decimal formats name it: 32, 64, 128 or 256.
/// @tparam Rep `std::int32_t`, `std::int64_t`, `devcol::int128_t` or `devcol::int256_t`
template <decimal_rep Rep>
inline constexpr int decimal_bit_width_v = static_cast<int>(sizeof(Rep) * 8);

namespace detail {
/// Throws unless `precision` is in [1, max_decimal_precision_v<Rep>] (any scale is allowed, as Arrow's).
template <decimal_rep Rep>
void check_decimal_precision(std::string_view what, int precision) {
  DEVCOL_EXPECTS(precision >= 1 && precision <= max_decimal_precision_v<Rep>, what, ": precision ", precision,
                 " is not within [1, ", max_decimal_precision_v<Rep>, "] for decimal", decimal_bit_width_v<Rep>);
}

/// decimal_column's Arrow format ("d:P,S" for 128 bits, else "d:P,S,bits"): one body for every
/// width, rather than one per `Rep`. @throws std::bad_alloc
template <int = 0>
std::string decimal_arrow_format(int bits, int precision, int scale) {
  std::string out = "d:" + std::to_string(precision) + "," + std::to_string(scale);
  if (bits != 128) { out += "," + std::to_string(bits); }
  return out;
}
/// decimal_column's type as pyarrow prints it ("decimalBITS(P, S)"), one body for every width.
/// @throws std::bad_alloc
template <int = 0>
std::string decimal_type_name(int bits, int precision, int scale) {
  return "decimal" + std::to_string(bits) + "(" + std::to_string(precision) + ", " + std::to_string(scale) + ")";
}
}  // namespace detail

/**
 * @brief `size()` fixed-point numbers in Arrow's decimal layout: a `column<Rep>` of unscaled values
 * (row value `v` stands for `v * 10^-scale()`) and the precision and scale, checked when set.
 *
 * Sharing, exposure and spilling are those of the values column (copies and slices share the
 * buffers in O(1), rules 1 and 8; reads never copy, rule 2; write access through a shared or
 * borrowed handle copies its own rows first, rules 3 and 4; an exposed column is copied by a
 * shallow copy, rule 12). Values are not checked against the precision (neither does Arrow C++ on
 * import; pyarrow's `validate(full=True)` does): devcol stores what it is given.
 *
 * @tparam Rep `std::int32_t`, `std::int64_t`, `devcol::int128_t` or `devcol::int256_t`
 * @tparam Policy a buffer policy (`devcol::default_policy` unless named)
 */
template <decimal_rep Rep, buffer_policy Policy>
class decimal_column : public detail::forwarded_rows<decimal_column<Rep, Policy>> {
  friend detail::forwarded_rows<decimal_column<Rep, Policy>>;

 public:
  /// The representation (the unscaled value's type).
  using rep_type = Rep;
  /// Same as rep_type: what the views hold.
  using value_type = Rep;
  /// The buffers' policy.
  using policy = Policy;
  /// The column holding the unscaled values.
  using values_type = column<Rep, Policy>;
  /// The buffer type holding the values and the mask.
  using buffer_type = typename values_type::buffer_type;
  /// What the buffers keep of their resource.
  using resource_type = typename values_type::resource_type;
  /// The view kernels take: the unscaled values (the scale is the caller's to carry).
  using view_type = column_view<Rep>;

  /// @brief An empty column of the widest precision and scale 0: 0 rows, nothing allocated.
  decimal_column() noexcept = default;

  /**
   * @brief The unscaled `values` (shared, O(1)) as decimals of `precision` digits, `scale` of them
   * after the point (negative: the values count 10^-scale units).
   * @param values the unscaled values and their validity; not checked against the precision
   * @param precision the number of decimal digits, in [1, 9 / 18 / 38 / 76] by `Rep`
   * @param scale the digits after the decimal point; any int, as Arrow allows
   * @throws devcol::logic_error naming the precision when it is outside [1, 9 / 18 / 38 / 76]
   */
  decimal_column(values_type values, int precision, int scale)
      : values_(std::move(values)), precision_(precision), scale_(scale) {
    detail::check_decimal_precision<Rep>("decimal_column", precision);
  }

  /**
   * @brief `size` uninitialised rows from the policy's resource, with a mask as `mask` says.
   * Allocates in order on `stream`; does not synchronise.
   * @param size the number of rows
   * @param precision the number of decimal digits, in [1, 9 / 18 / 38 / 76] by `Rep`
   * @param scale the digits after the decimal point
   * @param stream the stream the allocation (and a mask's fill) is ordered on
   * @param mask whether a mask is allocated, and with every row valid or null
   * @throws devcol::logic_error naming a bad precision (checked after the allocation, which is then
   * released); devcol::out_of_memory
   */
  decimal_column(std::size_t size, int precision, int scale, stream_ref stream = {},
                 mask_state mask = mask_state::unallocated)
      : decimal_column(values_type(size, stream, mask), precision, scale) {}

  // Copies, moves and assignments are the implicit ones: the values column's (shared in O(1),
  // exposed buffers copied; moves leave it empty, with its precision and scale).

  /// @brief Exchanges two columns, precision and scale included. O(1), never throws.
  /// @param other the column exchanged with this one
  void swap(decimal_column& other) noexcept {
    values_.swap(other.values_);
    std::swap(precision_, other.precision_);
    std::swap(scale_, other.scale_);
  }

  /**
   * @brief Rows [begin, end), sharing the buffers (rules 1 and 8: slices share the owner, and a
   * slice of a slice sums the offsets): O(1) without nulls or with only nulls, else one pass over
   * the slice's mask bits (synchronises `stream`). Exposed: a copy (rule 12: a shallow copy of
   * exposed memory is a deep one).
   * @param begin the first row kept
   * @param end one past the last row kept
   * @param stream the stream the null count or copy is ordered on
   * @throws devcol::logic_error naming the bounds unless begin <= end <= size()
   */
  [[nodiscard]] decimal_column slice(std::size_t begin, std::size_t end, stream_ref stream = {}) const {
    detail::check_rows("decimal_column", "::slice", begin, end, values_.size());
    return decimal_column(values_.slice(begin, end, stream), precision_, scale_, trusted{});
  }
  /// @brief A column owning fresh memory holding only this column's rows (rules 7 and 8: a deep
  /// copy always owns fresh memory, and a slice's copy holds only its range), copied in order on
  /// `stream` (asynchronous on CUDA).
  /// @param stream the stream the copies are ordered on
  /// @throws what allocation and copying throw
  [[nodiscard]] decimal_column deep_copy(stream_ref stream = {}) const {
    return decimal_column(values_.deep_copy(stream), precision_, scale_, trusted{});
  }

  /// @brief The first row's unscaled value, read-only: never copies, never exposes.
  [[nodiscard]] Rep const* data(access::read_t) const noexcept(!Policy::spill::enabled) {
    return values_.data(access::read);
  }
  /// @brief The first row, writable, after unsharing: a handle whose buffers are shared first
  /// copies its own rows (rule 3), a sole owner writes in place (rule 4). The pointer is for use
  /// before this column is next copied or sliced.
  /// @param stream the stream a copy, if one is needed, is ordered on
  /// @throws what allocation and copying throw, when the rows are copied
  [[nodiscard]] Rep* data(access::write_t, stream_ref stream = {}) { return values_.data(access::write, stream); }
  /// @brief The validity mask, read-only (null without one); row 0 is bit offset().
  [[nodiscard]] bitmask_word const* null_mask(access::read_t) const noexcept(!Policy::spill::enabled) {
    return values_.null_mask(access::read);
  }
  /// @brief The validity mask, writable, after the same unsharing as data(access::write); state
  /// the new count with set_null_count().
  /// @param stream the stream a copy, if one is needed, is ordered on
  /// @throws what allocation and copying throw, when the rows are copied
  [[nodiscard]] bitmask_word* null_mask(access::write_t, stream_ref stream = {}) {
    return values_.null_mask(access::write, stream);
  }
  /// @brief Replaces the mask (empty: none) and states its null count. O(1); nulls are not
  /// recounted.
  /// @param mask the new validity words, row 0 at bit offset(); or empty for no mask
  /// @param null_count the number of null rows the mask holds
  /// @throws devcol::logic_error as column's replace_null_mask() does: a mask too small or
  /// misaligned for the rows, or a count it cannot hold
  void replace_null_mask(buffer_type mask, std::size_t null_count) {
    values_.replace_null_mask(std::move(mask), null_count);
  }
  /// @brief States the null count after writing the mask. O(1); the mask is not read.
  /// @param null_count the number of null rows, at most size() (0 without a mask)
  /// @throws devcol::logic_error if impossible
  void set_null_count(std::size_t null_count) { values_.set_null_count(null_count); }

  /// @brief A read-only view of the unscaled values for kernels; never copies (unspills first).
  [[nodiscard]] view_type view() const noexcept(!Policy::spill::enabled) { return values_.view(); }
  /// @brief Same as view().
  operator view_type() const noexcept(!Policy::spill::enabled) { return view(); }  // NOLINT: implicit, as column's

  /// @brief Spillable policies: moves the buffers to host memory unless exposed or locked; returns the device bytes freed.
  /// Synchronises `stream`; allocates host memory (pinned on CUDA).
  /// @param stream the stream the copies to the host are ordered on
  /// @throws devcol::out_of_memory when host memory runs out; devcol::cuda_error if a copy fails
  std::size_t spill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    return values_.spill(stream);
  }
  /// @brief Spillable policies: brings the buffers back to the device. Synchronises.
  /// @param stream accepted for symmetry with spill(); the buffers copy on their own streams
  /// @throws what the device allocation throws (the bytes then stay on the host)
  void unspill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    values_.unspill(stream);
  }
  /// @brief Spillable policies: whether any buffer is in host memory now.
  [[nodiscard]] bool is_spilled() const noexcept
    requires Policy::spill::enabled
  {
    return values_.is_spilled();
  }

  /// @brief The unscaled values as a fixed-width column (shares the buffers; for the fixed-width ops).
  [[nodiscard]] values_type const& values() const noexcept { return values_; }
  /// @brief The number of decimal digits (1..9, 1..18, 1..38 or 1..76).
  [[nodiscard]] int precision() const noexcept { return precision_; }
  /// @brief The digits after the point (negative: the values count powers of ten).
  [[nodiscard]] int scale() const noexcept { return scale_; }
  /// @brief The Arrow format string: "d:P,S,32", "d:P,S,64", or "d:P,S" for decimal128.
  [[nodiscard]] std::string arrow_format() const {
    return detail::decimal_arrow_format(decimal_bit_width_v<Rep>, precision_, scale_);
  }
  /// @brief The type as pyarrow prints it: "decimal32(9, 2)", "decimal128(38, 4)".
  [[nodiscard]] std::string type_name() const {
    return detail::decimal_type_name(decimal_bit_width_v<Rep>, precision_, scale_);
  }

  /// @brief Whether another handle shares the buffers.
  [[nodiscard]] bool is_shared() const noexcept { return values_.is_shared(); }
  /// @brief Whether the memory was made elsewhere (an import): writes copy it first.
  [[nodiscard]] bool is_borrowed() const noexcept { return values_.is_borrowed(); }
  /// @brief Whether the memory was exposed: handed out as a raw mutable pointer, which marks it
  /// for good (rule 11).
  [[nodiscard]] bool is_exposed() const noexcept { return values_.is_exposed(); }
  /// @brief Whether writes copy first.
  [[nodiscard]] bool copy_on_write() const noexcept { return values_.copy_on_write(); }
  /// @brief Another column on the same buffers even when exposed (rule 12, which makes a shallow
  /// copy of exposed memory a deep one, does not apply). O(1).
  [[nodiscard]] decimal_column alias() const noexcept {
    return decimal_column(values_.alias(), precision_, scale_, trusted{});
  }
  /// @brief The values' buffer (the whole allocation).
  [[nodiscard]] buffer_type const& data_buffer() const noexcept { return values_.data_buffer(); }
  /// @brief The mask's buffer (empty without a mask).
  [[nodiscard]] buffer_type const& mask_buffer() const noexcept { return values_.mask_buffer(); }
  /// @brief The resource that made the values (what ops allocate results from).
  [[nodiscard]] resource_type resource() const { return values_.resource(); }
  /// @brief The name of that resource.
  [[nodiscard]] std::string resource_name() const { return values_.resource_name(); }

 private:
  [[nodiscard]] auto const& row_column() const noexcept { return values_; }
  struct trusted {};
  // Precision already checked (it is this column's).
  decimal_column(values_type values, int precision, int scale, trusted) noexcept
      : values_(std::move(values)), precision_(precision), scale_(scale) {}

  values_type values_;
  int precision_ = max_decimal_precision_v<Rep>;
  int scale_ = 0;
};

DEVCOL_NAMESPACE_END
