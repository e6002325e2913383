/**
 * @file run_end_encoded_column.hpp
 * @brief `devcol::run_end_encoded_column`: Arrow run-end encoded ("+r") over values of any column kind.
 *
 * The kind's public header. A nested kind's members work on its child as an `any_column`, so this
 * brings the whole variant (any_column.hpp), which defines the class (in
 * detail/run_end_encoded_column.hpp) before the free functions its members call: no include loop.
 */
#pragma once

#include <devcol/column/any_column.hpp>
