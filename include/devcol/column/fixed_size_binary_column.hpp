/**
 * @file fixed_size_binary_column.hpp
 * @brief `devcol::fixed_size_binary_column`: Arrow fixed-size binary ("w:N"), rows of exactly
 * `width()` bytes each, and `fixed_size_binary_column_view` for kernels.
 *
 * Why not `column<std::array<std::byte, N>>`: the width is known only at run time (an import
 * learns it from the format), so it is a member, as the precision of a decimal is. Rows are
 * contiguous without offsets: row `i` is bytes [(offset + i) * width, (offset + i + 1) * width) of
 * the data buffer, so a slice moves the offset and a write may change bytes in place.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/rows.hpp>
#include <devcol/column/fwd.hpp>
#include <devcol/column/validity_view.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/resource.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief A read-only view of a fixed-size binary column's rows, for kernels: six words, trivially
 * copyable, never allocates. Row `i` is the `width()` bytes at `data() + (offset() + i) * width()`;
 * its validity bit `offset() + i` of `null_mask()` (no mask: all valid).
 */
class fixed_size_binary_column_view : public validity_view {
 public:
  /// @brief An empty view.
  constexpr fixed_size_binary_column_view() noexcept = default;
  /// @brief `size` rows of `width` bytes from row `offset` of `data` (and bit `offset` of `mask`).
  DEVCOL_HOST_DEVICE constexpr fixed_size_binary_column_view(std::byte const* data, std::size_t width, std::size_t size,
                                                             bitmask_word const* mask = nullptr, std::size_t offset = 0,
                                                             std::size_t null_count = 0) noexcept
      : validity_view(size, mask, offset, null_count), data_(data), width_(width) {}

  /// @brief The bytes per row.
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr std::size_t width() const noexcept { return width_; }
  /// @brief The data buffer's first byte (not row 0's: row 0 starts offset() rows in).
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr std::byte const* data() const noexcept { return data_; }
  /// @brief Row 0's index in the data (in rows) and in the mask (in bits).
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr std::size_t offset() const noexcept { return mask_offset(); }
  /// @brief Row `i`'s first byte (`width()` follow). No bounds check. Device memory: kernels only.
  /// @param i the row, in [0, size())
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr std::byte const* operator[](std::size_t i) const noexcept {
    return data_ + (mask_offset() + i) * width_;
  }

 private:
  std::byte const* data_ = nullptr;
  std::size_t width_ = 0;
};

/**
 * @brief `size()` rows of exactly `width()` bytes in Arrow's fixed-size binary layout: a data
 * buffer, an optional validity bitmask, the offset of the first row (in rows of the data and bits
 * of the mask) and the null count, which is always known.
 *
 * Sharing and exposure follow the policy as for `devcol::column`: copies and slices share the
 * buffers in O(1) (rules 1 and 8), reads never copy (rule 2), and write access through a handle
 * whose buffers are shared (or borrowed) first gives it its own copy of its own rows, at offset 0
 * (rules 3 and 4). A column of 0 rows, or of width 0, may have no data buffer.
 *
 * @tparam Policy a buffer policy (`devcol::default_policy` unless named)
 */
template <buffer_policy Policy>
class fixed_size_binary_column : public detail::column_rows<fixed_size_binary_column<Policy>, Policy> {
  using rows_base = detail::column_rows<fixed_size_binary_column, Policy>;
  friend rows_base;
  using rows_base::mask_, rows_base::null_count_, rows_base::offset_, rows_base::size_;
  static constexpr std::string_view kind_name = "fixed_size_binary_column";

 public:
  using typename rows_base::buffer_type, typename rows_base::policy, typename rows_base::resource_type;
  /// The view kernels take.
  using view_type = fixed_size_binary_column_view;

  /// @brief An empty column of width 0: 0 rows, nothing allocated.
  fixed_size_binary_column() noexcept = default;
  /// Copies share the buffers in O(1) (exposed ones are copied), moves leave `other` empty,
  /// assignment copies (or moves) and swaps: strong guarantee. See detail::column_rows.
  fixed_size_binary_column(fixed_size_binary_column const&) = default;
  fixed_size_binary_column(fixed_size_binary_column&&) noexcept = default;
  fixed_size_binary_column& operator=(fixed_size_binary_column other) noexcept { return this->assign_by_swap(other); }

  /**
   * @brief `size` uninitialised rows of `width` bytes from the policy's resource, with a mask as
   * `mask` says (filled in order on `stream`).
   * @param width the byte length of every row (0 allocates no data)
   * @param size the number of rows
   * @param stream the stream the allocations and the mask's fill are ordered on
   * @param mask whether a mask is allocated, and with every row valid or null
   * @throws devcol::logic_error when the width is past INT32_MAX (Arrow's is an int32) or the bytes
   * overflow; devcol::out_of_memory
   */
  fixed_size_binary_column(std::size_t width, std::size_t size, stream_ref stream = {},
                           mask_state mask = mask_state::unallocated)
      : fixed_size_binary_column(width, size, stream, mask, detail::policy_resource<typename Policy::resource>()) {}

  /// @brief As above, with memory from `resource`.
  /// @param width the byte length of every row
  /// @param size the number of rows
  /// @param stream the stream the allocations and the mask's fill are ordered on
  /// @param mask whether a mask is allocated, and with every row valid or null
  /// @param resource what the data and the mask are allocated from (and later freed through)
  fixed_size_binary_column(std::size_t width, std::size_t size, stream_ref stream, mask_state mask,
                           resource_type resource)
      : rows_base(buffer_type{}, size, 0, 0), width_(width) {
    std::size_t const bytes = byte_size(width, size);
    if (bytes != 0) { data_ = buffer_type(bytes, stream, mr::default_alignment, resource); }
    this->allocate_mask(mask, std::move(resource), stream);
  }

  /**
   * @brief Adopts buffers: rows [offset, offset + size) of `width` bytes of `data`, validity from
   * bits [offset, offset + size) of `mask` (empty: no mask), with `null_count` nulls (not recounted).
   * @param width the byte length of every row
   * @param data the rows' bytes, at least (offset + size) * width of them
   * @param mask the validity words covering bits [offset, offset + size), or empty
   * @param size the number of rows
   * @param null_count the number of null rows among them, trusted as given
   * @param offset the first row, in data (in rows) and mask (in bits) alike
   * @throws devcol::logic_error naming the sizes when the width is past INT32_MAX, a buffer is too
   * small, or the count impossible
   */
  fixed_size_binary_column(std::size_t width, buffer_type data, buffer_type mask, std::size_t size,
                           std::size_t null_count, std::size_t offset = 0)
      : rows_base(std::move(mask), size, null_count, offset), data_(std::move(data)), width_(width) {
    DEVCOL_EXPECTS(offset <= SIZE_MAX - size, "fixed_size_binary_column: offset ", offset, " + size ", size, " overflows");
    std::size_t const bytes = byte_size(width, offset + size);
    DEVCOL_EXPECTS(data_.size() >= bytes, "fixed_size_binary_column: a data buffer of ", data_.size(),
                   " bytes cannot hold rows [", offset, ", ", offset + size, ") of ", width, " bytes");
    this->check_rows_state();
  }

  /// @brief The data buffer's first byte, read-only (row 0 is offset() rows in); null without one.
  /// Never copies.
  [[nodiscard]] std::byte const* data(access::read_t) const noexcept(!Policy::spill::enabled) {
    return static_cast<std::byte const*>(data_.data(access::read));
  }
  /**
   * @brief The data buffer's first byte, writable in place: if the buffers are shared under
   * copy-on-write, or borrowed, this column first gets its own copy of its rows (rule 3: a writer
   * whose buffers are shared copies its own rows first; then offset() is 0), else nothing is copied
   * (rule 4: a sole owner writes in place). For use before this column is next copied or sliced.
   * @param stream the stream a copy, if one is needed, is ordered on
   * @throws what allocation and copying throw, when the rows are copied
   */
  [[nodiscard]] std::byte* data(access::write_t, stream_ref stream = {}) {
    unshare(stream);
    return const_cast<std::byte*>(data(access::read));
  }

  /// @brief A read-only view for kernels; never copies. Spillable: unspills first; the view stays
  /// valid until the next spill unless taken under a `devcol::spill_lock`.
  [[nodiscard]] view_type view() const noexcept(!Policy::spill::enabled) {
    return view_type{data(access::read), width_, size_, this->null_mask(access::read), offset_, null_count_};
  }
  /// @brief Same as view().
  operator view_type() const noexcept(!Policy::spill::enabled) { return view(); }  // NOLINT: implicit, as column's

  /// @brief Spillable policies: moves the buffers to host memory unless exposed or locked; returns
  /// the device bytes freed.
  /// @param stream the stream the copies to the host are ordered on; synchronised
  std::size_t spill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    return data_.spill(stream) + mask_.spill(stream);
  }
  /// @brief Spillable policies: brings the buffers back to the device. Synchronises.
  /// @param stream accepted for symmetry with spill(); the buffers copy on their own streams
  void unspill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    data_.unspill(stream);
    mask_.unspill(stream);
  }
  /// @brief Spillable policies: whether any buffer is in host memory now.
  [[nodiscard]] bool is_spilled() const noexcept
    requires Policy::spill::enabled
  {
    return data_.is_spilled() || mask_.is_spilled();
  }

  /// @brief The bytes per row.
  [[nodiscard]] std::size_t width() const noexcept { return width_; }
  /// @brief The Arrow format string: "w:N".
  [[nodiscard]] std::string arrow_format() const { return "w:" + std::to_string(width_); }
  /// @brief The type as pyarrow prints it: "fixed_size_binary[N]".
  [[nodiscard]] std::string type_name() const { return "fixed_size_binary[" + std::to_string(width_) + "]"; }
  /// @brief Whether another handle shares any of the buffers.
  [[nodiscard]] bool is_shared() const noexcept { return data_.is_shared() || mask_.is_shared(); }
  /// @brief Whether the memory was made elsewhere (an import): writes copy it first.
  [[nodiscard]] bool is_borrowed() const noexcept { return data_.is_borrowed() || mask_.is_borrowed(); }
  /// @brief Whether any buffer was exposed, handed out as a raw mutable pointer, which marks it for
  /// good (rule 11).
  [[nodiscard]] bool is_exposed() const noexcept { return data_.is_exposed() || mask_.is_exposed(); }
  /// @brief Whether writes copy first.
  [[nodiscard]] bool copy_on_write() const noexcept { return data_.empty() ? mask_.copy_on_write() : data_.copy_on_write(); }
  /// @brief Another column on the same buffers even when exposed (rule 12, which makes a shallow
  /// copy of exposed memory a deep one, does not apply). O(1).
  [[nodiscard]] fixed_size_binary_column alias() const noexcept {
    fixed_size_binary_column out;
    out.data_ = data_.alias();
    out.width_ = width_;
    this->alias_rows(out);
    return out;
  }
  /// @brief The data's buffer (the whole allocation; empty for a column without data).
  [[nodiscard]] buffer_type const& data_buffer() const noexcept { return data_; }
  /// @brief The resource that made the data (what ops allocate results from).
  [[nodiscard]] resource_type resource() const { return data_.resource(); }
  /// @brief The name of that resource.
  [[nodiscard]] std::string resource_name() const { return data_.resource_name(); }

 private:
  auto own_state() noexcept { return std::tie(data_, width_); }
  // deep_copy()'s part: the rows' bytes, asynchronously.
  void copy_own_rows(fixed_size_binary_column& out, stream_ref stream) const {
    scoped_device const on_device(data_.device());  // rule 21: copied on, and allocated on, its device
    out.width_ = width_;
    std::size_t const bytes = width_ * size_;
    if (bytes != 0) {
      out.data_ = buffer_type(bytes, stream, mr::default_alignment, data_.resource());
      copy_bytes(out.data_.data(access::write, stream), data(access::read) + offset_ * width_, bytes, stream);
      data_.read_on(stream);
    }
  }
  static std::size_t byte_size(std::size_t width, std::size_t rows) {
    DEVCOL_EXPECTS(width <= std::size_t{INT32_MAX}, "fixed_size_binary_column: a width of ", width,
                   " bytes is past Arrow's (an int32: at most 2147483647)");
    DEVCOL_EXPECTS(width == 0 || rows <= SIZE_MAX / width, "fixed_size_binary_column: ", rows, " rows of ", width,
                   " bytes overflow");
    return width * rows;
  }

  // Rule 3: a writer whose buffers are shared (or borrowed) takes its own copy of its own rows.
  void unshare(stream_ref stream) {
    if (data_.writes_copy() || mask_.writes_copy()) { this->take_own_copy(stream); }
  }

  buffer_type data_;
  std::size_t width_ = 0;
};

DEVCOL_NAMESPACE_END
