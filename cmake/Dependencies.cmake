# Dependencies come from Debian packages; nothing is vendored or downloaded.
#   nlohmann-json3-dev  -> nlohmann/json.hpp
#   libxxhash-dev       -> xxhash.h (used header-only: XXH_INLINE_ALL)
#   catch2 (v2)         -> catch2/catch.hpp (native tests only)
if(EMSCRIPTEN OR CMAKE_CROSSCOMPILING)
  # A cross compiler (Emscripten, mingw-w64, aarch64) must never see the host's /usr/include: it
  # would pull glibc's headers into the build. The header-only libraries are the same for every
  # target, so they come from a directory holding only them (symlinks to the host's copies).
  set(ATHENA_HEADERS_INCLUDE "${CMAKE_BINARY_DIR}/third_party_include")
  file(MAKE_DIRECTORY "${ATHENA_HEADERS_INCLUDE}")
  find_path(ATHENA_NLOHMANN_DIR nlohmann/json.hpp PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH NO_DEFAULT_PATH REQUIRED)
  find_path(ATHENA_XXHASH_DIR xxhash.h PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH NO_DEFAULT_PATH REQUIRED)
  file(CREATE_LINK "${ATHENA_NLOHMANN_DIR}/nlohmann" "${ATHENA_HEADERS_INCLUDE}/nlohmann" SYMBOLIC)
  file(CREATE_LINK "${ATHENA_XXHASH_DIR}/xxhash.h" "${ATHENA_HEADERS_INCLUDE}/xxhash.h" SYMBOLIC)
  add_library(athena_third_party INTERFACE)
  target_include_directories(athena_third_party SYSTEM INTERFACE "${ATHENA_HEADERS_INCLUDE}")
  if(NOT EMSCRIPTEN)
    # Catch2 v2 is one header too; its CMake helpers (include(Catch)) come from the host's copy,
    # its imported target (which names /usr/include) is not used.
    find_path(ATHENA_CATCH2_DIR catch2/catch.hpp PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH NO_DEFAULT_PATH REQUIRED)
    find_path(ATHENA_CATCH2_CMAKE Catch.cmake PATHS /usr/lib/cmake/Catch2 /usr/share/cmake/Catch2 NO_CMAKE_FIND_ROOT_PATH NO_DEFAULT_PATH REQUIRED)
    file(CREATE_LINK "${ATHENA_CATCH2_DIR}/catch2" "${ATHENA_HEADERS_INCLUDE}/catch2" SYMBOLIC)
    list(APPEND CMAKE_MODULE_PATH "${ATHENA_CATCH2_CMAKE}")
    add_library(Catch2::Catch2 INTERFACE IMPORTED)
    target_include_directories(Catch2::Catch2 SYSTEM INTERFACE "${ATHENA_HEADERS_INCLUDE}")
  endif()
else()
  find_package(nlohmann_json 3.10 REQUIRED)
  find_path(ATHENA_XXHASH_DIR xxhash.h REQUIRED)
  add_library(athena_third_party INTERFACE)
  target_link_libraries(athena_third_party INTERFACE nlohmann_json::nlohmann_json)
  target_include_directories(athena_third_party SYSTEM INTERFACE "${ATHENA_XXHASH_DIR}")
  find_package(Catch2 2 REQUIRED)
endif()

function(athena_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  if(ATHENA_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
