// The allocation-failure sweep (as SQLite tests its allocator): every public operation that
// allocates runs with its k-th allocation failing, for k = 1, 2, ... until it succeeds. Each failure
// must raise devcol::out_of_memory, leave every input column as it was (values, validity, null
// count and pointers) and leak nothing.
#include "failing_resource.hpp"
#include "../nested_support.hpp"

#include <devcol/interop/arrow_stream.hpp>
#include <devcol/interop/dlpack.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iostream>
#include <sstream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace devcol_test::reliability {

namespace access = devcol::access;
using devcol_test::spilling;

/// Device-callable functors for the transform ops (lambdas would need nvcc's extended lambdas).
struct plus_one {
  DEVCOL_HOST_DEVICE std::int64_t operator()(std::int64_t v) const noexcept { return v + 1; }
};
struct add_columns {
  DEVCOL_HOST_DEVICE std::int64_t operator()(std::int64_t a, std::int64_t b) const noexcept { return a + b; }
};

/// The inputs every operation may read or write: built with failures disarmed, fresh for each k.
struct inputs {
  using i64 = devcol::column<std::int64_t>;
  i64 a;       ///< nullable, a slice at an offset (so mask bits start mid-word)
  i64 b;       ///< nullable, same size as a
  i64 plain;   ///< no mask
  i64 shared;  ///< shares a's memory (copy-on-write)
  i64 exposed; ///< exposed: copies of it are deep (rule 12)
  devcol::column<double> f;
  devcol::column<bool> keep;        ///< nullable flags
  devcol::column<std::int32_t> idx; ///< in-bounds indices into a, one null
  devcol::column<std::int64_t, spilling> spill;
  devcol::column<std::int64_t, spilling> spilled;  ///< spilled already
  devcol::table tbl;

  static constexpr std::size_t rows = 100;

  static std::vector<std::optional<std::int64_t>> values(std::size_t n, std::size_t seed) {
    std::vector<std::optional<std::int64_t>> v(n);
    for (std::size_t i = 0; i < n; ++i) {
      if ((i + seed) % 4 != 1) { v[i] = static_cast<std::int64_t>((i * 37 + seed) % 101) - 50; }
    }
    return v;
  }

  inputs() {
    a = devcol::make_column<std::int64_t>(values(rows + 5, 0)).slice(3, 3 + rows);
    b = devcol::make_column<std::int64_t>(values(rows, 2));
    plain = devcol::sequence<std::int64_t>(rows, 7, 3);
    shared = a;
    exposed = devcol::sequence<std::int64_t>(rows, -5, 2);
    (void)exposed.expose();
    std::vector<std::optional<double>> fv(rows);
    std::vector<std::optional<bool>> kv(rows);
    std::vector<std::optional<std::int32_t>> iv(rows / 2);
    for (std::size_t i = 0; i < rows; ++i) {
      if (i % 5 != 2) { fv[i] = static_cast<double>(i) * 0.5 - 10; }
      if (i % 7 != 3) { kv[i] = i % 3 == 0; }
    }
    for (std::size_t i = 0; i < iv.size(); ++i) {
      if (i != 4) { iv[i] = static_cast<std::int32_t>((i * 13) % rows); }
    }
    f = devcol::make_column<double>(fv);
    keep = devcol::make_column<bool>(kv);
    idx = devcol::make_column<std::int32_t>(iv);
    spill = devcol::make_column<std::int64_t, spilling>(values(rows, 1));
    spilled = devcol::make_column<std::int64_t, spilling>(values(rows, 3));
    REQUIRE(spilled.spill() > 0);
    tbl.add("a", a).add("f", f).add("keep", keep);
  }

  /// Whether the spilled column still holds its rows (reads it: unspills it).
  [[nodiscard]] bool spilled_rows_intact() const { return devcol::to_host(spilled) == values(rows, 3); }

  static constexpr char const* names[] = {"a", "b", "plain", "shared", "exposed", "f", "keep", "idx", "spill", "spilled", "tbl"};
  [[nodiscard]] std::vector<struct snapshot> snapshots() const;
  /// A failed access may leave a spilled input partly back on the device (its memory, not a leak):
  /// spill it again before counting what is left. Residency is a cache state: intact() checks the rows.
  void repair() { (void)spilled.spill(); }
  [[nodiscard]] bool intact() const { return spilled_rows_intact(); }
};

/// What a caller can see of a column: everything a failed operation must leave as it was.
struct snapshot {
  std::vector<std::optional<std::int64_t>> rows;
  void const* data = nullptr;
  void const* mask = nullptr;
  std::size_t size = 0, null_count = 0, offset = 0;
  bool shared = false, exposed = false, spilled = false;

  template <class T, class P>
  static snapshot of(devcol::column<T, P> const& c) {
    snapshot s;
    if constexpr (P::spill::enabled) { s.spilled = c.is_spilled(); }
    if (!s.spilled) {  // reading a spilled column would unspill it: inputs::spilled_rows_intact() reads it last
      for (auto const& row : devcol::to_host(c)) {
        s.rows.push_back(row ? std::optional<std::int64_t>(static_cast<std::int64_t>(*row)) : std::nullopt);
      }
      s.data = c.data(access::read);
      s.mask = c.null_mask(access::read);
    }
    s.size = c.size();
    s.null_count = c.null_count();
    s.offset = c.offset();
    s.shared = c.is_shared();
    s.exposed = c.is_exposed();
    return s;
  }
  bool operator==(snapshot const&) const = default;
};

/// A table's part of the inputs: its column count.
snapshot table_shape(devcol::table const& t) {
  snapshot s;
  s.size = t.num_columns();
  return s;
}

std::vector<snapshot> snapshots(inputs const& in) {
  return {snapshot::of(in.a),    snapshot::of(in.b),    snapshot::of(in.plain), snapshot::of(in.shared),
          snapshot::of(in.exposed), snapshot::of(in.f), snapshot::of(in.keep),  snapshot::of(in.idx),
          snapshot::of(in.spill), snapshot::of(in.spilled), table_shape(in.tbl)};
}

std::vector<snapshot> inputs::snapshots() const { return devcol_test::reliability::snapshots(*this); }

/// One operation of the sweep: what it is called, and what it does to fresh inputs.
template <class Inputs>
struct basic_operation {
  char const* name;
  std::function<void(Inputs&)> run;
};
using operation = basic_operation<inputs>;

/// Hands what `produce` exports into a fresh pair of structs to `consume` (an import).
template <class Produce, class Consume>
void round_trip(Produce produce, Consume consume) {
  ArrowSchema schema{};
  ArrowDeviceArray array{};
  produce(&schema, &array);
  consume(&schema, &array);
  // Import takes both structs over, also when it throws; nothing is left to release here.
}

// The table: adding an operation that allocates is one line.
std::vector<operation> const& operations() {
  using i64 = std::int64_t;
  static std::vector<operation> const ops = {
      // constructors and factories
      {"column(size)", [](inputs&) { devcol::column<i64> c(1000); }},
      {"column(size, all_valid)", [](inputs&) { devcol::column<i64> c(1000, {}, devcol::mask_state::all_valid); }},
      {"column(size, all_null)", [](inputs&) { devcol::column<i64> c(1000, {}, devcol::mask_state::all_null); }},
      {"make_column with nulls", [](inputs&) { (void)devcol::make_column<i64>(inputs::values(300, 5)); }},
      {"make_column without nulls", [](inputs&) { (void)devcol::make_column<i64>({1, 2, 3, 4}); }},
      {"sequence", [](inputs&) { (void)devcol::sequence<i64>(500, 1, 2); }},
      {"full(value)", [](inputs&) { (void)devcol::full<i64>(500, 9); }},
      {"full(null)", [](inputs&) { (void)devcol::full<i64>(500, std::nullopt); }},
      // copies, copy-on-write, slices
      {"deep_copy of a nullable slice", [](inputs& in) { (void)in.a.deep_copy(); }},
      {"copy of an exposed column (deep)", [](inputs& in) { devcol::column<i64> c(in.exposed); }},
      {"assignment of an exposed column (deep)", [](inputs& in) { in.b = in.exposed; }},
      {"slice of an exposed column (copies)", [](inputs& in) { (void)in.exposed.slice(3, 50); }},
      {"data(write) on a shared column", [](inputs& in) { (void)in.shared.data(access::write); }},
      {"null_mask(write) on a shared column", [](inputs& in) { (void)in.shared.null_mask(access::write); }},
      {"mutable_view on a shared column", [](inputs& in) { (void)in.shared.mutable_view(); }},
      {"expose on a shared column", [](inputs& in) { (void)in.shared.expose(); }},
      {"slice of a nullable column", [](inputs& in) { (void)in.a.slice(5, 77); }},
      {"multi-range slice of a nullable column",
       [](inputs& in) {
         std::array<std::pair<std::size_t, std::size_t>, 3> const ranges{{{0, 10}, {5, 70}, {64, 99}}};
         (void)in.a.slice(ranges);
       }},
      {"to_host", [](inputs& in) { (void)devcol::to_host(in.a); }},
      // ops
      {"transform(col, f)", [](inputs& in) { (void)devcol::transform(in.a, plus_one{}); }},
      {"transform(a, b, f)", [](inputs& in) { (void)devcol::transform(in.a, in.b, add_columns{}); }},
      {"compare(col, op, value)", [](inputs& in) { (void)devcol::compare(in.a, devcol::cmp::less, i64{3}); }},
      {"compare(a, op, b)", [](inputs& in) { (void)devcol::compare(in.a, devcol::cmp::greater_equal, in.b); }},
      {"cast<double>", [](inputs& in) { (void)devcol::cast<double>(in.a); }},
      {"cast<std::int32_t> of doubles", [](inputs& in) { (void)devcol::cast<std::int32_t>(in.f); }},
      {"gather (throw_error)", [](inputs& in) { (void)devcol::gather(in.a, in.idx); }},
      {"gather (nullify)", [](inputs& in) { (void)devcol::gather(in.plain, in.idx, {}, devcol::out_of_bounds::nullify); }},
      {"scatter into a shared column", [](inputs& in) { devcol::scatter(in.b.slice(0, 50), in.idx, in.shared); }},
      {"scatter into an unshared column", [](inputs& in) { devcol::scatter(in.a.slice(0, 50), in.idx, in.b); }},
      {"filter", [](inputs& in) { (void)devcol::filter(in.a, in.keep); }},
      {"concatenate", [](inputs& in) { (void)devcol::concatenate(std::vector{in.a, in.b, in.plain}); }},
      {"sum", [](inputs& in) { (void)devcol::sum(in.a); }},
      {"product", [](inputs& in) { (void)devcol::product(in.plain.slice(0, 10)); }},
      {"min", [](inputs& in) { (void)devcol::min(in.a); }},
      {"max", [](inputs& in) { (void)devcol::max(in.f); }},
      {"minmax", [](inputs& in) { (void)devcol::minmax(in.a); }},
      {"mean", [](inputs& in) { (void)devcol::mean(in.f); }},
      {"any", [](inputs& in) { (void)devcol::any(in.keep); }},
      {"all", [](inputs& in) { (void)devcol::all(in.keep); }},
      {"inclusive_scan", [](inputs& in) { (void)devcol::inclusive_scan(in.a, devcol::scan_op::sum); }},
      {"exclusive_scan", [](inputs& in) { (void)devcol::exclusive_scan(in.a, devcol::scan_op::max); }},
      {"sort", [](inputs& in) { (void)devcol::sort(in.a); }},
      {"sort (descending, nulls first)",
       [](inputs& in) { (void)devcol::sort(in.f, devcol::order::descending, {}, devcol::null_order::first); }},
      {"argsort", [](inputs& in) { (void)devcol::argsort(in.a); }},
      {"is_sorted", [](inputs& in) { (void)devcol::is_sorted(in.a); }},
      {"is_null", [](inputs& in) { (void)devcol::is_null(in.a); }},
      {"is_valid", [](inputs& in) { (void)devcol::is_valid(in.a); }},
      {"fill_null", [](inputs& in) { (void)devcol::fill_null(in.a, i64{0}); }},
      {"set_null_mask", [](inputs& in) { (void)devcol::set_null_mask(in.b, in.keep); }},
      {"fill on a shared column", [](inputs& in) { devcol::fill(in.shared, i64{4}); }},
      {"copy", [](inputs& in) { (void)devcol::copy(in.a); }},
      {"copy_into a shared column", [](inputs& in) { devcol::copy_into(in.b, in.shared); }},
      {"copy_into an unshared column", [](inputs& in) { devcol::copy_into(in.a, in.b); }},
      // Arrow export and import, streams
      {"to_arrow then from_arrow (int64)",
       [](inputs& in) {
         round_trip([&](ArrowSchema* s, ArrowDeviceArray* a) { devcol::to_arrow(in.a, s, a); },
                    [](ArrowSchema* s, ArrowDeviceArray* a) { (void)devcol::from_arrow<i64>(s, a); });
       }},
      {"to_arrow then from_arrow (bool, packed)",
       [](inputs& in) {
         round_trip([&](ArrowSchema* s, ArrowDeviceArray* a) { devcol::to_arrow(in.keep.slice(3, 90), s, a); },
                    [](ArrowSchema* s, ArrowDeviceArray* a) { (void)devcol::from_arrow<bool>(s, a); });
       }},
      {"to_arrow of an exposed column (snapshot)",
       [](inputs& in) {
         round_trip([&](ArrowSchema* s, ArrowDeviceArray* a) { devcol::to_arrow(in.exposed, s, a); },
                    [](ArrowSchema* s, ArrowDeviceArray* a) { (void)devcol::from_arrow<i64>(s, a); });
       }},
      {"to_arrow then table_from_arrow",
       [](inputs& in) {
         round_trip([&](ArrowSchema* s, ArrowDeviceArray* a) { devcol::to_arrow(in.tbl, s, a); },
                    [](ArrowSchema* s, ArrowDeviceArray* a) { (void)devcol::table_from_arrow(s, a); });
       }},
      {"from_arrow of a sliced array (null_count -1, recounted)",
       [](inputs& in) {
         round_trip(
             [&](ArrowSchema* s, ArrowDeviceArray* a) {
               devcol::to_arrow(in.a, s, a);
               a->array.null_count = -1;
             },
             [](ArrowSchema* s, ArrowDeviceArray* a) { (void)devcol::from_arrow<i64>(s, a); });
       }},
      {"to_arrow_stream then tables_from_arrow",
       [](inputs& in) {
         ArrowDeviceArrayStream stream{};
         devcol::to_arrow_stream(std::vector{in.tbl, in.tbl}, &stream);
         (void)devcol::tables_from_arrow(&stream);
       }},
      // DLPack
      {"to_dlpack of a shared column",
       [](inputs& in) {
         devcol::column<i64> copy = in.plain;
         DLManagedTensorVersioned* t = devcol::to_dlpack(copy);
         t->deleter(t);
       }},
      {"from_dlpack then a write", [](inputs& in) {
         devcol::column<i64> copy = in.plain.deep_copy();
         auto back = devcol::from_dlpack<i64>(devcol::to_dlpack(copy));
         (void)back.data(access::write);
       }},
      // spilling
      {"unspill", [](inputs& in) { in.spilled.unspill(); }},
      {"read of a spilled column (unspills)", [](inputs& in) { (void)in.spilled.view(); }},
      {"deep_copy of a spilled column", [](inputs& in) { (void)in.spilled.deep_copy(); }},
  };
  return ops;
}

/// The sweep itself over `ops` with fresh `Inputs` for each (operation, k): `Inputs` gives its
/// snapshots(), repair() after a failure (what a failure may leave that is not a change, e.g. a
/// spilled input back on the device) and intact() (what snapshots cannot read without changing).
/// Returns the (operation, k) cases run and how many of them failed by schedule.
template <class Inputs>
std::pair<std::size_t, std::size_t> sweep(std::vector<basic_operation<Inputs>> const& ops) {
  auto schedule = std::make_shared<failure_schedule>();
  auto handle = mr::make_resource_handle<failing_device>("failing", std::in_place, schedule);
  auto const& tracker = *handle.target<failing_device>();
  mr::scoped_default use_it{handle};

  std::size_t cases = 0;     // (operation, k) runs
  std::size_t failures = 0;  // of which failed by schedule
  for (auto const& op : ops) {
    INFO("operation: " << op.name);
    bool succeeded = false;
    for (std::size_t k = 1; !succeeded; ++k) {
      INFO("failing allocation " << k << " and later");
      {
        Inputs in;
        auto const before = in.snapshots();
        std::size_t const live = tracker.outstanding_count();
        schedule->arm(k);
        try {
          op.run(in);
          succeeded = true;
        } catch (devcol::out_of_memory const&) {
          // the failure must be ours
          CHECK(schedule->failures > 0);
        }
        schedule->disarm();
        ++cases;
        if (succeeded) {
          CHECK(schedule->failures == 0);  // an operation must not swallow a failure
        } else {
          ++failures;
          in.repair();
          CHECK(tracker.outstanding_count() == live);  // nothing of the failed operation is left
          auto const after = in.snapshots();
          for (std::size_t i = 0; i < before.size(); ++i) {
            INFO("input " << Inputs::names[i]);
            CHECK(after[i] == before[i]);
          }
          CHECK(in.intact());
        }
      }
      REQUIRE(tracker.outstanding_count() == 0);
      REQUIRE(tracker.unknown_deallocations() == 0);
      REQUIRE(tracker.mismatched_deallocations() == 0);
      REQUIRE(k < 1000);  // an operation that never succeeds
    }
  }
  return {cases, failures};
}

TEST_CASE("allocation-failure sweep: each failing allocation of every operation throws out_of_memory, "
          "changes no input and leaks nothing",
          "[reliability][allocation_failure]") {
  auto const [cases, failures] = sweep(operations());
  std::cout << "allocation-failure sweep: " << cases << " (operation, k) cases over " << operations().size()
            << " operations, " << failures << " of them failed by schedule; all checked\n";
  CHECK(operations().size() >= 60);
  CHECK(failures >= 95);  // floors: the table shrank, or operations stopped allocating
}

/// What a caller can see of a column of any kind: its rows as text, its validity words' address,
/// size, null count, offset and sharing.
struct kind_snapshot {
  std::string rows;
  void const* mask = nullptr;
  std::size_t size = 0, null_count = 0, offset = 0;
  bool shared = false;

  static kind_snapshot of(devcol::any_column<> const& c) {
    kind_snapshot s;
    std::ostringstream text;
    for (auto const& row : devcol::to_host_values(c)) { text << row << ';'; }
    s.rows = text.str();
    s.size = devcol::size(c);
    s.null_count = devcol::null_count(c);
    devcol::visit(
        [&](auto const& col) {
          s.offset = col.offset();
          s.shared = col.is_shared();
          if constexpr (requires { col.null_mask(access::read); }) { s.mask = col.null_mask(access::read); }
        },
        c);
    return s;
  }
  bool operator==(kind_snapshot const&) const = default;
};

/// The inputs of the variable-width and nested kinds, with nulls and at offsets not a multiple of 8.
struct kind_inputs {
  static constexpr std::size_t rows = 60;
  devcol::strings_column s;         ///< a slice with nulls and empty strings
  devcol::strings_column s_shared;  ///< shares s's memory
  devcol::any_column<> lists;       ///< list<struct<a: string, b: int64>>, sliced
  devcol::dictionary_column<> dict; ///< int32 indices (one null) over strings
  devcol::decimal64_column dec;     ///< decimal64(12, 2) with nulls
  devcol::fixed_size_binary_column<> bin;  ///< width 3, with nulls
  devcol::union_column<> sparse_union;     ///< codes 4 and 1 over strings and int64, sliced
  devcol::union_column<> dense_union;      ///< codes 4 and 1 over s and dec, sliced
  devcol::string_view_column view;         ///< 0-16 bytes (inline and out of line), 40-byte data buffers, nulls
  devcol::fixed_size_list_column<> triples;  ///< lists of 3 int64, nulls, sliced
  devcol::list_column map;                 ///< map<string, int64> (values with nulls), null maps, sliced
  devcol::list_view_column list_view;      ///< views out of order and overlapping over one child, nulls
  devcol::run_end_encoded_column<> runs;   ///< int32 run ends over strings with nulls, sliced inside a run
  devcol::column<bool> keep;        ///< nullable flags
  devcol::column<std::int32_t> idx; ///< in-bounds indices, one null

  kind_inputs() {
    std::vector<std::optional<std::string>> text(rows + 11);
    std::vector<std::optional<std::string>> three(rows);
    std::vector<std::optional<std::int64_t>> unscaled(rows);
    std::vector<std::optional<std::int32_t>> codes(rows);
    std::vector<std::optional<bool>> flags(rows);
    std::vector<std::optional<std::int32_t>> positions(rows / 2);
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (i % 6 != 4) { text[i] = std::string(i % 5, static_cast<char>('a' + i % 26)); }
    }
    for (std::size_t i = 0; i < rows; ++i) {
      if (i % 7 != 2) { three[i] = std::string{static_cast<char>('A' + i % 26), 'x', static_cast<char>('0' + i % 10)}; }
      if (i % 5 != 1) { unscaled[i] = static_cast<std::int64_t>(i * 1234) - 30000; }
      if (i != 9) { codes[i] = static_cast<std::int32_t>(i % 4); }
      if (i % 9 != 5) { flags[i] = i % 3 != 0; }
    }
    for (std::size_t i = 0; i < positions.size(); ++i) {
      if (i != 3) { positions[i] = static_cast<std::int32_t>((i * 17) % rows); }
    }
    s = devcol::make_strings_column(text).slice(11, 11 + rows);
    s_shared = s;
    lists = devcol::slice(devcol_test::nested_samples::list_of_structs(rows + 5).col, 5, 5 + rows, {});
    dict = devcol::make_dictionary_column(devcol::make_column<std::int32_t>(codes),
                                          devcol::make_strings_column({"red", "", "green", "blue"}));
    dec = devcol::make_decimal_column<std::int64_t>(unscaled, 12, 2);
    bin = devcol::make_fixed_size_binary_column(three, 3);
    std::vector<std::int8_t> union_ids(rows + 2);
    std::vector<std::int32_t> union_offsets(rows + 2);
    std::int32_t taken[2] = {0, 0};
    for (std::size_t i = 0; i < union_ids.size(); ++i) {
      union_ids[i] = i % 4 == 1 ? 1 : 4;
      union_offsets[i] = taken[i % 4 == 1 ? 1 : 0]++;
    }
    sparse_union = devcol::make_union_column(devcol::union_mode::sparse, {4, 1},
                                             {{"t", devcol::any_column<>(devcol::make_strings_column(text))},
                                              {"n", devcol::any_column<>(devcol::sequence<std::int64_t>(rows + 2, -9, 7))}},
                                             union_ids)
                       .slice(2, rows + 2);
    dense_union = devcol::make_union_column(devcol::union_mode::dense, {4, 1}, {{"t", s}, {"n", dec}}, union_ids,
                                            union_offsets)
                      .slice(2, rows + 2);
    std::vector<std::optional<std::string>> longer(rows + 3);
    std::vector<bool> valid(rows + 3);
    for (std::size_t i = 0; i < longer.size(); ++i) {
      if (i % 6 != 4) { longer[i] = std::string(i % 17, static_cast<char>('a' + i % 26)); }
      valid[i] = i % 8 != 6;
    }
    view = devcol::make_binary_view_column(longer, {}, 40).slice(3, rows + 3);
    triples = devcol::make_fixed_size_list_column(
                  3, devcol::any_column<>(devcol::sequence<std::int64_t>(3 * (rows + 3), -50, 3)), valid)
                  .slice(3, rows + 3);
    std::vector<std::int32_t> entry_offsets{0};
    std::vector<std::optional<std::string>> keys;
    std::vector<std::optional<std::int64_t>> values;
    for (std::size_t r = 0; r < rows + 3; ++r) {
      for (std::size_t j = 0; j < r % 3; ++j) {
        keys.emplace_back("k" + std::to_string(r) + "_" + std::to_string(j));
        values.emplace_back(j == 1 ? std::nullopt : std::optional<std::int64_t>(static_cast<std::int64_t>(r)));
      }
      entry_offsets.push_back(static_cast<std::int32_t>(keys.size()));
    }
    map = devcol::make_list_column(entry_offsets,
                                   devcol::any_column<>(devcol::make_struct_column<>(
                                       {{"key", devcol::any_column<>(devcol::make_strings_column(keys))},
                                        {"value", devcol::any_column<>(devcol::make_column<std::int64_t>(values))}})),
                                   valid)
              .as_map()
              .slice(3, rows + 3);
    std::vector<std::int32_t> view_offsets(rows);
    std::vector<std::int32_t> view_sizes(rows);
    for (std::size_t i = 0; i < rows; ++i) {
      view_offsets[i] = static_cast<std::int32_t>(i * 7 % 40);
      view_sizes[i] = static_cast<std::int32_t>(i % 5);
    }
    list_view = devcol::make_list_view_column<std::int32_t>(view_offsets, view_sizes,
                                                            devcol::any_column<>(devcol::sequence<std::int64_t>(50)),
                                                            std::vector<bool>(valid.begin(), valid.begin() + rows));
    std::vector<std::int32_t> ends;
    for (std::int32_t end = 0; end < static_cast<std::int32_t>(rows) + 5;) { ends.push_back(end += 1 + end % 4); }
    std::vector<std::optional<std::string>> run_values(longer.begin(), longer.begin() + ends.size());
    runs = devcol::make_run_end_encoded_column(devcol::run_ends_column<>(devcol::make_column<std::int32_t>(ends)),
                                               devcol::any_column<>(devcol::make_strings_column(run_values)))
               .slice(2, rows + 2);
    keep = devcol::make_column<bool>(flags);
    idx = devcol::make_column<std::int32_t>(positions);
  }

  [[nodiscard]] std::vector<kind_snapshot> snapshots() const {
    return {kind_snapshot::of(s),   kind_snapshot::of(s_shared), kind_snapshot::of(lists),
            kind_snapshot::of(dict), kind_snapshot::of(dec),     kind_snapshot::of(bin),
            kind_snapshot::of(sparse_union), kind_snapshot::of(dense_union), kind_snapshot::of(view),
            kind_snapshot::of(triples), kind_snapshot::of(map), kind_snapshot::of(list_view),
            kind_snapshot::of(runs)};
  }
  void repair() noexcept {}
  [[nodiscard]] bool intact() const noexcept { return true; }  // snapshots() read everything
  /// Every kind as any_column, for the ops that take any kind.
  [[nodiscard]] std::vector<devcol::any_column<>> all() const {
    return {s, lists, dict, dec, bin, sparse_union, dense_union, view, triples, map, list_view, runs};
  }

  static constexpr char const* names[] = {"s",           "s_shared", "lists", "dict", "dec", "bin", "sparse_union",
                                          "dense_union", "view",     "triples", "map", "list_view", "runs"};
};

std::vector<basic_operation<kind_inputs>> const& kind_operations() {
  using in_t = kind_inputs;
  auto each = [](auto f) {
    return [f](in_t& in) {
      for (auto const& c : in.all()) { f(in, c); }
    };
  };
  static std::vector<basic_operation<in_t>> const ops = {
      // factories
      {"make_strings_column", [](in_t&) { (void)devcol::make_strings_column({"a", std::nullopt, "bcd"}); }},
      {"make_list_column", [](in_t&) {
         (void)devcol::make_list_column<std::int32_t>({0, 2, 2, 3}, devcol::any_column<>{devcol::make_column<std::int64_t>({1, 2, 3})},
                                                       {true, false, true});
       }},
      {"make_decimal_column", [](in_t&) { (void)devcol::make_decimal_column<std::int64_t>(std::vector<std::optional<std::int64_t>>{1, std::nullopt}, 5, 1); }},
      {"make_fixed_size_binary_column", [](in_t&) { (void)devcol::make_fixed_size_binary_column({"ab", std::nullopt}, 2); }},
      // strings
      {"strings deep_copy", [](in_t& in) { (void)in.s.deep_copy(); }},
      {"strings slice (nullable)", [](in_t& in) { (void)in.s.slice(3, 50); }},
      {"strings chars(write) on a shared column", [](in_t& in) { (void)in.s_shared.chars(access::write); }},
      {"strings null_mask(write) on a shared column", [](in_t& in) { (void)in.s_shared.null_mask(access::write); }},
      {"strings compare(a, op, b)", [](in_t& in) { (void)devcol::compare(in.s, devcol::cmp::less, in.s_shared); }},
      {"strings compare(col, op, value)", [](in_t& in) { (void)devcol::compare(in.s, devcol::cmp::equal, "ccc"); }},
      {"strings sort", [](in_t& in) { (void)devcol::sort(in.s); }},
      {"strings argsort", [](in_t& in) { (void)devcol::argsort(in.s); }},
      {"strings length", [](in_t& in) { (void)devcol::length(in.s); }},
      {"strings hash", [](in_t& in) { (void)devcol::hash(in.s); }},
      {"strings fill_null", [](in_t& in) { (void)devcol::fill_null(in.s, "none"); }},
      {"strings to_host", [](in_t& in) { (void)devcol::to_host(in.s); }},
      // every kind, through any_column
      {"gather (every kind)", each([](in_t& in, auto const& c) { (void)devcol::gather(c, in.idx); })},
      {"gather nullify (every kind)",
       each([](in_t& in, auto const& c) { (void)devcol::gather(c, in.idx, {}, devcol::out_of_bounds::nullify); })},
      {"filter (every kind)", each([](in_t& in, auto const& c) { (void)devcol::filter(c, in.keep); })},
      {"concatenate (every kind)",
       each([](in_t&, auto const& c) { (void)devcol::concatenate(std::vector<devcol::any_column<>>{c, c}); })},
      {"deep_copy (every kind)", each([](in_t&, auto const& c) { (void)devcol::deep_copy(c, {}); })},
      {"slice (every kind)", each([](in_t&, auto const& c) { (void)devcol::slice(c, 7, 41, {}); })},
      {"to_host_values (every kind)", each([](in_t&, auto const& c) { (void)devcol::to_host_values(c); })},
      {"to_arrow then any_from_arrow (every kind)", each([](in_t&, auto const& c) {
         round_trip([&](ArrowSchema* sc, ArrowDeviceArray* a) { devcol::to_arrow(c, sc, a); },
                    [](ArrowSchema* sc, ArrowDeviceArray* a) { (void)devcol::any_from_arrow(sc, a); });
       })},
      {"to_arrow then from_arrow<strings_column>", [](in_t& in) {
         round_trip([&](ArrowSchema* sc, ArrowDeviceArray* a) { devcol::to_arrow(in.s, sc, a); },
                    [](ArrowSchema* sc, ArrowDeviceArray* a) { (void)devcol::from_arrow<devcol::strings_column>(sc, a); });
       }},
  };
  return ops;
}

TEST_CASE("allocation-failure sweep over strings, lists, structs, dictionaries, decimals, fixed-size binary, unions, "
          "views, fixed-size lists, maps, list views and run-end encoded",
          "[reliability][allocation_failure]") {
  auto const [cases, failures] = sweep(kind_operations());
  std::cout << "allocation-failure sweep (variable-width and nested kinds): " << cases << " (operation, k) cases over "
            << kind_operations().size() << " operations, " << failures << " of them failed by schedule; all checked\n";
  CHECK(kind_operations().size() >= 24);
  CHECK(failures >= 100);
}

TEST_CASE("a failing copy-assignment of any_column leaves the target as it was", "[reliability][allocation_failure][any]") {
  auto schedule = std::make_shared<failure_schedule>();
  auto handle = mr::make_resource_handle<failing_device>("failing", std::in_place, schedule);
  auto const& tracker = *handle.target<failing_device>();
  mr::scoped_default use_it{handle};
  devcol::any_column<> source{devcol::sequence<std::int64_t>(40, -5, 2)};
  auto& exposed = devcol::get<devcol::column<std::int64_t>>(source);
  (void)exposed.expose();  // a copy of it is deep (rule 12), so the assignment allocates
  std::vector<std::optional<std::string>> const rows{"a", std::nullopt, "bcd"};
  std::size_t failures = 0;
  for (std::size_t k = 1;; ++k) {
    REQUIRE(k < 100);
    devcol::any_column<> target{devcol::make_strings_column(rows)};
    void const* const chars = devcol::get<devcol::strings_column>(target).chars(access::read);
    std::size_t const live = tracker.outstanding_count();
    schedule->arm(k);
    try {
      target = std::as_const(source);
    } catch (devcol::out_of_memory const&) {
      schedule->disarm();
      ++failures;
      CHECK(tracker.outstanding_count() == live);
      REQUIRE(devcol::holds_alternative<devcol::strings_column>(target));
      CHECK(devcol::get<devcol::strings_column>(target).chars(access::read) == chars);
      CHECK(devcol::to_host(devcol::get<devcol::strings_column>(target)) == rows);
      continue;
    }
    schedule->disarm();
    CHECK(schedule->failures == 0);
    REQUIRE(devcol::holds_alternative<devcol::column<std::int64_t>>(target));
    auto const& copied = devcol::get<devcol::column<std::int64_t>>(target);
    CHECK(devcol::to_host(copied) == devcol::to_host(exposed));
    CHECK(copied.data(access::read) != exposed.data(access::read));
    break;
  }
  CHECK(failures >= 1);
}

}  // namespace devcol_test::reliability
