'use strict';
// Unit tests of the Node.js adapters' helpers: the protocol's layouts, the
// gathering and scattering of strided tensors, and the ONNX model writer.
// Run: node implementations/node/tests/test_node_helpers.js (exit status 1
// when a test fails).

const test = require('node:test');
const assert = require('node:assert/strict');
const protocol = require('../protocol.js');
const strided = require('../strided.js');
const {scanModel, varint, ONNX_TYPES} = require('../../onnxruntime/onnx_model.js');

// A buffer of its own (byteOffset 0) holding the given 32-bit words.
function words(values) {
    const buffer = new Uint8Array(new ArrayBuffer(values.length * 4));
    new Uint32Array(buffer.buffer).set(values);
    return buffer;
}

test('gather reads a packed tensor in row-major order', () => {
    const packed = strided.gather(words([1, 2, 3, 4, 5, 6]), 4, [2, 3], [3, 1]);
    assert.deepEqual(Array.from(packed), [1, 2, 3, 4, 5, 6]);
});

test('gather follows padded, transposed and broadcast strides', () => {
    // Rows of 3 elements padded to 4.
    assert.deepEqual(Array.from(strided.gather(words([1, 2, 3, 99, 4, 5, 6, 99]), 4, [2, 3], [4, 1])),
                     [1, 2, 3, 4, 5, 6]);
    // The transpose of a 3x2 matrix.
    assert.deepEqual(Array.from(strided.gather(words([1, 2, 3, 4, 5, 6]), 4, [2, 3], [1, 2])), [1, 3, 5, 2, 4, 6]);
    // One row broadcast to three (stride 0).
    assert.deepEqual(Array.from(strided.gather(words([7, 8]), 4, [3, 2], [0, 1])), [7, 8, 7, 8, 7, 8]);
});

test('gather keeps 16- and 64-bit elements bit for bit', () => {
    const halves = new Uint8Array(new ArrayBuffer(8));
    new Uint16Array(halves.buffer).set([0x7c01, 0x8000, 0x3c00, 0xfe00]);
    assert.deepEqual(Array.from(strided.gather(halves, 2, [2], [2])), [0x7c01, 0x3c00]);
    const longs = new Uint8Array(new ArrayBuffer(16));
    new BigUint64Array(longs.buffer).set([0xffffffffffffffffn, 1n]);
    assert.deepEqual(Array.from(strided.gather(longs, 8, [2], [1])), [0xffffffffffffffffn, 1n]);
});

test('gather refuses a tensor that reaches beyond its buffer', () => {
    assert.throws(() => strided.gather(words([1, 2, 3]), 4, [2, 2], [2, 1]), /reaches element 3, beyond the 3 elements/);
});

test('scatter writes only the elements and leaves the padding as it was', () => {
    const output = words([0xa5a5a5a5, 0xa5a5a5a5, 0xa5a5a5a5, 0xa5a5a5a5, 0xa5a5a5a5, 0xa5a5a5a5]);
    strided.scatter(output, 4, [2, 2], [3, 1], Float32Array.of(1, 2, 3, 4));
    const bits = new Uint32Array(output.buffer);
    assert.equal(bits[0], 0x3f800000);
    assert.equal(bits[1], 0x40000000);
    assert.equal(bits[2], 0xa5a5a5a5);
    assert.equal(bits[3], 0x40400000);
    assert.equal(bits[4], 0x40800000);
    assert.equal(bits[5], 0xa5a5a5a5);
});

test('scatter refuses a result of the wrong element count', () => {
    assert.throws(() => strided.scatter(words([0, 0, 0, 0]), 4, [2, 2], [2, 1], Int32Array.of(1, 2, 3)),
                  /3 elements, not the 4/);
});

// The job header of the protocol's example (docs/process-protocol.md).
function exampleJob() {
    const header = new Uint8Array(224);
    const view = new DataView(header.buffer);
    header.set([0x44, 0x4d, 0x4c, 0x4a]);
    view.setUint32(4, 224, true);
    view.setUint32(12, 105, true);
    view.setUint32(24, 1 | 2, true);
    view.setUint32(28, 0x6400, true);
    for (const at of [32, 128]) {
        view.setUint32(at, 1, true);
        view.setUint32(at + 4, 1, true);
        view.setUint32(at + 8, 3, true);
        view.setUint32(at + 40, 1, true);
        view.setBigUint64(at + 88, 12n, true);
    }
    return header;
}

test('a job header is read field by field', () => {
    const job = protocol.readJobHeader(exampleJob(), 0);
    assert.equal(job.operator, protocol.SUMMATION);
    assert.equal(job.exclusive, true);
    assert.equal(job.inPlace, true);
    assert.equal(job.validateOnly, false);
    assert.equal(job.featureLevel, 0x6400);
    assert.deepEqual(job.input.sizes, [3]);
    assert.deepEqual(job.output.strides, [1]);
    assert.equal(job.output.bufferBytes, 12);
});

test('a job header of another index or magic is refused', () => {
    assert.throws(() => protocol.readJobHeader(exampleJob(), 1), /not version 1's/);
    const bad = exampleJob();
    bad[0] = 0x58;
    assert.throws(() => protocol.readJobHeader(bad, 0), /not version 1's/);
});

test('an answer carries its header, message and output', () => {
    const output = words([1, 2, 3]);
    const [header, text, payload] = protocol.answerChunks(4, {status: protocol.DONE, message: 'ok', seconds: 0.5}, output);
    const view = new DataView(header.buffer);
    assert.equal(String.fromCharCode(...header.subarray(0, 4)), 'DMLA');
    assert.equal(view.getUint32(4, true), 4);
    assert.equal(view.getUint32(8, true), protocol.DONE);
    assert.equal(view.getFloat64(16, true), 0.5);
    assert.equal(view.getBigUint64(24, true), 12n);
    assert.equal(view.getUint32(32, true), 2);
    assert.equal(text.toString(), 'ok');
    assert.equal(payload, output);
});

test('an unsupported answer has no output, an unknown time and a message of at most 4096 bytes', () => {
    const [header, text, payload] = protocol.answerChunks(
        0, {status: protocol.UNSUPPORTED, message: 'x'.repeat(5000), seconds: NaN}, words([1]));
    const view = new DataView(header.buffer);
    assert.equal(view.getFloat64(16, true), -1);
    assert.equal(view.getBigUint64(24, true), 0n);
    assert.equal(text.length, 4096);
    assert.equal(payload.length, 0);
});

test('the handshake is one JSON line of protocol version 1', () => {
    const line = protocol.handshakeLine({implementation: 'x'}).toString();
    assert.ok(line.endsWith('\n') && !line.slice(0, -1).includes('\n'));
    assert.deepEqual(JSON.parse(line), {protocol: 'dmlconf-exec', version: 1, implementation: 'x'});
});

test('varints are written as protobuf writes them', () => {
    assert.deepEqual(Array.from(varint(0)), [0]);
    assert.deepEqual(Array.from(varint(127)), [127]);
    assert.deepEqual(Array.from(varint(300)), [0xac, 0x02]);
    assert.deepEqual(Array.from(varint(2n ** 63n)), [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]);
    assert.throws(() => varint(-1), /negative/);
});

test('the scan model starts with its IR version and names its operator and attributes', () => {
    const model = scanModel('CumProd', ONNX_TYPES.FLOAT16, true, false, 26, 13);
    assert.deepEqual(Array.from(model.subarray(0, 2)), [0x08, 13]);
    const text = model.toString('latin1');
    for (const word of ['CumProd', 'exclusive', 'reverse', 'axis']) {
        assert.ok(text.includes(word), word);
    }
    // The opset import, last: field 8 holding an empty domain and version 26.
    assert.deepEqual(Array.from(model.subarray(model.length - 6)), [0x42, 0x04, 0x0a, 0x00, 0x10, 26]);
});
