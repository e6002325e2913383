// The table/Arrow program of table_arrow.cpp, including only the headers it uses instead of the umbrella.
#include <devcol/column/factories.hpp>
#include <devcol/column/table.hpp>
#include <devcol/interop/from_arrow.hpp>
#include <devcol/interop/to_arrow.hpp>

#include "table_arrow_body.hpp"
