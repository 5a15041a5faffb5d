// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes as the TRACING_DATA of a perf.data (the
 * tracefs formats, kallsyms, printk formats and cmdlines perf saves),
 * parsed as the reader parses it, then records printed with those formats
 * as script and report print them: the input's last bytes (up to 256) as
 * one record, and the same bytes behind each event's type, so that every
 * format's fields are read from a record (offsets, sizes and __data_loc
 * strings that point anywhere). The memory bound is on the input's size:
 * nothing here is compressed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef LUPE_HAVE_TRACEEVENT
#include <traceevent/event-parse.h>
#endif
#include "data/reader.h"
#include "data/tracing-data.h"
#include "membound.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t base = fuzz_mem_begin();
#ifdef LUPE_HAVE_TRACEEVENT
	size_t rlen = size < 256 ? size : 256;
	void *tep = lupe_tracing_data_parse(data, size);
	uint8_t rec[256];
	char buf[512];

	if (tep) {
		int n = tep_get_events_count(tep);

		memcpy(rec, data + size - rlen, rlen);
		lupe_tep_print_info(tep, 0, rec, rlen, buf, sizeof(buf));
		for (int i = 0; i < n && i < 64 && rlen >= 2; i++) {
			struct tep_event *e = tep_get_event(tep, i);
			struct tep_format_field *type = e ? tep_find_common_field(e, "common_type") : NULL;

			/* the event's id where its own format puts the type, when that is inside */
			if (type && type->offset >= 0 && type->size == 2 && (size_t)type->offset + 2 <= rlen) {
				uint16_t id = (uint16_t)e->id;

				memcpy(rec + type->offset, &id, 2);
			}
			lupe_tep_print_info(tep, 0, rec, rlen, buf, sizeof(buf));
		}
		lupe_tracing_data_free(tep);
	}
#endif
	fuzz_mem_end(base, size);
	return 0;
}
