# install_sdk_prefix.cmake: installs the `sdk` component of the build at BINARY into PREFIX,
# quietly (cmake -P; run by the awb_sdk_prefix target at every build, copying what changed).
execute_process(
  COMMAND "${CMAKE_COMMAND}" --install "${BINARY}" --component sdk --prefix "${PREFIX}"
  OUTPUT_QUIET RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc)
  message(FATAL_ERROR "installing the SDK into ${PREFIX} failed: ${err}")
endif()
