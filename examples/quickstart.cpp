// devcol quick start: columns with copy-on-write, over a memory resource composed at compile time.
#include <devcol/devcol.hpp>

#include <cstdint>
#include <iostream>

int main() {
  namespace mr = devcol::mr;
  // mr::device_memory: cuda_async on CUDA, aligned host memory on the host backend.
  using resource = mr::statistics<mr::pool<mr::device_memory>>;  // chosen at compile time
  mr::scoped_default use_it{mr::make_resource_handle<resource>("stats+pool")};
  devcol::stream s;

  auto a = devcol::make_column<std::int64_t>({1, 2, std::nullopt, 4}, s);  // a null row
  auto b = a;                 // shallow: shares a's memory, O(1)
  auto c = a.slice(1, 3);     // shallow too: rows 1 and 2, one null
  std::int64_t const ten = 10;
  devcol::copy_bytes(b.data(devcol::access::write, s), &ten, sizeof ten, s);  // b copies first
  s.synchronize();

  std::cout << "a = " << a << "\nb = " << b << "\nc = " << c << " (" << c.null_count() << " null)\n";
  std::cout << "memory from '" << a.resource_name() << "', b shares a: " << std::boolalpha
            << b.data_buffer().shares_memory_with(a.data_buffer()) << '\n';
  return devcol::to_host(a)[0] == 1 && devcol::to_host(b)[0] == 10 ? 0 : 1;
}
