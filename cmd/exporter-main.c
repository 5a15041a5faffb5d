// SPDX-License-Identifier: GPL-2.0
/*
 * lupe-exporter: `lupe exporter` as an executable of its own, which lupe
 * runs (see HELPER in main.c). Linked with only what the exporter uses, so
 * the daemon does not map the disassembler, the DWARF, BPF and TUI
 * libraries: its resident memory is what scripts/bench/exporter measures.
 */
#include "builtin.h"

int main(int argc, char **argv)
{
	cmd_setup();
	return cmd_exporter(argc, argv);
}
