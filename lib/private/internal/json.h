/* Typed access to a jansson document with errors naming the JSON path of
 * the bad field ("$.jobs[3].tasks[0].gpus: ..."), shared by every JSON
 * loader (topologies, jobs, SC17 workloads and profiles). Every function
 * returns PL_OK or PL_EPARSE (message set) unless it says otherwise. */
#ifndef PL_CORE_JSON_H
#define PL_CORE_JSON_H

#include <jansson.h>
#include "internal/core.h"

/* Room for a JSON path; deeper paths are cut (the message stays useful). */
#define PL_JSON_PATH 512

PL_INTERNAL pl_status pl_json_fail(const char *path, const char *fmt, ...) PL_PRINTF(2, 3);
/* Put path in front of the message of a failed call, keeping its status. */
PL_INTERNAL pl_status pl_json_prefixed(pl_status st, const char *path);
/* out (PL_JSON_PATH bytes) = printf(fmt, ...). */
PL_INTERNAL void pl_json_pathf(char *out, const char *fmt, ...) PL_PRINTF(2, 3);
/* out = parent + "[i]". */
PL_INTERNAL void pl_json_index(char *out, const char *parent, size_t i);
/* out = parent + ".key" (or "[\"key\"]" when key is not a plain word). */
PL_INTERNAL void pl_json_key(char *out, const char *parent, const char *key);
/* "an object", "a string", ... for messages. */
PL_INTERNAL const char *pl_json_type_name(json_type type);
PL_INTERNAL pl_status pl_json_expect(const json_t *v, json_type type, const char *path);
/* Refuse keys outside the NULL-terminated list. */
PL_INTERNAL pl_status pl_json_check_keys(const json_t *obj, const char *path, const char *const *keys);
/* A whole number in [min, max]: integers, or reals without a fraction. */
PL_INTERNAL pl_status pl_json_int(const json_t *v, const char *path, int64_t min, int64_t max, int64_t *out);
/* Any number in [min, max]. */
PL_INTERNAL pl_status pl_json_number(const json_t *v, const char *path, double min, double max, double *out);
/* Parse text / a file; syntax errors give "<string>:line:col: ..." or
 * "path:line:col: ...", unreadable files PL_EIO. */
PL_INTERNAL pl_status pl_json_parse_text(const char *text, size_t length, json_t **doc);
/* The status of a failed json_load*: PL_ENOMEM for jansson's out of memory,
 * else PL_EPARSE "source:line:col: text". */
PL_INTERNAL pl_status pl_json_load_error(const char *source, const json_error_t *e);
PL_INTERNAL pl_status pl_json_parse_file(const char *fn, const char *path, json_t **doc);

/* Reads a parsed document into a new object: sets *out on success only; the
 * document stays the caller's. */
typedef pl_status (*pl_json_doc_fn)(json_t *doc, void **out);
/* The front of the public pl_X_load(path) / pl_X_load_string(text) pairs:
 * PL_EINVAL "fn: NULL argument" without out or without both text and path,
 * else *out = NULL, the document parsed from text (length bytes, 0: up to
 * the NUL) or, when text is NULL, from the file at path, and read by load.
 * out is the address of the caller's typed handle pointer, as for pl_grow. */
PL_INTERNAL pl_status pl_json_load(const char *fn, const char *text, size_t length, const char *path,
                                   pl_json_doc_fn load, void **out);

#endif
