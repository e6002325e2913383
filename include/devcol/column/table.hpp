/**
 * @file table.hpp
 * @brief `devcol::table`: named columns of mixed types, all of one size.
 * Its default policy and `table` are declared in column/fwd.hpp.
 */
#pragma once

#include <devcol/buffer/policy.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/field_info.hpp>
#include <devcol/column/fwd.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief Named columns of any kinds (fixed width, strings, lists, structs, dictionaries), all with
 * the same number of rows (cuDF's column accessor), each held as an `any_column`. Columns are
 * held by value, so adding, selecting and copying share their buffers under the columns' sharing
 * policy: O(1) per column, no device work. Beside each column the table keeps its `field_info`
 * (an Arrow field's time zone, nullability, metadata, extension, child names, `ordered`) and the
 * schema's metadata, which an Arrow import fills and an export writes back.
 *
 * Names need not be unique, as in an Arrow schema (a query engine's `SELECT a, a` gives such a
 * record batch): a column is always reached by its index, and by its name when no other column
 * has that name; a lookup by a name several columns have throws, as pyarrow's does.
 * @tparam Policy the buffer policy every column of the table has
 */
template <buffer_policy Policy>
class basic_table {
 public:
  /// What each column is held as.
  using column_type = any_column<Policy>;

  /// @brief A table with no columns (and so no rows). Allocates nothing.
  basic_table();
  /// @brief Shares every column (O(1) per column, exposed buffers excepted, which are copied).
  /// @param other the table copied
  /// @throws std::bad_alloc, and what allocation and copying throw when exposed rows are copied
  basic_table(basic_table const& other);
  /// @brief Takes the columns; `other` is left with none. O(1).
  /// @param other the table moved from
  basic_table(basic_table&& other) noexcept;
  /// @brief As the copy constructor; the columns held before are released. Throws as it does.
  /// @param other the table copied
  /// @returns this table
  basic_table& operator=(basic_table const& other);
  /// @brief As the move constructor; the columns held before are released.
  /// @param other the table moved from
  /// @returns this table
  basic_table& operator=(basic_table&& other) noexcept;
  /// @brief Releases every column's buffers unless shared elsewhere.
  ~basic_table();

  /**
   * @brief Appends `col` under `name`. O(1) amortised; shares `col`'s buffers, copies nothing.
   * @tparam T the column's fixed-width value type
   * @param name its name; one that another column has too makes lookups by that name throw
   * @param col the column, with as many rows as the table (any size for the first column)
   * @param info what its Arrow field says beyond its type (default: nullable, nothing more)
   * @returns this table, to chain calls
   * @throws devcol::logic_error when the size differs from the table's rows
   */
  template <fixed_width T>
  basic_table& add(std::string name, column<T, Policy> col, field_info info = {});
  /// @brief Appends a column of any other kind (strings, list, struct, dictionary). Throws as add().
  /// @tparam C a column kind of this table's policy
  /// @param name its name (see add())
  /// @param col the column, with as many rows as the table
  /// @param info what its Arrow field says beyond its type
  /// @returns this table
  template <class C>
    requires column_kind<C, Policy>
  basic_table& add(std::string name, C col, field_info info = {});
  /// @brief Appends an already type-erased column. Throws as add().
  /// @param name its name (see add())
  /// @param col the column, with as many rows as the table
  /// @param info what its Arrow field says beyond its type (its name is set to `name`)
  /// @returns this table
  basic_table& add_any(std::string name, column_type col, field_info info = {});

  /// @brief Removes the column `name`; its buffers are released unless shared elsewhere.
  /// @param name the column's name; looked up by a linear scan over the columns
  /// @returns this table
  /// @throws devcol::logic_error naming it if no column or several have it
  basic_table& drop(std::string_view name);
  /// @brief Removes the column at `index`, as drop(name).
  /// @param index the column's position, in [0, num_columns())
  /// @returns this table
  /// @throws devcol::logic_error if out of range
  basic_table& drop(std::size_t index);

  /// @brief The column `name` as `column<T, Policy>`; a reference, nothing is copied.
  /// @tparam T the value type the column must hold
  /// @param name the column's name; looked up by a linear scan over the columns
  /// @throws devcol::logic_error naming the column and both types if it holds another type, or if no
  /// column or several have the name
  template <fixed_width T>
  [[nodiscard]] column<T, Policy> const& get(std::string_view name) const {
    return typed<T>(index_of(name));
  }
  /// @brief The column at `index` as `column<T, Policy>`; a reference, nothing is copied.
  /// @tparam T the value type the column must hold
  /// @param index the column's position, in [0, num_columns())
  /// @throws devcol::logic_error as get(name), or for an index out of range
  template <fixed_width T>
  [[nodiscard]] column<T, Policy> const& get(std::size_t index) const {
    check_index(index);
    return typed<T>(index);
  }

  /**
   * @brief The column `name` as the column kind `C` (e.g. `get<devcol::strings_column>("s")`); a
   * reference, nothing is copied.
   * @tparam C the column kind the column must be (not a plain `column<T>`: name `T` instead)
   * @param name the column's name
   * @throws devcol::logic_error naming the column and both types if it holds another kind, or if no
   * column or several have the name
   */
  template <class C>
    requires(column_kind<C, Policy> && !detail::is_plain_column<C>)
  [[nodiscard]] C const& get(std::string_view name) const {
    return kind<C>(index_of(name));
  }
  /// @brief The column at `index` as the column kind `C`; a reference, nothing is copied.
  /// @tparam C the column kind the column must be (not a plain `column<T>`)
  /// @param index the column's position, in [0, num_columns())
  /// @throws devcol::logic_error as get(name), or for an index out of range
  template <class C>
    requires(column_kind<C, Policy> && !detail::is_plain_column<C>)
  [[nodiscard]] C const& get(std::size_t index) const {
    check_index(index);
    return kind<C>(index);
  }

  /// @brief The column `name`, type-erased.
  /// @param name the column's name; looked up by a linear scan over the columns
  /// @throws devcol::logic_error if no column or several have it
  [[nodiscard]] column_type const& operator[](std::string_view name) const { return columns_[index_of(name)].second; }
  /// @brief The column at `index`, type-erased. O(1).
  /// @param index the column's position, in [0, num_columns())
  /// @throws devcol::logic_error if out of range
  [[nodiscard]] column_type const& operator[](std::size_t index) const {
    check_index(index);
    return columns_[index].second;
  }
  /// @brief The name of the column at `index`. O(1).
  /// @param index the column's position, in [0, num_columns())
  /// @throws devcol::logic_error if out of range
  [[nodiscard]] std::string const& name(std::size_t index) const {
    check_index(index);
    return columns_[index].first;
  }
  /// @brief Whether a column (one or more) is named `name`.
  /// @param name the column's name; looked up by a linear scan over the columns
  [[nodiscard]] bool contains(std::string_view name) const noexcept { return find(name) != npos; }
  /// @brief The Arrow format string of the column `name` (e.g. "l", "+l"), with the time zone its
  /// field gives a timestamp ("tsu:UTC"), as its export says. Reads no device memory.
  /// @param name the column's name; looked up by a linear scan over the columns
  /// @throws devcol::logic_error if no column or several have it
  [[nodiscard]] std::string format(std::string_view name) const;
  /// @brief The type of the column `name` as pyarrow prints it (e.g. "list<int64>",
  /// "timestamp[us, tz=UTC]" with the zone its field gives). Reads no device memory.
  /// @param name the column's name; looked up by a linear scan over the columns
  /// @throws devcol::logic_error if no column or several have it
  [[nodiscard]] std::string type_name(std::string_view name) const;

  /// @brief A table of the named columns, in that order (shallow copies: O(1) per column, exposed
  /// buffers excepted, which a shallow copy copies), with each one's field and the schema's metadata.
  /// @param names the columns kept, each found by a linear scan; a repeated name is kept twice
  /// @throws devcol::logic_error naming one that no column or several have
  [[nodiscard]] basic_table select(std::initializer_list<std::string_view> names) const;
  /// @brief A table of the columns at `indices`, in that order (shallow copies, as select(names)).
  /// @param indices the positions kept, each in [0, num_columns())
  /// @throws devcol::logic_error for one out of range
  [[nodiscard]] basic_table select(std::vector<std::size_t> const& indices) const;

  /**
   * @brief What the Arrow field of column `name` says beyond its type (time zone, nullability,
   * metadata, extension, child names, `ordered`): what an import read, or what add() was given.
   * @param name the column's name
   * @throws devcol::logic_error if no column or several have it
   */
  [[nodiscard]] field_info const& field(std::string_view name) const { return fields_[index_of(name)]; }
  /// @brief As field(name), by position.
  /// @param index the column's position, in [0, num_columns())
  [[nodiscard]] field_info const& field(std::size_t index) const {
    check_index(index);
    return fields_[index];
  }
  /**
   * @brief Replaces the field info of column `name` (its name stays the column's).
   * @param name the column's name
   * @param info the new description; an export writes what fits the column (a time zone only on
   * a timestamp, children's entries only where the column has as many children)
   * @returns this table
   * @throws devcol::logic_error if no column or several have the name
   */
  basic_table& set_field(std::string_view name, field_info info) { return set_field(index_of(name), std::move(info)); }
  /// @brief As set_field(name, info), by position.
  /// @param index the column's position, in [0, num_columns())
  /// @param info the new description
  /// @returns this table
  /// @throws devcol::logic_error if out of range
  basic_table& set_field(std::size_t index, field_info info) {
    check_index(index);
    info.name = columns_[index].first;
    fields_[index] = std::move(info);
    return *this;
  }
  /// @brief The schema's key/value metadata (a pandas or polars schema's, say), kept by an import
  /// and written back by an export.
  [[nodiscard]] std::vector<field_info::entry> const& metadata() const noexcept { return metadata_; }
  /// @brief Replaces the schema's metadata.
  /// @param entries the key/value pairs, in order
  /// @returns this table
  basic_table& set_metadata(std::vector<field_info::entry> entries) {
    metadata_ = std::move(entries);
    return *this;
  }

  /// @brief The number of columns.
  [[nodiscard]] std::size_t num_columns() const noexcept { return columns_.size(); }
  /// @brief The number of rows (0 without columns).
  [[nodiscard]] std::size_t num_rows() const noexcept;
  /// @brief The column names, in order.
  [[nodiscard]] std::vector<std::string> names() const {
    std::vector<std::string> out;
    out.reserve(columns_.size());
    for (auto const& entry : columns_) { out.push_back(entry.first); }
    return out;
  }

 private:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  static std::size_t size_of(column_type const& c) noexcept;
  static std::string type_of(column_type const& c);

  [[nodiscard]] std::size_t find(std::string_view name) const noexcept {
    auto const at = std::ranges::find(columns_, name, [](auto const& entry) { return std::string_view{entry.first}; });
    return at == columns_.end() ? npos : static_cast<std::size_t>(at - columns_.begin());
  }
  [[nodiscard]] std::size_t index_of(std::string_view name) const {
    std::size_t const index = find(name);
    DEVCOL_EXPECTS(index != npos, "table: no column named '", name, "'");
    auto const named = static_cast<std::size_t>(std::ranges::count(
        columns_.begin() + static_cast<std::ptrdiff_t>(index), columns_.end(), name,
        [](auto const& entry) { return std::string_view{entry.first}; }));
    DEVCOL_EXPECTS(named == 1, "table: ", named, " columns are named '", name, "': name one by its index");
    return index;
  }
  void check_index(std::size_t index) const {
    DEVCOL_EXPECTS(index < columns_.size(), "table: column index ", index, " is out of range for ", columns_.size(),
                   " columns");
  }
  template <fixed_width T>
  [[nodiscard]] column<T, Policy> const& typed(std::size_t index) const {
    auto const& [name, col] = columns_[index];
    auto const* found = devcol::get_if<column<T, Policy>>(&col);
    DEVCOL_EXPECTS(found != nullptr, "table: column '", name, "' holds ", type_of(col), ", not ", type_name_v<T>);
    return *found;
  }
  template <class C>
  [[nodiscard]] C const& kind(std::size_t index) const {
    auto const& [name, col] = columns_[index];
    auto const* found = devcol::get_if<C>(&col);
    DEVCOL_EXPECTS(found != nullptr, "table: column '", name, "' holds ", type_of(col), ", not ",
                   kind_traits<C>::name);
    return *found;
  }

  std::vector<std::pair<std::string, column_type>> columns_;
  std::vector<field_info> fields_;              // one per column, in the same order
  std::vector<field_info::entry> metadata_;     // the schema's

  // Appends other's column `index` with its field.
  void push_from(basic_table const& other, std::size_t index);
};

// The members that construct, copy, move, destroy or visit the column variant are defined apart
// from the class, so that they are not inline: a file in the precompiled mode then links them
// (see the declarations below) instead of instantiating the variant's code for every kind.

// The default constructor is among them: a constructor may destroy what it built, so an inline one
// instantiates the column vector's destructor, and through it every kind's.
template <buffer_policy Policy>
basic_table<Policy>::basic_table() = default;
template <buffer_policy Policy>
basic_table<Policy>::basic_table(basic_table const& other) = default;
template <buffer_policy Policy>
basic_table<Policy>::basic_table(basic_table&& other) noexcept = default;
template <buffer_policy Policy>
basic_table<Policy>& basic_table<Policy>::operator=(basic_table const& other) = default;
template <buffer_policy Policy>
basic_table<Policy>& basic_table<Policy>::operator=(basic_table&& other) noexcept = default;
template <buffer_policy Policy>
basic_table<Policy>::~basic_table() = default;

template <buffer_policy Policy>
template <fixed_width T>
basic_table<Policy>& basic_table<Policy>::add(std::string name, column<T, Policy> col, field_info info) {
  return add_any(std::move(name), column_type{std::move(col)}, std::move(info));
}
template <buffer_policy Policy>
template <class C>
  requires column_kind<C, Policy>
basic_table<Policy>& basic_table<Policy>::add(std::string name, C col, field_info info) {
  return add_any(std::move(name), column_type{std::move(col)}, std::move(info));
}
template <buffer_policy Policy>
basic_table<Policy>& basic_table<Policy>::add_any(std::string name, column_type col, field_info info) {
  std::size_t const rows = size_of(col);
  DEVCOL_EXPECTS(columns_.empty() || rows == num_rows(), "table::add: column '", name, "' has ", rows,
                 " rows, the table ", num_rows());
  info.name = name;
  fields_.reserve(columns_.size() + 1);
  columns_.emplace_back(std::move(name), std::move(col));
  fields_.push_back(std::move(info));  // cannot throw: reserved
  return *this;
}
template <buffer_policy Policy>
basic_table<Policy>& basic_table<Policy>::drop(std::string_view name) {
  return drop(index_of(name));
}
template <buffer_policy Policy>
basic_table<Policy>& basic_table<Policy>::drop(std::size_t index) {
  check_index(index);
  auto const at = static_cast<std::ptrdiff_t>(index);
  columns_.erase(columns_.begin() + at);
  fields_.erase(fields_.begin() + at);
  return *this;
}
template <buffer_policy Policy>
std::string basic_table<Policy>::format(std::string_view name) const {
  std::size_t const index = index_of(name);
  std::string out = devcol::arrow_format(columns_[index].second);
  // A timestamp's zone is its field's, which an export appends to the format ("tsu:" + zone).
  if (out.starts_with("ts")) { out += fields_[index].time_zone; }
  return out;
}
template <buffer_policy Policy>
std::string basic_table<Policy>::type_name(std::string_view name) const {
  std::size_t const index = index_of(name);
  std::string out = devcol::type_name(columns_[index].second);
  if (std::string const& zone = fields_[index].time_zone; !zone.empty() && out.starts_with("timestamp[")) {
    out.insert(out.size() - 1, ", tz=" + zone);  // as pyarrow prints a zoned timestamp
  }
  return out;
}
template <buffer_policy Policy>
basic_table<Policy> basic_table<Policy>::select(std::initializer_list<std::string_view> names) const {
  basic_table out;
  out.metadata_ = metadata_;  // the schema's, whatever is kept (none of its columns included)
  for (auto name : names) { out.push_from(*this, index_of(name)); }
  return out;
}
template <buffer_policy Policy>
basic_table<Policy> basic_table<Policy>::select(std::vector<std::size_t> const& indices) const {
  basic_table out;
  out.metadata_ = metadata_;
  for (std::size_t index : indices) {
    check_index(index);
    out.push_from(*this, index);
  }
  return out;
}
template <buffer_policy Policy>
std::size_t basic_table<Policy>::num_rows() const noexcept {
  return columns_.empty() ? 0 : size_of(columns_.front().second);
}
template <buffer_policy Policy>
std::size_t basic_table<Policy>::size_of(column_type const& c) noexcept {
  return devcol::size(c);
}
template <buffer_policy Policy>
std::string basic_table<Policy>::type_of(column_type const& c) {
  return devcol::type_name(c);
}
template <buffer_policy Policy>
void basic_table<Policy>::push_from(basic_table const& other, std::size_t index) {
  fields_.reserve(columns_.size() + 1);
  columns_.push_back(other.columns_[index]);
  fields_.push_back(other.fields_[index]);
}

#if DEVCOL_USE_PRECOMPILED
DEVCOL_EXTERN_TEMPLATE class basic_table<default_policy>;
// add() of each kind: its temporary variant would otherwise instantiate the destructor of every kind.
#  define DEVCOL_TABLE_ADD_VALUES(T) \
    DEVCOL_EXTERN_TEMPLATE basic_table<default_policy>& basic_table<default_policy>::add<T>(std::string, \
                                                                                           column<T, default_policy>, field_info);
#  define DEVCOL_TABLE_ADD_KIND(C) \
    DEVCOL_EXTERN_TEMPLATE basic_table<default_policy>& basic_table<default_policy>::add<C>(std::string, C, field_info);
DEVCOL_FOR_EACH_FIXED_WIDTH_TYPE(DEVCOL_TABLE_ADD_VALUES)
DEVCOL_TABLE_ADD_KIND(strings_column)
DEVCOL_TABLE_ADD_KIND(large_strings_column)
DEVCOL_TABLE_ADD_KIND(binary_column)
DEVCOL_TABLE_ADD_KIND(large_binary_column)
DEVCOL_TABLE_ADD_KIND(string_view_column)
DEVCOL_TABLE_ADD_KIND(binary_view_column)
DEVCOL_TABLE_ADD_KIND(decimal32_column)
DEVCOL_TABLE_ADD_KIND(decimal64_column)
DEVCOL_TABLE_ADD_KIND(decimal128_column)
DEVCOL_TABLE_ADD_KIND(decimal256_column)
DEVCOL_TABLE_ADD_KIND(fixed_size_binary_column<default_policy>)
DEVCOL_TABLE_ADD_KIND(null_column<default_policy>)
DEVCOL_TABLE_ADD_KIND(list_column)
DEVCOL_TABLE_ADD_KIND(large_list_column)
DEVCOL_TABLE_ADD_KIND(list_view_column)
DEVCOL_TABLE_ADD_KIND(large_list_view_column)
DEVCOL_TABLE_ADD_KIND(fixed_size_list_column<default_policy>)
DEVCOL_TABLE_ADD_KIND(struct_column<default_policy>)
DEVCOL_TABLE_ADD_KIND(dictionary_column<default_policy>)
DEVCOL_TABLE_ADD_KIND(run_end_encoded_column<default_policy>)
DEVCOL_TABLE_ADD_KIND(union_column<default_policy>)
#  undef DEVCOL_TABLE_ADD_VALUES
#  undef DEVCOL_TABLE_ADD_KIND
// A kind added to any_column but not above would still work, compiled in each consumer: this
// keeps the list whole.
static_assert(any_column_kind_count<default_policy> == 29 + 21,
              "table.hpp: declare the precompiled add() of every any_column alternative");
#endif

DEVCOL_NAMESPACE_END
