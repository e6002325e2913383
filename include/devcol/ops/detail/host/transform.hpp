/**
 * @file transform.hpp
 * @brief Host fast path of the element-wise ops (transform, compare, cast, binary arithmetic):
 * a plain loop over blocks of 64 rows that the compiler vectorises with the functor inlined,
 * in each instruction-set build (see dispatch.hpp), its stores streamed where the output is larger
 * than the cache (see streaming_stores.hpp). Thrust's OpenMP transform goes through
 * its iterator machinery and does not vectorise the same functor.
 */
#pragma once

#include <devcol/core/config.hpp>
#include <devcol/ops/detail/host/dispatch.hpp>
#include <devcol/ops/detail/host/streaming_stores.hpp>

#include <cstddef>

#if DEVCOL_HOST_FAST_PATHS
DEVCOL_NAMESPACE_BEGIN
namespace detail::host {

template <class T, class R, class F>
struct unary_kernel {
  T const* __restrict in;
  R* __restrict out;
  F f;
  stream_mode stream;
  [[gnu::always_inline]] void operator()(std::size_t begin, std::size_t end, std::size_t) const {
    write_rows(out, begin, end, stream, [this](std::size_t i) __attribute__((always_inline)) { return f(in[i]); });
  }
};

template <class A, class B, class R, class F>
struct binary_kernel {
  A const* __restrict x;
  B const* __restrict y;
  R* __restrict out;
  F f;
  stream_mode stream;
  [[gnu::always_inline]] void operator()(std::size_t begin, std::size_t end, std::size_t) const {
    write_rows(out, begin, end, stream, [this](std::size_t i) __attribute__((always_inline)) { return f(x[i], y[i]); });
  }
};

/// `out[i] = f(in[i])` for i in [0, rows). `out` must not overlap `in`.
template <class T, class R, class F>
void transform(T const* in, std::size_t rows, R* out, F const& f) {
  unary_kernel<T, R, F> kernel{in, out, f, streams(out, rows * sizeof(R))};
  run_chunks(kernel, rows, chunk_count(rows));
}

/// `out[i] = f(x[i], y[i])` for i in [0, rows). `out` must not overlap `x` or `y`.
template <class A, class B, class R, class F>
void transform(A const* x, B const* y, std::size_t rows, R* out, F const& f) {
  binary_kernel<A, B, R, F> kernel{x, y, out, f, streams(out, rows * sizeof(R))};
  run_chunks(kernel, rows, chunk_count(rows));
}

}  // namespace detail::host
DEVCOL_NAMESPACE_END
#endif
