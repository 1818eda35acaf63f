# Finds what the build needs and decides the backends (WB_BACKENDS: sim, cuda or both).
# A missing package stops the configure with the apt line that installs it; nothing is
# downloaded.

set(WB_APT_PACKAGES "cmake g++ make libgtest-dev libboost-context-dev doxygen")

if(NOT WB_BACKEND MATCHES "^(auto|cuda|sim)$")
  message(FATAL_ERROR "WB_BACKEND=${WB_BACKEND}: expected auto, cuda or sim")
endif()

set(WB_BACKENDS "")
if(WB_BACKEND STREQUAL "auto" OR WB_BACKEND STREQUAL "sim")
  list(APPEND WB_BACKENDS sim)
endif()

# Whether a GPU answers here: check-chapterN then grades on it too.
set(WB_GPU_PRESENT OFF)
execute_process(COMMAND nvidia-smi -L RESULT_VARIABLE gpu_status OUTPUT_VARIABLE gpu_list ERROR_QUIET)
if(gpu_status EQUAL 0 AND gpu_list MATCHES "GPU")
  set(WB_GPU_PRESENT ON)
endif()

# `auto` builds the GPU backend where nvcc is found and it has a use: a GPU to run on, or
# the maintainers' tests (which compare its PTX and build every GPU program). A learner
# with nvcc and no GPU would only wait for nvcc's objects, and for its probes at
# configure time; `-DWB_BACKEND=cuda` still builds it anywhere.
set(wb_want_cuda OFF)
if(WB_BACKEND STREQUAL "cuda")
  set(wb_want_cuda ON)
elseif(WB_BACKEND STREQUAL "auto")
  if(WB_GPU_PRESENT OR WB_MAINTAINER_TESTS)
    set(wb_want_cuda ON)
  else()
    message(STATUS "wb: no GPU answers here: building the CPU simulator backend only "
                   "(a GPU's machine, or -DWB_BACKEND=cuda, builds the GPU backend too)")
  endif()
endif()

if(wb_want_cuda)
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES "80;90" CACHE STRING "GPU architectures to build for")
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    list(APPEND WB_BACKENDS cuda)
    message(STATUS "wb: a GPU answers here: ${WB_GPU_PRESENT}")
  elseif(WB_BACKEND STREQUAL "cuda")
    message(FATAL_ERROR
      "WB_BACKEND=cuda but no CUDA compiler (nvcc) was found. Install the CUDA Toolkit "
      "and put nvcc on PATH (or set CMAKE_CUDA_COMPILER), or configure with "
      "-DWB_BACKEND=sim to run the kernels in the CPU simulator.")
  else()
    message(STATUS "wb: nvcc not found: building the CPU simulator backend only")
  endif()
endif()

find_package(Threads REQUIRED)
find_package(GTest CONFIG QUIET)
if(NOT GTest_FOUND)
  find_package(GTest QUIET)
endif()
if(NOT GTest_FOUND)
  message(FATAL_ERROR
    "GoogleTest not found. On Debian or Ubuntu: sudo apt-get install libgtest-dev\n"
    "(everything the workbook needs: sudo apt-get install ${WB_APT_PACKAGES})")
endif()

if("sim" IN_LIST WB_BACKENDS)
  # CONFIG mode: Boost's own package files (FindBoost is deprecated since CMake 3.30).
  find_package(Boost 1.69 CONFIG QUIET COMPONENTS context)
  # A Boost install without the compiled context library still has a BoostConfig.
  if(Boost_FOUND AND TARGET Boost::context)
    set(WB_SIM_FIBERS "Boost.Context")
  else()
    set(WB_SIM_FIBERS "ucontext")
    message(STATUS
      "wb: Boost.Context not found: the simulator switches fibers with ucontext, about "
      "40 times slower. To install it: sudo apt-get install libboost-context-dev")
  endif()
endif()

message(STATUS "wb: backends: ${WB_BACKENDS}")
if(WB_SIM_FIBERS)
  message(STATUS "wb: simulator fibers: ${WB_SIM_FIBERS}")
endif()
