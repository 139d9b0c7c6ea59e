/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-five-tuple.h"

#include "ns3/log.h"

#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowFiveTuple");

FlowFiveTuple::FlowFiveTuple()
    : source(Ipv4Address(uint32_t{0})),
      destination(Ipv4Address(uint32_t{0})),
      sourcePort(0),
      destinationPort(0),
      protocol(0)
{
}

FlowFiveTuple::FlowFiveTuple(Ipv4Address source,
                             Ipv4Address destination,
                             uint16_t sourcePort,
                             uint16_t destinationPort,
                             uint8_t protocol)
    : source(source),
      destination(destination),
      sourcePort(sourcePort),
      destinationPort(destinationPort),
      protocol(protocol)
{
}

bool
operator==(const FlowFiveTuple& a, const FlowFiveTuple& b)
{
    return a.source == b.source && a.destination == b.destination && a.sourcePort == b.sourcePort &&
           a.destinationPort == b.destinationPort && a.protocol == b.protocol;
}

bool
operator!=(const FlowFiveTuple& a, const FlowFiveTuple& b)
{
    return !(a == b);
}

bool
operator<(const FlowFiveTuple& a, const FlowFiveTuple& b)
{
    return std::make_tuple(a.source.Get(),
                           a.destination.Get(),
                           a.protocol,
                           a.sourcePort,
                           a.destinationPort) < std::make_tuple(b.source.Get(),
                                                                b.destination.Get(),
                                                                b.protocol,
                                                                b.sourcePort,
                                                                b.destinationPort);
}

std::ostream&
operator<<(std::ostream& os, const FlowFiveTuple& tuple)
{
    os << tuple.source << ":" << tuple.sourcePort << " > " << tuple.destination << ":"
       << tuple.destinationPort << " proto " << static_cast<uint32_t>(tuple.protocol);
    return os;
}

} // namespace ns3
