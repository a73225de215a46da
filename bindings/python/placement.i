/* Python bindings of libplacement: the low-level module placement._core
 * (SWIG proxy placement/core.py + extension placement/_core*.so). The
 * idiomatic layer is placement/__init__.py. */
%module(package="placement") core

%feature("autodoc", "1");
%feature("kwargs");

/* One exception class per pl_status, created at import below; __init__.py
 * re-exports them (placement.ParseError, ...). */
%{
static PyObject *plb_exc[13];

static void plb_raise(int status)
{
    extern const char *pl_last_error(void);
    PyObject *cls = (status > 0 && status < 13 && plb_exc[status]) ? plb_exc[status] : plb_exc[0];
    PyErr_SetString(cls, pl_last_error());
}
%}

%init %{
    {
        /* name, status, extra builtin base (so except ValueError still works) */
        static const struct { const char *name; int status; const char *doc; } errs[] = {
            { "InvalidArgumentError", 1, "An argument is invalid (PL_EINVAL)." },
            { "NoMemoryError", 2, "Memory allocation failed (PL_ENOMEM)." },
            { "ParseError", 3, "Input text is malformed (PL_EPARSE)." },
            { "InfeasibleError", 4, "No solution satisfies the constraints (PL_EINFEASIBLE)." },
            { "UnboundedError", 5, "The objective is unbounded (PL_EUNBOUNDED)." },
            { "OverflowError", 6, "A value does not fit in 64 bits (PL_EOVERFLOW)." },
            { "NotFoundError", 7, "A named object does not exist (PL_ENOTFOUND)." },
            { "IOError", 8, "Reading or writing a file failed (PL_EIO)." },
            { "VerifyError", 9, "A certificate check failed (PL_EVERIFY)." },
            { "StateError", 10, "Not legal in the object's current state (PL_ESTATE)." },
            { "LimitError", 11, "A limit was reached (PL_ELIMIT)." },
            { "InternalError", 12, "An external library failed (PL_EINTERNAL)." },
        };
        PyObject *base_dict = PyDict_New();
        PyDict_SetItemString(base_dict, "status", PyLong_FromLong(0));
        plb_exc[0] = PyErr_NewExceptionWithDoc("placement.Error",
            "Base class of every libplacement error; .status is the pl_status code.",
            NULL, base_dict);
        Py_DECREF(base_dict);
        PyModule_AddObject(m, "Error", plb_exc[0]);
        Py_INCREF(plb_exc[0]);
        for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++) {
            PyObject *extra = NULL;
            switch (errs[i].status) {
            case 1: case 3: extra = PyExc_ValueError; break;
            case 2: extra = PyExc_MemoryError; break;
            case 6: extra = PyExc_OverflowError; break;
            case 7: extra = PyExc_LookupError; break;
            case 8: extra = PyExc_OSError; break;
            default: break;
            }
            PyObject *bases = extra ? PyTuple_Pack(2, plb_exc[0], extra) : PyTuple_Pack(1, plb_exc[0]);
            PyObject *dict = PyDict_New();
            PyObject *st = PyLong_FromLong(errs[i].status);
            PyDict_SetItemString(dict, "status", st);
            Py_DECREF(st);
            char qual[64];
            snprintf(qual, sizeof qual, "placement.%s", errs[i].name);
            PyObject *cls = PyErr_NewExceptionWithDoc(qual, errs[i].doc, bases, dict);
            Py_DECREF(bases);
            Py_DECREF(dict);
            plb_exc[errs[i].status] = cls;
            Py_INCREF(cls);
            PyModule_AddObject(m, errs[i].name, cls);
        }
    }
%}

%exception {
    plb_status = PL_OK;
    $action
    if (plb_status != PL_OK) {
        plb_raise(plb_status);
        SWIG_fail;
    }
}

%typemap(out) plb_ints {
    $result = PyList_New($1.n);
    for (int32_t i_ = 0; $result && i_ < $1.n; i_++)
        PyList_SET_ITEM($result, i_, PyLong_FromLong($1.v[i_]));
    free($1.v);
}
%typemap(out) plb_i64s {
    $result = PyList_New($1.n);
    for (int32_t i_ = 0; $result && i_ < $1.n; i_++)
        PyList_SET_ITEM($result, i_, PyLong_FromLongLong($1.v[i_]));
    free($1.v);
}

%include "extras.i"
%include "../common/all.i"
