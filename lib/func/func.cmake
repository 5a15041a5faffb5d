# lupe stat --func's BPF program (lib/func/func.bpf.c).
if(LUPE_HAVE_BPF)
  lupe_bpf_program(lupe-func-skel ${CMAKE_SOURCE_DIR}/lib/func/func.bpf.c
    ${CMAKE_SOURCE_DIR}/lib/func/func-rec.h func lupe_fc)
endif()
