# A class's compile cache, used by build_step.cmake when grade_class.sh
# configures one (GRADING_COMPILE_CACHE): a submission's file is compiled
# once for every student whose folder holds the same bytes under the same
# command. Such compiles see their folder at one path for everyone
# (kGradingNeutralFolder, bound by the compile sandbox), so the object is
# the same whoever's folder it came from: __FILE__ and the line information
# name no student. The entry is the object, the dependency file with the
# compile's own paths as placeholders, and the hash of every dependency
# outside the folder and the system's and toolkit's trees (the course's
# headers), which a later fetch checks again. Written by the build's side,
# never by the sandboxed compile. Needs include_check.cmake (grading_depfile_paths).

set(kGradingNeutralFolder "/grading-submission")

# grading_compile_cache_key(<out> <command list> <file> <readable>): the
# hash of the command with the compile's own paths named alike, the
# compiler's size and time stamp, and every file of the source's folder.
function(grading_compile_cache_key out command file)
  get_filename_component(own "${file}" DIRECTORY)
  set(keyed "")
  set(previous "")
  foreach(arg IN LISTS command)
    if(previous MATCHES "^-(o|MF|MT)$")
      set(arg "%${CMAKE_MATCH_1}%")
    elseif(arg STREQUAL file)
      set(arg "%FILE%")
    else()
      string(REPLACE "${own}" "%OWN%" arg "${arg}")
    endif()
    string(APPEND keyed "${arg}\n")
    set(previous "${arg}")
  endforeach()
  list(GET command 0 compiler)
  if(EXISTS "${compiler}")
    file(SIZE "${compiler}" size)
    file(TIMESTAMP "${compiler}" stamp "%s" UTC)
    string(APPEND keyed "compiler ${size} ${stamp}\n")
  endif()
  file(GLOB_RECURSE owned LIST_DIRECTORIES false RELATIVE "${own}" "${own}/*")
  list(SORT owned)
  foreach(name IN LISTS owned)
    file(SHA256 "${own}/${name}" hash)
    string(APPEND keyed "owned ${name} ${hash}\n")
  endforeach()
  string(SHA256 key "${keyed}")
  set(${out} "${key}" PARENT_SCOPE)
endfunction()

# The dependencies an entry must check again: outside the source's folder,
# /usr and the compilers' trees (`readable`), whose versions the compiler's
# stamp stands for.
function(_grading_cache_inputs out depfile own readable)
  grading_depfile_paths(deps "${depfile}")
  set(lines "")
  foreach(dep IN LISTS deps)
    if(dep STREQUAL "")
      continue()
    endif()
    get_filename_component(real "${dep}" REALPATH)
    set(outside TRUE)
    foreach(root IN LISTS readable ITEMS "${own}" /usr)
      string(FIND "${real}/" "${root}/" at)
      if(at EQUAL 0)
        set(outside FALSE)
        break()
      endif()
    endforeach()
    if(outside)
      file(SHA256 "${real}" hash)
      string(APPEND lines "${hash} ${real}\n")
    endif()
  endforeach()
  set(${out} "${lines}" PARENT_SCOPE)
endfunction()

# Whether every input `entry` checks is as it was when the entry was kept.
function(_grading_cache_inputs_hold out entry)
  set(${out} FALSE PARENT_SCOPE)
  if(NOT EXISTS "${entry}/object" OR NOT EXISTS "${entry}/depends" OR NOT EXISTS "${entry}/inputs")
    return()
  endif()
  file(STRINGS "${entry}/inputs" inputs)
  foreach(line IN LISTS inputs)
    string(REGEX MATCH "^([0-9a-f]+) (.*)$" matched "${line}")
    if(NOT EXISTS "${CMAKE_MATCH_2}")
      return()
    endif()
    file(SHA256 "${CMAKE_MATCH_2}" now)
    if(NOT now STREQUAL CMAKE_MATCH_1)
      return()
    endif()
  endforeach()
  set(${out} TRUE PARENT_SCOPE)
endfunction()

# grading_compile_cache_store(<entry> <object> <depfile> <target> <own> <readable>):
# keeps a compile that succeeded, in place of an entry whose inputs changed.
# Two compiles of one key may race: the first to rename its entry into
# place keeps it.
function(grading_compile_cache_store entry object depfile target own readable)
  _grading_cache_inputs_hold(current "${entry}")
  if(current)
    return()
  endif()
  file(REMOVE_RECURSE "${entry}")
  string(RANDOM LENGTH 12 salt)
  set(staging "${entry}.${salt}")
  file(MAKE_DIRECTORY "${staging}")
  file(COPY_FILE "${object}" "${staging}/object")
  file(READ "${depfile}" deps)
  string(REPLACE "${target}:" "%TARGET%:" deps "${deps}")
  string(REPLACE "${own}/" "%OWN%/" deps "${deps}")
  file(WRITE "${staging}/depends" "${deps}")
  _grading_cache_inputs(inputs "${depfile}" "${own}" "${readable}")
  file(WRITE "${staging}/inputs" "${inputs}")
  file(RENAME "${staging}" "${entry}" RESULT renamed)
  if(NOT renamed EQUAL 0)
    file(REMOVE_RECURSE "${staging}")
  endif()
endfunction()

# grading_compile_cache_fetch(<hit out> <entry> <object> <depfile> <target> <own>):
# the entry's object and dependency file in this compile's place, when every
# input it checks is as it was.
function(grading_compile_cache_fetch out entry object depfile target own)
  set(${out} FALSE PARENT_SCOPE)
  _grading_cache_inputs_hold(current "${entry}")
  if(NOT current)
    return()
  endif()
  file(READ "${entry}/depends" deps)
  string(REPLACE "%TARGET%:" "${target}:" deps "${deps}")
  string(REPLACE "%OWN%/" "${own}/" deps "${deps}")
  file(COPY_FILE "${entry}/object" "${object}")
  file(WRITE "${depfile}" "${deps}")
  set(${out} TRUE PARENT_SCOPE)
endfunction()
