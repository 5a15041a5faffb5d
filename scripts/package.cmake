# Debian packages, made by `cpack -G DEB` in the build tree (configure with
# -DCMAKE_INSTALL_PREFIX=/usr for packages; tests/shell/package-deb.sh
# does):
#   lupe         the command, lupe-exporter, the man pages, bash completion
#   liblupe0     liblupe.so.0 (the command links liblupe statically, so it
#                does not need this package)
#   liblupe-dev  headers, liblupe.so and liblupe.a, lupe.pc, the CMake package
# Dependencies come from dpkg-shlibdeps on the binaries; liblupe0 ships a
# shlibs file and ldconfig triggers. Each package carries the copyright and
# changelog.Debian.gz Debian policy asks for (scripts/debian/).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME lupe)
set(CPACK_PACKAGE_VENDOR lupe)
# whoever builds a package for others sets -DLUPE_DEB_MAINTAINER="Name <mail>"
set(LUPE_DEB_MAINTAINER "lupe developers <lupe@users.noreply.github.com>" CACHE STRING
  "the Maintainer of the Debian packages")
set(CPACK_PACKAGE_CONTACT "${LUPE_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(LUPE_DEB_VERSION ${PROJECT_VERSION}-${CPACK_DEBIAN_PACKAGE_RELEASE})
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL lupe liblupe dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY "=")
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_LUPE_PACKAGE_NAME lupe)
set(CPACK_DEBIAN_LUPE_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_LIBLUPE_PACKAGE_NAME liblupe0)
set(CPACK_DEBIAN_LIBLUPE_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME liblupe-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "liblupe0 (= ${LUPE_DEB_VERSION})")
# annotate's disassembler is loaded when first used (lib/util/dl.c)
set(CPACK_DEBIAN_LUPE_PACKAGE_RECOMMENDS "libzydis4.0")
set(CPACK_DEBIAN_LUPE_PACKAGE_SUGGESTS "linux-perf")
# the first line is the synopsis
set(CPACK_DEBIAN_LUPE_DESCRIPTION "perf-style profiler for Linux
lupe counts and samples what programs do with the kernel's perf_event_open
interface. It keeps Linux perf's command names, options, perf.data files
and text output: stat, record, report, script, top, trace and more.")
set(CPACK_DEBIAN_LIBLUPE_DESCRIPTION "perf-style profiler for Linux - shared library
liblupe counts events, samples, and reads and writes perf.data files; it is
the library the lupe command is built on.")
set(CPACK_DEBIAN_DEV_DESCRIPTION "perf-style profiler for Linux - development files
Headers, the static library, pkg-config and CMake files for programs that
use liblupe.")
# ldconfig by trigger, as Debian wants, not by maintainer scripts
set(CPACK_DEBIAN_LIBLUPE_PACKAGE_CONTROL_EXTRA ${CMAKE_SOURCE_DIR}/scripts/debian/triggers)
set(CPACK_DEBIAN_LIBLUPE_PACKAGE_CONTROL_STRICT_PERMISSION ON)

# copyright and changelog.Debian.gz in each package's doc folder
foreach(c lupe liblupe dev)
  string(TOUPPER ${c} C)
  set(pkg ${CPACK_DEBIAN_${C}_PACKAGE_NAME})
  set(dir ${CMAKE_BINARY_DIR}/debian-doc/${pkg})
  file(MAKE_DIRECTORY ${dir})
  configure_file(${CMAKE_SOURCE_DIR}/scripts/debian/changelog.in ${dir}/changelog.Debian @ONLY)
  add_custom_command(OUTPUT ${dir}/changelog.Debian.gz
    COMMAND gzip -9nc ${dir}/changelog.Debian > ${dir}/changelog.Debian.gz
    DEPENDS ${dir}/changelog.Debian VERBATIM)
  list(APPEND LUPE_DEB_DOCS ${dir}/changelog.Debian.gz)
  install(FILES ${CMAKE_SOURCE_DIR}/scripts/debian/copyright ${dir}/changelog.Debian.gz
    DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${pkg} COMPONENT ${c})
endforeach()
add_custom_target(debian-docs ALL DEPENDS ${LUPE_DEB_DOCS})
include(CPack)
