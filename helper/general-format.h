/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GENERAL_FORMAT_H
#define GENERAL_FORMAT_H

#include <cstddef>

namespace ns3
{

/// The most characters WriteGeneral6 writes ("-1.23457e-308" has 13).
constexpr std::size_t GENERAL6_MAX_CHARS = 24;

/**
 * @ingroup llm-fabric
 * @brief Write a double as printf's "%g" writes it: 6 significant digits, fixed notation
 * for decimal exponents -4 to 5, scientific ("1.5e+06", two exponent digits at least)
 * otherwise, trailing zeros and a bare decimal point removed. This is also what an ostream with
 * its default flags writes, and what std::to_chars's general format with precision 6 writes.
 *
 * The result is the same, byte for byte, as std::to_chars(first, last, x,
 * std::chars_format::general, 6), for every double (test suite llm-fabric-general-format).
 * std::to_chars is exact but slow (about 700 instructions a number in libstdc++ 12), and a
 * training run writes several numbers for each of its millions of transfers. This function
 * scales |x| = m x 2^q by the power of ten 10^k that brings it to six digits, exactly, in
 * 128-bit integers (m x 5^k shifted by q + k, or m divided by 5^-k shifted; in 64 bits when
 * both fit), and rounds to the nearest integer; a scaled value exactly half-way between two (a
 * tie, which printf breaks to even), zero, NaN, infinities and magnitudes outside 1e-20 to 1e20
 * go to std::to_chars. It writes into memory, so that a writer fills its own buffer (the
 * training monitor's rows of flows.csv) without a string's append per field.
 *
 * @param out where to write; at least GENERAL6_MAX_CHARS bytes must be writable there.
 * @param x the number.
 * @return the end of what was written (no terminating null).
 */
char* WriteGeneral6(char* out, double x);

} // namespace ns3

#endif /* GENERAL_FORMAT_H */
