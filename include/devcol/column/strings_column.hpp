/**
 * @file strings_column.hpp
 * @brief `devcol::basic_strings_column`: Arrow utf8 (`strings_column`, 32-bit offsets) and large
 * utf8 (`large_strings_column`, 64-bit offsets), binary and large binary (`binary_column`,
 * `large_binary_column`: the same layout over bytes that need not be UTF-8), and
 * `strings_column_view` for kernels.
 *
 * Why a class of its own, not `column<devcol::string>`: `column<T>` promises fixed-width rows —
 * `data()` is a `T*`, row `i` is `data()[i]`, a write may change any row in place — and none of
 * that holds for strings, whose rows are runs of bytes found through an offsets buffer. A strings
 * column keeps the same owner/view split, sharing and exposure semantics, and the same names
 * where they mean the same thing (`slice`, `deep_copy`, `view`, `null_count`, `offset`), as cuDF's
 * strings columns do beside its fixed-width ones.
 *
 * The class's default template arguments and its aliases (`strings_column`, `large_strings_column`,
 * `binary_column`, `large_binary_column`) are declared in column/fwd.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/detail/rows.hpp>
#include <devcol/column/fwd.hpp>
#include <devcol/column/string_view.hpp>
#include <devcol/column/validity_view.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/resource.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief A read-only view of a strings column's rows, for kernels: six words, trivially copyable,
 * never allocates. Row `i` is bytes [offsets()[i], offsets()[i + 1]) of chars().
 * @tparam O the offset type, `std::int32_t` or `std::int64_t`, as the column's
 */
template <arrow_offset O>
class strings_column_view : public validity_view {
 public:
  /// The offset type.
  using offset_type = O;

  /// @brief An empty view.
  constexpr strings_column_view() noexcept = default;
  /**
   * @brief `size` rows: row `i` is bytes [offsets[i], offsets[i + 1]) of `chars`; its validity bit
   * `mask_offset + i` of `mask` (no mask: all valid). Nothing is read or checked.
   * @param offsets row 0's offset; `size + 1` offsets follow, absolute positions in `chars`
   * @param chars the characters buffer's first byte (device memory)
   * @param size the number of rows
   * @param mask the validity words, or null when every row is valid
   * @param mask_offset the bit of `mask` that holds row 0's validity
   * @param null_count the number of null rows, trusted as given
   */
  DEVCOL_HOST_DEVICE constexpr strings_column_view(O const* offsets, char const* chars, std::size_t size,
                                                   bitmask_word const* mask = nullptr, std::size_t mask_offset = 0,
                                                   std::size_t null_count = 0) noexcept
      : validity_view(size, mask, mask_offset, null_count), offsets_(offsets), chars_(chars) {}

  /// @brief Row 0's start offset; `size() + 1` offsets follow (absolute positions in chars()).
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr O const* offsets() const noexcept { return offsets_; }
  /// @brief The start of the characters buffer (not of row 0: offsets are absolute).
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr char const* chars() const noexcept { return chars_; }
  /// @brief Row `i`'s bytes (empty for a null row, in data from devcol; unspecified from a producer
  /// that filled null slots). No bounds check. Device memory: kernels only.
  /// @param i the row, in [0, size())
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr string_view operator[](std::size_t i) const noexcept {
    return string_view(chars_ + offsets_[i], static_cast<std::size_t>(offsets_[i + 1] - offsets_[i]));
  }
  /// @brief Row `i`'s length in bytes. No bounds check; reads two offsets from device memory.
  /// @param i the row, in [0, size())
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr std::size_t length(std::size_t i) const noexcept {
    return static_cast<std::size_t>(offsets_[i + 1] - offsets_[i]);
  }

 private:
  O const* offsets_ = nullptr;
  char const* chars_ = nullptr;
};

namespace detail {
/// Offset `o` less the first row's offset: the rows rebased to start at byte 0.
template <arrow_offset O>
struct rebase_offset {
  O first;
  DEVCOL_HOST_DEVICE O operator()(O o) const noexcept { return o - first; }
};

// What the offsets-based kinds (strings, lists) share: the check of an adopted offsets buffer,
// the range its rows span, and a rebased copy of their offsets.

/// Throws unless `offsets` holds the `size + 1` aligned offsets of rows [offset, offset + size)
/// (or is empty for 0 rows).
template <arrow_offset O, class Buffer>
void check_offsets_buffer(std::string_view kind, Buffer const& offsets, std::size_t offset, std::size_t size) {
  DEVCOL_EXPECTS((size == 0 && offsets.empty()) ||
                     (offset + size < SIZE_MAX / sizeof(O) && offsets.size() >= (offset + size + 1) * sizeof(O)),
                 kind, ": an offsets buffer of ", offsets.size(), " bytes cannot hold the ", size + 1,
                 " offsets of rows [", offset, ", ", offset + size, ")");
  DEVCOL_EXPECTS(offsets.offset() % alignof(O) == 0, kind, ": an offsets buffer at byte offset ", offsets.offset(),
                 " is not aligned for ", sizeof(O), "-byte offsets");
}

/// [first, last): offsets `first_row[0]` and `first_row[size]`, read to the host (synchronising
/// `stream`); {0, 0} for null offsets.
template <arrow_offset O>
[[nodiscard]] std::pair<std::size_t, std::size_t> offsets_span(O const* first_row, std::size_t size, stream_ref stream) {
  if (first_row == nullptr) { return {0, 0}; }
  O ends[2] = {0, 0};
  copy_bytes(&ends[0], first_row, sizeof(O), stream);
  copy_bytes(&ends[1], first_row + size, sizeof(O), stream);
  stream.synchronize();
  return {static_cast<std::size_t>(ends[0]), static_cast<std::size_t>(ends[1])};
}

/// The `size + 1` offsets from `first_row` less `first`, in a fresh buffer from `resource`: one
/// pass, in order on `stream`.
template <arrow_offset O, class Buffer>
[[nodiscard]] Buffer rebased_offsets(O const* first_row, std::size_t size, std::size_t first, stream_ref stream,
                                     typename Buffer::resource_type resource) {
  Buffer out((size + 1) * sizeof(O), stream, mr::default_alignment, std::move(resource));
  executor exec(stream);
  detail::transform_n(exec, first_row, size + 1, static_cast<O*>(out.data(access::write, stream)),
                      rebase_offset<O>{static_cast<O>(first)});
  return out;
}
}  // namespace detail

/**
 * @brief `size()` strings in Arrow's variable-width layout: an offsets buffer of `O`
 * (`size() + 1` of them from the column's offset on, absolute positions in the characters
 * buffer), a characters buffer of UTF-8 bytes, an optional validity bitmask, the offset of the
 * first row (in offsets and mask alike) and the null count, which is always known.
 *
 * Sharing and exposure follow the policy as for `devcol::column`: copies and slices share the
 * buffers in O(1) (rules 1 and 8: copies and slices share the owner, and a slice of a slice sums
 * the offsets; a slice moves the offset, never rewrites offsets), reads never copy (rule 2), and
 * write access through a handle whose buffers are shared (or borrowed) first gives it its own copy
 * of its own rows, rebased to start at byte 0, while a sole owner writes in place (rules 3 and 4).
 * Rows are
 * never resized in place: edits that change lengths build new buffers (as cuDF's do).
 *
 * The offsets are trusted as given (monotonic, within the characters buffer); the Arrow importer
 * checks a producer's before adopting them. An empty column may have no buffers at all.
 *
 * With `E = encoding::binary` the same class holds Arrow binary and large binary: rows of bytes
 * that need not be UTF-8, which no op here assumes they are.
 *
 * @tparam O `std::int32_t` (Arrow utf8, up to 2^31 - 1 bytes in all) or `std::int64_t` (large utf8)
 * @tparam Policy a buffer policy (`devcol::default_policy` unless named)
 * @tparam E `encoding::utf8` (utf8, large utf8) or `encoding::binary` (binary, large binary)
 */
template <arrow_offset O, buffer_policy Policy, encoding E>
class basic_strings_column : public detail::column_rows<basic_strings_column<O, Policy, E>, Policy> {
  using rows_base = detail::column_rows<basic_strings_column, Policy>;
  friend rows_base;
  using rows_base::mask_, rows_base::null_count_, rows_base::offset_, rows_base::size_;
  static constexpr std::string_view kind_name = E == encoding::utf8 ? "strings_column" : "binary_column";

 public:
  /// The offset type.
  using offset_type = O;
  /// What the rows' bytes are (UTF-8 text or binary).
  static constexpr encoding bytes_encoding = E;
  using typename rows_base::buffer_type, typename rows_base::policy, typename rows_base::resource_type;
  /// The view kernels take.
  using view_type = strings_column_view<O>;

  /// @brief An empty column: 0 rows, nothing allocated.
  basic_strings_column() noexcept = default;
  /// Copies share the buffers in O(1) (exposed ones are copied), moves leave `other` empty,
  /// assignment copies (or moves) and swaps: strong guarantee. See detail::column_rows.
  basic_strings_column(basic_strings_column const&) = default;
  basic_strings_column(basic_strings_column&&) noexcept = default;
  basic_strings_column& operator=(basic_strings_column other) noexcept { return this->assign_by_swap(other); }

  /**
   * @brief Adopts buffers: rows [offset, offset + size), row `i` being bytes
   * [offsets[offset + i], offsets[offset + i + 1]) of `chars`; validity from bits
   * [offset, offset + size) of `mask` (empty: no mask), with `null_count` nulls (not recounted).
   * The offsets' values are not read. O(1); nothing is copied or synchronised.
   * @param offsets at least `offset + size + 1` offsets of `O`, aligned for `O` (empty for 0 rows)
   * @param chars the characters the offsets point into
   * @param mask the validity words covering bits [offset, offset + size), or empty for no mask
   * @param size the number of rows
   * @param null_count the number of null rows among them, trusted as given
   * @param offset the first row, in offsets and mask alike
   * @throws devcol::logic_error naming the sizes when a buffer is too small or misaligned, or the count impossible
   */
  basic_strings_column(buffer_type offsets, buffer_type chars, buffer_type mask, std::size_t size,
                       std::size_t null_count, std::size_t offset = 0)
      : rows_base(std::move(mask), size, null_count, offset), offsets_(std::move(offsets)), chars_(std::move(chars)) {
    detail::check_offsets_buffer<O>(kind_name, offsets_, offset, size);
    this->check_rows_state();
  }

  /**
   * @brief The byte range [first, last) of the characters buffer that the rows span: reads two
   * offsets to the host and synchronises `stream`. {0, 0} without buffers. An operation: under a
   * spill lock of its own, so it never pins the offsets on the device for good (rule 20).
   * @param stream the stream the two reads are ordered on
   * @throws devcol::cuda_error if a copy fails
   */
  [[nodiscard]] std::pair<std::size_t, std::size_t> chars_range(stream_ref stream = {}) const {
    detail::operation_spill_lock<Policy> const spill_scope{stream};
    return detail::offsets_span(offsets(access::read), size_, stream);
  }
  /// @brief The rows' bytes in all: chars_range()'s length (one synchronisation).
  /// @param stream the stream the two offset reads are ordered on
  /// @throws devcol::cuda_error if a copy fails
  [[nodiscard]] std::size_t chars_size(stream_ref stream = {}) const {
    auto const [first, last] = chars_range(stream);
    return last - first;
  }

  /// @brief Row 0's offset, read-only (`size() + 1` follow); null without buffers. Never copies.
  [[nodiscard]] O const* offsets(access::read_t) const noexcept(!Policy::spill::enabled) {
    auto const* base = static_cast<O const*>(offsets_.data(access::read));
    return base != nullptr ? base + offset_ : nullptr;
  }
  /// @brief The characters buffer's first byte, read-only (offsets are absolute in it). Never copies.
  [[nodiscard]] char const* chars(access::read_t) const noexcept(!Policy::spill::enabled) {
    return static_cast<char const*>(chars_.data(access::read));
  }
  /**
   * @brief The characters, writable in place (same lengths: the offsets stay as they are): if the
   * buffers are shared under copy-on-write, or borrowed, this column first gets its own copy of
   * its rows (rule 3: a writer copies its own range first so other handles keep the old values;
   * then the rows start at byte 0 and offset() is 0), else nothing is copied (rule 4: a sole owner
   * writes in place). For use before this column is next copied or sliced.
   * @param stream the stream a copy, if one is needed, is ordered on
   * @throws what allocation and copying throw, when the rows are copied
   */
  [[nodiscard]] char* chars(access::write_t, stream_ref stream = {}) {
    unshare(stream);
    return const_cast<char*>(chars(access::read));
  }

  /// @brief A read-only view for kernels; never copies. Spillable: unspills first; the view stays
  /// valid until the next spill unless taken under a `devcol::spill_lock`.
  [[nodiscard]] view_type view() const noexcept(!Policy::spill::enabled) {
    return view_type{offsets(access::read), chars(access::read), size_, this->null_mask(access::read), offset_,
                     null_count_};
  }
  /// @brief Same as view().
  operator view_type() const noexcept(!Policy::spill::enabled) { return view(); }  // NOLINT: implicit, as libcudf's

  /// @brief Spillable policies: moves the buffers to host memory unless exposed or locked; returns the device bytes freed.
  /// Synchronises `stream`; allocates host memory (pinned on CUDA).
  /// @param stream the stream the copies to the host are ordered on
  /// @throws devcol::out_of_memory when host memory runs out; devcol::cuda_error if a copy fails
  std::size_t spill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    return offsets_.spill(stream) + chars_.spill(stream) + mask_.spill(stream);
  }
  /// @brief Spillable policies: brings the buffers back to the device. Synchronises.
  /// @param stream accepted for symmetry with spill(); the buffers copy on their own streams
  /// @throws what the device allocation throws (the bytes then stay on the host)
  void unspill(stream_ref stream = {})
    requires Policy::spill::enabled
  {
    offsets_.unspill(stream);
    chars_.unspill(stream);
    mask_.unspill(stream);
  }
  /// @brief Spillable policies: whether any buffer is in host memory now.
  [[nodiscard]] bool is_spilled() const noexcept
    requires Policy::spill::enabled
  {
    return offsets_.is_spilled() || chars_.is_spilled() || mask_.is_spilled();
  }

  /// @brief Whether another handle shares any of the buffers.
  [[nodiscard]] bool is_shared() const noexcept { return offsets_.is_shared() || chars_.is_shared() || mask_.is_shared(); }
  /// @brief Whether the memory was made elsewhere (an import): writes copy it first.
  [[nodiscard]] bool is_borrowed() const noexcept {
    return offsets_.is_borrowed() || chars_.is_borrowed() || mask_.is_borrowed();
  }
  /// @brief Whether any buffer was exposed: handed out as a raw mutable pointer, which marks it
  /// for good (rule 11).
  [[nodiscard]] bool is_exposed() const noexcept {
    return offsets_.is_exposed() || chars_.is_exposed() || mask_.is_exposed();
  }
  /// @brief Whether writes copy first.
  [[nodiscard]] bool copy_on_write() const noexcept { return offsets_.copy_on_write(); }
  /// @brief Another column on the same buffers even when exposed (rule 12, which makes a shallow
  /// copy of exposed memory a deep one, does not apply). O(1).
  [[nodiscard]] basic_strings_column alias() const noexcept {
    basic_strings_column out;
    out.offsets_ = offsets_.alias();
    out.chars_ = chars_.alias();
    this->alias_rows(out);
    return out;
  }
  /// @brief The offsets' buffer (the whole allocation; empty for a column without buffers).
  [[nodiscard]] buffer_type const& offsets_buffer() const noexcept { return offsets_; }
  /// @brief The characters' buffer.
  [[nodiscard]] buffer_type const& chars_buffer() const noexcept { return chars_; }
  /// @brief The resource that made the offsets (what ops allocate results from).
  [[nodiscard]] resource_type resource() const { return offsets_.resource(); }
  /// @brief The name of that resource.
  [[nodiscard]] std::string resource_name() const { return offsets_.resource_name(); }

 private:
  auto own_state() noexcept { return std::tie(offsets_, chars_); }
  // deep_copy()'s part: offsets rebased to start at 0 and the rows' bytes, after reading the first
  // and last offsets to the host (one synchronisation of `stream`).
  void copy_own_rows(basic_strings_column& out, stream_ref stream) const {
    if (offsets_.empty()) { return; }  // 0 rows (see the constructor)
    scoped_device const on_device(offsets_.device());  // rule 21: copied on, and allocated on, its device
    auto const [first, last] = chars_range(stream);
    out.offsets_ = detail::rebased_offsets<O, buffer_type>(offsets(access::read), size_, first, stream, offsets_.resource());
    out.chars_ = buffer_type(last - first, stream, mr::default_alignment, chars_.resource());
    copy_bytes(out.chars_.data(access::write, stream), chars(access::read) + first, last - first, stream);
    offsets_.read_on(stream);
    chars_.read_on(stream);
  }
  // Rule 3: a writer whose buffers are shared (or borrowed) takes its own copy of its own rows.
  void unshare(stream_ref stream) {
    if (offsets_.writes_copy() || chars_.writes_copy() || mask_.writes_copy()) { this->take_own_copy(stream); }
  }

  buffer_type offsets_;
  buffer_type chars_;
};

/// @brief The Arrow format string of a strings or binary column with offsets `O`: "u", "U", "z" or "Z".
/// @tparam O the offset type, `std::int32_t` or `std::int64_t`
/// @tparam E what the bytes are: `encoding::utf8` (utf8) or `encoding::binary` (binary)
template <arrow_offset O, encoding E = encoding::utf8>
inline constexpr std::string_view strings_format_v =
    E == encoding::utf8 ? (sizeof(O) == 4 ? "u" : "U") : (sizeof(O) == 4 ? "z" : "Z");
/// @brief The type of a strings or binary column with offsets `O`, as pyarrow names it: "string",
/// "large_string", "binary" or "large_binary".
/// @tparam O the offset type, `std::int32_t` or `std::int64_t`
/// @tparam E what the bytes are
template <arrow_offset O, encoding E = encoding::utf8>
inline constexpr std::string_view strings_type_name_v = E == encoding::utf8
                                                            ? (sizeof(O) == 4 ? "string" : "large_string")
                                                            : (sizeof(O) == 4 ? "binary" : "large_binary");

DEVCOL_NAMESPACE_END
