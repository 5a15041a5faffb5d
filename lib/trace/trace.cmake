# lupe trace's build pieces: the syscall number table, generated from the
# C library's <sys/syscall.h>, and (with BPF) the capture program: vmlinux.h
# from the running kernel's BTF, the object built by clang -target bpf, and
# its skeleton from bpftool, which embeds the object in the binary.
set(LUPE_GEN_DIR ${CMAKE_BINARY_DIR}/gen)
file(MAKE_DIRECTORY ${LUPE_GEN_DIR})
add_custom_command(OUTPUT ${LUPE_GEN_DIR}/syscalltbl.h
  COMMAND sh -c "echo '#include <sys/syscall.h>' | ${CMAKE_C_COMPILER} -E -dM -x c - | sed -n 's/^#define __NR_\\([a-z0-9_]*\\) \\([0-9][0-9]*\\)$/SC(\\1, \\2)/p' | sort -t, -k2 -n > ${LUPE_GEN_DIR}/syscalltbl.h"
  VERBATIM)
add_custom_target(lupe-syscalltbl DEPENDS ${LUPE_GEN_DIR}/syscalltbl.h)
add_dependencies(liblupe lupe-syscalltbl)
target_include_directories(liblupe PRIVATE ${LUPE_GEN_DIR})

if(LUPE_HAVE_BPF)
  set(btf /sys/kernel/btf/vmlinux)
  set(obj ${LUPE_GEN_DIR}/syscalls.bpf.o)
  add_custom_command(OUTPUT ${LUPE_GEN_DIR}/vmlinux.h
    COMMAND sh -c "${BPFTOOL} btf dump file ${btf} format c > ${LUPE_GEN_DIR}/vmlinux.h"
    VERBATIM)
  add_custom_command(OUTPUT ${obj}
    COMMAND ${CLANG} -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall
      -I${LUPE_GEN_DIR} -I${CMAKE_SOURCE_DIR}/lib/bpf
      -c ${CMAKE_SOURCE_DIR}/lib/bpf/syscalls.bpf.c -o ${obj}
    DEPENDS ${CMAKE_SOURCE_DIR}/lib/bpf/syscalls.bpf.c ${CMAKE_SOURCE_DIR}/lib/bpf/syscall-rec.h
      ${LUPE_GEN_DIR}/vmlinux.h)
  add_custom_command(OUTPUT ${LUPE_GEN_DIR}/syscalls.skel.h
    COMMAND sh -c "${BPFTOOL} gen skeleton ${obj} name lupe_sc > ${LUPE_GEN_DIR}/syscalls.skel.h"
    DEPENDS ${obj} VERBATIM)
  add_custom_target(lupe-bpf-skel DEPENDS ${LUPE_GEN_DIR}/syscalls.skel.h)
  add_dependencies(liblupe lupe-bpf-skel)
endif()

# the reader's ASan build compiles every lib source again
if(TARGET test-reader-asan)
  add_dependencies(test-reader-asan lupe-syscalltbl)
  target_include_directories(test-reader-asan PRIVATE ${LUPE_GEN_DIR})
  if(LUPE_HAVE_BPF)
    add_dependencies(test-reader-asan lupe-bpf-skel)
  endif()
endif()
