# cmake -DSEAL=<grading_seal> -DOBJCOPY=<objcopy> -DARCHIVE=<unit archive> -DSEALED=<archive out>
#       -DFILE=<submission file> -DDAY=<day> -DTARGET=<unit> -DEXPORTS=<names> [-DKERNELS=<names>]
#       [-DFORBIDDEN=<functions>] [-DCHECKED=<functions>] [-DRECORD=<file>] -P symbol_check.cmake
# Seals a student's compiled unit (harness/seal/include/seal/seal.h):
# grading_seal decides, objcopy renames, and SEALED is what runners link. A
# refusal (a strong definition the exercise does not declare, an exercise
# kernel that is host code, a call of FORBIDDEN) stops the build, named, and
# RECORD (when given) says so (build_record.cmake).
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/build_record.cmake")
if(RECORD)
  file(REMOVE "${RECORD}")
endif()
file(REMOVE "${SEALED}")
set(rules "")
foreach(option IN ITEMS export:EXPORTS kernel:KERNELS forbid:FORBIDDEN check:CHECKED)
  string(REPLACE ":" ";" option "${option}")
  list(GET option 0 flag)
  list(GET option 1 variable)
  foreach(name IN LISTS ${variable})
    list(APPEND rules "--${flag}" "${name}")
  endforeach()
endforeach()
# The unit's own definitions get a name no other object uses.
string(MAKE_C_IDENTIFIER "${TARGET}" unit)
set(map "${SEALED}.renames")
execute_process(COMMAND "${SEAL}" --archive "${ARCHIVE}" --day "${DAY}" --prefix "__grading_${unit}_" --map "${map}"
                        ${rules}
                OUTPUT_VARIABLE refusal ERROR_VARIABLE err RESULT_VARIABLE rc)
if(rc EQUAL 1)
  string(STRIP "${refusal}" refusal)
  grading_refuse("${RECORD}" "${DAY}" symbols "${TARGET}" "${FILE}" "${FILE}: error: ${refusal}")
elseif(NOT rc EQUAL 0)
  grading_refuse("${RECORD}" "${DAY}" symbols "${TARGET}" "${FILE}"
                 "${FILE}: error: its compiled unit cannot be sealed: ${err}")
endif()
execute_process(COMMAND "${OBJCOPY}" "--redefine-syms=${map}" "${ARCHIVE}" "${SEALED}"
                ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE "${SEALED}")
  message(FATAL_ERROR "symbol check: ${OBJCOPY} could not seal ${ARCHIVE}: ${err}")
endif()
