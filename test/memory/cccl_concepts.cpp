// Compiled alone (no Catch2) against each CCCL release CI has: the toolkit's 3.0, RMM's 3.5, the
// cuda-cccl wheel's 3.6, by g++ and nvcc (CTest label `cccl`). The checks are in the header.
#include "cccl_concept_checks.hpp"

#if !DEVCOL_HAS_CCCL_MR
#  error "CCCL's cuda::mr is not available here: these checks would check nothing"
#endif
#if defined(DEVCOL_EXPECT_CCCL_API)
static_assert(devcol_test::cccl_concepts::cccl_api == DEVCOL_EXPECT_CCCL_API, "compiled against another CCCL than asked");
#endif

int main() { return 0; }
