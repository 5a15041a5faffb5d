// SPDX-License-Identifier: GPL-2.0
/* How `lupe list` looks: perf's columns, or JSON. */
#include <string.h>
#include "event-list.h"

int ui_event_list_print(FILE *f, const struct lupe_event_desc_list *l, bool paged)
{
	char both[512];

	for (size_t i = 0; i < l->nr; i++) {
		const struct lupe_event_desc *d = &l->descs[i];
		const char *name = d->name;

		if (d->alias) {
			snprintf(both, sizeof(both), "%s OR %s", d->name, d->alias);
			name = both;
		}
		fprintf(f, "  %-50s [%s]\n", name, lupe_event_kind_desc(d->kind));
		if (!paged || (i + 1 < l->nr && l->descs[i + 1].kind == d->kind))
			continue;
		if (d->kind == LUPE_KIND_RAW)
			fprintf(f, "   (see 'lupe help list' on how to encode it)\n");
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void json_field(FILE *f, const char *key, const char *val, bool *first)
{
	if (!val)
		return;
	fprintf(f, "%s\n\t\"%s\": ", *first ? "" : ",", key);
	json_string(f, val);
	*first = false;
}

int ui_event_list_print_json(FILE *f, const struct lupe_event_desc_list *l)
{
	fputc('[', f);
	for (size_t i = 0; i < l->nr; i++) {
		const struct lupe_event_desc *d = &l->descs[i];
		bool first = true;

		fprintf(f, "%s\n{", i ? "," : "");
		json_field(f, "EventName", d->name, &first);
		json_field(f, "EventAlias", d->alias, &first);
		json_field(f, "EventType", lupe_event_kind_desc(d->kind), &first);
		json_field(f, "Unit", d->pmu, &first);
		json_field(f, "Encoding", d->encoding, &first);
		fprintf(f, "\n}");
	}
	fprintf(f, "\n]\n");
	return ferror(f) ? -1 : 0;
}

int ui_event_print_attrs(FILE *f, const struct lupe_event_list *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		const struct lupe_event *ev = &l->events[i];
		const struct perf_event_attr *a = &ev->attr;

		fprintf(f, "%s: pmu %s type %u config %#llx config1 %#llx config2 %#llx",
			ev->name, ev->pmu_name ? ev->pmu_name : "-", a->type,
			(unsigned long long)a->config, (unsigned long long)a->config1,
			(unsigned long long)a->config2);
		if (a->type == PERF_TYPE_BREAKPOINT)
			fprintf(f, " bp_type %u", a->bp_type);
		fprintf(f, " leader %d group_size %d", ev->leader, ev->group_size);
		if (ev->group_name)
			fprintf(f, " group_name %s", ev->group_name);
		if (ev->tool)
			fprintf(f, " tool %d", ev->tool);
		if (a->precise_ip)
			fprintf(f, " precise_ip %u", a->precise_ip);
#define BIT(x) if (a->x) fputs(" " #x, f)
		BIT(exclude_user); BIT(exclude_kernel); BIT(exclude_hv); BIT(exclude_host);
		BIT(exclude_guest); BIT(exclude_idle); BIT(pinned); BIT(exclusive);
#undef BIT
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}
