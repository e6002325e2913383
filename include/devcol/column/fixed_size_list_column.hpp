/**
 * @file fixed_size_list_column.hpp
 * @brief `devcol::fixed_size_list_column`: Arrow fixed-size list ("+w:N") of any column kind.
 *
 * The kind's public header. A nested kind's members work on its child as an `any_column`, so this
 * brings the whole variant (any_column.hpp), which defines the class (in
 * detail/fixed_size_list_column.hpp) before the free functions its members call: no include loop.
 */
#pragma once

#include <devcol/column/any_column.hpp>
