// Arrow C Device Data Interface for strings columns (utf8 "u", large utf8 "U"): zero-copy export at
// the column's offset, import of untrusted arrays (structure, then offsets content), ownership.
#include "interop_support.hpp"

#include <devcol/column/factories.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/column/to_host.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/from_arrow.hpp>
#include <devcol/interop/to_arrow.hpp>

#include <catch2/catch.hpp>

#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace devcol_test::arrow_strings {

using strings = std::vector<std::optional<std::string>>;

/// `n` rows: row i holds i % 6 bytes (so every sixth is empty), every third null when `nulls`.
inline strings model_of(std::size_t n, bool nulls) {
  strings rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!nulls || i % 3 != 1) { rows[i] = std::string(i % 6, static_cast<char>('a' + i % 26)); }
  }
  return rows;
}

inline strings slice_of(strings const& m, std::size_t first, std::size_t last) {
  return {m.begin() + static_cast<std::ptrdiff_t>(first), m.begin() + static_cast<std::ptrdiff_t>(last)};
}

/// Writes `value` over the offset at index `i` of an exported array's offsets buffer (in device
/// memory on CUDA): a producer sending bad offsets.
template <class O>
void spoil_offset(ArrowDeviceArray const& array, std::size_t i, O value) {
  auto* offsets = static_cast<O*>(const_cast<void*>(array.array.buffers[1]));
  devcol::copy_bytes(offsets + i, &value, sizeof(O), {});
  devcol::stream_ref{}.synchronize();
}

}  // namespace devcol_test::arrow_strings

using namespace devcol_test::arrow_strings;  // NOLINT: test brevity
using devcol_test::leak_check;
using devcol_test::interop::arrow_error_of;
using devcol_test::interop::exported;
using devcol_test::interop::release_counter;
using Catch::Contains;

TEMPLATE_TEST_CASE("arrow strings: devcol -> Arrow -> devcol keeps rows, nulls, empties and the offset, zero-copy",
                   "[strings][arrow][roundtrip]", std::int32_t, std::int64_t) {
  using O = TestType;
  leak_check leaks;
  for (bool nulls : {false, true}) {
    auto const m = model_of(100, nulls);
    auto const whole = devcol::make_strings_column<O>(m);
    for (auto [first, last] : {std::pair<std::size_t, std::size_t>{0, 100}, {3, 60}, {13, 83}, {70, 100}, {5, 5}, {100, 100}}) {
      INFO("nulls " << nulls << ", rows [" << first << ", " << last << ")");
      auto const col = whole.slice(first, last);
      exported e;
      devcol::to_arrow(col, &e.schema, &e.array, {}, "s");
      CHECK(col.is_shared());  // the export holds a handle
      auto const back = devcol::from_arrow<devcol::basic_strings_column<O>>(&e.schema, &e.array);
      CHECK(e.array.array.release == nullptr);  // moved into the import
      CHECK(e.schema.release == nullptr);       // released by the import
      CHECK(back.size() == last - first);
      CHECK(back.offset() == first);  // the slice's offset kept: nothing rebased, nothing copied
      CHECK(back.null_count() == col.null_count());
      CHECK(back.chars(devcol::access::read) == col.chars(devcol::access::read));
      CHECK(back.offsets(devcol::access::read) == col.offsets(devcol::access::read));
      CHECK(back.is_borrowed());
      CHECK(devcol::to_host(back) == slice_of(m, first, last));
    }
  }
}

TEMPLATE_TEST_CASE("arrow strings: the exported structs' fields", "[strings][arrow]", std::int32_t, std::int64_t) {
  using O = TestType;
  leak_check leaks;
  auto const whole = devcol::make_strings_column<O>(model_of(100, true));
  auto const col = whole.slice(13, 83);
  exported e;
  devcol::to_arrow(col, &e.schema, &e.array, {}, "name");
  CHECK(std::string_view(e.schema.format) == (sizeof(O) == 4 ? "u" : "U"));
  CHECK(std::string_view(e.schema.name) == "name");
  CHECK(e.schema.flags == ARROW_FLAG_NULLABLE);
  CHECK(e.schema.n_children == 0);
  CHECK(e.schema.dictionary == nullptr);
  ArrowArray const& a = e.array.array;
  CHECK(a.length == 70);
  CHECK(a.offset == 13);
  CHECK(a.null_count == static_cast<std::int64_t>(col.null_count()));
  CHECK(a.n_buffers == 3);
  CHECK(a.n_children == 0);
  CHECK(a.dictionary == nullptr);
  CHECK(a.buffers[0] == whole.null_mask(devcol::access::read));  // the same mask, the same bit for row 0
  CHECK(a.buffers[1] == whole.offsets(devcol::access::read));    // the whole buffer: Arrow applies the offset
  CHECK(a.buffers[2] == whole.chars(devcol::access::read));
#if DEVCOL_BACKEND_CUDA
  CHECK(e.array.device_type == ARROW_DEVICE_CUDA);
  CHECK(e.array.sync_event != nullptr);
#else
  CHECK(e.array.device_type == ARROW_DEVICE_CPU);
  CHECK(e.array.device_id == -1);
  CHECK(e.array.sync_event == nullptr);
#endif
  for (auto r : e.array.reserved) { CHECK(r == 0); }
  // The offsets Arrow reads are the slice's own: offsets[13] .. offsets[83] of the buffer.
  std::vector<O> seen(71);
  devcol::copy_bytes(seen.data(), static_cast<O const*>(a.buffers[1]) + a.offset, seen.size() * sizeof(O), {});
  std::vector<O> want(71);
  devcol::copy_bytes(want.data(), col.offsets(devcol::access::read), want.size() * sizeof(O), {});
  devcol::stream_ref{}.synchronize();
  CHECK(seen == want);
  CHECK(seen.front() > 0);  // not rebased
}

TEMPLATE_TEST_CASE("arrow strings: an empty column exports a one-element {0} offsets buffer", "[strings][arrow]",
                   std::int32_t, std::int64_t) {
  using O = TestType;
  leak_check leaks;
  for (auto const& col : {devcol::basic_strings_column<O>{}, devcol::make_strings_column<O>({}),
                          devcol::make_strings_column<O>({"", ""})}) {
    INFO("rows " << col.size() << ", buffers " << !col.offsets_buffer().empty());
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    ArrowArray const& a = e.array.array;
    REQUIRE(a.buffers[1] != nullptr);
    CHECK(a.buffers[2] != nullptr);  // non-NULL even without bytes: consumers that require it are served
    CHECK(a.offset == 0);
    O first = -1;
    devcol::copy_bytes(&first, a.buffers[1], sizeof(O), {});
    devcol::stream_ref{}.synchronize();
    CHECK(first == 0);
    auto const back = devcol::from_arrow<devcol::basic_strings_column<O>>(&e.schema, &e.array);
    CHECK(devcol::to_host(back) == devcol::to_host(col));
  }
}

TEST_CASE("arrow strings: import releases the producer's array once, when the last handle goes", "[strings][arrow]") {
  leak_check leaks;
  auto col = devcol::make_strings_column({"abc", std::nullopt, "", "de"});
  exported e;
  devcol::to_arrow(col, &e.schema, &e.array);
  release_counter::watch(e.schema, e.array);
  {
    auto const back = devcol::from_arrow<devcol::strings_column>(&e.schema, &e.array);
    CHECK(release_counter::schemas == 1);
    CHECK(release_counter::arrays == 0);
    auto const slice = back.slice(1, 3);
    { auto const keep = back; }
    CHECK(release_counter::arrays == 0);
    CHECK(devcol::to_host(slice) == strings{std::nullopt, ""});
  }
  CHECK(release_counter::arrays == 1);
  CHECK(release_counter::schemas == 1);
  // Exported memory is never written: a write through the column copies it first.
  CHECK_FALSE(col.is_shared());  // the export's handle went with its release
}

TEST_CASE("arrow strings: an imported column is never written: a write copies first", "[strings][arrow]") {
  leak_check leaks;
  auto const col = devcol::make_strings_column({"abc", "de"});
  exported e;
  devcol::to_arrow(col, &e.schema, &e.array);
  auto back = devcol::from_arrow<devcol::strings_column>(&e.schema, &e.array);
  char const* producer = back.chars(devcol::access::read);
  char* mine = back.chars(devcol::access::write);
  CHECK(mine != producer);
  CHECK_FALSE(back.is_borrowed());
  devcol::copy_bytes(mine, "X", 1, {});
  devcol::stream_ref{}.synchronize();
  CHECK(devcol::to_host(back) == strings{"Xbc", "de"});
  CHECK(devcol::to_host(col) == strings{"abc", "de"});
}

TEMPLATE_TEST_CASE("arrow strings: untrusted offsets raise arrow_error naming the value, the input released once",
                   "[strings][arrow][validation]", std::int32_t, std::int64_t) {
  using O = TestType;
  using C = devcol::basic_strings_column<O>;
  leak_check leaks;
  auto const make = [] { return devcol::make_strings_column<O>({"ab", "cd", "ef", "gh"}); };  // offsets 0 2 4 6 8
  auto const rejects = [](exported& e, std::string const& message) {
    release_counter::watch(e.schema, e.array);
    CHECK_THAT(arrow_error_of([&] { (void)devcol::from_arrow<C>(&e.schema, &e.array); }), Contains(message));
    CHECK(release_counter::arrays == 1);
    CHECK(release_counter::schemas == 1);
  };
  SECTION("decreasing") {
    auto const col = make();
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    spoil_offset<O>(e.array, 2, 1);
    rejects(e, "array.buffers[1] (offsets) decrease: offset 1 is 2, offset 2 is 1");
  }
  SECTION("decreasing at the end of a slice, offsets named in the producer's buffer") {
    auto const col = make().slice(1, 4);
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    spoil_offset<O>(e.array, 4, 5);
    rejects(e, "offset 3 is 6, offset 4 is 5");
  }
  SECTION("a negative first offset") {
    auto const col = make().slice(2, 4);
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    spoil_offset<O>(e.array, 2, -3);
    rejects(e, "array.buffers[1] (offsets): offset 2 (the first row's) is -3, negative");
  }
  SECTION("bytes reached with no data buffer: out of range") {
    auto const col = make();
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    void const* buffers[3] = {nullptr, e.array.array.buffers[1], nullptr};
    e.array.array.buffers = buffers;  // the node keeps its own: release frees it all the same
    rejects(e, "array.buffers[2] (data) is NULL for the 8 bytes the offsets reach");
  }
  SECTION("the checker bounds the last offset by the data size, when it is known") {
    auto const col = make();
    CHECK_THAT(arrow_error_of([&] {
                 (void)devcol::detail::check_offsets(col.offsets(devcol::access::read), 5, 0, std::size_t{7}, "array", {});
               }),
               Contains("array.buffers[1] (offsets): the last offset 8 is past the 7 elements of the data buffer"));
    auto const [first, last] = devcol::detail::check_offsets(col.offsets(devcol::access::read) + 1, 3, 1, std::size_t{8}, "a", {});
    CHECK(first == 2);
    CHECK(last == 6);
  }
}

TEMPLATE_TEST_CASE("arrow strings: structure checks before any buffer is read", "[strings][arrow][validation]",
                   std::int32_t, std::int64_t) {
  using O = TestType;
  using C = devcol::basic_strings_column<O>;
  using Other = devcol::basic_strings_column<std::conditional_t<sizeof(O) == 4, std::int64_t, std::int32_t>>;
  leak_check leaks;
  auto const col = devcol::make_strings_column<O>({"ab", std::nullopt, "ef"});
  auto const rejects = [](exported& e, auto type, std::string const& message) {
    using Into = typename decltype(type)::type;
    release_counter::watch(e.schema, e.array);
    CHECK_THAT(arrow_error_of([&] { (void)devcol::from_arrow<Into>(&e.schema, &e.array); }), Contains(message));
    CHECK(release_counter::arrays == 1);
    CHECK(release_counter::schemas == 1);
  };
  SECTION("utf8 and large utf8 are not each other") {
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    rejects(e, std::type_identity<Other>{},
            sizeof(O) == 4 ? "array.format 'u' is not large_string ('U')" : "array.format 'U' is not string ('u')");
  }
  SECTION("n_buffers") {
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    e.array.array.n_buffers = 2;
    rejects(e, std::type_identity<C>{}, "array.n_buffers is 2, a");
  }
  SECTION("NULL offsets for rows") {
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    void const* buffers[3] = {e.array.array.buffers[0], nullptr, e.array.array.buffers[2]};
    e.array.array.buffers = buffers;
    rejects(e, std::type_identity<C>{}, "array.buffers[1] (offsets) is NULL for 3 rows");
  }
  SECTION("nulls without a validity buffer") {
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    void const* buffers[3] = {nullptr, e.array.array.buffers[1], e.array.array.buffers[2]};
    e.array.array.buffers = buffers;
    rejects(e, std::type_identity<C>{}, "array.null_count is 1 without a validity buffer");
  }
  SECTION("a fixed-width import of a strings array, and the reverse") {
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    release_counter::watch(e.schema, e.array);
    CHECK_THAT(arrow_error_of([&] { (void)devcol::from_arrow<std::int32_t>(&e.schema, &e.array); }),
               Contains("is not int32"));
    CHECK(release_counter::arrays == 1);
    exported f;
    devcol::to_arrow(devcol::make_column<std::int32_t>({1}), &f.schema, &f.array);
    rejects(f, std::type_identity<C>{}, "array.format 'i' is not");
  }
  SECTION("NULL offsets with no rows: an empty column") {
    exported e;
    devcol::to_arrow(col.slice(3, 3), &e.schema, &e.array);
    void const* buffers[3] = {nullptr, nullptr, nullptr};
    e.array.array.buffers = buffers;
    auto const back = devcol::from_arrow<C>(&e.schema, &e.array);
    CHECK(back.size() == 0);
  }
}

TEST_CASE("arrow strings: null_count -1 is counted, misaligned offsets are copied", "[strings][arrow]") {
  leak_check leaks;
  auto const col = devcol::make_strings_column<std::int64_t>(model_of(40, true)).slice(5, 37);
  exported e;
  devcol::to_arrow(col, &e.schema, &e.array);
  e.array.array.null_count = -1;
  auto const counted = devcol::from_arrow<devcol::large_strings_column>(&e.schema, &e.array);
  CHECK(counted.null_count() == col.null_count());
#if !DEVCOL_BACKEND_CUDA
  // A producer whose 32-bit offsets start 2 bytes into its allocation (host memory: the host backend only).
  std::vector<std::uint64_t> storage(8, 0);
  auto* bytes = reinterpret_cast<std::byte*>(storage.data()) + 2;
  std::int32_t const offsets[] = {0, 1, 1, 4};
  std::memcpy(bytes, offsets, sizeof offsets);
  static char const data[] = "abcd";
  static int releases = 0;
  releases = 0;
  void const* buffers[3] = {nullptr, bytes, data};
  ArrowSchema schema{};
  schema.format = "u";
  schema.release = [](ArrowSchema* s) { s->release = nullptr; };
  ArrowDeviceArray array{};
  array.array.length = 2;
  array.array.offset = 1;
  array.array.n_buffers = 3;
  array.array.buffers = buffers;
  array.array.release = [](ArrowArray* a) {
    ++releases;
    a->release = nullptr;
  };
  array.device_type = ARROW_DEVICE_CPU;
  array.device_id = -1;
  {
    auto const back = devcol::from_arrow<devcol::strings_column>(&schema, &array);
    CHECK(back.offset() == 0);
    CHECK(reinterpret_cast<std::uintptr_t>(back.offsets(devcol::access::read)) % 4 == 0);
    CHECK(back.chars(devcol::access::read) == data);  // the bytes still borrowed
    CHECK(devcol::to_host(back) == strings{"", "bcd"});
    CHECK(releases == 0);
  }
  CHECK(releases == 1);
#endif
}

TEMPLATE_TEST_CASE("arrow strings: misaligned offsets are realigned before they are checked, on either backend",
                   "[strings][arrow][review]", std::int32_t, std::int64_t) {
  // A producer whose offsets start 2 bytes into its device allocation: checking them in place would
  // read them misaligned (a fault on a GPU; UBSan's alignment check on the host). The importer must
  // copy them to aligned memory first, as the list importer does, and check the copy.
  using O = TestType;
  using C = devcol::basic_strings_column<O>;
  leak_check leaks;
  auto const col = devcol::make_strings_column<O>(model_of(40, true)).slice(5, 37);
  exported e;
  devcol::to_arrow(col, &e.schema, &e.array);
  std::size_t const count = static_cast<std::size_t>(e.array.array.offset + e.array.array.length) + 1;
  devcol::buffer<devcol::default_policy> producer(count * sizeof(O) + sizeof(O));
  auto* shifted = static_cast<std::byte*>(producer.data(devcol::access::write)) + 2;
  devcol::copy_bytes(shifted, e.array.array.buffers[1], count * sizeof(O), {});
  devcol::stream_ref{}.synchronize();
  REQUIRE(reinterpret_cast<std::uintptr_t>(shifted) % alignof(O) != 0);
  e.array.array.buffers[1] = shifted;  // the export's buffer list is its own to change
  {
    auto const back = devcol::from_arrow<C>(&e.schema, &e.array);
    CHECK(reinterpret_cast<std::uintptr_t>(back.offsets(devcol::access::read)) % alignof(O) == 0);
    CHECK(back.offset() == 0);  // only the rows' offsets were copied
    CHECK(devcol::to_host(back) == slice_of(model_of(40, true), 5, 37));
  }
  // And bad offsets in a misaligned buffer are still caught, from the aligned copy.
  exported bad;
  devcol::to_arrow(col, &bad.schema, &bad.array);
  devcol::copy_bytes(shifted, bad.array.array.buffers[1], count * sizeof(O), {});
  O const negative = -1;
  devcol::copy_bytes(shifted + static_cast<std::size_t>(bad.array.array.offset) * sizeof(O), &negative, sizeof(O), {});
  devcol::stream_ref{}.synchronize();
  bad.array.array.buffers[1] = shifted;
  CHECK_THAT(arrow_error_of([&] { (void)devcol::from_arrow<C>(&bad.schema, &bad.array); }), Contains("negative"));
}
