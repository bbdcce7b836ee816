# awb_isa_world.cmake (cmake -P): one world's objects into one relocatable object whose defined
# symbols, all but KEEP, end in ".SUFFIX" (see AwbIsaWorlds.cmake for why). Local ones too: a
# COMDAT group's signature can be a local symbol (GCC's D5/C5 groups of a class's destructors
# and constructors), and a group whose signature another object shares is dropped by the final
# link, taking the world's renamed functions in it along.
# In: OBJECTS (|-separated), OUTPUT, KEEP, SUFFIX, LD, NM, OBJCOPY.
string(REPLACE "|" ";" objects "${OBJECTS}")
set(merged "${OUTPUT}.merged.o")
execute_process(COMMAND "${LD}" -r -o "${merged}" ${objects} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ld -r failed for ${OUTPUT}")
endif()
# Names once each (a local name can be defined in several of the objects), by sort -u: CMake's
# own list operations copy the whole list per call, which is hours for a sanitized build's
# hundreds of thousands of symbols.
execute_process(COMMAND "${NM}" --defined-only -P "${merged}"
                COMMAND cut -d " " -f 1
                COMMAND env LC_ALL=C sort -u
                OUTPUT_VARIABLE names RESULTS_VARIABLE rcs)
if(NOT rcs STREQUAL "0;0;0")
  message(FATAL_ERROR "nm failed on ${merged}")
endif()
string(REGEX REPLACE "([^\n]+)\n" "\\1 \\1.${SUFFIX}\n" renames "\n${names}")
set(keep_line "\n${KEEP} ${KEEP}.${SUFFIX}\n")
string(FIND "${renames}" "${keep_line}" kept)
if(kept EQUAL -1)
  message(FATAL_ERROR "${OUTPUT}: the world defines no entry ${KEEP}")
endif()
string(REPLACE "${keep_line}" "\n" renames "${renames}")
string(SUBSTRING "${renames}" 1 -1 renames)  # the newline put first for the search
file(WRITE "${OUTPUT}.renames" "${renames}")
execute_process(COMMAND "${OBJCOPY}" "--redefine-syms=${OUTPUT}.renames" "${merged}" "${OUTPUT}"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "objcopy failed for ${OUTPUT}")
endif()
file(REMOVE "${merged}")
