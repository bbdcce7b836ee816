# grade_new_plugin.cmake: one project of `awb new-plugin` (a kind, as solution or starter), built
# against the installed SDK, then graded by the installed awb under the kind's bundled assignment
# at the default isolation, as a student would: a solution gets full marks; a starter scores 0,
# and its report names the step to write, once. In: as build_template.cmake.
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
  # The first step still to write, in words (not a status number), as every check stops at it.
  string(REGEX MATCH "TODO left in the starter: write [^\n]*\\(src/student_attention.cpp\\)"
         todo "${report}")
  if(NOT score STREQUAL "0" OR NOT rc EQUAL 1 OR NOT todo OR report MATCHES "status [0-9]")
    message(FATAL_ERROR "the starter scored ${score}/${max} (exit ${rc}) and its report "
                        "should name the step to write:\n${report}\n${errors}")
  endif()
  # Told once: no line of the report appears twice, but the tables' layout (blank lines, the
  # header, each exercise's score and count of hidden checks) and the rows that point back to a
  # failure told in full ("the same as in river-bank above"). List specials are masked before
  # the report becomes a list.
  string(REPLACE ";" "," flat "${report}")
  string(REPLACE "[" "(" flat "${flat}")
  string(REPLACE "]" ")" flat "${flat}")
  string(REPLACE "\n" ";" lines "${flat}")
  set(seen "")
  foreach(line IN LISTS lines)
    if(line STREQUAL "" OR line MATCHES "^ +STATUS +CHECK +POINTS +SUMMARY$"
       OR line MATCHES "^ +Score: " OR line MATCHES "^ +[0-9]+ hidden check\\(s\\) not shown$"
       OR line MATCHES " the same as in [^ ]+ above$")
      continue()
    endif()
    list(FIND seen "${line}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "the starter's report repeats a line:\n${line}\n\n${report}")
    endif()
    list(APPEND seen "${line}")
  endforeach()
  message(STATUS "the student reads: ${todo}")
endif()
