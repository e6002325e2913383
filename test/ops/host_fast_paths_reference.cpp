// The Thrust path of the ops of host_fast_paths_ops.hpp (DEVCOL_HOST_FAST_PATHS=0, set by CMake for
// this file alone), explicitly instantiated for test_host_fast_paths.cpp to compare against.
#define DEVCOL_TEST_PATH thrust_path
#include "host_fast_paths_ops.hpp"

#if DEVCOL_HOST_FAST_PATHS
#  error "this file must be compiled with DEVCOL_HOST_FAST_PATHS=0"
#endif

namespace devcol_test::fast_paths::thrust_path {

#define DEVCOL_TEST_INSTANTIATE(T)                                                                \
  template reductions<T> reduce<T>(sliced<T> const&, bool);                                      \
  template rows<bool> compare<T>(sliced<T> const&, int, T);                                      \
  template rows<bool> compare_columns<T>(sliced<T> const&, int, sliced<T> const&);               \
  template rows<T> add<T>(sliced<T> const&, sliced<T> const&);                                   \
  template rows<double> cast_to_double<T>(sliced<T> const&);                                     \
  template gathered<T> gather<T>(sliced<T> const&, sliced<std::int32_t> const&, bool);           \
  template rows<T> filter<T>(sliced<T> const&, sliced<bool> const&);                             \
  template rows<T> scan<T>(sliced<T> const&, int, bool);                                         \
  template std::vector<std::int64_t> argsort<T>(sliced<T> const&, bool, bool);                   \
  template rows<T> sort<T>(sliced<T> const&, bool, bool);

DEVCOL_TEST_INSTANTIATE(std::int8_t)
DEVCOL_TEST_INSTANTIATE(std::int32_t)
DEVCOL_TEST_INSTANTIATE(std::int64_t)
DEVCOL_TEST_INSTANTIATE(float)
DEVCOL_TEST_INSTANTIATE(double)
template std::vector<std::int64_t> argsort<bool>(sliced<bool> const&, bool, bool);
template std::vector<std::int64_t> argsort<std::uint16_t>(sliced<std::uint16_t> const&, bool, bool);
template rows<bool> sort<bool>(sliced<bool> const&, bool, bool);
template rows<std::uint16_t> sort<std::uint16_t>(sliced<std::uint16_t> const&, bool, bool);

}  // namespace devcol_test::fast_paths::thrust_path
