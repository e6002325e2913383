// The Arrow formats the import fuzzer builds, in one place, with the buffer layout the Arrow C Data
// Interface gives each, so the harness allocates every buffer exactly as large as the stated
// offset and length require. The list already holds formats devcol does not import yet (strings,
// lists, structs, fixed-size binary, decimals, ...): they must be refused with devcol::arrow_error
// and released cleanly today, and are fuzzed as soon as an importer accepts them.
#pragma once

#include <algorithm>
#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace devcol_fuzz {

/// Format codes below this index select formats[code]; others are raw strings from the input.
inline constexpr std::array<std::string_view, 64> formats = {
    // fixed-width primitives devcol imports
    "c", "s", "i", "l", "C", "S", "I", "L", "f", "g", "b",
    "tss:", "tsm:", "tsu:", "tsn:", "tsn:UTC", "tss:Europe/Paris", "tDs", "tDm", "tDu", "tDn",
    // other fixed-width types
    "n", "e", "tdD", "tdm", "tts", "ttm", "ttu", "ttn", "tiM", "tiD", "tin",
    "w:1", "w:4", "w:16", "d:9,2", "d:18,4", "d:38,10", "d:76,5,256", "d:9,2,32", "d:18,3,64",
    // variable-width and nested
    "u", "U", "z", "Z", "vu", "vz", "+l", "+L", "+vl", "+vL", "+w:3", "+w:1", "+s", "+m", "+r",
    "+ud:0,1", "+us:0,1",
    // malformed on purpose
    "", "w:", "d:", "+w:", "ts"};

/// How one format lays out its buffers (the Arrow C Data Interface's "Buffers" table).
enum class kind {
  unknown,        ///< a format this list does not know: buffer sizes come from the input
  null,           ///< no buffers
  fixed,          ///< validity, values of `bytes` bytes each
  bits,           ///< validity, values of one bit each (bool)
  offsets32,      ///< validity, int32 offsets (length + 1), data (last offset bytes): utf8, binary
  offsets64,      ///< as offsets32 with int64 offsets
  list32,         ///< validity, int32 offsets; one child
  list64,         ///< validity, int64 offsets; one child
  list_view32,    ///< validity, int32 offsets and int32 sizes (length each); one child
  list_view64,    ///< validity, int64 offsets and int64 sizes (length each); one child
  validity_only,  ///< validity; children (struct, fixed-size list)
  sparse_union,   ///< no validity: int8 type ids (length each); children
  dense_union,    ///< no validity: int8 type ids, then int32 offsets (length each); children
};

struct layout {
  kind k = kind::unknown;
  std::size_t bytes = 0;  ///< per value, for kind::fixed
  int buffers = 0;        ///< the buffer count the format has
};

/// The number after `prefix` in `format` (e.g. "w:16" → 16), if it is all digits and > 0.
inline std::optional<std::size_t> number_after(std::string_view format, std::string_view prefix) {
  if (!format.starts_with(prefix)) { return std::nullopt; }
  std::string_view rest = format.substr(prefix.size());
  std::size_t n = 0;
  auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), n);
  if (ec != std::errc{} || end != rest.data() + rest.size() || n == 0 || n > 1024) { return std::nullopt; }
  return n;
}

inline layout layout_of(std::string_view f) {
  auto fixed = [](std::size_t bytes) { return layout{kind::fixed, bytes, 2}; };
  if (f == "n") { return {kind::null, 0, 0}; }
  if (f == "b") { return {kind::bits, 0, 2}; }
  if (f == "c" || f == "C") { return fixed(1); }
  if (f == "s" || f == "S" || f == "e") { return fixed(2); }
  if (f == "i" || f == "I" || f == "f" || f == "tdD" || f == "tts" || f == "ttm" || f == "tiM") { return fixed(4); }
  if (f == "l" || f == "L" || f == "g" || f == "tdm" || f == "ttu" || f == "ttn" || f == "tiD") { return fixed(8); }
  if (f == "tin") { return fixed(16); }
  if (f.size() >= 4 && (f.starts_with("tss:") || f.starts_with("tsm:") || f.starts_with("tsu:") || f.starts_with("tsn:"))) {
    return fixed(8);
  }
  if (f == "tDs" || f == "tDm" || f == "tDu" || f == "tDn") { return fixed(8); }
  if (auto n = number_after(f, "w:")) { return fixed(*n); }
  if (f.starts_with("d:")) {  // d:P,S or d:P,S,bits
    std::size_t const commas = static_cast<std::size_t>(std::count(f.begin(), f.end(), ','));
    if (commas == 1) { return fixed(16); }
    if (commas == 2) {
      auto const bits = f.substr(f.rfind(',') + 1);
      if (bits == "32") { return fixed(4); }
      if (bits == "64") { return fixed(8); }
      if (bits == "128") { return fixed(16); }
      if (bits == "256") { return fixed(32); }
    }
    return {};
  }
  if (f == "u" || f == "z") { return {kind::offsets32, 0, 3}; }
  if (f == "U" || f == "Z") { return {kind::offsets64, 0, 3}; }
  if (f == "+l" || f == "+m") { return {kind::list32, 0, 2}; }
  if (f == "+L") { return {kind::list64, 0, 2}; }
  if (f == "+vl") { return {kind::list_view32, 0, 3}; }
  if (f == "+vL") { return {kind::list_view64, 0, 3}; }
  if (f == "+s" || number_after(f, "+w:")) { return {kind::validity_only, 0, 1}; }
  if (f.starts_with("+us:")) { return {kind::sparse_union, 0, 1}; }
  if (f.starts_with("+ud:")) { return {kind::dense_union, 0, 2}; }
  return {};
}

}  // namespace devcol_fuzz
