# cython: language_level=3
# Reading and writing the `__slots__` fields of our dataclasses (KeyFact, RdbKey, NameVerdict) at their
# offsets, for the compiled core (`from rediscipline._slots cimport ...`): `getattr` looks the attribute up
# in the type's dictionary every time, which was a fifth of the compiled per-key path's time on a dump of
# 2.8 M keys; a slot is a pointer at a fixed offset of the instance, found once from its member descriptor.

from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF, Py_XDECREF


cdef extern from "structmember.h":  # PyMemberDef: here up to Python 3.11, also in Python.h from 3.12
    ctypedef struct PyMemberDef:
        Py_ssize_t offset

cdef extern from "Python.h":
    ctypedef struct PyMemberDescrObject:
        PyMemberDef* d_member


cdef inline Py_ssize_t slot_offset(type cls, str name) except -1:
    """Where the `__slots__` field `name` of `cls`'s instances is stored (its member descriptor's offset)."""
    descriptor = getattr(cls, name)
    if type(descriptor).__name__ != "member_descriptor":
        raise TypeError(f"{cls.__name__}.{name} is not a __slots__ field")
    return (<PyMemberDescrObject*><PyObject*>descriptor).d_member.offset


cdef inline object slot(object instance, Py_ssize_t offset):
    """A field of `instance` read at its offset (None when unset): what `getattr` gives, without the lookup."""
    cdef PyObject* value = (<PyObject**>((<char*><PyObject*>instance) + offset))[0]
    if value is NULL:
        return None
    return <object>value


cdef inline void set_slot(object instance, Py_ssize_t offset, object value):
    """Write a field of `instance` at its offset, as `setattr` does."""
    cdef PyObject** field = <PyObject**>((<char*><PyObject*>instance) + offset)
    cdef PyObject* old = field[0]
    Py_INCREF(value)
    field[0] = <PyObject*>value
    Py_XDECREF(old)
