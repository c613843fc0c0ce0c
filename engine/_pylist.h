/* Python lists of floats to and from C arrays, for the loops that take and give the lists the engine's
 * Python code keeps (engine/_chains.c: profile_absorb; engine/_joint.c: random_sum). */
#ifndef WARSCRIBE_PYLIST_H
#define WARSCRIBE_PYLIST_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* out[i] = float(list[i]) for the first n items (a list of at least n); -1 with an exception set. */
static int doubles_from_list(PyObject *list, double *out, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i++) {
        double x = PyFloat_AsDouble(PyList_GET_ITEM(list, i));
        if (x == -1.0 && PyErr_Occurred())
            return -1;
        out[i] = x;
    }
    return 0;
}

/* A new list of the n values; NULL with an exception set. */
static PyObject *list_from_doubles(const double *values, Py_ssize_t n) {
    PyObject *list = PyList_New(n);
    if (list == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyFloat_FromDouble(values[i]);
        if (x == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

#endif
