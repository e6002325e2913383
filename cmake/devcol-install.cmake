# What `cmake --install` puts in a prefix: the headers, the CMake package (config, version, targets,
# the CCCL lookup), a pkg-config file and the licence. Header-only, nothing is compiled, so
# installing needs no build, and the package serves every architecture and build type; with
# DEVCOL_PRECOMPILED, also the library devcol::precompiled (built for this compiler and build type).
include(CMakePackageConfigHelpers)
set(DEVCOL_INSTALL_CMAKEDIR "${CMAKE_INSTALL_DATADIR}/cmake/devcol" CACHE STRING "Where devcol-config.cmake goes")
set(DEVCOL_INSTALL_PKGCONFIGDIR "${CMAKE_INSTALL_DATADIR}/pkgconfig" CACHE STRING "Where devcol.pc goes")
# Not CMAKE_INSTALL_DOCDIR: under add_subdirectory that may name the enclosing project.
set(DEVCOL_INSTALL_DOCDIR "${CMAKE_INSTALL_DATADIR}/doc/devcol")

install(DIRECTORY include/devcol TYPE INCLUDE)
install(TARGETS devcol EXPORT devcol-targets)
if(DEVCOL_PRECOMPILED)
  install(TARGETS devcol_precompiled EXPORT devcol-targets)
endif()
install(EXPORT devcol-targets NAMESPACE devcol:: DESTINATION "${DEVCOL_INSTALL_CMAKEDIR}")
configure_package_config_file(cmake/devcol-config.cmake.in "${PROJECT_BINARY_DIR}/devcol-config.cmake"
  INSTALL_DESTINATION "${DEVCOL_INSTALL_CMAKEDIR}")
# Headers alone fit every architecture; the precompiled library fits the one it was built for.
set(_devcol_arch_independent ARCH_INDEPENDENT)
if(DEVCOL_PRECOMPILED)
  set(_devcol_arch_independent "")
endif()
write_basic_package_version_file("${PROJECT_BINARY_DIR}/devcol-config-version.cmake"
  COMPATIBILITY SameMajorVersion ${_devcol_arch_independent})
install(FILES "${PROJECT_BINARY_DIR}/devcol-config.cmake" "${PROJECT_BINARY_DIR}/devcol-config-version.cmake"
  cmake/devcol-cccl.cmake DESTINATION "${DEVCOL_INSTALL_CMAKEDIR}")

# pkg-config: the prefix relative to the file, so the installed tree can move; CCCL's include
# directory as its CMake package states it (absolute: CCCL does not move with devcol), in a
# variable of its own (cccl_includedir) that a consumer overrides to take CCCL from elsewhere
# without the CUDA toolkit; OpenMP as this compiler spells it.
set(_devcol_pc_to_prefix "/prefix")
cmake_path(RELATIVE_PATH _devcol_pc_to_prefix BASE_DIRECTORY "/prefix/${DEVCOL_INSTALL_PKGCONFIGDIR}")
# cccl_includedir is libcu++'s directory (the toolkit's and the wheel's CCCL keep Thrust and CUB
# there too); any other directory CCCL's targets state follows it.
get_target_property(_devcol_pc_cccl_includedir CCCL::libcudacxx INTERFACE_INCLUDE_DIRECTORIES)
list(GET _devcol_pc_cccl_includedir 0 _devcol_pc_cccl_includedir)
string(REGEX REPLACE "([][+.*()^$?|\\\\])" "\\\\\\1" _devcol_cccl_escaped "${_devcol_pc_cccl_includedir}")
set(_devcol_cccl_includes "$<FILTER:$<REMOVE_DUPLICATES:$<TARGET_PROPERTY:CCCL::CCCL,INTERFACE_INCLUDE_DIRECTORIES>>,EXCLUDE,^${_devcol_cccl_escaped}$>")
set(_devcol_pc_cflags "$<$<BOOL:${_devcol_cccl_includes}>: -I$<JOIN:${_devcol_cccl_includes}, -I>>")
set(_devcol_pc_libs "")
if(DEVCOL_ENABLE_OPENMP)
  string(APPEND _devcol_pc_cflags " ${OpenMP_CXX_FLAGS}")
  set(_devcol_pc_libs "${OpenMP_CXX_FLAGS}")
endif()
configure_file(cmake/devcol.pc.in "${PROJECT_BINARY_DIR}/devcol.pc.in" @ONLY)
file(GENERATE OUTPUT "${PROJECT_BINARY_DIR}/devcol.pc" INPUT "${PROJECT_BINARY_DIR}/devcol.pc.in")
install(FILES "${PROJECT_BINARY_DIR}/devcol.pc" DESTINATION "${DEVCOL_INSTALL_PKGCONFIGDIR}")

install(FILES LICENSE DESTINATION "${DEVCOL_INSTALL_DOCDIR}")
