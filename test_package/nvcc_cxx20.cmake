# CMake 3.25.2 learnt nvcc's C++20 flag; before it, a CUDA target asking for C++20 (as CUDA code
# does by default when CMAKE_CXX_STANDARD is 20, Conan's setting) fails to configure. Name the flag.
# Included by CMakeLists.txt and, for CMake's compiler checks too, as a Conan user toolchain.
if(CMAKE_VERSION VERSION_LESS 3.25.2)
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
endif()
