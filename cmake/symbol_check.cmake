# cmake -DNM=nm -DARCHIVE=<unit archive> -DFILE=<submission file> -DALLOWED=<names> -DSTAMP=<out>
#       [-DFORBIDDEN=<functions>] [-DRECORD=<file> -DDAY=<day> -DTARGET=<unit>] -P symbol_check.cmake
# A submission defines the exercise and nothing else: every symbol its
# compiled file defines with external linkage must be one of ALLOWED (the
# day's exercise functions and kernels, qualified, without parameters), or
# code the compiler makes for it (kernel launch stubs, names in an anonymous
# namespace, which no other file can reach). A weak definition loses to any
# strong one, and every course and runner object is linked whole, so weak
# ones may be the day's own header code (its namespace) or what every file
# instantiates (the C++ library, the CUDA check's exception, NVTX's
# header-only API), never a stand-in for a library function. Anything else
# could replace a course or harness function at link time, so it stops the
# build, named, and RECORD (when given) says so (build_record.cmake).
# FORBIDDEN (optional) names C functions the file may not call: a day whose
# work stays on the legacy default stream forbids what would make a stream
# no event of the runner's waits for (grading_add_day's EXERCISE_FORBIDS).
# A call is a reference to the function, so it is seen without running.
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/build_record.cmake")
if(RECORD)
  file(REMOVE "${RECORD}")
endif()
execute_process(COMMAND "${NM}" -C --defined-only --extern-only "${ARCHIVE}"
                OUTPUT_VARIABLE listing ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "symbol check: ${NM} cannot read ${ARCHIVE}: ${err}")
endif()
string(REPLACE "\n" ";" lines "${listing}")
set(header_code [[^(std::|__gnu_cxx::|grading::CudaError$|grading::CudaError::|DW\.ref\.__gxx_personality_v0$|nvtx[A-Za-z0-9_]*(_v3|::)|InitializeInjectionNvtx)]])
# The namespaces of the exercise's own names (day38:: for day38::walkEdgePerThread).
set(own_namespaces "")
foreach(allowed IN LISTS ALLOWED)
  if(allowed MATCHES "^(.+)::[^:]+$")
    list(APPEND own_namespaces "${CMAKE_MATCH_1}::")
  endif()
endforeach()
list(REMOVE_DUPLICATES own_namespaces)
set(extra "")
foreach(line IN LISTS lines)
  # "<address> <type> <demangled name>"; archive member headers and blanks have no type.
  if(NOT line MATCHES "^[0-9a-fA-F]* ([A-Za-z]) (.+)$")
    continue()
  endif()
  set(type "${CMAKE_MATCH_1}")
  set(symbol "${CMAKE_MATCH_2}")
  # The qualified name: no parameters, no return type (a template's), no
  # "typeinfo for" or "vtable for".
  string(REGEX REPLACE "\\(.*$" "" name "${symbol}")
  string(REGEX REPLACE "^([^ <]+ )+" "" name "${name}")
  if(symbol MATCHES "^__device_stub__" OR symbol MATCHES "\\(anonymous namespace\\)")
    continue()
  endif()
  if(type MATCHES "^[WVu]$")
    if(name MATCHES "${header_code}")
      continue()
    endif()
    set(own FALSE)
    foreach(namespace IN LISTS own_namespaces)
      string(FIND "${name}" "${namespace}" at)
      if(at EQUAL 0)
        set(own TRUE)
      endif()
    endforeach()
    if(own)
      continue()
    endif()
  elseif(name IN_LIST ALLOWED)
    continue()
  endif()
  list(APPEND extra "${symbol}")
endforeach()
if(extra)
  list(GET extra 0 first)
  list(LENGTH extra count)
  set(more "")
  if(count GREATER 1)
    math(EXPR count "${count} - 1")
    set(more " (and ${count} more)")
  endif()
  string(REPLACE ";" ", " allowed "${ALLOWED}")
  set(error "${FILE}: error: it defines ${first}${more}, which the exercise does not declare: a submission may define only ${allowed} and helpers in an anonymous namespace or static")
  grading_refuse("${RECORD}" "${DAY}" symbols "${TARGET}" "${FILE}" "${error}")
endif()
if(FORBIDDEN)
  execute_process(COMMAND "${NM}" --undefined-only "${ARCHIVE}"
                  OUTPUT_VARIABLE wanted ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "symbol check: ${NM} cannot read ${ARCHIVE}: ${err}")
  endif()
  string(REPLACE "\n" ";" wanted "${wanted}")
  set(called "")
  foreach(line IN LISTS wanted)
    # "<blank address> U <name>[@version]"
    if(line MATCHES "^ *U ([^@ ]+)")
      if(CMAKE_MATCH_1 IN_LIST FORBIDDEN)
        list(APPEND called "${CMAKE_MATCH_1}")
      endif()
    endif()
  endforeach()
  if(called)
    list(REMOVE_DUPLICATES called)
    string(REPLACE ";" ", " called "${called}")
    set(error "${FILE}: error: it calls ${called}, which ${DAY}'s exercise may not: its work runs on the legacy default stream and ends with the call (the contract in the day's course header)")
    grading_refuse("${RECORD}" "${DAY}" symbols "${TARGET}" "${FILE}" "${error}")
  endif()
endif()
file(WRITE "${STAMP}" "${listing}")
