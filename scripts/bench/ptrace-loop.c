// SPDX-License-Identifier: GPL-2.0
/*
 * ptrace-loop: the ptrace way of counting calls, for scripts/bench/func to
 * compare with: a breakpoint at a function's entry and one at its return
 * address, two stops per call (three with the single step that puts the
 * entry breakpoint back), as tools built on ptrace do. Single-threaded
 * programs only; that is the point of the comparison, not a tool.
 *
 * usage: ptrace-loop VADDR PROGRAM [ARGS...]
 *   VADDR  the function's address in the program's ELF (st_value; PIE ok)
 * Prints "calls N" on stderr.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t child;

static uint64_t peek(uint64_t addr)
{
	return (uint64_t)ptrace(PTRACE_PEEKDATA, child, (void *)addr, NULL);
}

static void poke(uint64_t addr, uint64_t word)
{
	if (ptrace(PTRACE_POKEDATA, child, (void *)addr, (void *)word) < 0) {
		perror("ptrace-loop: poke");
		exit(1);
	}
}

static uint64_t with_int3(uint64_t word)
{
	return (word & ~0xffULL) | 0xcc;
}

/* The load address of the program's first mapping (file offset 0). */
static uint64_t load_base(const char *prog)
{
	char path[64], line[4096], real[4096];
	uint64_t base = 0;
	FILE *f;

	if (!realpath(prog, real))
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)child);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long lo, off;
		char name[4096] = "";

		if (sscanf(line, "%llx-%*x %*s %llx %*s %*s %4095s", &lo, &off, name) >= 2 &&
		    off == 0 && !strcmp(name, real)) {
			base = lo;
			break;
		}
	}
	if (f)
		fclose(f);
	return base;
}

int main(int argc, char **argv)
{
	uint64_t entry, ret = 0, entry_word, ret_word = 0, calls = 0;
	struct user_regs_struct regs;
	int status;

	if (argc < 3) {
		fprintf(stderr, "usage: ptrace-loop VADDR PROGRAM [ARGS...]\n");
		return 2;
	}
	child = fork();
	if (!child) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		execv(argv[2], argv + 2);
		_exit(127);
	}
	waitpid(child, &status, 0); /* stopped at exec */
	entry = strtoull(argv[1], NULL, 0);
	if (entry < load_base(argv[2]))
		entry += load_base(argv[2]); /* PIE: the ELF address is an offset */
	errno = 0;
	entry_word = peek(entry);
	if (errno) {
		perror("ptrace-loop: peek");
		return 1;
	}
	poke(entry, with_int3(entry_word));
	for (;;) {
		ptrace(PTRACE_CONT, child, NULL, NULL);
		if (waitpid(child, &status, 0) < 0 || WIFEXITED(status) || WIFSIGNALED(status))
			break;
		if (WSTOPSIG(status) != SIGTRAP) {
			ptrace(PTRACE_CONT, child, NULL, (void *)(long)WSTOPSIG(status));
			continue;
		}
		ptrace(PTRACE_GETREGS, child, NULL, &regs);
		if (regs.rip - 1 == entry) {
			/* entry: arm the return, step over the entry, re-arm it */
			calls++;
			ret = peek(regs.rsp);
			ret_word = peek(ret);
			poke(ret, with_int3(ret_word));
			poke(entry, entry_word);
			regs.rip = entry;
			ptrace(PTRACE_SETREGS, child, NULL, &regs);
			ptrace(PTRACE_SINGLESTEP, child, NULL, NULL);
			waitpid(child, &status, 0);
			poke(entry, with_int3(entry_word));
		} else if (ret && regs.rip - 1 == ret) {
			poke(ret, ret_word);
			regs.rip = ret;
			ptrace(PTRACE_SETREGS, child, NULL, &regs);
			ret = 0;
		}
	}
	fprintf(stderr, "calls %llu\n", (unsigned long long)calls);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
