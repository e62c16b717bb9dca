#!/usr/bin/env python3
"""Unit tests of the Python adapters' protocol module: the job header read
field by field, strided layouts in bytes, the answers' bytes, whole batches
served (the example of docs/process-protocol.md byte for byte), malformed
batches refused, the handshake line and the command line.

Run: python3 implementations/python/tests/test_dmlconf_protocol.py (exit
status 1 when a test fails). Needs nothing but Python 3.
"""

import contextlib
import io
import json
import os
import struct
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), ".."))
import dmlconf_protocol as protocol  # noqa: E402 (found through the line above)

# The example of docs/process-protocol.md: a cumulative summation of
# [1, 2, 3] (float32, sizes {3}), then the answer [1, 3, 6]. Its tensor,
# the input's and the output's: 1 dimension of 3, strides not given (the
# packed ones sent), 12 buffer bytes.
EXAMPLE_TENSOR = (
    "01000000010000000300000000000000"
    "00000000000000000000000000000000"
    "00000000000000000100000000000000"
    "00000000000000000000000000000000"
    "00000000000000000000000000000000"
    "00000000000000000c00000000000000")
EXAMPLE_BATCH = bytes.fromhex(
    "444d4c42010000000100000000000000"
    "444d4c4ae00000000000000069000000"
    "00000000000000000000000000640000" + EXAMPLE_TENSOR * 2 +
    "0000803f0000004000004040ffffffff"
    "ffffffffffffffff")
EXAMPLE_ANSWER = bytes.fromhex(
    "444d4c41000000000000000000000000"
    "000000000000f0bf0c00000000000000"
    "00000000000000000000803f00004040"
    "0000c040")


def tensor_fields(data_type, sizes, strides, buffer_bytes, has_strides=True, total_bytes=0):
    """A tensor's fields of a job header, the unused dimensions 0."""
    rank = len(sizes)
    return ([data_type, rank] + list(sizes) + [0] * (8 - rank) + list(strides) + [0] * (8 - rank) +
            [1 if has_strides else 0, 0, total_bytes, buffer_bytes])


def job_header(index=0, operator=protocol.SUMMATION, axis=0, direction=0, flags=0, level=0x6400,
               tensor=None, output=None):
    """A job header with these fields (by default the example's tensor)."""
    tensor = tensor or tensor_fields(1, [3], [1], 12, has_strides=False)
    return protocol.JOB.pack(b"DMLJ", 224, index, operator, axis, direction, flags, level,
                             *(tensor + (output or tensor)))


def batch(*jobs):
    """A batch header followed by the jobs (each a header and its buffers)."""
    return protocol.BATCH.pack(b"DMLB", 1, len(jobs), 0) + b"".join(jobs)


def serve(data, run):
    """What serve() writes for the input `data`, and its return value."""
    stdout = io.BytesIO()
    status = protocol.serve(run, io.BufferedReader(io.BytesIO(data)), stdout)
    return stdout.getvalue(), status


class FloatScan:
    """A run() for the tests: the inclusive, increasing float32 sum of a
    packed rank-1 tensor, written through its strides."""

    def __init__(self):
        self.jobs = []

    def __call__(self, job):
        self.jobs.append(job)
        count = job.input.sizes[0]
        step = job.input.byte_strides()[0]
        total = 0.0
        for i in range(count):
            total = struct.unpack_from("<f", job.input_buffer, i * step)[0] + total
            struct.pack_into("<f", job.output_buffer, i * job.output.byte_strides()[0], total)
        return protocol.done(-1.0)


class JobHeaderTest(unittest.TestCase):
    def test_the_example_is_read_field_by_field(self):
        job = protocol.decode_job(EXAMPLE_BATCH[16:16 + 224], 0)
        self.assertEqual(job.index, 0)
        self.assertEqual(job.operator, protocol.SUMMATION)
        self.assertEqual((job.axis, job.direction, job.decreasing), (0, 0, False))
        self.assertEqual((job.exclusive, job.in_place, job.validate_only), (False, False, False))
        self.assertEqual(job.feature_level, 0x6400)
        for tensor in (job.input, job.output):
            self.assertEqual(tensor.data_type, 1)
            self.assertEqual(tensor.rank, 1)
            self.assertEqual(tensor.sizes, (3,))
            self.assertEqual(tensor.strides, (1,))
            self.assertFalse(tensor.has_strides)
            self.assertEqual(tensor.total_bytes, 0)
            self.assertEqual(tensor.buffer_bytes, 12)
            self.assertEqual(tensor.element_bytes, 4)

    def test_flags_direction_and_the_output_tensor_are_the_jobs_own(self):
        output = tensor_fields(11, [2, 5], [5, 1], 80, total_bytes=96)
        header = job_header(index=3, operator=protocol.PRODUCT, axis=1, direction=1, flags=1 | 2, level=0x5000,
                            tensor=tensor_fields(11, [2, 5], [5, 1], 0), output=output)
        job = protocol.decode_job(header, 3)
        self.assertEqual((job.operator, job.axis, job.decreasing), (protocol.PRODUCT, 1, True))
        self.assertEqual((job.exclusive, job.in_place, job.validate_only), (True, True, False))
        self.assertEqual(job.feature_level, 0x5000)
        self.assertEqual(job.input.buffer_bytes, 0)
        self.assertEqual((job.output.sizes, job.output.total_bytes, job.output.buffer_bytes), ((2, 5), 96, 80))
        self.assertTrue(job.output.has_strides)

    def test_a_validation_jobs_desc_may_be_anything(self):
        # Nine dimensions and an unknown type: the tensor keeps the rank and
        # eight dimensions, never the fields after them.
        fields = tensor_fields(99, [1] * 8, [7] * 8, 0)
        fields[1] = 9
        job = protocol.decode_job(job_header(flags=4, direction=2, tensor=fields), 0)
        self.assertTrue(job.validate_only)
        self.assertEqual((job.direction, job.decreasing), (2, False))
        self.assertEqual(job.input.rank, 9)
        self.assertEqual(job.input.sizes, (1,) * 8)
        self.assertEqual(job.input.strides, (7,) * 8)
        self.assertIsNone(job.input.element_bytes)
        self.assertRaises(KeyError, job.input.byte_strides)

    def test_a_header_of_another_index_size_or_magic_is_refused(self):
        header = job_header()
        with self.assertRaisesRegex(protocol.ProtocolError, "job 1's header is not version 1's"):
            protocol.decode_job(header, 1)
        with self.assertRaises(protocol.ProtocolError):
            protocol.decode_job(b"X" + header[1:], 0)
        with self.assertRaises(protocol.ProtocolError):
            protocol.decode_job(header[:4] + struct.pack("<I", 228) + header[8:], 0)


class StridedLayoutTest(unittest.TestCase):
    def element(self, tensor, buffer, coordinates, code):
        offset = sum(c * s for c, s in zip(coordinates, tensor.byte_strides()))
        return struct.unpack_from(code, buffer, offset)[0]

    def test_padded_rows_of_float16(self):
        # Rows of 3 elements padded to 4: element (1, 2) is the 7th.
        tensor = protocol.decode_job(job_header(tensor=tensor_fields(2, [2, 3], [4, 1], 16)), 0).input
        self.assertEqual(tensor.byte_strides(), (8, 2))
        buffer = struct.pack("<8H", 0, 1, 2, 99, 3, 4, 5, 99)
        self.assertEqual(self.element(tensor, buffer, (1, 2), "<H"), 5)
        self.assertEqual(self.element(tensor, buffer, (1, 0), "<H"), 3)

    def test_a_transposed_int64_matrix(self):
        tensor = protocol.decode_job(job_header(tensor=tensor_fields(11, [2, 3], [1, 2], 48)), 0).input
        self.assertEqual(tensor.byte_strides(), (8, 16))
        buffer = struct.pack("<6q", 1, 2, 3, 4, 5, -6)
        self.assertEqual([self.element(tensor, buffer, (i, j), "<q") for i in range(2) for j in range(3)],
                         [1, 3, 5, 2, 4, -6])

    def test_a_broadcast_row_of_uint64(self):
        tensor = protocol.decode_job(job_header(tensor=tensor_fields(10, [3, 2, 1], [0, 1, 1], 16)), 0).input
        self.assertEqual(tensor.byte_strides(), (0, 8, 8))
        buffer = struct.pack("<2Q", 7, 2**64 - 1)
        self.assertEqual([self.element(tensor, buffer, (i, j, 0), "<Q") for i in range(3) for j in range(2)],
                         [7, 2**64 - 1] * 3)


class AnswerTest(unittest.TestCase):
    def test_a_done_answer_carries_its_header_message_and_output(self):
        output = bytearray(struct.pack("<3f", 1, 3, 6))
        header, text, payload = protocol.answer_chunks(0, protocol.done(-1.0), output)
        self.assertEqual(header + text + payload, EXAMPLE_ANSWER)
        self.assertIs(payload, output)

    def test_a_rejected_answer_has_its_reason_and_no_output(self):
        data = b"".join(protocol.answer_chunks(7, protocol.rejected(14, "axis 9 of 2"), bytearray(12)))
        self.assertEqual(data, b"DMLA" + struct.pack("<IIIdQII", 7, 1, 14, -1.0, 0, 11, 0) + b"axis 9 of 2")

    def test_unsupported_and_failed_answers_have_a_message_and_no_output(self):
        for answer, status in ((protocol.unsupported("no float16 kernel"), 2),
                               (protocol.failed("no float16 kernel"), 3)):
            data = b"".join(protocol.answer_chunks(1, answer, bytearray(b"\xff" * 8)))
            self.assertEqual(data, b"DMLA" + struct.pack("<IIIdQII", 1, status, 0, -1.0, 0, 17, 0) +
                             b"no float16 kernel")

    def test_a_message_is_utf8_and_cut_to_4096_bytes(self):
        _, text, _ = protocol.answer_chunks(0, protocol.unsupported("é" * 3000), b"")
        self.assertEqual(len(text), 4096)
        self.assertEqual(text[:4], "éé".encode("utf-8"))
        header, _, _ = protocol.answer_chunks(0, protocol.unsupported("é" * 3000), b"")
        self.assertEqual(struct.unpack_from("<I", header, 32)[0], 4096)


class ServeTest(unittest.TestCase):
    def test_the_example_batch_is_answered_byte_for_byte(self):
        run = FloatScan()
        written, status = serve(EXAMPLE_BATCH, run)
        self.assertEqual(status, 0)
        self.assertEqual(written, EXAMPLE_ANSWER)
        self.assertEqual(len(run.jobs), 1)
        self.assertEqual(bytes(run.jobs[0].input_buffer), struct.pack("<3f", 1, 2, 3))

    def test_in_place_the_input_is_the_output_buffer(self):
        tensor = tensor_fields(1, [3], [1], 12)
        in_place = tensor[:-1] + [0]
        job = job_header(flags=2, tensor=in_place, output=tensor) + struct.pack("<3f", 1, 2, 3)
        run = FloatScan()
        written, _ = serve(batch(job), run)
        self.assertIs(run.jobs[0].input_buffer, run.jobs[0].output_buffer)
        self.assertEqual(written[40:], struct.pack("<3f", 1, 3, 6))

    def test_every_job_is_answered_in_order_a_failing_one_too(self):
        def run(job):
            if job.index == 1:
                raise ValueError("no such luck")
            return protocol.done(0.25)
        jobs = [job_header(index=i) + struct.pack("<3f", 1, 2, 3) + b"\xff" * 12 for i in range(3)]
        jobs[2] = job_header(index=2, operator=42) + struct.pack("<3f", 1, 2, 3) + b"\xff" * 12
        validation = job_header(flags=4, operator=42, tensor=tensor_fields(1, [3], [1], 0))
        with contextlib.redirect_stderr(io.StringIO()) as stderr:
            written, status = serve(batch(*jobs) + batch(validation), run)
        self.assertEqual(status, 0)
        self.assertIn("ValueError: no such luck", stderr.getvalue())
        answers = []
        while written:
            header = struct.unpack_from("<4sIIIdQII", written)
            end = 40 + header[6] + header[5]
            answers.append((header[1], header[2], header[4], written[40:40 + header[6]], written[40 + header[6]:end]))
            written = written[end:]
        self.assertEqual(answers, [
            (0, protocol.DONE, 0.25, b"", b"\xff" * 12),
            (1, protocol.FAILED, -1.0, b"ValueError: no such luck", b""),
            (2, protocol.UNSUPPORTED, -1.0, b"operator 42 is not a cumulative summation or product", b""),
            # The validation job of the second batch: run is asked, even of
            # an unknown operator, and accepts; nothing follows.
            (0, protocol.DONE, 0.25, b"", b""),
        ])


class MalformedBatchTest(unittest.TestCase):
    def refused(self, data, pattern):
        with self.assertRaisesRegex(protocol.ProtocolError, pattern):
            serve(data, FloatScan())

    def test_a_batch_header_of_another_magic_version_or_no_job(self):
        self.refused(b"DMLX" + EXAMPLE_BATCH[4:], "a batch header is not version 1's")
        self.refused(EXAMPLE_BATCH[:4] + struct.pack("<I", 2) + EXAMPLE_BATCH[8:], "not version 1's")
        self.refused(protocol.BATCH.pack(b"DMLB", 1, 0, 0), "not version 1's")

    def test_an_input_that_ends_in_the_middle(self):
        self.refused(EXAMPLE_BATCH[:10], "in the middle of a batch header")
        self.refused(EXAMPLE_BATCH[:100], r"in the middle of a batch \(84 of 224 bytes\)")
        self.refused(EXAMPLE_BATCH[:16 + 224 + 5], "in the middle of job 0's input buffer")
        self.refused(EXAMPLE_BATCH[:-1], "in the middle of job 0's output buffer")
        # A second batch that promises two jobs and brings one.
        self.refused(EXAMPLE_BATCH + protocol.BATCH.pack(b"DMLB", 1, 2, 0) + EXAMPLE_BATCH[16:],
                     r"\(0 of 224 bytes\)")

    def test_a_job_out_of_its_place(self):
        self.refused(batch(job_header(index=1) + b"\0" * 24), "job 0's header is not version 1's")

    def test_the_adapter_exits_with_status_4_and_says_why(self):
        class Implementation:
            def handshake(self):
                return {"implementation": "test"}

            def run(self, job):
                return protocol.done(-1.0)

        stdin = os.pipe()
        stdout = os.pipe()
        os.write(stdin[1], b"DMLX" + EXAMPLE_BATCH[4:])
        os.close(stdin[1])
        saved = os.dup(0), os.dup(1)
        try:
            os.dup2(stdin[0], 0)
            os.dup2(stdout[1], 1)
            with contextlib.redirect_stderr(io.StringIO()) as stderr:
                status = protocol.main("test", lambda settings: Implementation(), argv=[])
        finally:
            os.dup2(saved[0], 0)
            os.dup2(saved[1], 1)
            for fd in saved + stdin[:1] + stdout[1:]:
                os.close(fd)
        written = os.read(stdout[0], 65536)
        os.close(stdout[0])
        self.assertEqual(status, 4)
        self.assertRegex(stderr.getvalue(), r"^test adapter: a batch header is not version 1's")
        self.assertEqual(written, b'{"protocol": "dmlconf-exec", "version": 1, "implementation": "test"}\n')


class HandshakeTest(unittest.TestCase):
    def test_the_handshake_is_one_json_line_protocol_and_version_first(self):
        fields = {"implementation": "x", "device": 'a "quoted"\tname\\', "software": True, "ranks": [1, 8],
                  "feature_level": None, "strides": False, "device_name": "Ünïcode"}
        line = protocol.handshake_line(fields)
        self.assertTrue(line.endswith(b"\n"))
        self.assertNotIn(b"\n", line[:-1])
        self.assertNotIn(b"\t", line)
        parsed = json.loads(line.decode("utf-8"))
        self.assertEqual(list(parsed)[:2], ["protocol", "version"])
        self.assertEqual(parsed, dict({"protocol": "dmlconf-exec", "version": 1}, **fields))

    def test_a_value_json_cannot_say_is_refused(self):
        self.assertRaises(TypeError, protocol.handshake_line, {"ranks": [1.5]})


class CommandLineTest(unittest.TestCase):
    OPTIONS = {"--device": ("cpu", "cuda")}

    def test_options_and_probe_in_any_order(self):
        self.assertEqual(protocol.parse_command_line([], self.OPTIONS), ({"device": "cpu"}, False))
        self.assertEqual(protocol.parse_command_line(["--probe", "--device", "cuda"], self.OPTIONS),
                         ({"device": "cuda"}, True))
        self.assertEqual(protocol.parse_command_line(["--probe"], {}), ({}, True))

    def test_usage_errors(self):
        for argv in (["--device"], ["--device", "tpu"], ["--probe", "--probe"], ["--threads", "2"], ["cpu"]):
            self.assertIsNone(protocol.parse_command_line(argv, self.OPTIONS), argv)
        self.assertIsNone(protocol.parse_command_line(["--device", "cpu"], {}))
        self.assertIn("[--device cpu|cuda] [--probe]  (dmlconf starts it: ", protocol.usage(self.OPTIONS))

    def test_probe_says_what_runs_with_status_0(self):
        class Implementation:
            def __init__(self, settings):
                self.settings = settings

            def describe(self):
                return "Test 1.0 on %s" % self.settings["device"]
        with contextlib.redirect_stdout(io.StringIO()) as stdout:
            self.assertEqual(protocol.main("test", Implementation, self.OPTIONS, ["--probe", "--device", "cuda"]), 0)
        self.assertEqual(stdout.getvalue(), "Test 1.0 on cuda\n")

    def test_probe_says_why_not_with_status_77(self):
        def load(settings):
            raise protocol.Unavailable("%s is away" % settings["device"])
        with contextlib.redirect_stdout(io.StringIO()) as stdout:
            self.assertEqual(protocol.main("test", load, self.OPTIONS, ["--device", "cuda", "--probe"]), 77)
        self.assertEqual(stdout.getvalue(), "cuda is away\n")
        with contextlib.redirect_stderr(io.StringIO()) as stderr:
            self.assertEqual(protocol.main("test", load, self.OPTIONS, []), 3)
        self.assertEqual(stderr.getvalue(), "test adapter: cpu is away\n")
        with contextlib.redirect_stderr(io.StringIO()) as stderr:
            self.assertEqual(protocol.main("test", load, self.OPTIONS, ["--device", "tpu"]), 2)
        self.assertTrue(stderr.getvalue().startswith("usage: "))


if __name__ == "__main__":
    unittest.main()
