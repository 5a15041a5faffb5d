/* SPDX-License-Identifier: GPL-2.0 */
/*
 * liblupe in one include: events from perf's spec grammar, counting
 * (evlist), one-shot measurement and reusable counters, sampling with typed
 * records, perf.data reading. Documentation/liblupe.md is the guide;
 * each header documents its functions, errors and thread-safety.
 */
#ifndef LUPE_LUPE_H
#define LUPE_LUPE_H

#include <lupe/core.h>
#include <lupe/counts.h>
#include <lupe/cpumap.h>
#include <lupe/events.h>
#include <lupe/evlist.h>
#include <lupe/evsel.h>
#include <lupe/measure.h>
#include <lupe/rec.h>
#include <lupe/reader.h>
#include <lupe/sampler.h>
#include <lupe/workload.h>

#endif
