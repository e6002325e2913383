/**
 * @file dlpack.hpp
 * @brief Fixed-width columns without nulls as DLPack tensors (`DLManagedTensorVersioned`), and back.
 */
#pragma once

#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/error.hpp>
#include <devcol/core/source_location.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/dlpack_abi.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>

/// Throws `devcol::dlpack_error` unless `cond` holds; the remaining arguments name the field and value.
#define DEVCOL_DLPACK_EXPECTS(cond, ...) DEVCOL_EXPECTS_OR_THROW(::devcol::dlpack_error, cond, __VA_ARGS__)

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// The DLPack element type of a value type, where DLPack has one: `supported` and `dtype`.
/// Arithmetic types are themselves; the primary template is for those DLPack cannot name.
template <class T>
struct dlpack_type {
  static constexpr bool supported = false;
};
template <class T>
  requires std::is_arithmetic_v<T>
struct dlpack_type<T> {
  static constexpr bool supported = true;
  static constexpr DLDataType dtype{static_cast<std::uint8_t>(std::is_same_v<T, bool>     ? kDLBool
                                                              : std::is_floating_point_v<T> ? kDLFloat
                                                              : std::is_signed_v<T>         ? kDLInt
                                                                                            : kDLUInt),
                                    static_cast<std::uint8_t>(sizeof(T) * 8), 1};
};
/// `__int128` is DLPack's 128-bit int, whether or not the standard traits call it arithmetic.
template <>
struct dlpack_type<int128_t> {
  static constexpr bool supported = true;
  static constexpr DLDataType dtype{kDLInt, 128, 1};
};
/// Half floats are DLPack's 16-bit float: the bits are IEEE binary16 either way.
template <>
struct dlpack_type<float16> {
  static constexpr bool supported = true;
  static constexpr DLDataType dtype{kDLFloat, 16, 1};
};
/// Durations, and the time points of every clock (timestamps, dates, times of day), as the
/// integer count of ticks they hold: DLPack has no time types, and NumPy and PyTorch read them so.
template <class Rep, class Period>
struct dlpack_type<::cuda::std::chrono::duration<Rep, Period>> : dlpack_type<Rep> {};
template <class Clock, class Duration>
struct dlpack_type<::cuda::std::chrono::time_point<Clock, Duration>> : dlpack_type<Duration> {};

template <fixed_width T>
[[nodiscard]] constexpr DLDataType dlpack_dtype() noexcept {
  static_assert(dlpack_type<T>::dtype.bits == sizeof(T) * 8);
  return dlpack_type<T>::dtype;
}

/// What a DLPack export keeps: the tensor, its shape and strides, and the column that owns the memory.
template <fixed_width T, buffer_policy Policy>
struct dlpack_export {
  DLManagedTensorVersioned tensor{};
  std::int64_t shape[1]{};
  std::int64_t strides[1]{1};
  column<T, Policy> kept;

  static void deleter(DLManagedTensorVersioned* self) noexcept { delete static_cast<dlpack_export*>(self->manager_ctx); }
};

[[nodiscard]] inline DLDevice dlpack_device(void const* p) {
  arrow_device const where = device_of(p);  // the numbering is the same; ids are ints in DLPack
  return DLDevice{static_cast<DLDeviceType>(where.type), where.id < 0 ? 0 : static_cast<std::int32_t>(where.id)};
}

/// Hands a tensor back to its producer when the last devcol handle on its memory goes.
struct dlpack_import {
  DLManagedTensorVersioned* tensor;
  stream_ref stream;  ///< the import's: the work devcol queues there is waited for before the deleter
  device_id stream_device;  ///< the device current at the import, whose default stream `stream` may be
  dlpack_import(DLManagedTensorVersioned* t, stream_ref s) noexcept
      : tensor(t), stream(s), stream_device(current_device_nothrow()) {}
  dlpack_import(dlpack_import const&) = delete;
  dlpack_import& operator=(dlpack_import const&) = delete;
  ~dlpack_import() {
    if (tensor->deleter == nullptr) { return; }
    wait_before_hand_back(stream, stream_device);
    tensor->deleter(tensor);
  }
};

}  // namespace detail

/**
 * @brief Satisfied by the fixed-width types a DLPack tensor can hold: integers, bool, floats,
 * `int128_t`, `float16`, and the time types as their integer ticks (timestamps, durations, dates,
 * times of day). Not the intervals (several fields per row) nor `int256_t` (DLPack has no 256-bit
 * type): `to_dlpack` and `from_dlpack` of those do not compile, with a message that says so.
 * @tparam T the type tested; cv-qualifiers are ignored
 */
template <class T>
concept dlpack_element = fixed_width<T> && detail::dlpack_type<std::remove_cv_t<T>>::supported;

/**
 * @brief Exports `col` as a one-dimensional DLPack tensor sharing its memory, which the consumer
 * may write: this is an exposure (rule 11). The column is first unshared if it shares its buffers
 * (a copy, in order on `stream`), then marked exposed for good, so its later copies are deep
 * (rule 12); writes through either side are seen by the other. The tensor keeps the memory alive
 * until its `deleter` is called (the caller's duty, as with any DLPack producer). On CUDA the
 * memory is ready once `stream`'s work so far completes: order the consumer after `stream`.
 * Element types (`dlpack_element`): their representation (timestamps, durations, dates and times
 * of day as their integer ticks, bool as 8-bit kDLBool, float16 as 16-bit kDLFloat).
 * @tparam T the column's value type
 * @tparam Policy the column's buffer policy
 * @param col the column to export (unshared and marked exposed)
 * @param stream the stream the unsharing copy runs on
 * @param where the place a spillable policy records for the exposure at spill statistics level 2
 * (rule 19): the caller unless given, not this function
 * @throws devcol::logic_error when the column has nulls (DLPack has no validity); what unsharing throws
 */
template <fixed_width T, buffer_policy Policy>
[[nodiscard]] DLManagedTensorVersioned* to_dlpack(column<T, Policy>& col, stream_ref stream = {},
                                                  source_location where = source_location::current()) {
  static_assert(dlpack_element<T>,
                "devcol::to_dlpack: DLPack has no type for this element (intervals and int256_t have none)");
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  DEVCOL_EXPECTS(!col.has_nulls(), "to_dlpack: the column has ", col.null_count(),
                 " nulls, which a DLPack tensor cannot hold (fill them first)");
  auto ctx = std::make_unique<detail::dlpack_export<T, Policy>>();
  T* values = nullptr;
  if constexpr (Policy::spill::enabled) {
    values = col.expose(stream, where);
  } else {
    (void)where;
    values = col.expose(stream);
  }
  // The tensor keeps the values alone: an alias of the mask too would share it with the column
  // (not exposed, so copy-on-write), and the column's next write would copy its rows away from
  // the tensor's memory.
  ctx->kept = column<T, Policy>(col.data_buffer().alias(), {}, col.size(), 0, col.offset());
  ctx->shape[0] = static_cast<std::int64_t>(col.size());
  DLManagedTensorVersioned& t = ctx->tensor;
  t.version = DLPackVersion{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  t.flags = 0;
  t.dl_tensor.data = values;
  t.dl_tensor.device = detail::dlpack_device(values);
  t.dl_tensor.ndim = 1;
  t.dl_tensor.dtype = detail::dlpack_dtype<T>();
  t.dl_tensor.shape = ctx->shape;
  t.dl_tensor.strides = ctx->strides;
  t.dl_tensor.byte_offset = 0;
  t.deleter = &detail::dlpack_export<T, Policy>::deleter;
  t.manager_ctx = ctx.get();
  return &ctx.release()->tensor;
}

namespace detail {
/// Whether byte `i` is neither 0 nor 1: what from_dlpack() refuses in a kDLBool tensor.
struct byte_above_one {
  std::uint8_t const* bytes;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept { return bytes[i] > 1; }
};
}  // namespace detail

/**
 * @brief Imports a one-dimensional, contiguous DLPack tensor as a column without a mask, taking
 * ownership: the column borrows the memory (never written by devcol: writes copy first) and the
 * producer's `deleter` is called exactly once, when the last handle goes (on CUDA after `stream`
 * has finished the work devcol queued over the memory: one host synchronisation, as for an Arrow
 * import's `release`), or at once on failure.
 * Unless the tensor is flagged read-only, its producer may still write it, so it counts as exposed:
 * copies of the column are deep (rule 12) and an Arrow export snapshots it.
 * Checked first: NULL tensor or data, a major version other than 1, `ndim` not 1, a dtype that is
 * not `T`'s representation, negative or non-unit strides, a device this backend cannot read,
 * values misaligned for `T`, and for `bool` a byte other than 0 or 1 (one pass over the bytes,
 * which synchronises `stream`). On CUDA the caller orders `stream` after the producer's work (DLPack's
 * stream exchange happens above this C ABI).
 * @tparam T the column's value type (the tensor's dtype must be its representation)
 * @tparam Policy the buffer policy of the column
 * @param tensor the producer's tensor, moved in (its deleter called exactly once)
 * @param stream the stream the import's work runs on (the deleter waits for it on CUDA)
 * @throws devcol::dlpack_error naming the field and value
 */
template <fixed_width T, buffer_policy Policy = default_policy>
[[nodiscard]] column<T, Policy> from_dlpack(DLManagedTensorVersioned* tensor, stream_ref stream = {}) {
  static_assert(dlpack_element<T>,
                "devcol::from_dlpack: DLPack has no type for this element (intervals and int256_t have none)");
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  DEVCOL_DLPACK_EXPECTS(tensor != nullptr, "from_dlpack: the tensor is NULL");
  std::shared_ptr<detail::dlpack_import> keep;  // from its making on, the deleter runs exactly once
  try {
    keep = std::make_shared<detail::dlpack_import>(tensor, stream);
  } catch (...) {
    if (tensor->deleter != nullptr) { tensor->deleter(tensor); }
    throw;
  }
  DEVCOL_DLPACK_EXPECTS(tensor->version.major == 1, "from_dlpack: version ", tensor->version.major, ".",
                        tensor->version.minor, " is not DLPack 1.x");
  DLTensor const& t = tensor->dl_tensor;
  DEVCOL_DLPACK_EXPECTS(t.ndim == 1, "from_dlpack: ndim is ", t.ndim, ", a column has 1");
  DEVCOL_DLPACK_EXPECTS(t.shape != nullptr && t.shape[0] >= 0, "from_dlpack: shape[0] is ",
                        t.shape != nullptr ? t.shape[0] : -1, " (NULL shape or negative)");
  std::int64_t const rows = t.shape[0];
  DLDataType const want = detail::dlpack_dtype<T>();
  DEVCOL_DLPACK_EXPECTS(t.dtype.code == want.code && t.dtype.bits == want.bits && t.dtype.lanes == want.lanes,
                        "from_dlpack: dtype (code ", int{t.dtype.code}, ", bits ", int{t.dtype.bits}, ", lanes ",
                        t.dtype.lanes, ") is not ", type_name_v<T>, "'s (code ", int{want.code}, ", bits ",
                        int{want.bits}, ", lanes 1)");
  DEVCOL_DLPACK_EXPECTS(t.strides == nullptr || rows <= 1 || t.strides[0] == 1, "from_dlpack: stride ",
                        t.strides != nullptr ? t.strides[0] : 1, " is not 1: a column is contiguous");
  auto const type = static_cast<ArrowDeviceType>(t.device.device_type);
  DEVCOL_DLPACK_EXPECTS(detail::readable_device_type(type), "from_dlpack: device type ", static_cast<int>(type), " (",
                        detail::arrow_device_name(type), ") is not readable by this backend");
  if (type == ARROW_DEVICE_CUDA) {
    std::int64_t const current = detail::current_device_id();
    DEVCOL_DLPACK_EXPECTS(t.device.device_id == current, "from_dlpack: device_id ", t.device.device_id,
                          " is not the current CUDA device ", current);
  }
  auto const size = static_cast<std::size_t>(rows);
  if (size == 0) { return column<T, Policy>{}; }  // nothing to borrow: the deleter runs now
  DEVCOL_DLPACK_EXPECTS(t.data != nullptr, "from_dlpack: data is NULL for ", rows, " rows");
  auto const* values = static_cast<std::byte const*>(t.data) + t.byte_offset;
  DEVCOL_DLPACK_EXPECTS(reinterpret_cast<std::uintptr_t>(values) % alignof(T) == 0, "from_dlpack: data + byte_offset (",
                        static_cast<void const*>(values), ") is not aligned for ", type_name_v<T>);
  DEVCOL_DLPACK_EXPECTS(size <= SIZE_MAX / sizeof(T), "from_dlpack: ", size, " rows overflow");
  if constexpr (std::is_same_v<T, bool>) {
    // A C++ bool is 0 or 1: any other byte would make every op that reads the column undefined.
    auto const* bytes = reinterpret_cast<std::uint8_t const*>(values);
    detail::executor exec(stream);
    std::size_t const bad = detail::find_first_n(exec, size, detail::byte_above_one{bytes});
    if (bad != size) {
      std::uint8_t byte = 0;
      copy_bytes(&byte, bytes + bad, 1, stream);
      stream.synchronize();
      detail::throw_message<dlpack_error>(__FILE__, __LINE__, "from_dlpack: row ", bad,
                                          " of a kDLBool tensor holds the byte ", int{byte}, ", not 0 or 1");
    }
  }
  // A tensor its producer may still write counts as exposed: copies of it are deep (rule 12).
  bool const writable_elsewhere = (tensor->flags & DLPACK_FLAG_BITMASK_READ_ONLY) == 0;
  using buffer_type = buffer<Policy>;
  return column<T, Policy>(buffer_type::borrow(values, size * sizeof(T), std::move(keep), stream, writable_elsewhere),
                           buffer_type{}, size, 0);
}

DEVCOL_NAMESPACE_END
