#!/usr/bin/env python3
"""NumPy behind dmlconf's process protocol (docs/process-protocol.md, version 1).

    dmlconf run --backend exec -- python3 implementations/numpy/adapter.py

Each job is computed with numpy.cumsum or numpy.cumprod in the output's data
type; a decreasing scan flips the axis before and after, an exclusive scan
shifts the inclusive result one place along the axis and puts the identity
(0 or 1) first; strided, padded and broadcast tensors are strided views of the
buffers (as numpy.lib.stride_tricks.as_strided makes them, bounds checked). The whole output buffer goes back,
padding included, as it came except for the elements written.

NumPy has no notion of DirectML's validation: the handshake says so, and
dmlconf skips the negative cases with that reason.

The protocol itself (the command line, the handshake line, batches, job
headers, answers) is implementations/python/dmlconf_protocol.py, shared with
the other Python adapters; this file is what NumPy does.

Needs Python 3 and NumPy (Debian: python3-numpy), nothing else. Diagnostics go
to standard error; standard output carries the protocol only. `adapter.py
--probe` says whether it can run here: it prints NumPy's and Python's versions
(exit status 0), or why not (77).
"""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "python"))
import dmlconf_protocol as protocol  # noqa: E402 (found through the line above)

SUMMATION = protocol.SUMMATION

# DML_TENSOR_DATA_TYPE values -> NumPy's little-endian dtypes.
DTYPE_CODES = {1: "<f4", 2: "<f2", 3: "<u4", 6: "<i4", 10: "<u8", 11: "<i8"}


class Scanner:
    """Computes jobs with NumPy."""

    def __init__(self, np):
        self.np = np
        self.ndarray = np.ndarray
        self.dtypes = {code: np.dtype(name) for code, name in DTYPE_CODES.items()}
        # Overflow and invalid operations are results here, not warnings.
        np.seterr(all="ignore")

    def describe(self):
        return "NumPy %s on %s (%s)" % (self.np.__version__, protocol.PYTHON, sys.executable)

    def handshake(self):
        return {
            "implementation": "numpy",
            "implementation_version": self.np.__version__,
            "device": protocol.cpu_device(),
            "driver": "none (NumPy computes on the CPU)",
            "runtime": protocol.PYTHON,
            "software": True,
            "operators": ["cumulative_summation", "cumulative_product"],
            "data_types": [protocol.DATA_TYPE_NAMES[code] for code in sorted(DTYPE_CODES)],
            "directions": ["increasing", "decreasing"],
            "modes": ["inclusive", "exclusive"],
            "ranks": [1, 8],
            "strides": True,
            "broadcast": True,
            "in_place": True,
            "validates": False,
            "feature_level": None,
        }

    def view(self, buffer, dtype, tensor):
        """The logical tensor as a strided view of a buffer (a bytearray):
        what numpy.lib.stride_tricks.as_strided makes, through the ndarray
        constructor, which also checks that every element lies inside the
        buffer (ValueError otherwise)."""
        return self.ndarray(tensor.sizes, dtype, buffer, 0, tensor.byte_strides())

    def scan(self, operator, axis, decreasing, exclusive, dtype, x):
        everything = [slice(None)] * x.ndim
        if decreasing:
            everything[axis] = slice(None, None, -1)
            reverse = tuple(everything)
            x = x[reverse]
        y = x.cumsum(axis, dtype) if operator == SUMMATION else x.cumprod(axis, dtype)
        if exclusive:
            shifted = self.np.empty_like(y)
            everything[axis] = slice(0, 1)
            shifted[tuple(everything)] = 0 if operator == SUMMATION else 1
            everything[axis] = slice(1, None)
            rest = tuple(everything)
            everything[axis] = slice(0, -1)
            shifted[rest] = y[tuple(everything)]
            y = shifted
        if decreasing:
            y = y[reverse]
        return y

    def run(self, job):
        """The answer to a job (protocol.Job); writes its output buffer."""
        if job.validate_only:
            return protocol.unsupported("NumPy has no notion of DirectML's validation")
        in_type, out_type = job.input.data_type, job.output.data_type
        dtype = self.dtypes.get(in_type)
        if dtype is None or out_type != in_type:
            return protocol.unsupported("data type %d (to %d) has no NumPy counterpart here" % (in_type, out_type))
        x = self.view(job.input_buffer, dtype, job.input)
        started = time.perf_counter()
        y = self.scan(job.operator, job.axis, job.decreasing, job.exclusive, dtype, x)
        seconds = time.perf_counter() - started
        self.view(job.output_buffer, dtype, job.output)[...] = y
        return protocol.done(seconds)


def load(settings):
    """A Scanner, or protocol.Unavailable when NumPy cannot be imported."""
    try:
        import numpy
    except ImportError as error:
        raise protocol.Unavailable("NumPy cannot be imported by %s (%s); on Debian: apt-get install python3-numpy"
                                   % (sys.executable, error))
    return Scanner(numpy)


if __name__ == "__main__":
    sys.exit(protocol.main("numpy", load))
