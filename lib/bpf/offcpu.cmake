# record --off-cpu's BPF program (lib/bpf/offcpu.bpf.c).
if(LUPE_HAVE_BPF)
  lupe_bpf_program(lupe-offcpu-skel ${CMAKE_SOURCE_DIR}/lib/bpf/offcpu.bpf.c
    "${CMAKE_SOURCE_DIR}/lib/bpf/offcpu-rec.h;${CMAKE_SOURCE_DIR}/lib/bpf/tasks.bpf.h;${CMAKE_SOURCE_DIR}/lib/bpf/stacks.bpf.h" offcpu lupe_offcpu_bpf)
endif()
