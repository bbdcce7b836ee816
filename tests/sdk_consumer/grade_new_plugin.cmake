# grade_new_plugin.cmake: one project of `awb new-plugin` (a kind, as solution or starter), built
# against the installed SDK, then graded by the installed awb under the kind's bundled assignment
# at the default isolation, as a student would: a solution gets full marks; a starter scores 0,
# and its report names the step to write. In: as build_template.cmake.
include("${CMAKE_CURRENT_LIST_DIR}/build_template.cmake")
execute_process(
  COMMAND "${PREFIX}/bin/awb" grade --assignment "${KIND}" --plugin-dir "${BINARY}/plugins"
          --variant "student-${KIND}"
  OUTPUT_VARIABLE report ERROR_VARIABLE errors RESULT_VARIABLE rc)
if(NOT report MATCHES "\nTotal: ([0-9.]+)/([0-9.]+) over ([0-9]+) exercise")
  message(FATAL_ERROR "no total in the report (exit ${rc}):\n${report}\n${errors}")
endif()
set(score "${CMAKE_MATCH_1}")
set(max "${CMAKE_MATCH_2}")
message(STATUS "${KIND} ${MODE}: Total: ${score}/${max} over ${CMAKE_MATCH_3} exercise(s)")
if(max STREQUAL "0")
  message(FATAL_ERROR "the assignment is worth nothing:\n${report}")
endif()
if(MODE STREQUAL "solution")
  if(NOT score STREQUAL max OR NOT rc EQUAL 0)
    message(FATAL_ERROR "the solution scored ${score}/${max} (exit ${rc}):\n${report}\n${errors}")
  endif()
else()
  # The first step still to write, as every check of the starter reports it.
  string(REGEX MATCH "TODO: write [^\n]*\\(src/student_attention.cpp\\)" todo "${report}")
  if(NOT score STREQUAL "0" OR NOT rc EQUAL 1 OR NOT todo)
    message(FATAL_ERROR "the starter scored ${score}/${max} (exit ${rc}) and its report "
                        "should name the step to write:\n${report}\n${errors}")
  endif()
  message(STATUS "the student reads: ${todo}")
endif()
