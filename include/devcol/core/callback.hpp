/**
 * @file callback.hpp
 * @brief `devcol::callback`: a copyable, type-erased callable, for the few places devcol stores a
 * user's function (the out-of-memory hook, an exported stream's table source).
 *
 * It is `std::function` without `<functional>`: in libstdc++ that header also brings hash tables,
 * the searchers and the algorithms, which cost 0.47 G instructions, 8% of a Thrust-only file's
 * whole compile, in every file that includes devcol, for two members that run only when memory
 * runs out or a stream is read.
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>

#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

DEVCOL_NAMESPACE_BEGIN

template <class Signature>
class callback;

/**
 * @brief Holds any callable `F` with `F(Args...)` convertible to `R`, or nothing, as
 * `std::function<R(Args...)>` does, and converts from one (or from a function pointer or lambda).
 *
 * Costs one heap allocation per stored callable (none when empty); a copy copies the callable, as
 * `std::function`'s does, so a copied stateful lambda does not share its state; a call is one
 * indirect call. Calls the target as non-const, so a `mutable` lambda may change its captures.
 * Pointers to members are not accepted (wrap them in a lambda).
 * @tparam R what a call returns
 * @tparam Args the call's parameter types
 */
template <class R, class... Args>
class callback<R(Args...)> {
  struct target_base {
    virtual ~target_base() = default;
    virtual R call(Args&&... args) = 0;
    [[nodiscard]] virtual std::unique_ptr<target_base> clone() const = 0;
  };
  template <class F>
  struct target final : target_base {
    explicit target(F f) : function(std::move(f)) {}
    R call(Args&&... args) override { return static_cast<R>(function(std::forward<Args>(args)...)); }
    [[nodiscard]] std::unique_ptr<target_base> clone() const override { return std::make_unique<target>(function); }
    F function;
  };

 public:
  /// @brief Holds nothing: a call throws, and `*this == nullptr`.
  callback() noexcept = default;
  /// @brief Holds nothing, as the default constructor.
  callback(std::nullptr_t) noexcept {}
  /**
   * @brief Holds a copy of `f` (moved in). A null function pointer, or an empty `std::function`,
   * would be held and throw when called; pass `nullptr` for "none".
   * @tparam F a copyable callable type invocable with `Args...`, its result convertible to `R`
   * @param f the callable
   * @throws std::bad_alloc
   */
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, callback> && std::is_invocable_r_v<R, std::decay_t<F>&, Args...> &&
             std::is_copy_constructible_v<std::decay_t<F>>)
  callback(F&& f) : target_(std::make_unique<target<std::decay_t<F>>>(std::forward<F>(f))) {}

  /// @brief Copies `other`'s callable (one allocation, the callable's copy constructor).
  /// @param other the callback copied
  /// @throws std::bad_alloc, or what the callable's copy throws
  callback(callback const& other) : target_(other.target_ != nullptr ? other.target_->clone() : nullptr) {}
  /// @brief Takes `other`'s callable, leaving it empty. Allocates nothing.
  /// @param other the callback moved from
  callback(callback&& other) noexcept = default;
  /// @brief Copies `other`'s callable, as the copy constructor.
  /// @param other the callback copied
  /// @throws std::bad_alloc, or what the callable's copy throws; this one is unchanged then
  callback& operator=(callback const& other) {
    if (this != &other) { *this = callback(other); }
    return *this;
  }
  /// @brief Takes `other`'s callable, leaving it empty, and destroys this one's.
  /// @param other the callback moved from
  callback& operator=(callback&& other) noexcept = default;
  ~callback() = default;

  /// @brief Whether a callable is held.
  [[nodiscard]] explicit operator bool() const noexcept { return target_ != nullptr; }
  /// @brief Whether nothing is held.
  [[nodiscard]] friend bool operator==(callback const& f, std::nullptr_t) noexcept { return f.target_ == nullptr; }

  /**
   * @brief Calls the held callable with `args` (forwarded).
   * @param args the arguments
   * @throws devcol::logic_error when empty; otherwise what the callable throws
   */
  R operator()(Args... args) const {
    DEVCOL_EXPECTS(target_ != nullptr, "callback: called while empty");
    return target_->call(std::forward<Args>(args)...);
  }

 private:
  std::unique_ptr<target_base> target_;
};

DEVCOL_NAMESPACE_END
