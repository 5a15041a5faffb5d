// SPDX-License-Identifier: GPL-2.0
/*
 * lupe lock's tables, in perf 6.1's shape: the contention table (contended,
 * total, max and average wait, then type and caller, or pid and comm) and
 * the report table (a 20-column name, then acquired, contended and the
 * waits). Times are scaled as perf scales them: "12.34 us".
 */
#include <stdint.h>
#include <string.h>
#include "lock.h"

static void print_time(FILE *out, uint64_t ns, int len)
{
	/* float, as perf divides: its rounding of 45.455 us is 45.46 */
	static const struct { float base; const char *unit; } table[] = {
		{ 1e9 * 3600, "h " }, { 1e9 * 60, "m " }, { 1e9, "s " }, { 1e6, "ms" }, { 1e3, "us" },
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if ((float)ns < table[i].base)
			continue;
		fprintf(out, "%*.2f %s", len - 3, (double)((float)ns / table[i].base), table[i].unit);
		return;
	}
	fprintf(out, "%*llu %s", len - 3, (unsigned long long)ns, "ns");
}

static void print_bad(const struct lock_print_opts *o, const struct lupe_lock *l, int bad,
		      int total)
{
	static const char *const name[4] = { "acquire", "acquired", "contended", "release" };
	unsigned int hist[4];
	unsigned int broken = lupe_lock_nr_bad(l, hist);

	if (o->quiet || (broken == 0 && o->verbose <= 0))
		return;
	fprintf(o->out, "\n=== output for debug===\n\n");
	fprintf(o->out, "bad: %d, total: %d\n", bad, total);
	fprintf(o->out, "bad rate: %.2f %%\n", total ? (double)bad / total * 100 : 0.0);
	fprintf(o->out, "histogram of events caused bad sequence\n");
	for (int i = 0; i < 4; i++)
		fprintf(o->out, " %10s: %u\n", name[i], hist[i]);
}

void lock_print_contention(const struct lock_print_opts *o, struct lupe_lock_stat **v, size_t nr,
			   const struct lupe_lock *l)
{
	int bad = 0, total = 0, printed = 0;

	if (!o->quiet) {
		fprintf(o->out, "%10s %12s %12s %12s ", "contended", "total wait", "max wait",
			"avg wait");
		if (o->threads)
			fprintf(o->out, "  %10s   %s\n\n", "pid", "comm");
		else
			fprintf(o->out, "  %10s   %s\n\n", "type", "caller");
	}
	for (size_t i = 0; i < nr; i++) {
		const struct lupe_lock_stat *st = v[i];

		total++;
		bad += st->broken;
		fprintf(o->out, "%10u ", st->nr_contended);
		print_time(o->out, st->wait_total, 12);
		fputc(' ', o->out);
		print_time(o->out, st->wait_max, 12);
		fputc(' ', o->out);
		print_time(o->out, st->avg_wait, 12);
		fputc(' ', o->out);
		if (o->threads)
			fprintf(o->out, "  %10d   %s\n", (int)st->key, st->name);
		else
			fprintf(o->out, "  %10s   %s\n", lupe_lock_type_str(st->flags), st->name);
		if (o->entries && ++printed >= o->entries)
			break;
	}
	print_bad(o, l, bad, total);
}

void lock_print_report(const struct lock_print_opts *o, struct lupe_lock_stat **v, size_t nr,
		       const struct lupe_lock *l)
{
	int bad = 0, total = 0, printed = 0;

	if (!o->quiet) {
		fprintf(o->out, "%20s %10s %10s %12s %12s %12s %12s \n\n", "Name", "acquired",
			"contended", "avg wait", "total wait", "max wait", "min wait");
	}
	for (size_t i = 0; i < nr; i++) {
		const struct lupe_lock_stat *st = v[i];

		total++;
		bad += st->broken;
		if (strlen(st->name) < 20)
			fprintf(o->out, "%20s ", st->name);
		else
			fprintf(o->out, " %.16s... ", st->name);
		fprintf(o->out, "%10u %10u ", st->nr_acquired, st->nr_contended);
		print_time(o->out, st->avg_wait, 12);
		fputc(' ', o->out);
		print_time(o->out, st->wait_total, 12);
		fputc(' ', o->out);
		print_time(o->out, st->wait_max, 12);
		fputc(' ', o->out);
		print_time(o->out, st->wait_min == UINT64_MAX ? 0 : st->wait_min, 12);
		fputs(" \n", o->out);
		if (o->entries && ++printed >= o->entries)
			break;
	}
	print_bad(o, l, bad, total);
}
