"""Argument checks shared by every entry point: each bad argument is a TypeError (not numbers,
not the right kind) or a ValueError (wrong shape, NaN or infinity, out of range) whose message
names the argument, the index and the limit."""

import numbers

import numpy as np


def _is_sparse(a):
    """Whether `a` is a scipy.sparse matrix or array (without importing scipy)."""
    return type(a).__module__.startswith("scipy.sparse") and hasattr(a, "tocsc")


def floats(name, value):
    """`value` as a float64 array: ValueError for nested lists of unequal lengths (a ragged
    matrix), TypeError where numpy cannot read it as real numbers."""
    try:
        a = np.asarray(value)
    except ValueError as e:
        raise ValueError(f"{name} is ragged: its rows (or nested lists) have different lengths ({e})") from None
    if np.iscomplexobj(a):
        raise TypeError(f"{name} must hold real numbers, not complex ones")
    try:
        return a.astype(np.float64, copy=False)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{name} must be an array of real numbers ({e})") from None


def first_not_finite(a):
    """The index (a tuple) of the first NaN or infinite entry of `a`, or None."""
    bad = np.argwhere(~np.isfinite(a))
    return None if bad.size == 0 else tuple(int(i) for i in bad[0])


def _index(idx):
    return ", ".join(str(i) for i in idx)


def finite(name, a):
    """ValueError naming the first NaN or infinite entry of `a`."""
    idx = first_not_finite(a)
    if idx is not None:
        raise ValueError(f"{name}[{_index(idx)}] = {a[idx]}: entries must be finite")


def vector(name, value, n=None, of=None, squeeze=True):
    """A finite 1-D float64 vector (scipy squeezes singleton dimensions, and so does this);
    with `n`, it must have n entries (`of` says whose)."""
    a = floats(name, value)
    if squeeze:
        a = a.squeeze()
        if a.ndim == 0:
            a = a.reshape(-1)
    if a.ndim != 1:
        raise ValueError(f"{name} must be 1-D, but has shape {a.shape}")
    if n is not None and a.shape[0] != n:
        raise ValueError(f"{name} has {a.shape[0]} entries, but {of} needs {n}")
    finite(name, a)
    return np.ascontiguousarray(a)


def matrix(name, value, ncols=None, of=None):
    """A finite 2-D matrix: a float64 numpy array, or a canonical scipy CSC matrix (sorted
    indices, duplicates summed). With `ncols`, it must have that many columns (`of` says why)."""
    if _is_sparse(value):
        if np.iscomplexobj(value.data):
            raise TypeError(f"{name} must hold real numbers, not complex ones")
        a = value.tocsc(copy=True)
        if len(a.shape) != 2:
            raise ValueError(f"{name} must be 2-D, but has shape {a.shape}")
        try:
            a = a.astype(np.float64)
        except (TypeError, ValueError) as e:
            raise TypeError(f"{name} must hold real numbers ({e})") from None
        a.sum_duplicates()
        a.sort_indices()
        bad = np.flatnonzero(~np.isfinite(a.data))
        if bad.size:
            k = int(bad[0])
            col = int(np.searchsorted(a.indptr, k, side="right") - 1)
            raise ValueError(f"{name}[{int(a.indices[k])}, {col}] = {a.data[k]}: entries must be finite")
    else:
        a = floats(name, value)
        if a.ndim != 2:
            raise ValueError(f"{name} must be 2-D, but has shape {a.shape}")
        finite(name, a)
    if ncols is not None and a.shape[1] != ncols:
        raise ValueError(f"{name} has {a.shape[1]} columns, but {of} needs {ncols}")
    return a


def block(name, a):
    """The tuple the extension reads a block of constraint rows from."""
    rows, cols = a.shape
    if _is_sparse(a):
        return (
            name,
            "csc",
            rows,
            cols,
            np.ascontiguousarray(a.data, dtype=np.float64).tobytes(),
            np.ascontiguousarray(a.indptr, dtype=np.int64).tobytes(),
            np.ascontiguousarray(a.indices, dtype=np.int64).tobytes(),
        )
    return (name, "dense", rows, cols, np.ascontiguousarray(a, dtype=np.float64).tobytes(), None, None)


def matvec(a, x):
    """A·x for a numpy or scipy matrix, as a 1-D float64 array."""
    return np.asarray(a @ x, dtype=np.float64).reshape(-1)


def shown(value):
    """`value` for a message: an integer of hundreds of digits is shortened."""
    text = repr(value)
    return text if len(text) <= 24 else f"{text[:8]}...({len(text)} digits)"


def option_str(name, value, choices):
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string (one of {', '.join(repr(c) for c in choices)}), not {type(value).__name__}")
    return value


def option_real(name, value, lo, hi, rule):
    """None, or a real number with lo < value < hi."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number or None, not {type(value).__name__}")
    try:
        v = float(value)
    except OverflowError:  # an integer beyond float64's range
        v = float("inf") if value > 0 else float("-inf")
    if not (lo < v < hi):
        raise ValueError(f"{name} = {shown(value)}: {rule}")
    return v


def option_int(name, value, lo, hi, rule):
    """None, or an integer with lo ≤ value ≤ hi."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer or None, not {type(value).__name__}")
    if not (lo <= int(value) <= hi):
        raise ValueError(f"{name} = {shown(value)}: {rule}")
    return int(value)


def option_bool(name, value):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, not {type(value).__name__}")
    return bool(value)


def option_callable(name, value):
    if value is not None and not callable(value):
        raise TypeError(f"{name} must be callable or None, not {type(value).__name__}")
    return value
