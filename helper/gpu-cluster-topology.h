/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GPU_CLUSTER_TOPOLOGY_H
#define GPU_CLUSTER_TOPOLOGY_H

#include "roce-fabric.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>

namespace ns3
{

class RoceTopologyHelper;

/**
 * @ingroup llm-fabric
 * @brief The scale-out network of a GPU cluster: which RDMA NICs the GPUs of each server use,
 * and the switched fabric between those NICs (leaf-spine, rail-optimized or a three-tier
 * fat-tree, in one or several planes), built as a RoceFabric by RoceTopologyHelper.
 *
 * <b>Servers, GPUs and NICs.</b> The cluster has S servers of G GPUs (given to Check, SetCluster
 * and Build; they come from the scenario's cluster section). A server has N NICs
 * (NicsPerServer; 0 means one per GPU, N = G), and N must divide G: GPU l of a server uses its
 * NIC l x N / G (integer division), so consecutive GPUs share a NIC. Every NIC is one host of
 * the RoceFabric; NIC n of server s is host s x N + n (GetNicOfGpu), whatever the kind and the
 * number of planes. NIC n of every server is on "rail" n.
 *
 * <b>Kinds</b> (Kind):
 * - leaf-spine: the NICs of a plane fill leaves of ServersPerLeaf x N' ports in host order
 *   (N' = NICs per server in the plane, N / Planes), so a server's NICs share a leaf; the last
 *   leaf may be partly used. Every leaf is linked to every spine, once. ServersPerLeaf 0 puts
 *   all servers under one leaf.
 * - rail-optimized: NIC r of every server connects to a leaf of rail r; the servers of a rail
 *   fill its leaves ServersPerLeaf at a time, in server order (0: all servers on one leaf per
 *   rail). If the plane has more than one leaf in all, every leaf of every rail is linked to
 *   every spine, so traffic between rails or between leaves of a rail goes leaf-spine-leaf,
 *   and traffic between two servers of the same rail leaf crosses that leaf only.
 * - fat-tree: the three-tier k-ary fat-tree of Al-Fares, Loukissas and Vahdat (SIGCOMM 2008),
 *   k = FatTreeK (even, at least 2; 0 = the smallest that holds the NICs of a plane): k pods of
 *   k/2 edge and k/2 aggregation switches, every edge linked to every aggregation switch of its
 *   pod; (k/2)^2 core switches, core j x k/2 + i linked to aggregation switch j of every pod. An
 *   edge has k/2 NIC ports, so the tree holds up to k^3/4 NICs, filled in host order (a
 *   server's NICs contiguous); the tree is always built whole, unused edge ports stay empty.
 *   ServersPerLeaf and Spines do not apply.
 *
 * For leaf-spine and rail-optimized, a plane with a single leaf has no spine (Spines does not
 * apply); otherwise Spines 0 means the fewest spines that make a full leaf non-blocking,
 * ceil(ports down x HostRate / FabricRate).
 *
 * <b>Planes.</b> With Planes P > 1 (P must divide N), NIC n of a server belongs to plane
 * n mod P, and each plane is its own, independent copy of the chosen fabric, built over the NICs
 * of that plane only (N / P per server): there is no link between planes, so a NIC cannot reach
 * a NIC of another plane through the network (no switch has a route to it, and a frame sent
 * there is dropped as no-route by the first switch). Inside a server, GPUs reach another plane
 * through NVLink, as in multi-plane rail designs, and the training model must route their
 * traffic so. Spines and FatTreeK are per plane; the counts of GetNumberOfSwitches and
 * GetNumberOfLinks are totals over the planes.
 *
 * <b>Switches</b> are named "leaf3", "spine2" (leaf-spine), "rail3-leaf1", "spine2"
 * (rail-optimized), "pod1-edge0", "pod1-agg0", "core3" (fat-tree), with a "planeP-" prefix when
 * there are several planes ("plane1-spine0"). In the RoceFabric they come plane by plane; in a
 * plane, the lowest tier first (leaves in order, rail by rail; or edges pod by pod), then spines
 * (or aggregation switches pod by pod), then cores. A switch's ports are numbered in the order
 * its links are made: NIC links in host order, then leaf-spine (edge-aggregation) links leaf
 * by leaf, then aggregation-core links pod by pod. So a leaf's ports are its NICs, then spines
 * 0, 1...; a spine's, leaves 0, 1...; an aggregation switch's, the edges of its pod, then its
 * cores; a core's, pods 0, 1...
 *
 * <b>Links</b>: HostRate/HostDelay between a NIC and its leaf or edge, FabricRate/FabricDelay
 * between a leaf and a spine or an edge and an aggregation switch, CoreRate/CoreDelay between
 * an aggregation and a core switch. Routes are RoceTopologyHelper's equal-cost shortest paths.
 *
 * Configuration problems are reported by Check, naming the YAML key of the scenario's topology
 * section and the values ("nics_per_server: 3 does not divide gpus_per_server 8").
 */
class GpuClusterTopology : public Object
{
  public:
    /// The shape of the fabric of a plane.
    enum Kind
    {
        LEAF_SPINE,     //!< leaves of consecutive NICs, every leaf linked to every spine
        RAIL_OPTIMIZED, //!< one leaf group per rail (NIC index of the server), spines above
        FAT_TREE        //!< three-tier k-ary fat-tree
    };

    /// A tier of switches.
    enum Tier
    {
        LEAF_TIER,  //!< leaves, rail leaves or fat-tree edge switches (the NICs' switches)
        SPINE_TIER, //!< spines, or fat-tree aggregation switches
        CORE_TIER   //!< fat-tree core switches
    };

    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    GpuClusterTopology();
    ~GpuClusterTopology() override;

    GpuClusterTopology(const GpuClusterTopology&) = delete;
    GpuClusterTopology& operator=(const GpuClusterTopology&) = delete;

    /**
     * @param kind a kind.
     * @return its name, as in the Kind attribute and YAML: "leaf-spine", "rail-optimized" or
     *         "fat-tree".
     */
    static std::string GetKindName(Kind kind);

    /**
     * @param name a kind's name.
     * @param[out] kind the kind, if the name is known.
     * @return "" or "unknown kind 'NAME' (known: leaf-spine, rail-optimized, fat-tree)".
     */
    static std::string ParseKind(const std::string& name, Kind& kind);

    /**
     * The servers per leaf of the topology a scenario gets without a topology section: one
     * switch per rail when the servers fit on one, else leaves of MAX_DEFAULT_SERVERS_PER_LEAF.
     * @param servers the number of servers.
     * @return 0 (all servers on one leaf) if servers <= MAX_DEFAULT_SERVERS_PER_LEAF, else
     *         MAX_DEFAULT_SERVERS_PER_LEAF.
     */
    static uint32_t GetDefaultServersPerLeaf(uint32_t servers);

    /**
     * The most servers under one leaf by default: half the 128 ports of a 51.2 Tb/s switch at
     * 400 Gb/s, the other half going up to the spines.
     */
    static constexpr uint32_t MAX_DEFAULT_SERVERS_PER_LEAF = 64;

    /**
     * Check the attributes against a cluster.
     * @param servers number of servers, S.
     * @param gpusPerServer GPUs per server, G.
     * @return "" or the first problem, naming the YAML key and values, e.g. "fat_tree_k: 4
     *         holds 16 NICs, the cluster has 128".
     */
    std::string Check(uint32_t servers, uint32_t gpusPerServer) const;

    /**
     * Record the cluster the queries below describe, if Check accepts it.
     * @param servers number of servers.
     * @param gpusPerServer GPUs per server.
     * @return Check's answer; the cluster is recorded only if it is "".
     */
    std::string SetCluster(uint32_t servers, uint32_t gpusPerServer);

    /**
     * Record the cluster (aborting with Check's message if it is not valid) and build its
     * fabric with @p helper, which supplies the device, switch and MMU attributes.
     * @param helper the builder.
     * @param servers number of servers.
     * @param gpusPerServer GPUs per server.
     * @return the fabric: host i is NIC i (see GetNicOfGpu), switches as described above.
     */
    RoceFabric Build(RoceTopologyHelper& helper, uint32_t servers, uint32_t gpusPerServer);

    /// @return true once a cluster is recorded (SetCluster or Build).
    bool HasCluster() const;

    // The queries below describe the recorded cluster with the current attributes; they abort
    // if no cluster is recorded or the attributes changed into an invalid configuration.

    /// @return the number of servers recorded.
    uint32_t GetServers() const;
    /// @return the GPUs per server recorded.
    uint32_t GetGpusPerServer() const;
    /// @return the NICs per server in effect (NicsPerServer, or G if it is 0).
    uint32_t GetNicsPerServerInEffect() const;
    /// @return the number of NICs, the fabric's hosts: servers x NICs per server.
    uint32_t GetNumberOfNics() const;

    /**
     * @param server a server.
     * @param localGpu a GPU of the server, 0 .. G-1.
     * @return the host index of its NIC in the fabric: server x N + localGpu x N / G.
     */
    uint32_t GetNicOfGpu(uint32_t server, uint32_t localGpu) const;

    /**
     * @param nic a host index.
     * @return its server.
     */
    uint32_t GetServerOfNic(uint32_t nic) const;

    /**
     * @param nic a host index.
     * @return its rail: its index among its server's NICs.
     */
    uint32_t GetRailOfNic(uint32_t nic) const;

    /**
     * @param nic a host index.
     * @return its plane: its rail mod Planes.
     */
    uint32_t GetPlaneOfNic(uint32_t nic) const;

    /**
     * @param nic a host index.
     * @return the index in the fabric of the switch it is linked to (its leaf or edge).
     */
    uint32_t GetLeafOfNic(uint32_t nic) const;

    /**
     * @param tier a tier.
     * @return the number of its switches, all planes together.
     */
    uint32_t GetNumberOfSwitches(Tier tier) const;

    /// @return the number of switches, all tiers and planes together.
    uint32_t GetNumberOfSwitches() const;

    /**
     * @param tier the upper tier of the links counted: LEAF_TIER for NIC links, SPINE_TIER for
     *        leaf-spine or edge-aggregation links, CORE_TIER for aggregation-core links.
     * @return their number, all planes together.
     */
    uint64_t GetNumberOfLinks(Tier tier) const;

    /// @return the spines per plane in effect (0 for a fat-tree or a plane of one leaf).
    uint32_t GetSpinesInEffect() const;

    /// @return the fat-tree k in effect (0 for the other kinds).
    uint32_t GetFatTreeKInEffect() const;

    /**
     * The oversubscription of the fabric, traffic in from the NICs over capacity up.
     * Leaf-spine and rail-optimized: per full leaf, ports down x HostRate / (spines x
     * FabricRate); 1 when a plane has a single leaf (a switch on its own blocks nothing).
     * Fat-tree (as many links up as down at every tier): max(HostRate / FabricRate, HostRate /
     * CoreRate).
     * @return the ratio (2 for 2:1).
     */
    double GetOversubscription() const;

    /**
     * @return one line, e.g. "rail-optimized, 16 servers x 8 NICs, 8 rails x 2 leaves,
     *         4 spines, 400 Gb/s, 2:1"; with planes, the per-plane shape is written
     *         "2 planes x (4 rails x 2 leaves, 4 spines)".
     */
    std::string Describe() const;

  private:
    /// Everything derived from the attributes and a cluster; counts per plane.
    struct Shape
    {
        std::string problem;             //!< "" or what is wrong
        uint32_t servers{0};             //!< S
        uint32_t gpusPerServer{0};       //!< G
        uint32_t nicsPerServer{0};       //!< N
        uint32_t planes{1};              //!< P
        uint32_t nicsPerPlane{0};        //!< N / P, per server
        uint64_t hostsPerPlane{0};       //!< S x N / P
        uint32_t serversPerLeaf{0};      //!< leaf-spine, rail-optimized: in effect (<= S)
        uint32_t rails{0};               //!< rail-optimized: rails per plane
        uint32_t leavesPerRail{0};       //!< rail-optimized: leaves per rail
        uint32_t leafPorts{0};           //!< NIC ports of a full leaf (edge: k/2)
        uint32_t leaves{0};              //!< leaf tier switches per plane
        uint32_t spines{0};              //!< spine tier switches per plane
        uint32_t cores{0};               //!< core switches per plane
        uint32_t k{0};                   //!< fat-tree k
        uint64_t fabricLinksPerPlane{0}; //!< leaf-spine or edge-aggregation links
        uint64_t coreLinksPerPlane{0};   //!< aggregation-core links
    };

    /**
     * @param servers S.
     * @param gpusPerServer G.
     * @return the shape, or a shape whose problem says what is wrong.
     */
    Shape ComputeShape(uint32_t servers, uint32_t gpusPerServer) const;

    /**
     * @return the shape of the recorded cluster; aborts if there is none or it is invalid.
     * @param what the calling function, for the message.
     */
    Shape GetShape(const char* what) const;

    /**
     * @param shape a shape.
     * @param nic a host index.
     * @return the index of its leaf among the switches of its plane.
     */
    uint32_t LeafInPlane(const Shape& shape, uint64_t nic) const;

    /**
     * @param shape a shape.
     * @param leaf a leaf index in its plane.
     * @param plane the plane.
     * @return the switch name.
     */
    std::string LeafName(const Shape& shape, uint32_t leaf, uint32_t plane) const;

    Kind m_kind;               //!< Kind
    uint32_t m_nicsPerServer;  //!< NicsPerServer (0: one per GPU)
    uint32_t m_planes;         //!< Planes
    uint32_t m_serversPerLeaf; //!< ServersPerLeaf (0: all)
    uint32_t m_spines;         //!< Spines (0: non-blocking)
    uint32_t m_fatTreeK;       //!< FatTreeK (0: smallest that fits)
    DataRate m_hostRate;       //!< HostRate
    Time m_hostDelay;          //!< HostDelay
    DataRate m_fabricRate;     //!< FabricRate
    Time m_fabricDelay;        //!< FabricDelay
    DataRate m_coreRate;       //!< CoreRate
    Time m_coreDelay;          //!< CoreDelay
    uint32_t m_servers;        //!< recorded cluster: servers (0: none)
    uint32_t m_gpusPerServer;  //!< recorded cluster: GPUs per server
};

} // namespace ns3

#endif /* GPU_CLUSTER_TOPOLOGY_H */
