# Locates the Debian-packaged dependencies listed in DESIGN.md. Nothing is downloaded.
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(fmt REQUIRED)

find_path(CLI11_INCLUDE_DIR CLI/CLI.hpp REQUIRED)
find_path(NLOHMANN_JSON_INCLUDE_DIR nlohmann/json.hpp REQUIRED)
# toml++ is used header-only; the GPU machine gets its headers carried in .deps/ (bench/run-gpu.sh).
find_path(TOMLPP_INCLUDE_DIR toml++/toml.h HINTS ${CMAKE_SOURCE_DIR}/.deps/tomlpp/usr/include REQUIRED)

add_library(gluon_host_deps INTERFACE)
target_include_directories(gluon_host_deps SYSTEM INTERFACE
  ${CLI11_INCLUDE_DIR} ${NLOHMANN_JSON_INCLUDE_DIR} ${TOMLPP_INCLUDE_DIR})
target_compile_definitions(gluon_host_deps INTERFACE TOML_HEADER_ONLY=1 TOML_EXCEPTIONS=1)
target_link_libraries(gluon_host_deps INTERFACE fmt::fmt)

if(GLUON_MPI)
  find_package(MPI COMPONENTS CXX)
  if(NOT MPI_CXX_FOUND)
    message(WARNING "MPI not found (install libopenmpi-dev): building the single-process communicator only")
    set(GLUON_MPI OFF CACHE BOOL "" FORCE)
  endif()
endif()

# NCCL (device buffers between GPUs) needs the CUDA build and MPI to bootstrap it.
set(GLUON_NCCL OFF)
if(GLUON_CUDA AND GLUON_MPI)
  find_path(NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS} /usr/include)
  find_library(NCCL_LIBRARY nccl HINTS ${CUDAToolkit_LIBRARY_DIR} /usr/lib/x86_64-linux-gnu)
  if(NCCL_INCLUDE_DIR AND NCCL_LIBRARY)
    set(GLUON_NCCL ON)
  else()
    message(WARNING "NCCL not found: multi-GPU runs will stage halos through host memory over MPI")
  endif()
endif()

# OpenBLAS (CPU DGEMM/DTRSM of the Linpack update): the pthread flavour, with its cblas.h.
find_path(CBLAS_INCLUDE_DIR cblas.h PATH_SUFFIXES x86_64-linux-gnu/openblas-pthread openblas-pthread openblas)
find_library(OPENBLAS_LIBRARY NAMES openblas openblasp-r0.3.21 PATH_SUFFIXES openblas-pthread
             HINTS /usr/lib/x86_64-linux-gnu/openblas-pthread)
if(NOT CBLAS_INCLUDE_DIR OR NOT OPENBLAS_LIBRARY)
  message(FATAL_ERROR "OpenBLAS not found: install libopenblas-dev (scripts/install-deps.sh)")
endif()

if(GLUON_TESTS)
  find_package(GTest REQUIRED)
endif()
