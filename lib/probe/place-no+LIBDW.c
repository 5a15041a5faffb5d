// SPDX-License-Identifier: GPL-2.0
/* Without libdw no binary can be read: uprobes and -V are not supported. */
#include <errno.h>
#include <stdio.h>
#include <lupe/probe.h>
#include "probe/probe-internal.h"

int lupe_probe_place(struct lupe_probe *p)
{
	snprintf(p->why, sizeof(p->why), "lupe was built without libdw (install libdw-dev and rebuild)");
	return -LUPE_ERR_NOT_SUPPORTED;
}

int lupe_probe_vars(struct lupe_probe *p, char ***out)
{
	*out = NULL;
	return lupe_probe_place(p);
}

void lupe_probe_vars_delete(char **vars)
{
}

void lupe_probe_event_describe(struct lupe_probe_event *ev)
{
}
