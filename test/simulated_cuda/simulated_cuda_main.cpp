// Catch2's main for the simulated CUDA tests, and the listener that makes every test case a check
// of the stream order: a case that leaves a report of the simulated runtime fails, with the report.
#define CATCH_CONFIG_MAIN
#include "simulated_cuda.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <iostream>

namespace {

void print(std::vector<std::string> const& reports) {
  for (auto const& report : reports) { std::cerr << report << '\n'; }
}

struct simulated_cuda_listener : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;
  void testCaseStarting(Catch::TestCaseInfo const&) override { print(devcol_sim::take_reports()); }
  void testCaseEnded(Catch::TestCaseStats const& stats) override {
    auto const reports = devcol_sim::take_reports();
    if (reports.empty()) { return; }
    print(reports);
    // A listener cannot fail the case after the fact: the process fails instead (CTest runs each
    // case in a process of its own).
    std::cerr << "the simulated CUDA runtime reported the above in \"" << stats.testInfo.name << "\"\n";
    std::cerr.flush();
    std::_Exit(EXIT_FAILURE);
  }
};

}  // namespace

CATCH_REGISTER_LISTENER(simulated_cuda_listener)
