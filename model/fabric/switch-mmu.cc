/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "switch-mmu.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>
#include <sstream>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchMmu");

// Implementation choices the class comment leaves open:
// - A packet is split byte-wise: what its group's reserved bytes can still take goes there, the
//   rest goes whole to the shared pool (if it fits both the group's allowance and the pool) or,
//   for a lossless priority, whole to the headroom. Nothing is charged for a dropped packet.
// - The shared pool is a hard limit: a static threshold, or Alpha above 1, can allow a group more
//   than the free pool. A lossy packet within its allowance that finds the pool full is dropped
//   as DROP_BUFFER_FULL ("buffer-full"), a lossless one goes to its headroom. Reserved bytes and
//   headroom are carved out of Buffer, so every group keeps them.
// - XON is evaluated on the group's own releases only; besides the documented condition, a group
//   whose headroom is empty and whose shared use is zero also resumes (with a dynamic allowance
//   below ResumeOffset it could otherwise stay paused with nothing left to drain).
// - Each term of the headroom formula is rounded up to whole bytes.
// - Attributes and ports are read at DoInitialize; Admit initializes the object if needed.

NS_OBJECT_ENSURE_REGISTERED(SwitchMmu);

namespace
{

/// Size of a PFC frame (a minimum Ethernet frame), counted once in the headroom.
constexpr uint64_t PFC_FRAME_BYTES = 64;
/// Picoseconds per microsecond.
constexpr uint64_t PS_PER_US = 1000000;
/// Bits per byte times picoseconds per second: the divisor from bit x picoseconds to bytes.
constexpr uint64_t BITS_PS_PER_BYTE_S = 8000000000000ULL;

/// Drop reason of a lossy priority above its allowance.
const std::string REASON_LOSSY_LIMIT = "lossy-limit";
/// Drop reason of a lossless priority whose headroom is exhausted.
const std::string REASON_HEADROOM_FULL = "headroom-full";
/// Drop reason when the buffer has no room for the packet.
const std::string REASON_BUFFER_FULL = "buffer-full";

/**
 * The bytes a link sends in a time, rounded up, exactly in integers (no 128-bit type needed).
 * @param time a non-negative time.
 * @param rate a link rate.
 * @return ceil(time x rate / 8) in bytes.
 */
uint64_t
BytesInTime(Time time, DataRate rate)
{
    uint64_t ps = static_cast<uint64_t>(std::max<int64_t>(time.GetPicoSeconds(), 0));
    uint64_t bps = rate.GetBitRate();
    // time x rate / 8 = (us x 1e6 + ps') x bps / 8e12, with us = ps / 1e6 and ps' = ps % 1e6.
    uint64_t usBits = (ps / PS_PER_US) * bps; // bit x microseconds
    uint64_t psBits = (ps % PS_PER_US) * bps; // bit x picoseconds, below 1e6 x bps
    // usBits x 1e6 = whole x 8e12 + part x 1e6, with part < 8e6.
    uint64_t whole = usBits / (BITS_PS_PER_BYTE_S / PS_PER_US);
    uint64_t part = usBits % (BITS_PS_PER_BYTE_S / PS_PER_US);
    uint64_t rest = part * PS_PER_US + psBits;
    return whole + rest / BITS_PS_PER_BYTE_S + (rest % BITS_PS_PER_BYTE_S != 0 ? 1 : 0);
}

/**
 * @param mask an 8-bit mask.
 * @return the number of bits set.
 */
uint32_t
CountBits(uint32_t mask)
{
    uint32_t count = 0;
    for (; mask != 0; mask &= mask - 1)
    {
        ++count;
    }
    return count;
}

} // namespace

TypeId
SwitchMmu::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SwitchMmu")
            .SetParent<Object>()
            .SetGroupName("LlmFabric")
            .AddConstructor<SwitchMmu>()
            .AddAttribute("Buffer",
                          "The whole shared packet buffer of the switch, in bytes.",
                          QueueSizeValue(QueueSize("12MB")),
                          MakeQueueSizeAccessor(&SwitchMmu::m_buffer),
                          MakeQueueSizeChecker())
            .AddAttribute("ReservedBytes",
                          "Bytes guaranteed to every (ingress port, priority) group before it "
                          "draws on the shared pool. The default, one MaxFrameSize frame, lets "
                          "every group accept at least one largest frame even when the shared "
                          "pool is exhausted.",
                          QueueSizeValue(QueueSize("4200B")),
                          MakeQueueSizeAccessor(&SwitchMmu::m_reserved),
                          MakeQueueSizeChecker())
            .AddAttribute("HeadroomBytes",
                          "Headroom of every lossless group, in bytes; 0 computes it for each "
                          "port from its link (see GetHeadroom).",
                          QueueSizeValue(QueueSize("0B")),
                          MakeQueueSizeAccessor(&SwitchMmu::m_headroomBytes),
                          MakeQueueSizeChecker())
            .AddAttribute("ResumeOffset",
                          "A group in XOFF returns to XON when its headroom is empty and its "
                          "shared use is at least this far below its allowance.",
                          QueueSizeValue(QueueSize("3KB")),
                          MakeQueueSizeAccessor(&SwitchMmu::m_resumeOffset),
                          MakeQueueSizeChecker())
            .AddAttribute(
                "ThresholdMode",
                "How a group's shared allowance is computed: Dynamic (Alpha x the "
                "free shared pool) or Static (StaticThreshold).",
                EnumValue(SwitchMmu::DYNAMIC),
                LLM_FABRIC_ENUM_ACCESSOR(SwitchMmu::ThresholdMode, &SwitchMmu::m_mode),
                MakeEnumChecker(SwitchMmu::DYNAMIC, "Dynamic", SwitchMmu::STATIC, "Static"))
            .AddAttribute("Alpha",
                          "Dynamic threshold factor: a group may use Alpha x (shared pool - "
                          "shared bytes in use); n groups filling together settle at "
                          "Alpha / (1 + n x Alpha) of the pool each. Must be positive.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&SwitchMmu::m_alpha),
                          MakeDoubleChecker<double>())
            .AddAttribute("StaticThreshold",
                          "A group's shared allowance in Static mode, in bytes.",
                          QueueSizeValue(QueueSize("200KB")),
                          MakeQueueSizeAccessor(&SwitchMmu::m_staticThreshold),
                          MakeQueueSizeChecker())
            .AddAttribute("LosslessPriorities",
                          "Bit mask of the lossless (PFC) priorities: bit p for priority p. "
                          "The default 0x08 makes priority 3 lossless, as RoCE deployments do.",
                          UintegerValue(0x08),
                          MakeUintegerAccessor(&SwitchMmu::m_losslessMask),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MaxFrameSize",
                          "The largest frame in bytes: the default 4200 holds a 4096-byte RDMA "
                          "MTU payload with its Ethernet, IP, UDP, BTH, RETH, ICRC and FCS.",
                          UintegerValue(4200),
                          MakeUintegerAccessor(&SwitchMmu::m_maxFrameSize),
                          MakeUintegerChecker<uint32_t>(64))
            .AddAttribute("PeerResponseTime",
                          "The time the upstream port takes to act on a PFC pause it has "
                          "received (stop sending the priority), counted in the headroom.",
                          TimeValue(NanoSeconds(500)),
                          MakeTimeAccessor(&SwitchMmu::m_peerResponseTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Kmin",
                          "RED lower threshold on the egress queue: no ECN mark at or below "
                          "it. The defaults Kmin 5KB, Kmax 200KB, Pmax 1% are DCQCN's (Zhu et "
                          "al., SIGCOMM 2015).",
                          QueueSizeValue(QueueSize("5KB")),
                          MakeQueueSizeAccessor(&SwitchMmu::m_kmin),
                          MakeQueueSizeChecker())
            .AddAttribute("Kmax",
                          "RED upper threshold on the egress queue: always mark above it.",
                          QueueSizeValue(QueueSize("200KB")),
                          MakeQueueSizeAccessor(&SwitchMmu::m_kmax),
                          MakeQueueSizeChecker())
            .AddAttribute("Pmax",
                          "Marking probability at Kmax, in [0, 1] (CheckConfig reports a "
                          "value outside).",
                          DoubleValue(0.01),
                          MakeDoubleAccessor(&SwitchMmu::m_pmax),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("EcnReferenceRate",
                          "0 (the default): Kmin and Kmax are the same byte counts on every "
                          "port. Positive: they are the thresholds of a port of this rate, and "
                          "each port's are scaled by its link rate over this one (K x rate / "
                          "EcnReferenceRate, read at initialization), as the HPCC paper (Li et "
                          "al., SIGCOMM 2019, section 5.1) scales its ECN thresholds with "
                          "bandwidth: a threshold that stands for a queueing time.",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&SwitchMmu::m_ecnReferenceRate),
                          MakeDataRateChecker())
            .AddTraceSource("Drop",
                            "A packet was refused: ingress port, priority, bytes and the "
                            "reason (lossy-limit, headroom-full or buffer-full).",
                            MakeTraceSourceAccessor(&SwitchMmu::m_dropTrace),
                            "ns3::SwitchMmu::DropTracedCallback")
            .AddTraceSource("Xoff",
                            "An (ingress port, priority) group entered XOFF.",
                            MakeTraceSourceAccessor(&SwitchMmu::m_xoffTrace),
                            "ns3::SwitchMmu::PfcStateTracedCallback")
            .AddTraceSource("Xon",
                            "An (ingress port, priority) group left XOFF.",
                            MakeTraceSourceAccessor(&SwitchMmu::m_xonTrace),
                            "ns3::SwitchMmu::PfcStateTracedCallback");
    return tid;
}

SwitchMmu::SwitchMmu()
    : m_ready(false),
      m_mode(DYNAMIC),
      m_losslessMask(0x08),
      m_alpha(1.0),
      m_ports(0),
      m_sharedPool(0),
      m_bufferBytes(0),
      m_reservedBytes(0),
      m_resumeBytes(0),
      m_sharedUsed(0),
      m_totalUsed(0),
      m_pmax(0.01),
      m_uniform(CreateObject<UniformRandomVariable>()),
      m_buffer("12MB"),
      m_reserved("4200B"),
      m_headroomBytes("0B"),
      m_resumeOffset("3KB"),
      m_staticThreshold("200KB"),
      m_maxFrameSize(4200),
      m_peerResponseTime(NanoSeconds(500)),
      m_kmin("5KB"),
      m_kmax("200KB"),
      m_ecnReferenceRate(0)
{
    NS_LOG_FUNCTION(this);
}

SwitchMmu::~SwitchMmu()
{
    NS_LOG_FUNCTION(this);
}

void
SwitchMmu::ConfigurePorts(const std::vector<DataRate>& rates, const std::vector<Time>& delays)
{
    NS_LOG_FUNCTION(this << rates.size());
    NS_ABORT_MSG_IF(m_ready, "SwitchMmu: ConfigurePorts after Initialize");
    NS_ABORT_MSG_IF(rates.size() != delays.size(),
                    "SwitchMmu: ConfigurePorts with " << rates.size() << " rates but "
                                                      << delays.size() << " delays");
    NS_ABORT_MSG_IF(rates.size() > std::numeric_limits<uint32_t>::max() / PRIORITIES,
                    "SwitchMmu: too many ports (" << rates.size() << ")");
    for (const Time& delay : delays)
    {
        NS_ABORT_MSG_IF(delay.IsStrictlyNegative(), "SwitchMmu: negative link delay " << delay);
    }
    m_ports = static_cast<uint32_t>(rates.size());
    m_rates = rates;
    m_delays = delays;
    size_t queues = static_cast<size_t>(m_ports) * PRIORITIES;
    m_groups.assign(queues, Group());
    m_egress.assign(queues, 0);
    m_headroom.assign(m_ports, 0);
    m_sharedUsed = 0;
    m_totalUsed = 0;
}

std::string
SwitchMmu::CheckConfig() const
{
    std::ostringstream problem;
    const std::pair<const char*, const QueueSize*> sizes[] = {
        {"Buffer", &m_buffer},
        {"ReservedBytes", &m_reserved},
        {"HeadroomBytes", &m_headroomBytes},
        {"ResumeOffset", &m_resumeOffset},
        {"StaticThreshold", &m_staticThreshold},
        {"Kmin", &m_kmin},
        {"Kmax", &m_kmax},
    };
    if (m_ports == 0)
    {
        return "no ports: ConfigurePorts was not called or had no ports";
    }
    for (const auto& size : sizes)
    {
        if (size.second->GetUnit() != QueueSizeUnit::BYTES)
        {
            problem << size.first << " (" << *size.second << ") must be in bytes, not packets";
            return problem.str();
        }
    }
    if (m_losslessMask > 0xFF)
    {
        problem << "LosslessPriorities (0x" << std::hex << m_losslessMask
                << ") has bits beyond the 8 priorities";
    }
    else if (!(m_alpha > 0.0))
    {
        problem << "Alpha (" << m_alpha << ") must be positive";
    }
    else if (!(m_pmax >= 0.0 && m_pmax <= 1.0))
    {
        problem << "Pmax (" << m_pmax << ") is outside [0, 1]";
    }
    else if (m_kmin.GetValue() > m_kmax.GetValue())
    {
        problem << "Kmin (" << m_kmin.GetValue() << " B) is above Kmax (" << m_kmax.GetValue()
                << " B)";
    }
    else if (ComputeSharedPool() < 0)
    {
        uint64_t reserved = static_cast<uint64_t>(m_ports) * PRIORITIES * m_reserved.GetValue();
        uint64_t headroom = 0;
        uint32_t lossless = CountBits(m_losslessMask);
        for (uint32_t port = 0; port < m_ports; ++port)
        {
            headroom += static_cast<uint64_t>(lossless) * GetHeadroom(port);
        }
        problem << "reserved (" << reserved << " B = " << m_ports << " ports x 8 x ReservedBytes "
                << m_reserved.GetValue() << " B) plus headroom (" << headroom
                << " B, LosslessPriorities 0x" << std::hex << m_losslessMask << std::dec
                << ") exceed Buffer (" << m_buffer.GetValue() << " B)";
    }
    return problem.str();
}

uint64_t
SwitchMmu::ComputeHeadroom(uint32_t port) const
{
    NS_ABORT_MSG_IF(port >= m_ports,
                    "SwitchMmu: port " << port << " out of " << m_ports << " ports");
    DataRate rate = m_rates[port];
    // A pause takes one delay to reach the peer, whose bytes already sent take another to
    // arrive: 2 x delay x rate.
    uint64_t bytes = BytesInTime(m_delays[port] * 2, rate);
    // A frame in serialization at each end when the pause is decided and received.
    bytes += 2 * static_cast<uint64_t>(m_maxFrameSize);
    // The pause frame itself.
    bytes += PFC_FRAME_BYTES;
    // What the peer sends while it reacts.
    bytes += BytesInTime(m_peerResponseTime, rate);
    return bytes;
}

uint32_t
SwitchMmu::GetHeadroom(uint32_t port) const
{
    NS_ABORT_MSG_IF(port >= m_ports,
                    "SwitchMmu: port " << port << " out of " << m_ports << " ports");
    if (m_headroomBytes.GetValue() != 0)
    {
        return m_headroomBytes.GetValue();
    }
    return static_cast<uint32_t>(
        std::min<uint64_t>(ComputeHeadroom(port), std::numeric_limits<uint32_t>::max()));
}

int64_t
SwitchMmu::ComputeSharedPool() const
{
    int64_t pool = m_buffer.GetValue();
    pool -= static_cast<int64_t>(m_ports) * PRIORITIES * m_reserved.GetValue();
    int64_t lossless = CountBits(m_losslessMask & 0xFF);
    for (uint32_t port = 0; port < m_ports; ++port)
    {
        pool -= lossless * GetHeadroom(port);
    }
    return pool;
}

void
SwitchMmu::DoInitialize()
{
    NS_LOG_FUNCTION(this);
    std::string problem = CheckConfig();
    NS_ABORT_MSG_IF(!problem.empty(), "SwitchMmu: " << problem);
    for (uint32_t port = 0; port < m_ports; ++port)
    {
        m_headroom[port] = GetHeadroom(port);
    }
    m_sharedPool = static_cast<uint32_t>(ComputeSharedPool());
    m_bufferBytes = m_buffer.GetValue();
    m_reservedBytes = m_reserved.GetValue();
    m_resumeBytes = m_resumeOffset.GetValue();
    m_kminPort.assign(m_ports, m_kmin.GetValue());
    m_kmaxPort.assign(m_ports, m_kmax.GetValue());
    if (m_ecnReferenceRate.GetBitRate() > 0)
    {
        for (uint32_t port = 0; port < m_ports; ++port)
        {
            m_kminPort[port] = ScaleThreshold(m_kmin.GetValue(), m_rates[port]);
            m_kmaxPort[port] = ScaleThreshold(m_kmax.GetValue(), m_rates[port]);
        }
    }
    m_ready = true;
    NS_LOG_INFO("ports " << m_ports << " shared pool " << m_sharedPool << " B");
    Object::DoInitialize();
}

void
SwitchMmu::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_uniform = nullptr;
    m_rates.clear();
    m_delays.clear();
    m_headroom.clear();
    m_kminPort.clear();
    m_kmaxPort.clear();
    m_groups.clear();
    m_egress.clear();
    m_ports = 0;
    m_ready = false;
    Object::DoDispose();
}

void
SwitchMmu::IndexError(uint32_t port, uint8_t priority, const char* what) const
{
    NS_ABORT_MSG_IF(port >= m_ports,
                    "SwitchMmu: " << what << " port " << port << " out of " << m_ports << " ports");
    NS_ABORT_MSG("SwitchMmu: " << what << " priority " << static_cast<uint32_t>(priority)
                               << " above 7");
}

SwitchMmu::Admission
SwitchMmu::Admit(uint32_t inPort, uint32_t outPort, uint8_t priority, uint32_t bytes)
{
    // No NS_LOG_FUNCTION: called per frame (a log-level test per call shows in profiles).
    CheckIndex(inPort, priority, "Admit: ingress");
    CheckIndex(outPort, priority, "Admit: egress");
    if (!m_ready)
    {
        Initialize(); // checks the configuration and derives the hot-path values
    }
    Admission admission;
    Group& g = m_groups[static_cast<size_t>(inPort) * PRIORITIES + priority];

    // Physical limit first. With a consistent configuration the partition below never lets the
    // buffer overflow, so this is a safeguard.
    if (static_cast<uint64_t>(m_totalUsed) + bytes > m_bufferBytes)
    {
        admission.verdict = DROP_BUFFER_FULL;
        m_dropTrace(inPort, priority, bytes, REASON_BUFFER_FULL);
        return admission;
    }

    // Reserved bytes first, then the rest to the shared pool or, if lossless, the headroom.
    uint32_t toReserved = std::min(bytes, m_reservedBytes - g.reservedUsed);
    uint32_t rest = bytes - toReserved;
    bool toShared = false;
    bool toHeadroom = false;
    if (rest > 0)
    {
        uint64_t groupShared = static_cast<uint64_t>(g.shared) + rest;
        bool withinAllowance = groupShared <= GetSharedAllowance(inPort, priority);
        bool withinPool = static_cast<uint64_t>(m_sharedUsed) + rest <= m_sharedPool;
        if (withinAllowance && withinPool)
        {
            toShared = true;
        }
        else if ((m_losslessMask >> priority) & 1U)
        {
            if (static_cast<uint64_t>(g.headroomUsed) + rest > m_headroom[inPort])
            {
                admission.verdict = DROP_HEADROOM_FULL;
                m_dropTrace(inPort, priority, bytes, REASON_HEADROOM_FULL);
                return admission;
            }
            toHeadroom = true;
        }
        else
        {
            // A lossy packet within its allowance can still find the pool exhausted (a static
            // threshold or an Alpha above 1 over-commits it).
            admission.verdict = withinAllowance ? DROP_BUFFER_FULL : DROP_LOSSY_LIMIT;
            m_dropTrace(inPort,
                        priority,
                        bytes,
                        withinAllowance ? REASON_BUFFER_FULL : REASON_LOSSY_LIMIT);
            return admission;
        }
    }

    g.reservedUsed += toReserved;
    if (toShared)
    {
        g.shared += rest;
        m_sharedUsed += rest;
    }
    else if (toHeadroom)
    {
        g.headroomUsed += rest;
        if (g.xoff == 0)
        {
            g.xoff = 1;
            admission.xoff = true;
            NS_LOG_LOGIC("XOFF port " << inPort << " priority " << static_cast<uint32_t>(priority));
            m_xoffTrace(inPort, priority);
        }
    }
    m_totalUsed += bytes;
    m_egress[static_cast<size_t>(outPort) * PRIORITIES + priority] += bytes;
    return admission;
}

bool
SwitchMmu::Release(uint32_t inPort, uint32_t outPort, uint8_t priority, uint32_t bytes)
{
    // No NS_LOG_FUNCTION: called per frame (a log-level test per call shows in profiles).
    CheckIndex(inPort, priority, "Release: ingress");
    CheckIndex(outPort, priority, "Release: egress");
    Group& g = m_groups[static_cast<size_t>(inPort) * PRIORITIES + priority];
    size_t queue = static_cast<size_t>(outPort) * PRIORITIES + priority;
    uint64_t charged = g.Bytes();
    NS_ABORT_MSG_IF(bytes > charged,
                    "SwitchMmu: Release of " << bytes << " B from ingress port " << inPort
                                             << " priority " << static_cast<uint32_t>(priority)
                                             << " holding " << charged << " B");
    NS_ABORT_MSG_IF(bytes > m_egress[queue],
                    "SwitchMmu: Release of " << bytes << " B from egress port " << outPort
                                             << " priority " << static_cast<uint32_t>(priority)
                                             << " holding " << m_egress[queue] << " B");

    // Headroom first, then shared, then reserved.
    uint32_t left = bytes;
    uint32_t fromHeadroom = std::min(left, g.headroomUsed);
    g.headroomUsed -= fromHeadroom;
    left -= fromHeadroom;
    uint32_t fromShared = std::min(left, g.shared);
    g.shared -= fromShared;
    m_sharedUsed -= fromShared;
    left -= fromShared;
    g.reservedUsed -= left;
    m_totalUsed -= bytes;
    m_egress[queue] -= bytes;

    if (g.xoff != 0 && g.headroomUsed == 0)
    {
        // Resume when the shared use is ResumeOffset below the allowance, or when the group has
        // no shared byte left to drain (a dynamic allowance below ResumeOffset would otherwise
        // keep the group paused forever).
        uint64_t shared = g.shared;
        if (shared == 0 || shared + m_resumeBytes <= GetSharedAllowance(inPort, priority))
        {
            g.xoff = 0;
            NS_LOG_LOGIC("XON port " << inPort << " priority " << static_cast<uint32_t>(priority));
            m_xonTrace(inPort, priority);
            return true;
        }
    }
    return false;
}

bool
SwitchMmu::IsXoff(uint32_t inPort, uint8_t priority) const
{
    CheckIndex(inPort, priority, "IsXoff:");
    return m_groups[static_cast<size_t>(inPort) * PRIORITIES + priority].xoff != 0;
}

double
SwitchMmu::GetMarkProbability(uint32_t queueBytes) const
{
    return RedProbability(m_kmin.GetValue(), m_kmax.GetValue(), queueBytes);
}

uint32_t
SwitchMmu::ScaleThreshold(uint32_t bytes, DataRate portRate) const
{
    // In doubles: K (< 2^32) times a rate (< 2^44 bit/s) would overflow 64-bit integers; the
    // 53 bits of a double lose at most a fraction of a byte before the rounding down.
    double scaled = static_cast<double>(bytes) * static_cast<double>(portRate.GetBitRate()) /
                    static_cast<double>(m_ecnReferenceRate.GetBitRate());
    return scaled >= 4294967295.0 ? UINT32_MAX : static_cast<uint32_t>(scaled);
}

uint32_t
SwitchMmu::GetKmin(uint32_t outPort) const
{
    CheckIndex(outPort, 0, "GetKmin:");
    if (m_ready)
    {
        return m_kminPort[outPort];
    }
    return m_ecnReferenceRate.GetBitRate() > 0 ? ScaleThreshold(m_kmin.GetValue(), m_rates[outPort])
                                               : m_kmin.GetValue();
}

uint32_t
SwitchMmu::GetKmax(uint32_t outPort) const
{
    CheckIndex(outPort, 0, "GetKmax:");
    if (m_ready)
    {
        return m_kmaxPort[outPort];
    }
    return m_ecnReferenceRate.GetBitRate() > 0 ? ScaleThreshold(m_kmax.GetValue(), m_rates[outPort])
                                               : m_kmax.GetValue();
}

double
SwitchMmu::GetMarkProbability(uint32_t outPort, uint32_t queueBytes) const
{
    return RedProbability(GetKmin(outPort), GetKmax(outPort), queueBytes);
}

double
SwitchMmu::RedProbability(uint32_t kmin, uint32_t kmax, uint32_t queueBytes) const
{
    if (queueBytes <= kmin)
    {
        return 0.0;
    }
    if (queueBytes > kmax)
    {
        return 1.0;
    }
    return m_pmax * static_cast<double>(queueBytes - kmin) / static_cast<double>(kmax - kmin);
}

bool
SwitchMmu::DecideEcnMark(uint32_t outPort, uint8_t priority)
{
    CheckIndex(outPort, priority, "DecideEcnMark:");
    double probability =
        GetMarkProbability(outPort, m_egress[static_cast<size_t>(outPort) * PRIORITIES + priority]);
    if (probability <= 0.0)
    {
        return false;
    }
    if (probability >= 1.0)
    {
        return true;
    }
    return m_uniform->GetValue() < probability;
}

uint32_t
SwitchMmu::GetSharedPoolSize() const
{
    if (m_ready)
    {
        return m_sharedPool;
    }
    int64_t pool = ComputeSharedPool();
    return pool < 0 ? 0 : static_cast<uint32_t>(pool);
}

uint32_t
SwitchMmu::GetSharedUsed() const
{
    return m_sharedUsed;
}

uint32_t
SwitchMmu::GetTotalUsed() const
{
    return m_totalUsed;
}

uint32_t
SwitchMmu::GetSharedAllowance(uint32_t inPort, uint8_t priority) const
{
    CheckIndex(inPort, priority, "GetSharedAllowance:");
    if (m_mode == STATIC)
    {
        return m_staticThreshold.GetValue();
    }
    uint32_t pool = GetSharedPoolSize();
    uint32_t free = pool > m_sharedUsed ? pool - m_sharedUsed : 0;
    double allowance = m_alpha * static_cast<double>(free);
    if (!(allowance > 0.0))
    {
        return 0;
    }
    if (allowance >= static_cast<double>(std::numeric_limits<uint32_t>::max()))
    {
        return std::numeric_limits<uint32_t>::max();
    }
    return static_cast<uint32_t>(allowance);
}

uint32_t
SwitchMmu::GetIngressBytes(uint32_t inPort, uint8_t priority) const
{
    CheckIndex(inPort, priority, "GetIngressBytes:");
    return static_cast<uint32_t>(
        m_groups[static_cast<size_t>(inPort) * PRIORITIES + priority].Bytes());
}

uint32_t
SwitchMmu::GetHeadroomUsed(uint32_t inPort, uint8_t priority) const
{
    CheckIndex(inPort, priority, "GetHeadroomUsed:");
    return m_groups[static_cast<size_t>(inPort) * PRIORITIES + priority].headroomUsed;
}

uint32_t
SwitchMmu::GetEgressBytes(uint32_t outPort, uint8_t priority) const
{
    CheckIndex(outPort, priority, "GetEgressBytes:");
    return m_egress[static_cast<size_t>(outPort) * PRIORITIES + priority];
}

bool
SwitchMmu::IsLossless(uint8_t priority) const
{
    return priority < PRIORITIES && ((m_losslessMask >> priority) & 1U) != 0;
}

int64_t
SwitchMmu::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_uniform->SetStream(stream);
    return 1;
}

} // namespace ns3
