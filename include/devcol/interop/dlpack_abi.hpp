/**
 * @file dlpack_abi.hpp
 * @brief The DLPack ABI (the versioned managed tensor of DLPack 1.0) that devcol exchanges with
 * PyTorch, CuPy, JAX and NumPy.
 *
 * When `<dlpack/dlpack.h>` is on the include path, that header is used. Otherwise these
 * definitions stand in for it, under its include guard (as Arrow C++ does): include the real header
 * first if a translation unit needs more of it than DLPack 1.0.
 */
#pragma once

#include <devcol/core/config.hpp>

#include <cstdint>

#if __has_include(<dlpack/dlpack.h>)
#  include <dlpack/dlpack.h>
#endif

#ifndef DLPACK_DLPACK_H_
#define DLPACK_DLPACK_H_

#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 0

#ifdef __cplusplus
extern "C" {
#endif

/// The DLPack version a tensor was made under.
typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

/// Where a tensor's memory is (the same numbering as Arrow's device types). 32 bits in C++ too, as
/// DLPack's own header makes it, so that a producer's value past the enumerators is one C++ may load.
#ifdef __cplusplus
typedef enum : int32_t {
#else
typedef enum {
#endif
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
} DLDeviceType;

/// A device type and its ordinal.
typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

/// The kind of an element type.
typedef enum {
  kDLInt = 0U,
  kDLUInt = 1U,
  kDLFloat = 2U,
  kDLOpaqueHandle = 3U,
  kDLBfloat = 4U,
  kDLComplex = 5U,
  kDLBool = 6U,
} DLDataTypeCode;

/// An element type: its kind, its width in bits and its vector lanes.
typedef struct {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} DLDataType;

/// A strided view of memory: no ownership.
typedef struct {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
} DLTensor;

/// The unversioned managed tensor (DLPack before 1.0).
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensor* self);
} DLManagedTensor;

/// The consumer must not write the tensor's memory.
#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
/// The producer copied the memory for this tensor.
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)

/// The versioned managed tensor: a tensor, its version and flags, and how to hand it back.
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;

#ifdef __cplusplus
}
#endif

#endif  // DLPACK_DLPACK_H_

static_assert(sizeof(DLTensor) == 48 && sizeof(DLManagedTensorVersioned) == 80, "DLPack 1.x layout");
