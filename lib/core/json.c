/* JSON-path error helpers shared by every JSON loader (json.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "internal/json.h"

pl_status pl_json_fail(const char *path, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return pl_err(PL_EPARSE, "%s: %s", path, msg);
}

pl_status pl_json_prefixed(pl_status st, const char *path)
{
    char msg[768];
    snprintf(msg, sizeof msg, "%s", pl_last_error());
    return pl_err(st, "%s: %s", path, msg);
}

void pl_json_pathf(char *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, PL_JSON_PATH, fmt, ap);
    va_end(ap);
}

void pl_json_index(char *out, const char *parent, size_t i)
{
    snprintf(out, PL_JSON_PATH, "%s[%zu]", parent, i);
}

void pl_json_key(char *out, const char *parent, const char *key)
{
    int plain = *key != '\0';
    for (const char *c = key; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '_' || *c == '-'))
            plain = 0;
    if (plain)
        snprintf(out, PL_JSON_PATH, "%s.%s", parent, key);
    else
        snprintf(out, PL_JSON_PATH, "%s[\"%.200s\"]", parent, key);
}

static void describe(const json_t *v, char *buf, size_t n)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: snprintf(buf, n, "an object"); break;
    case JSON_ARRAY: snprintf(buf, n, "an array"); break;
    case JSON_STRING: snprintf(buf, n, "the string \"%.40s\"", json_string_value(v)); break;
    case JSON_INTEGER: snprintf(buf, n, "%lld", (long long)json_integer_value(v)); break;
    case JSON_REAL: snprintf(buf, n, "%.17g", json_real_value(v)); break;
    case JSON_TRUE: snprintf(buf, n, "true"); break;
    case JSON_FALSE: snprintf(buf, n, "false"); break;
    default: snprintf(buf, n, "null"); break;
    }
}

const char *pl_json_type_name(json_type type)
{
    switch (type) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "a number";
    }
}

pl_status pl_json_expect(const json_t *v, json_type type, const char *path)
{
    if (json_typeof(v) == type || (type == JSON_TRUE && json_is_boolean(v)))
        return PL_OK;
    char got[64];
    describe(v, got, sizeof got);
    return pl_json_fail(path, "expected %s, got %s", pl_json_type_name(type), got);
}

pl_status pl_json_check_keys(const json_t *obj, const char *path, const char *const *keys)
{
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)obj, key, val) {
        int known = 0;
        for (const char *const *k = keys; *k && !known; k++)
            known = !strcmp(key, *k);
        if (!known) {
            char list[384] = "", sub[PL_JSON_PATH];
            size_t len = 0;
            for (const char *const *k = keys; *k && len < sizeof list; k++)
                len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", k == keys ? "" : ", ", *k);
            pl_json_key(sub, path, key);
            return pl_json_fail(sub, "unknown key (expected one of: %s)", list);
        }
    }
    return PL_OK;
}

pl_status pl_json_int(const json_t *v, const char *path, int64_t min, int64_t max, int64_t *out)
{
    char got[64];
    int64_t x;
    describe(v, got, sizeof got);
    if (json_is_integer(v)) {
        x = json_integer_value(v);
    } else if (json_is_real(v)) {
        double d = json_real_value(v);
        /* 2^63 is the first double above INT64_MAX. */
        if (d >= 9223372036854775808.0)
            return pl_json_fail(path, "expected an integer <= %lld, got %s", (long long)max, got);
        if (!(d >= -9223372036854775808.0) || (double)(int64_t)d != d)
            return pl_json_fail(path, "expected an integer >= %lld, got %s", (long long)min, got);
        x = (int64_t)d;
    } else {
        return pl_json_fail(path, "expected an integer >= %lld, got %s", (long long)min, got);
    }
    if (x < min)
        return pl_json_fail(path, "expected an integer >= %lld, got %s", (long long)min, got);
    if (x > max)
        return pl_json_fail(path, "expected an integer <= %lld, got %s", (long long)max, got);
    *out = x;
    return PL_OK;
}

pl_status pl_json_number(const json_t *v, const char *path, double min, double max, double *out)
{
    char got[64];
    describe(v, got, sizeof got);
    double x = json_number_value(v);
    if (!json_is_number(v) || !isfinite(x) || x < min || x > max) {
        if (isinf(max))
            return pl_json_fail(path, "expected a number >= %g, got %s", min, got);
        return pl_json_fail(path, "expected a number in [%g, %g], got %s", min, max, got);
    }
    *out = x;
    return PL_OK;
}

pl_status pl_json_load_error(const char *source, const json_error_t *e)
{
    /* jansson 2.14 reports running out of memory as a failure at line -1
     * with an empty message (rarely with its own code for it). */
    if (json_error_code(e) == json_error_out_of_memory || (e->line == -1 && e->text[0] == '\0'))
        return pl_err(PL_ENOMEM, "%s: out of memory while parsing the JSON text", source);
    return pl_err(PL_EPARSE, "%s:%d:%d: %s", source, e->line, e->column, e->text);
}

pl_status pl_json_parse_text(const char *text, size_t length, json_t **doc)
{
    json_error_t e = {0}; /* jansson leaves it untouched on some out-of-memory paths */
    *doc = json_loadb(text, length ? length : strlen(text), JSON_REJECT_DUPLICATES, &e);
    if (!*doc)
        return pl_json_load_error("<string>", &e);
    return PL_OK;
}

pl_status pl_json_parse_file(const char *fn, const char *path, json_t **doc)
{
    *doc = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return pl_err(PL_EIO, "%s: cannot open '%s': %s", fn, path, strerror(errno));
    json_error_t e = {0}; /* jansson leaves it untouched on some out-of-memory paths */
    *doc = json_loadf(f, JSON_REJECT_DUPLICATES, &e);
    int read_failed = ferror(f);
    fclose(f);
    if (!*doc)
        return read_failed ? pl_err(PL_EIO, "%s: cannot read '%s'", fn, path)
                           : pl_json_load_error(path, &e);
    return PL_OK;
}

pl_status pl_json_load(const char *fn, const char *text, size_t length, const char *path,
                       pl_json_doc_fn load, void **out)
{
    if (!out || !(text || path))
        return pl_err(PL_EINVAL, "%s: NULL argument", fn);
    *out = NULL;
    json_t *doc;
    pl_status st = text ? pl_json_parse_text(text, length, &doc) : pl_json_parse_file(fn, path, &doc);
    if (st)
        return st;
    st = load(doc, out);
    json_decref(doc);
    return st;
}
