/* The Ghost 13 search of dominolog.analysis.ghost13_search, in C.
 *
 * The same alpha-beta (fail-soft, principal-variation search, a transposition table of bounds,
 * enhanced transposition cutoffs, pip bounds, the Puppeteer rule) as the Python closure
 * `Search._build.search`, line for line, so that both give the same values: the Python one is the
 * reference (tests/test_analysis_ghost13c.py compares them). The tables (which tiles fit which
 * ends, the ends after a placement, the pips of a tile) are handed over by the Python module once
 * (`init`), so the tile numbering lives in one place.
 *
 * A `Table` is a transposition table: open addressing over 2^bits entries, two slots a key (the
 * one with fewer tiles in the hands is replaced); an entry keeps its whole key, so a lost entry
 * costs time, never a wrong value.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EMPTY 49
#define INF 1000
#define ETC_TILES 16

static uint32_t FIT[50];
static int8_t NN[50][28];
static int8_t NX[50][28][2];
static int16_t PIPS[28];
static int16_t PL[1 << 14], PH[1 << 14];
static uint32_t ZEROS;
static int ready = 0;

static inline int pips(uint32_t m) { return PL[m & 0x3FFF] + PH[m >> 14]; }
static inline int ctz(uint32_t x) { return __builtin_ctz(x); }
static inline int popc(uint32_t x) { return __builtin_popcount(x); }

typedef struct {
    uint64_t key;
    int16_t lo, hi;
    int16_t move;
    int16_t tiles;
} Entry;

typedef struct {
    PyObject_HEAD
    Entry *slots;
    uint64_t mask;
    int bits;
    long long nodes;
} Table;

static inline uint64_t slot_of(const Table *t, uint64_t key) {
    return ((key * 0x9E3779B97F4A7C15ULL) >> (64 - t->bits)) & ~1ULL;
}

static inline Entry *probe(Table *t, uint64_t key) {
    Entry *e = t->slots + slot_of(t, key);
    if (e[0].key == key) return e;
    if (e[1].key == key) return e + 1;
    return NULL;
}

static inline void put(Table *t, uint64_t key, int lo, int hi, int move) {
    Entry *e = t->slots + slot_of(t, key);
    int tiles = popc((uint32_t)(key & 0xFFFFFFF) | (uint32_t)((key >> 28) & 0xFFFFFFF));
    Entry *w;
    if (e[0].key == key || e[0].key == 0) w = e;
    else if (e[1].key == key || e[1].key == 0) w = e + 1;
    else w = e[0].tiles <= e[1].tiles ? e : e + 1;
    w->key = key;
    w->lo = (int16_t)lo;
    w->hi = (int16_t)hi;
    w->move = (int16_t)move;
    w->tiles = (int16_t)tiles;
}

typedef struct {
    int order;
    uint32_t me2;
    int ne;
    int m;
} Kid;

static inline int kid_less(const Kid *a, const Kid *b) {
    if (a->order != b->order) return a->order < b->order;
    if (a->me2 != b->me2) return a->me2 < b->me2;
    if (a->ne != b->ne) return a->ne < b->ne;
    return a->m < b->m;
}

static int search(Table *t, uint32_t me, uint32_t opp, int e, int passed, int alpha, int beta) {
    t->nodes++;
    uint32_t cand = me & FIT[e];
    if (!cand) /* a pass (G4) */
        return -search(t, opp, me, e, 1, -beta, -alpha);
    int single = (cand & (cand - 1)) == 0;
    if (single && cand != me) {
        int i = ctz(cand);
        if (NN[e][i] == 1 && (((me ^ cand) | opp) & FIT[(int)NX[e][i][0]]))
            return -search(t, opp, me ^ cand, NX[e][i][0], 0, -beta, -alpha);
    }
    uint64_t key = (uint64_t)me | ((uint64_t)opp << 28) | ((uint64_t)e << 56);
    if (passed && single) key |= 1ULL << 62;
    int lo = -INF, hi = INF, ttm = -1;
    Entry *ent = probe(t, key);
    if (ent) {
        lo = ent->lo;
        hi = ent->hi;
        ttm = ent->move;
        if (lo >= beta) return lo;
        if (hi <= alpha) return hi;
        if (lo > alpha) alpha = lo;
        if (hi < beta) beta = hi;
    }
    int po = pips(opp);
    int bound = 2 * po + 26 * (int)(opp & 1);
    if (bound <= alpha) return bound;
    int pm = pips(me);
    bound = -2 * pm - 26 * (int)(me & 1);
    if (bound >= beta) return bound;
    int best = -INF, bestm = -1, a = alpha;
    if (ttm >= 0) { /* the table's move first */
        uint32_t me2 = me ^ (1u << (ttm >> 6));
        int ne = ttm & 63;
        if (me2 && ((me2 | opp) & FIT[ne])) {
            best = -search(t, opp, me2, ne, 0, -beta, -alpha);
            bestm = ttm;
            if (best >= beta) {
                put(t, key, best > lo ? best : lo, hi, ttm);
                return best;
            }
            if (best > a) a = best;
        } else {
            ttm = -1;
        }
    }
    int puppet = single && !passed && e != EMPTY && cand != me;
    if (puppet) {
        uint32_t rest = (me ^ cand) | opp;
        int i = ctz(cand);
        for (int k = 0; k < NN[e][i]; k++)
            if (rest & FIT[(int)NX[e][i][k]]) puppet = 0;
    }
    int etc = popc(me | opp) >= ETC_TILES;
    Kid kids[56];
    int nk = 0;
    for (uint32_t c = cand; c; c &= c - 1) {
        int i = ctz(c);
        uint32_t me2 = me ^ (1u << i);
        uint32_t rest = me2 | opp;
        for (int k = 0; k < NN[e][i]; k++) {
            int ne = NX[e][i][k];
            int v;
            if (!me2) { /* domino (G5) */
                v = ((opp & 1) && !(opp & ZEROS) && ne >= 7) ? po + 13 : po;
            } else if (rest & FIT[ne]) {
                int m = i << 6 | ne;
                if (m == ttm) continue;
                if (etc) {
                    Entry *ce = probe(t, (uint64_t)opp | ((uint64_t)me2 << 28) | ((uint64_t)ne << 56));
                    if (ce && -ce->hi >= beta) return -ce->hi;
                }
                Kid kid = {popc(opp & FIT[ne]) * 16 - PIPS[i], me2, ne, m};
                int j = nk++;
                while (j > 0 && kid_less(&kid, &kids[j - 1])) {
                    kids[j] = kids[j - 1];
                    j--;
                }
                kids[j] = kid;
                continue;
            } else { /* block (G6, G8, G9) */
                int p1 = pips(me2), p2 = po;
                if ((rest & 1) && !(rest & ZEROS) && ne >= 7) {
                    if (me2 & 1) p1 += 13;
                    else p2 += 13;
                }
                if (puppet) v = p2 <= p1 ? -2 * p1 : p1 + p2;
                else v = p1 <= p2 ? 2 * p2 : -(p1 + p2);
            }
            if (v > best) {
                best = v;
                bestm = i << 6 | ne;
            }
        }
    }
    if (best > a) a = best;
    if (a < beta && nk) {
        int first = ttm < 0;
        for (int n = 0; n < nk; n++) {
            const Kid *kd = &kids[n];
            int v;
            if (first) {
                v = -search(t, opp, kd->me2, kd->ne, 0, -beta, -a);
                first = 0;
            } else {
                v = -search(t, opp, kd->me2, kd->ne, 0, -a - 1, -a);
                if (a < v && v < beta) v = -search(t, opp, kd->me2, kd->ne, 0, -beta, -v);
            }
            if (v > best) {
                best = v;
                bestm = kd->m;
                if (v > a) {
                    a = v;
                    if (a >= beta) break;
                }
            }
        }
    }
    if (best <= alpha) {
        if (best < hi) hi = best;
        if (ttm >= 0) bestm = ttm;
    } else if (best >= beta) {
        if (best > lo) lo = best;
    } else {
        lo = hi = best;
    }
    put(t, key, lo, hi, bestm);
    return best;
}

/* -- the Python type ------------------------------------------------------------------------ */

static int alloc_slots(Table *t) {
    t->slots = (Entry *)calloc((size_t)1 << t->bits, sizeof(Entry));
    if (!t->slots) {
        PyErr_NoMemory();
        return -1;
    }
    t->mask = ((uint64_t)1 << t->bits) - 1;
    return 0;
}

static int Table_init(Table *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"bits", NULL};
    int bits = 21;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|i", kwlist, &bits)) return -1;
    if (bits < 4 || bits > 30) {
        PyErr_SetString(PyExc_ValueError, "bits: 4 to 30");
        return -1;
    }
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "_ghost13c.init() was not called");
        return -1;
    }
    free(self->slots);
    self->slots = NULL;
    self->bits = bits;
    self->nodes = 0;
    return alloc_slots(self);
}

static void Table_dealloc(Table *self) {
    free(self->slots);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Table_search(Table *self, PyObject *args) {
    unsigned long me, opp;
    int e, passed, alpha, beta;
    if (!PyArg_ParseTuple(args, "kkipii", &me, &opp, &e, &passed, &alpha, &beta)) return NULL;
    if (e < 0 || e > EMPTY || me >> 28 || opp >> 28 || (me & opp)) {
        PyErr_SetString(PyExc_ValueError, "not a Ghost 13 node");
        return NULL;
    }
    return PyLong_FromLong(search(self, (uint32_t)me, (uint32_t)opp, e, passed, alpha, beta));
}

static PyObject *Table_get(Table *self, PyObject *args) {
    unsigned long long key;
    PyObject *dflt = Py_None;
    if (!PyArg_ParseTuple(args, "K|O", &key, &dflt)) return NULL;
    Entry *e = key ? probe(self, key) : NULL;
    if (!e) {
        Py_INCREF(dflt);
        return dflt;
    }
    return Py_BuildValue("(iii)", (int)e->lo, (int)e->hi, (int)e->move);
}

static PyObject *Table_clear(Table *self, PyObject *Py_UNUSED(ignored)) {
    memset(self->slots, 0, sizeof(Entry) << self->bits);
    Py_RETURN_NONE;
}

static int Table_setitem(Table *self, PyObject *k, PyObject *v) {
    if (v == NULL) {
        PyErr_SetString(PyExc_TypeError, "entries are not deleted");
        return -1;
    }
    unsigned long long key = PyLong_AsUnsignedLongLong(k);
    if (PyErr_Occurred()) return -1;
    int lo, hi, move;
    if (!PyArg_ParseTuple(v, "iii", &lo, &hi, &move)) return -1;
    if (key == 0) {
        PyErr_SetString(PyExc_ValueError, "key 0");
        return -1;
    }
    put(self, key, lo, hi, move);
    return 0;
}

static Py_ssize_t Table_len(Table *self) {
    Py_ssize_t n = 0;
    for (uint64_t i = 0; i <= self->mask; i++) n += self->slots[i].key != 0;
    return n;
}

static PyObject *Table_nodes(Table *self, void *Py_UNUSED(closure)) { return PyLong_FromLongLong(self->nodes); }

static PyMethodDef Table_methods[] = {
    {"search", (PyCFunction)Table_search, METH_VARARGS,
     "search(me, opp, e, passed, alpha, beta): the fail-soft alpha-beta value of a node that is not over."},
    {"get", (PyCFunction)Table_get, METH_VARARGS, "get(key[, default]): (lo, hi, move) kept for the key, or default."},
    {"clear", (PyCFunction)Table_clear, METH_NOARGS, "Forget every entry."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Table_getset[] = {
    {"nodes", (getter)Table_nodes, NULL, "Nodes searched so far.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMappingMethods Table_mapping = {
    (lenfunc)Table_len,
    NULL,
    (objobjargproc)Table_setitem,
};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "dominolog.analysis._ghost13c.Table",
    .tp_basicsize = sizeof(Table),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A Ghost 13 transposition table and the search that fills it.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Table_init,
    .tp_dealloc = (destructor)Table_dealloc,
    .tp_methods = Table_methods,
    .tp_getset = Table_getset,
    .tp_as_mapping = &Table_mapping,
};

static PyObject *init_tables(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *fit, *nxt, *pip;
    unsigned long zeros;
    if (!PyArg_ParseTuple(args, "OOOk", &fit, &nxt, &pip, &zeros)) return NULL;
    if (!PyTuple_Check(fit) || PyTuple_GET_SIZE(fit) != 50 || !PyTuple_Check(nxt) ||
        PyTuple_GET_SIZE(nxt) != 50 * 28 || !PyTuple_Check(pip) || PyTuple_GET_SIZE(pip) != 28) {
        PyErr_SetString(PyExc_ValueError, "init(fit[50], next[1400], pips[28], zeros)");
        return NULL;
    }
    for (int e = 0; e < 50; e++) {
        FIT[e] = (uint32_t)PyLong_AsUnsignedLong(PyTuple_GET_ITEM(fit, e));
        for (int i = 0; i < 28; i++) {
            PyObject *row = PyTuple_GET_ITEM(nxt, 28 * e + i);
            Py_ssize_t n = PyTuple_Check(row) ? PyTuple_GET_SIZE(row) : -1;
            if (n < 0 || n > 2) {
                PyErr_SetString(PyExc_ValueError, "next: tuples of at most 2 ends");
                return NULL;
            }
            NN[e][i] = (int8_t)n;
            for (Py_ssize_t k = 0; k < n; k++) NX[e][i][k] = (int8_t)PyLong_AsLong(PyTuple_GET_ITEM(row, k));
        }
    }
    for (int i = 0; i < 28; i++) PIPS[i] = (int16_t)PyLong_AsLong(PyTuple_GET_ITEM(pip, i));
    if (PyErr_Occurred()) return NULL;
    for (int m = 0; m < (1 << 14); m++) {
        int lo = 0, hi = 0;
        for (int i = 0; i < 14; i++)
            if (m >> i & 1) {
                lo += PIPS[i];
                hi += PIPS[14 + i];
            }
        PL[m] = (int16_t)lo;
        PH[m] = (int16_t)hi;
    }
    ZEROS = (uint32_t)zeros;
    ready = 1;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"init", init_tables, METH_VARARGS, "init(fit, next, pips, zeros): the tables of the search (once)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_ghost13c", "The Ghost 13 search in C (see dominolog.analysis.ghost13_search).", -1,
    module_methods,
};

PyMODINIT_FUNC PyInit__ghost13c(void) {
    if (PyType_Ready(&TableType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&TableType);
    if (PyModule_AddObject(m, "Table", (PyObject *)&TableType) < 0) {
        Py_DECREF(&TableType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
