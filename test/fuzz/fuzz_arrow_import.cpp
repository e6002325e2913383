// libFuzzer target for devcol's Arrow importer (from_arrow<T>, table_from_arrow, streams), built
// with ASan + UBSan. Each input becomes ArrowSchema / ArrowDeviceArray trees on the CPU
// (arrow_tree.hpp) whose buffers are allocated exactly as large as the stated offsets and lengths
// require, and is imported. What must hold: no crash, no leak, no read outside those buffers
// (also when the imported columns are read back), a devcol::error for anything refused, and each
// struct handed over released exactly once, on every path. DEVCOL_FUZZ_DEBUG=1 in the environment
// prints each input's root and why it was refused (for reading a corpus or a crash).
#include "arrow_tree.hpp"
#include "fixed_width_kinds.hpp"

#include <devcol/devcol.hpp>
#include <devcol/interop/arrow_stream.hpp>
#include <devcol/interop/from_arrow.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace {

using namespace devcol_fuzz;

[[noreturn]] void fail(char const* what) {
  std::fprintf(stderr, "devcol fuzz: %s\n", what);
  std::abort();
}

enum class mode : std::uint8_t { column_of_format, column_of_type, table, stream, count };

/// Reads every row of a column back (each value and validity bit: out-of-bounds reads show), and a
/// slice and a deep copy of it.
/// Every row of a column on the host: to_host for the kinds that have it, else host values (which
/// read nested kinds to the leaves).
template <class Column>
std::size_t host_rows(Column const& col) {
  if constexpr (requires { devcol::to_host(col); }) {
    return devcol::to_host(col).size();
  } else {
    return devcol::to_host_values(col).size();
  }
}

template <class Column>
void read_back(Column const& col) {
  if (host_rows(col) != col.size()) { fail("to_host returned another row count"); }
  // A stated null count is trusted (Arrow's contract; only -1 is counted), so it need not match the
  // bitmap of a lying producer: it must only be possible.
  if (col.null_count() > col.size() || (col.null_count() != 0 && !col.nullable())) {
    fail("an imported column's null count is impossible");
  }
  if (col.size() > 2) {
    auto const part = col.slice(1, col.size() - 1).deep_copy();
    (void)host_rows(part);
  }
}

void read_back(devcol::table const& t) {
  for (std::size_t i = 0; i < t.num_columns(); ++i) {
    devcol::visit([](auto const& c) { read_back(c); }, t[i]);
  }
}

/// from_arrow<T> with T the index-th column type of a table (any type an importer reads: the list
/// grows as devcol's column types do).
template <std::size_t I = 0>
void import_as(std::size_t index, ArrowSchema* s, ArrowDeviceArray* a) {
  if constexpr (I < fixed_width_kinds) {
    if (index != I) { return import_as<I + 1>(index, s, a); }
    using T = typename devcol::any_column_kind_t<I>::value_type;
    read_back(devcol::from_arrow<T>(s, a));
  }
}

/// The column type whose Arrow format is `format`, as an index into any_column, if any.
template <std::size_t I = 0>
std::size_t type_of_format(std::string_view format, std::size_t otherwise) {
  if constexpr (I < fixed_width_kinds) {
    using T = typename devcol::any_column_kind_t<I>::value_type;
    if (devcol::detail::format_matches<T>(format)) { return I; }
    return type_of_format<I + 1>(format, otherwise);
  } else {
    return otherwise;
  }
}

/// One tree to hand over, and whether the importer was given it (then it must release it).
struct root {
  ArrowSchema schema{};
  ArrowDeviceArray array{};
  release_count* schema_count = nullptr;
  release_count* array_count = nullptr;
};

void set_device(ArrowDeviceArray& a, std::uint8_t code, byte_reader& in, void* event) {
  a.device_type = ARROW_DEVICE_CPU;
  a.device_id = -1;
  switch (code % 8) {
    case 1: a.device_id = 0; break;
    case 2: a.sync_event = event; break;  // ignored on the CPU
    case 3: a.device_type = ARROW_DEVICE_CUDA; a.device_id = 0; break;
    case 4: a.device_id = 5; break;
    case 5:
      a.device_type = static_cast<ArrowDeviceType>(static_cast<std::int8_t>(in.u8()));
      a.device_id = static_cast<std::int8_t>(in.u8());
      break;
    default: break;
  }
}

/// The stream the harness produces: the roots' schema first, then their arrays, then the end.
struct producer {
  std::vector<std::unique_ptr<root>> roots;
  std::size_t next = 0;
  bool fail_schema = false;
  std::size_t fail_at = SIZE_MAX;  // get_next fails on this call
  ArrowDeviceType device = ARROW_DEVICE_CPU;
  release_count* count = nullptr;

  static producer& of(ArrowDeviceArrayStream* s) { return *static_cast<producer*>(s->private_data); }
  static int get_schema(ArrowDeviceArrayStream* s, ArrowSchema* out) {
    producer& p = of(s);
    if (p.fail_schema) { return 5; }  // EIO
    *out = p.roots.front()->schema;  // moved out
    p.roots.front()->schema.release = nullptr;
    return 0;
  }
  static int get_next(ArrowDeviceArrayStream* s, ArrowDeviceArray* out) {
    producer& p = of(s);
    if (p.next == p.fail_at) { return 22; }  // EINVAL
    if (p.next == p.roots.size()) {
      *out = ArrowDeviceArray{};
      out->device_type = p.device;
      ++p.next;
      return 0;
    }
    if (p.next > p.roots.size()) { fail("get_next called after the end of the stream"); }
    root& r = *p.roots[p.next++];
    *out = r.array;
    r.array.array.release = nullptr;
    return 0;
  }
  static char const* last_error(ArrowDeviceArrayStream*) { return "the fuzzer said so"; }
  static void release(ArrowDeviceArrayStream* s) {
    ++of(s).count->calls;
    s->release = nullptr;  // the roots are released by the harness (those not handed over)
  }
};

void release_left(root& r) {
  if (r.schema.release != nullptr) { r.schema.release(&r.schema); }
  if (r.array.array.release != nullptr) { r.array.array.release(&r.array.array); }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  byte_reader in(data, size);
  auto const m = static_cast<mode>(in.u8() % static_cast<std::uint8_t>(mode::count));
  std::uint8_t const type_byte = in.u8();
  std::uint8_t const device_code = in.u8();
  std::uint8_t const tweaks = in.u8();
  int event_dummy = 0;
  tree_reader reader(in);
  std::size_t const batches = m == mode::stream ? 1 + in.u8() % 3 : 1;

  std::vector<std::unique_ptr<root>> roots;
  // Every batch of a stream is built from the same bytes: an array carries no types, so a batch
  // laid out for another schema would be a producer's lie no importer can see, not a bug.
  std::size_t const first_node = in.position();
  for (std::size_t b = 0; b < batches; ++b) {
    auto r = std::make_unique<root>();
    in.seek(first_node);
    reader.node(r->schema, r->array.array);
    set_device(r->array, device_code, in, &event_dummy);
    if ((tweaks & 1) != 0) { r->array.reserved[0] = 42; }
    r->schema_count = r->schema.release != nullptr ? static_cast<schema_private*>(r->schema.private_data)->count : nullptr;
    r->array_count = r->array.array.release != nullptr ? static_cast<array_private*>(r->array.array.private_data)->count : nullptr;
    roots.push_back(std::move(r));
  }

  static bool const debug = std::getenv("DEVCOL_FUZZ_DEBUG") != nullptr;
  if (debug) {
    ArrowArray const& a = roots.front()->array.array;
    std::fprintf(stderr, "input: mode %d, format '%s', length %lld, offset %lld, null_count %lld, n_buffers %lld\n",
                 static_cast<int>(m), roots.front()->schema.format, static_cast<long long>(a.length),
                 static_cast<long long>(a.offset), static_cast<long long>(a.null_count), static_cast<long long>(a.n_buffers));
    for (std::int64_t i = 0; a.buffers != nullptr && i < a.n_buffers; ++i) { std::fprintf(stderr, "  buffer %lld at %p\n", static_cast<long long>(i), a.buffers[i]); }
  }
  bool schema_given = false, array_given = false;
  release_count stream_count;
  try {
    root& r = *roots.front();
    ArrowSchema* s = (tweaks & 2) != 0 ? nullptr : &r.schema;
    ArrowDeviceArray* a = (tweaks & 4) != 0 ? nullptr : &r.array;
    switch (m) {
      case mode::column_of_format:
      case mode::column_of_type: {
        std::size_t const fallback = type_byte % fixed_width_kinds;
        std::size_t const t = m == mode::column_of_type ? fallback
                                                        : type_of_format(r.schema.format != nullptr ? r.schema.format : "", fallback);
        schema_given = s != nullptr;
        array_given = a != nullptr;
        import_as(t, s, a);
        break;
      }
      case mode::table:
        schema_given = s != nullptr;
        array_given = a != nullptr;
        read_back(devcol::table_from_arrow(s, a));
        break;
      case mode::stream: {
        auto p = std::make_unique<producer>();
        p->roots = std::move(roots);
        p->fail_schema = (tweaks & 8) != 0;
        p->fail_at = (tweaks & 16) != 0 ? type_byte % 4 : SIZE_MAX;
        p->device = p->roots.front()->array.device_type;
        p->count = &stream_count;
        ArrowDeviceArrayStream stream{};
        stream.device_type = p->device;
        stream.get_schema = &producer::get_schema;
        stream.get_next = &producer::get_next;
        stream.get_last_error = &producer::last_error;
        stream.release = &producer::release;
        stream.private_data = p.get();
        try {
          for (auto const& t : devcol::tables_from_arrow(&stream)) { read_back(t); }
        } catch (devcol::error const&) {
          roots = std::move(p->roots);
          if (stream_count.calls != 1) { fail("a stream was not released exactly once after a failed import"); }
          throw;
        }
        roots = std::move(p->roots);
        if (stream_count.calls != 1) { fail("a stream was not released exactly once"); }
        // Every array the stream handed over, and the schema, went back exactly once.
        for (std::size_t i = 0; i < roots.size() && i < p->next; ++i) {
          if (roots[i]->array_count != nullptr && roots[i]->array_count->calls != 1) { fail("a streamed array was not released exactly once"); }
        }
        break;
      }
      case mode::count: break;
    }
  } catch (devcol::error const& e) {
    // Refused, as it should be when the input is bad: what was handed over must be released.
    if (debug) { std::fprintf(stderr, "refused: %s\n", e.what()); }
  } catch (std::exception const& e) {
    std::fprintf(stderr, "devcol fuzz: a non-devcol exception: %s\n", e.what());
    std::abort();
  }
  if (m != mode::stream) {
    root& r = *roots.front();
    if (schema_given && r.schema_count != nullptr && r.schema_count->calls != 1) { fail("the schema was not released exactly once"); }
    if (array_given && r.array_count != nullptr && r.array_count->calls != 1) { fail("the array was not released exactly once"); }
    if (schema_given && r.schema.release != nullptr) { fail("a given schema is still live"); }
    if (array_given && r.array.array.release != nullptr) { fail("a given array is still live"); }
  }
  for (auto& r : roots) { release_left(*r); }
  for (auto const& c : reader.counters_) {
    if (c->calls > 1) { fail("a struct was released twice"); }
  }
  return 0;
}
