'use strict';
// dmlconf's process protocol, version 1 (docs/process-protocol.md), for
// adapters written for Node.js: the handshake line, reading batches of jobs
// from standard input and writing the answers to standard output.
//
// An adapter gives serve() its handshake and one function, run(job), that
// computes a job and resolves to {status, message, seconds}; the output
// buffer it was given (job.output) goes back as the answer of a `done` job.
// Standard output carries the protocol only: console.log and console.warn
// are sent to standard error before anything else runs (libraries print
// banners there).

const fs = require('fs');

const PROTOCOL_VERSION = 1;
const BATCH_BYTES = 16;
const JOB_BYTES = 224;
const TENSOR_BYTES = 96;
const ANSWER_BYTES = 40;
const MESSAGE_LIMIT = 4096;

const SUMMATION = 105;
const PRODUCT = 145;

const FLAG_EXCLUSIVE = 1;
const FLAG_IN_PLACE = 2;
const FLAG_VALIDATE_ONLY = 4;

const DONE = 0;
const UNSUPPORTED = 2;
const FAILED = 3;

// DML_TENSOR_DATA_TYPE codes of the types that jobs with buffers carry, with
// their names in the handshake and their sizes in bytes.
const DATA_TYPES = {
    1: {name: 'float32', bytes: 4},
    2: {name: 'float16', bytes: 2},
    3: {name: 'uint32', bytes: 4},
    6: {name: 'int32', bytes: 4},
    10: {name: 'uint64', bytes: 8},
    11: {name: 'int64', bytes: 8},
};

// Keeps standard output for the protocol: whatever a library prints with
// console.log, console.info or console.warn goes to standard error.
function keepStdoutForProtocol() {
    const toStderr = (...args) => {
        process.stderr.write(args.map((a) => (typeof a === 'string' ? a : String(a))).join(' ') + '\n');
    };
    console.log = toStderr;
    console.info = toStderr;
    console.warn = toStderr;
    console.debug = toStderr;
}

// Sleeps about a millisecond (the descriptor was non-blocking and not ready).
function pause() {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
}

// Reads exactly `size` bytes from standard input into a fresh Uint8Array.
// Returns null when the input ends before the first byte and `endOk` is
// true; throws when it ends anywhere else.
function readExactly(size, endOk) {
    const buffer = new Uint8Array(new ArrayBuffer(size));
    let done = 0;
    while (done < size) {
        let got;
        try {
            got = fs.readSync(0, buffer, done, size - done, null);
        } catch (error) {
            if (error.code === 'EAGAIN') {
                pause();
                continue;
            }
            if (error.code === 'EOF') {
                got = 0;
            } else {
                throw error;
            }
        }
        if (got === 0) {
            if (done === 0 && endOk) {
                return null;
            }
            throw new Error(`the input ended in the middle of a batch (${done} of ${size} bytes)`);
        }
        done += got;
    }
    return buffer;
}

// Writes every byte of `chunks` (Uint8Arrays) to standard output.
function writeAll(chunks) {
    for (const chunk of chunks) {
        let done = 0;
        while (done < chunk.length) {
            try {
                done += fs.writeSync(1, chunk, done, chunk.length - done);
            } catch (error) {
                if (error.code !== 'EAGAIN') {
                    throw error;
                }
                pause();
            }
        }
    }
}

// One tensor of a job header, from its byte offset in the header.
function readTensor(view, at) {
    const rank = view.getUint32(at + 4, true);
    const sizes = [];
    const strides = [];
    for (let d = 0; d < Math.min(rank, 8); ++d) {
        sizes.push(view.getUint32(at + 8 + 4 * d, true));
        strides.push(view.getUint32(at + 40 + 4 * d, true));
    }
    return {
        dataType: view.getUint32(at, true),
        rank,
        sizes,
        strides,
        hasStrides: (view.getUint32(at + 72, true) & 1) !== 0,
        totalBytes: Number(view.getBigUint64(at + 80, true)),
        bufferBytes: Number(view.getBigUint64(at + 88, true)),
    };
}

// A job header (224 bytes) as an object; throws when it is not version 1's.
function readJobHeader(bytes, index) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    const magic = String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]);
    if (magic !== 'DMLJ' || view.getUint32(4, true) !== JOB_BYTES || view.getUint32(8, true) !== index) {
        throw new Error(`job ${index}'s header is not version ${PROTOCOL_VERSION}'s`);
    }
    const flags = view.getUint32(24, true);
    return {
        index,
        operator: view.getUint32(12, true),
        axis: view.getUint32(16, true),
        decreasing: view.getUint32(20, true) === 1,
        exclusive: (flags & FLAG_EXCLUSIVE) !== 0,
        inPlace: (flags & FLAG_IN_PLACE) !== 0,
        validateOnly: (flags & FLAG_VALIDATE_ONLY) !== 0,
        featureLevel: view.getUint32(28, true),
        input: readTensor(view, 32),
        output: readTensor(view, 32 + TENSOR_BYTES),
    };
}

// The answer header, message and output of one job.
function answerChunks(index, result, output) {
    let text = Buffer.from(result.message || '', 'utf8');
    if (text.length > MESSAGE_LIMIT) {
        text = text.subarray(0, MESSAGE_LIMIT);
    }
    const payload = result.status === DONE && output ? output : new Uint8Array(0);
    const header = new Uint8Array(ANSWER_BYTES);
    const view = new DataView(header.buffer);
    header.set([0x44, 0x4d, 0x4c, 0x41]); // "DMLA"
    view.setUint32(4, index, true);
    view.setUint32(8, result.status, true);
    view.setUint32(12, 0, true);
    const seconds = result.seconds;
    view.setFloat64(16, typeof seconds === 'number' && Number.isFinite(seconds) ? seconds : -1, true);
    view.setBigUint64(24, BigInt(payload.length), true);
    view.setUint32(32, text.length, true);
    view.setUint32(36, 0, true);
    return [header, text, payload];
}

// The handshake as one JSON line.
function handshakeLine(handshake) {
    return Buffer.from(
        JSON.stringify(Object.assign({protocol: 'dmlconf-exec', version: PROTOCOL_VERSION}, handshake)) + '\n',
        'utf8');
}

// Answers batches until standard input ends: writes the handshake, then for
// each job of each batch reads its header and buffers, awaits run(job) and
// answers. A job whose run throws is answered `failed` with the error's
// message; a broken stream (a bad header, an input that ends mid-batch)
// ends the adapter with status 4 and a sentence on standard error. Answers
// are gathered and written once per batch (or whenever a megabyte waits).
async function serve(name, handshake, run) {
    writeAll([handshakeLine(handshake)]);
    for (;;) {
        let head;
        try {
            head = readExactly(BATCH_BYTES, true);
        } catch (error) {
            die(name, error.message);
        }
        if (head === null) {
            return 0;
        }
        const view = new DataView(head.buffer);
        const magic = String.fromCharCode(head[0], head[1], head[2], head[3]);
        const count = view.getUint32(8, true);
        if (magic !== 'DMLB' || view.getUint32(4, true) !== PROTOCOL_VERSION || count === 0) {
            die(name, `a batch header is not version ${PROTOCOL_VERSION}'s`);
        }
        let pending = [];
        let pendingBytes = 0;
        for (let index = 0; index < count; ++index) {
            let job;
            try {
                job = readJobHeader(readExactly(JOB_BYTES, false), index);
                // The input, then the output's initial bytes (the input
                // itself in place), each in a buffer of its own.
                job.inputBuffer = job.input.bufferBytes ? readExactly(job.input.bufferBytes, false) : null;
                job.outputBuffer = job.output.bufferBytes ? readExactly(job.output.bufferBytes, false) : null;
            } catch (error) {
                die(name, error.message);
            }
            let result;
            try {
                result = await run(job);
            } catch (error) {
                process.stderr.write(`${name}: job ${index}: ${error && error.stack ? error.stack : error}\n`);
                result = {status: FAILED, message: `${error && error.message ? error.message : error}`, seconds: -1};
            }
            const chunks = answerChunks(index, result, job.outputBuffer);
            pending.push(...chunks);
            pendingBytes += chunks.reduce((sum, c) => sum + c.length, 0);
            if (pendingBytes >= 1 << 20) {
                writeAll(pending);
                pending = [];
                pendingBytes = 0;
            }
        }
        writeAll(pending);
    }
}

function die(name, message) {
    process.stderr.write(`${name}: ${message}\n`);
    process.exit(4);
}

module.exports = {
    PROTOCOL_VERSION,
    SUMMATION,
    PRODUCT,
    DONE,
    UNSUPPORTED,
    FAILED,
    DATA_TYPES,
    keepStdoutForProtocol,
    serve,
    // For the tests:
    readJobHeader,
    answerChunks,
    handshakeLine,
};
