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

Needs Python 3 and NumPy (Debian: python3-numpy), nothing else. Diagnostics go
to standard error; standard output carries the protocol only. `adapter.py
--probe` says whether it can run here: it prints NumPy's and Python's versions
(exit status 0), or why not (77).
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

# DML_TENSOR_DATA_TYPE values -> NumPy's little-endian dtypes.
DTYPE_CODES = {1: "<f4", 2: "<f2", 3: "<u4", 6: "<i4", 10: "<u8", 11: "<i8"}
DTYPE_NAMES = {1: "float32", 2: "float16", 3: "uint32", 6: "int32", 10: "uint64", 11: "int64"}


def die(message):
    sys.stderr.write("numpy adapter: %s\n" % message)
    sys.stderr.flush()
    sys.exit(4)


def read_exactly(stream, size):
    data = stream.read(size)
    if data is None or len(data) != size:
        die("the input ended in the middle of a batch (%d of %d bytes)" % (0 if data is None else len(data), size))
    return data


def json_value(value):
    """A value of the handshake as JSON: strings, booleans, None, integers and
    lists of them (the json module is not imported: it delays the start)."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(json_value(item) for item in value) + "]"
    text = str(value)
    escaped = "".join(c if c >= " " and c not in '"\\' else "\\u%04x" % ord(c) for c in text)
    return '"' + escaped + '"'


def json_line(fields):
    return "{" + ", ".join("%s: %s" % (json_value(key), json_value(value)) for key, value in fields.items()) + "}\n"


def handshake(np):
    machine = os.uname().machine if hasattr(os, "uname") else "unknown machine"
    return {
        "protocol": "dmlconf-exec",
        "version": PROTOCOL_VERSION,
        "implementation": "numpy",
        "implementation_version": np.__version__,
        "device": "CPU (%s)" % machine,
        "driver": "none (NumPy computes on the CPU)",
        "runtime": "Python %d.%d.%d" % sys.version_info[:3],
        "software": True,
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


class Scanner:
    """Computes jobs with NumPy."""

    def __init__(self, np):
        self.np = np
        self.ndarray = np.ndarray
        self.dtypes = {code: np.dtype(name) for code, name in DTYPE_CODES.items()}

    def view(self, buffer, dtype, sizes, strides):
        """The logical tensor as a strided view of a buffer (bytes or
        bytearray): what numpy.lib.stride_tricks.as_strided makes, through the
        ndarray constructor, which also checks that every element lies
        inside the buffer (ValueError otherwise)."""
        item = dtype.itemsize
        return self.ndarray(sizes, dtype, buffer, 0, tuple([stride * item for stride in strides]))

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

    def run(self, fields, input_buffer, output_buffer):
        """Returns (status, message, device seconds); writes the output buffer.
        `fields` is the job header unpacked (JOB): the input tensor from field
        8, the output tensor from field 30."""
        operator, axis, direction, flags = fields[3], fields[4], fields[5], fields[6]
        in_type, in_rank, out_type, out_rank = fields[8], fields[9], fields[30], fields[31]
        if flags & FLAG_VALIDATE_ONLY:
            return UNSUPPORTED, "NumPy has no notion of DirectML's validation", -1.0
        if operator != SUMMATION and operator != PRODUCT:
            return UNSUPPORTED, "operator %d is not a cumulative summation or product" % operator, -1.0
        dtype = self.dtypes.get(in_type)
        if dtype is None or out_type != in_type:
            return UNSUPPORTED, "data type %d (to %d) has no NumPy counterpart here" % (in_type, out_type), -1.0
        source = output_buffer if flags & FLAG_IN_PLACE else input_buffer
        x = self.view(source, dtype, fields[10:10 + in_rank], fields[18:18 + in_rank])
        started = time.perf_counter()
        y = self.scan(operator, axis, direction == 1, flags & FLAG_EXCLUSIVE, dtype, x)
        seconds = time.perf_counter() - started
        self.view(output_buffer, dtype, fields[32:32 + out_rank], fields[40:40 + out_rank])[...] = y
        return DONE, "", seconds


def serve(np, stdin, stdout):
    """Answers batches until the input ends. Answers are gathered and written
    once per batch (or whenever a megabyte is waiting): one write carries many
    answers. dmlconf blames a hang on the first job it has no answer to, so a
    batch that hangs is blamed on its first unanswered job, not the culprit; a
    crash is found exactly (dmlconf reruns the unanswered jobs one at a time)."""
    scanner = Scanner(np)
    read = stdin.read
    unpack_job = JOB.unpack
    pack_answer = ANSWER.pack
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
            fields = unpack_job(read_exactly(stdin, JOB_HEADER_BYTES))
            if fields[0] != b"DMLJ" or fields[1] != JOB_HEADER_BYTES or fields[2] != index:
                die("job %d's header is not version %d's" % (index, PROTOCOL_VERSION))
            input_bytes, output_bytes = fields[29], fields[51]
            # The input, then the output's initial bytes (the input itself in
            # place, canaries elsewhere), each read once into its own buffer.
            input_buffer = read_exactly(stdin, input_bytes) if input_bytes else b""
            output_buffer = bytearray(output_bytes)
            if output_bytes and stdin.readinto(output_buffer) != output_bytes:
                die("the input ended in the middle of job %d's output buffer" % index)
            try:
                status, message, seconds = scanner.run(fields, input_buffer, output_buffer)
            except Exception as error:  # the job fails, the adapter goes on
                status, message, seconds = FAILED, "%s: %s" % (type(error).__name__, error), -1.0
                import traceback  # only when needed: every import delays the first job
                traceback.print_exc(file=sys.stderr)
            text = message.encode("utf-8", "replace")[:4096]
            payload = output_buffer if status == DONE else b""
            pending.append(pack_answer(b"DMLA", index, status, 0, seconds, len(payload), len(text), 0))
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


def main():
    probe = sys.argv[1:] == ["--probe"]
    if sys.argv[1:] and not probe:
        sys.stderr.write("usage: adapter.py [--probe]  (dmlconf starts it: dmlconf run --backend exec -- %s %s)\n"
                         % (os.path.basename(sys.executable), sys.argv[0]))
        return 2
    try:
        import numpy as np
    except ImportError as error:
        why = "NumPy cannot be imported by %s (%s); on Debian: apt-get install python3-numpy" % (
            sys.executable, error)
        if probe:
            print(why)
            return 77
        sys.stderr.write("numpy adapter: %s\n" % why)
        return 3
    if probe:
        # Whether this adapter can run here (77: it cannot, and why).
        print("NumPy %s on Python %d.%d.%d (%s)" % ((np.__version__,) + sys.version_info[:3] + (sys.executable,)))
        return 0
    # Overflow and invalid operations are results here, not warnings.
    np.seterr(all="ignore")
    # Buffered whatever PYTHONUNBUFFERED says: a batch arrives in few reads.
    stdin = io.open(sys.stdin.fileno(), "rb", buffering=1 << 20, closefd=False)
    stdout = io.open(sys.stdout.fileno(), "wb", buffering=1 << 20, closefd=False)
    stdout.write(json_line(handshake(np)).encode("utf-8"))
    stdout.flush()
    return serve(np, stdin, stdout)


if __name__ == "__main__":
    sys.exit(main())
