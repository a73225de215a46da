/* The simulator's progress callback in Lua: the plb_cb functions that
 * bindings/common/sim.i declares (plb_cbarg and its typemap are in
 * placement.i, before the class is parsed). The function is kept in the registry; it is
 * called with lua_pcall on the state that called run(), so an error in it
 * does not unwind through the C simulator: it is kept and raised again,
 * unchanged, when run() returns. */

%{
/* The state's main thread, which outlives every coroutine: the references
 * are dropped there when the Sim is collected. Lua 5.1 has no registry slot
 * for it, so the thread that first asks is kept in the registry (under the
 * address of this function) and stands in for it. */
static lua_State *plb_main_thread(lua_State *L)
{
#if LUA_VERSION_NUM >= 502
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
#else
    lua_pushlightuserdata(L, (void *)&plb_main_thread);
    lua_rawget(L, LUA_REGISTRYINDEX);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_pushlightuserdata(L, (void *)&plb_main_thread);
        lua_pushthread(L);
        lua_rawset(L, LUA_REGISTRYINDEX);
        lua_pushlightuserdata(L, (void *)&plb_main_thread);
        lua_rawget(L, LUA_REGISTRYINDEX);
    }
#endif
    lua_State *main = lua_tothread(L, -1);
    lua_pop(L, 1);
    return main;
}

struct plb_cb {
    lua_State *main; /* the main thread, to drop the references when the Sim is collected */
    int fn_ref;
    int err_ref;     /* LUA_NOREF: no error */
};

static int plb_cb_call(plb_cb *cb, plb_ctx ctx, int32_t settled, int32_t total, double sim_time)
{
    lua_State *L = (lua_State *)ctx;
    if (!lua_checkstack(L, 4)) {
        lua_pushstring(L, "progress callback: Lua stack overflow");
        cb->err_ref = luaL_ref(L, LUA_REGISTRYINDEX);
        return 0;
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, cb->fn_ref);
    lua_pushinteger(L, settled);
    lua_pushinteger(L, total);
    lua_pushnumber(L, sim_time);
    if (lua_pcall(L, 3, 0, 0) != LUA_OK) {
        cb->err_ref = luaL_ref(L, LUA_REGISTRYINDEX);
        return 0;
    }
    return 1;
}

static plb_cb *plb_cb_new(plb_ctx ctx, plb_cbarg fn)
{
    lua_State *L = (lua_State *)ctx;
    if (lua_isnil(L, fn))
        return NULL;
    plb_cb *cb = calloc(1, sizeof *cb);
    if (!cb)
        PLB_FAIL(PL_ENOMEM, NULL, "out of memory");
    cb->main = plb_main_thread(L);
    lua_pushvalue(L, fn);
    cb->fn_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    cb->err_ref = LUA_NOREF;
    return cb;
}

static int plb_cb_failed(const plb_cb *cb) { return cb->err_ref != LUA_NOREF; }

static void plb_cb_raise(plb_cb *cb, plb_ctx ctx)
{
    lua_State *L = (lua_State *)ctx;
    lua_rawgeti(L, LUA_REGISTRYINDEX, cb->err_ref);
    luaL_unref(L, LUA_REGISTRYINDEX, cb->err_ref);
    cb->err_ref = LUA_NOREF;
    plb_status = PL_EINVAL; /* any failure: the %exception block raises the value pushed */
    plb_error_pending = 1;
}

static void plb_cb_free(plb_cb *cb)
{
    luaL_unref(cb->main, LUA_REGISTRYINDEX, cb->fn_ref);
    luaL_unref(cb->main, LUA_REGISTRYINDEX, cb->err_ref);
    free(cb);
}
%}
