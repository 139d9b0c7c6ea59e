/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sha256.h"

#include <cstdio>

namespace llmfabric
{
namespace tests
{

namespace
{

/// The round constants K0..K63 (FIPS 180-4, 4.2.2): the first 32 bits of the fractional parts
/// of the cube roots of the first 64 primes.
constexpr uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

/// @return x rotated right by n bits.
inline uint32_t
Rotr(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

} // namespace

Sha256::Sha256()
    // H(0) (FIPS 180-4, 5.3.3): the first 32 bits of the fractional parts of the square roots
    // of the first eight primes.
    : m_h{0x6a09e667,
          0xbb67ae85,
          0x3c6ef372,
          0xa54ff53a,
          0x510e527f,
          0x9b05688c,
          0x1f83d9ab,
          0x5be0cd19},
      m_block{},
      m_blockBytes(0),
      m_totalBytes(0)
{
}

void
Sha256::Compress()
{
    uint32_t w[64];
    for (int t = 0; t < 16; ++t)
    {
        w[t] = (static_cast<uint32_t>(m_block[4 * t]) << 24) |
               (static_cast<uint32_t>(m_block[4 * t + 1]) << 16) |
               (static_cast<uint32_t>(m_block[4 * t + 2]) << 8) |
               static_cast<uint32_t>(m_block[4 * t + 3]);
    }
    for (int t = 16; t < 64; ++t)
    {
        uint32_t s0 = Rotr(w[t - 15], 7) ^ Rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = Rotr(w[t - 2], 17) ^ Rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = m_h[0];
    uint32_t b = m_h[1];
    uint32_t c = m_h[2];
    uint32_t d = m_h[3];
    uint32_t e = m_h[4];
    uint32_t f = m_h[5];
    uint32_t g = m_h[6];
    uint32_t h = m_h[7];
    for (int t = 0; t < 64; ++t)
    {
        uint32_t bigSigma1 = Rotr(e, 6) ^ Rotr(e, 11) ^ Rotr(e, 25);
        uint32_t ch = (e & f) ^ (~e & g);
        uint32_t t1 = h + bigSigma1 + ch + K[t] + w[t];
        uint32_t bigSigma0 = Rotr(a, 2) ^ Rotr(a, 13) ^ Rotr(a, 22);
        uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
        uint32_t t2 = bigSigma0 + maj;
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    m_h[0] += a;
    m_h[1] += b;
    m_h[2] += c;
    m_h[3] += d;
    m_h[4] += e;
    m_h[5] += f;
    m_h[6] += g;
    m_h[7] += h;
}

void
Sha256::Update(const uint8_t* data, std::size_t length)
{
    m_totalBytes += length;
    for (std::size_t i = 0; i < length; ++i)
    {
        m_block[m_blockBytes++] = data[i];
        if (m_blockBytes == m_block.size())
        {
            Compress();
            m_blockBytes = 0;
        }
    }
}

void
Sha256::Update(const std::string& text)
{
    Update(reinterpret_cast<const uint8_t*>(text.data()), text.size());
}

std::string
Sha256::HexDigest()
{
    // Padding (FIPS 180-4, 5.1.1): a 1 bit, zeros up to 448 bits mod 512, then the message
    // length in bits as a 64-bit big-endian number.
    uint64_t bits = m_totalBytes * 8;
    const uint8_t one = 0x80;
    const uint8_t zero = 0;
    Update(&one, 1);
    while (m_blockBytes != 56)
    {
        Update(&zero, 1);
    }
    uint8_t length[8];
    for (int i = 0; i < 8; ++i)
    {
        length[i] = static_cast<uint8_t>(bits >> (56 - 8 * i));
    }
    Update(length, 8);
    std::string hex;
    for (uint32_t word : m_h)
    {
        char digits[9];
        std::snprintf(digits, sizeof(digits), "%08x", word);
        hex += digits;
    }
    return hex;
}

std::string
Sha256::Hex(const std::string& text)
{
    Sha256 sha;
    sha.Update(text);
    return sha.HexDigest();
}

} // namespace tests
} // namespace llmfabric
