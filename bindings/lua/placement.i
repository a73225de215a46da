/* Lua bindings of libplacement: require "placement". One wrapper, compiled
 * against Lua 5.4 and, for the Lua that Debian's Slurm embeds, 5.1
 * (bindings/lua/lua51). Errors are raised with error() semantics; the
 * message is "PL_EXXX: <library message>". */
%module placement

%{
/* Lua 5.1 names (Slurm 22.05's job_submit/lua links liblua5.1). */
#if LUA_VERSION_NUM < 502
#define lua_rawlen(L, i) lua_objlen(L, i)
#ifndef LUA_OK
#define LUA_OK 0
#endif
#endif

#define PLB_RAISE_NOW() do { \
        lua_pushfstring(L, "%s: %s", pl_status_name(plb_status), pl_last_error()); \
        SWIG_fail; \
    } while (0)
%}

%exception {
    plb_status = PL_OK;
    $action
    if (plb_status != PL_OK) {
        if (plb_error_pending)
            plb_error_pending = 0; /* a callback's error value, already on the stack */
        else
            lua_pushfstring(L, "%s: %s", pl_status_name(plb_status), pl_last_error());
        SWIG_fail;
    }
}

/* Script functions are called back on the state of the call that runs them. */
%typemap(in, numinputs=0) plb_ctx "$1 = (plb_ctx)L;"

/* A script function given to the library's callbacks (bindings/common/sim.i):
 * the stack index of a function, or of nil for none. */
%{
typedef int plb_cbarg;
static int plb_lua_function_or_nil(lua_State *L, int i) { return lua_isfunction(L, i) || lua_isnil(L, i); }
%}
%typemap(in, checkfn="plb_lua_function_or_nil") plb_cbarg "$1 = $input;"

/* Arrays come back as sequences (1-based positions holding 0-based ids). */
%typemap(out) plb_ints {
    lua_createtable(L, $1.n, 0);
    for (int32_t i_ = 0; i_ < $1.n; i_++) {
        lua_pushinteger(L, $1.v[i_]);
        lua_rawseti(L, -2, i_ + 1);
    }
    free($1.v);
    SWIG_arg++;
}
%typemap(out) plb_i64s {
    lua_createtable(L, $1.n, 0);
    for (int32_t i_ = 0; i_ < $1.n; i_++) {
        lua_pushinteger(L, $1.v[i_]);
        lua_rawseti(L, -2, i_ + 1);
    }
    free($1.v);
    SWIG_arg++;
}

%typemap(out) plb_f64s {
    lua_createtable(L, $1.n, 0);
    for (int32_t i_ = 0; i_ < $1.n; i_++) {
        lua_pushnumber(L, $1.v[i_]);
        lua_rawseti(L, -2, i_ + 1);
    }
    free($1.v);
    SWIG_arg++;
}

/* Sequence tables in; strings are copied, numbers must be numbers. */
%typemap(in, checkfn="lua_istable") plb_strs_in {
    lua_Integer n_ = (lua_Integer)lua_rawlen(L, $input);
    $1.v = n_ < INT32_MAX ? calloc((size_t)(n_ > 0 ? n_ : 1), sizeof *$1.v) : NULL;
    if (!$1.v) {
        lua_pushstring(L, "PL_ENOMEM: out of memory");
        SWIG_fail;
    }
    for (lua_Integer i_ = 1; i_ <= n_; i_++) {
        lua_rawgeti(L, $input, i_);
        if (lua_type(L, -1) != LUA_TSTRING) {
            const char *type_ = luaL_typename(L, -1);
            lua_pop(L, 1);
            lua_pushfstring(L, "PL_EINVAL: expected a sequence of strings, item %d is a %s", (int)i_, type_);
            SWIG_fail;
        }
        $1.v[i_ - 1] = strdup(lua_tostring(L, -1));
        lua_pop(L, 1);
        if (!$1.v[i_ - 1]) {
            lua_pushstring(L, "PL_ENOMEM: out of memory");
            SWIG_fail;
        }
        $1.n = (int32_t)i_;
    }
}
%typemap(in, checkfn="lua_istable") plb_doubles_in {
    lua_Integer n_ = (lua_Integer)lua_rawlen(L, $input);
    $1.v = n_ < INT32_MAX ? malloc(sizeof *$1.v * (size_t)(n_ > 0 ? n_ : 1)) : NULL;
    if (!$1.v) {
        lua_pushstring(L, "PL_ENOMEM: out of memory");
        SWIG_fail;
    }
    for (lua_Integer i_ = 1; i_ <= n_; i_++) {
        lua_rawgeti(L, $input, i_);
        int ok_ = lua_type(L, -1) == LUA_TNUMBER;
        $1.v[i_ - 1] = ok_ ? lua_tonumber(L, -1) : 0;
        if (!ok_) {
            const char *type_ = luaL_typename(L, -1);
            lua_pop(L, 1);
            lua_pushfstring(L, "PL_EINVAL: expected a sequence of numbers, item %d is a %s", (int)i_, type_);
            SWIG_fail;
        }
        lua_pop(L, 1);
    }
    $1.n = (int32_t)n_;
}

/* Lua 5.4 has real integers: ids, costs and flows stay integers instead of
 * SWIG's default conversion through lua_Number (a double). Lua 5.1 has only
 * doubles: a whole number is taken exactly (to 2^53), anything from 2^63 up
 * is PL_CAP_INF (placement.CAP_INF is 2^63 there), a fraction is refused as
 * 5.4 refuses it (5.1's own lua_tointeger would truncate it). */
%{
#include <math.h>
#include <stdint.h>
static void plb_lua_integer(lua_State *L, int idx, int64_t *out)
{
#if LUA_VERSION_NUM >= 503
    *out = (int64_t)luaL_checkinteger(L, idx);
#else
    double x = luaL_checknumber(L, idx);
    if (x >= 9223372036854775808.0)
        *out = INT64_MAX;
    else if (x >= -9223372036854775808.0 && x == floor(x))
        *out = (int64_t)x;
    else
        luaL_argerror(L, idx, "number has no integer representation");
#endif
}
%}
%typemap(in, checkfn="lua_isnumber") int32_t, int64_t, uint64_t
%{ { int64_t v_; plb_lua_integer(L, $input, &v_); $1 = ($1_ltype)v_; } %}
%typemap(out) int32_t, int64_t, uint64_t
%{ lua_pushinteger(L, (lua_Integer)$1); SWIG_arg++; %}

%include "../common/all.i"
%include "progress.i"
%include "extras.i"
