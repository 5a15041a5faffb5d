# record --off-cpu's BPF program (lib/bpf/offcpu.bpf.c), built like trace's:
# clang -target bpf against vmlinux.h (made by lib/trace/trace.cmake), and
# a bpftool skeleton that embeds the object in liblupe.
if(LUPE_HAVE_BPF)
  set(offcpu_obj ${LUPE_GEN_DIR}/offcpu.bpf.o)
  add_custom_command(OUTPUT ${offcpu_obj}
    COMMAND ${CLANG} -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall
      -I${LUPE_GEN_DIR} -I${CMAKE_SOURCE_DIR}/lib/bpf
      -c ${CMAKE_SOURCE_DIR}/lib/bpf/offcpu.bpf.c -o ${offcpu_obj}
    DEPENDS ${CMAKE_SOURCE_DIR}/lib/bpf/offcpu.bpf.c ${CMAKE_SOURCE_DIR}/lib/bpf/offcpu-rec.h
      ${LUPE_GEN_DIR}/vmlinux.h)
  add_custom_command(OUTPUT ${LUPE_GEN_DIR}/offcpu.skel.h
    COMMAND sh -c "${BPFTOOL} gen skeleton ${offcpu_obj} name lupe_offcpu_bpf > ${LUPE_GEN_DIR}/offcpu.skel.h"
    DEPENDS ${offcpu_obj} VERBATIM)
  add_custom_target(lupe-offcpu-skel DEPENDS ${LUPE_GEN_DIR}/offcpu.skel.h)
  add_dependencies(liblupe lupe-offcpu-skel)
  if(TARGET test-reader-asan)
    add_dependencies(test-reader-asan lupe-offcpu-skel)
  endif()
endif()
