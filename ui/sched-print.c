// SPDX-License-Identifier: GPL-2.0
/*
 * lupe sched timehist's lines in perf 6.1's shape: the time, [CPU], with
 * -V a column per CPU ('s' a switch, 'i' the idle task), the task as
 * comm[tid] or comm[tid/pid] in a column at least 30 wide, then wait, delay
 * and run time in milliseconds; with -w the wake-ups, "awakened: TASK".
 *
 * lupe sched map's lines: per CPU its task's short name, '*' on the CPU
 * that switched, then the time and, when a task is new or renamed,
 * "A0 => comm:tid".
 *
 * lupe sched latency's table in perf 6.1's shape: one line a task (or a
 * name's tasks, "comm:(N)"), runtime, switches, average and maximum delay
 * and when the maximum began and ended; the totals; perf's INFO lines.
 * Tasks that never waited and the idle task are left out, as perf does.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include "sched-print.h"

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

static const char dots[] = "------------------------------------------------------------------"
			   "------------------------------------------------------------------";

static const char *commstr(struct timehist_printer *p, const char *comm, int tid, int pid,
			   char *buf, size_t size)
{
	int n;

	if (pid == 0)
		n = snprintf(buf, size, "%s", comm);
	else if (tid != pid)
		n = snprintf(buf, size, "%s[%d/%d]", comm, tid, pid);
	else
		n = snprintf(buf, size, "%s[%d]", comm, tid);
	if (n > p->comm_width)
		p->comm_width = n;
	return buf;
}

static void header(struct timehist_printer *p, int ncpus)
{
	FILE *o = p->out;

	p->header_done = 1;
	fprintf(o, "%15s %6s ", "time", "cpu");
	if (p->cpu_visual) {
		fputc(' ', o);
		for (int i = 0, j = 0; i < ncpus; ++i) {
			fprintf(o, "%x", j++);
			if (j > 15)
				j = 0;
		}
		fputc(' ', o);
	}
	fprintf(o, " %-*s  %9s  %9s  %9s\n", p->comm_width, "task name", "wait time", "sch delay",
		"run time");
	fprintf(o, "%15s %-6s ", "", "");
	if (p->cpu_visual)
		fprintf(o, " %*s ", ncpus, "");
	fprintf(o, " %-*s  %9s  %9s  %9s\n", p->comm_width, "[tid/pid]", "(msec)", "(msec)", "(msec)");
	fprintf(o, "%.15s %.6s ", dots, dots);
	if (p->cpu_visual)
		fprintf(o, " %.*s ", ncpus, dots);
	fprintf(o, " %.*s  %.9s  %.9s  %.9s\n", p->comm_width, dots, dots, dots, dots);
}

static void ms(FILE *o, uint64_t ns)
{
	uint64_t msecs = ns / 1000000;

	fprintf(o, "%6" PRIu64 ".%03" PRIu64 " ", msecs, (ns - msecs * 1000000) / 1000);
}

int sched_print_timehist_line(const struct lupe_sched_th_line *l, void *arg)
{
	struct timehist_printer *p = arg;
	char tstr[32], buf[64];
	FILE *o = p->out;
	int ncpus = l->max_cpu + 1;

	if (!p->header_done)
		header(p, ncpus);
	usec_time(tstr, sizeof(tstr), l->time);
	if (l->lost) {
		fprintf(o, "%15s lost %" PRIu64 " events on cpu %d\n", tstr, l->lost, l->cpu);
		return ferror(o) ? -EIO : 0;
	}
	fprintf(o, "%15s [%04d] ", tstr, l->cpu);
	if (l->wakeup) {
		if (p->cpu_visual)
			fprintf(o, " %*s ", ncpus, "");
		fprintf(o, " %-*s ", p->comm_width, commstr(p, l->comm, l->tid, l->pid, buf, sizeof(buf)));
		fprintf(o, "  %9s  %9s  %9s ", "", "", "");
		fprintf(o, "awakened: %s\n", commstr(p, l->wcomm, l->wtid, l->wpid, buf, sizeof(buf)));
		return ferror(o) ? -EIO : 0;
	}
	if (p->cpu_visual) {
		fputc(' ', o);
		for (int i = 0; i < ncpus; ++i)
			fputc(i == l->cpu ? (l->tid == 0 ? 'i' : 's') : ' ', o);
		fputc(' ', o);
	}
	fprintf(o, " %-*s ", p->comm_width, commstr(p, l->comm, l->tid, l->pid, buf, sizeof(buf)));
	ms(o, l->wait);
	ms(o, l->delay);
	ms(o, l->run);
	if (p->wakeups)
		fprintf(o, "  %-*s", p->comm_width, "");
	fputc('\n', o);
	return ferror(o) ? -EIO : 0;
}

void sched_print_timehist_end(struct timehist_printer *p, int max_cpu)
{
	if (!p->header_done)
		header(p, max_cpu + 1);
}

int sched_print_map_line(const struct lupe_sched_map_line *l, void *arg)
{
	FILE *o = arg;
	char ts[32];

	fputs("  ", o);
	for (int i = 0; i < l->nr_cpus; i++) {
		fputc(i == l->cpu ? '*' : ' ', o);
		if (l->cells[i])
			fprintf(o, "%2s ", l->cells[i]);
		else
			fputs("   ", o);
	}
	usec_time(ts, sizeof(ts), l->time);
	fprintf(o, "  %12s secs ", ts);
	if (l->comm)
		fprintf(o, "%s => %s:%d", l->shortname, l->comm, l->tid);
	fputc('\n', o);
	return ferror(o) ? -EIO : 0;
}

void sched_print_map_end(FILE *o, const struct lupe_sched_lost *l)
{
	if (l->nr_lost_events && l->nr_events)
		fprintf(o, "  INFO: %.3f%% lost events (%lu out of %lu, in %lu chunks)\n",
			(double)l->nr_lost_events / (double)l->nr_events * 100.0, l->nr_lost_events,
			l->nr_events, l->nr_lost_chunks);
}
