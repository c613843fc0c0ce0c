/* The joint law of a group's normal wounds and mortal-wound packets (engine/dist.py) in C.
 *
 * Both functions do the floating-point operations of their Python counterparts in the
 * same order, one rounding per operation, so the results are the same bit for bit
 * (tests/engine/test_native.py holds them together): the law is the one the engine has
 * always used for [DEVASTATING WOUNDS], and this only makes it cheap enough to use for
 * every group of a few dozen attacks. Compile without contracting a * b + c into one
 * fused operation (-ffp-contract=off, set in pyproject.toml) and without -ffast-math.
 *
 * sparse: dist._joint_random_sum_sparse, whose dicts sum each key's terms in the order
 * the keys were first met. Here a dict is its keys in insertion order plus a grid from
 * (k, m) to its place, so every sum takes its terms in the dict's order.
 *
 * graded: dist.joint_random_sum_graded (dense, one shifted add per key of the unit law),
 * row by row: each cell of a row sums its keys' terms in numpy's order. Only the triangle
 * k + m <= reach is computed (its rows rounded up to BLOCK cells): the other cells hold
 * zeros, and adding a zero product to a probability (finite, never negative) changes nothing.
 *
 * random_sum: dist.random_sum's general loop, described where it is defined below.
 *
 * Arrays come as C-contiguous buffers of float64 (int64 for the keys); every length is
 * checked before anything is read or written, and the work is bounded (MAX_CELLS).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_pylist.h"

/* Cells of a grid of (k, m): 2M (the sparse law holds 44 bytes a cell, the dense one 24: under 100 MB);
 * the joint law's budget in engine/devastating.py (JOINT_BUDGET) is about 60 attacks, far below. */
#define MAX_CELLS ((Py_ssize_t)1 << 21)

static int fail(const char *what) {
    PyErr_SetString(PyExc_ValueError, what);
    return -1;
}

/* count (L float64), keys dk, dm (U int64 each, not negative) and p (U float64): checked; the largest dk, dm. */
static int get_law(Py_buffer *count, Py_buffer *dk, Py_buffer *dm, Py_buffer *p, Py_ssize_t *L, Py_ssize_t *U,
                   int64_t *top_k, int64_t *top_m) {
    if (count->len % 8 || count->len == 0 || dk->len % 8 || dk->len == 0 || dm->len != dk->len ||
        p->len != dk->len)
        return fail("joint law: bad count or keys");
    *L = count->len / 8;
    *U = dk->len / 8;
    const int64_t *pk = dk->buf, *pm = dm->buf;
    *top_k = *top_m = 0;
    for (Py_ssize_t j = 0; j < *U; j++) {
        if (pk[j] < 0 || pm[j] < 0 || pk[j] > 1024 || pm[j] > 1024)
            return fail("joint law: a key out of range");
        if (pk[j] > *top_k)
            *top_k = pk[j];
        if (pm[j] > *top_m)
            *top_m = pm[j];
    }
    return 0;
}

#define BLOCK 16 /* cells summed side by side: independent sums hide an add's latency */

/* t[i] = t[i] + w s[i], i < n (rounded up to a multiple of BLOCK: the rows are padded). */
static void add_scaled(double *t, const double *s, double w, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i += BLOCK)
        for (int l = 0; l < BLOCK; l++)
            t[i + l] = t[i + l] + w * s[i + l];
}

/* weighted_row: t[i] = (((0 + w[0] s[0][i]) + w[1] s[1][i]) + ...), i < n (rounded up to a multiple of
 * BLOCK: the rows are padded), each cell's terms in the order of the sources, as numpy's one add
 * per source gives them. BLOCK cells side by side in vectors of two doubles (SSE2, NEON) or, where
 * the machine has AVX2, of four: each lane a multiply and an add, each rounded once. Loads and
 * stores through memcpy: the rows are not aligned. */
typedef double v2 __attribute__((vector_size(16)));

static void weighted_row_2(double *t, const double *const *s, const double *w, Py_ssize_t sources,
                           Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i += BLOCK) {
        v2 acc[BLOCK / 2] = {{0.0, 0.0}};
        for (Py_ssize_t j = 0; j < sources; j++) {
            const v2 wv = {w[j], w[j]};
            const double *x = s[j] + i;
            for (int l = 0; l < BLOCK / 2; l++) {
                v2 xv;
                memcpy(&xv, x + 2 * l, sizeof xv);
                acc[l] = acc[l] + wv * xv;
            }
        }
        memcpy(t + i, acc, sizeof acc);
    }
}

#if defined(__GNUC__) && defined(__x86_64__)
#define HAVE_WIDE 1
typedef double v4 __attribute__((vector_size(32)));

__attribute__((target("avx2"))) static inline v4 load4(const double *x) {
    v4 v;
    memcpy(&v, x, sizeof v);
    return v;
}

__attribute__((target("avx2"))) static void weighted_row_4(double *t, const double *const *s, const double *w,
                                                            Py_ssize_t sources, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i += BLOCK) {
        v4 a = {0.0, 0.0, 0.0, 0.0}, b = a, c = a, d = a; /* BLOCK / 4 sums, kept in registers */
        for (Py_ssize_t j = 0; j < sources; j++) {
            const v4 wv = {w[j], w[j], w[j], w[j]};
            const double *x = s[j] + i;
            a = a + wv * load4(x);
            b = b + wv * load4(x + 4);
            c = c + wv * load4(x + 8);
            d = d + wv * load4(x + 12);
        }
        memcpy(t + i, &a, sizeof a);
        memcpy(t + i + 4, &b, sizeof b);
        memcpy(t + i + 8, &c, sizeof c);
        memcpy(t + i + 12, &d, sizeof d);
    }
}
#endif

static void (*weighted_row)(double *, const double *const *, const double *, Py_ssize_t, Py_ssize_t) =
    weighted_row_2;

/* The n buffers of b released, then the n_free pointers that follow freed. */
static void release(Py_buffer *b, int n, int n_free, ...) {
    for (int i = 0; i < n; i++)
        PyBuffer_Release(&b[i]);
    va_list ap;
    va_start(ap, n_free);
    for (int i = 0; i < n_free; i++)
        free(va_arg(ap, void *));
    va_end(ap);
}

/* sparse(count, dk, dm, p, out) -> (height, width)
 * The joint law of the sums of N (k, m) pairs, N ~ count, as _joint_random_sum_sparse's dict
 * turned into rows (group_counts._joint_table): out is (M + 1) x (K + 1) zeros, K = (L - 1) max dk,
 * M = (L - 1) max dm; out[m][k] gets P(k, m); height and width: one past the largest m and k
 * of the dict's keys. */
static PyObject *sparse(PyObject *self, PyObject *args) {
    Py_buffer b[5];
    if (!PyArg_ParseTuple(args, "y*y*y*y*w*", &b[0], &b[1], &b[2], &b[3], &b[4]))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t L, U;
    int64_t top_k, top_m;
    int32_t *keys = NULL, *next_keys = NULL, *stamp = NULL;
    Py_ssize_t *place = NULL;
    double *vals = NULL, *next_vals = NULL, *acc = NULL;
    if (get_law(&b[0], &b[1], &b[2], &b[3], &L, &U, &top_k, &top_m))
        goto done;
    const Py_ssize_t last = L - 1, K = last * top_k, M = last * top_m;
    if (K + 1 > MAX_CELLS || M + 1 > MAX_CELLS || (K + 1) * (M + 1) > MAX_CELLS) {
        fail("sparse: the law is too big");
        goto done;
    }
    const Py_ssize_t W = M + 1, cells = (K + 1) * W;
    if (b[4].len != cells * 8) {
        fail("sparse: out does not match the count and the keys");
        goto done;
    }
    const double *count = b[0].buf, *p = b[3].buf;
    const int64_t *dk = b[1].buf, *dm = b[2].buf;
    /* A dict: its keys (as cells k * W + m) in insertion order, their values; stamp[cell] = n when
     * the dict of power n + 1 holds it, at place[cell]. */
    keys = malloc(cells * sizeof *keys);
    next_keys = malloc(cells * sizeof *next_keys);
    vals = malloc(cells * sizeof *vals);
    next_vals = malloc(cells * sizeof *next_vals);
    stamp = malloc(cells * sizeof *stamp);
    place = malloc(cells * sizeof *place);
    acc = calloc(cells, sizeof *acc);
    if (!keys || !next_keys || !vals || !next_vals || !stamp || !place || !acc) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t c = 0; c < cells; c++)
        stamp[c] = -1;
    Py_ssize_t size = 1, top_kk = -1, top_mm = -1;
    keys[0] = 0;
    vals[0] = 1.0;
    for (Py_ssize_t n = 0; n <= last; n++) {
        const double pn = count[n];
        if (pn != 0.0 || pn != pn) {
            for (Py_ssize_t i = 0; i < size; i++) {
                const Py_ssize_t c = keys[i], k = c / W, m = c % W;
                acc[c] = acc[c] + pn * vals[i];
                if (k > top_kk)
                    top_kk = k;
                if (m > top_mm)
                    top_mm = m;
            }
        }
        if (n == last)
            break;
        Py_ssize_t grown = 0;
        for (Py_ssize_t i = 0; i < size; i++) {
            const double pa = vals[i];
            const Py_ssize_t base = keys[i];
            for (Py_ssize_t j = 0; j < U; j++) {
                const Py_ssize_t c = base + (Py_ssize_t)dk[j] * W + (Py_ssize_t)dm[j];
                const double term = pa * p[j];
                if (stamp[c] != (int32_t)n) {
                    stamp[c] = (int32_t)n;
                    place[c] = grown;
                    next_keys[grown] = (int32_t)c;
                    next_vals[grown++] = 0.0 + term;
                } else {
                    next_vals[place[c]] = next_vals[place[c]] + term;
                }
            }
        }
        int32_t *tk = keys;
        keys = next_keys;
        next_keys = tk;
        double *tv = vals;
        vals = next_vals;
        next_vals = tv;
        size = grown;
    }
    double *out = b[4].buf;
    const Py_ssize_t width = K + 1;
    for (Py_ssize_t k = 0; k <= top_kk; k++)
        for (Py_ssize_t m = 0; m <= top_mm; m++)
            out[m * width + k] = acc[k * W + m];
    result = Py_BuildValue("(nn)", top_mm + 1, top_kk + 1);
done:
    release(b, 5, 7, (void *)keys, (void *)next_keys, (void *)vals, (void *)next_vals, (void *)stamp, (void *)place,
            (void *)acc);
    return result;
}

/* graded(count, dk, dm, p, degree, out)
 * joint_random_sum_graded for a unit law listed in graded order (dist.graded_degree), as
 * group_counts._joint_table keeps it: out is (R + 1) x (R + 1), R = degree x the largest n with
 * count[n] != 0, out[m][k] = P(k, m). */
static PyObject *graded(PyObject *self, PyObject *args) {
    Py_buffer b[5];
    Py_ssize_t degree;
    if (!PyArg_ParseTuple(args, "y*y*y*y*nw*", &b[0], &b[1], &b[2], &b[3], &degree, &b[4]))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t L, U;
    int64_t top_k, top_m;
    double *acc = NULL, *power = NULL, *next = NULL, *weights = NULL;
    const double **rows = NULL;
    if (get_law(&b[0], &b[1], &b[2], &b[3], &L, &U, &top_k, &top_m))
        goto done;
    const double *count = b[0].buf, *p = b[3].buf;
    const int64_t *dk = b[1].buf, *dm = b[2].buf;
    for (Py_ssize_t j = 0; j < U; j++)
        if (dk[j] + dm[j] > degree) {
            fail("graded: a key beyond the degree");
            goto done;
        }
    const Py_ssize_t last = L - 1;
    if (degree < 1 || degree > 1024 || last > MAX_CELLS / degree) {
        fail("graded: bad degree");
        goto done;
    }
    const Py_ssize_t size = degree * last + 1;
    if (size > MAX_CELLS / size) {
        fail("graded: the law is too big");
        goto done;
    }
    Py_ssize_t top_n = -1;
    for (Py_ssize_t n = 0; n <= last; n++)
        if (count[n] != 0.0 || count[n] != count[n])
            top_n = n;
    const Py_ssize_t R = degree * (top_n < 0 ? 0 : top_n);
    if (b[4].len != (R + 1) * (R + 1) * 8) {
        fail("graded: out does not match the count and the degree");
        goto done;
    }
    /* Rows of `stride` doubles: `degree` zeros before each row's cell 0 (a key's shift reads them),
     * then the row, then zeros to round a pass up to BLOCK cells. */
    const Py_ssize_t stride = degree + size + BLOCK;
    acc = calloc(size * stride, sizeof *acc);
    power = calloc(size * stride, sizeof *power);
    next = calloc(size * stride, sizeof *next);
    rows = malloc(U * sizeof *rows);
    weights = malloc(U * sizeof *weights);
    if (!acc || !power || !next || !rows || !weights) {
        PyErr_NoMemory();
        goto done;
    }
#define CELL(a, k) ((a) + (k) * stride + degree)
    CELL(power, 0)[0] = 1.0;
    Py_ssize_t reach = 0; /* power's cells are zero past k + m <= reach */
    for (Py_ssize_t n = 0; n <= last; n++) {
        const double pn = count[n];
        if (pn != 0.0 || pn != pn)
            for (Py_ssize_t k = 0; k <= reach; k++)
                add_scaled(CELL(acc, k), CELL(power, k), pn, reach - k + 1);
        if (n == last)
            break;
        const Py_ssize_t grown = reach + degree < size - 1 ? reach + degree : size - 1;
        /* Row by row of the next power, each cell summing the unit's keys' terms in reverse order
         * (numpy's order: one shifted add per key). A key whose source row lies outside the power
         * adds nothing; a source cell past the power's reach is zero, and past the row's cells a
         * pad of zeros, so a term read there adds a zero product, which changes nothing. */
        for (Py_ssize_t row = 0; row <= grown; row++) {
            Py_ssize_t used = 0;
            for (Py_ssize_t j = U - 1; j >= 0; j--) {
                const Py_ssize_t k = row - (Py_ssize_t)dk[j];
                if (k < 0 || k > reach)
                    continue;
                rows[used] = CELL(power, k) - dm[j];
                weights[used++] = p[j];
            }
            weighted_row(CELL(next, row), rows, weights, used, grown - row + 1);
        }
        double *swap = power;
        power = next;
        next = swap;
        reach = grown;
    }
    double *out = b[4].buf;
    for (Py_ssize_t m = 0; m <= R; m++)
        for (Py_ssize_t k = 0; k <= R; k++)
            out[m * (R + 1) + k] = CELL(acc, k)[m];
#undef CELL
    result = Py_NewRef(Py_None);
done:
    release(b, 5, 5, (void *)acc, (void *)power, (void *)next, (void *)weights, (void *)rows);
    return result;
}

/* wide(on) -> whether the four-lane kernel is now in use: on where the machine has AVX2 (so tests
 * can hold both kernels to the same bits). */
static PyObject *wide(PyObject *self, PyObject *arg) {
    int on = PyObject_IsTrue(arg);
    if (on < 0)
        return NULL;
    weighted_row = weighted_row_2;
#ifdef HAVE_WIDE
    if (on && __builtin_cpu_supports("avx2"))
        weighted_row = weighted_row_4;
    return PyBool_FromLong(weighted_row == weighted_row_4);
#else
    return PyBool_FromLong(0);
#endif
}

/* random_sum(count, unit, cap, last) -> list: dist.random_sum's general loop (the powers of the unit law
 * by repeated dist.convolve, each added with its count's weight), on the Python lists of floats that code
 * keeps; cap < 0 is no cap. dist.py calls it only where no convolution of the loop reaches
 * dist.NUMPY_AT (where dist.convolve hands over to numpy's order), so each sum here is taken in the
 * Python loops' order, skipping the zeros they skip: the same bits. */
/* dist.lump of `dist` (n entries) into out; returns its length. */
static Py_ssize_t lump_into(const double *dist, Py_ssize_t n, Py_ssize_t cap, double *out) {
    if (cap < 0 || n <= cap + 1) {
        memcpy(out, dist, n * sizeof(double));
        return n;
    }
    memcpy(out, dist, cap * sizeof(double));
    double tail = 0.0;
    for (Py_ssize_t i = cap; i < n; i++)
        tail = tail + dist[i];
    out[cap] = tail;
    return cap + 1;
}

static PyObject *random_sum(PyObject *self, PyObject *args) {
    PyObject *count_list, *unit_list;
    Py_ssize_t cap, last;
    if (!PyArg_ParseTuple(args, "O!O!nn", &PyList_Type, &count_list, &PyList_Type, &unit_list, &cap, &last))
        return NULL;
    const Py_ssize_t E = PyList_GET_SIZE(count_list), L = PyList_GET_SIZE(unit_list);
    if (last < 0 || last >= E || L < 1 || L > MAX_CELLS || last > MAX_CELLS) {
        PyErr_SetString(PyExc_ValueError, "random_sum: bad count, unit or last");
        return NULL;
    }
    /* The longest power: last x (L - 1) + 1 entries, at most cap + 1. */
    Py_ssize_t room = last * (L - 1) + 1;
    if (cap >= 0 && room > cap + 1)
        room = cap + 1;
    if (room > MAX_CELLS) {
        PyErr_SetString(PyExc_ValueError, "random_sum: too large");
        return NULL;
    }
    PyObject *result = NULL;
    double *block = PyMem_Calloc(E + L + 3 * room, sizeof(double));
    if (!block)
        return PyErr_NoMemory();
    double *count = block, *unit = block + E, *acc = unit + L, *power = acc + room, *next = power + room;
    if (doubles_from_list(count_list, count, E) || doubles_from_list(unit_list, unit, L))
        goto done;
    Py_ssize_t acc_len = 1, power_len = 1;
    power[0] = 1.0;
    for (Py_ssize_t n = 0; n <= last; n++) {
        double pn = count[n];
        if (pn != 0.0) { /* dist.add_scaled */
            if (acc_len < power_len)
                acc_len = power_len;
            for (Py_ssize_t i = 0; i < power_len; i++)
                if (power[i] != 0.0)
                    acc[i] = acc[i] + pn * power[i];
        }
        if (n == last)
            break;
        /* dist.convolve(power, unit, cap) */
        Py_ssize_t size;
        if (power_len == 1 && power[0] == 1.0)
            size = lump_into(unit, L, cap, next);
        else if (L == 1 && unit[0] == 1.0)
            size = lump_into(power, power_len, cap, next);
        else {
            size = power_len + L - 1;
            if (cap >= 0 && size > cap + 1)
                size = cap + 1;
            memset(next, 0, size * sizeof(double));
            const Py_ssize_t top = size - 1;
            for (Py_ssize_t i = 0; i < power_len; i++) {
                double pa = power[i];
                if (pa == 0.0)
                    continue;
                for (Py_ssize_t j = 0; j < L; j++) {
                    double pb = unit[j];
                    if (pb == 0.0)
                        continue;
                    Py_ssize_t k = i + j > top ? top : i + j;
                    next[k] = next[k] + pa * pb;
                }
            }
        }
        double *t = power;
        power = next;
        next = t;
        power_len = size;
    }
    result = list_from_doubles(acc, acc_len);
done:
    PyMem_Free(block);
    return result;
}

static PyMethodDef methods[] = {
    {"random_sum", random_sum, METH_VARARGS, "dist.random_sum's general loop on lists of floats."},
    {"wide", wide, METH_O, "Whether to take the four-lane kernel (where the machine has AVX2); returns whether it is."},
    {"sparse", sparse, METH_VARARGS, "The sparse joint law's rows into out; returns (height, width)."},
    {"graded", graded, METH_VARARGS, "The graded joint law's rows into out."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_joint",
                                    "The joint law of normal wounds and mortal-wound packets in C.", -1, methods};

PyMODINIT_FUNC PyInit__joint(void) {
#ifdef HAVE_WIDE
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2"))
        weighted_row = weighted_row_4;
#endif
    return PyModule_Create(&module);
}
