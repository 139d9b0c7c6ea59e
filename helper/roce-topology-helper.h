/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_TOPOLOGY_HELPER_H
#define ROCE_TOPOLOGY_HELPER_H

#include "roce-fabric.h"
#include "roce-link-helper.h"

#include "ns3/data-rate.h"
#include "ns3/egress-stage.h"
#include "ns3/load-balancer.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/type-id-alias.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Builds RoCE fabrics: a star (hosts on one switch) and a two-tier leaf-spine; installs
 * devices, links, switches with their MMUs, host addresses (10.0.0.1 upwards, in host order)
 * and equal-cost host routes computed from the topology (EqualCostRoutes, Boost.Graph).
 *
 * Every switch gets its own load balancer (SetLoadBalancer; ECMP by default) and its own ECMP
 * seed (derived from SetEcmpSeedBase and its index), so tiers do not polarize, and its own
 * egress stages (AddEgressStage).
 */
class RoceTopologyHelper
{
  public:
    /// Shape of a leaf-spine fabric.
    struct LeafSpineConfig
    {
        uint32_t hostsPerLeaf{4};                 //!< hosts under each leaf
        uint32_t leaves{2};                       //!< leaf switches
        uint32_t spines{2};                       //!< spine switches, each linked to every leaf
        DataRate hostRate{DataRate("100Gbps")};   //!< host-leaf link rate
        Time hostDelay{MicroSeconds(1)};          //!< host-leaf link delay
        DataRate fabricRate{DataRate("100Gbps")}; //!< leaf-spine link rate
        Time fabricDelay{MicroSeconds(1)};        //!< leaf-spine link delay
    };

    RoceTopologyHelper();

    /**
     * Set an attribute of every device created.
     * @param name attribute of ns3::RoceNetDevice (DataRate is set per tier instead).
     * @param value its value.
     */
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Set an attribute of every switch created.
     * @param name attribute of ns3::RoceSwitch.
     * @param value its value.
     */
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Set an attribute of every switch's MMU.
     * @param name attribute of ns3::SwitchMmu.
     * @param value its value.
     */
    void SetMmuAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Set the switch buffer and ECN marking of every MMU from command-line style values, and
     * make priority 3 lossless or not (LosslessPriorities 0x08 or 0).
     * @param buffer Buffer, a size such as "12MB".
     * @param kmin Kmin, a size.
     * @param kmax Kmax, a size.
     * @param pmax Pmax.
     * @param lossless priority 3 uses PFC.
     * @return "" or which value is not a size, e.g. "Kmin: 'x' is not a size such as 300KB".
     */
    std::string SetMmuBufferAndEcn(const std::string& buffer,
                                   const std::string& kmin,
                                   const std::string& kmax,
                                   double pmax,
                                   bool lossless);

    /**
     * @param seedBase base of the per-switch ECMP seeds (default 0). Switch i (in build order)
     * gets seedBase + 0x9E3779B9 x (i + 1) (modulo 2^32) as the Seed of its load balancer, if
     * the balancer has an integer attribute named Seed (EcmpLoadBalancer has).
     */
    void SetEcmpSeedBase(uint32_t seedBase);

    /**
     * Give every switch built from now on a new load balancer of this type (the switch's
     * LoadBalancer attribute), created with these attributes; its Seed, if it has one, is then
     * set per switch (SetEcmpSeedBase). Without a call, switches keep their default
     * EcmpLoadBalancer, seeded the same way.
     *
     * This is the one call behind a scenario's `topology.load_balancer` key:
     * @code
     * std::string problem = topo.SetLoadBalancer(name); // "ecmp", "spray", "ns3::MyBalancer"
     * if (!problem.empty()) { report "topology.load_balancer: " + problem }
     * @endcode
     *
     * @tparam Ts attribute name (std::string) and value (AttributeValue) pairs.
     * @param typeOrAlias an alias ("ecmp", "spray"), a TypeId name ("ns3::SprayLoadBalancer")
     *        or the same without "ns3::": a constructible subclass of LoadBalancer.
     * @param args attributes of the balancer, as name, value, name, value... (a wrong name or
     *        value aborts, as ObjectFactory::Set does).
     * @return "" or, for a name that is not a load balancer, why (TypeIdAlias::Resolve's
     *         message, listing the known aliases); nothing changes then.
     */
    template <typename... Ts>
    std::string SetLoadBalancer(const std::string& typeOrAlias, Ts&&... args);

    /**
     * Append an egress stage to every switch built from now on: a new object per switch,
     * created with these attributes, after the switch's EcnMarker (RoceSwitch::EcnEnabled) and
     * the stages added before.
     * @tparam Ts attribute name (std::string) and value (AttributeValue) pairs.
     * @param typeOrAlias an alias ("ecn"), a TypeId name or the same without "ns3::": a
     *        constructible subclass of EgressStage.
     * @param args attributes of the stage, as name, value, name, value...
     * @return "" or, for a name that is not an egress stage, why; nothing changes then.
     */
    template <typename... Ts>
    std::string AddEgressStage(const std::string& typeOrAlias, Ts&&... args);

    /// @return the link helper, for pcap and ascii tracing of the devices built.
    RoceLinkHelper& GetLinkHelper();

    /**
     * N hosts on one switch.
     * @param hosts number of hosts (at least 2).
     * @param rate link rate.
     * @param delay link delay.
     * @return the fabric; the switch is "switch0".
     */
    RoceFabric BuildStar(uint32_t hosts, DataRate rate, Time delay);

    /**
     * A two-tier leaf-spine: hosts 0..hostsPerLeaf-1 under leaf0, and so on; every leaf linked
     * to every spine. Switches are leaf0..leafL-1 then spine0..spineS-1.
     * @param config the shape; CheckLeafSpine must accept it.
     * @return the fabric.
     */
    RoceFabric BuildLeafSpine(const LeafSpineConfig& config);

    /**
     * A leaf-spine shape whose links of a tier share a rate and whose links all share a delay.
     * @param hostsPerLeaf hosts under each leaf.
     * @param leaves leaf switches.
     * @param spines spine switches.
     * @param hostRate rate of the host-leaf links.
     * @param fabricRate rate of the leaf-spine links.
     * @param delay delay of every link.
     * @return the shape.
     */
    static LeafSpineConfig MakeLeafSpine(uint32_t hostsPerLeaf,
                                         uint32_t leaves,
                                         uint32_t spines,
                                         DataRate hostRate,
                                         DataRate fabricRate,
                                         Time delay);

    /**
     * Check a leaf-spine shape.
     * @param config the shape.
     * @return "" or the problem, naming the field and its value.
     */
    static std::string CheckLeafSpine(const LeafSpineConfig& config);

    /**
     * The oversubscription of the leaves: host bandwidth into a leaf over its uplink bandwidth.
     * @param config the shape.
     * @return hostsPerLeaf x hostRate / (spines x fabricRate).
     */
    static double GetOversubscription(const LeafSpineConfig& config);

    /// A link to install: (graph node, graph node, rate, delay).
    struct PendingLink
    {
        uint32_t a;    //!< one end (graph id)
        uint32_t b;    //!< other end (graph id)
        DataRate rate; //!< rate
        Time delay;    //!< delay
    };

    /**
     * Build any topology: create the nodes, devices, links, switches, addresses and routes.
     * Graph ids 0..hosts-1 are the hosts (host i gets 10.0.0.1 + i), hosts.. the switches in
     * the order of @p switchNames. Every host must have exactly one link. A switch's ports are
     * numbered in the order of @p links. Routes are the equal-cost shortest paths between
     * hosts; a switch gets no route to a host it cannot reach (for instance a host of another,
     * unconnected part of the topology), and drops what is sent there as no-route.
     * @param hosts number of hosts (graph ids 0..hosts-1).
     * @param switchNames names of the switches (graph ids hosts..).
     * @param links the links; aborts if an end is not a graph id or both ends are the same.
     * @return the fabric.
     */
    RoceFabric Build(uint32_t hosts,
                     const std::vector<std::string>& switchNames,
                     const std::vector<PendingLink>& links);

  private:
    /**
     * Give a new switch its load balancer and egress stages, and seed its balancer.
     * @param sw the switch.
     * @param index its index among the switches.
     */
    void ConfigureSwitch(Ptr<RoceSwitch> sw, uint32_t index) const;

    RoceLinkHelper m_linkHelper;                                              //!< makes links
    ObjectFactory m_switchFactory;                                            //!< makes switches
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_mmuAttributes; //!< for MMUs
    uint32_t m_seedBase;                                                      //!< ECMP seed base
    bool m_setLoadBalancer;                      //!< SetLoadBalancer was called
    ObjectFactory m_loadBalancerFactory;         //!< makes load balancers
    std::vector<ObjectFactory> m_stageFactories; //!< make egress stages, in order
};

template <typename... Ts>
std::string
RoceTopologyHelper::SetLoadBalancer(const std::string& typeOrAlias, Ts&&... args)
{
    TypeId tid;
    std::string problem = TypeIdAlias::Resolve(LoadBalancer::GetTypeId(), typeOrAlias, tid);
    if (!problem.empty())
    {
        return problem;
    }
    m_loadBalancerFactory = ObjectFactory();
    m_loadBalancerFactory.SetTypeId(tid);
    m_loadBalancerFactory.Set(std::forward<Ts>(args)...);
    m_setLoadBalancer = true;
    return "";
}

template <typename... Ts>
std::string
RoceTopologyHelper::AddEgressStage(const std::string& typeOrAlias, Ts&&... args)
{
    TypeId tid;
    std::string problem = TypeIdAlias::Resolve(EgressStage::GetTypeId(), typeOrAlias, tid);
    if (!problem.empty())
    {
        return problem;
    }
    ObjectFactory factory;
    factory.SetTypeId(tid);
    factory.Set(std::forward<Ts>(args)...);
    m_stageFactories.push_back(factory);
    return "";
}

} // namespace ns3

#endif /* ROCE_TOPOLOGY_HELPER_H */
