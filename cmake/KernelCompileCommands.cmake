# cmake -DDATABASE=<build>/compile_commands.json -P KernelCompileCommands.cmake
#
# The simulator's build compiles each kernel file (chapters/01_copy/copy.cu) as C++
# through a generated wrapper (<build>/sim_sources/chapters_01_copy_copy_cu.cpp, which
# only includes it), so compile_commands.json names the wrapper, not the file a learner
# opens: an editor's language server would guess its flags, or take the .cu file for
# CUDA and look for a toolkit. This adds an entry for each kernel file that has none,
# with its wrapper's command and `-x c++`, so that the file reads as the build compiles
# it. A kernel file the GPU build compiles keeps nvcc's own entry. Run by the build
# after each generation (target kernel_compile_commands); rewrites the file only when
# something changes.
cmake_minimum_required(VERSION 3.20)  # policies of the project (IN_LIST)
if(NOT EXISTS "${DATABASE}")
  return()
endif()
file(READ "${DATABASE}" database)
string(JSON count ERROR_VARIABLE error LENGTH "${database}")
if(error OR count EQUAL 0)
  return()
endif()

math(EXPR last "${count} - 1")
set(files "")
set(wrappers "")
foreach(index RANGE ${last})
  string(JSON file GET "${database}" ${index} file)
  list(APPEND files "${file}")
  if(file MATCHES "/sim_sources/[^/]*\\.cpp$")
    list(APPEND wrappers ${index})
  endif()
endforeach()

set(added 0)
foreach(index IN LISTS wrappers)
  string(JSON entry GET "${database}" ${index})
  string(JSON wrapper GET "${entry}" file)
  if(NOT EXISTS "${wrapper}")
    continue()
  endif()
  # The wrapper's one include names the kernel file.
  file(STRINGS "${wrapper}" include REGEX "^#include \"")
  string(REGEX REPLACE "^#include \"(.*)\"$" "\\1" kernel "${include}")
  if(NOT kernel MATCHES "\\.cu$" OR kernel IN_LIST files)
    continue()
  endif()
  string(JSON command GET "${entry}" command)
  string(REPLACE "${wrapper}" "-x c++ ${kernel}" command "${command}")
  # JSON strings: backslashes escaped first, then quotes.
  string(REPLACE "\\" "\\\\" command "${command}")
  string(REPLACE "\"" "\\\"" command "${command}")
  string(REPLACE "\\" "\\\\" kernel_json "${kernel}")
  string(REPLACE "\"" "\\\"" kernel_json "${kernel_json}")
  string(JSON entry SET "${entry}" file "\"${kernel_json}\"")
  string(JSON entry SET "${entry}" command "\"${command}\"")
  string(JSON entry ERROR_VARIABLE no_output REMOVE "${entry}" output)
  # Appended at the end, so the wrappers' indices above stay valid.
  string(JSON database SET "${database}" ${count} "${entry}")
  math(EXPR count "${count} + 1")
  math(EXPR added "${added} + 1")
  list(APPEND files "${kernel}")
endforeach()

if(added GREATER 0)
  file(WRITE "${DATABASE}" "${database}\n")
  message(STATUS "compile_commands.json: ${added} kernel files added, each compiled as C++")
endif()
