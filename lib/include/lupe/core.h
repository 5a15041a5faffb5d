/* SPDX-License-Identifier: GPL-2.0 */
/*
 * liblupe conventions shared by every public header.
 *
 * Errors: one convention, every function.
 * - int functions return 0 (or a count) on success and a negative errno on
 *   failure; pointer functions return NULL and set errno (lib/util's
 *   err_ptr() is the one helper that does both). A function's comment names
 *   the errors worth telling apart.
 * - Errors that errno cannot express (a broken perf.data, a bad event spec,
 *   a refused filter) use the private range LUPE_ERR_BASE.., returned
 *   negated or set in errno like any errno; lupe_strerror() names both kinds.
 * - Two calls add detail to an error already returned, they are no second
 *   channel: lupe_last_error() is the sentence a user should read (what to
 *   do: the paranoid level, the missing PMU), kept per thread by the
 *   high-level calls (evlist parse and open, measure, counter, sampler,
 *   reader, tracepoint lookup); lupe_perf_file_error() says where in a
 *   perf.data its LUPE_ERR_* was met. Check the return value first.
 *
 * Lifetimes: one verb per kind of ending.
 * - _delete(obj) frees an object or array the library allocated, with what
 *   it holds; NULL is ok. (lupe_stat_writer_delete() also finishes its
 *   file, so it returns that error.)
 * - _clear(&s) empties a struct the caller owns (lupe_event_list, a
 *   listing, a result): what the library put in it is freed, the struct
 *   stays usable.
 * - _get/_put count references of shared maps; the last put frees.
 * - _close(obj) releases what the object holds in the kernel (fds,
 *   probes); the object stays, to read or to open again.
 *
 * Options structs start with size_t sz: see LUPE_OPTS below.
 *
 * - The library never prints and never exits: it reports through the log
 *   callback that the program installs with lupe_log_set().
 * - Thread-safety is stated per object in each header: an object is used by
 *   one thread at a time, distinct objects are independent. The log sink
 *   and level are process-wide (set them before starting threads); the sink
 *   may be called from any thread that calls the library.
 */
#ifndef LUPE_CORE_H
#define LUPE_CORE_H

#include <stdarg.h>
#include <string.h>

#define LUPE_API __attribute__((visibility("default")))

/* A numeric default as a string literal, for help texts: LUPE_STR(LUPE_RECORD_DEFAULT_FREQ). */
#define LUPE_STR_(x) #x
#define LUPE_STR(x) LUPE_STR_(x)

/*
 * Options structs that will grow start with their size, `size_t sz`, as
 * libbpf's do. Declare one with LUPE_OPTS, which zeroes it (padding
 * included) and sets sz:
 *
 *   LUPE_OPTS(lupe_sampler_opts, o, .callchain = 1, .enable_on_exec = 1);
 *   s = lupe_sampler_new("task-clock", pid, -1, &o);
 *
 * The library reads only the caller's first sz bytes (fields past them take
 * their defaults, so a caller built against an older header keeps working)
 * and refuses with -EINVAL a struct whose bytes past what it knows are not
 * all zero (a newer caller asking for something this library cannot do),
 * or whose sz is smaller than the size field.
 */
#define LUPE_OPTS(TYPE, NAME, ...)                                         \
	struct TYPE NAME = ({                                               \
		memset(&NAME, 0, sizeof(struct TYPE));                      \
		(struct TYPE){ .sz = sizeof(struct TYPE), __VA_ARGS__ };    \
	})

enum lupe_error {
	LUPE_ERR_BASE = 4000,
	LUPE_ERR_FORMAT = LUPE_ERR_BASE, /* a file is not in the expected format */
	LUPE_ERR_TRUNCATED,              /* a file ends before its contents do */
	LUPE_ERR_CORRUPT,                /* a field holds an impossible value */
	LUPE_ERR_PARSE,                  /* an event spec does not parse */
	LUPE_ERR_NOT_SUPPORTED,          /* the machine lacks what was asked for */
	LUPE_ERR_NO_TRACEFS,             /* tracefs is not mounted and cannot be */
	LUPE_ERR_FILTER,                 /* the kernel refused a tracepoint filter */
	LUPE_ERR_MAX,
};

/* A sentence (lowercase, no full stop) for -err, errno values included. */
LUPE_API const char *lupe_strerror(int err);

/*
 * The last failure of a liblupe call on the calling thread, as a sentence
 * that says what went wrong and what to do ("cannot open 'cycles': no
 * hardware PMU on this machine (try task-clock)"); "" when none was set.
 * Set by the calls documented to set it (the measure, counter, sampler and
 * reader APIs, lupe_evlist_parse()); thread-local, so threads do not see
 * each other's errors.
 */
LUPE_API const char *lupe_last_error(void);

enum lupe_log_level {
	LUPE_LOG_ERROR,
	LUPE_LOG_WARN,
	LUPE_LOG_INFO,
	LUPE_LOG_DEBUG,
};

typedef void (*lupe_log_fn)(enum lupe_log_level level, const char *fmt, va_list ap);

/* Install the sink for library messages; NULL drops them. Returns the old one. */
LUPE_API lupe_log_fn lupe_log_set(lupe_log_fn fn);

/* The level at and below which messages reach the sink (default WARN). */
LUPE_API void lupe_log_set_level(enum lupe_log_level level);

#endif
