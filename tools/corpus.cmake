# Checks or rewrites the generated part of the case corpus (cases/conformance,
# cases/edge, cases/negative), which tools/gen_corpus.c writes.
#
#   cmake -DGENERATOR=<dmlconf_gen_corpus> -DCASES_DIR=<repo>/cases -DWORK_DIR=<scratch>
#         -DMODE=check -P corpus.cmake
#     generates every set into WORK_DIR and fails unless each matches the
#     committed folder byte for byte (same files, same contents);
#   ... -DMODE=regenerate -P corpus.cmake
#     replaces the committed folders' *.yaml and *.npy files with fresh output.
cmake_minimum_required(VERSION 3.25)

foreach(variable GENERATOR CASES_DIR MODE)
    if(NOT DEFINED ${variable})
        message(FATAL_ERROR "corpus.cmake: -D${variable}=... is required")
    endif()
endforeach()
if(MODE STREQUAL "check" AND NOT DEFINED WORK_DIR)
    message(FATAL_ERROR "corpus.cmake: -DWORK_DIR=... is required to check")
endif()

set(hint "Rerun the generator: cmake --build <build> --target dmlconf_regenerate_corpus")
set(problems "")

foreach(set conformance edge negative)
    if(set STREQUAL "conformance")
        set(flag "")
    else()
        set(flag "--${set}")
    endif()
    set(committed "${CASES_DIR}/${set}")

    if(MODE STREQUAL "regenerate")
        set(target "${committed}")
        file(GLOB stale "${target}/*.yaml" "${target}/*.npy")
        if(stale)
            file(REMOVE ${stale})
        endif()
    elseif(MODE STREQUAL "check")
        set(target "${WORK_DIR}/${set}")
        file(REMOVE_RECURSE "${target}")
    else()
        message(FATAL_ERROR "corpus.cmake: MODE must be check or regenerate, not '${MODE}'")
    endif()
    file(MAKE_DIRECTORY "${target}")

    execute_process(COMMAND "${GENERATOR}" ${flag} "${target}"
        RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE errors)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "dmlconf_gen_corpus ${flag} failed (${result}):\n${errors}")
    endif()
    if(MODE STREQUAL "regenerate")
        message(STATUS "cases/${set}:\n${output}")
        continue()
    endif()

    file(GLOB generated RELATIVE "${target}" "${target}/*")
    file(GLOB present RELATIVE "${committed}" "${committed}/*")
    list(SORT generated)
    list(SORT present)
    foreach(name IN LISTS generated)
        if(NOT name IN_LIST present)
            string(APPEND problems "  cases/${set}/${name} is missing\n")
        else()
            execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${target}/${name}" "${committed}/${name}"
                RESULT_VARIABLE different OUTPUT_QUIET ERROR_QUIET)
            if(NOT different EQUAL 0)
                string(APPEND problems "  cases/${set}/${name} differs from the generator's output\n")
            endif()
        endif()
    endforeach()
    foreach(name IN LISTS present)
        if(NOT name IN_LIST generated)
            string(APPEND problems "  cases/${set}/${name} is not generated (remove it or add it to the generator)\n")
        endif()
    endforeach()
endforeach()

if(problems)
    message(FATAL_ERROR "The committed corpus is out of date with tools/gen_corpus.c:\n${problems}${hint}")
endif()
if(MODE STREQUAL "check")
    message(STATUS "cases/conformance, cases/edge and cases/negative match tools/gen_corpus.c")
endif()
