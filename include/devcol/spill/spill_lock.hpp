/**
 * @file spill_lock.hpp
 * @brief `devcol::spill_lock`: keeps the spillable buffers accessed under it on the device.
 */
#pragma once

#include <devcol/buffer/detail/spill_state.hpp>
#include <devcol/core/config.hpp>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief While it lives, every spillable buffer whose pointer this thread takes (data(), view(),
 * expose(), unspilling first if needed) stays on the device: neither the manager nor an explicit
 * spill() moves it, until the outermost spill_lock of this thread ends (cuDF's
 * `acquire_spill_lock`, DESIGN.md rule 16). Nested locks compose into the outermost one.
 *
 * Each buffer it holds keeps a reference to its allocation until the lock ends. Costs nothing on
 * construction; an access under it takes the buffer's mutex once per lock. Create and destroy it on
 * one thread (it lives on the stack); it is neither copyable nor movable.
 */
class [[nodiscard]] spill_lock {
 public:
  spill_lock() noexcept { detail::spill_lock_frame::current().enter(); }
  spill_lock(spill_lock const&) = delete;
  spill_lock& operator=(spill_lock const&) = delete;
  ~spill_lock() { detail::spill_lock_frame::current().leave(); }
};

DEVCOL_NAMESPACE_END
