# liblupe's destructor and constructor renames of issue 27 (one destructor
# verb, names that say what a session constructor does). Applied ONCE to
# the tree by the commit that adds this file:
#
#   git grep -lzwE "$(sed -n 's/^s\/\\b\([a-z0-9_]*\)\\b.*/\1/p' scripts/api-renames.sed | paste -sd'|')" \
#       -- lib cmd ui tests examples Documentation README.md | xargs -0 sed -i -f scripts/api-renames.sed
#
# Re-apply it the same way to code written against the old names (another
# branch merged after it); it is idempotent: no new name matches an old one.
#
# The convention (lupe/core.h): _delete frees what the library allocated
# (NULL ok); _clear empties a struct the caller owns, which stays usable;
# _put drops a reference; _close releases kernel resources, the object stays.
s/\blupe_session_new\b/lupe_session_open/g
s/\blupe_session_create\b/lupe_session_new_empty/g
s/\blupe_perf_file_close\b/lupe_perf_file_delete/g
s/\blupe_reader_close\b/lupe_reader_delete/g
s/\blupe_stat_reader_close\b/lupe_stat_reader_delete/g
s/\blupe_stat_writer_close\b/lupe_stat_writer_delete/g
s/\blupe_folded_free\b/lupe_folded_delete/g
s/\blupe_func_targets_free\b/lupe_func_targets_delete/g
s/\blupe_probe_events_free\b/lupe_probe_events_delete/g
s/\blupe_probe_vars_free\b/lupe_probe_vars_delete/g
s/\blupe_probe_names_free\b/lupe_probe_names_delete/g
s/\blupe_tracepoint_fields_free\b/lupe_tracepoint_fields_delete/g
s/\blupe_sched_lat_result_free\b/lupe_sched_lat_result_clear/g
