# lupe stat --func's BPF program (func.bpf.c), built as lib/trace/trace.cmake
# builds the syscall capture (whose vmlinux.h it shares), embedded through
# its bpftool skeleton func.skel.h.
if(LUPE_HAVE_BPF)
  set(func_obj ${LUPE_GEN_DIR}/func.bpf.o)
  add_custom_command(OUTPUT ${func_obj}
    COMMAND ${CLANG} -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall
      -I${LUPE_GEN_DIR} -I${CMAKE_SOURCE_DIR}/lib/func
      -c ${CMAKE_SOURCE_DIR}/lib/func/func.bpf.c -o ${func_obj}
    DEPENDS ${CMAKE_SOURCE_DIR}/lib/func/func.bpf.c ${CMAKE_SOURCE_DIR}/lib/func/func-rec.h
      ${LUPE_GEN_DIR}/vmlinux.h)
  add_custom_command(OUTPUT ${LUPE_GEN_DIR}/func.skel.h
    COMMAND sh -c "${BPFTOOL} gen skeleton ${func_obj} name lupe_fc > ${LUPE_GEN_DIR}/func.skel.h"
    DEPENDS ${func_obj} VERBATIM)
  add_custom_target(lupe-func-skel DEPENDS ${LUPE_GEN_DIR}/func.skel.h)
  foreach(t liblupe test-reader-asan test-machine-asan)
    if(TARGET ${t})
      add_dependencies(${t} lupe-func-skel)
      target_include_directories(${t} PRIVATE ${LUPE_GEN_DIR})
    endif()
  endforeach()
endif()
