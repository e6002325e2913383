// A translation unit that includes devcol only through <devcol/column/fwd.hpp> (fwd_user.hpp): it
// names every kind, passes them on by reference and returns a table by value to its caller, all
// without the kinds' definitions. Built apart from the unity units, which include everything.
#include "fwd_user.hpp"

#include <cstddef>

namespace devcol_test::fwd {
namespace {
/// Whether `T` is complete here.
template <class T>
concept complete = requires { sizeof(T); };
}  // namespace

// The header declares; it defines no kind (a definition would bring the column code it keeps out).
static_assert(!complete<devcol::column<std::int64_t>>);
static_assert(!complete<devcol::strings_column>);
static_assert(!complete<devcol::list_column>);
static_assert(!complete<devcol::any_column<>>);
static_assert(!complete<devcol::table>);

std::size_t total_rows(every_kind const& c) {
  return rows_of(*c.int64s) + rows_of(*c.timestamps) + rows_of(*c.strings) + rows_of(*c.large_binary) +
         rows_of(*c.decimals) + rows_of(*c.fixed_size_binary) + rows_of(*c.nulls) + rows_of(*c.string_views) +
         rows_of(*c.lists) + rows_of(*c.structs) + rows_of(*c.dictionary) + rows_of(*c.fixed_size_lists) +
         rows_of(*c.run_end_encoded) + rows_of(*c.list_views) + rows_of(*c.unions);
}

}  // namespace devcol_test::fwd
