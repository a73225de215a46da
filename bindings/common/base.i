/* Language-neutral part of the SWIG bindings: included by
 * bindings/python/placement.i and bindings/lua/placement.i after each has
 * defined its error and array typemaps.
 *
 * Error protocol: wrapper bodies run a library call through PLB_CHECK; on
 * failure it records the status in plb_status and returns a neutral value.
 * The %exception block of each language resets plb_status before the call
 * and raises afterwards with pl_last_error(), so every fallible method turns
 * into a Python exception or a Lua error without per-method code. */

%{
/* open_memstream() needs _GNU_SOURCE, which meson's project arguments set. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <placement/placement.h>

/* Script-side class names of the opaque handles. SWIG names the helpers of
 * an extended class <Class>_<method>, which would collide with the C API if
 * the classes kept their pl_ names. */
typedef struct pl_flownet FlowNetwork;
typedef struct pl_topology Topology;
typedef struct pl_job Job;
typedef struct pl_jobset JobSet;
typedef struct pl_profile_set ProfileSet;
typedef struct pl_decision Decisions;

/* Status of the last wrapped call on this thread (the library's own
 * message is thread-local too, so both stay paired). */
static _Thread_local pl_status plb_status = PL_OK;

/* Set when the wrapper's error is already raised in the script language
 * (an error of a script callback, re-raised as it was): the %exception
 * blocks then raise nothing of their own. */
static _Thread_local int plb_error_pending = 0;

/* The language's context of a wrapped call (Lua: its lua_State; Python:
 * NULL), for calling script functions back; an argument of type plb_ctx is
 * filled in by a typemap, not passed by the script. */
typedef struct plb_ctx_ *plb_ctx;

#define PLB_CHECK(call, ret) do { \
        pl_status plb_s_ = (call); \
        if (plb_s_ != PL_OK) { plb_status = plb_s_; return ret; } \
    } while (0)

/* For errors the binding itself detects: set the library's message too. */
#define PLB_FAIL(st, ret, ...) do { \
        plb_status = pl_solver_error((st), __VA_ARGS__); return ret; \
    } while (0)

/* No wrapped method runs with a NULL self (the unbound method called with
 * None or nil): the library checks the handles it is given, but the %extend
 * bodies dereference $self. PLB_RAISE_NOW is each language's raise-and-fail
 * (bindings/python/placement.i, bindings/lua/placement.i). */
%}
%typemap(check) SWIGTYPE *self {
    if (!$1) {
        plb_status = pl_solver_error(PL_EINVAL, "%s: self is None/nil", "$symname");
        PLB_RAISE_NOW();
    }
}
%{

/* Arrays returned to the scripting language: the out typemap converts them
 * into a list (Python) or a table (Lua) and frees v. */
typedef struct plb_ints { int32_t n; int32_t *v; } plb_ints;
typedef struct plb_i64s { int32_t n; int64_t *v; } plb_i64s;

typedef struct plb_f64s { int32_t n; double *v; } plb_f64s;

/* Arguments taken from a script-side list (a Python sequence, a Lua
 * sequence table): the in typemaps copy the values (strings strdup'ed) and
 * the freearg typemaps release them after the call. */
typedef struct plb_strs_in { int32_t n; char **v; } plb_strs_in;
typedef struct plb_doubles_in { int32_t n; double *v; } plb_doubles_in;

static void plb_strs_in_free(plb_strs_in *s)
{
    for (int32_t i = 0; s->v && i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    s->v = NULL;
    s->n = 0;
}

static plb_ints plb_ints_alloc(int32_t n)
{
    plb_ints r = { 0, NULL };
    r.v = malloc(sizeof *r.v * (size_t)(n > 0 ? n : 1));
    if (!r.v)
        plb_status = pl_solver_error(PL_ENOMEM, "out of memory (%d ints)", (int)n);
    else
        r.n = n;
    return r;
}

static plb_i64s plb_i64s_alloc(int32_t n)
{
    plb_i64s r = { 0, NULL };
    r.v = malloc(sizeof *r.v * (size_t)(n > 0 ? n : 1));
    if (!r.v)
        plb_status = pl_solver_error(PL_ENOMEM, "out of memory (%d values)", (int)n);
    else
        r.n = n;
    return r;
}

static plb_f64s plb_f64s_alloc(int32_t n)
{
    plb_f64s r = { 0, NULL };
    r.v = malloc(sizeof *r.v * (size_t)(n > 0 ? n : 1));
    if (!r.v)
        plb_status = pl_solver_error(PL_ENOMEM, "out of memory (%d values)", (int)n);
    else
        r.n = n;
    return r;
}

/* Vertex ids of a script list; -1 allowed where minus_one (a CPU-only task). */
static int32_t *plb_vertex_ids_or(plb_doubles_in ids, const char *what, int minus_one)
{
    int32_t *v = malloc(sizeof *v * (size_t)(ids.n > 0 ? ids.n : 1));
    if (!v) {
        plb_status = pl_solver_error(PL_ENOMEM, "out of memory");
        return NULL;
    }
    for (int32_t i = 0; i < ids.n; i++) {
        double x = ids.v[i];
        if (!(x >= (minus_one ? -1 : 0) && x <= INT32_MAX && x == (double)(int32_t)x)) {
            free(v);
            plb_status = pl_solver_error(PL_EINVAL, "%s: %g is not a vertex id", what, x);
            return NULL;
        }
        v[i] = (int32_t)x;
    }
    return v;
}

static int32_t *plb_vertex_ids(plb_doubles_in ids, const char *what)
{
    return plb_vertex_ids_or(ids, what, 0);
}

/* Run a writer that takes a FILE * into a malloc'ed string. */
typedef pl_status (*plb_writer)(const void *obj, FILE *f);

static char *plb_write_string(plb_writer w, const void *obj)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        plb_status = pl_solver_error(PL_ENOMEM, "open_memstream failed");
        return NULL;
    }
    pl_status st = w(obj, f);
    if (fclose(f) != 0 && st == PL_OK)
        st = pl_solver_error(PL_EIO, "writing to memory failed");
    if (st != PL_OK) {
        plb_status = st;
        free(buf);
        return NULL;
    }
    return buf;
}
%}

%include <stdint.i>

/* Both list arguments start empty, so that a failed conversion of an
 * earlier argument frees nothing that was not allocated. */
%typemap(arginit) plb_strs_in, plb_doubles_in "$1.n = 0; $1.v = NULL;"
%typemap(freearg) plb_strs_in "plb_strs_in_free(&$1);"
%typemap(freearg) plb_doubles_in "free($1.v);"

/* Strings the wrappers return with %newobject are malloc'ed by them or by
 * the library (pl_free is free). */
%typemap(newfree) char * "free($1);";

/* Status codes and names, without the PL_ prefix (placement.EPARSE). */
%rename("%(strip:[PL_])s", %$isenumitem) "";
%rename("%(strip:[pl_])s", %$isfunction) "";
/** The library's message about the last failure on this thread. */
const char *pl_last_error(void);
/** Name of a status code ("PL_EINVAL", ...). */
const char *pl_status_name(pl_status status);
/** One-line description of a status code. */
const char *pl_status_string(pl_status status);
%constant const char *VERSION = PL_VERSION;

typedef enum pl_status {
    PL_OK = 0, PL_EINVAL = 1, PL_ENOMEM = 2, PL_EPARSE = 3, PL_EINFEASIBLE = 4,
    PL_EUNBOUNDED = 5, PL_EOVERFLOW = 6, PL_ENOTFOUND = 7, PL_EIO = 8,
    PL_EVERIFY = 9, PL_ESTATE = 10, PL_ELIMIT = 11, PL_EINTERNAL = 12
} pl_status;
