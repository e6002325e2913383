/**
 * @file adaptor_base.hpp
 * @brief What every resource adaptor shares: its upstream (owned), property forwarding, identity.
 */
#pragma once

#include <devcol/core/config.hpp>
#include <devcol/memory/resource.hpp>

#include <cstddef>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace mr::detail {

/**
 * @brief Owns the upstream resource by value (never a reference that could dangle, rmm #2207) and
 * forwards its accessibility properties and alignment guarantee.
 *
 * Every adaptor can be built three ways: with a default-constructed upstream, with an upstream
 * moved in (when it can move: leaf resources, `resource_handle`), or with `std::in_place` and the
 * upstream's constructor arguments (for upstreams that cannot move, such as other adaptors).
 * To share one upstream between adaptors, make the upstream a `resource_handle`. Adaptors keep
 * state, so they are neither copyable nor movable, and two adaptors compare equal only when they
 * are the same object.
 */
template <memory_resource Upstream, class Derived>
class adaptor_base : public cccl_interop<Derived> {
 public:
  /// The resource this adaptor draws memory from.
  using upstream_type = Upstream;
  /// The largest alignment honoured: the upstream's.
  static constexpr std::size_t max_alignment = max_alignment_v<Upstream>;

  adaptor_base(adaptor_base const&) = delete;
  adaptor_base& operator=(adaptor_base const&) = delete;

  /// @brief The upstream resource.
  [[nodiscard]] Upstream& upstream() noexcept { return upstream_; }
  /// @brief The upstream resource.
  [[nodiscard]] Upstream const& upstream() const noexcept { return upstream_; }

  /// @brief An adaptor has every property its upstream has.
  template <class P>
    requires forwardable_property<Upstream, P>
  friend constexpr void get_property(Derived const&, P) noexcept {}

  /// @brief Adaptors keep state: equal only to themselves.
  friend bool operator==(Derived const& a, Derived const& b) noexcept { return &a == &b; }

 protected:
  /// @brief Default-constructs the upstream.
  adaptor_base() = default;
  /// @brief Constructs the upstream in place from `args` (for upstreams that cannot move).
  template <class... Args>
  explicit adaptor_base(std::in_place_t, Args&&... args) : upstream_(std::forward<Args>(args)...) {}
  ~adaptor_base() = default;

 private:
  Upstream upstream_{};
};

}  // namespace mr::detail
DEVCOL_NAMESPACE_END
