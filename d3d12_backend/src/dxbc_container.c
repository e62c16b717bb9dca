/*
 * DXBC containers and their checksum.
 *
 * Layout (little-endian 32-bit words): "DXBC", four checksum words, the
 * version 1, the total size in bytes, the chunk count, one offset per chunk
 * (from the start of the container), then the chunks: a four-byte tag, the
 * data size in bytes, the data.
 */
#include "dxbc_container.h"

#include <stdlib.h>
#include <string.h>

static const uint32_t md5_sines[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

static const unsigned char md5_shifts[64] = {
    7,  12, 17, 22, 7,  12, 17, 22, 7,  12, 17, 22, 7,  12, 17, 22, 5,  9,  14, 20, 5,  9,
    14, 20, 5,  9,  14, 20, 5,  9,  14, 20, 4,  11, 16, 23, 4,  11, 16, 23, 4,  11, 16, 23,
    4,  11, 16, 23, 6,  10, 15, 21, 6,  10, 15, 21, 6,  10, 15, 21, 6,  10, 15, 21,
};

static uint32_t load_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void store_le32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static uint32_t rotate_left(uint32_t v, unsigned s)
{
    return v << s | v >> (32u - s);
}

void dxbc_md5_compress(uint32_t state[4], const unsigned char block[64])
{
    uint32_t m[16];
    for (unsigned i = 0; i < 16; ++i)
        m[i] = load_le32(block + 4 * i);
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    for (unsigned i = 0; i < 64; ++i)
    {
        uint32_t f;
        unsigned g;
        if (i < 16)
        {
            f = (b & c) | (~b & d);
            g = i;
        }
        else if (i < 32)
        {
            f = (d & b) | (~d & c);
            g = (5 * i + 1) % 16;
        }
        else if (i < 48)
        {
            f = b ^ c ^ d;
            g = (3 * i + 5) % 16;
        }
        else
        {
            f = c ^ (b | ~d);
            g = (7 * i) % 16;
        }
        uint32_t rotated = rotate_left(a + f + md5_sines[i] + m[g], md5_shifts[i]);
        a = d;
        d = c;
        c = b;
        b = b + rotated;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
}

void dxbc_checksum(const void *data, size_t size, uint32_t out[4])
{
    uint32_t state[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
    const unsigned char *bytes = data;
    size_t full = size / 64 * 64;
    for (size_t i = 0; i < full; i += 64)
        dxbc_md5_compress(state, bytes + i);
    size_t rest = size - full;
    uint32_t bits = (uint32_t)size * 8u;
    uint32_t tail = (uint32_t)size * 2u + 1u;
    unsigned char block[64];
    memset(block, 0, sizeof(block));
    if (rest < 56)
    {
        store_le32(block, bits);
        memcpy(block + 4, bytes + full, rest);
        block[4 + rest] = 0x80;
        store_le32(block + 60, tail);
        dxbc_md5_compress(state, block);
    }
    else
    {
        memcpy(block, bytes + full, rest);
        block[rest] = 0x80;
        dxbc_md5_compress(state, block);
        memset(block, 0, sizeof(block));
        store_le32(block, bits);
        store_le32(block + 60, tail);
        dxbc_md5_compress(state, block);
    }
    memcpy(out, state, sizeof(state));
}

int dxbc_container_build(const uint32_t *words, size_t count, void **blob, size_t *size)
{
    /* A compute shader needs only its program chunk. */
    size_t offset = DXBC_HEADER_BYTES + 4;
    size_t total = offset + 8 + count * 4;
    unsigned char *out = calloc(1, total);
    if (!out)
        return -1;
    memcpy(out, "DXBC", 4);
    store_le32(out + 20, 1);
    store_le32(out + 24, (uint32_t)total);
    store_le32(out + 28, 1);
    store_le32(out + DXBC_HEADER_BYTES, (uint32_t)offset);
    memcpy(out + offset, "SHEX", 4);
    store_le32(out + offset + 4, (uint32_t)(count * 4));
    for (size_t w = 0; w < count; ++w)
        store_le32(out + offset + 8 + 4 * w, words[w]);
    uint32_t checksum[4];
    dxbc_checksum(out + DXBC_CHECKSUM_START, total - DXBC_CHECKSUM_START, checksum);
    for (unsigned i = 0; i < 4; ++i)
        store_le32(out + 4 + 4 * i, checksum[i]);
    *blob = out;
    *size = total;
    return 0;
}

bool dxbc_container_check(const void *blob, size_t size)
{
    const unsigned char *bytes = blob;
    if (size < DXBC_HEADER_BYTES || memcmp(bytes, "DXBC", 4) || load_le32(bytes + 20) != 1 ||
        load_le32(bytes + 24) != size)
        return false;
    uint32_t chunk_count = load_le32(bytes + 28);
    if (chunk_count > (size - DXBC_HEADER_BYTES) / 4)
        return false;
    for (uint32_t i = 0; i < chunk_count; ++i)
    {
        uint32_t offset = load_le32(bytes + DXBC_HEADER_BYTES + 4 * i);
        if (offset > size - 8 || load_le32(bytes + offset + 4) > size - offset - 8)
            return false;
    }
    uint32_t checksum[4];
    dxbc_checksum(bytes + DXBC_CHECKSUM_START, size - DXBC_CHECKSUM_START, checksum);
    for (unsigned i = 0; i < 4; ++i)
    {
        if (checksum[i] != load_le32(bytes + 4 + 4 * i))
            return false;
    }
    return true;
}
