/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_SOURCE_HELPER_H
#define ROCE_SOURCE_HELPER_H

#include "roce-fabric.h"

#include "ns3/attribute.h"
#include "ns3/object-factory.h"
#include "ns3/roce-constant-rate-source.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Installs RoceConstantRateSource applications between the hosts of a RoceFabric.
 *
 * The attributes set on the helper (DataRate, PayloadSize, MaxPackets, Dscp, Ect,
 * DestinationQp, ...) go to every source it installs; Install fills in what depends on the pair
 * of hosts (Local, Remote, RemoteMac) and the flow's UDP source port, and adds the source to the
 * sending host's node. A source starts at time 0 unless its start time is changed.
 */
class RoceSourceHelper
{
  public:
    RoceSourceHelper();

    /**
     * Set an attribute of the sources installed from now on.
     * @param name an attribute of ns3::RoceConstantRateSource.
     * @param value its value.
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Install a source on one host of a fabric, sending to another.
     * @param fabric the fabric.
     * @param from the sending host.
     * @param to the receiving host.
     * @param udpSourcePort the flow's UDP source port (its ECMP entropy).
     * @return the source.
     */
    Ptr<RoceConstantRateSource> Install(const RoceFabric& fabric,
                                        uint32_t from,
                                        uint32_t to,
                                        uint16_t udpSourcePort) const;

  private:
    ObjectFactory m_factory; //!< makes the sources
};

} // namespace ns3

#endif /* ROCE_SOURCE_HELPER_H */
