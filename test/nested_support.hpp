// What the nested tests share (column, ops and Arrow): samples of nested columns with nulls at
// every level and empty lists, each with its host model (host_value rows).
#pragma once

#include "support.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace devcol_test::nested_samples {

using devcol::host_value;
/// Rows on the host.
using values = std::vector<host_value>;

/// A column and its rows on the host.
template <class Column>
struct sample {
  Column col;
  values model;
};

/// `n` rows of list<struct<a: string, b: int64>>: row i has (7 i) % 4 elements (some empty
/// lists), a null list every eighth row from 3, null structs, strings and ints among the elements.
inline sample<devcol::any_column<>> list_of_structs(std::size_t n) {
  std::vector<std::int32_t> offsets{0};
  std::vector<std::optional<std::string>> a;
  std::vector<std::optional<std::int64_t>> b;
  std::vector<bool> struct_valid;
  std::vector<bool> list_valid;
  values model;
  std::size_t e = 0;
  for (std::size_t i = 0; i < n; ++i) {
    host_value::list row;
    for (std::size_t k = 0; k < (i * 7) % 4; ++k, ++e) {
      std::optional<std::string> s;
      if (e % 5 != 1) { s = std::string(e % 3, 'q') + std::to_string(e); }
      std::optional<std::int64_t> v;
      if (e % 6 != 4) { v = static_cast<std::int64_t>(e * 3) - 20; }
      bool const ok = e % 9 != 7;
      a.push_back(s);
      b.push_back(v);
      struct_valid.push_back(ok);
      row.push_back(ok ? devcol::host_struct({{"a", s}, {"b", v}}) : host_value());
    }
    offsets.push_back(static_cast<std::int32_t>(e));
    list_valid.push_back(i % 8 != 3);
    model.push_back(list_valid.back() ? host_value(row) : host_value());
  }
  auto st = devcol::make_struct_column(
      {{"a", devcol::make_strings_column(a)}, {"b", devcol::make_column<std::int64_t>(b)}}, struct_valid);
  return {devcol::make_list_column(offsets, std::move(st), list_valid), std::move(model)};
}

/// `n` lists of int64: row i has i % 4 elements (rows 0, 4, … empty), every fifth row from 2 null
/// when `nulls` (else no mask), null elements too.
inline sample<devcol::list_column> int_lists(std::size_t n, bool nulls = true) {
  std::vector<std::int32_t> offsets{0};
  std::vector<std::optional<std::int64_t>> child;
  std::vector<bool> valid;
  values model;
  for (std::size_t i = 0; i < n; ++i) {
    bool const ok = !nulls || i % 5 != 2;
    host_value::list row;
    for (std::size_t k = 0; k < i % 4; ++k) {
      std::optional<std::int64_t> v;
      if ((i + k) % 7 != 3) { v = static_cast<std::int64_t>(i * 10 + k); }
      child.push_back(v);
      row.push_back(v);
    }
    offsets.push_back(static_cast<std::int32_t>(child.size()));
    valid.push_back(ok);
    model.push_back(ok ? host_value(row) : host_value());
  }
  return {devcol::make_list_column(offsets, devcol::make_column<std::int64_t>(child), nulls ? valid : std::vector<bool>{}),
          std::move(model)};
}

/// Rows [b, e) of host rows.
inline values rows_of(values const& v, std::size_t b, std::size_t e) {
  return values(v.begin() + static_cast<std::ptrdiff_t>(b), v.begin() + static_cast<std::ptrdiff_t>(e));
}

}  // namespace devcol_test::nested_samples
