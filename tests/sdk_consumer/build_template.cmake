# build_template.cmake: writes a plugin project from the installed template with the installed
# `awb new-plugin`, then configures and builds it against the installed SDK (ctest -P, or
# include()d by a script that goes on to use the plugin).
# In: PREFIX (the install), KIND, MODE (solution or starter), SOURCE (the project's folder),
# BINARY, FLAGS, GENERATOR, CXX. Fails the test on any error.
# SOURCE is removed first only when this script wrote it (its marker file is there): a stale
# test configuration must never make it remove a folder of the source tree.
if(EXISTS "${SOURCE}" AND NOT EXISTS "${SOURCE}/.awb-generated-by-test")
  message(FATAL_ERROR "${SOURCE} exists and was not written by this test: not removing it")
endif()
file(REMOVE_RECURSE "${SOURCE}" "${BINARY}")
set(new_plugin_args "${SOURCE}" --kind "${KIND}")
if(MODE STREQUAL "starter")
  list(APPEND new_plugin_args --starter)
elseif(NOT MODE STREQUAL "solution")
  message(FATAL_ERROR "MODE is solution or starter, not '${MODE}'")
endif()
execute_process(COMMAND "${PREFIX}/bin/awb" new-plugin ${new_plugin_args} RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "awb new-plugin failed (${rc})")
endif()
file(TOUCH "${SOURCE}/.awb-generated-by-test")
# The installed SDK carries its extension headers: the core header includes those of ABI 1.1 and
# 1.2, and a plugin includes a later one itself.
foreach(header awb_plugin.h ext/backward.h ext/cost.h)
  if(NOT EXISTS "${PREFIX}/include/awb/${header}")
    message(FATAL_ERROR "the installed SDK lacks include/awb/${header}")
  endif()
endforeach()
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${SOURCE}" -B "${BINARY}" -G "${GENERATOR}"
          "-DCMAKE_PREFIX_PATH=${PREFIX}" "-DCMAKE_CXX_COMPILER=${CXX}"
          "-DCMAKE_BUILD_TYPE=None" "-DCMAKE_CXX_FLAGS=${FLAGS}"
  RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the template failed (${rc})")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BINARY}" RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the template failed (${rc})")
endif()
