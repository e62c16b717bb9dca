#!/usr/bin/env python3
"""PyTorch behind dmlconf's process protocol (docs/process-protocol.md, version 1).

    dmlconf run --backend exec -- python3 implementations/pytorch/adapter.py [--device cpu|cuda]

Each job is torch.cumsum or torch.cumprod along the job's axis, in the
tensor's own dtype, on the CPU or on a CUDA device (the whole buffer is
copied to the device and the tensor is a strided view of it there, so the
kernel sees the layout the job gives). PyTorch's scans have no exclusive or
reverse flag: a decreasing scan is torch.flip before and after, an
exclusive one the inclusive result shifted one place along the axis with 0
(sums) or 1 (products) first, which is how a PyTorch program writes them.

A dtype or kernel that this PyTorch lacks (uint32 and uint64 before 2.3,
float16 scans on some CPU builds) is answered `unsupported` with PyTorch's
own words. PyTorch has no notion of DirectML's validation: the handshake
says so, and dmlconf skips the negative cases with that reason.

The protocol itself (the command line, the handshake line, batches, job
headers, answers) is implementations/python/dmlconf_protocol.py, shared with
the other Python adapters; this file is what PyTorch does.

Needs Python 3 and PyTorch (Debian: python3-torch, CPU only; CUDA with a
CUDA build of PyTorch), nothing else. Diagnostics go to standard error;
standard output carries the protocol only. `adapter.py --probe [--device
D]` says whether it can run here: the versions (exit status 0), or why not
(77).
"""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "python"))
import dmlconf_protocol as protocol  # noqa: E402 (found through the line above)

SUMMATION = protocol.SUMMATION
DTYPE_NAMES = protocol.DATA_TYPE_NAMES

# The adapter's own option: where PyTorch computes.
OPTIONS = {"--device": ("cpu", "cuda")}


def not_implemented(error):
    """True when PyTorch says it has no kernel for this dtype or device."""
    text = str(error)
    return isinstance(error, NotImplementedError) or "not implemented for" in text or "Unsupported dtype" in text


class Scanner:
    """Computes jobs with PyTorch on one device."""

    def __init__(self, torch, device):
        self.torch = torch
        self.device = torch.device(device)
        self.cuda = self.device.type == "cuda"
        # DML_TENSOR_DATA_TYPE values -> torch dtypes, looked up on the
        # module: uint32 and uint64 exist only from PyTorch 2.3 on.
        self.dtypes = {code: getattr(torch, name, None) for code, name in DTYPE_NAMES.items()}
        # One thread per adapter: dmlconf runs one adapter per worker process.
        torch.set_num_threads(1)

    def describe(self):
        return "PyTorch %s on %s (%s), device %s" % (self.torch.__version__, protocol.PYTHON, sys.executable,
                                                     self.device)

    def handshake(self):
        torch = self.torch
        if self.cuda:
            properties = torch.cuda.get_device_properties(self.device)
            device = "%s (CUDA device %d)" % (properties.name, self.device.index or 0)
            driver = "CUDA %s" % torch.version.cuda
        else:
            device = protocol.cpu_device()
            driver = "none (PyTorch computes on the CPU)"
        return {
            "implementation": "pytorch-cuda" if self.cuda else "pytorch-cpu",
            "implementation_version": torch.__version__,
            "device": device,
            "driver": driver,
            "runtime": "PyTorch %s on %s" % (torch.__version__, protocol.PYTHON),
            "software": not self.cuda,
            "operators": ["cumulative_summation", "cumulative_product"],
            "data_types": [DTYPE_NAMES[code] for code in sorted(DTYPE_NAMES)],
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
        """The logical tensor as a strided view of a writable buffer (a
        bytearray), sharing its memory, with the buffer's whole elements;
        raises RuntimeError when an element lies outside the buffer."""
        torch = self.torch
        item = tensor.element_bytes
        usable = len(buffer) - len(buffer) % item
        flat = torch.frombuffer(buffer, dtype=torch.uint8)[:usable].view(dtype)
        return flat, torch.as_strided(flat, tensor.sizes, tensor.strides)

    def scan(self, operator, axis, decreasing, exclusive, dtype, x):
        torch = self.torch
        if decreasing:
            x = torch.flip(x, (axis,))
        if operator == SUMMATION:
            y = torch.cumsum(x, axis, dtype=dtype)
        else:
            y = torch.cumprod(x, axis, dtype=dtype)
        if exclusive:
            first = torch.zeros_like(y.narrow(axis, 0, 1)) if operator == SUMMATION else \
                torch.ones_like(y.narrow(axis, 0, 1))
            y = torch.cat((first, y.narrow(axis, 0, y.shape[axis] - 1)), axis)
        if decreasing:
            y = torch.flip(y, (axis,))
        return y

    def run(self, job):
        """The answer to a job (protocol.Job); writes its output buffer."""
        torch = self.torch
        if job.validate_only:
            return protocol.unsupported("PyTorch has no notion of DirectML's validation")
        in_type, out_type = job.input.data_type, job.output.data_type
        if out_type != in_type or in_type not in DTYPE_NAMES:
            return protocol.unsupported("data type %d (to %d) has no PyTorch counterpart here" % (in_type, out_type))
        dtype = self.dtypes[in_type]
        if dtype is None:
            return protocol.unsupported("PyTorch %s has no %s dtype" % (torch.__version__, DTYPE_NAMES[in_type]))
        try:
            return self.compute(job, dtype)
        except (RuntimeError, NotImplementedError, TypeError) as error:
            if not_implemented(error):
                return protocol.unsupported("PyTorch %s on %s: %s" % (torch.__version__, self.device, error))
            raise

    def compute(self, job, dtype):
        """The job on the device; returns its `done` answer."""
        torch = self.torch
        flat, x = self.view(job.input_buffer, dtype, job.input)
        if self.cuda:
            x = torch.as_strided(flat.to(self.device), job.input.sizes, job.input.strides)
            torch.cuda.synchronize(self.device)
        started = time.perf_counter()
        y = self.scan(job.operator, job.axis, job.decreasing, job.exclusive, dtype, x)
        if self.cuda:
            torch.cuda.synchronize(self.device)
        seconds = time.perf_counter() - started
        _, out = self.view(job.output_buffer, dtype, job.output)
        out.copy_(y.cpu() if self.cuda else y)
        return protocol.done(seconds)


def load(settings):
    """A Scanner on the device --device names, or protocol.Unavailable when
    PyTorch cannot be imported or sees no such device."""
    try:
        import torch
    except ImportError as error:
        raise protocol.Unavailable("PyTorch cannot be imported by %s (%s); on Debian: apt-get install python3-torch"
                                   % (sys.executable, error))
    device = settings["device"]
    if device == "cuda" and not torch.cuda.is_available():
        raise protocol.Unavailable("PyTorch %s sees no CUDA device (built for CUDA %s)" % (
            torch.__version__, torch.version.cuda))
    return Scanner(torch, device)


if __name__ == "__main__":
    sys.exit(protocol.main("pytorch", load, OPTIONS))
