// The table/Arrow program of table_arrow.cpp, including only the headers it uses instead of the
// umbrella: the factories, the table and the Arrow exchange of tables (header-only, arrow_table.hpp
// is to_arrow.hpp and from_arrow.hpp; in the precompiled mode it declares the library's functions).
#include <devcol/column/factories.hpp>
#include <devcol/column/table.hpp>
#include <devcol/interop/arrow_table.hpp>

#include "table_arrow_body.hpp"
