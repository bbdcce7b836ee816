# AwbPlugin.cmake: awb_add_plugin(), the one way to build a plugin, in the tree and out of it.
#
#   awb_add_plugin(NAME my_attention SOURCES my_attention.cpp
#                  [OUTPUT_DIRECTORY dir] [LINK_LIBRARIES libs...] [NO_INSTALL])
#
# Makes a MODULE library with hidden visibility (only awb_plugin_entry is exported), no "lib"
# prefix, written to OUTPUT_DIRECTORY (default: <build>/plugins, one folder for every plugin).
include_guard(GLOBAL)

function(awb_add_plugin)
  cmake_parse_arguments(ARG "NO_INSTALL" "NAME;OUTPUT_DIRECTORY;INSTALL_DESTINATION"
                        "SOURCES;LINK_LIBRARIES" ${ARGN})
  if(NOT ARG_NAME OR NOT ARG_SOURCES)
    message(FATAL_ERROR "awb_add_plugin: NAME and SOURCES are required")
  endif()
  if(NOT ARG_OUTPUT_DIRECTORY)
    if(DEFINED AWB_PLUGIN_OUTPUT_DIR)
      set(ARG_OUTPUT_DIRECTORY "${AWB_PLUGIN_OUTPUT_DIR}")
    else()
      set(ARG_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/plugins")
    endif()
  endif()
  add_library(${ARG_NAME} MODULE ${ARG_SOURCES})
  target_link_libraries(${ARG_NAME} PRIVATE AwbSdk::sdk ${ARG_LINK_LIBRARIES})
  set_target_properties(${ARG_NAME} PROPERTIES
    PREFIX ""
    CXX_VISIBILITY_PRESET hidden
    C_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LIBRARY_OUTPUT_DIRECTORY "${ARG_OUTPUT_DIRECTORY}")
  # Unresolved symbols are a link error here, not a load failure on a student's machine.
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    target_link_options(${ARG_NAME} PRIVATE "LINKER:--no-undefined")
  endif()
  if(NOT ARG_NO_INSTALL)
    if(NOT ARG_INSTALL_DESTINATION)
      set(ARG_INSTALL_DESTINATION "lib/awb/plugins")
    endif()
    install(TARGETS ${ARG_NAME} LIBRARY DESTINATION "${ARG_INSTALL_DESTINATION}" COMPONENT plugins)
  endif()
endfunction()
