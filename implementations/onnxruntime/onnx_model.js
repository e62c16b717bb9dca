'use strict';
// The single-node ONNX model the adapter gives ONNX Runtime for a job:
// a graph with one CumSum or CumProd node, its data input `x` of the job's
// element type and any shape, its axis input `axis` (an int64 scalar fed at
// run time), and its output `y`. Written in the protobuf wire format by the
// few lines below (varints and length-delimited fields are all a ModelProto
// of this kind needs), so that nothing else is installed or downloaded.
//
// Field numbers are those of onnx.proto (ONNX's IR specification):
//   ModelProto: ir_version 1, graph 7, opset_import 8, producer_name 2
//   OperatorSetIdProto: domain 1, version 2
//   GraphProto: node 1, name 2, input 11, output 12
//   NodeProto: input 1, output 2, name 3, op_type 4, attribute 5
//   AttributeProto: name 1, i 3, type 20 (INT = 2)
//   ValueInfoProto: name 1, type 2; TypeProto: tensor_type 1
//   TypeProto.Tensor: elem_type 1, shape 2; TensorShapeProto: dim 1
//   TensorShapeProto.Dimension: dim_value 1, dim_param 2

const WIRE_VARINT = 0;
const WIRE_BYTES = 2;

// TensorProto.DataType values.
const ONNX_TYPES = {FLOAT: 1, INT32: 6, INT64: 7, FLOAT16: 10, UINT32: 12, UINT64: 13};

// A non-negative integer (Number or BigInt) as a protobuf varint.
function varint(value) {
    let v = BigInt(value);
    if (v < 0n) {
        throw new Error('negative varints are not written here');
    }
    const bytes = [];
    do {
        let byte = Number(v & 0x7fn);
        v >>= 7n;
        if (v !== 0n) {
            byte |= 0x80;
        }
        bytes.push(byte);
    } while (v !== 0n);
    return Buffer.from(bytes);
}

function key(field, wire) {
    return varint((field << 3) | wire);
}

// A varint field.
function integerField(field, value) {
    return Buffer.concat([key(field, WIRE_VARINT), varint(value)]);
}

// A length-delimited field: a string, or a message already encoded.
function bytesField(field, content) {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    return Buffer.concat([key(field, WIRE_BYTES), varint(bytes.length), bytes]);
}

function message(...fields) {
    return Buffer.concat(fields);
}

// ValueInfoProto of a tensor; `rank` null leaves its shape unknown, else
// every dimension is symbolic (`d0`, `d1`, ...).
function tensorValueInfo(name, elemType, rank) {
    const tensorFields = [integerField(1, elemType)];
    if (rank !== null) {
        const dims = [];
        for (let d = 0; d < rank; ++d) {
            dims.push(bytesField(1, message(bytesField(2, `d${d}`))));
        }
        tensorFields.push(bytesField(2, message(...dims)));
    }
    const type = message(bytesField(1, message(...tensorFields)));
    return message(bytesField(1, name), bytesField(2, type));
}

function intAttribute(name, value) {
    return message(bytesField(1, name), integerField(3, value), integerField(20, 2));
}

// The serialized ModelProto of one scan node.
//   opType     'CumSum' or 'CumProd'
//   elemType   an ONNX_TYPES value, of x and y
//   exclusive, reverse   the node's attributes (0 or 1)
//   opset      the default domain's opset version to import
//   irVersion  the model's IR version
// The shapes of x and y are left unknown, so one session serves every shape.
function scanModel(opType, elemType, exclusive, reverse, opset, irVersion) {
    const node = message(
        bytesField(1, 'x'),
        bytesField(1, 'axis'),
        bytesField(2, 'y'),
        bytesField(3, 'scan'),
        bytesField(4, opType),
        bytesField(5, intAttribute('exclusive', exclusive ? 1 : 0)),
        bytesField(5, intAttribute('reverse', reverse ? 1 : 0)));
    const graph = message(
        bytesField(1, node),
        bytesField(2, 'dmlconf_scan'),
        bytesField(11, tensorValueInfo('x', elemType, null)),
        bytesField(11, tensorValueInfo('axis', ONNX_TYPES.INT64, 0)),
        bytesField(12, tensorValueInfo('y', elemType, null)));
    const opsetImport = message(bytesField(1, ''), integerField(2, opset));
    return message(
        integerField(1, irVersion),
        bytesField(2, 'dmlconf'),
        bytesField(7, graph),
        bytesField(8, opsetImport));
}

module.exports = {ONNX_TYPES, scanModel, varint};
