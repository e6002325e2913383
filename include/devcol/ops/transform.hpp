/**
 * @file transform.hpp
 * @brief `devcol::transform`: a user functor over one or two columns, nulls propagated.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/host/mask_words.hpp>
#include <devcol/ops/detail/host/transform.hpp>
#include <devcol/ops/detail/validity.hpp>

#include <type_traits>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief `f(row)` for every row, in one pass, in order on `stream`: a new column from `col`'s
 * resource, null where `col` is null (its mask bits copied, no recount, no synchronisation).
 *
 * `f` runs on every row, null rows included (their values are unspecified), so it must accept any
 * value, and it must not throw: it runs as a kernel, on CUDA in device code, on the host over the
 * OpenMP threads, where an exception leaving a thread ends the program. On CUDA it must be callable
 * on the device: a functor with a `DEVCOL_HOST_DEVICE` call operator, or a lambda marked
 * `DEVCOL_HOST_DEVICE` (nvcc's `--extended-lambda`).
 * @tparam T the element type
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam F the functor type
 * @param col the input column
 * @param f the functor, device-callable on CUDA
 * @param stream the stream the work is ordered on
 */
template <fixed_width T, class Policy, class F>
  requires fixed_width<std::invoke_result_t<F, T>>
[[nodiscard]] auto transform(column<T, Policy> const& col, F f, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  using R = std::invoke_result_t<F, T>;
  auto out = col.template make_like<R>(col.size(), stream);
  T const* in = col.data(access::read);
  R* rows = out.data(access::write, stream);
  detail::executor exec(stream);
  exec.reads(in, col.size() * sizeof(T));
  exec.writes(rows, col.size() * sizeof(R));
#if DEVCOL_HOST_FAST_PATHS
  detail::host::transform(in, col.size(), rows, f);
#else
  detail::transform_n(exec, in, col.size(), rows, f);
#endif
  detail::copy_validity(col, out, stream);
  return out;
}

/**
 * @brief `f(a_row, b_row)` for every row pair, in one pass: a new column from `a`'s resource, null
 * where either input is null. With nulls in both inputs the result's mask is their AND and its
 * null count is counted (a pass over the mask, which synchronises `stream`).
 * @tparam A the element type of `a`
 * @tparam B the element type of `b`
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam F the functor type
 * @param a the left operand
 * @param b the right operand, of `a`'s size
 * @param f the functor, device-callable on CUDA, which must not throw (see transform(col, f))
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both sizes if they differ
 */
template <fixed_width A, fixed_width B, class Policy, class F>
  requires fixed_width<std::invoke_result_t<F, A, B>>
[[nodiscard]] auto transform(column<A, Policy> const& a, column<B, Policy> const& b, F f, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  using R = std::invoke_result_t<F, A, B>;
  detail::expect_same_size(a.size(), b.size(), "transform");
  auto out = a.template make_like<R>(a.size(), stream);
  A const* x = a.data(access::read);
  B const* y = b.data(access::read);
  R* rows = out.data(access::write, stream);
  detail::executor exec(stream);
  exec.reads(x, a.size() * sizeof(A));
  exec.reads(y, b.size() * sizeof(B));
  exec.writes(rows, a.size() * sizeof(R));
#if DEVCOL_HOST_FAST_PATHS
  detail::host::transform(x, y, a.size(), rows, f);
  if (a.has_nulls() && b.has_nulls()) {  // the AND of the masks, a word at a time, counted in the same pass
    std::size_t const bytes = bitmask_allocation_size(out.size());
    buffer<Policy> mask(bytes, stream, mr::default_alignment, out.resource());
    auto* words = static_cast<bitmask_word*>(mask.data(access::write, stream));
    std::size_t const used = (out.size() + bits_per_word - 1) / bits_per_word;
    for (std::size_t w = used; w < bytes / sizeof(bitmask_word); ++w) { words[w] = 0; }
    std::size_t const chunks = detail::host::chunk_count(out.size());
    std::vector<std::size_t> nulls(chunks, 0);
    column_view<A> const va = a.view();
    column_view<B> const vb = b.view();
    detail::host::and_kernel kernel{va.null_mask(), va.mask_offset(), vb.null_mask(), vb.mask_offset(), words, nulls.data()};
    detail::host::run_chunks(kernel, out.size(), chunks);
    std::size_t total = 0;
    for (auto const n : nulls) { total += n; }
    out.replace_null_mask(std::move(mask), total);
  } else
#else
  detail::transform_n(exec, x, y, a.size(), rows, f);
  if (a.has_nulls() && b.has_nulls()) {
    detail::set_validity(out, detail::both_valid{a.view(), b.view()}, stream);
  } else
#endif
 if (a.has_nulls()) {
    detail::copy_validity(a, out, stream);
  } else if (b.has_nulls()) {
    detail::copy_validity(b, out, stream);
  }
  return out;
}

DEVCOL_NAMESPACE_END
