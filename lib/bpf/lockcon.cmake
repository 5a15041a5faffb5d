# lock contention -b's BPF program (lib/bpf/lockcon.bpf.c).
if(LUPE_HAVE_BPF)
  lupe_bpf_program(lupe-lockcon-skel ${CMAKE_SOURCE_DIR}/lib/bpf/lockcon.bpf.c
    "${CMAKE_SOURCE_DIR}/lib/bpf/lockcon-rec.h;${CMAKE_SOURCE_DIR}/lib/bpf/tasks.bpf.h;${CMAKE_SOURCE_DIR}/lib/bpf/stacks.bpf.h" lockcon lupe_lockcon_bpf)
endif()
