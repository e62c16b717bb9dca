"""dmlconf's process protocol, version 1 (docs/process-protocol.md), for
adapters written in Python: the command line every adapter shares, the
handshake line, reading batches of jobs from standard input (each job header
decoded into a Job and its buffers) and writing the answers to standard
output.

An adapter imports this file by its path, relative to its own (nothing is
installed), so that it runs from any working folder:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "python"))
    import dmlconf_protocol as protocol

and hands main() its name, its options and a function that loads its
implementation (see main). The adapter keeps only what is its own: how it
computes a job, what it declares in its handshake, how it says its versions.

It imports only io, os, struct and sys (json is not imported at all,
traceback only when a job fails): dmlconf starts one adapter per worker, and
every import delays the first job.
"""

import io
import os
import struct
import sys

PROTOCOL_VERSION = 1

# Operators (DML_OPERATOR_TYPE).
SUMMATION = 105
PRODUCT = 145

# A job's flags.
FLAG_EXCLUSIVE = 1
FLAG_IN_PLACE = 2
FLAG_VALIDATE_ONLY = 4

# Answer statuses.
DONE = 0
REJECTED = 1
UNSUPPORTED = 2
FAILED = 3

MESSAGE_LIMIT = 4096

# The DML_TENSOR_DATA_TYPE codes of the types that jobs with buffers carry:
# their names in the handshake and the size of an element in bytes.
DATA_TYPE_NAMES = {1: "float32", 2: "float16", 3: "uint32", 6: "int32", 10: "uint64", 11: "int64"}
ELEMENT_BYTES = {1: 4, 2: 2, 3: 4, 6: 4, 10: 8, 11: 8}

BATCH = struct.Struct("<4sIII")
# magic, header bytes, index, operator, axis, direction, flags, feature level,
# then two tensors: type, dimension count, 8 sizes, 8 strides, flags,
# reserved, total size, buffer bytes.
TENSOR = "II8I8IIIQQ"
TENSOR_FIELDS = 22
JOB = struct.Struct("<4sIIIIIII" + TENSOR + TENSOR)
ANSWER = struct.Struct("<4sIIIdQII")
JOB_HEADER_BYTES = 224
assert JOB.size == JOB_HEADER_BYTES and ANSWER.size == 40 and BATCH.size == 16

# The interpreter, as the adapters name it in their handshake and probe.
PYTHON = "Python %d.%d.%d" % sys.version_info[:3]


class ProtocolError(Exception):
    """The input broke the protocol (a malformed header, an input that ends
    in the middle of a batch): the adapter cannot go on."""


class Unavailable(Exception):
    """The implementation cannot run here; the message says why and what to
    install."""


class Tensor:
    """One tensor of a job header. `sizes` and `strides` (in elements) are
    tuples of its first `rank` dimensions (at most 8: a validation job's rank
    may be anything); `element_bytes` is None for a type no job with buffers
    carries."""

    __slots__ = ("data_type", "rank", "sizes", "strides", "has_strides", "total_bytes", "buffer_bytes",
                 "element_bytes")

    def __init__(self, fields):
        """From the tensor's TENSOR_FIELDS fields of the unpacked header."""
        rank = fields[1]
        kept = rank if rank < 8 else 8
        self.data_type = fields[0]
        self.rank = rank
        self.sizes = fields[2:2 + kept]
        self.strides = fields[10:10 + kept]
        self.has_strides = (fields[18] & 1) != 0
        self.total_bytes = fields[20]
        self.buffer_bytes = fields[21]
        self.element_bytes = ELEMENT_BYTES.get(fields[0])

    def byte_strides(self):
        """The strides in bytes: the element at coordinates c lies at byte
        sum(c[d] * byte_strides()[d]) of its buffer. Raises KeyError for a
        type no job with buffers carries."""
        item = ELEMENT_BYTES[self.data_type]
        return tuple([stride * item for stride in self.strides])


class Job:
    """One job: its header decoded and, once read, its buffers.
    `input_buffer` holds the input's elements (in place: it is the output
    buffer itself); `output_buffer` arrives with the output's initial bytes
    and goes back as the answer of a `done` job. Both are bytearrays (empty
    for a validation job)."""

    __slots__ = ("index", "operator", "axis", "direction", "decreasing", "exclusive", "in_place", "validate_only",
                 "feature_level", "input", "output", "input_buffer", "output_buffer")


def decode_job(header, index):
    """The job header `header` (JOB_HEADER_BYTES bytes), expected at `index`
    in its batch, as a Job without buffers. Raises ProtocolError when it is
    not a version 1 job header at that index."""
    fields = JOB.unpack(header)
    if fields[0] != b"DMLJ" or fields[1] != JOB_HEADER_BYTES or fields[2] != index:
        raise ProtocolError("job %d's header is not version %d's" % (index, PROTOCOL_VERSION))
    job = Job()
    flags = fields[6]
    job.index = index
    job.operator = fields[3]
    job.axis = fields[4]
    job.direction = fields[5]
    job.decreasing = fields[5] == 1
    job.exclusive = (flags & FLAG_EXCLUSIVE) != 0
    job.in_place = (flags & FLAG_IN_PLACE) != 0
    job.validate_only = (flags & FLAG_VALIDATE_ONLY) != 0
    job.feature_level = fields[7]
    job.input = Tensor(fields[8:8 + TENSOR_FIELDS])
    job.output = Tensor(fields[8 + TENSOR_FIELDS:])
    return job


# Answers, as an adapter's run() returns them: (status, reason, message,
# device seconds).

def done(seconds):
    """The job ran (a validation job: the desc was accepted) in `seconds` on
    the device (negative when unknown); its output buffer goes back."""
    return DONE, 0, "", seconds


def rejected(reason=0, message=""):
    """The implementation refused the desc; `reason` is the protocol's reason
    code (0 when it cannot tell)."""
    return REJECTED, reason, message, -1.0


def unsupported(message):
    """A valid desc this implementation cannot run; `message` says why."""
    return UNSUPPORTED, 0, message, -1.0


def failed(message):
    """The implementation or its device failed; `message` says how."""
    return FAILED, 0, message, -1.0


def answer_chunks(index, answer, output_buffer):
    """The bytes of the answer to job `index`: its header, its message (UTF-8,
    cut to MESSAGE_LIMIT bytes) and, for `done`, the whole output buffer."""
    status, reason, message, seconds = answer
    text = message.encode("utf-8", "replace")[:MESSAGE_LIMIT]
    payload = output_buffer if status == DONE else b""
    return ANSWER.pack(b"DMLA", index, status, reason, seconds, len(payload), len(text), 0), text, payload


def json_value(value):
    """A value of the handshake as JSON: strings, booleans, None, integers and
    lists of them (the json module is not imported: it delays the start).
    Raises TypeError for anything else."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(json_value(item) for item in value) + "]"
    if not isinstance(value, str):
        raise TypeError("the handshake has no JSON for %r" % (value,))
    escaped = "".join(c if c >= " " and c not in '"\\' else "\\u%04x" % ord(c) for c in value)
    return '"' + escaped + '"'


def handshake_line(fields):
    """The handshake as one JSON line (bytes): "protocol" and "version" first,
    then the adapter's `fields` (a dict, in its order)."""
    line = dict(protocol="dmlconf-exec", version=PROTOCOL_VERSION)
    line.update(fields)
    text = "{" + ", ".join("%s: %s" % (json_value(key), json_value(value)) for key, value in line.items()) + "}\n"
    return text.encode("utf-8")


def cpu_device():
    """The handshake's `device` for an implementation that computes on this
    machine's CPU."""
    return "CPU (%s)" % (os.uname().machine if hasattr(os, "uname") else "unknown machine")


def read_exactly(stream, size):
    """`size` bytes of `stream`; raises ProtocolError when it ends first."""
    data = stream.read(size)
    if data is None or len(data) != size:
        raise ProtocolError("the input ended in the middle of a batch (%d of %d bytes)" % (
            0 if data is None else len(data), size))
    return data


def serve(run, stdin, stdout):
    """Answers batches from `stdin` (binary) on `stdout` (binary) until the
    input ends; returns 0 then. For each job it reads the header and the
    buffers into a Job and answers run(job) (an answer made by done,
    rejected, unsupported or failed). A job with buffers whose operator is
    neither scan is answered `unsupported` without calling run. A job whose
    run raises is answered `failed` with the exception (its traceback goes to
    standard error) and the next job follows. Raises ProtocolError on a
    broken input; the answers of that batch are not written.

    Answers are gathered and written once per batch (or whenever a megabyte
    is waiting): one write carries many answers. dmlconf blames a hang on the
    first job it has no answer to, so a batch that hangs is blamed on its
    first unanswered job, not the culprit; a crash is found exactly (dmlconf
    reruns the unanswered jobs one at a time)."""
    read = stdin.read
    readinto = stdin.readinto
    write = stdout.write
    pending = []
    pending_bytes = 0
    while True:
        head = read(BATCH.size)
        if not head:
            return 0
        if len(head) != BATCH.size:
            raise ProtocolError("the input ended in the middle of a batch header")
        magic, version, count, _ = BATCH.unpack(head)
        if magic != b"DMLB" or version != PROTOCOL_VERSION or count == 0:
            raise ProtocolError("a batch header is not version %d's (%r)" % (PROTOCOL_VERSION, head))
        for index in range(count):
            job = decode_job(read_exactly(stdin, JOB_HEADER_BYTES), index)
            # The input, then the output's initial bytes (the input itself in
            # place, canaries elsewhere), each read once into a bytearray of
            # its own: writable, as torch.frombuffer wants it.
            input_buffer = bytearray(job.input.buffer_bytes)
            if input_buffer and readinto(input_buffer) != len(input_buffer):
                raise ProtocolError("the input ended in the middle of job %d's input buffer" % index)
            output_buffer = bytearray(job.output.buffer_bytes)
            if output_buffer and readinto(output_buffer) != len(output_buffer):
                raise ProtocolError("the input ended in the middle of job %d's output buffer" % index)
            job.input_buffer = output_buffer if job.in_place else input_buffer
            job.output_buffer = output_buffer
            if not job.validate_only and job.operator != SUMMATION and job.operator != PRODUCT:
                answer = unsupported("operator %d is not a cumulative summation or product" % job.operator)
            else:
                try:
                    answer = run(job)
                except Exception as error:  # the job fails, the adapter goes on
                    answer = failed("%s: %s" % (type(error).__name__, error))
                    import traceback  # only when needed: every import delays the first job
                    traceback.print_exc(file=sys.stderr)
            chunks = answer_chunks(index, answer, output_buffer)
            pending.extend(chunks)
            pending_bytes += len(chunks[0]) + len(chunks[1]) + len(chunks[2])
            if pending_bytes >= 1 << 20:
                write(b"".join(pending))
                stdout.flush()
                pending.clear()
                pending_bytes = 0
        write(b"".join(pending))
        stdout.flush()
        pending.clear()
        pending_bytes = 0


def parse_command_line(argv, options):
    """The adapter's settings from its arguments `argv`: `--probe` at most
    once and each of `options` ({"--device": ("cpu", "cuda")}: an option and
    the values it takes, the first the default) followed by a value, in any
    order. Returns (settings, probe), settings a dict from each option's name
    without its dashes to its value, or None on a usage error."""
    settings = {option[2:]: values[0] for option, values in options.items()}
    probe = False
    rest = list(argv)
    while rest:
        word = rest.pop(0)
        if word == "--probe" and not probe:
            probe = True
        elif word in options and rest and rest[0] in options[word]:
            settings[word[2:]] = rest.pop(0)
        else:
            return None
    return settings, probe


def usage(options):
    """The usage line: the options, then how dmlconf starts the adapter."""
    words = ["[%s %s]" % (option, "|".join(values)) for option, values in options.items()] + ["[--probe]"]
    return "usage: %s %s  (dmlconf starts it: dmlconf run --backend exec -- %s %s)\n" % (
        os.path.basename(sys.argv[0]), " ".join(words), os.path.basename(sys.executable), sys.argv[0])


def main(name, load, options=None, argv=None):
    """Runs an adapter called `name` ("numpy": its diagnostics start "numpy
    adapter: ") and returns its exit status. `argv` (sys.argv[1:] by
    default) is read with parse_command_line and `options`. Then
    load(settings) loads the implementation: it returns an object with

        describe()   what --probe prints: the versions it runs on
        handshake()  the handshake's fields but "protocol" and "version" (a dict)
        run(job)     the answer to a Job (done, rejected, unsupported, failed)

    or raises Unavailable, saying why. With --probe, main prints describe()
    (status 0) or why it is unavailable (77). Otherwise it writes the
    handshake and serves batches (see serve) until the input ends (0).
    Exit statuses: 2 a usage error, 3 unavailable, 4 a broken input (a
    sentence on standard error)."""
    options = options or {}
    parsed = parse_command_line(sys.argv[1:] if argv is None else argv, options)
    if parsed is None:
        sys.stderr.write(usage(options))
        return 2
    settings, probe = parsed
    try:
        implementation = load(settings)
    except Unavailable as why:
        if probe:
            print(why)
            return 77
        sys.stderr.write("%s adapter: %s\n" % (name, why))
        return 3
    if probe:
        # Whether this adapter can run here (77: it cannot, and why).
        print(implementation.describe())
        return 0
    # Buffered whatever PYTHONUNBUFFERED says: a batch arrives in few reads.
    stdin = io.open(sys.stdin.fileno(), "rb", buffering=1 << 20, closefd=False)
    stdout = io.open(sys.stdout.fileno(), "wb", buffering=1 << 20, closefd=False)
    stdout.write(handshake_line(implementation.handshake()))
    stdout.flush()
    try:
        return serve(implementation.run, stdin, stdout)
    except ProtocolError as error:
        sys.stderr.write("%s adapter: %s\n" % (name, error))
        sys.stderr.flush()
        return 4
