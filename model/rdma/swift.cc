/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "swift.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/type-id-alias.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Swift");

NS_OBJECT_ENSURE_REGISTERED(Swift);

/// The short name of --cc and network.congestion_control.
static TypeIdAlias g_swiftAlias("swift", "ns3::Swift");

namespace
{

/// Bytes a packet adds to its payload on the wire: BTH 12, ICRC 4, UDP 8, IPv4 20, Ethernet 14,
/// FCS 4, preamble and inter-frame gap 20.
constexpr double WIRE_OVERHEAD_BYTES = 82;

} // namespace

TypeId
Swift::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Swift")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("LlmFabric")
            .AddConstructor<Swift>()
            .AddAttribute("BaseTarget",
                          "The target delay of a path of no hop (paper: base_target; ours, 3 us: "
                          "with 1 us links a path through n switches has n + 1 links, an unloaded "
                          "round trip of 2 us + about 2.1 us per switch, and 1 us of queueing is "
                          "allowed on top).",
                          TimeValue(MicroSeconds(3)),
                          MakeTimeAccessor(&Swift::m_baseTarget),
                          MakeTimeChecker(Time(0), MilliSeconds(10)))
            .AddAttribute("PerHopScaling",
                          "h, the target delay added per switch hop (paper: per-hop scaling; "
                          "ours, 3 us: 2.1 us of round-trip propagation and serialization per "
                          "switch at 100 Gb/s with 1 us links, and 0.9 us, about 11 KB, of "
                          "queueing allowed per hop).",
                          TimeValue(MicroSeconds(3)),
                          MakeTimeAccessor(&Swift::m_perHop),
                          MakeTimeChecker(Time(0), MilliSeconds(1)))
            .AddAttribute("FsRange",
                          "fs_range, the most flow scaling adds to the target, at cwnd = "
                          "FsMinCwnd (paper: fs_range; ours, 4 us, about 50 KB at 100 Gb/s).",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&Swift::m_fsRange),
                          MakeTimeChecker(Time(0), MilliSeconds(10)))
            .AddAttribute("FsMinCwnd",
                          "fs_min_cwnd, packets: the window at which flow scaling reaches "
                          "FsRange (0.1, the paper's illustration of flow scaling as we read it).",
                          DoubleValue(0.1),
                          MakeDoubleAccessor(&Swift::m_fsMinCwnd),
                          MakeDoubleChecker<double>(1e-6, 1e6))
            .AddAttribute("FsMaxCwnd",
                          "fs_max_cwnd, packets: the window from which flow scaling adds nothing "
                          "(100, the paper's illustration as we read it).",
                          DoubleValue(100.0),
                          MakeDoubleAccessor(&Swift::m_fsMaxCwnd),
                          MakeDoubleChecker<double>(1e-6, 1e6))
            .AddAttribute("Ai",
                          "Additive increment, packets per round trip (paper: ai; ours: 1, "
                          "TCP's).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&Swift::m_ai),
                          MakeDoubleChecker<double>(1e-6, 1000.0))
            .AddAttribute("Beta",
                          "Multiplicative decrease constant: cwnd x (1 - Beta (delay - target) / "
                          "delay) (paper: beta; ours: 0.8).",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&Swift::m_beta),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("MaxMdf",
                          "Largest multiplicative decrease, a fraction of cwnd (paper: max_mdf; "
                          "ours: 0.5, a halving at most).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&Swift::m_maxMdf),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("MinCwnd",
                          "Smallest window, packets (paper: min_cwnd, far below one packet; ours: "
                          "0.001, one packet per 1000 round trips).",
                          DoubleValue(0.001),
                          MakeDoubleAccessor(&Swift::m_minCwnd),
                          MakeDoubleChecker<double>(1e-6, 1e6))
            .AddAttribute("MaxCwnd",
                          "Largest window, packets (paper: max_cwnd; ours: 256, 2.5 times the "
                          "100 Gb/s x 8 us bandwidth-delay product in 1 KB packets).",
                          DoubleValue(256.0),
                          MakeDoubleAccessor(&Swift::m_maxCwnd),
                          MakeDoubleChecker<double>(1e-6, 1e6))
            .AddAttribute("InitialCwnd",
                          "cwnd at Start, packets (ours: 50, the 100 Gb/s x 4.2 us bandwidth-delay "
                          "product of a one-switch path in 1 KB packets).",
                          DoubleValue(50.0),
                          MakeDoubleAccessor(&Swift::m_initialCwnd),
                          MakeDoubleChecker<double>(1e-6, 1e6))
            .AddAttribute("RetxResetThreshold",
                          "Timeouts in a row after which cwnd falls to MinCwnd (paper: "
                          "RETX_RESET_THRESHOLD; ours: 5).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&Swift::m_retxReset),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddTraceSource("Cwnd",
                            "The window cwnd, packets (fractional below one).",
                            MakeTraceSourceAccessor(&Swift::m_cwnd),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("TargetDelay",
                            "The target delay of the last acknowledgement.",
                            MakeTraceSourceAccessor(&Swift::m_target),
                            "ns3::TracedValueCallback::Time")
            .AddTraceSource("Delay",
                            "The delay measured by the last acknowledgement.",
                            MakeTraceSourceAccessor(&Swift::m_delay),
                            "ns3::TracedValueCallback::Time");
    return tid;
}

Swift::Swift()
    : m_baseTarget(MicroSeconds(3)),
      m_perHop(MicroSeconds(3)),
      m_fsRange(MicroSeconds(4)),
      m_fsMinCwnd(0.1),
      m_fsMaxCwnd(100.0),
      m_ai(1.0),
      m_beta(0.8),
      m_maxMdf(0.5),
      m_minCwnd(0.001),
      m_maxCwnd(256.0),
      m_initialCwnd(50.0),
      m_retxReset(5),
      m_cwndValue(50.0),
      m_decreased(false),
      m_timeoutsInRow(0),
      m_lastHops(0),
      m_decreases(0),
      m_cwnd(50.0)
{
    NS_LOG_FUNCTION(this);
}

Swift::~Swift()
{
    NS_LOG_FUNCTION(this);
}

std::string
Swift::GetName() const
{
    return "Swift";
}

RdmaCcVariableDisplay
Swift::GetVariableDisplay(const std::string& traceSource) const
{
    if (traceSource == "TargetDelay")
    {
        return {"target_delay_us", 1e6};
    }
    if (traceSource == "Delay")
    {
        return {"delay_us", 1e6};
    }
    if (traceSource == "Cwnd")
    {
        return {"cwnd_packets", 1.0};
    }
    return RdmaCongestionOps::GetVariableDisplay(traceSource);
}

void
Swift::Start(DataRate lineRate)
{
    NS_LOG_FUNCTION(this << lineRate);
    std::string problem = CheckConfig();
    NS_ABORT_MSG_IF(!problem.empty(), "Swift: " << problem);
    RdmaCongestionOps::Start(lineRate);
    m_cwndValue = m_initialCwnd;
    m_decreased = false;
    m_rtt = Time(0);
    m_timeoutsInRow = 0;
    m_lastHops = 0;
    m_decreases = 0;
    m_target = GetTargetDelay(m_cwndValue, 0);
    Publish();
}

Time
Swift::GetTargetDelay(double cwnd, uint32_t hops) const
{
    const double range = m_fsRange.GetSeconds();
    const double a = range / (1.0 / std::sqrt(m_fsMinCwnd) - 1.0 / std::sqrt(m_fsMaxCwnd));
    const double b = -a / std::sqrt(m_fsMaxCwnd);
    const double fs = std::min(range, std::max(0.0, a / std::sqrt(cwnd) + b));
    return m_baseTarget + m_perHop * static_cast<int64_t>(hops) + Seconds(fs);
}

void
Swift::OnAck(const RdmaAckInfo& info)
{
    NS_LOG_FUNCTION(this << info.rtt << +info.hops);
    m_timeoutsInRow = 0;
    if (!info.rtt.IsStrictlyPositive())
    {
        return; // no delay sample (a NAK, or Karn's rule)
    }
    const Time delay = info.rtt;
    m_lastHops = info.hops;
    m_rtt = delay;
    m_delay = delay;
    const Time target = GetTargetDelay(m_cwndValue, info.hops);
    m_target = target;
    const double acked = static_cast<double>(info.ackedBytes) / static_cast<double>(GetMtu());
    const Time now = Simulator::Now();
    if (delay < target)
    {
        m_cwndValue += m_cwndValue >= 1.0 ? m_ai * acked / m_cwndValue : m_ai * acked;
    }
    else if (!m_decreased || now - m_lastDecrease >= delay)
    {
        const double excess = (delay - target).GetSeconds() / delay.GetSeconds();
        m_cwndValue *= std::max(1.0 - m_beta * excess, 1.0 - m_maxMdf);
        m_lastDecrease = now;
        m_decreased = true;
        ++m_decreases;
    }
    Publish();
}

void
Swift::OnTimeout()
{
    NS_LOG_FUNCTION(this);
    ++m_timeoutsInRow;
    const Time now = Simulator::Now();
    if (m_timeoutsInRow >= m_retxReset)
    {
        m_cwndValue = m_minCwnd;
    }
    else if (!m_decreased || now - m_lastDecrease >= m_rtt)
    {
        m_cwndValue *= 1.0 - m_maxMdf;
        m_lastDecrease = now;
        m_decreased = true;
        ++m_decreases;
    }
    Publish();
}

bool
Swift::NeedsHopEcho() const
{
    return true;
}

void
Swift::Publish()
{
    m_cwndValue = std::min(m_maxCwnd, std::max(m_minCwnd, m_cwndValue));
    m_cwnd = m_cwndValue;
    const double mtu = static_cast<double>(GetMtu());
    if (m_cwndValue >= 1.0)
    {
        SetWindow(static_cast<uint64_t>(m_cwndValue * mtu));
        SetRate(GetLineRate());
        return;
    }
    // Below one packet: one packet in flight, paced one per RTT / cwnd.
    SetWindow(GetMtu());
    if (m_rtt.IsStrictlyPositive())
    {
        const double bits = (mtu + WIRE_OVERHEAD_BYTES) * 8.0 * m_cwndValue / m_rtt.GetSeconds();
        const double lineRate = static_cast<double>(GetLineRate().GetBitRate());
        SetRate(DataRate(static_cast<uint64_t>(std::max(1.0, std::min(bits, lineRate)))));
    }
}

std::string
Swift::CheckConfig() const
{
    std::ostringstream problem;
    if (!(m_fsMinCwnd < m_fsMaxCwnd))
    {
        problem << "FsMinCwnd (" << m_fsMinCwnd << ") is not below FsMaxCwnd (" << m_fsMaxCwnd
                << ")";
    }
    else if (m_minCwnd > m_maxCwnd)
    {
        problem << "MinCwnd (" << m_minCwnd << ") is above MaxCwnd (" << m_maxCwnd << ")";
    }
    else if (m_initialCwnd < m_minCwnd || m_initialCwnd > m_maxCwnd)
    {
        problem << "InitialCwnd (" << m_initialCwnd << ") is outside [MinCwnd, MaxCwnd] ["
                << m_minCwnd << ", " << m_maxCwnd << "]";
    }
    return problem.str();
}

double
Swift::GetCwnd() const
{
    return m_cwndValue;
}

Time
Swift::GetLastTarget() const
{
    return m_target.Get();
}

uint64_t
Swift::GetDecreases() const
{
    return m_decreases;
}

uint32_t
Swift::GetLastHops() const
{
    return m_lastHops;
}

} // namespace ns3
