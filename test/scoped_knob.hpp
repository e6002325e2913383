// One helper of the tests, in its own header because test_host_fast_paths.cpp is compiled on its
// own (with the fast paths on, against a reference unit with them off) and does not include
// support.hpp's umbrella.
#pragma once

#include <atomic>
#include <cstddef>

namespace devcol_test {

/// Sets one of the host fast paths' knobs (an atomic the library reads at each call, such as the
/// folds' sub-ranges or the strings gather's passes) for one test run, and restores it after, so
/// that a test runs each way a CPU might choose.
class scoped_knob {
 public:
  scoped_knob(std::atomic<std::size_t>& knob, std::size_t value) : knob_(knob), saved_(knob.exchange(value)) {}
  scoped_knob(scoped_knob const&) = delete;
  scoped_knob& operator=(scoped_knob const&) = delete;
  ~scoped_knob() { knob_.store(saved_); }

 private:
  std::atomic<std::size_t>& knob_;
  std::size_t saved_;
};

}  // namespace devcol_test
