/**
 * @file immortal.hpp
 * @brief `detail::immortal`: a process-wide object that static destruction never ends.
 */
#pragma once

#include <devcol/core/config.hpp>

#include <cstddef>
#include <new>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/**
 * A `T` built in place and never destroyed: the storage of a function-local static that objects
 * of static storage duration still use while they are destroyed, whatever order they were made
 * in. A column made at namespace scope before the spill registry's first use is destroyed after
 * it; if the registry were an ordinary static, that column would unregister from a destroyed
 * registry. Costs `sizeof(T)` of static storage and no allocation; what `T` holds at exit is
 * left to the operating system, as RMM leaves its per-device resources.
 * @tparam T the object's type; a class with a private constructor befriends `immortal<T>`
 */
template <class T>
class immortal {
 public:
  /// Builds the `T` from `args`. @throws what `T`'s constructor throws
  template <class... Args>
  explicit immortal(Args&&... args) {
    ::new (static_cast<void*>(storage_)) T(std::forward<Args>(args)...);
  }
  immortal(immortal const&) = delete;
  immortal& operator=(immortal const&) = delete;
  ~immortal() = default;  // deliberately leaves the T alive

  /// The object.
  [[nodiscard]] T& get() noexcept { return *std::launder(reinterpret_cast<T*>(storage_)); }

 private:
  alignas(T) std::byte storage_[sizeof(T)];
};

}  // namespace detail
DEVCOL_NAMESPACE_END
