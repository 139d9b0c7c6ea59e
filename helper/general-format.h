/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GENERAL_FORMAT_H
#define GENERAL_FORMAT_H

#include <string>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Append a double as printf's "%g" writes it: 6 significant digits, fixed notation
 * for decimal exponents -4 to 5, scientific ("1.5e+06", two exponent digits at least)
 * otherwise, trailing zeros and a bare decimal point removed. This is also what an ostream with
 * its default flags writes, and what std::to_chars's general format with precision 6 writes.
 *
 * The result is the same, byte for byte, as std::to_chars(first, last, x,
 * std::chars_format::general, 6), for every double (test suite llm-fabric-general-format).
 * std::to_chars is exact but slow (about 700 instructions a number in libstdc++ 12), and a
 * training run writes several numbers for each of its millions of transfers. This function
 * rounds |x| x 10^k in long double (64 significand bits: the scaling by an exact power of ten
 * errs by less than 1e-13 of a unit of the sixth digit) and takes the nearest integer, which is
 * the correctly rounded significand unless the scaled value lies within 1e-7 of a half; then,
 * and for zero, NaN, infinities and magnitudes outside 1e-20 to 1e20, it calls std::to_chars.
 *
 * @param out the string to append to.
 * @param x the number.
 */
void AppendGeneral6(std::string& out, double x);

} // namespace ns3

#endif /* GENERAL_FORMAT_H */
