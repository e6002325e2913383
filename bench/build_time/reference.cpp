// The yardstick of the build-time benchmark: a file that includes only what a Thrust user of the
// OpenMP backend would (sort, reduce and the execution policy), with an empty main.
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/system/omp/execution_policy.h>

int main() { return 0; }
