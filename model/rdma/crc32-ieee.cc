/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "crc32-ieee.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <vector>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define LLM_FABRIC_CARRYLESS_CRC 1
#include <immintrin.h>
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Crc32Ieee");

namespace
{

/// The polynomial 0x04C11DB7 without its x^32 term, bits reflected.
constexpr uint32_t REFLECTED_POLYNOMIAL = 0xEDB88320U;

/**
 * @param a a polynomial in register form (bit i: the coefficient of x^(31-i)).
 * @return a x mod P (one bit step of the register).
 */
uint32_t
TimesX(uint32_t a)
{
    return (a & 1) ? (a >> 1) ^ REFLECTED_POLYNOMIAL : a >> 1;
}

/**
 * The TABLE method: the register advanced eight bytes at a time ("slicing by 8": eight
 * 256-entry tables, table k giving the register's change for a byte followed by k zero bytes).
 */
class Crc32
{
  public:
    Crc32()
    {
        for (uint32_t i = 0; i < 256; ++i)
        {
            uint32_t c = i;
            for (int bit = 0; bit < 8; ++bit)
            {
                c = TimesX(c);
            }
            m_table[0][i] = c;
        }
        for (uint32_t k = 1; k < 8; ++k)
        {
            for (uint32_t i = 0; i < 256; ++i)
            {
                uint32_t prev = m_table[k - 1][i];
                m_table[k][i] = (prev >> 8) ^ m_table[0][prev & 0xFF];
            }
        }
    }

    /**
     * Feed bytes to a register.
     * @param reg the register.
     * @param data the bytes.
     * @param length how many.
     * @return the register after them.
     */
    uint32_t Update(uint32_t reg, const uint8_t* data, size_t length) const
    {
        while (length >= 8)
        {
            uint32_t low =
                reg ^
                (static_cast<uint32_t>(data[0]) | (static_cast<uint32_t>(data[1]) << 8) |
                 (static_cast<uint32_t>(data[2]) << 16) | (static_cast<uint32_t>(data[3]) << 24));
            reg = m_table[7][low & 0xFF] ^ m_table[6][(low >> 8) & 0xFF] ^
                  m_table[5][(low >> 16) & 0xFF] ^ m_table[4][low >> 24] ^ m_table[3][data[4]] ^
                  m_table[2][data[5]] ^ m_table[1][data[6]] ^ m_table[0][data[7]];
            data += 8;
            length -= 8;
        }
        while (length-- > 0)
        {
            reg = (reg >> 8) ^ m_table[0][(reg ^ *data++) & 0xFF];
        }
        return reg;
    }

  private:
    std::array<std::array<uint32_t, 256>, 8> m_table; //!< the slicing tables
};

/// @return the CRC engine, built once.
const Crc32&
GetCrc32()
{
    static const Crc32 crc;
    return crc;
}

/// A linear map of a CRC register as four tables, one per byte of the register: map[b][x] is
/// the image of byte b holding x.
using ByteMap = std::array<std::array<uint32_t, 256>, 4>;

/**
 * @tparam F a linear map of registers, uint32_t(uint32_t).
 * @param image the map.
 * @return it as a ByteMap.
 */
template <typename F>
ByteMap
MakeByteMap(F image)
{
    ByteMap map;
    for (uint32_t b = 0; b < 4; ++b)
    {
        for (uint32_t x = 0; x < 256; ++x)
        {
            map[b][x] = image(x << (8 * b));
        }
    }
    return map;
}

/**
 * @param map a ByteMap.
 * @param reg a register.
 * @return its image (the map is linear: the XOR of its bytes' images).
 */
uint32_t
ApplyByteMap(const ByteMap& map, uint32_t reg)
{
    return map[0][reg & 0xFF] ^ map[1][(reg >> 8) & 0xFF] ^ map[2][(reg >> 16) & 0xFF] ^
           map[3][reg >> 24];
}

/**
 * Appending zero bytes to a CRC is a linear map of its register. ZeroRuns holds that map for
 * 2^k zero bytes, k = 0..63, as 32x32 bit matrices built from the byte step itself (one column
 * per register bit); those for k below 32 are also kept as tables of the register's four bytes,
 * so that a run of n zero bytes costs four lookups per set bit of n instead of n table steps
 * (a run of 2^32 bytes or more, which no packet has, a matrix product for each higher bit).
 * Simulated payloads are mostly zeros (ns-3's virtual bytes), and the ICRC of every packet
 * covers its payload: this keeps the exact CRC affordable.
 */
class ZeroRuns
{
  public:
    ZeroRuns()
    {
        // Column j of the one-byte map: the register after one zero byte, starting from bit j.
        const uint8_t zero = 0;
        for (uint32_t j = 0; j < 32; ++j)
        {
            m_powers[0][j] = GetCrc32().Update(1U << j, &zero, 1);
        }
        for (uint32_t k = 1; k < POWERS; ++k)
        {
            for (uint32_t j = 0; j < 32; ++j)
            {
                m_powers[k][j] = Apply(m_powers[k - 1], m_powers[k - 1][j]);
            }
        }
        // The same maps as tables of the four bytes of the register (the map is linear, so the
        // image of a register is the XOR of the images of its bytes).
        m_tables.reserve(TABLES);
        for (uint32_t k = 0; k < TABLES; ++k)
        {
            m_tables.push_back(MakeByteMap([&](uint32_t v) { return Apply(m_powers[k], v); }));
        }
    }

    /**
     * Advance a register over n zero bytes.
     * @param reg the register.
     * @param n how many zero bytes.
     * @return the register after them.
     */
    uint32_t Advance(uint32_t reg, uint64_t n) const
    {
        for (uint32_t k = 0; n != 0; ++k, n >>= 1)
        {
            if (n & 1)
            {
                reg = k < TABLES ? ApplyByteMap(m_tables[k], reg) : Apply(m_powers[k], reg);
            }
        }
        return reg;
    }

  private:
    static constexpr uint32_t POWERS = 64; //!< maps of 2^0 to 2^63 zero bytes
    static constexpr uint32_t TABLES = 32; //!< of which as byte tables

    /**
     * @param matrix a 32x32 bit matrix, column by column.
     * @param v a register value.
     * @return matrix x v over GF(2).
     */
    static uint32_t Apply(const std::array<uint32_t, 32>& matrix, uint32_t v)
    {
        uint32_t out = 0;
        for (uint32_t j = 0; v != 0; ++j, v >>= 1)
        {
            if (v & 1)
            {
                out ^= matrix[j];
            }
        }
        return out;
    }

    /// m_powers[k][j]: column j of the map for 2^k zero bytes.
    std::array<std::array<uint32_t, 32>, POWERS> m_powers;
    /// m_tables[k][b][x]: the map for 2^k zero bytes applied to byte b of value x.
    std::vector<ByteMap> m_tables;
};

/// @return the zero-run maps, built once.
const ZeroRuns&
GetZeroRuns()
{
    static const ZeroRuns zeroRuns;
    return zeroRuns;
}

/**
 * The map of one run length that keeps coming (a payload of the MTU's size, packet after
 * packet) as four tables of the register's bytes: four lookups instead of four per set bit of
 * the length. Building the tables costs about a thousand ZeroRuns::Advance, so a length gets
 * them only once it has missed REBUILD_AFTER times since the last length that missed: a
 * message's last, shorter packet does not replace the table of the full ones, and lengths that
 * take turns do not rebuild it each time. One per thread.
 */
class RepeatedZeroRun
{
  public:
    /**
     * Advance a register over n zero bytes, as ZeroRuns::Advance.
     * @param reg the register.
     * @param n how many zero bytes.
     * @return the register after them.
     */
    uint32_t Advance(uint32_t reg, uint64_t n)
    {
        if (n == 0)
        {
            return reg;
        }
        if (n != m_tableLength)
        {
            m_misses = (n == m_missedLength) ? m_misses + 1 : 1;
            m_missedLength = n;
            if (m_misses < REBUILD_AFTER)
            {
                return GetZeroRuns().Advance(reg, n);
            }
            m_table = MakeByteMap([n](uint32_t v) { return GetZeroRuns().Advance(v, n); });
            m_tableLength = n;
            m_misses = 0;
        }
        return ApplyByteMap(m_table, reg);
    }

  private:
    /// Misses of one length that give it the tables.
    static constexpr uint32_t REBUILD_AFTER = 64;

    ByteMap m_table{};          //!< the map of m_tableLength zeros
    uint64_t m_tableLength{0};  //!< the length m_table is for (0: none; 0 needs no table)
    uint64_t m_missedLength{0}; //!< the length that missed last
    uint32_t m_misses{0};       //!< its misses since another length missed
};

/// @return this thread's table of the repeated zero-run length.
RepeatedZeroRun&
GetRepeatedZeroRun()
{
    static thread_local RepeatedZeroRun run;
    return run;
}

/**
 * Feed bytes to a CRC register, taking runs of zeros through ZeroRuns.
 * @param reg the register.
 * @param data the bytes.
 * @param length how many.
 * @return the register after them.
 */
uint32_t
ProcessBytes(uint32_t reg, const uint8_t* data, uint32_t length)
{
    // Below this length a zero run is cheaper through the table than through the maps.
    constexpr uint32_t MIN_RUN = 64;
    const uint8_t* end = data + length;
    while (data < end)
    {
        const uint8_t* zero = std::find(data, end, 0);
        const uint8_t* nonZero = std::find_if(zero, end, [](uint8_t b) { return b != 0; });
        if (nonZero - zero >= MIN_RUN)
        {
            reg = GetCrc32().Update(reg, data, zero - data);
            reg = GetZeroRuns().Advance(reg, static_cast<uint64_t>(nonZero - zero));
        }
        else
        {
            reg = GetCrc32().Update(reg, data, nonZero - data);
        }
        data = nonZero;
    }
    return reg;
}

/**
 * @param reg a register.
 * @param data bytes.
 * @param length how many.
 * @param zeros how many zero bytes follow them.
 * @return the register after them, by the TABLE method.
 */
uint32_t
TableUpdate(uint32_t reg, const uint8_t* data, size_t length, uint64_t zeros)
{
    while (length > 0)
    {
        const uint32_t n = static_cast<uint32_t>(std::min<size_t>(length, 1U << 30));
        reg = ProcessBytes(reg, data, n);
        data += n;
        length -= n;
    }
    return GetRepeatedZeroRun().Advance(reg, zeros);
}

// The CARRYLESS method. Polynomials over GF(2) modulo P = x^32 + ... (0x104C11DB7) are held as
// the register is: a 32-bit value whose bit i is the coefficient of x^(31-i). A 64-bit word
// loaded little-endian from the message holds eight message bytes the same way, bit i being
// the coefficient of x^(63-i) (the first byte's lowest bit is the highest power, as in the
// reflected CRC). The register after a message M of L bytes, from register R, is
// (R x^(8L) + M x^32) mod P. Cut M into words W_0..W_{m-1} (the last padded with zeros) and put
// R into W_0's first 32 bits: the register is the sum of W_j x^(32 + 64 (m-1-j)) mod P. The
// products of W_j by x^(64 (m-1-j)) mod P are independent (the processor overlaps them); their
// sum is reduced once, then multiplied by x^(32 + 8 (zeros - padding)).
//
// In carry-less products of such values the exponents add: if bit i of a is the coefficient of
// x^(ea-i) and bit i of b that of x^(eb-i), bit i of the product is that of x^(ea+eb-i).

/// Words folded per reduction; a longer message goes in pieces of this many.
constexpr size_t FOLD_WORDS = 16;

/**
 * Plain bit arithmetic, for the constants.
 * @param a a register-form polynomial.
 * @param b another.
 * @return a b mod P.
 */
uint32_t
SlowMultiply(uint32_t a, uint32_t b)
{
    // Horner's rule over b's coefficients, from x^31 (bit 0) down to x^0 (bit 31).
    uint32_t out = 0;
    for (uint32_t i = 0; i < 32; ++i)
    {
        out = TimesX(out) ^ (((b >> i) & 1) ? a : 0);
    }
    return out;
}

/// x^0 in register form.
constexpr uint32_t ONE = 0x80000000U;

/**
 * @param n an exponent.
 * @return x^n mod P in register form.
 */
uint32_t
SlowPower(uint64_t n)
{
    uint32_t result = ONE;
    uint32_t square = TimesX(ONE); // x^(2^k)
    for (; n != 0; n >>= 1)
    {
        if (n & 1)
        {
            result = SlowMultiply(result, square);
        }
        square = SlowMultiply(square, square);
    }
    return result;
}

/// The constants of the CARRYLESS method, derived from the polynomial.
struct CarrylessConstants
{
    uint64_t polynomial;         //!< P, bit i the coefficient of x^(32-i)
    uint64_t barrett;            //!< floor(x^64 / P), the same way
    uint32_t x63;                //!< x^63 mod P
    uint32_t words[FOLD_WORDS];  //!< x^(64 k) mod P
    uint32_t padding[8];         //!< x^(32 - 8 p) mod P, for p bytes of padding
    uint32_t zeroPowers[64];     //!< x^(8 2^k) mod P
    uint32_t zeroNibbles[4][16]; //!< x^(8 v 16^i) mod P: runs below 2^16 bytes, four lookups

    CarrylessConstants()
    {
        // P and the quotient of x^64 by it, first with bit k the coefficient of x^k.
        const uint64_t p = (uint64_t{1} << 32) | 0x04C11DB7U;
        // Long division, the dividend's coefficients from x^64 down shifted into the remainder
        // (bit 0 of which is then x^k); a term x^(k+32) is cancelled by P x^k.
        uint64_t rest = 0;
        uint64_t quotient = 0;
        for (int k = 64; k >= 0; --k)
        {
            rest = (rest << 1) | (k == 64 ? 1 : 0);
            if ((rest >> 32) & 1)
            {
                rest ^= p;
                quotient |= uint64_t{1} << k;
            }
        }
        polynomial = 0;
        barrett = 0;
        for (uint32_t i = 0; i <= 32; ++i)
        {
            polynomial |= ((p >> (32 - i)) & 1) << i;
            barrett |= ((quotient >> (32 - i)) & 1) << i;
        }
        x63 = SlowPower(63);
        for (size_t k = 0; k < FOLD_WORDS; ++k)
        {
            words[k] = SlowPower(64 * k);
        }
        // x^-1 mod P: the y with y x = 1, i.e. TimesX(y) == ONE (P's constant term is 1).
        const uint32_t inverse = ((ONE ^ REFLECTED_POLYNOMIAL) << 1) | 1;
        NS_ABORT_MSG_IF(TimesX(inverse) != ONE, "Crc32Ieee: wrong inverse of x");
        for (uint32_t pad = 0; pad < 8; ++pad)
        {
            uint32_t value = SlowPower(32);
            for (uint32_t k = 0; k < 8 * pad; ++k)
            {
                value = SlowMultiply(value, inverse);
            }
            padding[pad] = value;
        }
        for (uint32_t k = 0; k < 64; ++k)
        {
            zeroPowers[k] =
                k == 0 ? SlowPower(8) : SlowMultiply(zeroPowers[k - 1], zeroPowers[k - 1]);
        }
        for (uint32_t i = 0; i < 4; ++i)
        {
            for (uint32_t v = 0; v < 16; ++v)
            {
                zeroNibbles[i][v] = SlowPower(uint64_t{8} * v << (4 * i));
            }
        }
    }
};

/// @return the constants, derived once.
const CarrylessConstants&
GetCarrylessConstants()
{
    static const CarrylessConstants constants;
    return constants;
}

#ifdef LLM_FABRIC_CARRYLESS_CRC

/**
 * @param a a 64-bit value.
 * @param b another.
 * @param[out] high the high 64 bits of their carry-less product.
 * @return its low 64 bits.
 */
__attribute__((target("pclmul,sse2"))) inline uint64_t
CarrylessMultiply(uint64_t a, uint64_t b, uint64_t& high)
{
    const __m128i product = _mm_clmulepi64_si128(_mm_cvtsi64_si128(static_cast<int64_t>(a)),
                                                 _mm_cvtsi64_si128(static_cast<int64_t>(b)),
                                                 0x00);
    high = static_cast<uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(product, product)));
    return static_cast<uint64_t>(_mm_cvtsi128_si64(product));
}

/**
 * @param a a 64-bit value.
 * @param b another, such that their product fits in 64 bits.
 * @return their carry-less product.
 */
__attribute__((target("pclmul,sse2"))) inline uint64_t
CarrylessMultiplyLow(uint64_t a, uint64_t b)
{
    return static_cast<uint64_t>(
        _mm_cvtsi128_si64(_mm_clmulepi64_si128(_mm_cvtsi64_si128(static_cast<int64_t>(a)),
                                               _mm_cvtsi64_si128(static_cast<int64_t>(b)),
                                               0x00)));
}

/**
 * Barrett reduction.
 * @param c the constants.
 * @param s a polynomial of degree below 64, bit i the coefficient of x^(63-i).
 * @return s mod P in register form.
 */
__attribute__((target("pclmul,sse2"))) inline uint32_t
Reduce(const CarrylessConstants& c, uint64_t s)
{
    // q = floor(floor(s / x^32) floor(x^64 / P) / x^32), exact for degrees below 64: s's
    // first 32 bits are floor(s / x^32) in register form, times the quotient's exponents
    // (bit i: x^(32-i)) give bit i as x^(63-i), whose first 32 bits are q in register form.
    const uint64_t q = CarrylessMultiplyLow(s & 0xFFFFFFFFU, c.barrett) & 0xFFFFFFFFU;
    // s - q P has degree below 32: its coefficients x^31..x^0 are bits 32..63.
    return static_cast<uint32_t>((s ^ CarrylessMultiplyLow(q, c.polynomial)) >> 32);
}

/**
 * @param c the constants.
 * @param a a register-form polynomial.
 * @param b another.
 * @return a b mod P.
 */
__attribute__((target("pclmul,sse2"))) inline uint32_t
Multiply(const CarrylessConstants& c, uint32_t a, uint32_t b)
{
    // Bit i of the product is x^(62-i); shifted, x^(63-i), as Reduce takes it.
    return Reduce(c, CarrylessMultiplyLow(a, b) << 1);
}

/**
 * @param c the constants.
 * @param zeros a zero run.
 * @return x^(8 zeros) mod P.
 */
__attribute__((target("pclmul,sse2"))) inline uint32_t
ZeroRunPower(const CarrylessConstants& c, uint64_t zeros)
{
    // Below 2^16 bytes (every packet's payload): four lookups in 256 bytes of tables, multiplied
    // as a tree (two products side by side, then theirs).
    const uint32_t low =
        Multiply(c, c.zeroNibbles[0][zeros & 15], c.zeroNibbles[1][(zeros >> 4) & 15]);
    const uint32_t high =
        Multiply(c, c.zeroNibbles[2][(zeros >> 8) & 15], c.zeroNibbles[3][(zeros >> 12) & 15]);
    uint32_t power = Multiply(c, low, high);
    uint64_t rest = zeros >> 16;
    for (uint32_t k = 16; rest != 0; ++k, rest >>= 1)
    {
        if (rest & 1)
        {
            power = Multiply(c, power, c.zeroPowers[k]);
        }
    }
    return power;
}

/**
 * The last piece's factor x^(32 - 8 pad) x^(8 zeros) mod P, the one asked for last kept: a
 * run's full data packets all end with the same padding and zero run (their payload), so their
 * register takes one product instead of four. The key (zeros x 8 + pad, with a flag bit) and
 * the factor share one 64-bit word, read and written whole, so that a reader never pairs a key
 * with another key's factor.
 * @param c the constants.
 * @param pad padding bytes of the last word, 0 to 7.
 * @param zeros the zero run, at least one byte.
 * @return the factor.
 */
__attribute__((target("pclmul,sse2"))) inline uint32_t
PaddingAndZeros(const CarrylessConstants& c, uint32_t pad, uint64_t zeros)
{
    static std::atomic<uint64_t> last{0}; // flag bit 31 of the key clear: nothing kept
    if (zeros >= (uint64_t{1} << 28))
    {
        return Multiply(c, c.padding[pad], ZeroRunPower(c, zeros)); // beyond the key's bits
    }
    const auto key = static_cast<uint32_t>((zeros << 3) | pad | 0x80000000U);
    const uint64_t kept = last.load(std::memory_order_relaxed);
    if (static_cast<uint32_t>(kept >> 32) == key)
    {
        return static_cast<uint32_t>(kept);
    }
    const uint32_t factor = Multiply(c, c.padding[pad], ZeroRunPower(c, zeros));
    last.store((uint64_t{key} << 32) | factor, std::memory_order_relaxed);
    return factor;
}

/**
 * @param reg a register.
 * @param data bytes.
 * @param length how many.
 * @param zeros how many zero bytes follow them.
 * @return the register after them, by the CARRYLESS method.
 */
__attribute__((target("pclmul,sse2"))) uint32_t
CarrylessUpdate(uint32_t reg, const uint8_t* data, size_t length, uint64_t zeros)
{
    const CarrylessConstants& c = GetCarrylessConstants();
    if (length == 0)
    {
        return zeros == 0 ? reg : Multiply(c, reg, ZeroRunPower(c, zeros)); // R x^(8 zeros)
    }
    for (;;)
    {
        const size_t words = std::min<size_t>((length + 7) / 8, FOLD_WORDS);
        const size_t take = std::min<size_t>(length, words * 8);
        const bool last = take == length;
        const auto pad = static_cast<uint32_t>(words * 8 - take);
        // The sum of W_j (x^(64 (words-1-j)) mod P): bit i of (high, low) is x^(94-i).
        uint64_t low = 0;
        uint64_t high = 0;
        const size_t whole = pad == 0 ? words : words - 1;
        for (size_t j = 0; j < words; ++j)
        {
            uint64_t word = 0;
            if (j < whole)
            {
                std::memcpy(&word, data + 8 * j, 8);
            }
            else
            {
                for (uint32_t b = 0; b < 8 - pad; ++b)
                {
                    word |= static_cast<uint64_t>(data[8 * j + b]) << (8 * b);
                }
            }
            if (j == 0)
            {
                word ^= reg;
            }
            uint64_t h;
            low ^= CarrylessMultiply(word, c.words[words - 1 - j], h);
            high ^= h;
        }
        // To degree below 64: bits 0..31 (x^94..x^63) are A x^63 with A in register form; bits
        // 32..94 (x^62..x^0) as bit i - 31 are x^(63-k) at bit k.
        const uint64_t a = low & 0xFFFFFFFFU;
        const uint64_t b = ((low >> 31) | (high << 33)) & ~uint64_t{1};
        const uint64_t s = b ^ (CarrylessMultiplyLow(a, c.x63) << 1);
        // Times x^(32 - 8 pad); after the last piece, times x^(8 zeros) too (one product of
        // the two factors: multiplication modulo P is associative).
        if (last)
        {
            return Multiply(c,
                            Reduce(c, s),
                            zeros == 0 ? c.padding[pad] : PaddingAndZeros(c, pad, zeros));
        }
        reg = Multiply(c, Reduce(c, s), c.padding[pad]);
        data += take;
        length -= take;
    }
}

/// @return whether the processor has PCLMULQDQ.
bool
DetectCarryless()
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("pclmul");
}

#else

uint32_t
CarrylessUpdate(uint32_t reg, const uint8_t* data, size_t length, uint64_t zeros)
{
    (void)data;
    (void)length;
    (void)zeros;
    NS_ABORT_MSG("Crc32Ieee: the CARRYLESS method needs an x86-64 processor with PCLMULQDQ");
    return reg;
}

bool
DetectCarryless()
{
    return false;
}

#endif

/// Whether Update uses CARRYLESS, decided once.
const bool g_carryless = DetectCarryless();

} // namespace

uint32_t
Crc32Ieee::Update(uint32_t reg, const uint8_t* data, size_t length, uint64_t zeros)
{
    return g_carryless ? CarrylessUpdate(reg, data, length, zeros)
                       : TableUpdate(reg, data, length, zeros);
}

uint32_t
Crc32Ieee::UpdateWith(Method method,
                      uint32_t reg,
                      const uint8_t* data,
                      size_t length,
                      uint64_t zeros)
{
    if (method == CARRYLESS)
    {
        NS_ABORT_MSG_IF(!g_carryless, "Crc32Ieee: this processor has no PCLMULQDQ");
        return CarrylessUpdate(reg, data, length, zeros);
    }
    return TableUpdate(reg, data, length, zeros);
}

bool
Crc32Ieee::HasCarryless()
{
    return g_carryless;
}

} // namespace ns3
