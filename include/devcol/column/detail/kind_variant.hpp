/**
 * @file kind_variant.hpp
 * @brief `detail::kind_variant`: the closed variant that `any_column` is made of: one of a fixed
 * list of column kinds, in place, with the index of the one held.
 *
 * Why not `std::variant`: with 50 alternatives, libstdc++'s recursive storage instantiates one
 * constructor per alternative and per level below it for every way of constructing one (copy,
 * move, each converting argument), and each `std::visit` a chain of helpers per alternative. A
 * file that puts one column in a table and through Arrow compiled some 11,000 such functions, close
 * to half of all it compiled. Here storage is flat bytes and every operation is one table of
 * function pointers, one small function per alternative: a copy, a move, a destructor, a visitor.
 */
#pragma once

#include <devcol/core/config.hpp>

#include <cstddef>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// A list of types, and nothing else: naming it instantiates none of them.
template <class... Ts>
struct kind_list {};

/// The number of types in a kind_list.
template <class List>
inline constexpr std::size_t kind_list_size = 0;
template <class... Ts>
inline constexpr std::size_t kind_list_size<kind_list<Ts...>> = sizeof...(Ts);

/// The `I`th type of a kind_list.
template <std::size_t I, class List>
struct kind_list_at;
template <std::size_t I, class... Ts>
struct kind_list_at<I, kind_list<Ts...>> {
  using type = std::tuple_element_t<I, std::tuple<Ts...>>;
};

/// Whether `T` is one of a kind_list's types.
template <class T, class List>
inline constexpr bool in_kind_list = false;
template <class T, class... Ts>
inline constexpr bool in_kind_list<T, kind_list<Ts...>> = (std::is_same_v<T, Ts> || ...);

/// The position of `T` in `Ts` (the first one; `T` must be there).
template <class T, class... Ts>
consteval std::size_t kind_index() {
  std::size_t i = 0;
  bool found = false;
  ((found = found || std::is_same_v<T, Ts>, i += found ? 0 : 1), ...);
  return i;
}
template <class... Ts>
consteval std::size_t largest_size() {
  std::size_t m = 1;
  ((m = sizeof(Ts) > m ? sizeof(Ts) : m), ...);
  return m;
}
template <class... Ts>
consteval std::size_t largest_alignment() {
  std::size_t m = 1;
  ((m = alignof(Ts) > m ? alignof(Ts) : m), ...);
  return m;
}

template <class List>
class kind_variant;

/**
 * One object of one of `Ts`, in place. Never empty: it is default-constructed as the first type,
 * and a throwing copy leaves the target as it was (the copy is made first, then moved in; every
 * `T` must move without throwing, which is checked).
 * @tparam Ts the types it may hold, each once
 */
template <class... Ts>
class kind_variant<kind_list<Ts...>> {
  static_assert(sizeof...(Ts) > 0 && sizeof...(Ts) < 256, "kind_variant: 1 to 255 types");

 public:
  /// How many types it may hold.
  static constexpr std::size_t kind_count = sizeof...(Ts);

  /// Holds a default-constructed first type. Throws what that constructor throws.
  kind_variant() { ::new (static_cast<void*>(storage_)) first_type(); }
  /// Holds `value` (copied or moved as it is passed). Throws what that constructor throws.
  template <class T>
    requires in_kind_list<std::remove_cvref_t<T>, kind_list<Ts...>>
  kind_variant(T&& value)  // NOLINT(google-explicit-constructor): a kind converts, as into std::variant
      : index_(static_cast<unsigned char>(kind_index<std::remove_cvref_t<T>, Ts...>())) {
    ::new (static_cast<void*>(storage_)) std::remove_cvref_t<T>(std::forward<T>(value));
  }
  kind_variant(kind_variant const& other) : index_(other.index_) { copy_table[index_](storage_, other.storage_); }
  kind_variant(kind_variant&& other) noexcept : index_(other.index_) { move_table[index_](storage_, other.storage_); }
  kind_variant& operator=(kind_variant const& other) {
    if (this != &other) { *this = kind_variant(other); }
    return *this;
  }
  kind_variant& operator=(kind_variant&& other) noexcept {
    if (this != &other) {
      destroy_table[index_](storage_);
      index_ = other.index_;
      move_table[index_](storage_, other.storage_);
    }
    return *this;
  }
  /// Holds `value` instead: the new object is made first, so a throw leaves this as it was.
  template <class T>
    requires in_kind_list<std::remove_cvref_t<T>, kind_list<Ts...>>
  kind_variant& operator=(T&& value) {
    return *this = kind_variant(std::forward<T>(value));
  }
  ~kind_variant() { destroy_table[index_](storage_); }

  /// The position in `Ts` of the type held. O(1).
  [[nodiscard]] std::size_t index() const noexcept { return index_; }

  /// The object held, as a `T`, or nullptr when it holds another type. O(1).
  template <class T>
  [[nodiscard]] T const* if_holds() const noexcept {
    static_assert(in_kind_list<T, kind_list<Ts...>>, "kind_variant: not one of its types");
    return index_ == kind_index<T, Ts...>() ? std::launder(reinterpret_cast<T const*>(storage_)) : nullptr;
  }
  template <class T>
  [[nodiscard]] T* if_holds() noexcept {
    static_assert(in_kind_list<T, kind_list<Ts...>>, "kind_variant: not one of its types");
    return index_ == kind_index<T, Ts...>() ? std::launder(reinterpret_cast<T*>(storage_)) : nullptr;
  }

  /// `f(object)` with the object held as its own type; `f` must return the same type for every `T`.
  /// One indirect call.
  template <class F>
  decltype(auto) visit(F& f) const {
    return dispatch<F, Ts const...>(f, static_cast<void const*>(storage_), index_);
  }
  template <class F>
  decltype(auto) visit(F& f) {
    return dispatch<F, Ts...>(f, static_cast<void*>(storage_), index_);
  }

 private:
  using first_type = std::tuple_element_t<0, std::tuple<Ts...>>;

  template <class T>
  static void destroy_one(void* p) noexcept {
    std::launder(static_cast<T*>(p))->~T();
  }
  template <class T>
  static void copy_one(void* to, void const* from) {
    ::new (to) T(*std::launder(static_cast<T const*>(from)));
  }
  template <class T>
  static void move_one(void* to, void* from) noexcept {
    static_assert(std::is_nothrow_move_constructible_v<T>, "kind_variant: every type must move without throwing");
    ::new (to) T(std::move(*std::launder(static_cast<T*>(from))));
  }
  static constexpr void (*destroy_table[])(void*) noexcept = {&destroy_one<Ts>...};
  static constexpr void (*copy_table[])(void*, void const*) = {&copy_one<Ts>...};
  static constexpr void (*move_table[])(void*, void*) noexcept = {&move_one<Ts>...};

  template <class F, class R, class Q, class Storage>
  static R call_as(F& f, Storage* p) {
    return f(*std::launder(static_cast<Q*>(p)));
  }
  // Q... are Ts, const-qualified for a const visit.
  template <class F, class Q0, class... Q, class Storage>
  static decltype(auto) dispatch(F& f, Storage* p, std::size_t i) {
    using R = decltype(f(std::declval<Q0&>()));
    static_assert((std::is_same_v<R, decltype(f(std::declval<Q&>()))> && ...),
                  "devcol::visit: the callable must return the same type for every column kind");
    static constexpr R (*thunks[])(F&, Storage*) = {&call_as<F, R, Q0, Storage>, &call_as<F, R, Q, Storage>...};
    return thunks[i](f, p);
  }

  alignas(largest_alignment<Ts...>()) unsigned char storage_[largest_size<Ts...>()];
  unsigned char index_ = 0;
};

}  // namespace detail
DEVCOL_NAMESPACE_END
