// The spill-pressure sweep, the twin of the allocation-failure sweep: every allocating operation of
// every column kind runs on spillable columns (a) under a device limit so small that every
// allocation spills something, and (b) under on-demand spilling through a limiting resource. Each
// result must equal, row for row and bit for bit, the result of the same operation without
// pressure; or, under (b), the operation raises devcol::out_of_memory and leaves its inputs as they
// were. Nothing may leak (mr::tracking) and no operation may pin what it reads for good (rule 20).
#include "../support.hpp"

#include <devcol/interop/arrow_stream.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <type_traits>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace devcol_test::spill_pressure {

namespace access = devcol::access;
using devcol_test::spilling;

template <class T>
using col = devcol::column<T, spilling>;
using any = devcol::any_column<spilling>;

/// Device-callable functor for transform (a lambda would need nvcc's extended lambdas).
struct twice {
  DEVCOL_HOST_DEVICE std::int64_t operator()(std::int64_t v) const noexcept { return 2 * v; }
};

/// Every row of a column of any kind as text: fixed-width values by their bytes (so -0.0, NaN
/// payloads and denormals compare exactly), other kinds as host values; then the null count and size.
template <class C>
std::string rows_of(C const& c) {
  std::ostringstream out;
  if constexpr (requires { c.data(access::read); typename C::value_type; }) {
    for (auto const& row : devcol::to_host(c)) {
      if (!row) {
        out << "null;";
        continue;
      }
      unsigned char bytes[sizeof(*row)];
      std::memcpy(bytes, &*row, sizeof bytes);
      for (unsigned char b : bytes) { out << static_cast<unsigned>(b) << '.'; }
      out << ';';
    }
  } else {
    for (auto const& row : devcol::to_host_values(c)) { out << row << ';'; }
  }
  out << " nulls " << devcol::null_count(any(c)) << " size " << devcol::size(any(c));
  return out.str();
}
inline std::string rows_of(any const& c) {
  return devcol::visit([](auto const& k) { return rows_of(k); }, c);
}

/// `n` rows of a fixed-width type, every fourth null: each row's bytes made from its index (bool:
/// every third true), so that any type, storage-only ones included, gets rows that differ.
template <class T>
std::vector<std::optional<T>> rows_for(std::size_t n) {
  std::vector<std::optional<T>> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 4 == 2) { continue; }
    if constexpr (std::is_same_v<T, bool>) {
      out[i] = i % 3 == 0;
    } else {
      unsigned char bytes[sizeof(T)];
      for (std::size_t k = 0; k < sizeof(T); ++k) { bytes[k] = static_cast<unsigned char>(i * 31 + k * 7); }
      T value{};
      std::memcpy(&value, bytes, sizeof value);
      out[i] = value;
    }
  }
  return out;
}

/// The inputs, every kind, with nulls and at offsets that are not a multiple of 8; made fresh for
/// each run, with no pressure on.
struct inputs {
  static constexpr std::size_t rows = 300;
  col<std::int64_t> a;       ///< nullable, sliced
  col<std::int64_t> shared;  ///< shares a's memory (copy-on-write)
  col<double> f;             ///< NaN, +-inf, +-0.0, a denormal, nulls
  col<bool> keep;            ///< nullable flags
  col<std::int32_t> idx;     ///< in-bounds indices, one null
  devcol::basic_strings_column<std::int32_t, spilling> s;
  devcol::basic_list_column<std::int32_t, spilling> lists;
  devcol::struct_column<spilling> structs;
  devcol::dictionary_column<spilling> dict;
  devcol::decimal_column<std::int64_t, spilling> dec;
  devcol::fixed_size_binary_column<spilling> bin;
  col<devcol::date32> days;                        ///< nullable, negative days too
  col<devcol::time64_ns> clock;                    ///< nullable
  col<devcol::float16> halves;                     ///< NaN, +-inf, +-0.0, a subnormal, nulls
  col<devcol::interval_month_day_nano> spans;      ///< 16-byte values, nullable
  devcol::decimal_column<devcol::int128_t, spilling> wide128;  ///< decimal128, nullable
  devcol::dictionary_column<spilling> dict_wide;   ///< uint32 indices over int64 values
  devcol::basic_binary_column<std::int64_t, spilling> bytes;  ///< large binary, bytes that are not UTF-8
  devcol::decimal_column<devcol::int256_t, spilling> wide;   ///< decimal256, sliced
  devcol::fixed_size_list_column<spilling> pairs;               ///< lists of 2 strings, sliced
  devcol::null_column<spilling> nothing;                        ///< no memory at all
  devcol::basic_string_view_column<spilling> views;  ///< string view: inline and out of line over 3 data buffers, sliced
  devcol::run_end_encoded_column<spilling> runs;                ///< int16 run ends over strings, sliced
  devcol::basic_list_column<std::int32_t, spilling> maps;       ///< map<int32, int64>, sliced
  devcol::basic_list_view_column<std::int64_t, spilling> list_views;  ///< large list view, out of order, sliced
  devcol::union_column<spilling> sparse_union;  ///< codes 2 and 9 over int64 and strings, sliced
  devcol::union_column<spilling> dense_union;   ///< codes 2 and 9 over int64 and strings, sliced
  /// One column of every fixed-width type, nullable, sliced at row 3; then the kinds the members
  /// above leave out (large strings, binary, binary view, decimal32, large list, list view).
  std::vector<any> more;

  inputs() {
    std::vector<std::optional<std::int64_t>> iv(rows + 5);
    std::vector<std::optional<double>> fv(rows);
    std::vector<std::optional<bool>> kv(rows);
    std::vector<std::optional<std::int32_t>> xv(rows / 2);
    std::vector<std::optional<std::string>> text(rows), three(rows);
    std::vector<std::optional<std::int64_t>> unscaled(rows);
    std::vector<std::int32_t> codes(rows), offsets(rows + 1, 0);
    std::vector<bool> valid(rows);
    double const specials[] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                               -std::numeric_limits<double>::infinity(), -0.0, 0.0, 4.9e-324};
    for (std::size_t i = 0; i < iv.size(); ++i) {
      if (i % 4 != 1) { iv[i] = static_cast<std::int64_t>((i * 37) % 101) - 50; }
    }
    for (std::size_t i = 0; i < rows; ++i) {
      if (i % 5 != 2) { fv[i] = i % 7 < 6 ? specials[i % 7] : static_cast<double>(i) * 0.25 - 30; }
      if (i % 7 != 3) { kv[i] = i % 3 == 0; }
      if (i % 6 != 4) { text[i] = std::string(i % 5, static_cast<char>('a' + i % 26)); }
      if (i % 7 != 2) { three[i] = std::string{static_cast<char>('A' + i % 26), 'x', static_cast<char>('0' + i % 10)}; }
      if (i % 5 != 1) { unscaled[i] = static_cast<std::int64_t>(i * 1234) - 30000; }
      codes[i] = static_cast<std::int32_t>(i % 4);
      valid[i] = i % 9 != 5;
      offsets[i + 1] = offsets[i] + static_cast<std::int32_t>(i % 3);
    }
    for (std::size_t i = 0; i < xv.size(); ++i) {
      if (i != 4) { xv[i] = static_cast<std::int32_t>((i * 17) % rows); }
    }
    a = devcol::make_column<std::int64_t, spilling>(iv).slice(3, 3 + rows);
    shared = a;
    f = devcol::make_column<double, spilling>(fv);
    keep = devcol::make_column<bool, spilling>(kv);
    idx = devcol::make_column<std::int32_t, spilling>(xv);
    s = devcol::make_strings_column<std::int32_t, spilling>(text);
    auto child = devcol::sequence<std::int64_t, spilling>(static_cast<std::size_t>(offsets.back()), -7, 3);
    lists = devcol::make_list_column<std::int32_t, spilling>(offsets, any(child), valid);
    structs = devcol::make_struct_column<spilling>({{"x", any(devcol::sequence<std::int32_t, spilling>(rows, 1, 2))},
                                                    {"name", any(s)}},
                                                   valid);
    dict = devcol::make_dictionary_column<spilling>(
        devcol::make_column<std::uint8_t, spilling>(std::vector<std::uint8_t>(codes.begin(), codes.end())),
        any(devcol::make_strings_column<std::int32_t, spilling>(std::vector<std::string>{"red", "", "green", "blue"})));
    dec = devcol::make_decimal_column<std::int64_t, spilling>(unscaled, 12, 2);
    bin = devcol::make_fixed_size_binary_column<spilling>(three, 3);

    std::vector<std::optional<devcol::date32>> dv(rows);
    std::vector<std::optional<devcol::time64_ns>> tv(rows);
    std::vector<std::optional<devcol::float16>> hv(rows);
    std::vector<std::optional<devcol::interval_month_day_nano>> sv(rows);
    std::vector<std::optional<devcol::int128_t>> wv(rows);
    std::vector<std::uint32_t> wide_codes(rows);
    std::uint16_t const half_specials[] = {0x7E00, 0x7C00, 0xFC00, 0x8000, 0x0000, 0x0001, 0x3C00};
    for (std::size_t i = 0; i < rows; ++i) {
      auto const n = static_cast<std::int64_t>(i);
      if (i % 4 != 3) { dv[i] = devcol::date32(devcol::date32::duration(static_cast<std::int32_t>(n * 7 - 900))); }
      if (i % 6 != 1) { tv[i] = devcol::time64_ns(devcol::duration_ns(n * 1'000'003 % 86'400'000'000'000)); }
      if (i % 5 != 4) { hv[i] = devcol::float16{half_specials[i % 7]}; }
      if (i % 7 != 6) { sv[i] = devcol::interval_month_day_nano{static_cast<std::int32_t>(i % 13) - 6, static_cast<std::int32_t>(i), -n * 999}; }
      if (i % 8 != 2) { wv[i] = (devcol::int128_t{1} << 100) / (n + 1) - n * 77; }
      wide_codes[i] = static_cast<std::uint32_t>((i * 5) % 7);
    }
    days = devcol::make_column<devcol::date32, spilling>(dv);
    clock = devcol::make_column<devcol::time64_ns, spilling>(tv);
    halves = devcol::make_column<devcol::float16, spilling>(hv);
    spans = devcol::make_column<devcol::interval_month_day_nano, spilling>(sv);
    wide128 = devcol::make_decimal_column<devcol::int128_t, spilling>(wv, 38, 5);
    dict_wide = devcol::make_dictionary_column<spilling>(devcol::make_column<std::uint32_t, spilling>(wide_codes),
                                                         any(devcol::sequence<std::int64_t, spilling>(7, -3, 1000)));
    std::vector<std::optional<std::string>> blobs{std::string("\xFF")};  // row 0, sliced off
    for (auto const& row : text) { blobs.push_back(row ? *row + '\xFF' : row); }
    bytes = devcol::make_binary_column<std::int64_t, spilling>(blobs).slice(1, rows + 1);
    std::vector<std::optional<devcol::int256_t>> wide_values{devcol::int256_t(0)};
    std::vector<std::optional<std::string>> elements;
    for (std::size_t i = 0; i < rows; ++i) {
      auto const low = unscaled[i] ? static_cast<std::uint64_t>(*unscaled[i]) : 0;
      wide_values.push_back(unscaled[i] ? std::optional(devcol::int256_t::from_words(low, 0, i, 0)) : std::nullopt);
      elements.push_back(text[i]);
      elements.push_back(three[i]);
    }
    elements.push_back("x");
    elements.push_back("y");
    wide = devcol::make_decimal_column<devcol::int256_t, spilling>(wide_values, 76, 3).slice(1, rows + 1);
    pairs = devcol::make_fixed_size_list_column<spilling>(
                2, any(devcol::make_strings_column<std::int32_t, spilling>(elements)), std::vector<bool>(rows + 1, true))
                .slice(0, rows);
    nothing = devcol::null_column<spilling>(rows);
    std::vector<std::optional<std::string>> viewed{"sliced off"};
    for (std::size_t i = 0; i < rows; ++i) { viewed.push_back(text[i] ? *text[i] + (i % 2 == 0 ? "" : " and out of line") : text[i]); }
    views = devcol::make_binary_view_column<spilling>(viewed, {}, 1024).slice(1, rows + 1);
    std::vector<std::int16_t> run_ends;
    std::vector<std::optional<std::string>> run_values;
    for (std::size_t end = 3; end < rows + 6; end += 3) {
      run_ends.push_back(static_cast<std::int16_t>(end));
      run_values.push_back(text[run_ends.size() % rows]);
    }
    runs = devcol::make_run_end_encoded_column<spilling>(
               devcol::run_ends_column<spilling>(devcol::make_column<std::int16_t, spilling>(run_ends)),
               any(devcol::make_strings_column<std::int32_t, spilling>(run_values)))
               .slice(2, rows + 2);
    std::vector<std::int32_t> map_offsets{0, 0, 0};  // three empty maps, sliced off
    map_offsets.insert(map_offsets.end(), offsets.begin(), offsets.end());
    std::vector<bool> map_valid{true, true, true};
    map_valid.insert(map_valid.end(), valid.begin(), valid.end());
    auto const entries = static_cast<std::size_t>(offsets.back());
    maps = devcol::make_list_column<std::int32_t, spilling>(
               map_offsets,
               any(devcol::make_struct_column<spilling>({{"key", any(devcol::sequence<std::int32_t, spilling>(entries, 0, 1))},
                                                         {"value", any(child)}})),
               map_valid)
               .as_map()
               .slice(3, rows + 3);
    std::vector<std::int64_t> view_offsets(rows + 3), view_sizes(rows + 3);
    std::vector<bool> view_valid(rows + 3);
    for (std::size_t i = 0; i < rows + 3; ++i) {
      view_offsets[i] = static_cast<std::int64_t>((i * 37) % 200);
      view_sizes[i] = static_cast<std::int64_t>(i % 5);
      view_valid[i] = i % 8 != 6;
    }
    list_views = devcol::make_list_view_column<std::int64_t, spilling>(view_offsets, view_sizes, any(s), view_valid)
                .slice(3, rows + 3);
    std::size_t const union_rows = rows + 3;
    std::vector<std::int8_t> union_ids(union_rows);
    std::vector<std::int32_t> union_offsets(union_rows);
    std::vector<std::optional<std::int64_t>> union_ints(union_rows);
    std::vector<std::optional<std::string>> union_texts(union_rows);
    std::int32_t taken[2] = {0, 0};
    for (std::size_t i = 0; i < union_rows; ++i) {
      union_ids[i] = i % 3 == 0 ? 9 : 2;
      union_offsets[i] = taken[i % 3 == 0 ? 1 : 0]++;
      if (i % 7 != 4) { union_ints[i] = static_cast<std::int64_t>(i) * 11 - 500; }
      union_texts[i] = text[i % rows];
    }
    sparse_union = devcol::make_union_column<spilling>(
                       devcol::union_mode::sparse, {2, 9},
                       {{"n", any(devcol::make_column<std::int64_t, spilling>(union_ints))},
                        {"t", any(devcol::make_strings_column<std::int32_t, spilling>(union_texts))}},
                       union_ids)
                       .slice(1, rows + 1);
    // dense: child n gets two rows in three (202 of a's 300), child t one in three (101 of s's 300)
    dense_union = devcol::make_union_column<spilling>(devcol::union_mode::dense, {2, 9}, {{"n", any(a)}, {"t", any(s)}},
                                                      union_ids, union_offsets)
                      .slice(3, rows + 3);

    [&]<std::size_t... I>(std::index_sequence<I...>) {
      auto const add = [&]<class K>(std::type_identity<K>) {
        if constexpr (devcol::detail::is_plain_column<K>) {
          using T = typename K::value_type;
          more.push_back(any(devcol::make_column<T, spilling>(rows_for<T>(rows + 3)).slice(3, rows + 3)));
        }
      };
      (add(std::type_identity<devcol::any_column_kind_t<I, spilling>>{}), ...);
    }(std::make_index_sequence<devcol::any_column_kind_count<spilling>>{});
    more.push_back(any(devcol::make_strings_column<std::int64_t, spilling>(text)));
    more.push_back(any(devcol::make_binary_column<std::int32_t, spilling>(blobs).slice(1, rows + 1)));
    more.push_back(any(devcol::make_binary_view_column<spilling, devcol::encoding::binary>(blobs, {}, 1024).slice(1, rows + 1)));
    std::vector<std::optional<std::int32_t>> small(rows);
    for (std::size_t i = 0; i < rows; ++i) { small[i] = unscaled[i] ? std::optional(static_cast<std::int32_t>(*unscaled[i])) : std::nullopt; }
    more.push_back(any(devcol::make_decimal_column<std::int32_t, spilling>(small, 9, 2)));
    std::vector<std::int64_t> large_offsets(offsets.begin(), offsets.end());
    more.push_back(any(devcol::make_large_list_column<spilling>(large_offsets, any(s.slice(0, static_cast<std::size_t>(offsets.back()))), valid)));
    std::vector<std::int32_t> narrow_offsets(view_offsets.begin(), view_offsets.end());
    std::vector<std::int32_t> narrow_sizes(view_sizes.begin(), view_sizes.end());
    more.push_back(any(devcol::make_list_view_column<std::int32_t, spilling>(narrow_offsets, narrow_sizes, any(f), view_valid)
                           .slice(3, rows + 3)));
  }

  /// Every kind, for the operations that take any kind.
  [[nodiscard]] std::vector<any> all() const {
    std::vector<any> out{any(a),      any(f),       any(s),     any(lists),  any(structs), any(dict),
                         any(dec),    any(bin),     any(days),  any(clock),  any(halves),  any(spans),
                         any(wide128), any(dict_wide), any(bytes), any(wide),  any(pairs),   any(nothing),
                         any(views), any(runs), any(maps), any(list_views), any(sparse_union), any(dense_union)};
    out.insert(out.end(), more.begin(), more.end());
    return out;
  }

  /// The device bytes each of all() frees when spilled whole (brought back first): what a fresh
  /// set of inputs frees, unless an operation left a buffer, a child, a dictionary or a run end
  /// pinned on the device (exposed, or read outside a lock of its own).
  [[nodiscard]] std::vector<std::size_t> spillable_bytes() const {
    std::vector<std::size_t> out;
    for (auto c : all()) {
      devcol::detail::any_unspill(c, {});
      out.push_back(devcol::detail::any_spill(c, {}));
    }
    return out;
  }

  /// What the inputs hold, read back (under a lock: reading must not pin them).
  [[nodiscard]] std::string snapshot() const {
    std::string out;
    for (auto const& c : all()) { out += rows_of(c) + '\n'; }
    out += rows_of(shared) + '\n' + rows_of(keep) + '\n' + rows_of(idx);
    return out;
  }
};

/// An operation: what it produced (or what it wrote), as text.
struct operation {
  char const* name;
  std::function<std::string(inputs&)> run;
};

/// Exports with to_arrow then imports with any_from_arrow, and reads the import back.
template <class C>
std::string arrow_round_trip(C const& c) {
  ArrowSchema schema{};
  ArrowDeviceArray array{};
  devcol::to_arrow(c, &schema, &array);
  return rows_of(devcol::any_from_arrow<spilling>(&schema, &array));
}

std::vector<operation> const& operations() {
  static std::vector<operation> const ops = {
      {"deep_copy", [](inputs& in) { return rows_of(in.a.deep_copy()); }},
      {"copy-on-write write", [](inputs& in) {
         devcol_test::assign(in.shared, 5, {std::int64_t{-1}, std::int64_t{-2}});
         return rows_of(in.shared) + rows_of(in.a);
       }},
      {"slice (nullable)", [](inputs& in) { return rows_of(in.a.slice(7, 250)); }},
      {"gather", [](inputs& in) { return rows_of(devcol::gather(in.a, in.idx)); }},
      {"gather nullify", [](inputs& in) {
         return rows_of(devcol::gather(in.f, in.idx, {}, devcol::out_of_bounds::nullify));
       }},
      {"scatter", [](inputs& in) {
         auto target = in.a;
         devcol::scatter(devcol::gather(in.a, in.idx), in.idx, target);
         return rows_of(target);
       }},
      {"filter", [](inputs& in) { return rows_of(devcol::filter(in.f, in.keep)); }},
      {"concatenate", [](inputs& in) { return rows_of(devcol::concatenate(std::vector<col<std::int64_t>>{in.a, in.shared})); }},
      {"sort", [](inputs& in) { return rows_of(devcol::sort(in.a, devcol::order::descending)); }},
      {"argsort", [](inputs& in) { return rows_of(devcol::argsort(in.a)); }},
      {"inclusive_scan", [](inputs& in) { return rows_of(devcol::inclusive_scan(in.a, devcol::scan_op::sum)); }},
      {"cast<double>", [](inputs& in) { return rows_of(devcol::cast<double>(in.a)); }},
      {"cast<std::int32_t> of floats", [](inputs& in) { return rows_of(devcol::cast<std::int32_t>(in.f)); }},
      {"transform", [](inputs& in) { return rows_of(devcol::transform(in.a, twice{})); }},
      {"compare", [](inputs& in) { return rows_of(devcol::compare(in.a, devcol::cmp::less, in.shared)); }},
      {"fill_null", [](inputs& in) { return rows_of(devcol::fill_null(in.a, std::int64_t{0})); }},
      {"sum and minmax", [](inputs& in) {
         auto const mm = devcol::minmax(in.a);
         return std::to_string(*devcol::sum(in.a)) + ' ' + std::to_string(mm->first) + ' ' + std::to_string(mm->second);
       }},
      {"strings sort", [](inputs& in) { return rows_of(devcol::sort(in.s)); }},
      {"date32 sort and time64 argsort", [](inputs& in) {
         return rows_of(devcol::sort(in.days, devcol::order::descending)) + rows_of(devcol::argsort(in.clock));
       }},
      {"decimal128 sort and compare", [](inputs& in) {
         return rows_of(devcol::sort(in.wide128)) + rows_of(devcol::compare(in.wide128, devcol::cmp::greater_equal, in.wide128));
       }},
      {"strings length", [](inputs& in) { return rows_of(devcol::length(in.s)); }},
      {"decimal256 sort", [](inputs& in) { return rows_of(devcol::sort(in.wide, devcol::order::descending)); }},
      {"binary sort and length", [](inputs& in) {
         return rows_of(devcol::sort(in.bytes, devcol::order::descending)) + rows_of(devcol::length(in.bytes));
       }},
      {"strings chars(write) on a copy", [](inputs& in) {
         auto copy = in.s;
         {
           devcol::spill_lock const lock;
           (void)copy.chars(access::write);
         }
         return rows_of(copy);
       }},
      {"gather (every kind)", [](inputs& in) {
         std::string out;
         for (auto const& c : in.all()) { out += rows_of(devcol::gather(c, in.idx)); }
         return out;
       }},
      {"filter (every kind)", [](inputs& in) {
         std::string out;
         for (auto const& c : in.all()) { out += rows_of(devcol::filter(c, in.keep)); }
         return out;
       }},
      {"concatenate (every kind)", [](inputs& in) {
         std::string out;
         for (auto const& c : in.all()) { out += rows_of(devcol::concatenate(std::vector<any>{c, c})); }
         return out;
       }},
      {"deep_copy (every kind)", [](inputs& in) {
         std::string out;
         for (auto const& c : in.all()) { out += rows_of(devcol::deep_copy(c, {})); }
         return out;
       }},
      {"Arrow export and import (every kind)", [](inputs& in) {
         std::string out;
         for (auto const& c : in.all()) { out += arrow_round_trip(c); }
         return out;
       }},
      {"Arrow stream of a table", [](inputs& in) {
         devcol::basic_table<spilling> tbl;
         tbl.add("a", in.a).add("s", in.s).add("lists", in.lists);
         ArrowDeviceArrayStream stream{};
         devcol::to_arrow_stream(std::vector<devcol::basic_table<spilling>>{tbl, tbl}, &stream);
         std::string out;
         for (auto const& t : devcol::tables_from_arrow<spilling>(&stream)) {
           for (std::size_t i = 0; i < t.num_columns(); ++i) { out += rows_of(t[i]); }
         }
         return out;
       }},
      {"unspill", [](inputs& in) {
         (void)in.f.spill();
         in.f.unspill();
         return rows_of(in.f);
       }},
  };
  return ops;
}

TEST_CASE("spill-pressure sweep: its inputs hold every kind, and each frees device memory when spilled",
          "[reliability][spill_pressure]") {
  devcol_test::leak_check leaks;
  spill_options const none(false, 0);
  inputs const in;
  std::vector<bool> held(devcol::any_column_kind_count<spilling>, false);
  for (auto const& c : in.all()) { held[c.index()] = true; }
  for (std::size_t k = 0; k < held.size(); ++k) {
    INFO("kind " << k);
    CHECK(held[k]);
  }
  auto const bytes = in.spillable_bytes();
  auto const all = in.all();
  for (std::size_t i = 0; i < all.size(); ++i) {
    INFO("input " << i << ", " << devcol::type_name(all[i]));
    CHECK((bytes[i] > 0) == (all[i].index() != any(devcol::null_column<spilling>(1)).index()));
  }
  std::cout << "spill-pressure sweep inputs: " << all.size() << " columns of all " << held.size() << " kinds\n";
}

TEST_CASE("spill-pressure sweep: under a device limit that every allocation passes, every operation of every kind "
          "gives the unpressured result and pins nothing for good",
          "[reliability][spill_pressure][rule20]") {
  std::vector<std::size_t> spillable;  // what each input frees when nothing is pinned
  {
    devcol_test::leak_check leaks;
    spill_options const none(false, 0);
    spillable = inputs().spillable_bytes();
  }
  std::size_t checked = 0;
  for (auto const& op : operations()) {
    INFO("operation: " << op.name);
    std::string expected;
    {
      devcol_test::leak_check leaks;
      spill_options const none(false, 0);
      inputs in;
      expected = op.run(in);
    }
    devcol_test::leak_check leaks;
    spill_options const tight(true, 1);  // one byte: every spillable allocation spills all it may
    inputs in;
    std::string const before = in.snapshot();
    CHECK(op.run(in) == expected);
    if (std::string(op.name) != "copy-on-write write") {
      CHECK(in.snapshot() == before);
    }
    {
      spill_options const off(false, 0);  // measured as the baseline was: no spilling but the one asked for
      CHECK(in.spillable_bytes() == spillable);
      CHECK((in.shared.spill() > 0 || in.shared.is_spilled()));
    }
    ++checked;
  }
  std::cout << "spill-pressure sweep (device limit): " << checked << " operations over every kind, all identical\n";
  CHECK(checked == operations().size());
}

TEST_CASE("spill-pressure sweep: under on-demand spilling with a limiting resource, every operation gives the "
          "unpressured result or raises out_of_memory with its inputs unchanged",
          "[reliability][spill_pressure][rule17]") {
  std::size_t cases = 0;
  std::size_t refused = 0;
  for (auto const& op : operations()) {
    INFO("operation: " << op.name);
    std::string expected;
    std::size_t needed = 0;  // the inputs' bytes
    {
      devcol_test::leak_check leaks;
      spill_options const none(false, 0);
      inputs in;
      needed = leaks.tracker().outstanding_bytes();
      expected = op.run(in);
    }
    // From half the inputs' size (an operation may find no room) to twice it.
    for (std::size_t limit : {needed / 2, needed + needed / 16, needed + needed / 4, 2 * needed}) {
      INFO("limit " << limit << " bytes, inputs " << needed);
      devcol_test::leak_check leaks;
      spill_options const on(true, 0);
      std::string before;
      std::optional<inputs> in;
      {
        spill_options const none(false, 0);
        in.emplace();
        before = in->snapshot();
      }
      bool raised = false;
      {
        limited_device const device(leaks, limit);
        try {
          CHECK(op.run(*in) == expected);
        } catch (devcol::out_of_memory const&) {
          raised = true;
        }
      }
      if (raised) {  // read back with no limit: the inputs are as they were
        ++refused;
        CHECK(in->snapshot() == before);
      }
      ++cases;
    }
  }
  std::cout << "spill-pressure sweep (on demand): " << cases << " (operation, limit) cases, " << refused
            << " raised out_of_memory with inputs unchanged, the rest identical\n";
  CHECK(cases == 4 * operations().size());
}

}  // namespace devcol_test::spill_pressure
