/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The records lupe's syscall BPF program sends through its ring buffer, and
 * the settings it reads from .rodata. Shared by the BPF side (built against
 * vmlinux.h) and the loader, so it uses only __u types and no libc.
 */
#ifndef LUPE_BPF_SYSCALL_REC_H
#define LUPE_BPF_SYSCALL_REC_H

#define SC_MAX_NR     512  /* syscall numbers we know of are below this */
#define SC_PATH_MAX   256  /* bytes of a path argument captured */
#define SC_BUF_MAX    4096 /* bytes of any other buffer captured (-s bound) */
#define SC_STRUCT_MAX 256  /* bytes of a struct captured */
#define SC_SCRATCH    16384
#define SC_ARGV_MAX   16   /* argv entries captured */
#define SC_ENVP_MAX   256  /* envp entries counted */

enum sc_rec_kind {
	SC_REC_ENTER = 1,
	SC_REC_EXIT = 2,
	SC_REC_PROC_EXIT = 3, /* a traced process ended: args[0] its wait status */
};

/* What the program captures for one argument (per syscall, from userspace). */
enum sc_cap {
	SC_CAP_NONE = 0,
	SC_CAP_PATH,    /* NUL-terminated string, up to SC_PATH_MAX */
	SC_CAP_STR,     /* NUL-terminated string, up to max_strlen + 1 */
	SC_CAP_BUF_IN,  /* buffer read at entry, length in the argument lenarg */
	SC_CAP_BUF_OUT, /* buffer read at exit, length the return value */
	SC_CAP_STRUCT,  /* buffer read at entry, length in the argument lenarg (sockaddr) */
	SC_CAP_IN_FIXED,  /* a struct read at entry, size[] bytes */
	SC_CAP_OUT_FIXED, /* a struct read at exit when the call did not fail, size[] bytes */
	SC_CAP_ARGV,    /* NULL-terminated array of strings: each string, NUL-separated */
	SC_CAP_ENVP,    /* NULL-terminated array: only its length, as a __u32 */
};

struct sc_cap_spec {
	__u8 cap[6];    /* enum sc_cap for each argument */
	__s8 lenarg[6]; /* for BUF_IN/STRUCT: the argument holding the length */
	__u16 size[6];  /* for IN_FIXED/OUT_FIXED: the struct's size */
};

/* sc_item.arg of the command name, sent with a successful execve's exit */
#define SC_ITEM_COMM 255

/* One captured item inside a record, followed by len bytes, 8-aligned. */
struct sc_item {
	__u8 arg;
	__u8 truncated; /* the source was longer than what was read */
	__u16 len;
	__u32 pad;
};

struct sc_rec {
	__u16 kind;     /* enum sc_rec_kind */
	__u16 nitems;
	__u32 size;     /* the whole record */
	__u32 pid;      /* tgid */
	__u32 tid;
	__u64 time;     /* CLOCK_MONOTONIC ns */
	__s64 nr;
	__u64 args[6];  /* at exit: args[0] is the return value */
	/* then nitems struct sc_item, each followed by its bytes */
};

#endif
