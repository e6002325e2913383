/**
 * @file field_info.hpp
 * @brief `devcol::field_info`: what an Arrow field says beyond its column's physical type (a
 * timestamp's time zone, nullability, key/value metadata with extension types' name and metadata,
 * a dictionary's `ordered` flag, the names of nested children), so that Arrow -> devcol -> Arrow
 * gives back an equal schema.
 *
 * Where it lives: a column holds data and its type only; a `basic_table` holds one `field_info`
 * per column, and the schema's metadata, beside the columns. An import into a table fills them, an
 * export of a table writes them back; `table.add(name, col, info)` attaches one to a column made by
 * an operation (the ops compute on storage and return plain columns: a gathered timestamp column
 * put back with its field's info keeps its time zone). Nothing here touches device memory.
 */
#pragma once

#include <devcol/core/config.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief An Arrow field's description beyond its column's type, recursively for its children and
 * its dictionary. Plain host data: copying it copies strings. A default `field_info` describes
 * what devcol exports without one: nullable, no metadata, no time zone, unordered, children named
 * as devcol names them ("item" for a list's child).
 */
struct field_info {
  /// One metadata entry: key and value, bytes as Arrow keeps them (usually UTF-8).
  using entry = std::pair<std::string, std::string>;

  std::string name;                     ///< the field's name (a table's own column name wins at the top)
  bool nullable = true;                 ///< Arrow's ARROW_FLAG_NULLABLE
  bool ordered = false;                 ///< Arrow's ARROW_FLAG_DICTIONARY_ORDERED (dictionaries only)
  bool keys_sorted = false;             ///< Arrow's ARROW_FLAG_MAP_KEYS_SORTED (maps only)
  std::string time_zone;                ///< a timestamp's zone ("UTC", "America/New_York"); empty: none
  std::vector<entry> metadata;          ///< key/value pairs, in the producer's order
  std::vector<field_info> children;     ///< a nested column's children's fields, in order
  std::vector<field_info> dictionary;   ///< none, or a dictionary's values' field

  /// @brief The value of metadata key `key`, if present (the first one). O(entries).
  /// @param key the key looked up
  [[nodiscard]] std::optional<std::string_view> metadata_value(std::string_view key) const noexcept {
    for (auto const& [k, v] : metadata) {
      if (k == key) { return std::string_view(v); }
    }
    return std::nullopt;
  }
  /// @brief An extension type's name ("arrow.uuid"): metadata key `ARROW:extension:name`. The
  /// column holds the extension's storage; the name and `ARROW:extension:metadata` travel here.
  [[nodiscard]] std::optional<std::string_view> extension_name() const noexcept {
    return metadata_value("ARROW:extension:name");
  }
  /// @brief Equal names, flags, zones, metadata and children.
  friend bool operator==(field_info const&, field_info const&) = default;
};

DEVCOL_NAMESPACE_END
