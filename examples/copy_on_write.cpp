// Copy-on-write and exposure, told by pointers: copies and slices share memory, a write gives the
// writer its own copy first, and a pointer handed out of devcol makes later copies deep. Each line
// prints where a column's rows are (a read-only pointer: it never copies, never exposes) and why;
// the program fails if a line is not as told.
#include <devcol/devcol.hpp>

#include <cstdint>
#include <iomanip>
#include <iostream>

int main() {
  using column = devcol::column<std::int32_t>;
  devcol::stream s;
  bool as_told = true;
  auto where = [](column const& col) { return col.data(devcol::access::read); };
  auto line = [&](char const* name, column const& col, bool holds, char const* why) {
    as_told = as_told && holds;
    std::cout << "  " << std::left << std::setw(16) << name << static_cast<void const*>(where(col)) << "  " << why
              << (holds ? "" : "  <-- NOT AS TOLD") << '\n';
  };

  std::cout << "Copies and slices share memory (no allocation, no copy):\n";
  column s1 = devcol::sequence<std::int32_t>(8, 0, 1, s);
  column s2 = s1;
  column s3 = s2;
  column middle = s1.slice(2, 6);
  std::int32_t const* const original = where(s1);
  line("s1", s1, true, "s1 = 0, 1, ..., 7");
  line("s2 = s1", s2, where(s2) == original, "same memory as s1");
  line("s3 = s2", s3, where(s3) == original, "same memory again");
  line("s1.slice(2, 6)", middle, where(middle) == original + 2, "rows 2-5 of that memory, 8 bytes in");

  std::cout << "A write first gives the writer its own copy, if anyone else shares its rows:\n";
  devcol::fill(s2, 42, s);
  line("fill(s2, 42)", s2, where(s2) != original, "s2 was shared: it copied, then wrote");
  line("s1", s1, where(s1) == original, "unchanged, still sharing with s3");
  devcol::fill(s1, 7, s);
  std::int32_t const* const own = where(s1);
  line("fill(s1, 7)", s1, own != original, "s3 and the slice still shared: s1 copied too");
  line("s3", s3, where(s3) == original, "keeps the original memory and values");
  devcol::fill(s1, 8, s);
  line("fill(s1, 8)", s1, where(s1) == own, "nobody shares s1's copy: written in place");

  std::cout << "Exposure: a pointer handed to code outside devcol makes that memory the outside's too:\n";
  std::int32_t* outside = s3.expose(s);  // e.g. given to another library, which may keep writing
  line("s3.expose()", s3, outside != original && s3.is_exposed(), "shared with the slice: s3 copied, then exposed for good");
  column s4 = s3;
  line("s4 = s3", s4, where(s4) != outside, "a copy of exposed memory is deep: outside writes must not show");
  line("s1", s1, !s1.is_exposed(), "read-only pointers never expose");

  s.synchronize();
  std::cout << "s1 = " << s1 << "\ns2 = " << s2 << "\ns3 = " << s3 << "\nslice = " << middle << '\n';
  return as_told && devcol::to_host(s3)[7] == 7 && devcol::to_host(middle)[0] == 2 ? 0 : 1;
}
