# lupe's BPF programs: each is built by clang -target bpf against a vmlinux.h
# dumped from the running kernel's BTF, and embedded in liblupe through its
# bpftool skeleton (gen/NAME.skel.h, skeleton prefix SKEL).
#
# Several targets' rules make vmlinux.h (a Makefile build runs a shared
# custom command once per target that needs it), so it is written to a
# temporary file and renamed: a compiler never reads a half-written header
# (clang crashed on one when two programs were built at once).
set(LUPE_GEN_DIR ${CMAKE_BINARY_DIR}/gen)
file(MAKE_DIRECTORY ${LUPE_GEN_DIR})
if(LUPE_HAVE_BPF)
  add_custom_command(OUTPUT ${LUPE_GEN_DIR}/vmlinux.h
    COMMAND sh -c "t=$(mktemp ${LUPE_GEN_DIR}/vmlinux.h.XXXXXX) && ${BPFTOOL} btf dump file /sys/kernel/btf/vmlinux format c > $t && mv -f $t ${LUPE_GEN_DIR}/vmlinux.h"
    VERBATIM)
endif()

# lupe_bpf_program(TARGET SOURCE HEADER NAME SKEL): the custom target TARGET
# makes gen/NAME.skel.h from SOURCE (which includes HEADER, next to it);
# liblupe and the ASan unit tests that compile lib/ again depend on it.
function(lupe_bpf_program target src hdr name skel)
  get_filename_component(dir ${src} DIRECTORY)
  set(obj ${LUPE_GEN_DIR}/${name}.bpf.o)
  add_custom_command(OUTPUT ${obj}
    COMMAND ${CLANG} -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall
      -I${LUPE_GEN_DIR} -I${dir} -c ${src} -o ${obj}
    DEPENDS ${src} ${hdr} ${LUPE_GEN_DIR}/vmlinux.h)
  add_custom_command(OUTPUT ${LUPE_GEN_DIR}/${name}.skel.h
    COMMAND sh -c "${BPFTOOL} gen skeleton ${obj} name ${skel} > ${LUPE_GEN_DIR}/${name}.skel.h"
    DEPENDS ${obj} VERBATIM)
  add_custom_target(${target} DEPENDS ${LUPE_GEN_DIR}/${name}.skel.h)
  foreach(t liblupe test-reader-asan test-machine-asan)
    if(TARGET ${t})
      add_dependencies(${t} ${target})
      target_include_directories(${t} PRIVATE ${LUPE_GEN_DIR})
    endif()
  endforeach()
endfunction()
