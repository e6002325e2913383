/**
 * @file list_view_column.hpp
 * @brief `devcol::basic_list_view_column`: Arrow list view (`list_view_column`, "+vl") and large
 * list view (`large_list_view_column`, "+vL") of any column kind.
 *
 * The kind's public header. A nested kind's members work on its child as an `any_column`, so this
 * brings the whole variant (any_column.hpp), which defines the class (in
 * detail/list_view_column.hpp) before the free functions its members call: no include loop.
 */
#pragma once

#include <devcol/column/any_column.hpp>
