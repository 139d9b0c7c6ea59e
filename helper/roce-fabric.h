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

    /**
     * A link of the fabric as the topology helper built it. Its ends are numbered as the
     * topology helper numbers nodes: hosts 0..GetNHosts()-1 by host index, then switches by
     * switch index (GetNHosts() + i).
     */
    struct Link
    {
        uint32_t a;              //!< one end (node number)
        uint32_t portA;          //!< its port number (switch port; 0 for a host)
        Ptr<RoceNetDevice> devA; //!< its device
        uint32_t b;              //!< other end (node number)
        uint32_t portB;          //!< its port number
        Ptr<RoceNetDevice> devB; //!< its device
    };

    /**
     * Record a link (the topology helper does, in build order).
     * @param link the link.
     * @return its link index.
     */
    uint32_t AddLink(const Link& link);

    /// @return the number of links recorded.
    uint32_t GetNLinks() const;

    /**
     * @param i link index.
     * @return the link.
     */
    const Link& GetLink(uint32_t i) const;

    /**
     * @param node a node number (hosts, then switches).
     * @return "host<i>" for host i, else the switch's name.
     */
    std::string GetNodeName(uint32_t node) const;

    /**
     * @param name "host<i>" or a switch name.
     * @param node receives its node number.
     * @return true if the name is known.
     */
    bool FindNode(const std::string& name, uint32_t& node) const;

    /**
     * The links between two nodes, in build order (several when links are parallel).
     * @param x a node number.
     * @param y another.
     * @return their link indices.
     */
    std::vector<uint32_t> FindLinks(uint32_t x, uint32_t y) const;

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
    std::vector<Link> m_links;                     //!< links, in build order
};

} // namespace ns3

#endif /* ROCE_FABRIC_H */
