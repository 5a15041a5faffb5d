// SPDX-License-Identifier: GPL-2.0
/* Built without libbpf: the programs loaded before a recording are not listed. */
#include "record/bpf-synth.h"

int lupe_synth_bpf(const struct synth *s)
{
	(void)s;
	return 0;
}
