// One int64 column in a table, exported with to_arrow and read back with table_from_arrow, through
// the umbrella.
#include <devcol/devcol.hpp>

#include "table_arrow_body.hpp"
