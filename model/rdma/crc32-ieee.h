/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CRC32_IEEE_H
#define CRC32_IEEE_H

#include <cstddef>
#include <cstdint>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief The CRC-32 of IEEE 802.3, which the RoCEv2 ICRC is, over bytes in memory followed by
 * a run of zero bytes that need not be.
 *
 * Polynomial 0x04C11DB7, bits reflected (register bit i is the coefficient of x^(31-i)),
 * initial register and final XOR 0xFFFFFFFF. Update works on the register, so a CRC can be fed
 * in pieces; Final gives the CRC value. A simulated payload is mostly zeros that ns-3 does not
 * store (its Buffer's zero area): the @p zeros argument stands for them and costs about as much
 * as a few bytes, whatever its size.
 *
 * Two methods give the same registers (the tests compare them with each other and with
 * Boost.CRC):
 * - TABLE: eight bytes at a time through eight 256-entry tables ("slicing by 8"), zero runs
 *   through maps of 2^k zero bytes kept as byte tables; portable, but its 12 KiB of tables are
 *   mostly out of the first-level cache by the time the next packet comes, which cost about 26
 *   cache misses a packet on the packet-level benchmarks;
 * - CARRYLESS: on x86-64 processors with the PCLMULQDQ instruction (carry-less multiplication),
 *   every eight bytes are multiplied by a power of x modulo the polynomial and the sum reduced
 *   once (Barrett reduction); a zero run is one more multiplication by x^(8 n). Its constants
 *   (a few hundred bytes) are derived at start-up from the polynomial with plain bit
 *   arithmetic.
 *
 * Update uses CARRYLESS where the processor has it, else TABLE.
 */
class Crc32Ieee
{
  public:
    /// The register before any byte.
    static constexpr uint32_t INITIAL = 0xFFFFFFFFU;

    /// How Update computes.
    enum Method
    {
        TABLE,    //!< table lookups, on every processor
        CARRYLESS //!< carry-less multiplication (x86-64 with PCLMULQDQ only)
    };

    /**
     * Feed bytes, then zero bytes, to a register, by the fastest method this processor has.
     * @param reg the register (INITIAL for a new CRC).
     * @param data the bytes (may be null if @p length is 0).
     * @param length how many.
     * @param zeros how many zero bytes follow them.
     * @return the register after them.
     */
    static uint32_t Update(uint32_t reg, const uint8_t* data, size_t length, uint64_t zeros = 0);

    /**
     * Update by a given method.
     * @param method the method; CARRYLESS needs HasCarryless().
     * @param reg the register.
     * @param data the bytes.
     * @param length how many.
     * @param zeros how many zero bytes follow them.
     * @return the register after them.
     */
    static uint32_t UpdateWith(Method method,
                               uint32_t reg,
                               const uint8_t* data,
                               size_t length,
                               uint64_t zeros = 0);

    /**
     * @return whether this processor runs the CARRYLESS method.
     */
    static bool HasCarryless();

    /**
     * @param reg the register after the last byte.
     * @return the CRC value.
     */
    static uint32_t Final(uint32_t reg)
    {
        return reg ^ 0xFFFFFFFFU;
    }
};

} // namespace ns3

#endif // CRC32_IEEE_H
