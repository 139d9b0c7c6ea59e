/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ECMP_HASH_H
#define ECMP_HASH_H

#include "flow-five-tuple.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * The flow hash a switch uses for equal-cost multi-path (ECMP) routing: a seeded 32-bit hash of
 * a flow's 5-tuple, the choice of one of n equal-cost paths from that hash, and the extraction of
 * the 5-tuple from the first bytes of an Ethernet frame.
 *
 * Every switch of a fabric should use its own seed. The seed enters the hash before the input is
 * mixed, so two seeds give two unrelated mappings of tuples to hashes: the flows that one tier
 * sends to a given path spread again over all the paths of the next tier. A hash whose seed only
 * changed its output afterwards (xor or addition) would send them all to one path of the next
 * tier (hash polarization).
 *
 * Everything is static, works on the caller's memory only and never allocates, so it can run for
 * every frame a switch forwards.
 */
class EcmpHash
{
  public:
    /// Size of an Ethernet II header without a VLAN tag: destination, source, EtherType.
    static constexpr uint32_t ETHERNET_HEADER_SIZE = 14;
    /// Size of an IEEE 802.1Q tag (TPID and TCI), inserted before the EtherType.
    static constexpr uint32_t VLAN_TAG_SIZE = 4;
    /// The EtherType of IPv4.
    static constexpr uint16_t ETHER_TYPE_IPV4 = 0x0800;
    /// The EtherType (TPID) that announces an IEEE 802.1Q VLAN tag.
    static constexpr uint16_t ETHER_TYPE_VLAN = 0x8100;
    /// The number of leading frame bytes that always hold the whole 5-tuple when the frame has
    /// one: a tagged Ethernet header (18), the longest IPv4 header (60) and the two ports (4).
    static constexpr uint32_t MAX_TUPLE_BYTES = 82;

    /**
     * Hash a 5-tuple.
     *
     * The 13 bytes of the tuple are packed into two 64-bit words; each is folded into a 64-bit
     * state that starts from the mixed seed, and the state is mixed after each fold by a
     * multiply-xorshift bijection. The result is the upper half of the final state.
     *
     * @param tuple the flow's 5-tuple.
     * @param seed the switch's seed; different seeds give unrelated mappings.
     * @return a 32-bit hash whose bits are each set for about half of all tuples, independently
     *         of each other and of the seed.
     */
    static uint32_t Hash(const FlowFiveTuple& tuple, uint32_t seed);

    /**
     * Choose one of n paths from a hash, as floor(hash * n / 2^32). This uses the high bits of
     * the hash, and the counts of hash values that map to each path differ by at most one out of
     * about 2^32 / n, so the bias is negligible for every n.
     * @param hash a hash from Hash().
     * @param n the number of equal-cost paths; aborts if zero.
     * @return a path index in [0, n).
     */
    static uint32_t Select(uint32_t hash, uint32_t n);

    /**
     * Read the 5-tuple of an IPv4 packet carried in an Ethernet II frame.
     *
     * The frame starts with the destination MAC address (no preamble). An IEEE 802.1Q tag
     * (EtherType 0x8100) before the EtherType is skipped; only one tag is accepted. The IPv4
     * header length comes from its IHL field. For UDP and TCP the ports are read from the first
     * four bytes after the IPv4 header; for other protocols, and for a fragment other than the
     * first (which carries no transport header), both ports are zero.
     *
     * @param frame the first bytes of the frame; MAX_TUPLE_BYTES bytes are always enough.
     * @param length how many bytes frame holds.
     * @param[out] out the tuple; written only when the function returns true.
     * @return false if the frame does not carry IPv4 (another EtherType, such as ARP or PFC, or
     *         an IP version other than 4, or an IHL below 5) or if length is too short to hold
     *         the fields the tuple is read from.
     */
    static bool ExtractFromFrame(const uint8_t* frame, uint32_t length, FlowFiveTuple& out);

    /// The 5-tuple as plain numbers (addresses in host order), as ExtractFromFrame reads it.
    struct RawTuple
    {
        uint32_t source;          //!< IPv4 source address
        uint32_t destination;     //!< IPv4 destination address
        uint16_t sourcePort;      //!< transport source port (0 when there is none)
        uint16_t destinationPort; //!< transport destination port (0 when there is none)
        uint8_t protocol;         //!< IP protocol number
    };

    /**
     * Hash(const FlowFiveTuple&, uint32_t) of the tuple given as plain numbers, the same value
     * (that one reads the addresses and calls this): for a switch, without making ns-3
     * addresses per frame.
     * @param raw the flow's 5-tuple, from ParseFrame.
     * @param seed the switch's seed.
     * @return the hash.
     */
    static uint32_t Hash(const RawTuple& raw, uint32_t seed);

    /**
     * ExtractFromFrame without making ns-3 addresses (each an ns-3 library call): for a switch
     * that needs only the destination of most frames. Same rules, same results.
     * @param frame the first bytes of the frame; MAX_TUPLE_BYTES bytes are always enough.
     * @param length how many bytes frame holds.
     * @param[out] out the tuple; written only when the function returns true.
     * @return as ExtractFromFrame.
     */
    static bool ParseFrame(const uint8_t* frame, uint32_t length, RawTuple& out);

    /**
     * @param raw a tuple from ParseFrame.
     * @return it as a FlowFiveTuple.
     */
    static FlowFiveTuple ToFlowFiveTuple(const RawTuple& raw);
};

} // namespace ns3

#endif /* ECMP_HASH_H */
