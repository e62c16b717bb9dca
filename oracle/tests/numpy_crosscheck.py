#!/usr/bin/env python3
"""Cross-checks the dmlconf oracle against NumPy.

Usage: numpy_crosscheck.py PATH_TO_numpy_crosscheck_driver [--seed N]

Random tensors (ranks 1 to 5, every axis, both directions, inclusive and
exclusive, both operators) go to the driver, which computes them with the
oracle; the results are compared with a NumPy reference:

- INT32, UINT32, INT64, UINT64: bit for bit against numpy.cumsum / cumprod
  computed in the same dtype (dtype= keeps NumPy from widening; NumPy's array
  arithmetic wraps modulo 2^w like the oracle).
- FLOAT32, FLOAT16 on exact data (small integers times powers of two, chosen
  so that every prefix is exact in float64): bit for bit against the float64
  cumsum / cumprod rounded once to the type.
- FLOAT32, FLOAT16 on general random data: within a tiny relative bound of
  the float64 reference (half an ulp of the type plus float64's own error).

Reversal is done by flipping, exclusive scans by shifting the inclusive
result one place along the axis and putting 0 (sums) or 1 (products) first.
Exit status: 0 when every element agrees, 1 otherwise.
"""

import argparse
import subprocess
import sys

import numpy as np

DTYPES = {
    "int32": np.int32,
    "uint32": np.uint32,
    "int64": np.int64,
    "uint64": np.uint64,
    "float32": np.float32,
    "float16": np.float16,
}
BITS = {
    np.int32: np.uint32,
    np.uint32: np.uint32,
    np.int64: np.uint64,
    np.uint64: np.uint64,
    np.float32: np.uint32,
    np.float16: np.uint16,
}
OPS = ("cumulative_summation", "cumulative_product")
MAX_FAILURES_SHOWN = 20


class Case:
    """One request: the tensor, the operator's parameters and the data kind."""

    def __init__(self, index, dtype_name, op, shape, axis, reverse, exclusive, kind, values):
        self.index = index
        self.dtype_name = dtype_name
        self.dtype = DTYPES[dtype_name]
        self.op = op
        self.shape = shape
        self.axis = axis
        self.reverse = reverse
        self.exclusive = exclusive
        self.kind = kind
        self.values = values

    def describe(self):
        return (
            f"case {self.index}: {self.op} {self.dtype_name} shape {list(self.shape)} axis {self.axis} "
            f"{'decreasing' if self.reverse else 'increasing'} {'exclusive' if self.exclusive else 'inclusive'} "
            f"({self.kind} data)"
        )

    def request(self):
        bits = self.values.astype(self.dtype).view(BITS[self.dtype]).ravel()
        header = [
            self.dtype_name,
            self.op,
            "1" if self.exclusive else "0",
            "1" if self.reverse else "0",
            str(self.axis),
            str(len(self.shape)),
        ] + [str(s) for s in self.shape]
        return " ".join(header + [format(int(b), "x") for b in bits])


# ---- data -------------------------------------------------------------------


def random_shape(rng):
    rank = int(rng.integers(1, 6))
    while True:
        shape = tuple(int(s) for s in rng.integers(1, 6, size=rank))
        if int(np.prod(shape)) <= 400:
            return shape


def integer_values(rng, dtype, op, shape):
    """Bit patterns: full-range values, small values (which products carry
    past 2^w within a few factors) and the limits of the type."""
    info = np.iinfo(dtype)
    modulus = 2**info.bits
    n = int(np.prod(shape))
    full = rng.integers(0, modulus - 1, size=n, dtype=np.uint64, endpoint=True)
    reach = 300 if op == "cumulative_product" else 5
    small = rng.integers(-reach, reach + 1, size=n)
    limits = (info.min, info.max, 0, 1, -1)
    choice = rng.integers(0, 8, size=n)
    patterns = []
    for i in range(n):
        if choice[i] < 3:
            value = int(full[i])
        elif choice[i] < 7:
            value = int(small[i])
        else:
            value = limits[int(rng.integers(0, len(limits)))]
        patterns.append(value % modulus)
    return np.array(patterns, dtype=BITS[dtype]).view(dtype).reshape(shape)


def exact_float_values(rng, dtype, op, shape):
    """Small integers times powers of two: every float64 prefix is exact, and
    the values (not the prefixes) are exact in the type."""
    n = int(np.prod(shape))
    if dtype == np.float32:
        if op == "cumulative_summation":
            k = rng.integers(-(2**20), 2**20 + 1, size=n)
            j = rng.integers(-10, 11, size=n)
        else:
            k = rng.integers(-255, 256, size=n)
            j = rng.integers(-24, 25, size=n)
    else:
        if op == "cumulative_summation":
            k = rng.integers(-(2**11), 2**11 + 1, size=n)
            j = rng.integers(-8, 3, size=n)
        else:
            k = rng.integers(-15, 16, size=n)
            j = rng.integers(-4, 4, size=n)
    values = np.ldexp(k.astype(np.float64), j)
    converted = values.astype(dtype)
    assert np.array_equal(converted.astype(np.float64), values), "generator produced an inexact value"
    return converted.reshape(shape)


def general_float_values(rng, dtype, op, shape):
    n = int(np.prod(shape))
    if dtype == np.float32:
        scale = np.exp2(rng.integers(-20, 21, size=n).astype(np.float64))
        values = rng.uniform(-1.0, 1.0, size=n) * scale
    else:
        values = rng.uniform(-4.0, 4.0, size=n)
    return values.astype(dtype).reshape(shape)


# ---- the NumPy reference -----------------------------------------------------


def numpy_scan(x, op, axis, reverse, exclusive, accumulate_dtype):
    """cumsum / cumprod of x along axis in accumulate_dtype, reversed and
    made exclusive by flipping and shifting."""
    if reverse:
        x = np.flip(x, axis)
    with np.errstate(over="ignore", invalid="ignore"):
        if op == "cumulative_summation":
            result = np.cumsum(x, axis=axis, dtype=accumulate_dtype)
        else:
            result = np.cumprod(x, axis=axis, dtype=accumulate_dtype)
    if exclusive:
        identity_shape = list(result.shape)
        identity_shape[axis] = 1
        identity = np.full(identity_shape, 0 if op == "cumulative_summation" else 1, dtype=accumulate_dtype)
        body = np.take(result, range(result.shape[axis] - 1), axis=axis)
        result = np.concatenate([identity, body], axis=axis)
    if reverse:
        result = np.flip(result, axis)
    return result


def abs_prefix(x, op, axis, reverse, exclusive):
    """The float64 scan of |x|: bounds the float64 reference's own error."""
    if op == "cumulative_summation":
        return numpy_scan(np.abs(x.astype(np.float64)), op, axis, reverse, exclusive, np.float64)
    return np.abs(numpy_scan(x.astype(np.float64), op, axis, reverse, exclusive, np.float64))


# ---- checking -----------------------------------------------------------------


def show(dtype, bits):
    """A value in decimal and hex, from its bit pattern."""
    width = np.dtype(BITS[dtype]).itemsize * 2
    value = np.array(bits, dtype=BITS[dtype]).view(dtype)
    if np.issubdtype(dtype, np.floating):
        return f"{float(value)!r} (0x{int(bits):0{width}x})"
    return f"{int(value)} (0x{int(bits):0{width}x})"


def check(case, got_bits, failures):
    """Appends a line per disagreeing element (three at most per case) to
    failures; returns how many of the case's exact prefixes had to round."""
    dtype = case.dtype
    x = case.values
    n_axis = case.shape[case.axis]
    if np.issubdtype(dtype, np.integer):
        expected = numpy_scan(x, case.op, case.axis, case.reverse, case.exclusive, dtype)
        expected_bits = expected.view(BITS[dtype])
        bad = np.argwhere(expected_bits != got_bits)
        for index in bad[:3]:
            index = tuple(int(i) for i in index)
            failures.append(
                f"{case.describe()}: element {list(index)}: oracle {show(dtype, got_bits[index])}, "
                f"numpy {show(dtype, expected_bits[index])}"
            )
        return 0

    reference = numpy_scan(x.astype(np.float64), case.op, case.axis, case.reverse, case.exclusive, np.float64)
    got = got_bits.view(dtype).astype(np.float64)
    if case.kind == "exact":
        with np.errstate(over="ignore"):
            expected_bits = reference.astype(dtype).view(BITS[dtype])
        bad = np.argwhere(expected_bits != got_bits)
        for index in bad[:3]:
            index = tuple(int(i) for i in index)
            failures.append(
                f"{case.describe()}: element {list(index)}: oracle {show(dtype, got_bits[index])}, "
                f"float64 reference {reference[index]!r} rounded once {show(dtype, expected_bits[index])}"
            )
        return int(np.count_nonzero(expected_bits.view(dtype).astype(np.float64) != reference))

    # General data: |oracle - reference| <= half an ulp of the type, plus the
    # float64 reference's own error (n * 2^-53 of the sum of magnitudes).
    unit = 2.0**-24 if dtype == np.float32 else 2.0**-11
    tiny = 2.0**-149 if dtype == np.float32 else 2.0**-24
    magnitude = abs_prefix(x, case.op, case.axis, case.reverse, case.exclusive)
    bound = unit * np.abs(reference) + n_axis * 2.0**-52 * magnitude + tiny
    error = np.abs(got - reference)
    bad = np.argwhere(~(error <= bound))
    for index in bad[:3]:
        index = tuple(int(i) for i in index)
        failures.append(
            f"{case.describe()}: element {list(index)}: oracle {show(dtype, got_bits[index])}, "
            f"float64 reference {reference[index]!r}, error {error[index]:.3g} exceeds {bound[index]:.3g}"
        )
    return 0


def generate(seed):
    rng = np.random.default_rng(seed)
    cases = []
    for dtype_name, dtype in DTYPES.items():
        kinds = ("wrapping",) if np.issubdtype(dtype, np.integer) else ("exact", "general")
        for kind in kinds:
            for op in OPS:
                for rank in range(1, 6):
                    for axis in range(rank):
                        for reverse in (False, True):
                            for exclusive in (False, True):
                                while True:
                                    shape = random_shape(rng)
                                    if len(shape) == rank:
                                        break
                                if kind == "wrapping":
                                    values = integer_values(rng, dtype, op, shape)
                                elif kind == "exact":
                                    values = exact_float_values(rng, dtype, op, shape)
                                else:
                                    values = general_float_values(rng, dtype, op, shape)
                                cases.append(
                                    Case(len(cases), dtype_name, op, shape, axis, reverse, exclusive, kind, values)
                                )
    return cases


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("driver", help="path to numpy_crosscheck_driver")
    parser.add_argument("--seed", type=int, default=20240601)
    args = parser.parse_args()

    cases = generate(args.seed)
    request = "\n".join(case.request() for case in cases) + "\n"
    completed = subprocess.run(
        [args.driver], input=request, capture_output=True, text=True, check=False
    )
    if completed.returncode != 0:
        print(f"driver failed with status {completed.returncode}: {completed.stderr}", file=sys.stderr)
        return 1
    lines = completed.stdout.splitlines()
    if len(lines) != len(cases):
        print(f"driver answered {len(lines)} requests of {len(cases)}", file=sys.stderr)
        return 1

    failures = []
    checked = rounded = 0
    for case, line in zip(cases, lines):
        words = line.split()
        if not words or words[0] != "ok":
            failures.append(f"{case.describe()}: driver error: {line}")
            continue
        got = np.array([int(w, 16) for w in words[1:]], dtype=BITS[case.dtype])
        if got.size != case.values.size:
            failures.append(f"{case.describe()}: driver returned {got.size} values for {case.values.size} elements")
            continue
        rounded += check(case, got.reshape(case.shape), failures)
        checked += got.size

    kinds = sorted({(c.dtype_name, c.kind) for c in cases})
    print(f"{len(cases)} cases, {checked} elements checked (seed {args.seed}), {rounded} exact-data prefixes "
          "rounded; kinds: " + ", ".join(f"{d}/{k}" for d, k in kinds))
    if failures:
        for failure in failures[:MAX_FAILURES_SHOWN]:
            print("FAIL " + failure)
        if len(failures) > MAX_FAILURES_SHOWN:
            print(f"... and {len(failures) - MAX_FAILURES_SHOWN} more")
        return 1
    print("all elements agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
