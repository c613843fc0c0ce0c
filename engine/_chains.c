/* The allocation chain's loops (engine/chains.py, class Chain) in C.
 *
 * Each function does the floating-point operations of its numpy counterpart in
 * Chain, in the same order, one rounding per operation, so the results are the
 * same bit for bit (tests/engine/test_native.py holds the two together). It
 * must be compiled without contracting a * b + c into one fused operation
 * (-ffp-contract=off, set in pyproject.toml) and without -ffast-math.
 *
 * Arrays come as C-contiguous buffers of float64 (int64 for offsets), with
 * their shapes as arguments; every length is checked against those shapes
 * before anything is read or written. Probabilities are finite and never
 * negative, so adding a zero (where numpy adds a zero term) changes nothing.
 *
 * A chain is (terms, offsets): terms[i][t] is the coefficient of source state
 * t + offsets[i] for target state t (zero past the last state), offsets[0] = 0
 * (the chance that an event removes nothing), the others ascending.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "_pylist.h"

typedef struct {
    const double *terms;
    const int64_t *offsets;
    Py_ssize_t n;    /* offsets (and rows of terms) */
    Py_ssize_t size; /* states */
} chain_t;

typedef struct {
    double unsaved, damage;
} reward_t;

static int fail(const char *what) {
    PyErr_SetString(PyExc_ValueError, what);
    return -1;
}

static int check_len(Py_buffer *b, Py_ssize_t count, const char *what) {
    if (count < 0 || b->len != count * 8)
        return fail(what);
    return 0;
}

/* The chain from (terms, offsets, size): lengths and offsets checked. */
static int get_chain(chain_t *c, Py_buffer *terms, Py_buffer *offsets, Py_ssize_t size) {
    if (size < 1 || offsets->len % 8 || offsets->len == 0)
        return fail("chain: bad offsets or size");
    c->n = offsets->len / 8;
    c->size = size;
    if (check_len(terms, c->n * size, "chain: terms do not match offsets x size"))
        return -1;
    c->terms = (const double *)terms->buf;
    c->offsets = (const int64_t *)offsets->buf;
    if (c->offsets[0] != 0)
        return fail("chain: the first offset is not 0");
    for (Py_ssize_t i = 1; i < c->n; i++)
        if (c->offsets[i] <= 0)
            return fail("chain: offsets must be positive");
    return 0;
}

/* Chain.step: out = v T for each of `rows` rows; out[t] = v[t] stay[t] + v[t + o1] c1[t] + ... */
static void step_rows(const chain_t *c, const double *v, double *out, Py_ssize_t rows) {
    const Py_ssize_t S = c->size;
    for (Py_ssize_t r = 0; r < rows; r++) {
        const double *x = v + r * S;
        double *y = out + r * S;
        for (Py_ssize_t t = 0; t < S; t++) {
            double acc = x[t] * c->terms[t];
            for (Py_ssize_t i = 1; i < c->n; i++) {
                Py_ssize_t s = t + (Py_ssize_t)c->offsets[i];
                if (s < S)
                    acc = acc + x[s] * c->terms[i * S + t];
            }
            y[t] = acc;
        }
    }
}

/* The expected reward of an event at row r of v: sum_t v[t] unsaved[t] (and damage), in order. */
static void row_rewards(const double *v, const double *unsaved, const double *damage, Py_ssize_t S,
                        double *u, double *d) {
    double su = v[0] * unsaved[0], sd = v[0] * damage[0];
    for (Py_ssize_t t = 1; t < S; t++) {
        su = su + v[t] * unsaved[t];
        sd = sd + v[t] * damage[t];
    }
    *u = su;
    *d = sd;
}

static int any_alive(const double *row, Py_ssize_t S) {
    for (Py_ssize_t t = 1; t < S; t++)
        if (row[t] != 0.0)
            return 1;
    return 0;
}

/* Chain.expected's sums: reward += w[i][r] u[i][r] over rows r, then events i (the order of
 * its loops); w is per event (wstride 0) or per event and row (wstride 1). */
static void add_rewards(reward_t *rw, const double *w, Py_ssize_t wstride, const double *us, const double *ds,
                        Py_ssize_t events, Py_ssize_t rows) {
    for (Py_ssize_t r = 0; r < rows; r++)
        for (Py_ssize_t i = 0; i < events; i++) {
            double wi = wstride ? w[i * rows + r] : w[i];
            rw->unsaved = rw->unsaved + wi * us[i * rows + r];
            rw->damage = rw->damage + wi * ds[i * rows + r];
        }
}

/* Working memory of one call: cur and next (rows x S), per event the rewards (and weights), and
 * which rows of cur have every model slain. */
typedef struct {
    double *cur, *next, *us, *ds, *ws;
    unsigned char *dead;
} work_t;

/* w->dead[r]: row r of cur has every model slain; sets *some and *all. */
static void find_dead(work_t *w, Py_ssize_t rows, Py_ssize_t S, int *some, int *all) {
    *some = 0;
    *all = 1;
    for (Py_ssize_t r = 0; r < rows; r++) {
        w->dead[r] = !any_alive(w->cur + r * S, S);
        *some |= w->dead[r];
        *all &= w->dead[r];
    }
}

/* numpy's cur * alive: the rows with every model slain become zeros (their mass is on state 0). */
static void clear_dead(work_t *w, Py_ssize_t rows, Py_ssize_t S) {
    for (Py_ssize_t r = 0; r < rows; r++)
        if (w->dead[r])
            w->cur[r * S] = 0.0;
}

static void release(int n, ...) {
    va_list buffers;
    va_start(buffers, n);
    for (int i = 0; i < n; i++)
        PyBuffer_Release(va_arg(buffers, Py_buffer *));
    va_end(buffers);
}

static int work_alloc(work_t *w, Py_ssize_t rows, Py_ssize_t S, Py_ssize_t events, Py_ssize_t wrows) {
    memset(w, 0, sizeof(*w));
    if (rows <= 0 || S <= 0 || events < 0 || rows > PY_SSIZE_T_MAX / 8 / S)
        return fail("work: bad shape");
    Py_ssize_t cells = rows * S, per = (events + 1) * rows;
    w->cur = PyMem_Malloc(cells * sizeof(double));
    w->next = PyMem_Malloc(cells * sizeof(double));
    w->us = PyMem_Malloc(per * sizeof(double));
    w->ds = PyMem_Malloc(per * sizeof(double));
    w->ws = PyMem_Malloc((events + 1) * (wrows > 0 ? wrows : 1) * sizeof(double));
    w->dead = PyMem_Malloc(rows);
    if (!w->cur || !w->next || !w->us || !w->ds || !w->ws || !w->dead) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void work_free(work_t *w) {
    PyMem_Free(w->cur);
    PyMem_Free(w->next);
    PyMem_Free(w->us);
    PyMem_Free(w->ds);
    PyMem_Free(w->ws);
    PyMem_Free(w->dead);
}

/* Note an event about to be applied at `cur`: its rewards (per row). */
static void seen(work_t *w, Py_ssize_t i, Py_ssize_t rows, Py_ssize_t S, const double *unsaved, const double *damage) {
    for (Py_ssize_t r = 0; r < rows; r++)
        row_rewards(w->cur + r * S, unsaved, damage, S, &w->us[i * rows + r], &w->ds[i * rows + r]);
}

static void advance(work_t *w, const chain_t *c, Py_ssize_t rows) {
    step_rows(c, w->cur, w->next, rows);
    double *t = w->cur;
    w->cur = w->next;
    w->next = t;
}

/* absorb_each(terms, offsets, unsaved, damage, v, rows, table, counts, tails, every, check, acc, reward)
 * Chain.absorb of several counts: acc (counts x rows x S, zeros), one absorb per row of table (counts x E); with one
 * count (table and tails one row, every = tails) Chain.absorb. */
static PyObject *absorb_each(PyObject *self, PyObject *args) {
    Py_buffer terms, offsets, unsaved, damage, v, table, tails, every, acc;
    Py_ssize_t rows, C;
    int check;
    reward_t rw;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*ny*ny*y*pw*(dd)", &terms, &offsets, &unsaved, &damage, &v, &rows, &table,
                          &C, &tails, &every, &check, &acc, &rw.unsaved, &rw.damage))
        return NULL;
    PyObject *result = NULL;
    chain_t c;
    work_t w;
    memset(&w, 0, sizeof(w));
    Py_ssize_t S = unsaved.len / 8, E = every.len / 8;
    if (get_chain(&c, &terms, &offsets, S) || check_len(&damage, S, "damage") || check_len(&v, rows * S, "v") ||
        E < 1 || C < 1 || check_len(&table, C * E, "table") || check_len(&tails, C * E, "tails") ||
        check_len(&acc, C * rows * S, "acc") || work_alloc(&w, rows, S, E, 0))
        goto done;
    const double *pt = table.buf, *ptl = tails.buf, *pev = every.buf;
    double *pa = acc.buf;
    Py_ssize_t cells = rows * S;
    memcpy(w.cur, v.buf, cells * sizeof(double));
    Py_ssize_t events = 0;
    for (Py_ssize_t e = 0; e < E; e++) {
        int any = 0;
        for (Py_ssize_t k = 0; k < C; k++)
            any |= pt[k * E + e] != 0.0;
        if (any)
            for (Py_ssize_t k = 0; k < C; k++) {
                double pe = pt[k * E + e];
                double *out = pa + k * cells;
                for (Py_ssize_t j = 0; j < cells; j++)
                    out[j] = out[j] + pe * w.cur[j];
            }
        double more = pev[e];
        if (e == E - 1 || more == 0.0)
            break;
        int some, all;
        if (check && (find_dead(&w, rows, S, &some, &all), some)) {
            for (Py_ssize_t r = 0; r < rows; r++)
                if (w.dead[r])
                    for (Py_ssize_t k = 0; k < C; k++)
                        pa[k * cells + r * S] = pa[k * cells + r * S] + ptl[k * E + e] * w.cur[r * S];
            if (all)
                break;
            clear_dead(&w, rows, S);
        }
        seen(&w, events, rows, S, unsaved.buf, damage.buf);
        w.ws[events++] = more;
        advance(&w, &c, rows);
    }
    add_rewards(&rw, w.ws, 0, w.us, w.ds, events, rows);
    result = Py_BuildValue("(dd)", rw.unsaved, rw.damage);
done:
    work_free(&w);
    release(9, &terms, &offsets, &unsaved, &damage, &v, &table, &tails, &every, &acc);
    return result;
}

/* absorb_rows(terms, offsets, unsaved, damage, v, rows, table, tails, check, acc, reward)
 * Chain.absorb by row: row r of v (rows x S) absorbed by its own count (row r of table, rows x E). */
static PyObject *absorb_rows(PyObject *self, PyObject *args) {
    Py_buffer terms, offsets, unsaved, damage, v, table, tails, acc;
    Py_ssize_t rows;
    int check;
    reward_t rw;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*ny*y*pw*(dd)", &terms, &offsets, &unsaved, &damage, &v, &rows, &table,
                          &tails, &check, &acc, &rw.unsaved, &rw.damage))
        return NULL;
    PyObject *result = NULL;
    chain_t c;
    work_t w;
    memset(&w, 0, sizeof(w));
    Py_ssize_t S = unsaved.len / 8, E = rows > 0 ? table.len / 8 / rows : 0;
    if (get_chain(&c, &terms, &offsets, S) || check_len(&damage, S, "damage") || check_len(&v, rows * S, "v") ||
        E < 1 || check_len(&table, rows * E, "table") || check_len(&tails, rows * E, "tails") ||
        check_len(&acc, rows * S, "acc") || work_alloc(&w, rows, S, E, rows))
        goto done;
    const double *pt = table.buf, *ptl = tails.buf;
    double *pa = acc.buf;
    memcpy(w.cur, v.buf, rows * S * sizeof(double));
    Py_ssize_t events = 0;
    for (Py_ssize_t e = 0; e < E; e++) {
        int more_any = 0;
        for (Py_ssize_t r = 0; r < rows; r++) {
            double pe = pt[r * E + e];
            for (Py_ssize_t t = 0; t < S; t++)
                pa[r * S + t] = pa[r * S + t] + pe * w.cur[r * S + t];
            more_any |= ptl[r * E + e] != 0.0;
        }
        if (e == E - 1 || !more_any)
            break;
        int some, all;
        if (check && (find_dead(&w, rows, S, &some, &all), some)) {
            for (Py_ssize_t r = 0; r < rows; r++)
                if (w.dead[r])
                    pa[r * S] = pa[r * S] + ptl[r * E + e] * w.cur[r * S];
            if (all)
                break;
            clear_dead(&w, rows, S);
        }
        seen(&w, events, rows, S, unsaved.buf, damage.buf);
        for (Py_ssize_t r = 0; r < rows; r++)
            w.ws[events * rows + r] = ptl[r * E + e];
        events++;
        advance(&w, &c, rows);
    }
    add_rewards(&rw, w.ws, 1, w.us, w.ds, events, rows);
    result = Py_BuildValue("(dd)", rw.unsaved, rw.damage);
done:
    work_free(&w);
    release(8, &terms, &offsets, &unsaved, &damage, &v, &table, &tails, &acc);
    return result;
}

/* power_series(terms, offsets, unsaved, damage, vectors, count, rows, out, reward)
 * Chain.power_series: out = sum_m vectors[m] T^m by Horner's scheme (vectors: count x rows x S). */
static PyObject *power_series(PyObject *self, PyObject *args) {
    Py_buffer terms, offsets, unsaved, damage, vectors, out;
    Py_ssize_t M, rows;
    reward_t rw;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*nnw*(dd)", &terms, &offsets, &unsaved, &damage, &vectors, &M, &rows, &out,
                          &rw.unsaved, &rw.damage))
        return NULL;
    PyObject *result = NULL;
    chain_t c;
    work_t w;
    memset(&w, 0, sizeof(w));
    Py_ssize_t S = unsaved.len / 8;
    if (get_chain(&c, &terms, &offsets, S) || check_len(&damage, S, "damage") || M < 1 ||
        check_len(&vectors, M * rows * S, "vectors") || check_len(&out, rows * S, "out") ||
        work_alloc(&w, rows, S, M, 0))
        goto done;
    const double *pv = vectors.buf;
    Py_ssize_t cells = rows * S, events = 0;
    memcpy(w.cur, pv + (M - 1) * cells, cells * sizeof(double));
    for (Py_ssize_t m = M - 2; m >= 0; m--) {
        seen(&w, events, rows, S, unsaved.buf, damage.buf);
        w.ws[events++] = 1.0;
        advance(&w, &c, rows);
        for (Py_ssize_t j = 0; j < cells; j++)
            w.cur[j] = w.cur[j] + pv[m * cells + j];
    }
    memcpy(out.buf, w.cur, cells * sizeof(double));
    add_rewards(&rw, w.ws, 0, w.us, w.ds, events, rows);
    result = Py_BuildValue("(dd)", rw.unsaved, rw.damage);
done:
    work_free(&w);
    release(6, &terms, &offsets, &unsaved, &damage, &vectors, &out);
    return result;
}

/* step(terms, offsets, v, rows, out): Chain.step. */
static PyObject *step(PyObject *self, PyObject *args) {
    Py_buffer terms, offsets, v, out;
    Py_ssize_t rows;
    if (!PyArg_ParseTuple(args, "y*y*y*nw*", &terms, &offsets, &v, &rows, &out))
        return NULL;
    PyObject *result = NULL;
    chain_t c;
    Py_ssize_t S = rows > 0 ? v.len / 8 / rows : 0;
    if (rows < 1 || get_chain(&c, &terms, &offsets, S) || check_len(&v, rows * S, "v") ||
        check_len(&out, rows * S, "out"))
        goto done;
    step_rows(&c, v.buf, out.buf, rows);
    result = Py_NewRef(Py_None);
done:
    release(4, &terms, &offsets, &v, &out);
    return result;
}

/* powers(terms, offsets, unsaved, damage, first, count, out, rewards) -> (made, dead)
 * Chain._grow: out[0] = first (one row of S); while k < count and row k has a model alive, its reward
 * (unsaved, damage) goes to rewards[2k], rewards[2k + 1] and out[k + 1] = out[k] T. made: the rows
 * stepped from; dead: whether row `made` has every model slain (then made < count). */
static PyObject *powers(PyObject *self, PyObject *args) {
    Py_buffer terms, offsets, unsaved, damage, first, out, rewards;
    Py_ssize_t count;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*nw*w*", &terms, &offsets, &unsaved, &damage, &first, &count, &out,
                          &rewards))
        return NULL;
    PyObject *result = NULL;
    chain_t c;
    Py_ssize_t S = first.len / 8;
    if (count < 0 || get_chain(&c, &terms, &offsets, S) || check_len(&unsaved, S, "unsaved") ||
        check_len(&damage, S, "damage") || check_len(&out, (count + 1) * S, "out") ||
        check_len(&rewards, 2 * count, "rewards"))
        goto done;
    double *po = out.buf, *pr = rewards.buf;
    memcpy(po, first.buf, S * sizeof(double));
    Py_ssize_t made = 0;
    int dead = 0;
    for (; made < count; made++) {
        const double *row = po + made * S;
        if (!any_alive(row, S)) {
            dead = 1;
            break;
        }
        row_rewards(row, unsaved.buf, damage.buf, S, &pr[2 * made], &pr[2 * made + 1]);
        step_rows(&c, row, po + (made + 1) * S, 1);
    }
    result = Py_BuildValue("(ni)", made, dead);
done:
    release(7, &terms, &offsets, &unsaved, &damage, &first, &out, &rewards);
    return result;
}

/* weighted_sum(table, counts, powers, used, cells, acc): acc[k] = sum_e table[k][e] powers[e], e < used, in
 * order (Chain.from_start; table is counts x E with E >= used, powers used x cells). */
static PyObject *weighted_sum(PyObject *self, PyObject *args) {
    Py_buffer table, powers, acc;
    Py_ssize_t C, used, cells;
    if (!PyArg_ParseTuple(args, "y*ny*nnw*", &table, &C, &powers, &used, &cells, &acc))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t E = C > 0 ? table.len / 8 / C : 0;
    if (C < 1 || used < 1 || used > E || check_len(&table, C * E, "table") ||
        powers.len < used * cells * 8 || cells < 1 || check_len(&acc, C * cells, "acc")) {
        if (!PyErr_Occurred())
            fail("weighted_sum: bad shapes");
        goto done;
    }
    const double *pt = table.buf, *pp = powers.buf;
    double *pa = acc.buf;
    for (Py_ssize_t k = 0; k < C; k++) {
        double *out = pa + k * cells;
        double w0 = pt[k * E];
        for (Py_ssize_t j = 0; j < cells; j++)
            out[j] = w0 * pp[j];
        for (Py_ssize_t e = 1; e < used; e++) {
            double we = pt[k * E + e];
            if (we == 0.0) /* adds zeros (a joint law's rows are zero past its reach) */
                continue;
            const double *p = pp + e * cells;
            for (Py_ssize_t j = 0; j < cells; j++)
                out[j] = out[j] + we * p[j];
        }
    }
    result = Py_NewRef(Py_None);
done:
    release(3, &table, &powers, &acc);
    return result;
}

/* The single-profile target's chain (engine/allocation.py, class Chain), on the Python lists of floats
 * that code keeps.
 *
 * profile_absorb(event_damage, wounds, v, count) -> acc: Chain.absorb, its list loop (not its numpy path).
 * Chain.loss is built here as there: for a model with w wounds left, table[min(b, w)] += P(B = b) over b
 * ascending, zero chances skipped, then the nonzero entries in order of j; state r > 0 has
 * w = (r - 1) % wounds + 1 wounds left on its current model. Each sum is taken in the Python code's
 * order and skips the zeros it skips, so the results are the same bit for bit. */
static PyObject *profile_absorb(PyObject *self, PyObject *args) {
    PyObject *damage_list, *v_list, *count_list;
    Py_ssize_t W;
    if (!PyArg_ParseTuple(args, "O!nO!O!", &PyList_Type, &damage_list, &W, &PyList_Type, &v_list, &PyList_Type,
                          &count_list))
        return NULL;
    const Py_ssize_t S = PyList_GET_SIZE(v_list), E = PyList_GET_SIZE(count_list);
    const Py_ssize_t B = PyList_GET_SIZE(damage_list);
    if (W < 1 || S < 1 || W > S) {
        fail("profile_absorb: bad wounds or states");
        return NULL;
    }
    PyObject *result = NULL;
    /* One block: cur, next, acc (S each), count (E), damage (B), the loss tables (W x (W + 1)) and their
     * lengths (W + 1, as doubles' room). */
    Py_ssize_t cells = 3 * S + E + B + W * (W + 1) + (W + 1);
    if (W > 46340 || cells < 0 || cells > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(double)) {
        fail("profile_absorb: too large");
        return NULL;
    }
    double *block = PyMem_Calloc(cells > 0 ? cells : 1, sizeof(double));
    int64_t *lens = PyMem_Calloc(W + 1, sizeof(int64_t));
    int64_t *js = PyMem_Calloc(W * (W + 1) + 1, sizeof(int64_t));
    if (!block || !lens || !js) {
        PyErr_NoMemory();
        goto done;
    }
    double *cur = block, *next = block + S, *acc = block + 2 * S, *count = block + 3 * S, *dmg = count + E;
    double *qs = dmg + B; /* row w - 1 of W + 1 entries: model w's nonzero (j, q), lens[w] of them */
    if (doubles_from_list(v_list, cur, S) || doubles_from_list(count_list, count, E) ||
        doubles_from_list(damage_list, dmg, B))
        goto done;
    double small[64]; /* one model's table, before its zeros are dropped */
    double *tab = W + 1 <= 64 ? small : PyMem_Malloc((W + 1) * sizeof(double));
    if (!tab) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t w = 1; w <= W; w++) {
        for (Py_ssize_t j = 0; j <= w; j++)
            tab[j] = 0.0;
        for (Py_ssize_t b = 0; b < B; b++)
            if (dmg[b] != 0.0) {
                Py_ssize_t j = b < w ? b : w;
                tab[j] = tab[j] + dmg[b];
            }
        int64_t n = 0;
        for (Py_ssize_t j = 0; j <= w; j++)
            if (tab[j] != 0.0) {
                js[(w - 1) * (W + 1) + n] = j;
                qs[(w - 1) * (W + 1) + n] = tab[j];
                n++;
            }
        lens[w] = n;
    }
    if (tab != small)
        PyMem_Free(tab);
    for (Py_ssize_t e = 0; e < E; e++) {
        double pe = count[e];
        if (pe != 0.0)
            for (Py_ssize_t r = 0; r < S; r++)
                if (cur[r] != 0.0)
                    acc[r] = acc[r] + pe * cur[r];
        if (e == E - 1)
            break;
        if (!any_alive(cur, S)) {
            /* Everything left is destroyed: Python's sum(count[e + 1:]) from 0, then one product. */
            double tail = 0.0;
            for (Py_ssize_t i = e + 1; i < E; i++)
                tail = tail + count[i];
            acc[0] = acc[0] + tail * cur[0];
            break;
        }
        memset(next, 0, S * sizeof(double));
        next[0] = cur[0];
        for (Py_ssize_t r = 1; r < S; r++) {
            double p = cur[r];
            if (p == 0.0)
                continue;
            Py_ssize_t w = (r - 1) % W + 1;
            const int64_t *pj = js + (w - 1) * (W + 1);
            const double *pq = qs + (w - 1) * (W + 1);
            for (int64_t k = 0; k < lens[w]; k++)
                next[r - pj[k]] = next[r - pj[k]] + p * pq[k];
        }
        double *t = cur;
        cur = next;
        next = t;
    }
    result = list_from_doubles(acc, S);
done:
    PyMem_Free(block);
    PyMem_Free(lens);
    PyMem_Free(js);
    return result;
}

/* batch_chain(count, damage, models, wounds, out): engine/batch.py's _chain, case by case. count is n x E
 * (each case's chance of e wounding events), damage n x B (B >= wounds + 1: the damage of a wounding
 * event, 0 at index 0), out 3 x n (expected wounds removed, expected models slain, P(destroyed)).
 * State: alive[m][w], models m + 1 left and the current one with w wounds; dead, the unit destroyed.
 * The same sums as the numpy code, taken case by case: equal to it within rounding, not bit for bit
 * (tests/engine/test_native.py holds them within 1e-12); a case stops at its last possible count,
 * where the numpy code goes on adding zeros. */
static PyObject *batch_chain(PyObject *self, PyObject *args) {
    Py_buffer count, damage, out;
    Py_ssize_t models, wounds;
    if (!PyArg_ParseTuple(args, "y*y*nnw*", &count, &damage, &models, &wounds, &out))
        return NULL;
    PyObject *result = NULL;
    double *work = NULL;
    Py_ssize_t n = out.len / 8 / 3;
    if (models < 1 || wounds < 1 || n < 1 || out.len != 3 * n * 8 || count.len % (8 * n) || damage.len % (8 * n) ||
        models > 100000 || wounds > 100000 || models * (wounds + 1) > ((Py_ssize_t)1 << 24)) {
        fail("batch_chain: bad shapes");
        goto done;
    }
    const Py_ssize_t E = count.len / 8 / n, B = damage.len / 8 / n, W1 = wounds + 1, S = models * W1;
    if (E < 1 || B < W1) {
        fail("batch_chain: bad shapes");
        goto done;
    }
    work = PyMem_Malloc((3 * S + 2 * W1 + models) * sizeof(double));
    if (!work) {
        PyErr_NoMemory();
        goto done;
    }
    double *alive = work, *nxt = work + S, *acc = work + 2 * S, *tail = work + 3 * S, *dmg = tail + W1,
           *kill = dmg + W1;
    const double *pc = count.buf, *pd = damage.buf;
    double *po = out.buf;
    const double total = (double)(models * wounds);
    for (Py_ssize_t c = 0; c < n; c++) {
        const double *cnt = pc + c * E, *row = pd + c * B;
        Py_ssize_t last = E - 1;
        while (last > 0 && cnt[last] == 0.0)
            last--;
        double t = 0.0;
        for (Py_ssize_t b = B - 1; b >= 0; b--) {
            t += row[b];
            if (b < W1)
                tail[b] = t;
        }
        for (Py_ssize_t j = 0; j < W1; j++)
            dmg[j] = row[j];
        memset(alive, 0, S * sizeof(double));
        memset(acc, 0, S * sizeof(double));
        alive[(models - 1) * W1 + wounds] = 1.0;
        double dead = 0.0, acc_dead = 0.0;
        for (Py_ssize_t e = 0; e <= last; e++) {
            double pe = cnt[e];
            if (pe != 0.0) {
                for (Py_ssize_t i = 0; i < S; i++)
                    acc[i] += pe * alive[i];
                acc_dead += pe * dead;
            }
            if (e == last)
                break;
            memset(nxt, 0, S * sizeof(double));
            for (Py_ssize_t m = 0; m < models; m++) {
                const double *a = alive + m * W1;
                double *x = nxt + m * W1, k = 0.0;
                for (Py_ssize_t w = 1; w <= wounds; w++) {
                    double p = a[w];
                    if (p == 0.0)
                        continue;
                    k += p * tail[w];
                    for (Py_ssize_t j = 1; j < w; j++)
                        if (dmg[j] != 0.0)
                            x[w - j] += p * dmg[j];
                }
                kill[m] = k;
            }
            for (Py_ssize_t m = 0; m + 1 < models; m++)
                nxt[m * W1 + wounds] += kill[m + 1];
            dead += kill[0];
            double *swap = alive;
            alive = nxt;
            nxt = swap;
        }
        double ewr = 0.0, ems = 0.0;
        for (Py_ssize_t m = 0; m < models; m++)
            for (Py_ssize_t w = 1; w <= wounds; w++) {
                double a = acc[m * W1 + w];
                ewr += a * (total - (double)(m * wounds + w));
                ems += a * (double)(models - 1 - m);
            }
        po[c] = ewr + acc_dead * total;
        po[n + c] = ems + acc_dead * (double)models;
        po[2 * n + c] = acc_dead;
    }
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(work);
    release(3, &count, &damage, &out);
    return result;
}

static PyMethodDef methods[] = {
    {"profile_absorb", profile_absorb, METH_VARARGS, "allocation.Chain.absorb (lists of floats) in C."},
    {"step", step, METH_VARARGS, "Chain.step into out."},
    {"absorb_each", absorb_each, METH_VARARGS, "Chain.absorb of several counts into acc; returns the reward."},
    {"absorb_rows", absorb_rows, METH_VARARGS, "Chain.absorb by row into acc; returns the reward."},
    {"power_series", power_series, METH_VARARGS, "Chain.power_series into out; returns the reward."},
    {"weighted_sum", weighted_sum, METH_VARARGS, "Chain.from_start's sum over the powers into acc."},
    {"powers", powers, METH_VARARGS, "Chain._grow's successive steps into out."},
    {"batch_chain", batch_chain, METH_VARARGS, "batch._chain case by case into out."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_chains", "The allocation chain's loops in C.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__chains(void) { return PyModule_Create(&module); }
