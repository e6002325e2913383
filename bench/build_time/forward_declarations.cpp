// What a header that only names devcol's types costs: a library's declarations over columns, a
// table and a stream, through <devcol/column/fwd.hpp> alone (their definitions are in the file
// that implements them).
#include <devcol/column/fwd.hpp>

#include <cstdint>
#include <string>

devcol::table load(devcol::strings_column const& names, devcol::column<std::int64_t> const& ids, devcol::stream_ref s);
devcol::any_column<> pick(devcol::list_column const& lists, devcol::column<std::int32_t> const& rows, devcol::stream_ref s);
void save(devcol::table const& t, std::string const& path, devcol::stream_ref s);

int main() { return 0; }
