// The CUDA backend's consumer: main.cpp compiled by nvcc.
#include "main.cpp"
