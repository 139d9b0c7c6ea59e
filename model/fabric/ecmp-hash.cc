/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ecmp-hash.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EcmpHash");

namespace
{

/// Added to the seed before it is mixed, so that seed 0 does not start from the state 0 (the
/// 64-bit golden ratio, an odd constant with evenly spread bits).
constexpr uint64_t SEED_OFFSET = 0x9E3779B97F4A7C15ULL;
/// First multiplier of Mix64 (odd, so the multiplication is a bijection).
constexpr uint64_t MIX_MULTIPLIER_1 = 0xBF58476D1CE4E5B9ULL;
/// Second multiplier of Mix64 (odd).
constexpr uint64_t MIX_MULTIPLIER_2 = 0x94D049BB133111EBULL;
/// Offset in an IPv4 header of the byte that holds the version and IHL.
constexpr uint32_t IPV4_VERSION_IHL = 0;
/// Offset in an IPv4 header of the flags and fragment offset (2 bytes).
constexpr uint32_t IPV4_FRAGMENT = 6;
/// Offset in an IPv4 header of the protocol number.
constexpr uint32_t IPV4_PROTOCOL = 9;
/// Offset in an IPv4 header of the source address.
constexpr uint32_t IPV4_SOURCE = 12;
/// Offset in an IPv4 header of the destination address.
constexpr uint32_t IPV4_DESTINATION = 16;
/// Size of an IPv4 header without options (IHL 5).
constexpr uint32_t IPV4_MIN_HEADER_SIZE = 20;
/// Mask of the 13-bit fragment offset in the flags and fragment offset field.
constexpr uint16_t IPV4_FRAGMENT_OFFSET_MASK = 0x1FFF;
/// Size of the two transport ports read from a UDP or TCP header.
constexpr uint32_t PORTS_SIZE = 4;

/**
 * A bijective 64-bit mixer in the multiply-xorshift style (the finalizer structure of
 * SplitMix64, Steele, Lea and Flood, OOPSLA 2014): every input bit affects every output bit with
 * probability close to one half.
 * @param x the value to mix.
 * @return the mixed value.
 */
uint64_t
Mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= MIX_MULTIPLIER_1;
    x ^= x >> 27;
    x *= MIX_MULTIPLIER_2;
    x ^= x >> 31;
    return x;
}

/**
 * @param p two bytes.
 * @return them read as a big-endian (network order) number.
 */
uint16_t
ReadU16(const uint8_t* p)
{
    return static_cast<uint16_t>((uint32_t{p[0]} << 8) | p[1]);
}

/**
 * @param p four bytes.
 * @return them read as a big-endian (network order) number.
 */
uint32_t
ReadU32(const uint8_t* p)
{
    return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

} // namespace

uint32_t
EcmpHash::Hash(const FlowFiveTuple& tuple, uint32_t seed)
{
    return Hash(RawTuple{tuple.source.Get(),
                         tuple.destination.Get(),
                         tuple.sourcePort,
                         tuple.destinationPort,
                         tuple.protocol},
                seed);
}

uint32_t
EcmpHash::Hash(const RawTuple& raw, uint32_t seed)
{
    // The 13 bytes as two words: the addresses (8 bytes), then the ports and the protocol
    // (5 bytes). Each word is folded into a state that already depends on the seed, and mixed,
    // so the seed changes how every input bit is spread instead of only the output.
    uint64_t addresses = (uint64_t{raw.source} << 32) | raw.destination;
    uint64_t portsAndProtocol =
        (uint64_t{raw.sourcePort} << 24) | (uint64_t{raw.destinationPort} << 8) | raw.protocol;
    uint64_t state = Mix64(uint64_t{seed} + SEED_OFFSET);
    state = Mix64(state ^ addresses);
    state = Mix64(state ^ portsAndProtocol);
    return static_cast<uint32_t>(state >> 32);
}

uint32_t
EcmpHash::Select(uint32_t hash, uint32_t n)
{
    NS_ABORT_MSG_IF(n == 0, "EcmpHash::Select: no path to choose from (n is 0)");
    return static_cast<uint32_t>((uint64_t{hash} * n) >> 32);
}

bool
EcmpHash::ExtractFromFrame(const uint8_t* frame, uint32_t length, FlowFiveTuple& out)
{
    RawTuple raw;
    if (!ParseFrame(frame, length, raw))
    {
        return false;
    }
    out = ToFlowFiveTuple(raw);
    return true;
}

FlowFiveTuple
EcmpHash::ToFlowFiveTuple(const RawTuple& raw)
{
    return FlowFiveTuple(Ipv4Address(raw.source),
                         Ipv4Address(raw.destination),
                         raw.sourcePort,
                         raw.destinationPort,
                         raw.protocol);
}

bool
EcmpHash::ParseFrame(const uint8_t* frame, uint32_t length, RawTuple& out)
{
    if (frame == nullptr || length < ETHERNET_HEADER_SIZE)
    {
        return false;
    }
    uint32_t ipOffset = ETHERNET_HEADER_SIZE;
    uint16_t etherType = ReadU16(frame + ETHERNET_HEADER_SIZE - 2);
    if (etherType == ETHER_TYPE_VLAN)
    {
        ipOffset += VLAN_TAG_SIZE;
        if (length < ipOffset)
        {
            return false;
        }
        etherType = ReadU16(frame + ipOffset - 2);
    }
    if (etherType != ETHER_TYPE_IPV4 || length < ipOffset + IPV4_MIN_HEADER_SIZE)
    {
        return false;
    }
    const uint8_t* ip = frame + ipOffset;
    uint8_t version = ip[IPV4_VERSION_IHL] >> 4;
    uint32_t headerSize = uint32_t{ip[IPV4_VERSION_IHL] & 0x0Fu} * 4;
    if (version != 4 || headerSize < IPV4_MIN_HEADER_SIZE)
    {
        return false;
    }
    uint8_t protocol = ip[IPV4_PROTOCOL];
    bool hasPorts =
        (protocol == FlowFiveTuple::PROTOCOL_UDP || protocol == FlowFiveTuple::PROTOCOL_TCP) &&
        (ReadU16(ip + IPV4_FRAGMENT) & IPV4_FRAGMENT_OFFSET_MASK) == 0;
    uint16_t sourcePort = 0;
    uint16_t destinationPort = 0;
    if (hasPorts)
    {
        if (length < ipOffset + headerSize + PORTS_SIZE)
        {
            return false;
        }
        sourcePort = ReadU16(ip + headerSize);
        destinationPort = ReadU16(ip + headerSize + 2);
    }
    out.source = ReadU32(ip + IPV4_SOURCE);
    out.destination = ReadU32(ip + IPV4_DESTINATION);
    out.sourcePort = sourcePort;
    out.destinationPort = destinationPort;
    out.protocol = protocol;
    return true;
}

} // namespace ns3
