/**
 * @file binary_view_column.hpp
 * @brief `devcol::basic_binary_view_column`: Arrow's variable-size binary view layout, string view
 * (`string_view_column`, format "vu") and binary view (`binary_view_column`, "vz"), with
 * `binary_view_column_view` for kernels and `binary_view_row`, one 16-byte view.
 *
 * Not to be confused with `devcol::string_view` (column/string_view.hpp), which is one row of a
 * strings column as kernels see it (a pointer and a length): a `string_view_column` is a whole
 * column whose rows are 16-byte views, each holding a short row inline or naming bytes in one of
 * several data buffers.
 *
 * Why a class of its own, not a strings column: rows are not found through one offsets buffer but
 * through a view per row (Arrow's columnar spec, "Variable-size Binary View Layout"): a row of up
 * to 12 bytes is held in its view; a longer one has its length, its first 4 bytes, the index of a
 * data buffer and the byte offset in it. Data buffers are shared, never rewritten: a gather or
 * filter moves 16 bytes per row and keeps every data buffer, and concatenation keeps the data
 * buffers of every input, shifting the buffer index of the later inputs' views.
 *
 * The class's default template arguments and its aliases (`string_view_column`,
 * `binary_view_column`) are declared in column/fwd.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/detail/rows.hpp>
#include <devcol/column/fwd.hpp>
#include <devcol/column/string_view.hpp>
#include <devcol/column/strings_column.hpp>
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
#include <vector>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief One row of a binary view column, Arrow's 16-byte view: `size` bytes, held inline (bytes
 * [4, 4 + size) of the view) when `size` is at most `inline_bytes`, else at byte `offset` of data
 * buffer `buffer_index`, with their first 4 bytes copied into `prefix`. Trivially copyable.
 */
struct binary_view_row {
  /// The most bytes a view holds inline.
  static constexpr std::int32_t inline_bytes = 12;
  std::int32_t size;          ///< the row's length in bytes (never negative in a valid view)
  char prefix[4];             ///< the first 4 bytes (inline: the first 4 of the 12 held)
  std::int32_t buffer_index;  ///< out of line: which data buffer (inline: bytes 4-7 of the row)
  std::int32_t offset;        ///< out of line: the byte offset in that buffer (inline: bytes 8-11)

  /// @brief Whether the row's bytes are in the view itself.
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr bool is_inline() const noexcept { return size <= inline_bytes; }
  /// @brief The inline bytes (valid when is_inline()).
  [[nodiscard]] DEVCOL_HOST_DEVICE char const* inline_data() const noexcept {
    return reinterpret_cast<char const*>(this) + 4;  // the 12 bytes from prefix on
  }
};
static_assert(sizeof(binary_view_row) == 16, "an Arrow binary view is 16 bytes");

/**
 * @brief A read-only view of a binary view column's rows, for kernels: trivially copyable, never
 * allocates. Row `i` is view `offset() + i` of views(); its bytes are inline or in data buffer
 * `buffer_index` of the table `buffers()` (device memory: an array of the data buffers' first
 * bytes), which is null unless the view was made with one (binary_view_column::view(data_table)).
 */
class binary_view_column_view : public validity_view {
 public:
  /// @brief An empty view.
  constexpr binary_view_column_view() noexcept = default;
  /**
   * @brief `size` rows from view `offset` of `views` (and bit `offset` of `mask`). Nothing is read.
   * @param views the views buffer's first view (device memory)
   * @param buffers a device array of the data buffers' first bytes, or null (then only lengths and
   *        inline rows may be read)
   * @param size the number of rows
   * @param mask the validity words, or null when every row is valid
   * @param offset the view (and mask bit) of row 0
   * @param null_count the number of null rows, trusted as given
   */
  DEVCOL_HOST_DEVICE constexpr binary_view_column_view(binary_view_row const* views, char const* const* buffers,
                                                       std::size_t size, bitmask_word const* mask = nullptr,
                                                       std::size_t offset = 0, std::size_t null_count = 0) noexcept
      : validity_view(size, mask, offset, null_count), views_(views), buffers_(buffers) {}

  /// @brief The views buffer's first view (not row 0's: row 0 is offset() views in).
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr binary_view_row const* views() const noexcept { return views_; }
  /// @brief The device table of data buffers, or null.
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr char const* const* buffers() const noexcept { return buffers_; }
  /// @brief Row 0's index in the views (and bit in the mask).
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr std::size_t offset() const noexcept { return mask_offset(); }
  /// @brief Row `i`'s view. No bounds check. Device memory: kernels only.
  /// @param i the row, in [0, size())
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr binary_view_row const& row(std::size_t i) const noexcept {
    return views_[mask_offset() + i];
  }
  /// @brief Row `i`'s length in bytes. No bounds check.
  /// @param i the row, in [0, size())
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr std::size_t length(std::size_t i) const noexcept {
    return static_cast<std::size_t>(row(i).size);
  }
  /// @brief Row `i`'s bytes: inline, or through buffers(), which must not be null for an
  /// out-of-line row. No bounds check. Device memory: kernels only.
  /// @param i the row, in [0, size())
  [[nodiscard]] DEVCOL_HOST_DEVICE string_view operator[](std::size_t i) const noexcept {
    binary_view_row const& v = row(i);
    auto const n = static_cast<std::size_t>(v.size);
    return v.is_inline() ? string_view(v.inline_data(), n)
                         : string_view(buffers_[v.buffer_index] + v.offset, n);
  }

 private:
  binary_view_row const* views_ = nullptr;
  char const* const* buffers_ = nullptr;
};

/**
 * @brief `size()` rows in Arrow's binary view layout: a views buffer (16 bytes per row, from the
 * column's offset on), any number of data buffers that the out-of-line views point into, an
 * optional validity bitmask, the offset of the first row (in views and mask alike) and the null
 * count, which is always known.
 *
 * Sharing and exposure follow the policy as for `devcol::column`: copies and slices share every
 * buffer in O(1) (rules 1 and 8: a slice moves the offset), reads never copy (rule 2), and a write
 * to the mask through a handle whose buffers are shared (or borrowed) first gives it its own copy
 * (rule 3): its views and every data buffer, whole. Rows are never rewritten in place.
 *
 * The views are trusted as given (lengths not negative, out-of-line views within their buffer);
 * the Arrow importer checks a producer's before adopting them. A column of 0 rows may have no
 * buffers at all.
 *
 * @tparam Policy a buffer policy (`devcol::default_policy` unless named)
 * @tparam E `encoding::utf8` (Arrow string view, "vu") or `encoding::binary` (binary view, "vz")
 */
template <buffer_policy Policy, encoding E>
class basic_binary_view_column : public detail::column_rows<basic_binary_view_column<Policy, E>, Policy> {
  using rows_base = detail::column_rows<basic_binary_view_column, Policy>;
  friend rows_base;
  using rows_base::mask_, rows_base::null_count_, rows_base::offset_, rows_base::size_;
  static constexpr std::string_view kind_name = E == encoding::utf8 ? "string_view_column" : "binary_view_column";

 public:
  /// What the rows' bytes are (UTF-8 text or binary).
  static constexpr encoding bytes_encoding = E;
  using typename rows_base::buffer_type, typename rows_base::policy, typename rows_base::resource_type;
  /// The view kernels take.
  using view_type = binary_view_column_view;

  /// @brief An empty column: 0 rows, nothing allocated.
  basic_binary_view_column() noexcept = default;
  /// Copies share the buffers in O(1) (exposed ones are copied), moves leave `other` empty,
  /// assignment copies (or moves) and swaps: strong guarantee. See detail::column_rows.
  basic_binary_view_column(basic_binary_view_column const&) = default;
  basic_binary_view_column(basic_binary_view_column&&) noexcept = default;
  basic_binary_view_column& operator=(basic_binary_view_column other) noexcept { return this->assign_by_swap(other); }

  /**
   * @brief Adopts buffers: rows [offset, offset + size), row `i` being view `offset + i` of `views`
   * over the data buffers `data`; validity from bits [offset, offset + size) of `mask` (empty: no
   * mask), with `null_count` nulls (not recounted). The views are not read. O(1) and one step per
   * data buffer; nothing is copied or synchronised.
   * @param views at least `offset + size` views of 16 bytes, 4-byte aligned (empty for 0 rows)
   * @param data the data buffers, in the order the views' buffer indices name them
   * @param mask the validity words covering bits [offset, offset + size), or empty for no mask
   * @param size the number of rows
   * @param null_count the number of null rows among them, trusted as given
   * @param offset the first row, in views and mask alike
   * @throws devcol::logic_error naming the sizes when the views buffer is too small or misaligned,
   * or the count impossible
   */
  basic_binary_view_column(buffer_type views, std::vector<buffer_type> data, buffer_type mask, std::size_t size,
                           std::size_t null_count, std::size_t offset = 0)
      : rows_base(std::move(mask), size, null_count, offset), views_(std::move(views)), data_(std::move(data)) {
    DEVCOL_EXPECTS((size == 0 && views_.empty()) ||
                       (offset + size < SIZE_MAX / sizeof(binary_view_row) &&
                        views_.size() >= (offset + size) * sizeof(binary_view_row)),
                   kind_name, ": a views buffer of ", views_.size(), " bytes cannot hold the views of rows [", offset,
                   ", ", offset + size, ")");
    DEVCOL_EXPECTS(views_.offset() % alignof(binary_view_row) == 0, kind_name, ": a views buffer at byte offset ",
                   views_.offset(), " is not aligned for its 4-byte fields");
    this->check_rows_state();
  }

  /// @brief The views buffer's first view, read-only (row 0 is offset() views in); null without
  /// one. Never copies.
  [[nodiscard]] binary_view_row const* views(access::read_t) const noexcept(!Policy::spill::enabled) {
    return static_cast<binary_view_row const*>(views_.data(access::read));
  }
  /// @brief The number of data buffers.
  [[nodiscard]] std::size_t num_data_buffers() const noexcept { return data_.size(); }
  /// @brief Data buffer `i` (the whole allocation the views point into). No bounds check.
  /// @param i the buffer, in [0, num_data_buffers())
  [[nodiscard]] buffer_type const& data_buffer(std::size_t i) const noexcept { return data_[i]; }
  /// @brief Every data buffer, in buffer-index order.
  [[nodiscard]] std::vector<buffer_type> const& data_buffers() const noexcept { return data_; }
  /// @brief The views' buffer (the whole allocation; empty for a column without rows).
  [[nodiscard]] buffer_type const& views_buffer() const noexcept { return views_; }

  /// @brief A read-only view for kernels without a data-buffer table: lengths, validity and inline
  /// rows only. Never copies or allocates. Spillable: unspills first; the view stays valid until
  /// the next spill unless taken under a `devcol::spill_lock`.
  [[nodiscard]] view_type view() const noexcept(!Policy::spill::enabled) {
    return view_type{views(access::read), nullptr, size_, this->null_mask(access::read), offset_, null_count_};
  }
  /// @brief Same as view().
  operator view_type() const noexcept(!Policy::spill::enabled) { return view(); }  // NOLINT: implicit, as column's
  /**
   * @brief A view for kernels that reads every row's bytes through `data_table`, a buffer from
   * buffer_table(). Valid while `data_table` lives and the data buffers stay where they were (under a
   * `devcol::spill_lock`, or a policy that does not spill).
   * @param data_table the device table of this column's data buffers
   */
  [[nodiscard]] view_type view(buffer_type const& data_table) const noexcept(!Policy::spill::enabled) {
    return view_type{views(access::read), static_cast<char const* const*>(data_table.data(access::read)), size_,
                     this->null_mask(access::read), offset_, null_count_};
  }
  /**
   * @brief A device array of the data buffers' first bytes, for view(data_table): one small allocation
   * from the column's resource and one host-to-device copy, after which `stream` is synchronised
   * (the host array is gone when this returns). Empty without data buffers.
   * @param stream the stream the copy is ordered on
   * @throws what allocation and copying throw
   */
  [[nodiscard]] buffer_type buffer_table(stream_ref stream = {}) const {
    if (data_.empty()) { return buffer_type{}; }
    std::vector<char const*> pointers(data_.size());
    for (std::size_t i = 0; i < data_.size(); ++i) { pointers[i] = static_cast<char const*>(data_[i].data(access::read)); }
    buffer_type data_table(pointers.size() * sizeof(char const*), stream, mr::default_alignment, resource());
    copy_bytes(data_table.data(access::write, stream), pointers.data(), pointers.size() * sizeof(char const*), stream);
    stream.synchronize();
    return data_table;
  }

  /// @brief Spillable policies: moves the buffers to host memory unless exposed or locked; returns
  /// the device bytes freed. Synchronises `stream`; allocates host memory.
  /// @param stream the stream the copies to the host are ordered on
  std::size_t spill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    std::size_t freed = views_.spill(stream) + mask_.spill(stream);
    for (auto& d : data_) { freed += d.spill(stream); }
    return freed;
  }
  /// @brief Spillable policies: brings the buffers back to the device. Synchronises.
  /// @param stream accepted for symmetry with spill(); the buffers copy on their own streams
  void unspill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    views_.unspill(stream);
    mask_.unspill(stream);
    for (auto& d : data_) { d.unspill(stream); }
  }
  /// @brief Spillable policies: whether any buffer is in host memory now.
  [[nodiscard]] bool is_spilled() const noexcept
    requires Policy::spill::enabled
  {
    return views_.is_spilled() || mask_.is_spilled() || any_data([](buffer_type const& d) { return d.is_spilled(); });
  }

  /// @brief The Arrow format string: "vu" (string view) or "vz" (binary view).
  [[nodiscard]] std::string arrow_format() const { return E == encoding::utf8 ? "vu" : "vz"; }
  /// @brief The type as pyarrow prints it: "string_view" or "binary_view".
  [[nodiscard]] std::string type_name() const { return E == encoding::utf8 ? "string_view" : "binary_view"; }
  /// @brief Whether another handle shares any of the buffers.
  [[nodiscard]] bool is_shared() const noexcept {
    return views_.is_shared() || mask_.is_shared() || any_data([](buffer_type const& d) { return d.is_shared(); });
  }
  /// @brief Whether the memory was made elsewhere (an import): writes copy it first.
  [[nodiscard]] bool is_borrowed() const noexcept {
    return views_.is_borrowed() || mask_.is_borrowed() || any_data([](buffer_type const& d) { return d.is_borrowed(); });
  }
  /// @brief Whether any buffer was exposed: handed out as a raw mutable pointer, which marks it for
  /// good (rule 11).
  [[nodiscard]] bool is_exposed() const noexcept {
    return views_.is_exposed() || mask_.is_exposed() || any_data([](buffer_type const& d) { return d.is_exposed(); });
  }
  /// @brief Whether writes copy first.
  [[nodiscard]] bool copy_on_write() const noexcept {
    return views_.empty() ? mask_.copy_on_write() : views_.copy_on_write();
  }
  /// @brief Another column on the same buffers even when exposed (rule 12, which makes a shallow
  /// copy of exposed memory a deep one, does not apply). O(1) per buffer.
  [[nodiscard]] basic_binary_view_column alias() const {
    basic_binary_view_column out;
    out.views_ = views_.alias();
    out.data_.reserve(data_.size());
    for (auto const& d : data_) { out.data_.push_back(d.alias()); }
    this->alias_rows(out);
    return out;
  }
  /// @brief The resource that made the views (what ops allocate results from).
  [[nodiscard]] resource_type resource() const { return views_.resource(); }
  /// @brief The name of that resource.
  [[nodiscard]] std::string resource_name() const { return views_.resource_name(); }

 private:
  template <class F>
  bool any_data(F f) const noexcept {
    for (auto const& d : data_) {
      if (f(d)) { return true; }
    }
    return false;
  }
  auto own_state() noexcept { return std::tie(views_, data_); }
  // deep_copy()'s part: the rows' views, and every data buffer whole (the views keep their buffer
  // indices and offsets), asynchronously.
  void copy_own_rows(basic_binary_view_column& out, stream_ref stream) const {
    scoped_device const on_device(views_.device());  // rule 21: copied on, and allocated on, its device
    if (size_ != 0) {
      std::size_t const bytes = size_ * sizeof(binary_view_row);
      out.views_ = buffer_type(bytes, stream, mr::default_alignment, views_.resource());
      copy_bytes(out.views_.data(access::write, stream), views(access::read) + offset_, bytes, stream);
      views_.read_on(stream);
    }
    out.data_.reserve(data_.size());
    for (auto const& d : data_) {
      buffer_type copy(d.size(), stream, mr::default_alignment, d.resource());
      if (d.size() != 0) { copy_bytes(copy.data(access::write, stream), d.data(access::read), d.size(), stream); }
      d.read_on(stream);
      out.data_.push_back(std::move(copy));
    }
  }
  // Rule 3: a writer whose buffers are shared (or borrowed) takes its own copy of its own rows.
  void unshare(stream_ref stream) {
    if (views_.writes_copy() || mask_.writes_copy() || any_data([](buffer_type const& d) { return d.writes_copy(); })) {
      this->take_own_copy(stream);
    }
  }

  buffer_type views_;
  std::vector<buffer_type> data_;
};

DEVCOL_NAMESPACE_END
