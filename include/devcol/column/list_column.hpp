/**
 * @file list_column.hpp
 * @brief `devcol::basic_list_column`: Arrow list (`list_column`, 32-bit offsets, "+l") and large
 * list (`large_list_column`, 64-bit offsets, "+L") of any column kind, and `list_column_view`.
 *
 * The kind's public header. A nested kind's members work on its children as `any_column`s, so
 * this brings the whole variant (any_column.hpp), which defines the class (in
 * detail/list_column.hpp) before the free functions its members call: no include loop.
 */
#pragma once

#include <devcol/column/any_column.hpp>
