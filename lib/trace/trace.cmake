# lupe trace's build pieces: the syscall number table, generated from the
# C library's <sys/syscall.h>, and (with BPF) the capture program
# (lib/bpf/bpf.cmake builds it).
set(LUPE_GEN_DIR ${CMAKE_BINARY_DIR}/gen)
file(MAKE_DIRECTORY ${LUPE_GEN_DIR})
add_custom_command(OUTPUT ${LUPE_GEN_DIR}/syscalltbl.h
  COMMAND sh -c "echo '#include <sys/syscall.h>' | ${CMAKE_C_COMPILER} -E -dM -x c - | sed -n 's/^#define __NR_\\([a-z0-9_]*\\) \\([0-9][0-9]*\\)$/SC(\\1, \\2)/p' | sort -t, -k2 -n > ${LUPE_GEN_DIR}/syscalltbl.h"
  VERBATIM)
add_custom_target(lupe-syscalltbl DEPENDS ${LUPE_GEN_DIR}/syscalltbl.h)
add_dependencies(liblupe lupe-syscalltbl)
target_include_directories(liblupe PRIVATE ${LUPE_GEN_DIR})

if(LUPE_HAVE_BPF)
  lupe_bpf_program(lupe-bpf-skel ${CMAKE_SOURCE_DIR}/lib/bpf/syscalls.bpf.c
    ${CMAKE_SOURCE_DIR}/lib/bpf/syscall-rec.h syscalls lupe_sc)
endif()

# the reader's ASan build compiles every lib source again
if(TARGET test-reader-asan)
  add_dependencies(test-reader-asan lupe-syscalltbl)
  target_include_directories(test-reader-asan PRIVATE ${LUPE_GEN_DIR})
endif()
