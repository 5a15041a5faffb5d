// SPDX-License-Identifier: GPL-2.0
/*
 * lupe sched latency's table in perf 6.1's shape: one line a task (or a
 * name's tasks, "comm:(N)"), runtime, switches, average and maximum delay
 * and when the maximum began and ended; the totals; perf's INFO lines.
 * Tasks that never waited and the idle task are left out, as perf does.
 */
#include <inttypes.h>
#include <string.h>
#include "sched-lat.h"

static void usec_time(char *buf, size_t size, uint64_t ns)
{
	snprintf(buf, size, "%" PRIu64 ".%06" PRIu64, ns / 1000000000, ns % 1000000000 / 1000);
}

void sched_print_latency(FILE *out, const struct lupe_sched_lat_result *res)
{
	uint64_t all_runtime = 0, all_count = 0;

	fprintf(out, "\n -------------------------------------------------------------------------------------------------------------------------------------------\n");
	fprintf(out, "  Task                  |   Runtime ms  | Switches | Avg delay ms    | Max delay ms    | Max delay start           | Max delay end          |\n");
	fprintf(out, " -------------------------------------------------------------------------------------------------------------------------------------------\n");
	for (size_t i = 0; i < res->nr; i++) {
		const struct lupe_sched_lat *e = &res->v[i];
		char start[32], end[32];
		int n;

		if (!e->switches || !strcmp(e->comm, "swapper"))
			continue;
		all_runtime += e->runtime;
		all_count += e->switches;
		if (e->num_merged > 1)
			n = fprintf(out, "  %s:(%d) ", e->comm, e->num_merged);
		else
			n = fprintf(out, "  %s:%d ", e->comm, e->tid);
		for (int k = 0; k < 24 - n; k++)
			fputc(' ', out);
		usec_time(start, sizeof(start), e->max_lat_start);
		usec_time(end, sizeof(end), e->max_lat_end);
		fprintf(out, "|%11.3f ms |%9" PRIu64 " | avg:%8.3f ms | max:%8.3f ms | max start: %12s s | max end: %12s s\n",
			(double)e->runtime / 1e6, e->switches,
			(double)(e->total_lat / e->switches) / 1e6, (double)e->max_lat / 1e6, start, end);
	}
	fprintf(out, " -----------------------------------------------------------------------------------------------------------------\n");
	fprintf(out, "  TOTAL:                |%11.3f ms |%9" PRIu64 " |\n", (double)all_runtime / 1e6, all_count);
	fprintf(out, " ---------------------------------------------------\n");
	if (res->nr_unordered && res->nr_timestamps)
		fprintf(out, "  INFO: %.3f%% unordered timestamps (%lu out of %lu)\n",
			(double)res->nr_unordered / (double)res->nr_timestamps * 100.0,
			res->nr_unordered, res->nr_timestamps);
	if (res->nr_lost_events && res->nr_events)
		fprintf(out, "  INFO: %.3f%% lost events (%lu out of %lu, in %lu chunks)\n",
			(double)res->nr_lost_events / (double)res->nr_events * 100.0,
			res->nr_lost_events, res->nr_events, res->nr_lost_chunks);
	if (res->nr_switch_bugs && res->nr_timestamps) {
		fprintf(out, "  INFO: %.3f%% context switch bugs (%lu out of %lu)",
			(double)res->nr_switch_bugs / (double)res->nr_timestamps * 100.0,
			res->nr_switch_bugs, res->nr_timestamps);
		if (res->nr_lost_events)
			fprintf(out, " (due to lost events?)");
		fputc('\n', out);
	}
	fputc('\n', out);
}
