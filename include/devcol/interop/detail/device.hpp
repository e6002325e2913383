/**
 * @file device.hpp
 * @brief Where memory lives, in the Arrow C Device Data Interface's terms, and the checks the
 * importers share.
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/detail/retired_streams.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/error.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>

#include <cstdint>
#include <string_view>

/// Throws `devcol::arrow_error` unless `cond` holds; the remaining arguments name the field and value.
#define DEVCOL_ARROW_EXPECTS(cond, ...) DEVCOL_EXPECTS_OR_THROW(::devcol::arrow_error, cond, __VA_ARGS__)

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// A device type and id, as an ArrowDeviceArray states them.
struct arrow_device {
  ArrowDeviceType type;
  std::int64_t id;
};

/// The name of an Arrow device type, for messages ("CUDA", "CPU", ...; "unknown" past the list).
[[nodiscard]] constexpr std::string_view arrow_device_name(ArrowDeviceType type) noexcept {
  switch (type) {
    case ARROW_DEVICE_CPU: return "CPU";
    case ARROW_DEVICE_CUDA: return "CUDA";
    case ARROW_DEVICE_CUDA_HOST: return "CUDA_HOST";
    case ARROW_DEVICE_OPENCL: return "OPENCL";
    case ARROW_DEVICE_VULKAN: return "VULKAN";
    case ARROW_DEVICE_METAL: return "METAL";
    case ARROW_DEVICE_VPI: return "VPI";
    case ARROW_DEVICE_ROCM: return "ROCM";
    case ARROW_DEVICE_ROCM_HOST: return "ROCM_HOST";
    case ARROW_DEVICE_EXT_DEV: return "EXT_DEV";
    case ARROW_DEVICE_CUDA_MANAGED: return "CUDA_MANAGED";
    case ARROW_DEVICE_ONEAPI: return "ONEAPI";
    case ARROW_DEVICE_WEBGPU: return "WEBGPU";
    case ARROW_DEVICE_HEXAGON: return "HEXAGON";
    default: return "unknown";
  }
}

/// devcol::current_device() as an Arrow device id (-1 on the host backend, Arrow's "no device id").
[[nodiscard]] inline std::int64_t current_device_id() {
  return DEVCOL_BACKEND_CUDA ? current_device().value() : -1;
}

/**
 * @brief Where `p` lives: on CUDA, what the driver says of the pointer (device, pinned host,
 * managed, or pageable host memory); on the host backend, the CPU with device id -1. A null pointer
 * (an empty column) is on the current device. A host call, no synchronisation.
 */
[[nodiscard]] inline arrow_device device_of(void const* p) {
#if DEVCOL_BACKEND_CUDA
  if (p == nullptr) { return {ARROW_DEVICE_CUDA, current_device_id()}; }
  cudaPointerAttributes attributes{};
  DEVCOL_CUDA_TRY(cudaPointerGetAttributes(&attributes, p));
  switch (attributes.type) {
    case cudaMemoryTypeDevice: return {ARROW_DEVICE_CUDA, attributes.device};
    case cudaMemoryTypeHost: return {ARROW_DEVICE_CUDA_HOST, attributes.device};
    case cudaMemoryTypeManaged: return {ARROW_DEVICE_CUDA_MANAGED, attributes.device};
    default: return {ARROW_DEVICE_CPU, -1};
  }
#else
  (void)p;
  return {ARROW_DEVICE_CPU, -1};
#endif
}

/// Whether this backend's kernels can read memory of device type `type`: the CPU on the host
/// backend; device, pinned or managed memory on CUDA.
[[nodiscard]] constexpr bool readable_device_type(ArrowDeviceType type) noexcept {
#if DEVCOL_BACKEND_CUDA
  return type == ARROW_DEVICE_CUDA || type == ARROW_DEVICE_CUDA_HOST || type == ARROW_DEVICE_CUDA_MANAGED;
#else
  return type == ARROW_DEVICE_CPU;
#endif
}

/// @throws devcol::arrow_error naming `type` unless readable_device_type(type)
template <int = 0>
void expect_readable_device_type(ArrowDeviceType type, std::string_view what) {
  DEVCOL_ARROW_EXPECTS(readable_device_type(type), what, ".device_type ", type, " (", arrow_device_name(type),
                       ") is not readable by the ", DEVCOL_BACKEND_CUDA ? "CUDA backend (CUDA, CUDA_HOST or CUDA_MANAGED)"
                                                                        : "host backend (CPU only)");
}

/**
 * @brief Checks that this backend's kernels can read memory on `device`: on the host backend, the
 * CPU (device id -1 or 0, both seen from real producers); on CUDA, the current device, or pinned
 * or managed memory. @throws devcol::arrow_error naming the type and id otherwise
 */
template <int = 0>
void expect_readable_device(arrow_device device, std::string_view what) {
  expect_readable_device_type(device.type, what);
  if (device.type == ARROW_DEVICE_CUDA) {
    std::int64_t const current = current_device_id();
    DEVCOL_ARROW_EXPECTS(device.id == current, what, ".device_id ", device.id, " is not the current CUDA device ",
                         current);
  }
  if (device.type == ARROW_DEVICE_CPU) {
    DEVCOL_ARROW_EXPECTS(device.id == -1 || device.id == 0, what, ".device_id ", device.id,
                         " is not a CPU device id (-1 or 0)");
  }
}

/**
 * @brief Makes `stream` wait for the producer's `sync_event` (a `cudaEvent_t*`), without blocking
 * the host. CPU arrays need no synchronisation: their event, if any, is ignored, as the host backend
 * ignores every event. @throws devcol::cuda_error
 */
inline void wait_for_producer(void* sync_event, ArrowDeviceType type, stream_ref stream) {
#if DEVCOL_BACKEND_CUDA
  if (sync_event != nullptr && type != ARROW_DEVICE_CPU) {
    DEVCOL_CUDA_TRY(cudaStreamWaitEvent(stream.value(), *static_cast<cudaEvent_t*>(sync_event), 0));
  }
#else
  (void)sync_event;
  (void)type;
  (void)stream;
#endif
}

/**
 * @brief Before a producer's memory is handed back (an Arrow `release`, a DLPack `deleter`), which
 * may free it at once: waits for the work devcol queued on `stream`, the import's stream, over
 * that memory (copies, kernels, and through events the work of other streams that read it). A
 * host synchronisation on CUDA, nothing on the host backend. `device` is the one current at the
 * import, made current for the wait (rule 21): the default stream is a device's own, and the last
 * handle may go with another device current. Never throws (a failure is asserted in debug
 * builds): it runs in destructors.
 */
inline void wait_before_hand_back(stream_ref stream, [[maybe_unused]] device_id device) noexcept {
#if DEVCOL_BACKEND_CUDA
  scoped_device const on_device(device, std::nothrow);
  DEVCOL_ASSERT_CUDA_SUCCESS(cudaStreamSynchronize(live_stream(stream).value()));  // the stream may be gone
#else
  (void)stream;
#endif
}

}  // namespace detail
DEVCOL_NAMESPACE_END
