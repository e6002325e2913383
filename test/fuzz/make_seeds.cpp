// Writes the import fuzzer's seed corpus: valid devcol exports (every column type, with and
// without nulls, sliced, bool bit-packed, tables, streams) encoded in the fuzzer's input format.
// Usage: devcol_fuzz_seeds <directory>
#include "arrow_tree.hpp"
#include "fixed_width_kinds.hpp"

#include <devcol/devcol.hpp>

#include <cstdint>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <string>
#include <variant>
#include <vector>

namespace {

using devcol_fuzz::tree_writer;

std::filesystem::path out_dir;
int written = 0;

void write(tree_writer const& w) {
  std::ofstream f(out_dir / ("seed_" + std::to_string(written++)), std::ios::binary);
  f.write(reinterpret_cast<char const*>(w.bytes.data()), static_cast<std::streamsize>(w.bytes.size()));
}

/// The header: mode, type byte, device code (0: CPU -1), tweaks (none).
tree_writer header(std::uint8_t mode, std::uint8_t type = 0) {
  tree_writer w;
  w.u8(mode);
  w.u8(type);
  w.u8(0);
  w.u8(0);
  return w;
}

template <class T>
devcol::column<T> column_of(std::size_t n, bool nulls) {
  std::vector<std::optional<T>> rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!nulls || i % 3 != 1) {
      if constexpr (std::is_arithmetic_v<T>) {
        rows[i] = static_cast<T>(i * 7 % 13);
      } else if constexpr (requires { typename T::clock; }) {  // timestamps, dates, times of day
        rows[i] = T(typename T::duration(static_cast<std::int64_t>(i) * 1000 - 7));
      } else if constexpr (!requires { typename T::rep; }) {  // storage structs: halffloat, intervals
        T v{};
        auto const low = static_cast<unsigned char>(i * 7 % 13);
        std::memcpy(&v, &low, 1);
        rows[i] = v;
      } else {  // durations
        rows[i] = T(static_cast<typename T::rep>(i) * 1000 - 7);
      }
    }
  }
  return devcol::make_column<T>(rows);
}

void encode(tree_writer& w, devcol::table const& t) {
  ArrowSchema s{};
  ArrowDeviceArray a{};
  devcol::to_arrow(t, &s, &a);
  w.node(s, a.array);
  s.release(&s);
  a.array.release(&a.array);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <directory>\n", argv[0]);
    return 2;
  }
  out_dir = argv[1];
  std::filesystem::create_directories(out_dir);
  devcol::table tbl;
  auto each_type = [&]<std::size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          using T = typename devcol::any_column_kind_t<I>::value_type;
          for (bool nulls : {false, true}) {
            for (auto const& [n, begin, end] : {std::tuple{0, 0, 0}, {5, 0, 5}, {70, 3, 69}}) {
              auto col = column_of<T>(static_cast<std::size_t>(n), nulls).slice(static_cast<std::size_t>(begin),
                                                                              static_cast<std::size_t>(end));
              ArrowSchema s{};
              ArrowDeviceArray a{};
              devcol::to_arrow(col, &s, &a);
              for (std::uint8_t mode : {0, 1}) {
                tree_writer w = header(mode, static_cast<std::uint8_t>(I));
                w.node(s, a.array);
                write(w);
              }
              s.release(&s);
              a.array.release(&a.array);
            }
          }
          tbl.add("c" + std::to_string(I), column_of<T>(20, I % 2 == 0));
        }(),
        ...);
  };
  each_type(std::make_index_sequence<devcol_fuzz::fixed_width_kinds>{});
  // A table, and a stream of two batches of it.
  tree_writer t = header(2);
  encode(t, tbl);
  write(t);
  {  // a sparse and a dense union of type codes 3 and 7 (int64 and strings with nulls), sliced, as a table
    std::vector<std::int8_t> const ids{3, 7, 7, 3, 3, 7};
    devcol::any_column<> const ints(devcol::make_column<std::int64_t>({1, std::nullopt, 3, 4, 5, 6}));
    devcol::any_column<> const strs(devcol::make_strings_column({"a", "bb", std::nullopt, "", "e", "f"}));
    devcol::table unions;
    unions.add("sparse",
               devcol::make_union_column(devcol::union_mode::sparse, {3, 7}, {{"i", ints}, {"s", strs}}, ids).slice(1, 6));
    unions.add("dense", devcol::make_union_column(devcol::union_mode::dense, {3, 7}, {{"i", ints}, {"s", strs}}, ids,
                                                  {0, 0, 1, 1, 2, 2})
                            .slice(1, 6));
    tree_writer u = header(2);
    encode(u, unions);
    write(u);
  }
  tree_writer stream = header(3);
  stream.u8(1);  // two batches
  encode(stream, tbl);
  encode(stream, tbl);
  write(stream);
  std::printf("devcol fuzz seeds: %d files in %s\n", written, out_dir.string().c_str());
  return 0;
}
