/**
 * @file struct_column.hpp
 * @brief `devcol::struct_column`: Arrow struct ("+s"), named children of any kind.
 *
 * The kind's public header. A nested kind's members work on its children as `any_column`s, so
 * this brings the whole variant (any_column.hpp), which defines the class (in
 * detail/struct_column.hpp) before the free functions its members call: no include loop.
 */
#pragma once

#include <devcol/column/any_column.hpp>
