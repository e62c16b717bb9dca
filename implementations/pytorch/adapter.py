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

Needs Python 3 and PyTorch (Debian: python3-torch, CPU only; CUDA with a
CUDA build of PyTorch), nothing else. Diagnostics go to standard error;
standard output carries the protocol only. `adapter.py --probe [--device
D]` says whether it can run here: the versions (exit status 0), or why not
(77).
"""

import io
import os
import struct
import sys
import time

PROTOCOL_VERSION = 1

SUMMATION = 105
PRODUCT = 145

FLAG_EXCLUSIVE = 1
FLAG_IN_PLACE = 2
FLAG_VALIDATE_ONLY = 4

DONE = 0
UNSUPPORTED = 2
FAILED = 3

BATCH = struct.Struct("<4sIII")
# magic, header bytes, index, operator, axis, direction, flags, feature level,
# then two tensors: type, dimension count, 8 sizes, 8 strides, flags,
# reserved, total size, buffer bytes.
TENSOR = "II8I8IIIQQ"
JOB = struct.Struct("<4sIIIIIII" + TENSOR + TENSOR)
ANSWER = struct.Struct("<4sIIIdQII")
JOB_HEADER_BYTES = 224
assert JOB.size == JOB_HEADER_BYTES and ANSWER.size == 40 and BATCH.size == 16

# DML_TENSOR_DATA_TYPE values -> torch dtype names (looked up on the module:
# uint32 and uint64 exist only from PyTorch 2.3 on).
DTYPE_NAMES = {1: "float32", 2: "float16", 3: "uint32", 6: "int32", 10: "uint64", 11: "int64"}


def die(message):
    sys.stderr.write("pytorch adapter: %s\n" % message)
    sys.stderr.flush()
    sys.exit(4)


def read_exactly(stream, size):
    data = stream.read(size)
    if data is None or len(data) != size:
        die("the input ended in the middle of a batch (%d of %d bytes)" % (0 if data is None else len(data), size))
    return data


def json_line(fields):
    import json
    return json.dumps(fields) + "\n"


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
        self.dtypes = {code: getattr(torch, name, None) for code, name in DTYPE_NAMES.items()}

    def handshake(self):
        torch = self.torch
        machine = os.uname().machine if hasattr(os, "uname") else "unknown machine"
        if self.cuda:
            properties = torch.cuda.get_device_properties(self.device)
            device = "%s (CUDA device %d)" % (properties.name, self.device.index or 0)
            driver = "CUDA %s" % torch.version.cuda
        else:
            device = "CPU (%s)" % machine
            driver = "none (PyTorch computes on the CPU)"
        return {
            "protocol": "dmlconf-exec",
            "version": PROTOCOL_VERSION,
            "implementation": "pytorch-cuda" if self.cuda else "pytorch-cpu",
            "implementation_version": torch.__version__,
            "device": device,
            "driver": driver,
            "runtime": "PyTorch %s on Python %d.%d.%d" % ((torch.__version__,) + sys.version_info[:3]),
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

    def view(self, buffer, dtype, sizes, strides):
        """The logical tensor as a strided view of a writable buffer (a
        bytearray), sharing its memory; raises RuntimeError when an element
        lies outside the buffer."""
        torch = self.torch
        item = torch.empty((), dtype=dtype).element_size()
        usable = len(buffer) - len(buffer) % item
        flat = torch.frombuffer(buffer, dtype=torch.uint8)[:usable].view(dtype)
        return flat, torch.as_strided(flat, tuple(sizes), tuple(strides))

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

    def run(self, fields, input_buffer, output_buffer):
        """Returns (status, message, device seconds); writes the output buffer.
        `fields` is the job header unpacked (JOB): the input tensor from field
        8, the output tensor from field 30."""
        torch = self.torch
        operator, axis, direction, flags = fields[3], fields[4], fields[5], fields[6]
        in_type, out_type = fields[8], fields[30]
        if flags & FLAG_VALIDATE_ONLY:
            return UNSUPPORTED, "PyTorch has no notion of DirectML's validation", -1.0
        if operator != SUMMATION and operator != PRODUCT:
            return UNSUPPORTED, "operator %d is not a cumulative summation or product" % operator, -1.0
        if out_type != in_type or in_type not in DTYPE_NAMES:
            return UNSUPPORTED, "data type %d (to %d) has no PyTorch counterpart here" % (in_type, out_type), -1.0
        dtype = self.dtypes[in_type]
        if dtype is None:
            return UNSUPPORTED, "PyTorch %s has no %s dtype" % (torch.__version__, DTYPE_NAMES[in_type]), -1.0
        try:
            return self.compute(operator, axis, direction == 1, flags, dtype, fields, input_buffer, output_buffer)
        except (RuntimeError, NotImplementedError, TypeError) as error:
            if not_implemented(error):
                return UNSUPPORTED, "PyTorch %s on %s: %s" % (torch.__version__, self.device, error), -1.0
            raise

    def compute(self, operator, axis, decreasing, flags, dtype, fields, input_buffer, output_buffer):
        """The job on the device; returns (DONE, "", device seconds)."""
        torch = self.torch
        in_rank, out_rank = fields[9], fields[31]
        source = output_buffer if flags & FLAG_IN_PLACE else input_buffer
        sizes, strides = fields[10:10 + in_rank], fields[18:18 + in_rank]
        flat, x = self.view(source, dtype, sizes, strides)
        if self.cuda:
            x = torch.as_strided(flat.to(self.device), tuple(sizes), tuple(strides))
            torch.cuda.synchronize(self.device)
        started = time.perf_counter()
        y = self.scan(operator, axis, decreasing, flags & FLAG_EXCLUSIVE, dtype, x)
        if self.cuda:
            torch.cuda.synchronize(self.device)
        seconds = time.perf_counter() - started
        _, out = self.view(output_buffer, dtype, fields[32:32 + out_rank], fields[40:40 + out_rank])
        out.copy_(y.cpu() if self.cuda else y)
        return DONE, "", seconds


def serve(scanner, stdin, stdout):
    """Answers batches until the input ends. Answers are gathered and written
    once per batch (or whenever a megabyte is waiting): dmlconf blames a hang
    on the batch's first unanswered job, and finds a crash exactly (it reruns
    the unanswered jobs one at a time)."""
    read = stdin.read
    pending = []
    pending_bytes = 0
    while True:
        head = read(BATCH.size)
        if not head:
            return 0
        if len(head) != BATCH.size:
            die("the input ended in the middle of a batch header")
        magic, version, count, _ = BATCH.unpack(head)
        if magic != b"DMLB" or version != PROTOCOL_VERSION or count == 0:
            die("a batch header is not version %d's (%r)" % (PROTOCOL_VERSION, head))
        for index in range(count):
            fields = JOB.unpack(read_exactly(stdin, JOB_HEADER_BYTES))
            if fields[0] != b"DMLJ" or fields[1] != JOB_HEADER_BYTES or fields[2] != index:
                die("job %d's header is not version %d's" % (index, PROTOCOL_VERSION))
            input_bytes, output_bytes = fields[29], fields[51]
            # Each buffer in a bytearray of its own: torch.frombuffer shares
            # its memory, and wants it writable.
            input_buffer = bytearray(input_bytes)
            if input_bytes and stdin.readinto(input_buffer) != input_bytes:
                die("the input ended in the middle of job %d's input buffer" % index)
            output_buffer = bytearray(output_bytes)
            if output_bytes and stdin.readinto(output_buffer) != output_bytes:
                die("the input ended in the middle of job %d's output buffer" % index)
            try:
                status, message, seconds = scanner.run(fields, input_buffer, output_buffer)
            except Exception as error:  # the job fails, the adapter goes on
                status, message, seconds = FAILED, "%s: %s" % (type(error).__name__, error), -1.0
                import traceback
                traceback.print_exc(file=sys.stderr)
            text = message.encode("utf-8", "replace")[:4096]
            payload = output_buffer if status == DONE else b""
            pending.append(ANSWER.pack(b"DMLA", index, status, 0, seconds, len(payload), len(text), 0))
            pending.append(text)
            pending.append(payload)
            pending_bytes += 40 + len(text) + len(payload)
            if pending_bytes >= 1 << 20:
                stdout.write(b"".join(pending))
                stdout.flush()
                pending.clear()
                pending_bytes = 0
        stdout.write(b"".join(pending))
        stdout.flush()
        pending.clear()
        pending_bytes = 0


def parse_arguments(argv):
    """(device, probe), or None on a usage error."""
    device, probe = "cpu", False
    rest = list(argv)
    while rest:
        word = rest.pop(0)
        if word == "--probe" and not probe:
            probe = True
        elif word == "--device" and rest and rest[0] in ("cpu", "cuda"):
            device = rest.pop(0)
        else:
            return None
    return device, probe


def main():
    arguments = parse_arguments(sys.argv[1:])
    if arguments is None:
        sys.stderr.write("usage: adapter.py [--device cpu|cuda] [--probe]  (dmlconf starts it: "
                         "dmlconf run --backend exec -- %s %s)\n" % (os.path.basename(sys.executable), sys.argv[0]))
        return 2
    device, probe = arguments
    why = None
    try:
        import torch
    except ImportError as error:
        torch = None
        why = "PyTorch cannot be imported by %s (%s); on Debian: apt-get install python3-torch" % (
            sys.executable, error)
    if torch is not None and device == "cuda" and not torch.cuda.is_available():
        why = "PyTorch %s sees no CUDA device (built for CUDA %s)" % (torch.__version__, torch.version.cuda)
    if why:
        if probe:
            print(why)
            return 77
        sys.stderr.write("pytorch adapter: %s\n" % why)
        return 3
    if probe:
        print("PyTorch %s on Python %d.%d.%d (%s), device %s" % (
            (torch.__version__,) + sys.version_info[:3] + (sys.executable, device)))
        return 0
    # One thread per adapter: dmlconf runs one adapter per worker process.
    torch.set_num_threads(1)
    scanner = Scanner(torch, device)
    stdin = io.open(sys.stdin.fileno(), "rb", buffering=1 << 20, closefd=False)
    stdout = io.open(sys.stdout.fileno(), "wb", buffering=1 << 20, closefd=False)
    stdout.write(json_line(scanner.handshake()).encode("utf-8"))
    stdout.flush()
    return serve(scanner, stdin, stdout)


if __name__ == "__main__":
    sys.exit(main())
