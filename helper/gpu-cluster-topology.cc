/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "gpu-cluster-topology.h"

#include "roce-topology-helper.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GpuClusterTopology");

NS_OBJECT_ENSURE_REGISTERED(GpuClusterTopology);

namespace
{

/// The names of the kinds, in the order of GpuClusterTopology::Kind.
const char* const KIND_NAMES[] = {"leaf-spine", "rail-optimized", "fat-tree"};

/// Hosts get 10.0.0.1 upwards: at most this many stay inside 10.0.0.0/8.
constexpr uint64_t MAX_HOSTS = (uint64_t{1} << 24) - 2;

/// Leaf-spine and rail-optimized fabrics with more spines per plane are not built.
constexpr uint64_t MAX_SPINES = 65536;

/// Fat-trees larger than this k are not built (5 k^2 / 4 switches per plane).
constexpr uint32_t MAX_FAT_TREE_K = 256;

/**
 * @param a a count.
 * @param b a positive count.
 * @return ceil(a / b).
 */
uint64_t
CeilDiv(uint64_t a, uint64_t b)
{
    return a / b + (a % b != 0 ? 1 : 0);
}

/**
 * @param ports NIC ports of a leaf.
 * @param hostRate their rate.
 * @param fabricRate the rate of a link to a spine.
 * @return the fewest spines whose links carry what the ports bring in: ceil(ports x hostRate /
 *         fabricRate), in integers when that cannot overflow.
 */
uint64_t
NonBlockingSpines(uint64_t ports, uint64_t hostRate, uint64_t fabricRate)
{
    uint64_t common = std::gcd(hostRate, fabricRate);
    uint64_t up = hostRate / common;
    uint64_t down = fabricRate / common;
    if (ports == 0 || up <= std::numeric_limits<uint64_t>::max() / ports)
    {
        return CeilDiv(ports * up, down);
    }
    return static_cast<uint64_t>(std::ceil(static_cast<double>(ports) * static_cast<double>(up) /
                                           static_cast<double>(down)));
}

/**
 * @param rate a rate.
 * @return it in Gb/s, as few digits as needed ("400 Gb/s", "12.5 Gb/s").
 */
std::string
FormatRate(const DataRate& rate)
{
    std::ostringstream text;
    text << static_cast<double>(rate.GetBitRate()) / 1e9 << " Gb/s";
    return text.str();
}

/**
 * @param count a count.
 * @param singular the noun for one.
 * @param plural the noun for several.
 * @return "1 leaf", "2 leaves".
 */
std::string
Count(uint64_t count, const char* singular, const char* plural)
{
    return std::to_string(count) + " " + (count == 1 ? singular : plural);
}

} // namespace

TypeId
GpuClusterTopology::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GpuClusterTopology")
            .SetParent<Object>()
            .SetGroupName("LlmFabric")
            .AddConstructor<GpuClusterTopology>()
            .AddAttribute(
                "Kind",
                "The shape of the fabric of a plane.",
                EnumValue(GpuClusterTopology::RAIL_OPTIMIZED),
                LLM_FABRIC_ENUM_ACCESSOR(GpuClusterTopology::Kind, &GpuClusterTopology::m_kind),
                MakeEnumChecker(GpuClusterTopology::LEAF_SPINE,
                                "leaf-spine",
                                GpuClusterTopology::RAIL_OPTIMIZED,
                                "rail-optimized",
                                GpuClusterTopology::FAT_TREE,
                                "fat-tree"))
            .AddAttribute("NicsPerServer",
                          "RDMA NICs per server, dividing the GPUs per server (GPU l uses NIC "
                          "l x N / G); 0 gives every GPU its own NIC.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&GpuClusterTopology::m_nicsPerServer),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Planes",
                          "Independent copies of the fabric; NIC n of a server is in plane n "
                          "mod Planes, and planes are not linked to each other.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&GpuClusterTopology::m_planes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ServersPerLeaf",
                          "Leaf-spine: servers whose NICs share a leaf; rail-optimized: servers "
                          "sharing a leaf of each rail. 0 puts all servers on one leaf.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&GpuClusterTopology::m_serversPerLeaf),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Spines",
                          "Spines per plane (leaf-spine, rail-optimized); 0 gives the fewest "
                          "that make a leaf non-blocking at the host and fabric rates.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&GpuClusterTopology::m_spines),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("FatTreeK",
                          "Fat-tree switch radix k, even and at least 2; 0 gives the smallest "
                          "whose k^3/4 NICs hold a plane.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&GpuClusterTopology::m_fatTreeK),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HostRate",
                          "Rate of a link between a NIC and its leaf or edge switch.",
                          DataRateValue(DataRate("400Gbps")),
                          MakeDataRateAccessor(&GpuClusterTopology::m_hostRate),
                          MakeDataRateChecker())
            .AddAttribute("HostDelay",
                          "Propagation delay of a link between a NIC and its switch.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&GpuClusterTopology::m_hostDelay),
                          MakeTimeChecker())
            .AddAttribute("FabricRate",
                          "Rate of a leaf-spine or edge-aggregation link.",
                          DataRateValue(DataRate("400Gbps")),
                          MakeDataRateAccessor(&GpuClusterTopology::m_fabricRate),
                          MakeDataRateChecker())
            .AddAttribute("FabricDelay",
                          "Propagation delay of a leaf-spine or edge-aggregation link.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&GpuClusterTopology::m_fabricDelay),
                          MakeTimeChecker())
            .AddAttribute("CoreRate",
                          "Rate of a fat-tree aggregation-core link.",
                          DataRateValue(DataRate("400Gbps")),
                          MakeDataRateAccessor(&GpuClusterTopology::m_coreRate),
                          MakeDataRateChecker())
            .AddAttribute("CoreDelay",
                          "Propagation delay of a fat-tree aggregation-core link.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&GpuClusterTopology::m_coreDelay),
                          MakeTimeChecker());
    return tid;
}

GpuClusterTopology::GpuClusterTopology()
    : m_kind(RAIL_OPTIMIZED),
      m_nicsPerServer(0),
      m_planes(1),
      m_serversPerLeaf(0),
      m_spines(0),
      m_fatTreeK(0),
      m_hostRate(DataRate("400Gbps")),
      m_hostDelay(MicroSeconds(1)),
      m_fabricRate(DataRate("400Gbps")),
      m_fabricDelay(MicroSeconds(1)),
      m_coreRate(DataRate("400Gbps")),
      m_coreDelay(MicroSeconds(1)),
      m_servers(0),
      m_gpusPerServer(0)
{
    NS_LOG_FUNCTION(this);
}

GpuClusterTopology::~GpuClusterTopology()
{
    NS_LOG_FUNCTION(this);
}

std::string
GpuClusterTopology::GetKindName(Kind kind)
{
    switch (kind)
    {
    case LEAF_SPINE:
    case RAIL_OPTIMIZED:
    case FAT_TREE:
        return KIND_NAMES[kind];
    }
    return "?";
}

std::string
GpuClusterTopology::ParseKind(const std::string& name, Kind& kind)
{
    for (Kind candidate : {LEAF_SPINE, RAIL_OPTIMIZED, FAT_TREE})
    {
        if (name == KIND_NAMES[candidate])
        {
            kind = candidate;
            return "";
        }
    }
    return "unknown kind '" + name + "' (known: leaf-spine, rail-optimized, fat-tree)";
}

uint32_t
GpuClusterTopology::GetDefaultServersPerLeaf(uint32_t servers)
{
    return servers <= MAX_DEFAULT_SERVERS_PER_LEAF ? 0 : MAX_DEFAULT_SERVERS_PER_LEAF;
}

GpuClusterTopology::Shape
GpuClusterTopology::ComputeShape(uint32_t servers, uint32_t gpusPerServer) const
{
    Shape s;
    std::ostringstream problem;
    s.servers = servers;
    s.gpusPerServer = gpusPerServer;
    s.planes = m_planes;
    s.nicsPerServer = m_nicsPerServer == 0 ? gpusPerServer : m_nicsPerServer;
    if (servers == 0)
    {
        problem << "the cluster has no server";
    }
    else if (gpusPerServer == 0)
    {
        problem << "gpus_per_server: 0 must be at least 1";
    }
    else if (gpusPerServer % s.nicsPerServer != 0)
    {
        problem << "nics_per_server: " << m_nicsPerServer << " does not divide gpus_per_server "
                << gpusPerServer;
    }
    else if (m_planes == 0 || s.nicsPerServer % m_planes != 0)
    {
        problem << "planes: " << m_planes << " does not divide " << s.nicsPerServer
                << " NICs per server";
    }
    else if (static_cast<uint64_t>(servers) * s.nicsPerServer > MAX_HOSTS)
    {
        problem << "the cluster has " << static_cast<uint64_t>(servers) * s.nicsPerServer
                << " NICs, more than the " << MAX_HOSTS << " addresses of 10.0.0.0/8";
    }
    else if (m_hostRate.GetBitRate() == 0)
    {
        problem << "host_rate: 0 must be positive";
    }
    else if (m_fabricRate.GetBitRate() == 0)
    {
        problem << "fabric_rate: 0 must be positive";
    }
    else if (m_coreRate.GetBitRate() == 0)
    {
        problem << "core_rate: 0 must be positive";
    }
    else if (m_hostDelay.IsStrictlyNegative())
    {
        problem << "host_delay: " << m_hostDelay.GetNanoSeconds() << "ns is negative";
    }
    else if (m_fabricDelay.IsStrictlyNegative())
    {
        problem << "fabric_delay: " << m_fabricDelay.GetNanoSeconds() << "ns is negative";
    }
    else if (m_coreDelay.IsStrictlyNegative())
    {
        problem << "core_delay: " << m_coreDelay.GetNanoSeconds() << "ns is negative";
    }
    if (!problem.str().empty())
    {
        s.problem = problem.str();
        return s;
    }
    s.nicsPerPlane = s.nicsPerServer / s.planes;
    s.hostsPerPlane = static_cast<uint64_t>(servers) * s.nicsPerPlane;
    switch (m_kind)
    {
    case LEAF_SPINE:
    case RAIL_OPTIMIZED: {
        s.serversPerLeaf =
            (m_serversPerLeaf == 0 || m_serversPerLeaf > servers) ? servers : m_serversPerLeaf;
        if (m_kind == LEAF_SPINE)
        {
            s.leafPorts = s.serversPerLeaf * s.nicsPerPlane;
            s.leaves = static_cast<uint32_t>(CeilDiv(s.hostsPerPlane, s.leafPorts));
        }
        else
        {
            s.rails = s.nicsPerPlane;
            s.leafPorts = s.serversPerLeaf;
            s.leavesPerRail = static_cast<uint32_t>(CeilDiv(servers, s.serversPerLeaf));
            s.leaves = s.rails * s.leavesPerRail;
        }
        if (s.leaves > 1)
        {
            uint64_t spines = m_spines != 0 ? m_spines
                                            : NonBlockingSpines(s.leafPorts,
                                                                m_hostRate.GetBitRate(),
                                                                m_fabricRate.GetBitRate());
            if (spines > MAX_SPINES)
            {
                s.problem = "spines: " + std::to_string(spines) + (m_spines == 0 ? " needed" : "") +
                            " is more than " + std::to_string(MAX_SPINES);
                return s;
            }
            s.spines = static_cast<uint32_t>(spines);
        }
        s.fabricLinksPerPlane = static_cast<uint64_t>(s.leaves) * s.spines;
        break;
    }
    case FAT_TREE: {
        uint64_t k = m_fatTreeK;
        if (k == 0)
        {
            k = 2;
            while (k * k * k / 4 < s.hostsPerPlane)
            {
                k += 2;
            }
        }
        std::ostringstream where;
        if (s.planes > 1)
        {
            where << "each of the " << s.planes << " planes has " << s.hostsPerPlane;
        }
        else
        {
            where << "the cluster has " << s.hostsPerPlane;
        }
        if (k % 2 != 0 || k < 2)
        {
            s.problem = "fat_tree_k: " + std::to_string(k) + " must be even and at least 2";
            return s;
        }
        if (k > MAX_FAT_TREE_K)
        {
            s.problem = "fat_tree_k: " + std::to_string(k) + (m_fatTreeK == 0 ? " needed, " : " ") +
                        "is more than " + std::to_string(MAX_FAT_TREE_K) + " (" + where.str() +
                        " NICs)";
            return s;
        }
        if (k * k * k / 4 < s.hostsPerPlane)
        {
            s.problem = "fat_tree_k: " + std::to_string(k) + " holds " +
                        std::to_string(k * k * k / 4) + " NICs, " + where.str();
            return s;
        }
        s.k = static_cast<uint32_t>(k);
        s.leafPorts = s.k / 2;
        s.leaves = s.k * s.k / 2;
        s.spines = s.k * s.k / 2;
        s.cores = s.k * s.k / 4;
        s.fabricLinksPerPlane = k * k * k / 4;
        s.coreLinksPerPlane = k * k * k / 4;
        break;
    }
    }
    return s;
}

std::string
GpuClusterTopology::Check(uint32_t servers, uint32_t gpusPerServer) const
{
    NS_LOG_FUNCTION(this << servers << gpusPerServer);
    return ComputeShape(servers, gpusPerServer).problem;
}

std::string
GpuClusterTopology::SetCluster(uint32_t servers, uint32_t gpusPerServer)
{
    NS_LOG_FUNCTION(this << servers << gpusPerServer);
    std::string problem = Check(servers, gpusPerServer);
    if (problem.empty())
    {
        m_servers = servers;
        m_gpusPerServer = gpusPerServer;
    }
    return problem;
}

bool
GpuClusterTopology::HasCluster() const
{
    return m_servers != 0;
}

GpuClusterTopology::Shape
GpuClusterTopology::GetShape(const char* what) const
{
    NS_ABORT_MSG_IF(m_servers == 0,
                    "GpuClusterTopology::" << what << ": no cluster (call SetCluster or Build)");
    Shape shape = ComputeShape(m_servers, m_gpusPerServer);
    NS_ABORT_MSG_IF(!shape.problem.empty(),
                    "GpuClusterTopology::" << what << ": " << shape.problem);
    return shape;
}

uint32_t
GpuClusterTopology::GetServers() const
{
    return GetShape("GetServers").servers;
}

uint32_t
GpuClusterTopology::GetGpusPerServer() const
{
    return GetShape("GetGpusPerServer").gpusPerServer;
}

uint32_t
GpuClusterTopology::GetNicsPerServerInEffect() const
{
    return GetShape("GetNicsPerServerInEffect").nicsPerServer;
}

uint32_t
GpuClusterTopology::GetNumberOfNics() const
{
    Shape s = GetShape("GetNumberOfNics");
    return s.servers * s.nicsPerServer;
}

uint32_t
GpuClusterTopology::GetNicOfGpu(uint32_t server, uint32_t localGpu) const
{
    Shape s = GetShape("GetNicOfGpu");
    NS_ABORT_MSG_IF(server >= s.servers || localGpu >= s.gpusPerServer,
                    "GpuClusterTopology::GetNicOfGpu: no GPU "
                        << localGpu << " on server " << server << " (" << s.servers
                        << " servers of " << s.gpusPerServer << " GPUs)");
    return server * s.nicsPerServer + localGpu * s.nicsPerServer / s.gpusPerServer;
}

uint32_t
GpuClusterTopology::GetServerOfNic(uint32_t nic) const
{
    Shape s = GetShape("GetServerOfNic");
    NS_ABORT_MSG_IF(nic >= s.servers * s.nicsPerServer,
                    "GpuClusterTopology::GetServerOfNic: no NIC " << nic);
    return nic / s.nicsPerServer;
}

uint32_t
GpuClusterTopology::GetRailOfNic(uint32_t nic) const
{
    Shape s = GetShape("GetRailOfNic");
    NS_ABORT_MSG_IF(nic >= s.servers * s.nicsPerServer,
                    "GpuClusterTopology::GetRailOfNic: no NIC " << nic);
    return nic % s.nicsPerServer;
}

uint32_t
GpuClusterTopology::GetPlaneOfNic(uint32_t nic) const
{
    return GetRailOfNic(nic) % m_planes;
}

uint32_t
GpuClusterTopology::LeafInPlane(const Shape& s, uint64_t nic) const
{
    uint64_t server = nic / s.nicsPerServer;
    uint64_t rail = nic % s.nicsPerServer;
    // The NIC's index among the NICs of its plane, in host order.
    uint64_t local = server * s.nicsPerPlane + rail / s.planes;
    switch (m_kind)
    {
    case RAIL_OPTIMIZED:
        return static_cast<uint32_t>((rail / s.planes) * s.leavesPerRail +
                                     server / s.serversPerLeaf);
    case LEAF_SPINE:
    case FAT_TREE:
        break;
    }
    return static_cast<uint32_t>(local / s.leafPorts);
}

uint32_t
GpuClusterTopology::GetLeafOfNic(uint32_t nic) const
{
    Shape s = GetShape("GetLeafOfNic");
    NS_ABORT_MSG_IF(nic >= s.servers * s.nicsPerServer,
                    "GpuClusterTopology::GetLeafOfNic: no NIC " << nic);
    uint32_t plane = (nic % s.nicsPerServer) % s.planes;
    return plane * (s.leaves + s.spines + s.cores) + LeafInPlane(s, nic);
}

uint32_t
GpuClusterTopology::GetNumberOfSwitches(Tier tier) const
{
    Shape s = GetShape("GetNumberOfSwitches");
    switch (tier)
    {
    case LEAF_TIER:
        return s.planes * s.leaves;
    case SPINE_TIER:
        return s.planes * s.spines;
    case CORE_TIER:
        return s.planes * s.cores;
    }
    return 0;
}

uint32_t
GpuClusterTopology::GetNumberOfSwitches() const
{
    Shape s = GetShape("GetNumberOfSwitches");
    return s.planes * (s.leaves + s.spines + s.cores);
}

uint64_t
GpuClusterTopology::GetNumberOfLinks(Tier tier) const
{
    Shape s = GetShape("GetNumberOfLinks");
    switch (tier)
    {
    case LEAF_TIER:
        return s.planes * s.hostsPerPlane;
    case SPINE_TIER:
        return s.planes * s.fabricLinksPerPlane;
    case CORE_TIER:
        return s.planes * s.coreLinksPerPlane;
    }
    return 0;
}

uint32_t
GpuClusterTopology::GetSpinesInEffect() const
{
    Shape s = GetShape("GetSpinesInEffect");
    return m_kind == FAT_TREE ? 0 : s.spines;
}

uint32_t
GpuClusterTopology::GetFatTreeKInEffect() const
{
    return GetShape("GetFatTreeKInEffect").k;
}

double
GpuClusterTopology::GetOversubscription() const
{
    Shape s = GetShape("GetOversubscription");
    double host = static_cast<double>(m_hostRate.GetBitRate());
    double fabric = static_cast<double>(m_fabricRate.GetBitRate());
    if (m_kind == FAT_TREE)
    {
        return std::max(host / fabric, host / static_cast<double>(m_coreRate.GetBitRate()));
    }
    if (s.spines == 0)
    {
        return 1.0;
    }
    return static_cast<double>(s.leafPorts) * host / (static_cast<double>(s.spines) * fabric);
}

std::string
GpuClusterTopology::Describe() const
{
    Shape s = GetShape("Describe");
    std::ostringstream text;
    text << KIND_NAMES[m_kind];
    if (m_kind == FAT_TREE)
    {
        text << " k=" << s.k;
    }
    text << ", " << Count(s.servers, "server", "servers") << " x "
         << Count(s.nicsPerServer, "NIC", "NICs");
    if (s.nicsPerServer != s.gpusPerServer)
    {
        text << " (" << Count(s.gpusPerServer, "GPU", "GPUs") << ")";
    }
    text << ", ";
    std::ostringstream plane;
    switch (m_kind)
    {
    case LEAF_SPINE:
        plane << Count(s.leaves, "leaf", "leaves") << " of " << Count(s.leafPorts, "port", "ports")
              << ", " << Count(s.spines, "spine", "spines");
        break;
    case RAIL_OPTIMIZED:
        plane << Count(s.rails, "rail", "rails") << " x "
              << Count(s.leavesPerRail, "leaf", "leaves") << ", "
              << Count(s.spines, "spine", "spines");
        break;
    case FAT_TREE:
        plane << s.leaves << " edge, " << s.spines << " aggregation, " << s.cores << " core";
        break;
    }
    if (s.planes > 1)
    {
        text << s.planes << " planes x (" << plane.str() << ")";
    }
    else
    {
        text << plane.str();
    }
    text << ", ";
    bool fabricDiffers = s.spines > 0 && m_fabricRate != m_hostRate;
    bool coreDiffers = m_kind == FAT_TREE && m_coreRate != m_hostRate;
    if (!fabricDiffers && !coreDiffers)
    {
        text << FormatRate(m_hostRate);
    }
    else
    {
        text << "hosts " << FormatRate(m_hostRate) << ", fabric " << FormatRate(m_fabricRate);
        if (m_kind == FAT_TREE)
        {
            text << ", core " << FormatRate(m_coreRate);
        }
    }
    text << ", " << GetOversubscription() << ":1";
    return text.str();
}

std::string
GpuClusterTopology::LeafName(const Shape& s, uint32_t leaf, uint32_t plane) const
{
    switch (m_kind)
    {
    case LEAF_SPINE:
        return "leaf" + std::to_string(leaf);
    case RAIL_OPTIMIZED:
        return "rail" + std::to_string((leaf / s.leavesPerRail) * s.planes + plane) + "-leaf" +
               std::to_string(leaf % s.leavesPerRail);
    case FAT_TREE:
        break;
    }
    return "pod" + std::to_string(leaf / (s.k / 2)) + "-edge" + std::to_string(leaf % (s.k / 2));
}

RoceFabric
GpuClusterTopology::Build(RoceTopologyHelper& helper, uint32_t servers, uint32_t gpusPerServer)
{
    NS_LOG_FUNCTION(this << servers << gpusPerServer);
    std::string problem = SetCluster(servers, gpusPerServer);
    NS_ABORT_MSG_IF(!problem.empty(), "GpuClusterTopology: topology: " << problem);
    Shape s = GetShape("Build");
    const uint32_t hosts = s.servers * s.nicsPerServer;
    const uint32_t perPlane = s.leaves + s.spines + s.cores;
    std::vector<std::string> names;
    for (uint32_t p = 0; p < s.planes; ++p)
    {
        std::string prefix = s.planes > 1 ? "plane" + std::to_string(p) + "-" : "";
        for (uint32_t l = 0; l < s.leaves; ++l)
        {
            names.push_back(prefix + LeafName(s, l, p));
        }
        for (uint32_t a = 0; a < s.spines; ++a)
        {
            names.push_back(prefix + (m_kind == FAT_TREE
                                          ? "pod" + std::to_string(a / (s.k / 2)) + "-agg" +
                                                std::to_string(a % (s.k / 2))
                                          : "spine" + std::to_string(a)));
        }
        for (uint32_t c = 0; c < s.cores; ++c)
        {
            names.push_back(prefix + "core" + std::to_string(c));
        }
    }
    // Graph ids: hosts 0 .. hosts-1, then the switches in the order of names.
    auto leafId = [&](uint32_t plane, uint32_t leaf) { return hosts + plane * perPlane + leaf; };
    auto spineId = [&](uint32_t plane, uint32_t spine) {
        return hosts + plane * perPlane + s.leaves + spine;
    };
    auto coreId = [&](uint32_t plane, uint32_t core) {
        return hosts + plane * perPlane + s.leaves + s.spines + core;
    };
    std::vector<RoceTopologyHelper::PendingLink> links;
    for (uint32_t nic = 0; nic < hosts; ++nic)
    {
        uint32_t plane = (nic % s.nicsPerServer) % s.planes;
        links.push_back({nic, leafId(plane, LeafInPlane(s, nic)), m_hostRate, m_hostDelay});
    }
    for (uint32_t p = 0; p < s.planes; ++p)
    {
        if (m_kind != FAT_TREE)
        {
            for (uint32_t l = 0; l < s.leaves; ++l)
            {
                for (uint32_t a = 0; a < s.spines; ++a)
                {
                    links.push_back({leafId(p, l), spineId(p, a), m_fabricRate, m_fabricDelay});
                }
            }
            continue;
        }
        const uint32_t half = s.k / 2;
        // Edge e of pod q to every aggregation switch of pod q.
        for (uint32_t pod = 0; pod < s.k; ++pod)
        {
            for (uint32_t e = 0; e < half; ++e)
            {
                for (uint32_t a = 0; a < half; ++a)
                {
                    links.push_back({leafId(p, pod * half + e),
                                     spineId(p, pod * half + a),
                                     m_fabricRate,
                                     m_fabricDelay});
                }
            }
        }
        // Aggregation switch a of every pod to cores a x k/2 .. a x k/2 + k/2 - 1.
        for (uint32_t pod = 0; pod < s.k; ++pod)
        {
            for (uint32_t a = 0; a < half; ++a)
            {
                for (uint32_t i = 0; i < half; ++i)
                {
                    links.push_back({spineId(p, pod * half + a),
                                     coreId(p, a * half + i),
                                     m_coreRate,
                                     m_coreDelay});
                }
            }
        }
    }
    NS_LOG_INFO("GpuClusterTopology: " << Describe());
    return helper.Build(hosts, names, links);
}

} // namespace ns3
