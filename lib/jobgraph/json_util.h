/* Typed access to a jansson document with errors naming the JSON path of
 * the bad field ("$.jobs[3].tasks[0].gpus: ..."), for the job loaders.
 * Same conventions as lib/topology/json.c. Every function returns PL_OK or
 * PL_EPARSE (message set). */
#ifndef PL_JOB_JSON_UTIL_H
#define PL_JOB_JSON_UTIL_H

#include <jansson.h>
#include "job_impl.h"

/* Room for a JSON path; deeper paths are cut (the message stays useful). */
#define PL_JP 512

PL_INTERNAL pl_status pl_jj_fail(const char *path, const char *fmt, ...) PL_PRINTF(2, 3);
/* Put path in front of the message of a failed call, keeping its status. */
PL_INTERNAL pl_status pl_jj_prefixed(pl_status st, const char *path);
/* out = parent + "[i]". */
PL_INTERNAL void pl_jj_index(char *out, const char *parent, size_t i);
/* out = parent + ".key" (or "[\"key\"]" when key is not a plain word). */
PL_INTERNAL void pl_jj_key(char *out, const char *parent, const char *key);
PL_INTERNAL pl_status pl_jj_expect(const json_t *v, json_type type, const char *path);
/* Refuse keys outside the NULL-terminated list. */
PL_INTERNAL pl_status pl_jj_check_keys(const json_t *obj, const char *path, const char *const *keys);
/* A whole number in [min, max]: integers, or reals without a fraction. */
PL_INTERNAL pl_status pl_jj_int(const json_t *v, const char *path, int64_t min, int64_t max, int64_t *out);
/* Any number in [min, max]. */
PL_INTERNAL pl_status pl_jj_number(const json_t *v, const char *path, double min, double max, double *out);
/* Parse text / a file; syntax errors give "<string>:line:col: ..." or
 * "path:line:col: ...", unreadable files PL_EIO. */
PL_INTERNAL pl_status pl_jj_parse_text(const char *text, size_t length, json_t **doc);
PL_INTERNAL pl_status pl_jj_parse_file(const char *fn, const char *path, json_t **doc);

#endif
