/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_FIVE_TUPLE_H
#define FLOW_FIVE_TUPLE_H

#include "ns3/ipv4-address.h"

#include <cstdint>
#include <ostream>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * The 5-tuple that identifies a transport flow: IPv4 source and destination addresses, the
 * transport protocol number and the source and destination ports.
 *
 * A plain value type with public fields, as a switch reads it out of a frame (see
 * EcmpHash::ExtractFromFrame) and hashes it to choose among equal-cost paths. For a RoCEv2 flow
 * the protocol is UDP (17), the destination port is 4791 and the source port is chosen per queue
 * pair by the sender, so that the queue pairs between one pair of hosts take different paths.
 * For protocols without ports, both ports are zero.
 */
class FlowFiveTuple
{
  public:
    /// IP protocol number of TCP.
    static constexpr uint8_t PROTOCOL_TCP = 6;
    /// IP protocol number of UDP.
    static constexpr uint8_t PROTOCOL_UDP = 17;

    /** Create a tuple with every field zero (addresses 0.0.0.0). */
    FlowFiveTuple();

    /**
     * Create a tuple from its fields.
     * @param source the IPv4 source address.
     * @param destination the IPv4 destination address.
     * @param sourcePort the transport source port.
     * @param destinationPort the transport destination port.
     * @param protocol the IP protocol number (PROTOCOL_UDP, PROTOCOL_TCP, ...).
     */
    FlowFiveTuple(Ipv4Address source,
                  Ipv4Address destination,
                  uint16_t sourcePort,
                  uint16_t destinationPort,
                  uint8_t protocol);

    Ipv4Address source;       ///< IPv4 source address.
    Ipv4Address destination;  ///< IPv4 destination address.
    uint16_t sourcePort;      ///< Transport source port (0 for protocols without ports).
    uint16_t destinationPort; ///< Transport destination port (0 for protocols without ports).
    uint8_t protocol;         ///< IP protocol number.
};

/**
 * @ingroup llm-fabric
 * @param a a tuple.
 * @param b another tuple.
 * @return true if every field of a equals the same field of b.
 */
bool operator==(const FlowFiveTuple& a, const FlowFiveTuple& b);

/**
 * @ingroup llm-fabric
 * @param a a tuple.
 * @param b another tuple.
 * @return true if some field of a differs from the same field of b.
 */
bool operator!=(const FlowFiveTuple& a, const FlowFiveTuple& b);

/**
 * @ingroup llm-fabric
 * A strict weak order over tuples (source, destination, protocol, source port, destination port,
 * compared in that order), so that tuples can key a std::map or be sorted.
 * @param a a tuple.
 * @param b another tuple.
 * @return true if a sorts before b.
 */
bool operator<(const FlowFiveTuple& a, const FlowFiveTuple& b);

/**
 * @ingroup llm-fabric
 * Print a tuple as "10.0.0.1:49152 > 10.0.0.2:4791 proto 17".
 * @param os the output stream.
 * @param tuple the tuple.
 * @return the output stream.
 */
std::ostream& operator<<(std::ostream& os, const FlowFiveTuple& tuple);

} // namespace ns3

#endif /* FLOW_FIVE_TUPLE_H */
