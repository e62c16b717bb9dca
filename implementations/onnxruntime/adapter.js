#!/usr/bin/env node
'use strict';
// ONNX Runtime behind dmlconf's process protocol (docs/process-protocol.md):
//
//     dmlconf run --backend exec -- node implementations/onnxruntime/adapter.js
//
// Each job runs as a single-node ONNX model (CumSum, or CumProd, with the
// `exclusive` and `reverse` attributes; onnx_model.js writes it) on the CPU
// execution provider of the npm package onnxruntime-node, pinned in
// tools/npm. One session per operator, element type and mode serves every
// shape and axis (the axis is an input). ONNX tensors are packed: the
// adapter gathers a strided input into a packed tensor and scatters the
// result into the output buffer (implementations/node/strided.js).
//
// A desc the runtime cannot run (no kernel for the type, no such operator
// at the opset) is answered `unsupported` with the runtime's own words.
// `adapter.js --probe` says whether it can run here: the runtime's version
// (exit status 0), or why not (77).

const path = require('path');
const protocol = require('../node/protocol.js');
const strided = require('../node/strided.js');
const packages = require('../node/packages.js');
const {ONNX_TYPES, scanModel} = require('./onnx_model.js');

const NAME = 'onnxruntime adapter';
const PACKAGE = 'onnxruntime-node';
// CumProd exists from opset 26 on (ONNX Runtime 1.30 refuses a model that
// imports it at 25: "No Op registered for CumProd with domain_version of
// 25"); CumSum's newest version there is 14. 26 and IR version 13 are the
// highest this runtime loads.
const OPSET = 26;
const IR_VERSION = 13;

// DML data type code -> ONNX element type and onnxruntime-node tensor type.
const TYPES = {
    1: {onnx: ONNX_TYPES.FLOAT, tensor: 'float32', array: Float32Array},
    2: {onnx: ONNX_TYPES.FLOAT16, tensor: 'float16', array: Uint16Array},
    3: {onnx: ONNX_TYPES.UINT32, tensor: 'uint32', array: Uint32Array},
    6: {onnx: ONNX_TYPES.INT32, tensor: 'int32', array: Int32Array},
    10: {onnx: ONNX_TYPES.UINT64, tensor: 'uint64', array: BigUint64Array},
    11: {onnx: ONNX_TYPES.INT64, tensor: 'int64', array: BigInt64Array},
};

// Session creation errors that mean "this runtime has no such kernel or
// operator", as opposed to a failure.
const UNSUPPORTED_PATTERNS = [/Could not find an implementation/, /No Op registered/, /is invalid/];

function handshake(ort) {
    return {
        implementation: 'onnxruntime',
        implementation_version: ort.env.versions.node || ort.env.versions.common,
        device: `CPU (${process.arch})`,
        driver: 'none (the CPU execution provider)',
        runtime: `onnxruntime-node ${packages.installedVersion(PACKAGE)}, opset ${OPSET}, on Node.js ${process.version}`,
        software: true,
        operators: ['cumulative_summation', 'cumulative_product'],
        data_types: ['float32', 'float16', 'uint32', 'int32', 'uint64', 'int64'],
        directions: ['increasing', 'decreasing'],
        modes: ['inclusive', 'exclusive'],
        ranks: [1, 8],
        strides: true,
        broadcast: true,
        in_place: true,
        validates: false,
        feature_level: null,
    };
}

class Scanner {
    constructor(ort) {
        this.ort = ort;
        // key -> Promise of {session} or {unsupported: message}
        this.sessions = new Map();
    }

    session(opType, type, exclusive, reverse) {
        const key = `${opType}.${type.tensor}.${exclusive}.${reverse}`;
        let entry = this.sessions.get(key);
        if (!entry) {
            const model = scanModel(opType, type.onnx, exclusive, reverse, OPSET, IR_VERSION);
            entry = this.ort.InferenceSession.create(model, {executionProviders: ['cpu']})
                .then((session) => ({session}), (error) => {
                    const text = String(error && error.message ? error.message : error);
                    if (UNSUPPORTED_PATTERNS.some((pattern) => pattern.test(text))) {
                        return {unsupported: `ONNX Runtime cannot run ${opType} on ${type.tensor}: ${text.trim()}`};
                    }
                    throw error;
                });
            this.sessions.set(key, entry);
        }
        return entry;
    }

    async run(job) {
        if (job.validateOnly) {
            return {status: protocol.UNSUPPORTED, message: "ONNX Runtime has no notion of DirectML's validation"};
        }
        if (job.operator !== protocol.SUMMATION && job.operator !== protocol.PRODUCT) {
            return {status: protocol.UNSUPPORTED, message: `operator ${job.operator} is not a cumulative scan`};
        }
        const type = TYPES[job.input.dataType];
        if (!type || job.output.dataType !== job.input.dataType) {
            return {
                status: protocol.UNSUPPORTED,
                message: `data type ${job.input.dataType} (to ${job.output.dataType}) has no ONNX counterpart here`,
            };
        }
        const opType = job.operator === protocol.SUMMATION ? 'CumSum' : 'CumProd';
        const entry = await this.session(opType, type, job.exclusive, job.decreasing);
        if (entry.unsupported) {
            return {status: protocol.UNSUPPORTED, message: entry.unsupported};
        }
        const bytes = protocol.DATA_TYPES[job.input.dataType].bytes;
        const source = job.inPlace ? job.outputBuffer : job.inputBuffer;
        const packed = strided.gather(source, bytes, job.input.sizes, job.input.strides);
        const x = new this.ort.Tensor(type.tensor, new type.array(packed.buffer), job.input.sizes);
        const axis = new this.ort.Tensor('int64', BigInt64Array.of(BigInt(job.axis)), []);
        const started = process.hrtime.bigint();
        const results = await entry.session.run({x, axis});
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        strided.scatter(job.outputBuffer, bytes, job.output.sizes, job.output.strides, results.y.data);
        return {status: protocol.DONE, message: '', seconds};
    }
}

function loadRuntime() {
    return packages.requirePinned(PACKAGE);
}

async function main(argv) {
    const probe = argv.length === 1 && argv[0] === '--probe';
    if (argv.length && !probe) {
        process.stderr.write(`usage: node ${path.relative(process.cwd(), __filename)} [--probe]\n`);
        return 2;
    }
    protocol.keepStdoutForProtocol();
    let ort;
    try {
        ort = loadRuntime();
    } catch (error) {
        if (probe) {
            process.stdout.write(`${error.message}\n`);
            return 77;
        }
        process.stderr.write(`${NAME}: ${error.message}\n`);
        return 3;
    }
    if (probe) {
        process.stdout.write(`onnxruntime-node ${packages.installedVersion(PACKAGE)} (CPU execution provider) ` +
                             `on Node.js ${process.version}\n`);
        return 0;
    }
    const scanner = new Scanner(ort);
    return protocol.serve(NAME, handshake(ort), (job) => scanner.run(job));
}

// Exits as soon as the session ends: the runtime's threads do not hold the
// process (answers are written synchronously, nothing is left to flush).
main(process.argv.slice(2)).then((status) => process.exit(status), (error) => {
    process.stderr.write(`${NAME}: ${error && error.stack ? error.stack : error}\n`);
    process.exit(4);
});
