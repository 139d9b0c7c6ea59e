/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "general-format.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace ns3
{

namespace
{

/**
 * @param out where to write (GENERAL6_MAX_CHARS bytes).
 * @param x the number, written by std::to_chars.
 * @return the end of what was written.
 */
char*
WriteByToChars(char* out, double x)
{
    return std::to_chars(out, out + GENERAL6_MAX_CHARS, x, std::chars_format::general, 6).ptr;
}

#ifdef __SIZEOF_INT128__

/// Powers of five 5^0 to 5^27 (5^27 < 2^63).
constexpr uint64_t POWERS_OF_FIVE[28] = {
    1ULL,
    5ULL,
    25ULL,
    125ULL,
    625ULL,
    3125ULL,
    15625ULL,
    78125ULL,
    390625ULL,
    1953125ULL,
    9765625ULL,
    48828125ULL,
    244140625ULL,
    1220703125ULL,
    6103515625ULL,
    30517578125ULL,
    152587890625ULL,
    762939453125ULL,
    3814697265625ULL,
    19073486328125ULL,
    95367431640625ULL,
    476837158203125ULL,
    2384185791015625ULL,
    11920928955078125ULL,
    59604644775390625ULL,
    298023223876953125ULL,
    1490116119384765625ULL,
    7450580596923828125ULL,
};

/// "00" to "99", the decimal digits of 0 to 99 two by two.
constexpr char DIGIT_PAIRS[] = "00010203040506070809"
                               "10111213141516171819"
                               "20212223242526272829"
                               "30313233343536373839"
                               "40414243444546474849"
                               "50515253545556575859"
                               "60616263646566676869"
                               "70717273747576777879"
                               "80818283848586878889"
                               "90919293949596979899";

/// Where a scaled value's fraction lies against one half.
enum class Half
{
    BELOW, //!< less than a half
    EXACT, //!< exactly a half
    ABOVE, //!< more than a half
};

/**
 * The integer part of m x 2^q x 10^k and where its fraction lies, exactly, in 128-bit
 * integers: for k >= 0 the value is (m x 5^k) x 2^(q+k), for k < 0 it is m x 2^(q+k) / 5^-k.
 * With 2^52 <= m < 2^53, |x| = m x 2^q in [1e-20, 1e20] and k = 5 - e or 6 - e (e the decimal
 * exponent, 10^e <= |x|), every product, shift and divisor below fits: for k >= 0, k <= 26 and
 * m x 5^k < 2^53 x 5^26 < 2^114, and since |x| x 10^k < 10^7 the shift -(q + k) lies in 1..119
 * (q >= -119); for k < 0, k >= -15 and q lies in -32..14, so q + k lies in -47..13, m x 2^13 <
 * 2^66 and 5^15 x 2^47 < 2^82.
 * @param m the significand, with its leading bit.
 * @param q the binary exponent of its last bit.
 * @param k the power of ten, -15 to 26.
 * @param half where the fraction lies.
 * @return the integer part.
 */
uint64_t
ScaleExact(uint64_t m, int q, int k, Half& half)
{
    using U128 = __uint128_t;
    U128 whole;
    if (k >= 0)
    {
        U128 n = static_cast<U128>(m) * POWERS_OF_FIVE[k];
        int shift = -(q + k); // 1 to 119
        whole = n >> shift;
        U128 rest = n & ((static_cast<U128>(1) << shift) - 1);
        U128 oneHalf = static_cast<U128>(1) << (shift - 1);
        half = rest < oneHalf ? Half::BELOW : (rest == oneHalf ? Half::EXACT : Half::ABOVE);
    }
    else
    {
        int shift = q + k; // -47 to 13
        U128 n = static_cast<U128>(m);
        U128 d = POWERS_OF_FIVE[-k];
        if (shift >= 0)
        {
            n <<= shift;
        }
        else
        {
            d <<= -shift;
        }
        if ((n >> 64) == 0 && (d >> 64) == 0)
        {
            // Both fit in 64 bits (always when n is not shifted up: d is then below n, which
            // is below 2^53): one 64-bit division instead of the 128-bit library call, with
            // the same quotient and remainder.
            const auto n64 = static_cast<uint64_t>(n);
            const auto d64 = static_cast<uint64_t>(d);
            const uint64_t quotient = n64 / d64;
            const uint64_t rest = n64 - quotient * d64;
            half =
                rest < d64 - rest ? Half::BELOW : (rest == d64 - rest ? Half::EXACT : Half::ABOVE);
            return quotient;
        }
        whole = n / d;
        U128 twice = 2 * (n - whole * d);
        half = twice < d ? Half::BELOW : (twice == d ? Half::EXACT : Half::ABOVE);
    }
    return static_cast<uint64_t>(whole);
}

#endif

} // namespace

char*
WriteGeneral6(char* out, double x)
{
#ifndef __SIZEOF_INT128__
    return WriteByToChars(out, x); // no 128-bit integers on this platform
#else
    double a = std::fabs(x);
    if (!(a >= 1e-20 && a <= 1e20)) // zero, NaN, infinities, the extremes
    {
        return WriteByToChars(out, x);
    }
    // a = m x 2^q exactly (a normal double: a >= 1e-20). Decimal exponent e of a:
    // 10^e <= a < 10^(e+1). A first guess from the binary exponent is at most one too small;
    // the loop corrects it.
    uint64_t bits;
    std::memcpy(&bits, &a, sizeof(bits));
    int binaryExponent = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
    uint64_t m = (bits & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52);
    int q = binaryExponent - 52;
    // floor(binaryExponent x log10(2)): 78913 / 2^18 is log10(2) to within 2^-18 / 78913 of it,
    // close enough for every exponent from -1100 to 1100 (this one is -67 to 66); the shift
    // of a negative product rounds down as floor does.
    int e = (binaryExponent * 78913) >> 18;
    Half half;
    uint64_t whole = ScaleExact(m, q, 5 - e, half); // a's significand, scaled to [1e5, 1e6)
    while (whole >= 1000000)
    {
        ++e;
        whole = ScaleExact(m, q, 5 - e, half);
    }
    while (whole < 100000)
    {
        --e;
        whole = ScaleExact(m, q, 5 - e, half);
    }
    if (half == Half::EXACT)
    {
        return WriteByToChars(out, x); // a tie: std::to_chars rounds it as printf does
    }
    auto n = static_cast<uint32_t>(whole) + (half == Half::ABOVE ? 1 : 0);
    if (n == 1000000)
    {
        n = 100000;
        ++e;
    }
    // The six digits two at a time: three independent divisions instead of a chain of six.
    char digits[6];
    std::memcpy(digits, DIGIT_PAIRS + 2 * (n / 10000), 2);
    std::memcpy(digits + 2, DIGIT_PAIRS + 2 * (n / 100 % 100), 2);
    std::memcpy(digits + 4, DIGIT_PAIRS + 2 * (n % 100), 2);
    int last = 5; // the last significant digit kept: trailing zeros go
    while (last > 0 && digits[last] == '0')
    {
        --last;
    }
    char* p = out;
    if (x < 0)
    {
        *p++ = '-';
    }
    if (e < -4 || e >= 6)
    {
        *p++ = digits[0];
        if (last > 0)
        {
            *p++ = '.';
            for (int i = 1; i <= last; ++i)
            {
                *p++ = digits[i];
            }
        }
        *p++ = 'e';
        *p++ = e < 0 ? '-' : '+';
        int magnitude = e < 0 ? -e : e;
        *p++ = static_cast<char>('0' + magnitude / 10);
        *p++ = static_cast<char>('0' + magnitude % 10);
    }
    else if (e >= 0)
    {
        for (int i = 0; i <= e; ++i)
        {
            *p++ = digits[i];
        }
        if (last > e)
        {
            *p++ = '.';
            for (int i = e + 1; i <= last; ++i)
            {
                *p++ = digits[i];
            }
        }
    }
    else
    {
        *p++ = '0';
        *p++ = '.';
        for (int i = -1; i > e; --i)
        {
            *p++ = '0';
        }
        for (int i = 0; i <= last; ++i)
        {
            *p++ = digits[i];
        }
    }
    return p;
#endif
}

} // namespace ns3
