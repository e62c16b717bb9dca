#!/usr/bin/python3
"""Cross-checks dmlconf's .npy reader and writer against NumPy.

Usage: npy_numpy_check.py DRIVER WORK_DIR

NumPy writes arrays of every supported dtype and several shapes in format
versions 1.0, 2.0 and 3.0; the driver must read back the same dtype, shape
and bytes. The driver writes arrays; NumPy must load them with the same
dtype, shape and bytes, and their headers must be version 1.0, padded so
the data starts at a multiple of 64. Big-endian and Fortran-order arrays
saved by NumPy must be refused with the documented messages.
Exits 0 when everything matches, 1 otherwise (every mismatch is printed).
"""
import os
import subprocess
import sys

import numpy as np

DTYPES = ["<f4", "<f2", "<i4", "<u4", "<i8", "<u8", "<f8", "<i2", "<u2", "|i1", "|u1"]
NAMES = {"<f4": "float32", "<f2": "float16", "<i4": "int32", "<u4": "uint32", "<i8": "int64", "<u8": "uint64",
         "<f8": "float64", "<i2": "int16", "<u2": "uint16", "|i1": "int8", "|u1": "uint8"}
SHAPES = [(1,), (5,), (2, 3), (2, 1, 3), (1,) * 8, (3, 0), (2, 2, 2, 2, 2, 2, 2, 2)]

failures = []


def fail(message):
    failures.append(message)
    print("FAIL:", message)


def driver(*args):
    result = subprocess.run([DRIVER] + list(args), capture_output=True, text=True, check=False)
    if result.returncode != 0:
        fail(f"driver {args} exited with {result.returncode}: {result.stderr}")
        return []
    return result.stdout.splitlines()


def pattern(dtype, shape):
    """An array whose bytes are a fixed pseudo-random pattern (NaNs included)."""
    count = int(np.prod(shape, dtype=np.int64))
    size = np.dtype(dtype).itemsize
    rng = np.random.default_rng(count * 131 + size)
    raw = rng.integers(0, 256, size=count * size, dtype=np.uint8)
    return raw.view(np.dtype(dtype)).reshape(shape)


def check_numpy_to_driver(work):
    for dtype in DTYPES:
        for shape in SHAPES:
            array = pattern(dtype, shape)
            for version in [None, (1, 0), (2, 0), (3, 0)]:
                path = os.path.join(work, "from_numpy.npy")
                if version is None:
                    np.save(path, array)
                    expected_major = 1
                else:
                    with open(path, "wb") as f:
                        np.lib.format.write_array(f, array, version=version)
                    expected_major = version[0]
                lines = driver("read", path)
                if len(lines) != 2 or not lines[0].startswith("ok "):
                    fail(f"{dtype} {shape} v{version}: driver said {lines}")
                    continue
                fields = lines[0].split()
                major, descr, ndim = int(fields[1]), fields[2], int(fields[3])
                dims = tuple(int(x) for x in fields[4:])
                if major != expected_major or descr != dtype or ndim != len(shape) or dims != shape:
                    fail(f"{dtype} {shape} v{version}: header read as {fields}")
                if lines[1] != array.tobytes().hex():
                    fail(f"{dtype} {shape} v{version}: data differs")


def check_driver_to_numpy(work):
    for dtype in DTYPES:
        for shape in SHAPES:
            path = os.path.join(work, "from_driver.npy")
            lines = driver("write", path, NAMES[dtype], *[str(d) for d in shape])
            if lines != ["ok"]:
                fail(f"{dtype} {shape}: driver write said {lines}")
                continue
            loaded = np.load(path)
            count = int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
            expected = bytes((i * 37 + 11) % 256 for i in range(count))
            if loaded.dtype.str != dtype or loaded.shape != shape or not loaded.flags.c_contiguous:
                fail(f"{dtype} {shape}: numpy loaded {loaded.dtype.str} {loaded.shape}")
            if loaded.tobytes() != expected:
                fail(f"{dtype} {shape}: numpy sees different data")
            with open(path, "rb") as f:
                major, minor = np.lib.format.read_magic(f)
                header = np.lib.format.read_array_header_1_0(f)
                offset = f.tell()
            if (major, minor) != (1, 0):
                fail(f"{dtype} {shape}: version {major}.{minor}")
            if offset % 64 != 0:
                fail(f"{dtype} {shape}: data offset {offset} is not a multiple of 64")
            if header != (shape, False, np.dtype(dtype)):
                fail(f"{dtype} {shape}: numpy parsed the header as {header}")


def check_refusals(work):
    path = os.path.join(work, "big_endian.npy")
    np.save(path, np.arange(6, dtype=">f4"))
    lines = driver("read", path)
    expected = (f"error {path}: big-endian dtype '>f4' is not supported; save the array as little-endian "
                "(arr.astype('<f4'))")
    if lines != [expected]:
        fail(f"big-endian: driver said {lines}")
    path = os.path.join(work, "fortran.npy")
    np.save(path, np.asfortranarray(np.arange(6, dtype="<i4").reshape(2, 3)))
    lines = driver("read", path)
    expected = (f"error {path}: fortran_order is True; only C-order arrays are supported "
                "(save np.ascontiguousarray(arr))")
    if lines != [expected]:
        fail(f"fortran order: driver said {lines}")
    path = os.path.join(work, "scalar.npy")
    np.save(path, np.float32(1.5))
    lines = driver("read", path)
    if lines != [f"error {path}: shape () is 0-dimensional; save scalars with shape (1,)"]:
        fail(f"0-d: driver said {lines}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    DRIVER = sys.argv[1]
    WORK = sys.argv[2]
    os.makedirs(WORK, exist_ok=True)
    check_numpy_to_driver(WORK)
    check_driver_to_numpy(WORK)
    check_refusals(WORK)
    print(f"numpy {np.__version__}: {len(failures)} failures")
    sys.exit(1 if failures else 0)
