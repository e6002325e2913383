/**
 * @file dictionary_column.hpp
 * @brief `devcol::dictionary_column`: Arrow dictionary encoding, int32 indices into a values
 * column of any kind (cuDF's dictionary32).
 *
 * The kind's public header. A nested kind's members work on its children as `any_column`s, so
 * this brings the whole variant (any_column.hpp), which defines the class (in
 * detail/dictionary_column.hpp) before the free functions its members call: no include loop.
 */
#pragma once

#include <devcol/column/any_column.hpp>
