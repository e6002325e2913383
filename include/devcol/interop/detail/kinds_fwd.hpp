/**
 * @file kinds_fwd.hpp
 * @brief The declarations of the dispatch over every kind (defined in interop/detail/kinds.hpp),
 * for the nested kinds, whose children are columns of any kind: a list exports, checks and imports
 * its child through these.
 *
 * Its functions without template parameters of their own are `template <int = 0>`, for the reason
 * import_guard.hpp gives.
 */
#pragma once

#include <devcol/buffer/policy.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/interop/detail/import_guard.hpp>

#include <memory>
#include <string>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

template <buffer_policy Policy>
std::unique_ptr<schema_node> schema_of(any_column<Policy> const& col, std::string name);
template <buffer_policy Policy>
std::unique_ptr<array_node> export_node(any_column<Policy> const& col, stream_ref stream);
template <class K>
std::unique_ptr<array_node> pinned_export_node(K const& col, stream_ref stream);
template <buffer_policy Policy>
arrow_device device_of(any_column<Policy> const& col);
template <buffer_policy Policy>
any_column<Policy> import_any(ArrowArray const& array, arrow_field const& field,
                              std::shared_ptr<void const> const& keep, stream_ref stream);
template <buffer_policy Policy>
any_column<Policy> import_any(ArrowArray const& array, arrow_field const& field,
                              std::shared_ptr<void const> const& keep, stream_ref stream, std::string const& path);
// Called as check_any<0>: a default template argument on this declaration would be repeated on the
// definition by nvcc's front end, which the host compiler then rejects as a redefinition.
template <int Deferred>
void check_any(ArrowArray const& array, arrow_field const& field, std::string const& path);

}  // namespace detail
DEVCOL_NAMESPACE_END
