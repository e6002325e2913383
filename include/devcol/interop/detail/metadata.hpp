/**
 * @file metadata.hpp
 * @brief The key/value metadata of an ArrowSchema, decoded and encoded as the C Data Interface
 * lays it out: an int32 count of pairs, then per pair an int32 key length, the key bytes, an int32
 * value length and the value bytes, every int32 in native byte order.
 *
 * Its functions without template parameters of their own are `template <int = 0>`, for the reason
 * import_guard.hpp gives.
 */
#pragma once

#include <devcol/column/field_info.hpp>
#include <devcol/core/config.hpp>
#include <devcol/interop/detail/device.hpp>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// The most pairs, and bytes per key or value, that a producer's metadata may state (1 GiB:
/// beyond it a length is taken for garbage rather than read).
inline constexpr std::int32_t max_metadata_pairs = 1 << 20;
inline constexpr std::int32_t max_metadata_bytes = 1 << 30;

/**
 * The pairs of a producer's metadata (none for NULL). The format states no total size, so, as
 * every consumer must, this trusts the lengths it reads; it refuses negative or absurd ones.
 * @throws devcol::arrow_error naming `path` and the bad count or length
 */
template <int = 0>
std::vector<field_info::entry> decode_metadata(char const* metadata, std::string const& path) {
  std::vector<field_info::entry> out;
  if (metadata == nullptr) { return out; }
  char const* at = metadata;
  auto read_length = [&](char const* what) {
    std::int32_t n = 0;
    std::memcpy(&n, at, sizeof n);
    at += sizeof n;
    DEVCOL_ARROW_EXPECTS(n >= 0 && n <= max_metadata_bytes, path, ".metadata: ", what, " length ", n,
                         " is negative or past 1 GiB");
    return static_cast<std::size_t>(n);
  };
  std::int32_t pairs = 0;
  std::memcpy(&pairs, at, sizeof pairs);
  at += sizeof pairs;
  DEVCOL_ARROW_EXPECTS(pairs >= 0 && pairs <= max_metadata_pairs, path, ".metadata: ", pairs,
                       " key/value pairs is negative or past 2^20");
  out.reserve(static_cast<std::size_t>(pairs));
  for (std::int32_t i = 0; i < pairs; ++i) {
    std::size_t const key_bytes = read_length("a key's");
    std::string key(at, key_bytes);
    at += key_bytes;
    std::size_t const value_bytes = read_length("a value's");
    std::string value(at, value_bytes);
    at += value_bytes;
    out.emplace_back(std::move(key), std::move(value));
  }
  return out;
}

/// The C Data Interface encoding of `entries` (empty when there are none: the export's metadata is
/// then NULL).
/// @throws devcol::logic_error when a key or value, or the count, does not fit an int32
template <int = 0>
std::string encode_metadata(std::vector<field_info::entry> const& entries) {
  std::string out;
  if (entries.empty()) { return out; }
  auto append_length = [&](std::size_t n, char const* what) {
    DEVCOL_EXPECTS(n <= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()), "to_arrow: metadata ",
                   what, " of ", n, " does not fit the int32 the C Data Interface stores");
    auto const length = static_cast<std::int32_t>(n);
    out.append(reinterpret_cast<char const*>(&length), sizeof length);
  };
  append_length(entries.size(), "count");
  for (auto const& [key, value] : entries) {
    append_length(key.size(), "key length");
    out += key;
    append_length(value.size(), "value length");
    out += value;
  }
  return out;
}

}  // namespace detail
DEVCOL_NAMESPACE_END
