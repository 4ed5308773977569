# zlib from the Debian source package (scripts/setup fetches it into third_party/), compiled into
# the app for share links. The same sources serve the native build (tests, fuzzers) and the web,
# so what the fuzzer exercises is what the page runs.
set(HEADLAB_ZLIB_DIR "${HEADLAB_THIRD_PARTY}/zlib-1.2.13")
if(NOT EXISTS "${HEADLAB_ZLIB_DIR}/inflate.c")
  message(FATAL_ERROR "zlib sources not found in ${HEADLAB_ZLIB_DIR}: run scripts/setup")
endif()
add_library(headlab_zlib STATIC
  ${HEADLAB_ZLIB_DIR}/adler32.c
  ${HEADLAB_ZLIB_DIR}/crc32.c
  ${HEADLAB_ZLIB_DIR}/deflate.c
  ${HEADLAB_ZLIB_DIR}/inffast.c
  ${HEADLAB_ZLIB_DIR}/inflate.c
  ${HEADLAB_ZLIB_DIR}/inftrees.c
  ${HEADLAB_ZLIB_DIR}/trees.c
  ${HEADLAB_ZLIB_DIR}/zutil.c)
target_include_directories(headlab_zlib SYSTEM PUBLIC "${HEADLAB_ZLIB_DIR}")
# Third-party code: its warnings are not ours to fix. Only the in-memory stream sources are listed
# (no gz* file functions).
target_compile_options(headlab_zlib PRIVATE -w)
set_target_properties(headlab_zlib PROPERTIES POSITION_INDEPENDENT_CODE ON)
