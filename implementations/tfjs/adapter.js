#!/usr/bin/env node
'use strict';
// TensorFlow.js behind dmlconf's process protocol (docs/process-protocol.md),
// on one of its two backends that run in Node.js without a native addon:
//
//     dmlconf run --backend exec -- node implementations/tfjs/adapter.js --backend cpu
//     dmlconf run --backend exec -- node implementations/tfjs/adapter.js --backend wasm
//
// Each job is tf.cumsum or tf.cumprod (x, axis, exclusive, reverse) of
// @tensorflow/tfjs-core on @tensorflow/tfjs-backend-cpu (JavaScript) or
// @tensorflow/tfjs-backend-wasm (WebAssembly), the npm packages pinned in
// tools/npm. The two are different implementations of the same API and are
// judged apart: the implementation is called tfjs-cpu or tfjs-wasm.
//
// TensorFlow.js tensors are float32 or int32 (also bool, complex64 and
// string): the handshake declares those two types, and dmlconf skips the
// others, saying so. Tensors are packed: the adapter gathers a strided input
// and scatters the result (implementations/node/strided.js).
// `adapter.js --backend NAME --probe` says whether it can run here: the
// versions (exit status 0), or why not (77).

const path = require('path');
const protocol = require('../node/protocol.js');
const strided = require('../node/strided.js');
const packages = require('../node/packages.js');

const NAME = 'tfjs adapter';
const CORE = '@tensorflow/tfjs-core';
const BACKENDS = {
    cpu: {package: '@tensorflow/tfjs-backend-cpu', words: 'its JavaScript kernels'},
    wasm: {package: '@tensorflow/tfjs-backend-wasm', words: 'its WebAssembly kernels'},
};

// DML data type code -> TensorFlow.js dtype and the array it takes.
const TYPES = {
    1: {dtype: 'float32', array: Float32Array},
    6: {dtype: 'int32', array: Int32Array},
};

function handshake(tf, backend) {
    return {
        implementation: `tfjs-${backend}`,
        implementation_version: tf.version_core,
        device: `CPU (${process.arch}), the ${backend} backend (${BACKENDS[backend].words})`,
        driver: 'none (TensorFlow.js computes on the CPU)',
        runtime: `${BACKENDS[backend].package} ${packages.installedVersion(BACKENDS[backend].package)} ` +
                     `on Node.js ${process.version}`,
        software: true,
        operators: ['cumulative_summation', 'cumulative_product'],
        data_types: ['float32', 'int32'],
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

function run(tf, job) {
    if (job.validateOnly) {
        return {status: protocol.UNSUPPORTED, message: "TensorFlow.js has no notion of DirectML's validation"};
    }
    if (job.operator !== protocol.SUMMATION && job.operator !== protocol.PRODUCT) {
        return {status: protocol.UNSUPPORTED, message: `operator ${job.operator} is not a cumulative scan`};
    }
    const type = TYPES[job.input.dataType];
    if (!type || job.output.dataType !== job.input.dataType) {
        return {status: protocol.UNSUPPORTED, message: 'TensorFlow.js has float32 and int32 tensors only'};
    }
    const bytes = protocol.DATA_TYPES[job.input.dataType].bytes;
    const source = job.inPlace ? job.outputBuffer : job.inputBuffer;
    const packed = strided.gather(source, bytes, job.input.sizes, job.input.strides);
    const x = tf.tensor(new type.array(packed.buffer), job.input.sizes, type.dtype);
    const scan = job.operator === protocol.SUMMATION ? tf.cumsum : tf.cumprod;
    const started = process.hrtime.bigint();
    let values;
    try {
        const y = scan(x, job.axis, job.exclusive, job.decreasing);
        values = y.dataSync();
        y.dispose();
    } finally {
        x.dispose();
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    strided.scatter(job.outputBuffer, bytes, job.output.sizes, job.output.strides, values);
    return {status: protocol.DONE, message: '', seconds};
}

// Loads TensorFlow.js and starts the backend; throws (notInstalled set when
// a package is missing) when it cannot.
async function load(backend) {
    const tf = packages.requirePinned(CORE);
    packages.requirePinned(BACKENDS[backend].package);
    if (!(await tf.setBackend(backend))) {
        throw new Error(`TensorFlow.js could not start its ${backend} backend`);
    }
    await tf.ready();
    return tf;
}

function usage() {
    process.stderr.write(`usage: node ${path.relative(process.cwd(), __filename)} --backend cpu|wasm [--probe]\n`);
    return 2;
}

async function main(argv) {
    let backend = null;
    let probe = false;
    for (let i = 0; i < argv.length; ++i) {
        if (argv[i] === '--backend' && i + 1 < argv.length && BACKENDS[argv[i + 1]] && !backend) {
            backend = argv[++i];
        } else if (argv[i] === '--probe' && !probe) {
            probe = true;
        } else {
            return usage();
        }
    }
    if (!backend) {
        return usage();
    }
    protocol.keepStdoutForProtocol();
    let tf;
    try {
        tf = await load(backend);
    } catch (error) {
        if (probe) {
            process.stdout.write(`${error.message}\n`);
            return error.notInstalled ? 77 : 1;
        }
        process.stderr.write(`${NAME}: ${error.message}\n`);
        return 3;
    }
    if (probe) {
        process.stdout.write(`TensorFlow.js ${tf.version_core}, ${BACKENDS[backend].package} ` +
                             `${packages.installedVersion(BACKENDS[backend].package)} on Node.js ${process.version}\n`);
        return 0;
    }
    return protocol.serve(`${NAME} (${backend})`, handshake(tf, backend), async (job) => run(tf, job));
}

// Exits as soon as the session ends (answers are written synchronously).
main(process.argv.slice(2)).then((status) => process.exit(status), (error) => {
    process.stderr.write(`${NAME}: ${error && error.stack ? error.stack : error}\n`);
    process.exit(4);
});
