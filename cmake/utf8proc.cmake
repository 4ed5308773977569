# utf8proc 2.8.0 from the Debian source package (scripts/setup fetches it into third_party/): the
# Unicode general categories (letter, number) the engine's BPE pre-tokenizer needs, the same table
# natively, under the fuzzers and in WASM. One C file; it includes its data table itself.
set(HEADLAB_UTF8PROC_DIR "${HEADLAB_THIRD_PARTY}/utf8proc-2.8.0")
if(NOT EXISTS "${HEADLAB_UTF8PROC_DIR}/utf8proc.c")
  message(FATAL_ERROR "utf8proc sources not found in ${HEADLAB_UTF8PROC_DIR}: run scripts/setup")
endif()
add_library(headlab_utf8proc STATIC "${HEADLAB_UTF8PROC_DIR}/utf8proc.c")
target_include_directories(headlab_utf8proc SYSTEM PUBLIC "${HEADLAB_UTF8PROC_DIR}")
target_compile_definitions(headlab_utf8proc PUBLIC UTF8PROC_STATIC)
# Third-party code: its warnings are not ours to fix.
target_compile_options(headlab_utf8proc PRIVATE -w)
