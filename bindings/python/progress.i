/* The simulator's progress callback in Python: the plb_cb functions that
 * bindings/common/sim.i declares (the argument type plb_cbarg and its
 * typemap are in placement.i, before the class is parsed). The GIL is held for the whole of pl_sim_run() (the module does
 * not release it), so the trampoline may call Python directly. */

%{
struct plb_cb {
    PyObject *fn;                          /* owned reference */
    PyObject *err_type, *err_value, *err_tb; /* the exception it raised, owned */
    int failed;
};

static int plb_cb_call(plb_cb *cb, plb_ctx ctx, int32_t settled, int32_t total, double sim_time)
{
    (void)ctx;
    PyObject *r = PyObject_CallFunction(cb->fn, "iid", (int)settled, (int)total, sim_time);
    if (!r) {
        /* Keep it aside: Python code must not run with an exception set,
         * and the run goes on until the library returns. */
        PyErr_Fetch(&cb->err_type, &cb->err_value, &cb->err_tb);
        cb->failed = 1;
        return 0;
    }
    Py_DECREF(r);
    return 1;
}

static plb_cb *plb_cb_new(plb_ctx ctx, plb_cbarg fn)
{
    (void)ctx;
    if (fn == Py_None)
        return NULL;
    plb_cb *cb = calloc(1, sizeof *cb);
    if (!cb)
        PLB_FAIL(PL_ENOMEM, NULL, "out of memory");
    Py_INCREF(fn);
    cb->fn = fn;
    return cb;
}

static int plb_cb_failed(const plb_cb *cb) { return cb->failed; }

static void plb_cb_raise(plb_cb *cb, plb_ctx ctx)
{
    (void)ctx;
    PyErr_Restore(cb->err_type, cb->err_value, cb->err_tb);
    cb->err_type = cb->err_value = cb->err_tb = NULL;
    cb->failed = 0;
    plb_status = PL_EINVAL; /* any failure: the %exception block keeps the restored exception */
    plb_error_pending = 1;
}

static void plb_cb_free(plb_cb *cb)
{
    Py_XDECREF(cb->fn);
    Py_XDECREF(cb->err_type);
    Py_XDECREF(cb->err_value);
    Py_XDECREF(cb->err_tb);
    free(cb);
}
%}
