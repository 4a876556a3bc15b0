// manyfold._core: the library on the CPython and NumPy C APIs. Bank, Context, PairCache and
// Contacts wrap the library's handles and buffers; manyfold/__init__.py adds the module-level
// find_pairs. Arrays come in as NumPy arrays (zero copy when already contiguous float32 or
// uint32, one conversion otherwise) and go out as views of buffers the objects own. Every input is
// checked before the library sees it, so a bad call raises and changes no output or cache. The
// GIL is released while the library works.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include "manyfold.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <string.h>

static PyObject *error_type; // manyfold.Error

static const char *status_name(mf_status status)
{
    static const char *const names[] = {"MF_OK",
                                        "MF_ERR_INVALID_ARGUMENT",
                                        "MF_ERR_NONFINITE",
                                        "MF_ERR_DEGENERATE_HULL",
                                        "MF_ERR_HULL_TOO_LARGE",
                                        "MF_ERR_CAPACITY",
                                        "MF_ERR_OUT_OF_MEMORY",
                                        "MF_ERR_UNSUPPORTED_ISA"};
    return (unsigned)status < sizeof(names) / sizeof(names[0]) ? names[status] : "MF_ERR_UNKNOWN";
}

// Raises manyfold.Error(message) with .status (the mf_status number), .status_name and .message.
static PyObject *raise_error(mf_status status, const char *detail)
{
    const char *message = detail != NULL && detail[0] != '\0' ? detail : mf_status_string(status);
    PyObject *text = PyUnicode_FromFormat("%s: %s", status_name(status), message);
    PyObject *exception = text != NULL ? PyObject_CallOneArg(error_type, text) : NULL;
    Py_XDECREF(text);
    if (exception == NULL) return NULL;
    PyObject *code = PyLong_FromLong((long)status), *name = PyUnicode_FromString(status_name(status)),
             *detail_text = PyUnicode_FromString(message);
    if (code != NULL && name != NULL && detail_text != NULL) {
        PyObject_SetAttrString(exception, "status", code);
        PyObject_SetAttrString(exception, "status_name", name);
        PyObject_SetAttrString(exception, "message", detail_text);
    }
    Py_XDECREF(code);
    Py_XDECREF(name);
    Py_XDECREF(detail_text);
    PyErr_SetObject(error_type, exception);
    Py_DECREF(exception);
    return NULL;
}

// ---- array conversion ----

// A C-contiguous float32 array of `columns` columns (0: one dimension) from any real array-like:
// the caller's own array when it already is one, else one conversion. NULL with ValueError naming
// the argument.
static PyArrayObject *float_array(PyObject *object, const char *name, int columns)
{
    PyArrayObject *any = (PyArrayObject *)PyArray_FROMANY(object, NPY_NOTYPE, 0, 0, 0);
    if (any == NULL) {
        PyErr_Format(PyExc_ValueError, "%s: not an array of numbers", name);
        return NULL;
    }
    int kind = PyArray_DESCR(any)->kind;
    if (kind != 'f' && kind != 'i' && kind != 'u') {
        PyErr_Format(PyExc_ValueError, "%s: expected real numbers, got dtype %R", name, PyArray_DESCR(any));
        Py_DECREF(any);
        return NULL;
    }
    int ndim = columns > 0 ? 2 : 1;
    if (PyArray_NDIM(any) != ndim || (columns > 0 && PyArray_DIM(any, 1) != columns)) {
        if (columns > 0)
            PyErr_Format(PyExc_ValueError, "%s: expected shape (N, %d), got %R", name, columns,
                         PyObject_GetAttrString((PyObject *)any, "shape"));
        else PyErr_Format(PyExc_ValueError, "%s: expected one dimension, got %d", name, PyArray_NDIM(any));
        Py_DECREF(any);
        return NULL;
    }
    PyArrayObject *result = (PyArrayObject *)PyArray_FROMANY(
        (PyObject *)any, NPY_FLOAT32, ndim, ndim, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED | NPY_ARRAY_FORCECAST);
    Py_DECREF(any);
    return result;
}

// A C-contiguous uint32 array (columns as float_array's) from non-negative integers below 2^32.
static PyArrayObject *index_array(PyObject *object, const char *name, int columns)
{
    PyArrayObject *any = (PyArrayObject *)PyArray_FROMANY(object, NPY_NOTYPE, 0, 0, 0);
    if (any == NULL) {
        PyErr_Format(PyExc_ValueError, "%s: not an array of integers", name);
        return NULL;
    }
    int ndim = columns > 0 ? 2 : 1;
    bool empty_list = PyArray_SIZE(any) == 0 && PyArray_DESCR(any)->kind == 'f';
    if (PyArray_NDIM(any) == 1 && columns > 0 && PyArray_SIZE(any) == 0) {
        // [] for no pairs.
        Py_DECREF(any);
        npy_intp dims[2] = {0, columns};
        return (PyArrayObject *)PyArray_ZEROS(2, dims, NPY_UINT32, 0);
    }
    int kind = PyArray_DESCR(any)->kind;
    if (kind != 'i' && kind != 'u' && !empty_list) {
        PyErr_Format(PyExc_ValueError, "%s: expected integers, got dtype %R", name, PyArray_DESCR(any));
        Py_DECREF(any);
        return NULL;
    }
    if (PyArray_NDIM(any) != ndim || (columns > 0 && PyArray_DIM(any, 1) != columns)) {
        if (columns > 0)
            PyErr_Format(PyExc_ValueError, "%s: expected shape (N, %d), got %d dimensions", name, columns,
                         PyArray_NDIM(any));
        else PyErr_Format(PyExc_ValueError, "%s: expected one dimension, got %d", name, PyArray_NDIM(any));
        Py_DECREF(any);
        return NULL;
    }
    if (PyArray_TYPE(any) != NPY_UINT32 && PyArray_SIZE(any) > 0) {
        // Other integers: in range, then converted (once).
        PyArrayObject *wide = (PyArrayObject *)PyArray_FROMANY((PyObject *)any, NPY_INT64, 0, 0,
                                                               NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_FORCECAST);
        if (wide == NULL) {
            Py_DECREF(any);
            return NULL;
        }
        const int64_t *v = PyArray_DATA(wide);
        npy_intp count = PyArray_SIZE(wide);
        bool unsigned_big = PyArray_TYPE(any) == NPY_UINT64 || PyArray_TYPE(any) == NPY_ULONGLONG;
        for (npy_intp i = 0; i < count; ++i) {
            if (v[i] < 0 || v[i] > (int64_t)UINT32_MAX || unsigned_big) {
                if (unsigned_big && v[i] >= 0 && v[i] <= (int64_t)UINT32_MAX) continue;
                PyErr_Format(PyExc_ValueError, "%s: entry %zd is %lld, outside 0 .. 2^32 - 1", name, (Py_ssize_t)i,
                             (long long)v[i]);
                Py_DECREF(wide);
                Py_DECREF(any);
                return NULL;
            }
        }
        Py_DECREF(wide);
    }
    PyArrayObject *result = (PyArrayObject *)PyArray_FROMANY(
        (PyObject *)any, NPY_UINT32, ndim, ndim, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED | NPY_ARRAY_FORCECAST);
    Py_DECREF(any);
    return result;
}

// ---- Bank ----

typedef struct {
    PyObject_HEAD mf_bank *bank;
    Py_ssize_t readers; // calls running on the bank without the GIL: no shape may be added meanwhile
} BankObject;

static int Bank_init(BankObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, ":Bank", keywords)) return -1;
    if (self->bank != NULL) return 0;
    mf_status status = mf_bank_create(&self->bank);
    if (status != MF_OK) {
        raise_error(status, NULL);
        return -1;
    }
    return 0;
}

static void Bank_dealloc(BankObject *self)
{
    mf_bank_destroy(self->bank);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static bool bank_is_free(BankObject *self)
{
    if (self->readers == 0) return true;
    PyErr_SetString(PyExc_RuntimeError, "the bank is being read by a call on another thread: add shapes between calls");
    return false;
}

static PyObject *Bank_add_box(BankObject *self, PyObject *args)
{
    PyObject *object;
    if (!PyArg_ParseTuple(args, "O:add_box", &object) || !bank_is_free(self)) return NULL;
    PyArrayObject *half = float_array(object, "half_extents", 0);
    if (half == NULL) return NULL;
    if (PyArray_DIM(half, 0) != 3) {
        Py_DECREF(half);
        return PyErr_Format(PyExc_ValueError, "half_extents: expected 3 numbers");
    }
    const float *h = PyArray_DATA(half);
    uint32_t shape;
    mf_status status = mf_bank_add_box(self->bank, (mf_vec3){h[0], h[1], h[2]}, &shape);
    Py_DECREF(half);
    if (status != MF_OK) return raise_error(status, NULL);
    return PyLong_FromUnsignedLong(shape);
}

static PyObject *Bank_add_hull(BankObject *self, PyObject *args)
{
    PyObject *object;
    if (!PyArg_ParseTuple(args, "O:add_hull", &object) || !bank_is_free(self)) return NULL;
    PyArrayObject *points = float_array(object, "points", 3);
    if (points == NULL) return NULL;
    npy_intp count = PyArray_DIM(points, 0);
    if (count > (npy_intp)UINT32_MAX) {
        Py_DECREF(points);
        return PyErr_Format(PyExc_ValueError, "points: too many");
    }
    uint32_t shape;
    // The GIL stays held: a call reading the bank on another thread must not see it change.
    mf_status status = mf_bank_add_hull(self->bank, PyArray_DATA(points), (uint32_t)count, &shape);
    Py_DECREF(points);
    if (status != MF_OK) return raise_error(status, NULL);
    return PyLong_FromUnsignedLong(shape);
}

// Whether the bank holds the shape: below its count and not removed (Bank.remove).
static bool has_shape(const mf_bank *bank, uint32_t shape)
{
    mf_shape_info info;
    return mf_bank_shape_info(bank, shape, &info) == MF_OK;
}

static bool shape_index(BankObject *self, PyObject *object, uint32_t *shape)
{
    unsigned long long value = PyLong_AsUnsignedLongLong(object);
    if (PyErr_Occurred() || value >= mf_bank_shape_count(self->bank)) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "shape: expected an id below %u", mf_bank_shape_count(self->bank));
        return false;
    }
    if (!has_shape(self->bank, (uint32_t)value)) {
        PyErr_Format(PyExc_ValueError, "shape: %u was removed (Bank.remove)", (unsigned)value);
        return false;
    }
    *shape = (uint32_t)value;
    return true;
}

static PyObject *Bank_remove(BankObject *self, PyObject *args)
{
    PyObject *object;
    uint32_t shape;
    if (!PyArg_ParseTuple(args, "O:remove", &object) || !bank_is_free(self) || !shape_index(self, object, &shape))
        return NULL;
    mf_status status = mf_bank_remove_shape(self->bank, shape);
    if (status != MF_OK) return raise_error(status, mf_bank_message(self->bank));
    Py_RETURN_NONE;
}

static PyObject *new_array(int ndim, npy_intp *dims, int type) { return PyArray_EMPTY(ndim, dims, type, 0); }

static PyObject *Bank_shape(BankObject *self, PyObject *args)
{
    PyObject *object;
    uint32_t shape;
    if (!PyArg_ParseTuple(args, "O:shape", &object) || !shape_index(self, object, &shape)) return NULL;
    mf_shape_geometry g = {0};
    mf_bank_shape_geometry(self->bank, shape, &g); // the counts
    npy_intp vertex_dims[2] = {g.vertex_count, 3}, plane_dims[2] = {g.face_count, 4}, edge_dims[2] = {g.edge_count, 2};
    npy_intp face_dims[1] = {g.face_count}, loop_dims[1] = {g.loop_count};
    PyObject *vertices = new_array(2, vertex_dims, NPY_FLOAT32), *planes = new_array(2, plane_dims, NPY_FLOAT32);
    PyObject *edges = new_array(2, edge_dims, NPY_UINT32), *edge_faces = new_array(2, edge_dims, NPY_UINT32);
    PyObject *first = new_array(1, face_dims, NPY_UINT32), *size = new_array(1, face_dims, NPY_UINT32);
    PyObject *loops = new_array(1, loop_dims, NPY_UINT32);
    mf_vec3 *face_normals = PyMem_Malloc((g.face_count + 1) * sizeof(mf_vec3));
    float *offsets = PyMem_Malloc((g.face_count + 1) * sizeof(float));
    mf_edge_info *edge_info = PyMem_Malloc((g.edge_count + 1) * sizeof(mf_edge_info));
    PyObject *result = NULL;
    if (vertices == NULL || planes == NULL || edges == NULL || edge_faces == NULL || first == NULL || size == NULL ||
        loops == NULL || face_normals == NULL || offsets == NULL || edge_info == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    g = (mf_shape_geometry){.vertices = PyArray_DATA((PyArrayObject *)vertices),
                            .vertex_capacity = g.vertex_count,
                            .face_normals = face_normals,
                            .face_offsets = offsets,
                            .face_first = PyArray_DATA((PyArrayObject *)first),
                            .face_size = PyArray_DATA((PyArrayObject *)size),
                            .face_capacity = g.face_count,
                            .loop_vertices = PyArray_DATA((PyArrayObject *)loops),
                            .loop_capacity = g.loop_count,
                            .edges = edge_info,
                            .edge_capacity = g.edge_count};
    mf_status status = mf_bank_shape_geometry(self->bank, shape, &g);
    if (status != MF_OK) {
        raise_error(status, NULL);
        goto done;
    }
    float *plane = PyArray_DATA((PyArrayObject *)planes);
    for (uint32_t f = 0; f < g.face_count; ++f) {
        plane[4 * f] = face_normals[f].x;
        plane[4 * f + 1] = face_normals[f].y;
        plane[4 * f + 2] = face_normals[f].z;
        plane[4 * f + 3] = offsets[f];
    }
    uint32_t *edge = PyArray_DATA((PyArrayObject *)edges), *edge_face = PyArray_DATA((PyArrayObject *)edge_faces);
    for (uint32_t e = 0; e < g.edge_count; ++e) {
        edge[2 * e] = edge_info[e].vertex0;
        edge[2 * e + 1] = edge_info[e].vertex1;
        edge_face[2 * e] = edge_info[e].face0;
        edge_face[2 * e + 1] = edge_info[e].face1;
    }
    PyObject *faces = PyList_New(g.face_count);
    if (faces == NULL) goto done;
    const uint32_t *first_of = PyArray_DATA((PyArrayObject *)first), *size_of = PyArray_DATA((PyArrayObject *)size);
    for (uint32_t f = 0; f < g.face_count; ++f) {
        PyObject *slice = PySequence_GetSlice(loops, first_of[f], first_of[f] + size_of[f]);
        if (slice == NULL) {
            Py_DECREF(faces);
            goto done;
        }
        PyList_SET_ITEM(faces, f, slice);
    }
    result = Py_BuildValue("{s:O,s:O,s:N,s:O,s:O}", "vertices", vertices, "planes", planes, "faces", faces, "edges",
                           edges, "edge_faces", edge_faces);
done:
    Py_XDECREF(vertices);
    Py_XDECREF(planes);
    Py_XDECREF(edges);
    Py_XDECREF(edge_faces);
    Py_XDECREF(first);
    Py_XDECREF(size);
    Py_XDECREF(loops);
    PyMem_Free(face_normals);
    PyMem_Free(offsets);
    PyMem_Free(edge_info);
    return result;
}

static PyObject *Bank_mass(BankObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"shape", "density", NULL};
    PyObject *object;
    double density = 1.0;
    uint32_t shape;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|d:mass", keywords, &object, &density) ||
        !shape_index(self, object, &shape))
        return NULL;
    mf_mass mass;
    mf_status status = mf_bank_shape_mass(self->bank, shape, (float)density, &mass);
    if (status != MF_OK) return raise_error(status, NULL);
    npy_intp center_dims[1] = {3}, inertia_dims[2] = {3, 3};
    PyObject *center = new_array(1, center_dims, NPY_FLOAT32), *inertia = new_array(2, inertia_dims, NPY_FLOAT32);
    if (center == NULL || inertia == NULL) {
        Py_XDECREF(center);
        Py_XDECREF(inertia);
        return NULL;
    }
    memcpy(PyArray_DATA((PyArrayObject *)center), &mass.center, 3 * sizeof(float));
    memcpy(PyArray_DATA((PyArrayObject *)inertia), mass.inertia, 9 * sizeof(float));
    return Py_BuildValue("(dNN)", (double)mass.mass, center, inertia);
}

static PyObject *Bank_info(BankObject *self, PyObject *args)
{
    PyObject *object;
    uint32_t shape;
    if (!PyArg_ParseTuple(args, "O:info", &object) || !shape_index(self, object, &shape)) return NULL;
    mf_shape_info info;
    mf_bank_shape_info(self->bank, shape, &info);
    return Py_BuildValue("{s:I,s:I,s:I,s:d,s:(ddd),s:d,s:d,s:d}", "vertex_count", info.vertex_count, "face_count",
                         info.face_count, "edge_count", info.edge_count, "volume", (double)info.volume, "centroid",
                         (double)info.centroid.x, (double)info.centroid.y, (double)info.centroid.z, "radius",
                         (double)info.radius, "min_scale", (double)info.min_scale, "max_scale", (double)info.max_scale);
}

static Py_ssize_t Bank_length(BankObject *self) { return mf_bank_shape_count(self->bank); }

static PyMethodDef Bank_methods[] = {
    {"add_box", (PyCFunction)Bank_add_box, METH_VARARGS,
     "add_box(half_extents) -> int: a box centred on its origin; returns its shape id."},
    {"add_hull", (PyCFunction)Bank_add_hull, METH_VARARGS,
     "add_hull(points) -> int: the convex hull of (N, 3) points in their own frame; returns its shape id."},
    {"shape", (PyCFunction)Bank_shape, METH_VARARGS,
     "shape(id) -> dict: vertices (V, 3), planes (F, 4) as normal and offset, faces (list of vertex index arrays, "
     "counter-clockwise from outside), edges (E, 2) vertex pairs, edge_faces (E, 2)."},
    {"mass", (PyCFunction)(void (*)(void))Bank_mass, METH_VARARGS | METH_KEYWORDS,
     "mass(id, density=1.0) -> (mass, centre (3,), inertia (3, 3) about the centre in the shape's frame)."},
    {"info", (PyCFunction)Bank_info, METH_VARARGS,
     "info(id) -> dict: counts, volume, centroid, radius, and the scales a body of the shape may have (min_scale, "
     "max_scale)."},
    {"remove", (PyCFunction)Bank_remove, METH_VARARGS,
     "remove(id): removes the shape. Its id is refused (ValueError here, manyfold.Error from a call with a body "
     "of that shape) until a later add reuses it, the lowest free id first; its storage is reused. Not while a "
     "call on another thread reads the bank."},
    {NULL, NULL, 0, NULL}};

static PySequenceMethods Bank_sequence = {.sq_length = (lenfunc)Bank_length};

static PyTypeObject BankType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "manyfold.Bank",
    .tp_basicsize = sizeof(BankObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Bank(): every shape, registered once and referred to by id (ids below len(bank), removed ones "
              "among them).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Bank_init,
    .tp_dealloc = (destructor)Bank_dealloc,
    .tp_methods = Bank_methods,
    .tp_as_sequence = &Bank_sequence,
};

// ---- PairCache ----

typedef struct {
    PyObject_HEAD mf_pair_cache *entries;
    Py_ssize_t count;
    int busy;
} PairCacheObject;

static int PairCache_init(PairCacheObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"pairs", NULL};
    Py_ssize_t count;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "n:PairCache", keywords, &count)) return -1;
    if (count < 0 || count > (Py_ssize_t)UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "pairs: expected a count from 0 to 2^32 - 1");
        return -1;
    }
    PyMem_Free(self->entries);
    self->entries = PyMem_Calloc((size_t)count + 1, sizeof(mf_pair_cache));
    self->count = count;
    if (self->entries == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void PairCache_dealloc(PairCacheObject *self)
{
    PyMem_Free(self->entries);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static Py_ssize_t PairCache_length(PairCacheObject *self) { return self->count; }

static PyObject *PairCache_reset(PairCacheObject *self, PyObject *unused)
{
    (void)unused;
    memset(self->entries, 0, (size_t)self->count * sizeof(mf_pair_cache));
    Py_RETURN_NONE;
}

static PyObject *PairCache_routes(PairCacheObject *self, void *closure)
{
    (void)closure;
    npy_intp dims[1] = {self->count};
    PyObject *routes = new_array(1, dims, NPY_UINT8);
    if (routes == NULL) return NULL;
    uint8_t *r = PyArray_DATA((PyArrayObject *)routes);
    for (Py_ssize_t i = 0; i < self->count; ++i) r[i] = self->entries[i].route;
    return routes;
}

static PyMethodDef PairCache_methods[] = {
    {"reset", (PyCFunction)PairCache_reset, METH_NOARGS, "reset(): empty every entry (as new)."},
    {NULL, NULL, 0, NULL}};
static PyGetSetDef PairCache_getset[] = {
    {"routes", (getter)PairCache_routes, NULL,
     "(N,) uint8: how the last call answered each pair (1 searched, 2 apart, 3 clipped, 4 reused; 0 never).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};
static PySequenceMethods PairCache_sequence = {.sq_length = (lenfunc)PairCache_length};

static PyTypeObject PairCacheType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "manyfold.PairCache",
    .tp_basicsize = sizeof(PairCacheObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "PairCache(pairs): one empty mf_pair_cache entry per pair; entry i belongs to pairs[i] from "
              "call to call (ctx.collide(..., cache=cache)).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)PairCache_init,
    .tp_dealloc = (destructor)PairCache_dealloc,
    .tp_methods = PairCache_methods,
    .tp_getset = PairCache_getset,
    .tp_as_sequence = &PairCache_sequence,
};

// ---- Contacts: the output stream ----

// The stream's arrays live in two NumPy byte arrays, so views handed out keep them alive even
// after the next call grows them (a grown stream gets new arrays; old views keep the old).
typedef struct {
    PyObject_HEAD PyArrayObject *manifold_bytes, *contact_bytes, *fault_bytes;
    mf_stream stream;
    int busy;
} ContactsObject;

static void Contacts_dealloc(ContactsObject *self)
{
    Py_XDECREF(self->manifold_bytes);
    Py_XDECREF(self->contact_bytes);
    Py_XDECREF(self->fault_bytes);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

// Room for every pair's largest manifold: the call never stops short (mf_stream_bound).
static bool contacts_reserve(ContactsObject *self, uint32_t pair_count, uint32_t max_contacts)
{
    uint32_t manifolds, contacts;
    mf_stream_bound(pair_count, max_contacts, &manifolds, &contacts);
    if (self->manifold_bytes == NULL || manifolds > self->stream.manifold_capacity) {
        npy_intp dims[1] = {(npy_intp)(manifolds + 1) * (npy_intp)sizeof(mf_manifold)};
        PyArrayObject *grown = (PyArrayObject *)PyArray_EMPTY(1, dims, NPY_UINT8, 0);
        if (grown == NULL) return false;
        Py_XSETREF(self->manifold_bytes, grown);
        self->stream.manifolds = PyArray_DATA(grown);
        self->stream.manifold_capacity = manifolds;
    }
    if (self->contact_bytes == NULL || contacts > self->stream.contact_capacity) {
        npy_intp dims[1] = {(npy_intp)(contacts + 1) * (npy_intp)sizeof(mf_contact)};
        PyArrayObject *grown = (PyArrayObject *)PyArray_EMPTY(1, dims, NPY_UINT8, 0);
        if (grown == NULL) return false;
        Py_XSETREF(self->contact_bytes, grown);
        self->stream.contacts = PyArray_DATA(grown);
        self->stream.contact_capacity = contacts;
    }
    // Under on_fault="skip" every pair may be skipped: room for all of them.
    if (self->fault_bytes == NULL || pair_count > self->stream.fault_capacity) {
        npy_intp dims[1] = {(npy_intp)(pair_count + 1) * (npy_intp)sizeof(mf_fault)};
        PyArrayObject *grown = (PyArrayObject *)PyArray_EMPTY(1, dims, NPY_UINT8, 0);
        if (grown == NULL) return false;
        Py_XSETREF(self->fault_bytes, grown);
        self->stream.faults = PyArray_DATA(grown);
        self->stream.fault_capacity = pair_count;
    }
    return true;
}

// A view of one field of the stream's records: count rows of `columns` values (0: one dimension).
typedef enum record_kind { RECORD_MANIFOLD, RECORD_CONTACT, RECORD_FAULT } record_kind;

static PyObject *field_view(ContactsObject *self, record_kind kind, size_t offset, int type, int columns)
{
    PyArrayObject *bytes = kind == RECORD_MANIFOLD  ? self->manifold_bytes
                           : kind == RECORD_CONTACT ? self->contact_bytes
                                                    : self->fault_bytes;
    npy_intp count = kind == RECORD_MANIFOLD  ? self->stream.manifold_count
                     : kind == RECORD_CONTACT ? self->stream.contact_count
                                              : self->stream.fault_count;
    npy_intp record = kind == RECORD_MANIFOLD  ? (npy_intp)sizeof(mf_manifold)
                      : kind == RECORD_CONTACT ? (npy_intp)sizeof(mf_contact)
                                               : (npy_intp)sizeof(mf_fault);
    npy_intp dims[2] = {count, columns}, strides[2] = {record, 4};
    if (bytes == NULL) {
        npy_intp zero[2] = {0, columns};
        return PyArray_ZEROS(columns > 0 ? 2 : 1, zero, type, 0);
    }
    PyObject *view = PyArray_New(&PyArray_Type, columns > 0 ? 2 : 1, dims, type, strides,
                                 (char *)PyArray_DATA(bytes) + offset, 0, NPY_ARRAY_ALIGNED, NULL);
    if (view == NULL) return NULL;
    Py_INCREF(bytes);
    if (PyArray_SetBaseObject((PyArrayObject *)view, (PyObject *)bytes) < 0) {
        Py_DECREF(view);
        return NULL;
    }
    PyArray_CLEARFLAGS((PyArrayObject *)view, NPY_ARRAY_WRITEABLE);
    return view;
}

#define FIELD_GETTER(name, manifold, type_, member, npy, columns)                                                      \
    static PyObject *Contacts_##name(ContactsObject *self, void *closure)                                              \
    {                                                                                                                  \
        (void)closure;                                                                                                 \
        return field_view(self, manifold, offsetof(type_, member), npy, columns);                                      \
    }
FIELD_GETTER(pair, RECORD_MANIFOLD, mf_manifold, pair, NPY_UINT32, 0)
FIELD_GETTER(first, RECORD_MANIFOLD, mf_manifold, first, NPY_UINT32, 0)
FIELD_GETTER(count, RECORD_MANIFOLD, mf_manifold, count, NPY_UINT32, 0)
FIELD_GETTER(normal, RECORD_MANIFOLD, mf_manifold, normal, NPY_FLOAT32, 3)
FIELD_GETTER(point, RECORD_CONTACT, mf_contact, point, NPY_FLOAT32, 3)
FIELD_GETTER(separation, RECORD_CONTACT, mf_contact, separation, NPY_FLOAT32, 0)
FIELD_GETTER(id, RECORD_CONTACT, mf_contact, id, NPY_UINT32, 0)
FIELD_GETTER(fault_pair, RECORD_FAULT, mf_fault, pair, NPY_UINT32, 0)
FIELD_GETTER(fault_status, RECORD_FAULT, mf_fault, status, NPY_INT32, 0)

static PyObject *Contacts_manifolds_bytes(ContactsObject *self, void *closure)
{
    (void)closure;
    return PyBytes_FromStringAndSize((const char *)self->stream.manifolds,
                                     (Py_ssize_t)self->stream.manifold_count * (Py_ssize_t)sizeof(mf_manifold));
}

static PyObject *Contacts_contacts_bytes(ContactsObject *self, void *closure)
{
    (void)closure;
    return PyBytes_FromStringAndSize((const char *)self->stream.contacts,
                                     (Py_ssize_t)self->stream.contact_count * (Py_ssize_t)sizeof(mf_contact));
}

static PyObject *Contacts_manifold_count(ContactsObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromUnsignedLong(self->stream.manifold_count);
}

static PyObject *Contacts_contact_count(ContactsObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromUnsignedLong(self->stream.contact_count);
}

static PyObject *Contacts_fault_count(ContactsObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromUnsignedLong(self->stream.fault_count);
}

static Py_ssize_t Contacts_length(ContactsObject *self) { return self->stream.manifold_count; }

static PyGetSetDef Contacts_getset[] = {
    {"pair", (getter)Contacts_pair, NULL, "(M,) uint32: the index into pairs of each manifold", NULL},
    {"first", (getter)Contacts_first, NULL, "(M,) uint32: each manifold's first contact", NULL},
    {"count", (getter)Contacts_count, NULL, "(M,) uint32: each manifold's contact count", NULL},
    {"normal", (getter)Contacts_normal, NULL, "(M, 3) float32: unit normal from body a to body b", NULL},
    {"point", (getter)Contacts_point, NULL, "(C, 3) float32: contact points, midway between the surfaces", NULL},
    {"separation", (getter)Contacts_separation, NULL, "(C,) float32: signed distance (negative: penetration)", NULL},
    {"id", (getter)Contacts_id, NULL, "(C,) uint32: feature ids (a's feature in the high 16 bits)", NULL},
    {"fault_pair", (getter)Contacts_fault_pair, NULL,
     "(F,) uint32: under on_fault='skip', the pairs skipped for naming a bad body, ascending", NULL},
    {"fault_status", (getter)Contacts_fault_status, NULL,
     "(F,) int32: why each was skipped (the status on_fault='stop' would have raised)", NULL},
    {"manifold_count", (getter)Contacts_manifold_count, NULL, "M", NULL},
    {"contact_count", (getter)Contacts_contact_count, NULL, "C", NULL},
    {"fault_count", (getter)Contacts_fault_count, NULL, "F: pairs skipped under on_fault='skip'", NULL},
    {"manifold_bytes", (getter)Contacts_manifolds_bytes, NULL, "the mf_manifold records as bytes", NULL},
    {"contact_bytes", (getter)Contacts_contacts_bytes, NULL, "the mf_contact records as bytes", NULL},
    {NULL, NULL, NULL, NULL, NULL}};
static PySequenceMethods Contacts_sequence = {.sq_length = (lenfunc)Contacts_length};

static PyTypeObject ContactsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "manyfold.Contacts",
    .tp_basicsize = sizeof(ContactsObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Contacts(): what ctx.collide returns; pass it back as out= to reuse its buffers. Fields are "
              "read-only views: copy what must outlive the next call on the same out.",
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)Contacts_dealloc,
    .tp_getset = Contacts_getset,
    .tp_as_sequence = &Contacts_sequence,
};

// ---- Context ----

_Static_assert(sizeof(mf_transform) == 7 * sizeof(float), "a (B, 7) float32 array is an mf_transform array");
_Static_assert(sizeof(mf_pair) == 2 * sizeof(uint32_t), "a (P, 2) uint32 array is an mf_pair array");

typedef struct {
    PyObject_HEAD mf_context *context;
    mf_config config;
    int busy;
    mf_transform *transforms; // positions and rotations interleaved, kept from call to call
    size_t transform_capacity;
    mf_pair *pairs; // find_pairs' output before it is copied into its array
    uint32_t pair_capacity;
} ContextObject;

static int Context_init(ContextObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"margin", "max_contacts", "isa", "threads", "linear_slop", "on_fault", NULL};
    mf_config config = mf_config_default();
    double margin = config.margin, slop = config.linear_slop;
    unsigned int max_contacts = config.max_contacts, threads = config.threads;
    const char *isa = "auto", *on_fault = "stop";
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|dIsIds:Context", keywords, &margin, &max_contacts, &isa, &threads,
                                     &slop, &on_fault))
        return -1;
    if (strcmp(on_fault, "stop") != 0 && strcmp(on_fault, "skip") != 0) {
        PyErr_Format(PyExc_ValueError, "on_fault: expected 'stop' or 'skip', got %s", on_fault);
        return -1;
    }
    config.on_fault = strcmp(on_fault, "skip") == 0 ? MF_FAULT_SKIP : MF_FAULT_STOP;
    if (self->context != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Context: already initialised");
        return -1;
    }
    config.margin = (float)margin;
    config.linear_slop = (float)slop;
    config.max_contacts = max_contacts;
    config.threads = threads;
    bool known = false;
    for (int i = MF_ISA_AUTO; i <= MF_ISA_NEON; ++i) {
        if (strcmp(isa, mf_isa_name((mf_isa)i)) == 0) {
            config.isa = (mf_isa)i;
            known = true;
        }
    }
    if (!known) {
        PyErr_Format(PyExc_ValueError, "isa: expected auto, scalar, sse, avx2, avx512 or neon, got %s", isa);
        return -1;
    }
    mf_status status = mf_context_create(&config, &self->context);
    if (status != MF_OK) {
        raise_error(status, status == MF_ERR_UNSUPPORTED_ISA ? "this CPU or build cannot run the ISA asked for"
                                                             : "the configuration is out of range");
        return -1;
    }
    self->config = config;
    return 0;
}

static void Context_dealloc(ContextObject *self)
{
    mf_context_destroy(self->context);
    PyMem_Free(self->transforms);
    PyMem_Free(self->pairs);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

// The bodies of a call, checked as the library checks them (so that a bad call fails before
// anything is written).
typedef struct body_input {
    PyArrayObject *shapes, *positions, *rotations, *scales;
    mf_bodies bodies;
} body_input;

static void body_input_release(body_input *in)
{
    Py_XDECREF(in->shapes);
    Py_XDECREF(in->positions);
    Py_XDECREF(in->rotations);
    Py_XDECREF(in->scales);
}

// scales: None, or a (B,) array of each body's scale (mf_bodies.scales).
static bool read_bodies(ContextObject *self, BankObject *bank, PyObject *shapes, PyObject *positions,
                        PyObject *rotations, PyObject *scales, bool check_each_body, body_input *in)
{
    *in = (body_input){0};
    in->shapes = index_array(shapes, "shapes", 0);
    if (in->shapes == NULL) return false;
    npy_intp count = PyArray_DIM(in->shapes, 0);
    if (count > (npy_intp)UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "shapes: more than 2^32 - 1 bodies");
        return false;
    }
    if (rotations == NULL || rotations == Py_None) {
        // (B, 7) transforms: x, y, z, then the quaternion x, y, z, w; zero copy when float32.
        in->positions = float_array(positions, "transforms", 7);
        if (in->positions == NULL) return false;
        if (PyArray_DIM(in->positions, 0) != count) {
            PyErr_Format(PyExc_ValueError, "transforms: %zd rows for %zd shapes",
                         (Py_ssize_t)PyArray_DIM(in->positions, 0), (Py_ssize_t)count);
            return false;
        }
        in->bodies.transform = PyArray_DATA(in->positions);
    } else {
        in->positions = float_array(positions, "positions", 3);
        if (in->positions == NULL) return false;
        in->rotations = float_array(rotations, "rotations", 4);
        if (in->rotations == NULL) return false;
        if (PyArray_DIM(in->positions, 0) != count || PyArray_DIM(in->rotations, 0) != count) {
            PyErr_Format(PyExc_ValueError, "positions and rotations: %zd and %zd rows for %zd shapes",
                         (Py_ssize_t)PyArray_DIM(in->positions, 0), (Py_ssize_t)PyArray_DIM(in->rotations, 0),
                         (Py_ssize_t)count);
            return false;
        }
        if ((size_t)count > self->transform_capacity) {
            size_t capacity = (size_t)count + (size_t)count / 4 + 16;
            mf_transform *grown = PyMem_Realloc(self->transforms, capacity * sizeof(mf_transform));
            if (grown == NULL) {
                PyErr_NoMemory();
                return false;
            }
            self->transforms = grown;
            self->transform_capacity = capacity;
        }
        const float *p = PyArray_DATA(in->positions), *q = PyArray_DATA(in->rotations);
        for (npy_intp i = 0; i < count; ++i)
            self->transforms[i] = (mf_transform){{p[3 * i], p[3 * i + 1], p[3 * i + 2]},
                                                 {q[4 * i], q[4 * i + 1], q[4 * i + 2], q[4 * i + 3]}};
        in->bodies.transform = self->transforms;
    }
    if (scales != NULL && scales != Py_None) {
        in->scales = float_array(scales, "scales", 0);
        if (in->scales == NULL) return false;
        if (PyArray_DIM(in->scales, 0) != count) {
            PyErr_Format(PyExc_ValueError, "scales: %zd entries for %zd shapes", (Py_ssize_t)PyArray_DIM(in->scales, 0),
                         (Py_ssize_t)count);
            return false;
        }
        in->bodies.scales = PyArray_DATA(in->scales);
    }
    in->bodies.shape = PyArray_DATA(in->shapes);
    in->bodies.count = (uint32_t)count;
    uint32_t shape_count = mf_bank_shape_count(bank->bank);
    // Under on_fault="skip" the library skips a bad body's pairs and lists them: nothing to check.
    for (uint32_t i = 0; check_each_body && i < in->bodies.count; ++i) {
        if (in->bodies.shape[i] >= shape_count) {
            char message[160];
            snprintf(message, sizeof(message), "body %u has shape %u but the bank holds %u shapes", i,
                     in->bodies.shape[i], shape_count);
            raise_error(MF_ERR_INVALID_ARGUMENT, message);
            return false;
        }
        mf_shape_info info;
        if (mf_bank_shape_info(bank->bank, in->bodies.shape[i], &info) != MF_OK) {
            char message[160];
            snprintf(message, sizeof(message), "body %u has shape %u, which was removed from the bank", i,
                     in->bodies.shape[i]);
            raise_error(MF_ERR_INVALID_ARGUMENT, message);
            return false;
        }
        float scale = in->bodies.scales != NULL ? in->bodies.scales[i] : 1.0f;
        if (!isfinite(scale) || !(scale > 0.0f)) {
            char message[160];
            snprintf(message, sizeof(message), "body %u has scale %g: a scale must be finite and > 0", i,
                     (double)scale);
            raise_error(isfinite(scale) ? MF_ERR_INVALID_ARGUMENT : MF_ERR_NONFINITE, message);
            return false;
        }
        if (!(scale >= info.min_scale && scale <= info.max_scale)) {
            char message[200];
            snprintf(message, sizeof(message), "body %u has scale %g: its shape %u takes scales in [%g, %g]", i,
                     (double)scale, in->bodies.shape[i], (double)info.min_scale, (double)info.max_scale);
            raise_error(MF_ERR_INVALID_ARGUMENT, message);
            return false;
        }
        const mf_transform *t = &in->bodies.transform[i];
        if (!isfinite(t->p.x) || !isfinite(t->p.y) || !isfinite(t->p.z) || !isfinite(t->q.x) || !isfinite(t->q.y) ||
            !isfinite(t->q.z) || !isfinite(t->q.w)) {
            char message[160];
            snprintf(message, sizeof(message), "body %u has a non-finite transform", i);
            raise_error(MF_ERR_NONFINITE, message);
            return false;
        }
        if (t->q.x == 0.0f && t->q.y == 0.0f && t->q.z == 0.0f && t->q.w == 0.0f) {
            char message[160];
            snprintf(message, sizeof(message), "body %u has a zero quaternion", i);
            raise_error(MF_ERR_INVALID_ARGUMENT, message);
            return false;
        }
    }
    return true;
}

static bool claim(int *busy, const char *what)
{
    if (*busy) {
        PyErr_Format(PyExc_RuntimeError, "%s is in use by a call on another thread", what);
        return false;
    }
    *busy = 1;
    return true;
}

static PyObject *Context_collide(ContextObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"bank", "shapes", "positions", "rotations", "pairs", "cache", "out", "scales", NULL};
    PyObject *bank_object, *shapes, *positions, *rotations = Py_None, *pairs_object = NULL, *cache_object = Py_None,
                                                *out_object = Py_None, *scales = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!OO|OO$OOO:collide", keywords, &BankType, &bank_object, &shapes,
                                     &positions, &rotations, &pairs_object, &cache_object, &out_object, &scales))
        return NULL;
    if (pairs_object == NULL) {
        // collide(bank, shapes, transforms, pairs): the fourth argument is the pairs.
        pairs_object = rotations;
        rotations = Py_None;
    }
    BankObject *bank = (BankObject *)bank_object;
    if (cache_object != Py_None && !PyObject_TypeCheck(cache_object, &PairCacheType))
        return PyErr_Format(PyExc_ValueError, "cache: expected a manyfold.PairCache");
    if (out_object != Py_None && !PyObject_TypeCheck(out_object, &ContactsType))
        return PyErr_Format(PyExc_ValueError, "out: expected a manyfold.Contacts from an earlier call");
    body_input in;
    bool skipping = self->config.on_fault == MF_FAULT_SKIP;
    bool ok = read_bodies(self, bank, shapes, positions, rotations, scales, !skipping, &in);
    PyArrayObject *pairs = ok ? index_array(pairs_object, "pairs", 2) : NULL;
    PairCacheObject *cache = cache_object != Py_None ? (PairCacheObject *)cache_object : NULL;
    ContactsObject *out = NULL;
    PyObject *result = NULL;
    if (pairs == NULL) goto done;
    npy_intp pair_count = PyArray_DIM(pairs, 0);
    if (pair_count > (npy_intp)UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "pairs: more than 2^32 - 1");
        goto done;
    }
    const mf_pair *pair = PyArray_DATA(pairs);
    for (npy_intp i = 0; !skipping && i < pair_count; ++i) {
        if (pair[i].a >= in.bodies.count || pair[i].b >= in.bodies.count || pair[i].a == pair[i].b) {
            char message[160];
            snprintf(message, sizeof(message), "pair %zd is (%u, %u) with %u bodies", (Py_ssize_t)i, pair[i].a,
                     pair[i].b, in.bodies.count);
            raise_error(MF_ERR_INVALID_ARGUMENT, message);
            goto done;
        }
    }
    if (cache != NULL && cache->count != pair_count) {
        PyErr_Format(PyExc_ValueError, "cache: %zd entries for %zd pairs", cache->count, (Py_ssize_t)pair_count);
        goto done;
    }
    if (out_object != Py_None) {
        out = (ContactsObject *)out_object;
        Py_INCREF(out);
    } else {
        out = PyObject_New(ContactsObject, &ContactsType);
        if (out == NULL) goto done;
        out->manifold_bytes = out->contact_bytes = out->fault_bytes = NULL;
        out->stream = (mf_stream){0};
        out->busy = 0;
    }
    if (!contacts_reserve(out, (uint32_t)pair_count, self->config.max_contacts)) goto done;
    if (!claim(&self->busy, "the context")) goto done;
    if (!claim(&out->busy, "out")) {
        self->busy = 0;
        goto done;
    }
    if (cache != NULL && !claim(&cache->busy, "the cache")) {
        self->busy = out->busy = 0;
        goto done;
    }
    bank->readers++;
    mf_status status;
    PyThreadState *unlocked = PyEval_SaveThread();
    if (cache != NULL)
        status = mf_collide_cached(self->context, bank->bank, &in.bodies, pair, (uint32_t)pair_count, cache->entries,
                                   &out->stream);
    else status = mf_collide(self->context, bank->bank, &in.bodies, pair, (uint32_t)pair_count, &out->stream);
    PyEval_RestoreThread(unlocked);
    bank->readers--;
    self->busy = out->busy = 0;
    if (cache != NULL) cache->busy = 0;
    if (status != MF_OK) {
        raise_error(status, mf_context_message(self->context));
        goto done;
    }
    result = (PyObject *)out;
    out = NULL;
done:
    Py_XDECREF(out);
    Py_XDECREF(pairs);
    body_input_release(&in);
    return result;
}

static PyObject *Context_find_pairs(ContextObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"bank", "shapes", "positions", "rotations", "margin", "scales", NULL};
    PyObject *bank_object, *shapes, *positions, *rotations = Py_None, *margin_object = Py_None, *scales = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!OO|OO$O:find_pairs", keywords, &BankType, &bank_object, &shapes,
                                     &positions, &rotations, &margin_object, &scales))
        return NULL;
    double margin = self->config.margin;
    if (margin_object != Py_None) {
        margin = PyFloat_AsDouble(margin_object);
        if (PyErr_Occurred()) {
            PyErr_Clear();
            return PyErr_Format(PyExc_ValueError, "margin: expected a number");
        }
    }
    BankObject *bank = (BankObject *)bank_object;
    body_input in;
    PyObject *result = NULL;
    if (!read_bodies(self, bank, shapes, positions, rotations, scales, true, &in)) goto done;
    if (!claim(&self->busy, "the context")) goto done;
    bank->readers++;
    mf_status status;
    uint32_t count = 0;
    PyThreadState *unlocked = PyEval_SaveThread();
    status =
        mf_find_pairs(self->context, bank->bank, &in.bodies, (float)margin, self->pairs, self->pair_capacity, &count);
    if (status == MF_ERR_CAPACITY) {
        uint32_t capacity = count + count / 4 + 1024;
        if (capacity < count) capacity = UINT32_MAX;
        mf_pair *grown = PyMem_RawRealloc(self->pairs, (size_t)capacity * sizeof(mf_pair));
        if (grown == NULL) {
            status = MF_ERR_OUT_OF_MEMORY;
        } else {
            self->pairs = grown;
            self->pair_capacity = capacity;
            status = mf_find_pairs(self->context, bank->bank, &in.bodies, (float)margin, self->pairs,
                                   self->pair_capacity, &count);
        }
    }
    PyEval_RestoreThread(unlocked);
    bank->readers--;
    self->busy = 0;
    if (status != MF_OK) {
        raise_error(status, mf_context_message(self->context));
        goto done;
    }
    npy_intp dims[2] = {count, 2};
    result = new_array(2, dims, NPY_UINT32);
    if (result != NULL && count > 0)
        memcpy(PyArray_DATA((PyArrayObject *)result), self->pairs, (size_t)count * sizeof(mf_pair));
done:
    body_input_release(&in);
    return result;
}

static PyObject *Context_threads(ContextObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromUnsignedLong(mf_context_threads(self->context));
}

static PyObject *Context_isa(ContextObject *self, void *closure)
{
    (void)closure;
    return PyUnicode_FromString(mf_isa_name(mf_context_isa(self->context)));
}

static PyObject *Context_margin(ContextObject *self, void *closure)
{
    (void)closure;
    return PyFloat_FromDouble(self->config.margin);
}

static PyObject *Context_max_contacts(ContextObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromUnsignedLong(self->config.max_contacts);
}

static PyObject *Context_linear_slop(ContextObject *self, void *closure)
{
    (void)closure;
    return PyFloat_FromDouble(self->config.linear_slop);
}

static PyObject *Context_on_fault(ContextObject *self, void *closure)
{
    (void)closure;
    return PyUnicode_FromString(self->config.on_fault == MF_FAULT_SKIP ? "skip" : "stop");
}

static PyMethodDef Context_methods[] = {
    {"collide", (PyCFunction)(void (*)(void))Context_collide, METH_VARARGS | METH_KEYWORDS,
     "collide(bank, shapes, positions, rotations, pairs, *, cache=None, out=None, scales=None) -> Contacts\n\n"
     "shapes (B,) uint32, positions (B, 3), rotations (B, 4) as x, y, z, w (or positions a (B, 7) array of "
     "both and rotations left out), pairs (P, 2) body indices. cache: a PairCache of P entries "
     "(mf_collide_cached). out: a Contacts to reuse. scales: None (every body 1) or (B,) each body's uniform "
     "scale, finite and > 0: body i is its shape scaled by scales[i] about the shape's origin; margins and "
     "results stay in world units."},
    {"find_pairs", (PyCFunction)(void (*)(void))Context_find_pairs, METH_VARARGS | METH_KEYWORDS,
     "find_pairs(bank, shapes, positions, rotations, margin=None, *, scales=None) -> (P, 2) uint32\n\n"
     "Every pair whose world boxes grown by margin (default: the context's) overlap, a < b, sorted; a scaled "
     "body's box is its shape's times its scale."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Context_getset[] = {
    {"threads", (getter)Context_threads, NULL, "threads the context runs on, the caller's included", NULL},
    {"isa", (getter)Context_isa, NULL, "the ISA the context runs", NULL},
    {"margin", (getter)Context_margin, NULL, "speculative distance", NULL},
    {"max_contacts", (getter)Context_max_contacts, NULL, "contacts per manifold at most", NULL},
    {"linear_slop", (getter)Context_linear_slop, NULL, "the axis choice's tolerance", NULL},
    {"on_fault", (getter)Context_on_fault, NULL, "'stop' (a bad body raises) or 'skip' (its pairs are skipped)", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject ContextType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "manyfold.Context",
    .tp_basicsize = sizeof(ContextObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Context(margin=0.02, max_contacts=4, isa='auto', threads=0, linear_slop=0.005, on_fault='stop'): "
              "configuration, threads and scratch. on_fault='skip': collide skips the pairs that name a bad body "
              "(NaN pose, zero quaternion, bad scale, unknown shape, pair out of range) and lists them in "
              "out.fault_pair and out.fault_status, where 'stop' raises manyfold.Error. One call at a time per "
              "context; use one context per Python thread.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Context_init,
    .tp_dealloc = (destructor)Context_dealloc,
    .tp_methods = Context_methods,
    .tp_getset = Context_getset,
};

// ---- module ----

static PyObject *module_version(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyUnicode_FromString(mf_version());
}

static PyObject *module_best_isa(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyUnicode_FromString(mf_isa_name(mf_isa_best()));
}

static PyMethodDef module_methods[] = {
    {"version", module_version, METH_NOARGS, "version() -> str: the library's version"},
    {"best_isa", module_best_isa, METH_NOARGS, "best_isa() -> str: what isa='auto' runs on this CPU"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT,
                                    "manyfold._core",
                                    "manyfold's library on NumPy arrays (see the package manyfold).",
                                    -1,
                                    module_methods,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL};

PyMODINIT_FUNC PyInit__core(void)
{
    import_array();
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    error_type = PyErr_NewExceptionWithDoc("manyfold.Error",
                                           "A library error: .status (the mf_status number), .status_name and "
                                           ".message (what was wrong, which body or pair).",
                                           NULL, NULL);
    PyTypeObject *types[] = {&BankType, &ContextType, &PairCacheType, &ContactsType};
    const char *names[] = {"Bank", "Context", "PairCache", "Contacts"};
    if (error_type == NULL || PyModule_AddObject(m, "Error", error_type) < 0) goto fail;
    Py_INCREF(error_type);
    for (int i = 0; i < 4; ++i) {
        if (PyType_Ready(types[i]) < 0) goto fail;
        Py_INCREF(types[i]);
        if (PyModule_AddObject(m, names[i], (PyObject *)types[i]) < 0) goto fail;
    }
    PyModule_AddIntConstant(m, "MAX_CONTACTS", MF_MAX_CONTACTS);
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
