/* Lua 5.4 bindings of libplacement: require "placement". Errors are raised
 * with error() semantics; the message is "PL_EXXX: <library message>". */
%module placement

%exception {
    plb_status = PL_OK;
    $action
    if (plb_status != PL_OK) {
        lua_pushfstring(L, "%s: %s", pl_status_name(plb_status), pl_last_error());
        SWIG_fail;
    }
}

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

/* Lua 5.4 has real integers: ids, costs and flows stay integers instead of
 * SWIG's default conversion through lua_Number (a double). */
%typemap(in, checkfn="lua_isnumber") int32_t, int64_t, uint64_t
%{ $1 = ($1_ltype)luaL_checkinteger(L, $input); %}
%typemap(out) int32_t, int64_t, uint64_t
%{ lua_pushinteger(L, (lua_Integer)$1); SWIG_arg++; %}

%include "../common/all.i"
%include "extras.i"
