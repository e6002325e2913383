/**
 * @file adaptor_base.hpp
 * @brief What every resource adaptor shares: a handle onto state that its copies share, the
 * upstream owned by that state, property forwarding, identity.
 */
#pragma once

#include <devcol/core/config.hpp>
#include <devcol/memory/resource.hpp>

#include <cstddef>
#include <memory>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace mr::detail {

/**
 * @brief The part of an adaptor that its copies share: the upstream, owned by value (never a
 * reference that could dangle, rmm #2207), and, in the derived class, the adaptor's own state.
 *
 * Built with a default-constructed upstream or with `std::in_place` and the upstream's constructor
 * arguments (an upstream moved in is one such argument). Neither copyable nor movable: it lives in
 * one heap block that the adaptor's copies point to.
 * @tparam Upstream the resource the adaptor forwards to
 */
template <memory_resource Upstream>
class adaptor_state {
 public:
  /// The resource this adaptor draws memory from.
  using upstream_type = Upstream;

  /// @brief Default-constructs the upstream.
  adaptor_state() = default;
  /// @brief Constructs the upstream in place from `args` (for upstreams that cannot move).
  template <class... Args>
  explicit adaptor_state(std::in_place_t, Args&&... args) : upstream_(std::forward<Args>(args)...) {}
  adaptor_state(adaptor_state const&) = delete;
  adaptor_state& operator=(adaptor_state const&) = delete;

  /// @brief The upstream resource.
  [[nodiscard]] Upstream& upstream() noexcept { return upstream_; }
  /// @brief The upstream resource.
  [[nodiscard]] Upstream const& upstream() const noexcept { return upstream_; }

 protected:
  ~adaptor_state() = default;

 private:
  Upstream upstream_{};
};

/**
 * @brief An adaptor as a shared handle onto its `State`, as RMM 26's resources and CCCL's
 * `cuda::mr::shared_resource` are: what CCCL 3.1 and later require of every resource that a
 * `cuda::mr::resource_ref` (RMM's `device_async_resource_ref`) or `any_resource` refers to
 * (`cuda::std::copyable`: its type-erased interface can copy the object), while an adaptor's
 * state (a pool's blocks, a statistics adaptor's counters, a limit's count) must stay one.
 *
 * - Copying shares the state: one atomic increment, no allocation; a copy allocates from, frees
 *   into and counts in the same state, and either may free the other's memory. Moving copies as
 *   well, so a handle is never empty and a call never checks for one.
 * - The state, upstream included, is destroyed with the last handle, whichever it is and on
 *   whichever thread; memory still allocated from it then is the caller's to have freed first.
 * - Two handles compare equal when they share the state (a handle equals itself and its copies).
 * - Each call costs one pointer indirection over the state's own call. Handles may be copied and
 *   used from many threads at once (the reference count is atomic; each state is as thread-safe
 *   as its adaptor says); one handle object must not be assigned while another thread uses it.
 *
 * Construction allocates the state once (`std::bad_alloc`).
 *
 * The copy constructor and assignment are written out here and in every adaptor, not defaulted:
 * nvcc gives a defaulted special member the execution space of its callers, and CCCL's type-erased
 * resources (what `rmm::mr::set_current_device_resource` makes of an adaptor) copy it from a
 * `__host__ __device__` constructor, so a defaulted copy became `__host__ __device__` and nvcc
 * warned that it calls `std::shared_ptr`'s host-only copy. A written-out copy is a host function,
 * which a `__host__ __device__` template may call.
 * @tparam State the shared state, an `adaptor_state` with the adaptor's allocate and deallocate
 * @tparam Derived the adaptor (CRTP): it forwards allocate, deallocate and its queries to state()
 */
template <class State, class Derived>
class adaptor_handle : public cccl_interop<Derived> {
 public:
  /// The resource this adaptor draws memory from.
  using upstream_type = typename State::upstream_type;
  /// The largest alignment honoured: the upstream's.
  static constexpr std::size_t max_alignment = max_alignment_v<upstream_type>;

  /// @brief Shares `other`'s state: an atomic increment. Also what a move does. Not defaulted (see
  /// above).
  adaptor_handle(adaptor_handle const& other) noexcept : state_(other.state_) {}
  /// @brief Shares `other`'s state, leaving this handle's (destroyed if this was its last handle).
  adaptor_handle& operator=(adaptor_handle const& other) noexcept {
    state_ = other.state_;
    return *this;
  }

  /// @brief The upstream resource, shared by every copy of this adaptor.
  [[nodiscard]] upstream_type& upstream() const noexcept { return state_->upstream(); }

  /// @brief An adaptor has every property its upstream has.
  /// @tparam P a property tag that the upstream declares
  template <class P>
    requires forwardable_property<upstream_type, P>
  friend constexpr void get_property(Derived const&, P) noexcept {}

  /// @brief Equal when both share one state: either can free the other's memory.
  /// @param a one adaptor
  /// @param b the other
  friend bool operator==(Derived const& a, Derived const& b) noexcept {
    return static_cast<adaptor_handle const&>(a).state_ == static_cast<adaptor_handle const&>(b).state_;
  }

 protected:
  /// @brief Builds the state from `args`. @throws std::bad_alloc, or what `State`'s constructor throws
  template <class... Args>
  explicit adaptor_handle(std::in_place_t, Args&&... args) : state_(std::make_shared<State>(std::forward<Args>(args)...)) {}
  ~adaptor_handle() = default;

  /// @brief The shared state.
  [[nodiscard]] State& state() const noexcept { return *state_; }

 private:
  std::shared_ptr<State> state_;
};

}  // namespace mr::detail
DEVCOL_NAMESPACE_END
