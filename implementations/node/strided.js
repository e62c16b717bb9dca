'use strict';
// Strided tensors in the protocol's buffers, for runtimes that take only
// packed tensors (row-major, last dimension fastest): the elements of a
// strided, padded or broadcast tensor gathered into a packed array, and a
// packed result scattered back into a strided output buffer. Elements are
// handled as their bits (Uint16Array, Uint32Array or BigUint64Array by
// element size), so no value is converted on the way.

// The buffer's whole elements as bits; `buffer` is a Uint8Array whose
// byteOffset is a multiple of the element size (the protocol module gives
// each buffer its own ArrayBuffer).
function bitsView(buffer, elementBytes) {
    const count = Math.floor(buffer.length / elementBytes);
    switch (elementBytes) {
    case 2:
        return new Uint16Array(buffer.buffer, buffer.byteOffset, count);
    case 4:
        return new Uint32Array(buffer.buffer, buffer.byteOffset, count);
    case 8:
        return new BigUint64Array(buffer.buffer, buffer.byteOffset, count);
    default:
        throw new Error(`no element of ${elementBytes} bytes`);
    }
}

function elementCount(sizes) {
    return sizes.reduce((product, size) => product * size, 1);
}

// Calls visit(packedIndex, elementOffset) for every element of the tensor
// in row-major order. Throws when an element lies beyond `limit` elements.
function forEachElement(sizes, strides, limit, visit) {
    const rank = sizes.length;
    let last = 0;
    for (let d = 0; d < rank; ++d) {
        last += (sizes[d] - 1) * strides[d];
    }
    if (last >= limit) {
        throw new Error(`the tensor reaches element ${last}, beyond the ${limit} elements of its buffer`);
    }
    const count = elementCount(sizes);
    const position = new Array(rank).fill(0);
    let offset = 0;
    for (let i = 0; i < count; ++i) {
        visit(i, offset);
        // The next position: the last dimension moves fastest.
        for (let d = rank - 1; d >= 0; --d) {
            if (++position[d] < sizes[d]) {
                offset += strides[d];
                break;
            }
            offset -= (sizes[d] - 1) * strides[d];
            position[d] = 0;
        }
    }
}

// A new packed array (the bits view's type) holding the tensor's elements.
function gather(buffer, elementBytes, sizes, strides) {
    const source = bitsView(buffer, elementBytes);
    const packed = new source.constructor(elementCount(sizes));
    forEachElement(sizes, strides, source.length, (i, offset) => {
        packed[i] = source[offset];
    });
    return packed;
}

// Writes the packed elements (a typed array of the element size, any type)
// to the tensor's places in the buffer; bytes of no element are untouched.
function scatter(buffer, elementBytes, sizes, strides, packed) {
    const target = bitsView(buffer, elementBytes);
    // The same bytes as bits (a copy when the result is not aligned for that).
    const aligned = packed.byteOffset % elementBytes === 0 ? packed : packed.slice();
    const bits = new target.constructor(aligned.buffer, aligned.byteOffset, aligned.length);
    if (bits.length !== elementCount(sizes)) {
        throw new Error(`the result has ${bits.length} elements, not the ${elementCount(sizes)} of the output`);
    }
    forEachElement(sizes, strides, target.length, (i, offset) => {
        target[offset] = bits[i];
    });
}

module.exports = {gather, scatter, elementCount};
