# AwbPackaging.cmake: Debian packages of this tree with CPack (`cpack --preset package`, or
# `cpack -G DEB` in any build folder): `awb` (the command line, awb-runner, awb-builder, the
# bundled plugins and mutants, the SDK and its template, the exercises, the autograder scripts)
# and `awb-gui`.
#
# Depends are read from the binaries by dpkg-shlibdeps, so they name the libraries of the
# release the packages were built on: build on the release they are for (Gradescope's image, a
# grader's Docker image). Recommends: what a source submission is built with (awb-builder runs
# CMake with Ninja and g++; the SDK's CMake package needs Eigen), so a grading server that
# installs recommended packages, as apt does by default, can build students' sources.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME awb)
set(CPACK_PACKAGE_VENDOR "Attention Workbench")
set(CPACK_PACKAGE_CONTACT "Attention Workbench maintainers <awb@invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION
    "Students write attention variants as plugins against a small SDK; awb loads them in a \
locked-down runner, runs them on the lessons' exercises and grades them against trusted \
reference kernels, with feedback that names the mistake.")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # awb_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)  # the debug information stays in the build

# One package per group: every component but the GUI's goes into `awb`.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ONE_PER_GROUP)
set(CPACK_COMPONENT_UNSPECIFIED_GROUP awb)
set(CPACK_COMPONENT_PLUGINS_GROUP awb)
set(CPACK_COMPONENT_SDK_GROUP awb)
set(CPACK_COMPONENT_GUI_GROUP gui)
set(CPACK_DEBIAN_AWB_PACKAGE_NAME awb)
set(CPACK_DEBIAN_AWB_PACKAGE_RECOMMENDS "cmake, ninja-build, g++, libeigen3-dev (>= 3.4)")
# awb bench loads OpenBLAS at run time as its second GEMM yardstick (host/core/bench/blas_gemm.hpp);
# the Python module (lib/python3/dist-packages/awb) is imported by Debian's python3 with NumPy.
set(CPACK_DEBIAN_AWB_PACKAGE_SUGGESTS "libopenblas0, python3-numpy")
set(CPACK_DEBIAN_GUI_PACKAGE_NAME awb-gui)
set(CPACK_DEBIAN_GUI_PACKAGE_DEPENDS "awb (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_GUI_PACKAGE_RECOMMENDS "fonts-dejavu-core")
include(CPack)
