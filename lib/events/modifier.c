// SPDX-License-Identifier: GPL-2.0
/*
 * Event modifiers (":u", ":ppp", "{...}:S"), with perf 6.1's semantics: the
 * first of u/k/h excludes the other two levels, the first of G/H the other
 * of the pair, 'u' and 'p' also exclude guests unless G or H was given.
 */
#include <stdio.h>
#include <string.h>
#include "events/internal.h"

static const char modifier_chars[] = "ukhGHIpPSDWeb";

int lupe_modifier_check(const char *mod, size_t len, size_t *bad, char *msg, size_t msg_size)
{
	int precise = 0;

	for (size_t i = 0; i < len; i++) {
		if (!mod[i] || !strchr(modifier_chars, mod[i])) {
			*bad = i;
			snprintf(msg, msg_size, "unknown modifier '%c' (known: %s)", mod[i],
				 modifier_chars);
			return -1;
		}
		if (mod[i] == 'p') {
			if (++precise > 3) {
				*bad = 0;
				snprintf(msg, msg_size, "bad modifier '%.*s': at most three 'p'",
					 (int)len, mod);
				return -2;
			}
		} else if (memchr(mod + i + 1, mod[i], len - i - 1)) {
			*bad = 0;
			snprintf(msg, msg_size, "bad modifier '%.*s': '%c' given twice",
				 (int)len, mod, mod[i]);
			return -2;
		}
	}
	return 0;
}

int lupe_modifier_apply(struct lupe_event *ev, const char *mod, size_t len, bool add,
		   bool leader, size_t *bad, char *msg, size_t msg_size)
{
	struct perf_event_attr *a = &ev->attr;
	int eu = 0, ek = 0, eh = 0, eH = 0, eG = 0, eI = 0, precise = 0;
	int pinned = 0, exclusive = 0, exclude_GH = 0, exclude;
	bool sample_read = false, precise_max = false, weak = false, bpf = false;

	int ret = lupe_modifier_check(mod, len, bad, msg, msg_size);

	if (ret)
		return ret;
	if (add) {
		eu = a->exclude_user;
		ek = a->exclude_kernel;
		eh = a->exclude_hv;
		eH = a->exclude_host;
		eG = a->exclude_guest;
		eI = a->exclude_idle;
		precise = a->precise_ip;
		pinned = a->pinned;
		exclusive = a->exclusive;
		/* what G or H set before is remembered as exclude_host/guest being explicit */
		exclude_GH = ev->exclude_gh;
		/*
		 * S, P, W and b start afresh even here: perf's group modifier
		 * overwrites the members' own ("{a:S,b}:u" leaves a without S).
		 */
	}
	exclude = eu | ek | eh;
	for (size_t i = 0; i < len; i++) {
		switch (mod[i]) {
		case 'u':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			if (!exclude_GH)
				eG = 1;
			eu = 0;
			break;
		case 'k':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			ek = 0;
			break;
		case 'h':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			eh = 0;
			break;
		case 'G':
			if (!exclude_GH)
				exclude_GH = eG = eH = 1;
			eG = 0;
			break;
		case 'H':
			if (!exclude_GH)
				exclude_GH = eG = eH = 1;
			eH = 0;
			break;
		case 'I':
			eI = 1;
			break;
		case 'p':
			precise++;
			if (!exclude_GH)
				eG = 1;
			break;
		case 'P':
			precise_max = true;
			break;
		case 'S':
			sample_read = true;
			break;
		case 'D':
			pinned = 1;
			break;
		case 'e':
			exclusive = 1;
			break;
		case 'W':
			weak = true;
			break;
		case 'b':
			bpf = true;
			break;
		}
	}
	if (precise > 3) {
		*bad = 0;
		snprintf(msg, msg_size, "bad modifier '%.*s': precise level above 3", (int)len, mod);
		return -2;
	}
	a->exclude_user = eu;
	a->exclude_kernel = ek;
	a->exclude_hv = eh;
	a->precise_ip = precise;
	a->exclude_host = eH;
	a->exclude_guest = eG;
	a->exclude_idle = eI;
	ev->exclude_gh = exclude_GH;
	ev->sample_read = sample_read;
	ev->precise_max = precise_max;
	ev->weak_group = weak;
	ev->bpf_counter = bpf;
	if (leader) {
		a->pinned = pinned;
		a->exclusive = exclusive;
	}
	return 0;
}
