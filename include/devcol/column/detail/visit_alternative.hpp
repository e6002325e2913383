/**
 * @file detail/visit_alternative.hpp
 * @brief A visit of a small `std::variant` (a dictionary's index columns, a run-end encoded
 * column's run ends) as one switch over its index.
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>
#include <variant>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/**
 * `f(alternative)` for the alternative `v` holds, as `std::visit(f, v)`: one function per visitor,
 * a switch over `v.index()`. libstdc++'s `std::visit` compiles a table of dispatch helpers per
 * visitor, several functions per alternative; a file that goes through every column kind's
 * members (a table through Arrow) compiles hundreds of them for the index and run-end variants.
 * @tparam F a callable of every alternative, returning one type for all
 * @tparam V a `std::variant` of at most eight alternatives, or a reference to one
 * @throws devcol::logic_error when `v` is valueless (an exception interrupted an assignment), and
 * what `f` throws
 */
template <class F, class V>
decltype(auto) visit_alternative(F&& f, V&& v) {
  constexpr std::size_t n = std::variant_size_v<std::remove_cvref_t<V>>;
  static_assert(n >= 1 && n <= 8, "visit_alternative: a variant of one to eight alternatives");
  switch (v.index()) {
    case 0: return std::forward<F>(f)(*std::get_if<0>(&v));
    case 1: if constexpr (n > 1) { return std::forward<F>(f)(*std::get_if<1>(&v)); } else { break; }
    case 2: if constexpr (n > 2) { return std::forward<F>(f)(*std::get_if<2>(&v)); } else { break; }
    case 3: if constexpr (n > 3) { return std::forward<F>(f)(*std::get_if<3>(&v)); } else { break; }
    case 4: if constexpr (n > 4) { return std::forward<F>(f)(*std::get_if<4>(&v)); } else { break; }
    case 5: if constexpr (n > 5) { return std::forward<F>(f)(*std::get_if<5>(&v)); } else { break; }
    case 6: if constexpr (n > 6) { return std::forward<F>(f)(*std::get_if<6>(&v)); } else { break; }
    case 7: if constexpr (n > 7) { return std::forward<F>(f)(*std::get_if<7>(&v)); } else { break; }
    default: break;
  }
  DEVCOL_FAIL("a column variant is valueless: an exception interrupted its assignment");
}

}  // namespace detail
DEVCOL_NAMESPACE_END
