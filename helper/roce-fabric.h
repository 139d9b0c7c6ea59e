/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_FABRIC_H
#define ROCE_FABRIC_H

#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-switch.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief A built RoCE fabric: its hosts (each with one port and an IPv4 address) and its
 * switches, as RoceTopologyHelper returns it.
 */
class RoceFabric
{
  public:
    /**
     * Record a host.
     * @param node the host.
     * @param device its port.
     * @param address its IPv4 address.
     * @return its host index.
     */
    uint32_t AddHost(Ptr<Node> node, Ptr<RoceNetDevice> device, Ipv4Address address);

    /**
     * Record a switch.
     * @param node the switch node.
     * @param sw the switch aggregated to it.
     * @param name a name such as "leaf2" or "spine0".
     * @return its switch index.
     */
    uint32_t AddSwitch(Ptr<Node> node, Ptr<RoceSwitch> sw, const std::string& name);

    /// @return the number of hosts.
    uint32_t GetNHosts() const;
    /**
     * @param i host index.
     * @return the host.
     */
    Ptr<Node> GetHost(uint32_t i) const;
    /**
     * @param i host index.
     * @return its port.
     */
    Ptr<RoceNetDevice> GetHostDevice(uint32_t i) const;
    /**
     * @param i host index.
     * @return its IPv4 address.
     */
    Ipv4Address GetHostAddress(uint32_t i) const;
    /**
     * @param i host index.
     * @return its MAC address.
     */
    Mac48Address GetHostMac(uint32_t i) const;
    /// @return every host.
    NodeContainer GetHosts() const;

    /// @return the number of switches.
    uint32_t GetNSwitches() const;
    /**
     * @param i switch index.
     * @return the switch.
     */
    Ptr<RoceSwitch> GetSwitch(uint32_t i) const;
    /**
     * @param i switch index.
     * @return its node.
     */
    Ptr<Node> GetSwitchNode(uint32_t i) const;
    /**
     * @param i switch index.
     * @return its name.
     */
    const std::string& GetSwitchName(uint32_t i) const;

    /// @return every device of the fabric (host ports and switch ports).
    NetDeviceContainer GetAllDevices() const;

    /**
     * Assign fixed random variable streams to every switch, in order.
     * @param stream first stream index.
     * @return the number of streams used.
     */
    int64_t AssignStreams(int64_t stream) const;

    /**
     * Check every switch's MMU against its ports (their rates and link delays), as the switch
     * does when the simulation starts, where it would abort: call it after building to report a
     * buffer too small for its headroom, or thresholds out of order, on one line.
     * @return "" or "SWITCH: problem".
     */
    std::string CheckSwitches() const;

  private:
    std::vector<Ptr<Node>> m_hosts;                //!< hosts
    std::vector<Ptr<RoceNetDevice>> m_hostDevices; //!< their ports
    std::vector<Ipv4Address> m_hostAddresses;      //!< their addresses
    std::vector<Ptr<Node>> m_switchNodes;          //!< switch nodes
    std::vector<Ptr<RoceSwitch>> m_switches;       //!< switches
    std::vector<std::string> m_switchNames;        //!< their names
};

} // namespace ns3

#endif /* ROCE_FABRIC_H */
