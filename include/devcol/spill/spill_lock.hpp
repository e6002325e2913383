/**
 * @file spill_lock.hpp
 * @brief `devcol::spill_lock`: keeps the spillable buffers accessed under it on the device.
 */
#pragma once

#include <devcol/buffer/spill_state.hpp>
#include <devcol/core/config.hpp>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief While it lives, every spillable buffer whose pointer this thread takes (data(), view(),
 * expose(), unspilling first if needed) stays on the device: neither the manager nor an explicit
 * spill() moves it, until the outermost spill_lock of this thread ends (cuDF's
 * `acquire_spill_lock`, DESIGN.md rule 16). Nested locks compose into the outermost one. A pointer
 * taken outside every lock instead keeps its buffer on the device for good (rule 20): hold a lock
 * around pointer work so that the buffer can spill again afterwards. Every devcol operation holds
 * one for its own duration.
 *
 * Each buffer it holds keeps a reference to its allocation until the lock ends. Costs nothing on
 * construction; the first access to a buffer under it takes the buffer's mutex once. Create and
 * destroy it on one thread (it lives on the stack); it is neither copyable nor movable.
 */
class [[nodiscard]] spill_lock : detail::scoped_spill_lock<true> {
 public:
  spill_lock() noexcept = default;
};

DEVCOL_NAMESPACE_END
