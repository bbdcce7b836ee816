# build_template.cmake: configures and builds sdk/template against an installed SDK (ctest -P).
# In: SOURCE, PREFIX, BINARY, FLAGS, GENERATOR, CXX. Fails the test on any error.
file(REMOVE_RECURSE "${BINARY}")
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
