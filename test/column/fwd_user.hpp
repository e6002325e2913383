// What a library's public header looks like when it names devcol's types through
// <devcol/column/fwd.hpp> alone: declarations over every kind, and a struct of references and
// pointers. Included by fwd_only.cpp, which sees nothing else of devcol, and by test_fwd.cpp, which
// defines these functions with the full headers.
#pragma once

#include <devcol/column/fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace devcol_test::fwd {

/// One column of each kind, as a caller of the library holds them.
struct every_kind {
  devcol::column<std::int64_t> const* int64s;
  devcol::column<devcol::timestamp_ns> const* timestamps;
  devcol::strings_column const* strings;
  devcol::large_binary_column const* large_binary;
  devcol::decimal128_column const* decimals;
  devcol::fixed_size_binary_column<> const* fixed_size_binary;
  devcol::null_column<> const* nulls;
  devcol::string_view_column const* string_views;
  devcol::list_column const* lists;
  devcol::struct_column<> const* structs;
  devcol::dictionary_column<> const* dictionary;
  devcol::fixed_size_list_column<> const* fixed_size_lists;
  devcol::run_end_encoded_column<devcol::default_policy> const* run_end_encoded;
  devcol::large_list_view_column const* list_views;
  devcol::union_column<devcol::default_policy> const* unions;
};

// Defined in test_fwd.cpp.
std::size_t rows_of(devcol::column<std::int64_t> const& col);
std::size_t rows_of(devcol::column<devcol::timestamp_ns> const& col);
std::size_t rows_of(devcol::strings_column const& col);
std::size_t rows_of(devcol::large_binary_column const& col);
std::size_t rows_of(devcol::decimal128_column const& col);
std::size_t rows_of(devcol::fixed_size_binary_column<> const& col);
std::size_t rows_of(devcol::null_column<> const& col);
std::size_t rows_of(devcol::string_view_column const& col);
std::size_t rows_of(devcol::list_column const& col);
std::size_t rows_of(devcol::struct_column<> const& col);
std::size_t rows_of(devcol::dictionary_column<> const& col);
std::size_t rows_of(devcol::fixed_size_list_column<> const& col);
std::size_t rows_of(devcol::run_end_encoded_column<devcol::default_policy> const& col);
std::size_t rows_of(devcol::large_list_view_column const& col);
std::size_t rows_of(devcol::union_column<devcol::default_policy> const& col);
std::size_t rows_of(devcol::any_column<> const& col);
devcol::table with_column(devcol::table const& t, std::string const& name, devcol::any_column<> const& col);

// Defined in fwd_only.cpp, from the declarations above alone.
std::size_t total_rows(every_kind const& columns);

}  // namespace devcol_test::fwd
