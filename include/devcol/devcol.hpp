/**
 * @file devcol.hpp
 * @brief The umbrella header: includes every public devcol header.
 */
#pragma once

#include <devcol/core/callback.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/error.hpp>
#include <devcol/core/event.hpp>
#include <devcol/core/stream.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/core/version.hpp>

#include <devcol/memory/aligned.hpp>
#include <devcol/memory/allocation.hpp>
#include <devcol/memory/cccl_resource.hpp>
#include <devcol/memory/cuda_async.hpp>
#include <devcol/memory/cuda_device.hpp>
#include <devcol/memory/default_resource.hpp>
#include <devcol/memory/host_aligned.hpp>
#include <devcol/memory/limiting.hpp>
#include <devcol/memory/logging.hpp>
#include <devcol/memory/managed.hpp>
#include <devcol/memory/on_oom.hpp>
#include <devcol/memory/pinned_host.hpp>
#include <devcol/memory/pool.hpp>
#include <devcol/memory/resource.hpp>
#include <devcol/memory/resource_handle.hpp>
#include <devcol/memory/resource_ref.hpp>
#include <devcol/memory/statistics.hpp>
#include <devcol/memory/tracking.hpp>

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/options.hpp>
#include <devcol/buffer/policy.hpp>

#include <devcol/column/any_column.hpp>
#include <devcol/column/binary_view_column.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/column_view.hpp>
#include <devcol/column/decimal_column.hpp>
#include <devcol/column/dictionary_column.hpp>
#include <devcol/column/factories.hpp>
#include <devcol/column/field_info.hpp>
#include <devcol/column/fixed_size_binary_column.hpp>
#include <devcol/column/fixed_size_list_column.hpp>
#include <devcol/column/host_value.hpp>
#include <devcol/column/kind.hpp>
#include <devcol/column/list_column.hpp>
#include <devcol/column/list_view_column.hpp>
#include <devcol/column/nested_factories.hpp>
#include <devcol/column/null_column.hpp>
#include <devcol/column/run_end_encoded_column.hpp>
#include <devcol/column/string_view.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/column/struct_column.hpp>
#include <devcol/column/union_column.hpp>
#include <devcol/column/table.hpp>
#include <devcol/column/to_host.hpp>
#include <devcol/column/types.hpp>
#include <devcol/column/validity_view.hpp>

#include <devcol/spill/spill.hpp>
#include <devcol/spill/spill_lock.hpp>
#include <devcol/spill/spill_manager.hpp>
#include <devcol/ops/cast.hpp>
#include <devcol/ops/compare.hpp>
#include <devcol/ops/concatenate.hpp>
#include <devcol/ops/fill.hpp>
#include <devcol/ops/filter.hpp>
#include <devcol/ops/gather.hpp>
#include <devcol/ops/null_mask.hpp>
#include <devcol/ops/reduce.hpp>
#include <devcol/ops/scan.hpp>
#include <devcol/ops/sort.hpp>
#include <devcol/ops/strings.hpp>
#include <devcol/ops/transform.hpp>

#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/arrow_stream.hpp>
#include <devcol/interop/arrow_table.hpp>
#include <devcol/interop/dlpack.hpp>
#include <devcol/interop/dlpack_abi.hpp>
#include <devcol/interop/from_arrow.hpp>
#include <devcol/interop/to_arrow.hpp>
