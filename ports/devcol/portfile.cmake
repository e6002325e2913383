# devcol from the repository that holds this overlay port (ports/devcol): no download. Header-only:
# one release configuration serves every build type, and nothing lands in lib/, unless the feature
# `precompiled` asks for devcol::precompiled (a static library of the common instantiations, built
# in its release configuration, which debug builds link as well).
# CCCL comes from the CUDA toolkit (not a vcpkg port), as for every other use of devcol.
set(VCPKG_BUILD_TYPE release)
cmake_path(SET SOURCE_PATH NORMALIZE "${CURRENT_PORT_DIR}/../..")

vcpkg_check_features(OUT_FEATURE_OPTIONS feature_options FEATURES precompiled DEVCOL_PRECOMPILED)

vcpkg_cmake_configure(
  SOURCE_PATH "${SOURCE_PATH}"
  OPTIONS
    ${feature_options}
    -DDEVCOL_BUILD_TESTS=OFF
    -DDEVCOL_BUILD_EXAMPLES=OFF
    -DDEVCOL_BUILD_BENCHMARKS=OFF
    -DDEVCOL_INSTALL_CMAKEDIR=share/${PORT}
)
vcpkg_cmake_install()
vcpkg_cmake_config_fixup()
vcpkg_fixup_pkgconfig()

# The licence is the port's copyright file; devcol's own copy under share/doc would repeat it.
file(REMOVE_RECURSE "${CURRENT_PACKAGES_DIR}/share/doc")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
file(INSTALL "${CURRENT_PORT_DIR}/usage" DESTINATION "${CURRENT_PACKAGES_DIR}/share/${PORT}")
