/**
 * @file policy.hpp
 * @brief The policies a buffer is composed from, and `devcol::default_policy`.
 *
 * A policy is a struct of member types; derive from `default_policy` and override what differs:
 * @code
 * struct my_policy : devcol::default_policy {
 *   using resource = devcol::mr::statistics<devcol::mr::pool<devcol::mr::cuda_async>>;
 *   using sharing  = devcol::shared_views;
 * };
 * @endcode
 * A choice not made costs nothing: no member, no branch, no atomic.
 */
#pragma once

#include <devcol/buffer/options.hpp>
#include <devcol/core/config.hpp>
#include <devcol/memory/resource.hpp>
#include <devcol/memory/resource_handle.hpp>

#include <atomic>
#include <concepts>
#include <cstddef>

DEVCOL_NAMESPACE_BEGIN

// --- sharing -----------------------------------------------------------------------------------------

/// Sharing: copies and slices share memory until someone writes; the writer copies first (the default).
struct copy_on_write {
  static constexpr bool fixed = true;
  static constexpr bool value = true;
};
/// Sharing: copies and slices are views; writes through any are seen by all (cuDF's legacy mode, NumPy views).
struct shared_views {
  static constexpr bool fixed = true;
  static constexpr bool value = false;
};
/// Sharing: decided per buffer at its creation from `devcol::options::copy_on_write()` (env `DEVCOL_COPY_ON_WRITE`).
struct runtime_sharing {
  static constexpr bool fixed = false;
};

// --- exposure ----------------------------------------------------------------------------------------

/// Exposure: handing out a raw mutable pointer marks the memory exposed, for good (the default).
struct tracked_exposure {
  static constexpr bool tracked = true;
};
/// Exposure: not tracked; whoever takes a raw pointer keeps copy-on-write safe by hand.
struct untracked_exposure {
  static constexpr bool tracked = false;
};

// --- reference counting -------------------------------------------------------------------------------

/// Reference counting: atomic, so handles may be copied and dropped from many threads (the default).
struct atomic_refcount {
  static constexpr bool atomic = true;
};
/// Reference counting: plain integers, for buffers that never leave one thread.
struct single_thread_refcount {
  static constexpr bool atomic = false;
};

// --- spilling ----------------------------------------------------------------------------------------

/// Spilling: never moved off the device (the default).
struct no_spill {
  static constexpr bool enabled = false;
};
/**
 * Spilling: the spill manager (`devcol/spill/`) may move the bytes to host memory and back, in
 * place, while no pointer to them is held under a `devcol::spill_lock` and they were never
 * exposed (DESIGN.md rules 14-19). Requires `atomic_refcount`. Every pointer access unspills first.
 */
struct spillable {
  static constexpr bool enabled = true;
};

/**
 * @brief The policy used when none is named: memory from the per-thread default resource at the
 * time of creation, copy-on-write, tracked exposure, atomic reference counts, no spilling.
 */
struct default_policy {
  /// Where memory comes from: `mr::resource_handle` means this thread's default at creation;
  /// any other resource type means its process-wide `mr::shared_instance` for the current device.
  using resource = mr::resource_handle;
  /// copy_on_write | shared_views | runtime_sharing
  using sharing = copy_on_write;
  /// tracked_exposure | untracked_exposure
  using exposure = tracked_exposure;
  /// atomic_refcount | single_thread_refcount
  using refcount = atomic_refcount;
  /// no_spill | spillable
  using spill = no_spill;
};

/// @brief Satisfied by a policy struct with the five members, each a known choice.
/// @tparam P the policy tested: `resource` a memory resource, `sharing`, `exposure` and `refcount`
/// one of the tags above, `spill` a type with a static `enabled`
template <class P>
concept buffer_policy =
    mr::memory_resource<typename P::resource> &&
    (std::same_as<typename P::sharing, copy_on_write> || std::same_as<typename P::sharing, shared_views> ||
     std::same_as<typename P::sharing, runtime_sharing>) &&
    (std::same_as<typename P::exposure, tracked_exposure> || std::same_as<typename P::exposure, untracked_exposure>) &&
    (std::same_as<typename P::refcount, atomic_refcount> || std::same_as<typename P::refcount, single_thread_refcount>) &&
    requires { P::spill::enabled; };

DEVCOL_NAMESPACE_END
