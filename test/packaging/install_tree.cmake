# `cmake --install` of devcol's build tree into WORK_DIR holds only headers, the CMake package, the
# pkg-config file and the licence. Arguments (besides common.cmake's): BINARY_DIR, and the install
# layout: CMAKEDIR PKGCONFIGDIR DOCDIR.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")
file(REMOVE_RECURSE "${WORK_DIR}")
devcol_run(${CMAKE_COMMAND} --install "${BINARY_DIR}" --prefix "${WORK_DIR}")
devcol_check_tree("${WORK_DIR}"
  ALLOWED "^include/devcol/.+\\.(h|hpp|cuh|inl)$" "^${CMAKEDIR}/devcol-[a-z-]+\\.cmake$" "^${PKGCONFIGDIR}/devcol\\.pc$"
          "^${DOCDIR}/LICENSE$"
  REQUIRED include/devcol/devcol.hpp ${CMAKEDIR}/devcol-config.cmake ${CMAKEDIR}/devcol-config-version.cmake
           ${CMAKEDIR}/devcol-targets.cmake ${PKGCONFIGDIR}/devcol.pc ${DOCDIR}/LICENSE)
