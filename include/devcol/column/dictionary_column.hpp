/**
 * @file dictionary_column.hpp
 * @brief `devcol::dictionary_column`: Arrow dictionary encoding, indices of any integer type
 * (`dictionary_indices`) into a values column of any kind.
 *
 * The kind's public header. A nested kind's members work on its children as `any_column`s, so
 * this brings the whole variant (any_column.hpp), which defines the class (in
 * detail/dictionary_column.hpp) before the free functions its members call: no include loop.
 */
#pragma once

#include <devcol/column/any_column.hpp>
