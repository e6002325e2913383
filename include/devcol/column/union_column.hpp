/**
 * @file union_column.hpp
 * @brief `devcol::union_column`: Arrow sparse ("+us:<codes>") and dense ("+ud:<codes>") unions of
 * children of any column kind.
 *
 * The kind's public header. A nested kind's members work on its children as `any_column`s, so this
 * brings the whole variant (any_column.hpp), which defines the class (in detail/union_column.hpp)
 * before the free functions its members call: no include loop.
 */
#pragma once

#include <devcol/column/any_column.hpp>
