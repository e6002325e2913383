# The vcpkg overlay port, run as far as this machine allows: vcpkg itself cannot be downloaded here,
# so ports/devcol/portfile.cmake runs under the stand-ins below for the vcpkg helpers it calls, each
# doing what vcpkg's does to a release-only, header-only port. Then vcpkg's post-build rules are
# checked on the package, and a consumer builds against it as a vcpkg toolchain would point it.
# Arguments (besides common.cmake's): VERSION (devcol's).
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")
file(REMOVE_RECURSE "${WORK_DIR}")

# What vcpkg sets before it includes a portfile.
set(PORT devcol)
set(TARGET_TRIPLET x64-linux)
set(CURRENT_PORT_DIR "${SOURCE_DIR}/ports/${PORT}")
set(CURRENT_BUILDTREES_DIR "${WORK_DIR}/buildtrees/${PORT}")
set(CURRENT_PACKAGES_DIR "${WORK_DIR}/packages/${PORT}_${TARGET_TRIPLET}")
set(CURRENT_INSTALLED_DIR "${WORK_DIR}/installed/${TARGET_TRIPLET}")

# vcpkg_check_features: for each FEATURES pair, -D<option>=ON when vcpkg was asked for the feature
# (its list FEATURES: the default install asks for none beyond core), OFF otherwise.
set(FEATURES core)
function(vcpkg_check_features)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "OUT_FEATURE_OPTIONS;PREFIX" "FEATURES;INVERTED_FEATURES")
  set(options "")
  set(pairs ${arg_FEATURES})
  while(pairs)
    list(POP_FRONT pairs feature option)
    list(FIND FEATURES "${feature}" requested)
    if(requested GREATER -1)
      list(APPEND options "-D${option}=ON")
    else()
      list(APPEND options "-D${option}=OFF")
    endif()
  endwhile()
  set(${arg_OUT_FEATURE_OPTIONS} "${options}" PARENT_SCOPE)
endfunction()

# vcpkg_cmake_configure: one configuration per build type, Ninja, installing into the package.
function(vcpkg_cmake_configure)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "SOURCE_PATH" "OPTIONS;OPTIONS_RELEASE;OPTIONS_DEBUG")
  if(NOT VCPKG_BUILD_TYPE STREQUAL "release")
    message(FATAL_ERROR "a header-only port builds its release configuration only: set(VCPKG_BUILD_TYPE release)")
  endif()
  execute_process(
    COMMAND ${CMAKE_COMMAND} -S "${arg_SOURCE_PATH}" -B "${CURRENT_BUILDTREES_DIR}/${TARGET_TRIPLET}-rel" -G Ninja
            -DCMAKE_BUILD_TYPE=Release "-DCMAKE_INSTALL_PREFIX=${CURRENT_PACKAGES_DIR}"
            -DCMAKE_INSTALL_LIBDIR=lib -DCMAKE_INSTALL_BINDIR=bin -DFETCHCONTENT_FULLY_DISCONNECTED=ON
            -DCMAKE_EXPORT_NO_PACKAGE_REGISTRY=ON -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON
            "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" ${arg_OPTIONS} ${arg_OPTIONS_RELEASE}
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  message("${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "vcpkg_cmake_configure failed (${rc})")
  endif()
  # vcpkg reports the port's options that the project does not use (not its own variables).
  foreach(option IN LISTS arg_OPTIONS arg_OPTIONS_RELEASE)
    string(REGEX REPLACE "^-D([^:=]+).*" "\\1" name "${option}")
    if(err MATCHES "Manually-specified variables were not used by the project:[^\n]*\n(\n    [^\n]+)*\n    ${name}\n")
      message(FATAL_ERROR "the port passes ${option}, which the project does not use")
    endif()
  endforeach()
endfunction()

# vcpkg_cmake_install: builds the install target.
function(vcpkg_cmake_install)
  devcol_run(${CMAKE_COMMAND} --build "${CURRENT_BUILDTREES_DIR}/${TARGET_TRIPLET}-rel" --target install)
endfunction()

# vcpkg_cmake_config_fixup: moves the package configuration to share/<name>, then rewrites how it
# computes its prefix (two levels above share/<name>) and any absolute path into the package.
function(vcpkg_cmake_config_fixup)
  cmake_parse_arguments(PARSE_ARGV 0 arg "DO_NOT_DELETE_PARENT_CONFIG_PATH;NO_PREFIX_CORRECTION" "PACKAGE_NAME;CONFIG_PATH;TOOLS_PATH" "")
  if(NOT arg_PACKAGE_NAME)
    set(arg_PACKAGE_NAME "${PORT}")
  endif()
  if(NOT arg_CONFIG_PATH)
    set(arg_CONFIG_PATH "share/${arg_PACKAGE_NAME}")
  endif()
  set(share "${CURRENT_PACKAGES_DIR}/share/${arg_PACKAGE_NAME}")
  set(from "${CURRENT_PACKAGES_DIR}/${arg_CONFIG_PATH}")
  if(NOT EXISTS "${from}")
    message(FATAL_ERROR "vcpkg_cmake_config_fixup: '${from}' does not exist")
  endif()
  if(NOT arg_CONFIG_PATH STREQUAL "share/${arg_PACKAGE_NAME}")
    file(GLOB moved "${from}/*")
    file(COPY ${moved} DESTINATION "${share}")
    file(REMOVE_RECURSE "${from}")
    cmake_path(GET from PARENT_PATH parent)
    cmake_path(GET parent FILENAME parent_name)
    if(parent_name STREQUAL "cmake" AND NOT arg_DO_NOT_DELETE_PARENT_CONFIG_PATH)
      file(REMOVE_RECURSE "${parent}")
    endif()
  endif()
  file(GLOB_RECURSE cmake_files "${share}/*.cmake")
  foreach(cmake_file IN LISTS cmake_files)
    file(READ "${cmake_file}" text)
    if(NOT arg_NO_PREFIX_CORRECTION)
      set(from_file [[get_filename_component(_IMPORT_PREFIX "${CMAKE_CURRENT_LIST_FILE}" PATH)]])
      set(one_up [[get_filename_component(_IMPORT_PREFIX "${_IMPORT_PREFIX}" PATH)]])
      string(REGEX REPLACE [[get_filename_component\(_IMPORT_PREFIX "\${CMAKE_CURRENT_LIST_FILE}" PATH\)(
get_filename_component\(_IMPORT_PREFIX "\${_IMPORT_PREFIX}" PATH\))*]] "${from_file}\n${one_up}\n${one_up}" text "${text}")
      string(REGEX REPLACE [[get_filename_component\(PACKAGE_PREFIX_DIR "\${CMAKE_CURRENT_LIST_DIR}/(\.\./)+" ABSOLUTE\)]]
             [[get_filename_component(PACKAGE_PREFIX_DIR "${CMAKE_CURRENT_LIST_DIR}/../../" ABSOLUTE)]] text "${text}")
    endif()
    string(REPLACE "${CURRENT_INSTALLED_DIR}" "\${_IMPORT_PREFIX}" text "${text}")
    string(REPLACE "${CURRENT_PACKAGES_DIR}" "\${_IMPORT_PREFIX}" text "${text}")
    file(WRITE "${cmake_file}" "${text}")
  endforeach()
endfunction()

# vcpkg_fixup_pkgconfig: every pkg-config file finds its prefix relative to itself, and is valid.
function(vcpkg_fixup_pkgconfig)
  file(GLOB pc_files "${CURRENT_PACKAGES_DIR}/lib/pkgconfig/*.pc" "${CURRENT_PACKAGES_DIR}/share/pkgconfig/*.pc")
  foreach(pc_file IN LISTS pc_files)
    cmake_path(GET pc_file PARENT_PATH pc_dir)
    set(to_prefix "${CURRENT_PACKAGES_DIR}")
    cmake_path(RELATIVE_PATH to_prefix BASE_DIRECTORY "${pc_dir}")
    file(READ "${pc_file}" text)
    string(REGEX REPLACE "(^|\n)prefix=[^\n]*" "\\1prefix=\${pcfiledir}/${to_prefix}" text "${text}")
    string(REPLACE "${CURRENT_PACKAGES_DIR}" "\${prefix}" text "${text}")
    file(WRITE "${pc_file}" "${text}")
    cmake_path(GET pc_file STEM module)
    set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
    devcol_run(${PKG_CONFIG} --validate "${module}")
  endforeach()
endfunction()

# vcpkg_install_copyright: the licence files, joined, as share/<port>/copyright.
function(vcpkg_install_copyright)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "COMMENT" "FILE_LIST")
  set(text "")
  foreach(licence IN LISTS arg_FILE_LIST)
    file(READ "${licence}" part)
    string(APPEND text "${part}")
  endforeach()
  file(WRITE "${CURRENT_PACKAGES_DIR}/share/${PORT}/copyright" "${text}")
endfunction()

include("${CURRENT_PORT_DIR}/portfile.cmake")

# --- vcpkg's post-build rules, for this port ------------------------------------------------------
file(READ "${CURRENT_PORT_DIR}/vcpkg.json" manifest)
string(JSON port_name GET "${manifest}" name)
string(JSON port_version GET "${manifest}" version-semver)
if(NOT port_name STREQUAL PORT OR NOT port_version STREQUAL VERSION)
  message(FATAL_ERROR "vcpkg.json names ${port_name} ${port_version}; the sources are ${PORT} ${VERSION}")
endif()
file(GLOB_RECURSE objects "${CURRENT_BUILDTREES_DIR}/*.o")
if(objects)
  message(FATAL_ERROR "installing a header-only package compiled something: ${objects}")
endif()
file(GLOB_RECURSE packaged LIST_DIRECTORIES true "${CURRENT_PACKAGES_DIR}/*")
foreach(path IN LISTS packaged)
  if(IS_DIRECTORY "${path}")
    file(GLOB entries "${path}/*")
    if(NOT entries)
      message(FATAL_ERROR "empty directory in the package: ${path}")
    endif()
  else()
    file(STRINGS "${path}" absolute REGEX "${WORK_DIR}|${SOURCE_DIR}")
    if(absolute)
      message(FATAL_ERROR "${path} names a path of this build: ${absolute}")
    endif()
  endif()
endforeach()
devcol_check_tree("${CURRENT_PACKAGES_DIR}"
  ALLOWED "^include/devcol/.+\\.(h|hpp|cuh|inl)$" "^share/${PORT}/devcol-[a-z-]+\\.cmake$" "^share/${PORT}/(copyright|usage)$"
          "^share/pkgconfig/devcol\\.pc$"
  REQUIRED include/devcol/devcol.hpp share/${PORT}/devcol-config.cmake share/${PORT}/copyright share/${PORT}/usage)
# The usage file tells what the consumer below does.
file(READ "${CURRENT_PACKAGES_DIR}/share/${PORT}/usage" usage)
foreach(line "find_package(devcol CONFIG REQUIRED)" "target_link_libraries(main PRIVATE devcol::devcol)")
  string(FIND "${usage}" "${line}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the usage file does not say ${line}")
  endif()
endforeach()

# A consumer, with the package where vcpkg's toolchain would put it on CMAKE_PREFIX_PATH.
devcol_consumer("${SOURCE_DIR}/test_package" "${WORK_DIR}/consumer" "-DCMAKE_PREFIX_PATH=${CURRENT_PACKAGES_DIR}")
devcol_expect_found_in("${WORK_DIR}/consumer" "${CURRENT_PACKAGES_DIR}/share/${PORT}")
