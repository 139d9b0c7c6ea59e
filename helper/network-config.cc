/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "network-config.h"

#include "attribute-defaults.h"
#include "rdma-helper.h"
#include "roce-topology-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/dcqcn.h"
#include "ns3/double.h"
#include "ns3/ecmp-load-balancer.h"
#include "ns3/enum.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/log.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NetworkConfig");

NS_OBJECT_ENSURE_REGISTERED(NetworkConfig);

namespace
{

/// The smallest InfiniBand MTU, in bytes (IBTA: 256, 512, 1024, 2048, 4096).
constexpr uint32_t MIN_MTU = 256;
/// The largest InfiniBand MTU, in bytes.
constexpr uint32_t MAX_MTU = 4096;
/// The default MTU.
constexpr uint32_t DEFAULT_MTU = 4096;
/// The default queue pairs per NIC pair.
constexpr uint32_t DEFAULT_CHANNELS = 2;
/// The most queue pairs per NIC pair.
constexpr uint32_t MAX_CHANNELS = 64;
/// The default switch buffer: 32 MiB.
constexpr uint32_t DEFAULT_BUFFER_BYTES = 32 * 1024 * 1024;
/// The default ECN Kmin: 100 KiB.
constexpr uint32_t DEFAULT_KMIN_BYTES = 100 * 1024;
/// The default ECN Kmax: 400 KiB.
constexpr uint32_t DEFAULT_KMAX_BYTES = 400 * 1024;
/// The default marking probability at Kmax.
constexpr double DEFAULT_PMAX = 0.2;
/// The priorities PFC makes lossless: priority 3, which carries RDMA.
constexpr uint32_t LOSSLESS_PRIORITIES = 0x08;

} // namespace

TypeId
NetworkConfig::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NetworkConfig")
            .SetParent<Object>()
            .SetGroupName("LlmFabric")
            .AddConstructor<NetworkConfig>()
            .AddAttribute("Mtu",
                          "RDMA MTU: payload bytes per packet, an InfiniBand MTU (256, 512, 1024, "
                          "2048 or 4096; Check() rejects the others).",
                          UintegerValue(DEFAULT_MTU),
                          MakeUintegerAccessor(&NetworkConfig::m_mtu),
                          MakeUintegerChecker<uint32_t>(MIN_MTU, MAX_MTU))
            .AddAttribute("Channels",
                          "Queue pairs between a pair of NICs in a collective (the channels its "
                          "transfers are spread over).",
                          UintegerValue(DEFAULT_CHANNELS),
                          MakeUintegerAccessor(&NetworkConfig::m_channels),
                          MakeUintegerChecker<uint32_t>(1, MAX_CHANNELS))
            .AddAttribute("CongestionControl",
                          "Congestion control of the queue pairs: a RdmaCongestionOps subclass "
                          "(RdmaEndpoint::CongestionControl).",
                          TypeIdValue(Dcqcn::GetTypeId()),
                          MakeTypeIdAccessor(&NetworkConfig::m_congestionControl),
                          MakeTypeIdChecker())
            .AddAttribute("LoadBalancer",
                          "Load balancer of every switch: a LoadBalancer subclass "
                          "(RoceSwitch::LoadBalancer).",
                          TypeIdValue(EcmpLoadBalancer::GetTypeId()),
                          MakeTypeIdAccessor(&NetworkConfig::m_loadBalancer),
                          MakeTypeIdChecker())
            .AddAttribute("DcqcnProfile",
                          "Parameter set of DCQCN: mlx5 (NVIDIA ConnectX defaults), "
                          "sigcomm2015 (the paper's values) or simai (the HPCC-lineage "
                          "simulators' settings; Dcqcn::ApplyProfile).",
                          EnumValue(NetworkConfig::MLX5),
                          LLM_FABRIC_ENUM_ACCESSOR(NetworkConfig::DcqcnProfileKind,
                                                   &NetworkConfig::m_dcqcnProfile),
                          MakeEnumChecker(NetworkConfig::MLX5,
                                          "mlx5",
                                          NetworkConfig::SIGCOMM2015,
                                          "sigcomm2015",
                                          NetworkConfig::SIMAI,
                                          "simai"))
            .AddAttribute(
                "Recovery",
                "Loss recovery of the queue pairs: go-back-n (RoCE NICs) or "
                "selective-repeat (as IRN).",
                EnumValue(NetworkConfig::GO_BACK_N),
                LLM_FABRIC_ENUM_ACCESSOR(NetworkConfig::RecoveryKind, &NetworkConfig::m_recovery),
                MakeEnumChecker(NetworkConfig::GO_BACK_N,
                                "go-back-n",
                                NetworkConfig::SELECTIVE_REPEAT,
                                "selective-repeat"))
            .AddAttribute("Pfc",
                          "Priority flow control: priority 3, which carries RDMA, is lossless.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&NetworkConfig::m_pfc),
                          MakeBooleanChecker())
            .AddAttribute("BufferBytes",
                          "Packet buffer of a switch, shared by its ports, in bytes.",
                          UintegerValue(DEFAULT_BUFFER_BYTES),
                          MakeUintegerAccessor(&NetworkConfig::m_bufferBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("KminBytes",
                          "ECN (RED) threshold: an egress queue of at most this many bytes is "
                          "not marked.",
                          UintegerValue(DEFAULT_KMIN_BYTES),
                          MakeUintegerAccessor(&NetworkConfig::m_kminBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("KmaxBytes",
                          "ECN (RED) threshold: an egress queue of more than this many bytes "
                          "marks every packet.",
                          UintegerValue(DEFAULT_KMAX_BYTES),
                          MakeUintegerAccessor(&NetworkConfig::m_kmaxBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Pmax",
                          "ECN (RED) marking probability at KmaxBytes, in [0, 1].",
                          DoubleValue(DEFAULT_PMAX),
                          MakeDoubleAccessor(&NetworkConfig::m_pmax),
                          MakeDoubleChecker<double>(0.0, 1.0));
    return tid;
}

NetworkConfig::NetworkConfig()
    : m_mtu(DEFAULT_MTU),
      m_channels(DEFAULT_CHANNELS),
      m_congestionControl(Dcqcn::GetTypeId()),
      m_loadBalancer(EcmpLoadBalancer::GetTypeId()),
      m_dcqcnProfile(MLX5),
      m_recovery(GO_BACK_N),
      m_pfc(true),
      m_bufferBytes(DEFAULT_BUFFER_BYTES),
      m_kminBytes(DEFAULT_KMIN_BYTES),
      m_kmaxBytes(DEFAULT_KMAX_BYTES),
      m_pmax(DEFAULT_PMAX)
{
    NS_LOG_FUNCTION(this);
}

NetworkConfig::~NetworkConfig()
{
    NS_LOG_FUNCTION(this);
}

void
NetworkConfig::DoInitialize()
{
    NS_LOG_FUNCTION(this);
    std::string problem = Check();
    NS_ABORT_MSG_IF(!problem.empty(), "NetworkConfig: " << problem);
    Object::DoInitialize();
}

std::string
NetworkConfig::Check() const
{
    // The attributes' checkers already bound each value (Channels, Pmax...); only the relations
    // between values, and the MTU values between the InfiniBand ones, are left to check here.
    std::ostringstream problem;
    // The InfiniBand MTUs are the powers of two from 256 to 4096.
    bool ibMtu = m_mtu >= MIN_MTU && m_mtu <= MAX_MTU && (m_mtu & (m_mtu - 1)) == 0;
    if (!ibMtu)
    {
        problem << "mtu (" << m_mtu << ") is not an InfiniBand MTU (256, 512, 1024, 2048, 4096)";
    }
    else if (m_kminBytes > m_kmaxBytes)
    {
        problem << "kmin_bytes (" << m_kminBytes << ") is above kmax_bytes (" << m_kmaxBytes << ")";
    }
    else if (m_kmaxBytes > m_bufferBytes)
    {
        problem << "kmax_bytes (" << m_kmaxBytes << ") exceeds buffer_bytes (" << m_bufferBytes
                << ")";
    }
    else if (m_bufferBytes < m_mtu)
    {
        problem << "buffer_bytes (" << m_bufferBytes << ") cannot hold a packet of mtu (" << m_mtu
                << ")";
    }
    return problem.str();
}

uint32_t
NetworkConfig::GetMtu() const
{
    return m_mtu;
}

uint32_t
NetworkConfig::GetChannels() const
{
    return m_channels;
}

TypeId
NetworkConfig::GetCongestionControl() const
{
    return m_congestionControl;
}

TypeId
NetworkConfig::GetLoadBalancer() const
{
    return m_loadBalancer;
}

void
NetworkConfig::SetEgressStages(const std::vector<TypeId>& stages)
{
    m_egressStages = stages;
}

const std::vector<TypeId>&
NetworkConfig::GetEgressStages() const
{
    return m_egressStages;
}

NetworkConfig::DcqcnProfileKind
NetworkConfig::GetDcqcnProfile() const
{
    return m_dcqcnProfile;
}

std::string
NetworkConfig::GetDcqcnProfileName() const
{
    switch (m_dcqcnProfile)
    {
    case SIGCOMM2015:
        return "sigcomm2015";
    case SIMAI:
        return "simai";
    default:
        return "mlx5";
    }
}

NetworkConfig::RecoveryKind
NetworkConfig::GetRecovery() const
{
    return m_recovery;
}

std::string
NetworkConfig::GetRecoveryName() const
{
    return m_recovery == SELECTIVE_REPEAT ? "SelectiveRepeat" : "GoBackN";
}

bool
NetworkConfig::GetPfc() const
{
    return m_pfc;
}

uint32_t
NetworkConfig::GetBufferBytes() const
{
    return m_bufferBytes;
}

uint32_t
NetworkConfig::GetKminBytes() const
{
    return m_kminBytes;
}

uint32_t
NetworkConfig::GetKmaxBytes() const
{
    return m_kmaxBytes;
}

double
NetworkConfig::GetPmax() const
{
    return m_pmax;
}

void
NetworkConfig::MarkGiven(const std::string& attribute)
{
    m_given.insert(attribute);
}

bool
NetworkConfig::IsGiven(const std::string& attribute) const
{
    return m_given.count(attribute) != 0;
}

TypeId
NetworkConfig::EffectiveCongestionControl(const AttributeDefaults& defaults) const
{
    // The command line's, else the scenario's.
    TypeId cc = m_congestionControl;
    if (defaults.IsGiven("ns3::RdmaEndpoint::CongestionControl"))
    {
        TypeId::AttributeInformation info;
        RdmaEndpoint::GetTypeId().LookupAttributeByName("CongestionControl", &info);
        Ptr<const TypeIdValue> value = DynamicCast<const TypeIdValue>(info.initialValue);
        cc = value ? value->Get() : cc;
    }
    return cc;
}

void
NetworkConfig::OfferEcnMarking(const AttributeDefaults& defaults) const
{
    TypeId cc = EffectiveCongestionControl(defaults);
    // Its marking replaces the defaults of the network section, not what a user gave.
    uint32_t kmin = m_kminBytes;
    uint32_t kmax = m_kmaxBytes;
    double pmax = m_pmax;
    RdmaEcnMarking marking;
    bool kminGiven = IsGiven("KminBytes") || defaults.IsGiven("ns3::SwitchMmu::Kmin");
    bool kmaxGiven = IsGiven("KmaxBytes") || defaults.IsGiven("ns3::SwitchMmu::Kmax");
    if (RdmaHelper::GetEcnMarking(cc, marking))
    {
        kmin = IsGiven("KminBytes") ? kmin : marking.kminBytes;
        kmax = IsGiven("KmaxBytes") ? kmax : marking.kmaxBytes;
        pmax = IsGiven("Pmax") ? pmax : marking.pmax;
        if (!kminGiven && !kmaxGiven)
        {
            defaults.Offer("ns3::SwitchMmu::EcnReferenceRate",
                           DataRateValue(marking.referenceRate));
        }
    }
    defaults.Offer("ns3::SwitchMmu::Kmin", QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, kmin)));
    defaults.Offer("ns3::SwitchMmu::Kmax", QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, kmax)));
    defaults.Offer("ns3::SwitchMmu::Pmax", DoubleValue(pmax));
}

std::string
NetworkConfig::Apply(const AttributeDefaults& defaults, RoceTopologyHelper& topology) const
{
    NS_LOG_FUNCTION(this);
    std::string problem = Check();
    if (!problem.empty())
    {
        return problem;
    }
    // The DCQCN profile rewrites several Dcqcn defaults at once: the user's own values of those
    // are set again after it.
    if (!defaults.IsGiven(DCQCN_PROFILE_SETTING))
    {
        problem = Dcqcn::SetDefaultProfile(GetDcqcnProfileName());
        if (!problem.empty())
        {
            return problem;
        }
        defaults.Reapply();
    }
    defaults.Offer("ns3::RdmaQueuePair::Mtu", UintegerValue(m_mtu));
    defaults.Offer("ns3::RdmaQueuePair::Recovery", StringValue(GetRecoveryName()));
    defaults.Offer("ns3::RdmaEndpoint::CongestionControl", TypeIdValue(m_congestionControl));
    defaults.Offer("ns3::CollectiveRuntime::Channels", UintegerValue(m_channels));
    defaults.Offer("ns3::SwitchMmu::Buffer",
                   QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, m_bufferBytes)));
    OfferEcnMarking(defaults);
    defaults.Offer("ns3::SwitchMmu::LosslessPriorities",
                   UintegerValue(m_pfc ? LOSSLESS_PRIORITIES : 0));
    problem = RdmaHelper::CheckCongestionControl(EffectiveCongestionControl(defaults));
    if (!problem.empty())
    {
        return problem;
    }
    if (!defaults.IsGiven("ns3::RoceSwitch::LoadBalancer"))
    {
        problem = topology.SetLoadBalancer(m_loadBalancer.GetName());
    }
    for (TypeId stage : m_egressStages)
    {
        problem = problem.empty() ? topology.AddEgressStage(stage.GetName()) : problem;
    }
    return problem;
}

} // namespace ns3
