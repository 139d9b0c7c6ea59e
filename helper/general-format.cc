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

/// Powers of ten 10^0 to 10^27: each exact in long double's 64-bit significand (5^27 < 2^64).
const long double POWERS_OF_TEN[28] = {
    1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
    1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
    1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L,
};

/**
 * @param out the string to append to.
 * @param x the number, written by std::to_chars.
 */
void
AppendByToChars(std::string& out, double x)
{
    char buffer[32];
    std::to_chars_result r =
        std::to_chars(buffer, buffer + sizeof(buffer), x, std::chars_format::general, 6);
    out.append(buffer, r.ptr);
}

/**
 * @param a a positive magnitude.
 * @param k a power of ten, -27 to 27.
 * @return a x 10^k, rounded once.
 */
long double
Scale(double a, int k)
{
    return k >= 0 ? static_cast<long double>(a) * POWERS_OF_TEN[k]
                  : static_cast<long double>(a) / POWERS_OF_TEN[-k];
}

} // namespace

void
AppendGeneral6(std::string& out, double x)
{
    double a = std::fabs(x);
    if (!(a >= 1e-20 && a <= 1e20)) // zero, NaN, infinities, the extremes
    {
        AppendByToChars(out, x);
        return;
    }
    // Decimal exponent e of a: 10^e <= a < 10^(e+1). A first guess from the binary exponent
    // is at most one too small; the loop corrects it.
    uint64_t bits;
    std::memcpy(&bits, &a, sizeof(bits));
    int binaryExponent = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
    int e = static_cast<int>(std::floor(binaryExponent * 0.30102999566398120));
    long double r = Scale(a, 5 - e); // a's significand, scaled to [1e5, 1e6)
    while (r >= 1e6L)
    {
        ++e;
        r = Scale(a, 5 - e);
    }
    while (r < 1e5L)
    {
        --e;
        r = Scale(a, 5 - e);
    }
    long double whole = std::floor(r);
    long double fraction = r - whole; // exact
    if (std::fabs(fraction - 0.5L) < 1e-7L)
    {
        AppendByToChars(out, x); // too close to a half to round with certainty
        return;
    }
    auto n = static_cast<uint32_t>(whole) + (fraction > 0.5L ? 1 : 0);
    if (n == 1000000)
    {
        n = 100000;
        ++e;
    }
    char digits[6];
    for (int i = 5; i >= 0; --i)
    {
        digits[i] = static_cast<char>('0' + n % 10);
        n /= 10;
    }
    int last = 5; // the last significant digit kept: trailing zeros go
    while (last > 0 && digits[last] == '0')
    {
        --last;
    }
    char buffer[16];
    char* p = buffer;
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
    out.append(buffer, p);
}

} // namespace ns3
