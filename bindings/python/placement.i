/* Python bindings of libplacement: the low-level module placement._core
 * (SWIG proxy placement/core.py + extension placement/_core*.so). The
 * idiomatic layer is placement/__init__.py. */
%module(package="placement") core

/* Docstrings come from the doxygen comments of the .i files (swig -doxygen);
 * argument and result types from the C types, as annotations that the
 * _annotate() pass at the end turns into Python types. */
%feature("python:annotations", "c");
%feature("kwargs");

/* One exception class per pl_status, created at import below; __init__.py
 * re-exports them (placement.ParseError, ...). */
%{
/* A script function given to the library's callbacks (bindings/common/sim.i). */
typedef PyObject *plb_cbarg;

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

%{
#define PLB_RAISE_NOW() do { plb_raise(plb_status); SWIG_fail; } while (0)
%}

%exception {
    plb_status = PL_OK;
    $action
    if (plb_status != PL_OK) {
        if (plb_error_pending)
            plb_error_pending = 0; /* a callback's exception, already restored */
        else
            plb_raise(plb_status);
        SWIG_fail;
    }
}

/* Python calls back without a context: the GIL is held throughout. */
%typemap(in, numinputs=0) plb_ctx "$1 = NULL;"
%typemap(in) plb_cbarg {
    if ($input != Py_None && !PyCallable_Check($input)) {
        PyErr_Format(PyExc_TypeError, "expected a callable or None, not %s", Py_TYPE($input)->tp_name);
        SWIG_fail;
    }
    $1 = $input;
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

%typemap(out) plb_f64s {
    $result = PyList_New($1.n);
    for (int32_t i_ = 0; $result && i_ < $1.n; i_++)
        PyList_SET_ITEM($result, i_, PyFloat_FromDouble($1.v[i_]));
    free($1.v);
}

/* Seeds are uint64_t: SWIG would refuse a negative one with an
 * OverflowError naming the C type; say what is wrong instead. */
%typemap(in) uint64_t seed {
    if (!PyLong_Check($input)) {
        PyErr_Format(PyExc_TypeError, "seed must be an int, not %s", Py_TYPE($input)->tp_name);
        SWIG_fail;
    }
    $1 = (uint64_t)PyLong_AsUnsignedLongLong($input);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        PyObject *zero_ = PyLong_FromLong(0);
        int negative_ = zero_ && PyObject_RichCompareBool($input, zero_, Py_LT) == 1;
        Py_XDECREF(zero_);
        PyErr_Clear();
        plb_status = pl_solver_error(PL_EINVAL, "seed must be an int in [0, 2**64), got %s",
                                     negative_ ? "a negative one" : "a larger one");
        PLB_RAISE_NOW();
    }
}
%typemap(typecheck, precedence=SWIG_TYPECHECK_UINT64) uint64_t seed "$1 = PyLong_Check($input);"

/* Sequences in: any sequence (list, tuple, ...) but not a str for a list
 * of str, so that "node1" is not taken as five names. */
%typemap(in) plb_strs_in {
    if ($input != Py_None) {
        PyObject *seq_ = NULL;
        if (!PyUnicode_Check($input) && !PyBytes_Check($input))
            seq_ = PySequence_Fast($input, "expected a sequence of str");
        else
            PyErr_SetString(PyExc_TypeError, "expected a sequence of str, got a single string");
        if (!seq_)
            SWIG_fail;
        Py_ssize_t n_ = PySequence_Fast_GET_SIZE(seq_);
        $1.v = n_ < INT32_MAX ? calloc((size_t)(n_ > 0 ? n_ : 1), sizeof *$1.v) : NULL;
        if (!$1.v) {
            Py_DECREF(seq_);
            PyErr_NoMemory();
            SWIG_fail;
        }
        for (Py_ssize_t i_ = 0; i_ < n_; i_++) {
            PyObject *item_ = PySequence_Fast_GET_ITEM(seq_, i_);
            const char *str_ = PyUnicode_Check(item_) ? PyUnicode_AsUTF8(item_) : NULL;
            if (!str_ && !PyErr_Occurred())
                PyErr_Format(PyExc_TypeError, "expected a sequence of str, item %zd is %s", i_,
                             Py_TYPE(item_)->tp_name);
            if (str_ && !($1.v[i_] = strdup(str_)))
                PyErr_NoMemory();
            if (PyErr_Occurred()) {
                Py_DECREF(seq_);
                SWIG_fail;
            }
            $1.n = (int32_t)(i_ + 1);
        }
        Py_DECREF(seq_);
    }
}
%typemap(in) plb_doubles_in {
    if ($input != Py_None) {
        PyObject *seq_ = PySequence_Fast($input, "expected a sequence of numbers");
        if (!seq_)
            SWIG_fail;
        Py_ssize_t n_ = PySequence_Fast_GET_SIZE(seq_);
        $1.v = n_ < INT32_MAX ? malloc(sizeof *$1.v * (size_t)(n_ > 0 ? n_ : 1)) : NULL;
        if (!$1.v) {
            Py_DECREF(seq_);
            PyErr_NoMemory();
            SWIG_fail;
        }
        for (Py_ssize_t i_ = 0; i_ < n_; i_++) {
            double d_ = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq_, i_));
            if (d_ == -1.0 && PyErr_Occurred()) {
                Py_DECREF(seq_);
                SWIG_fail;
            }
            $1.v[i_] = d_;
        }
        $1.n = (int32_t)n_;
        Py_DECREF(seq_);
    }
}

%include "extras.i"
%include "../common/all.i"
%include "progress.i"

/* Python types for the C types that python:annotations "c" writes into the
 * proxies' signatures. Runs once at import, after every class exists. */
%pythoncode %{
def _annotate():
    import inspect
    import typing
    known = {
        "int32_t": int, "int64_t": int, "uint64_t": int, "int": int, "double": float,
        "bool": bool, "char const *": str, "char *": str, "void": None,
        "plb_ints": typing.List[int], "plb_i64s": typing.List[int],
        "plb_f64s": typing.List[float], "plb_strs_in": typing.Sequence[str],
        "plb_doubles_in": typing.Sequence[float],
        "plb_cbarg": typing.Optional[typing.Callable[[int, int, float], object]],
        "pl_arc_info": ArcInfo, "pl_link_info": LinkInfo,
    }
    # Results that are None when the library has no value (a NULL char *).
    nullable = {"FlowNetwork.node_name", "Topology.attr", "Job.name", "Job.workload_type",
                "Job.workload_size", "Job.gpu_model", "Decisions.reason"}

    def python_type(ctype):
        if ctype in known:
            return known[ctype]
        name = ctype.replace(" const", "").rstrip(" *")
        cls = globals().get(name)
        if isinstance(cls, type):
            return cls
        if name.startswith("pl_"):   # the enums: ints, as their constants are
            return int
        raise TypeError("placement: no Python type for the C type %r" % ctype)

    def is_ctype(t):
        # Python-written methods (extras.i) annotate with Python types, and
        # with strings only for what core does not define (FlowResult, numpy).
        return isinstance(t, str) and (t in known or t.startswith("pl_") or t.endswith("*")
                                       or isinstance(globals().get(t), type))

    def fix(fn, qualname):
        ann = getattr(fn, "__annotations__", None)
        if not ann or not any(is_ctype(t) for t in ann.values()):
            return
        defaults = {p.name: p.default for p in inspect.signature(fn).parameters.values()}
        for arg, ctype in list(ann.items()):
            if not is_ctype(ctype):
                continue
            t = python_type(ctype)
            if (arg != "return" and defaults.get(arg) is None) or (arg == "return" and qualname in nullable):
                t = typing.Optional[t]
            ann[arg] = t

    for name, obj in list(globals().items()):
        if inspect.isfunction(obj) and obj.__module__ == __name__:
            fix(obj, name)
        elif isinstance(obj, type) and obj.__module__ == __name__ and hasattr(obj, "thisown"):
            for attr, member in list(vars(obj).items()):
                fn = member.__func__ if isinstance(member, staticmethod) else member
                if inspect.isfunction(fn):
                    fix(fn, obj.__name__ + "." + attr)
            members = vars(obj).get("__annotations__", {})
            for attr, ctype in list(members.items()):
                if is_ctype(ctype):
                    members[attr] = python_type(ctype)
                field = vars(obj).get(attr)
                if isinstance(field, property) and not field.__doc__:
                    field.__doc__ = "%s : %s" % (attr, inspect.formatannotation(members[attr]))
            init = vars(obj).get("__init__")
            if inspect.isfunction(init):
                init.__annotations__.setdefault("return", None)
            if inspect.isfunction(init) and not init.__doc__:
                if "No constructor defined" in init.__code__.co_consts:
                    init.__doc__ = "Not constructible: %s objects come from the calls that return them." % name
                else:
                    init.__doc__ = "A %s with every field 0." % name
            obj.__module__ = "placement"   # the public name: help() shows placement.Topology


_annotate()
del _annotate
%}
