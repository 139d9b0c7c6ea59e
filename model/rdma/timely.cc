/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "timely.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
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

NS_LOG_COMPONENT_DEFINE("Timely");

NS_OBJECT_ENSURE_REGISTERED(Timely);

/// The short name of --cc and network.congestion_control.
static TypeIdAlias g_timelyAlias("timely", "ns3::Timely");

TypeId
Timely::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Timely")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("LlmFabric")
            .AddConstructor<Timely>()
            .AddAttribute("Alpha",
                          "EWMA weight of a new RTT difference in the gradient, in (0, 1] (the "
                          "paper's table: 0.875; the authors' pseudocode: 0.02, ours).",
                          DoubleValue(0.02),
                          MakeDoubleAccessor(&Timely::m_ewma),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("Beta",
                          "Multiplicative decrease factor, in (0, 1] (paper: 0.8).",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&Timely::m_beta),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("Delta",
                          "Additive increment per completion (paper: 10 Mb/s, for 10 Gb/s NICs).",
                          DataRateValue(DataRate("10Mbps")),
                          MakeDataRateAccessor(&Timely::m_delta),
                          MakeDataRateChecker())
            .AddAttribute("TLow",
                          "Below this RTT the rate increases by Delta whatever the gradient "
                          "(paper's table: 50 us, for segments sent in bursts; the pseudocode: 0 "
                          "with per-packet pacing, ours, since the queue pair paces per packet).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&Timely::m_tLow),
                          MakeTimeChecker(Time(0), Seconds(1)))
            .AddAttribute("THigh",
                          "Above this RTT the rate decreases multiplicatively in proportion to "
                          "how far above (paper's table: 500 us, ours; the pseudocode: 1 ms).",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&Timely::m_tHigh),
                          MakeTimeChecker(NanoSeconds(1), Seconds(1)))
            .AddAttribute("MinRtt",
                          "minRTT, which normalizes the gradient (paper: 20 us, its fabric's); "
                          "0 (ours): the smallest RTT sample the queue pair has seen.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&Timely::m_minRttAttr),
                          MakeTimeChecker(Time(0), Seconds(1)))
            .AddAttribute("HaiThreshold",
                          "Completions in a row with a non-positive gradient before hyper-active "
                          "increase (paper: 5).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&Timely::m_haiThreshold),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("HaiFactor",
                          "N, the multiple of Delta in hyper-active increase (paper: 5).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&Timely::m_haiFactor),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("MinRate",
                          "The rate never falls below this (capped at the line rate; the paper "
                          "gives none, the pseudocode leaves it optional; ours: 10 Mb/s, one "
                          "Delta).",
                          DataRateValue(DataRate("10Mbps")),
                          MakeDataRateAccessor(&Timely::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("ScaleByElapsed",
                          "Scale each step by min(1, time since the last update / minRTT), as "
                          "the authors' pseudocode does (true, ours), or not, as the paper's "
                          "Algorithm 1 (false).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&Timely::m_scaleByElapsed),
                          MakeBooleanChecker())
            .AddTraceSource("RttGradient",
                            "The normalized RTT gradient g of the last completion.",
                            MakeTraceSourceAccessor(&Timely::m_gradient),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

Timely::Timely()
    : m_ewma(0.02),
      m_beta(0.8),
      m_delta("10Mbps"),
      m_tLow(Time(0)),
      m_tHigh(MicroSeconds(500)),
      m_minRttAttr(Time(0)),
      m_haiThreshold(5),
      m_haiFactor(5),
      m_minRate("10Mbps"),
      m_scaleByElapsed(true),
      m_rate(0),
      m_haveSample(false),
      m_rttDiff(0),
      m_nonPositive(0),
      m_completions(0),
      m_gradient(0.0)
{
    NS_LOG_FUNCTION(this);
}

Timely::~Timely()
{
    NS_LOG_FUNCTION(this);
}

std::string
Timely::GetName() const
{
    return "Timely";
}

void
Timely::Start(DataRate lineRate)
{
    NS_LOG_FUNCTION(this << lineRate);
    std::string problem = CheckConfig();
    NS_ABORT_MSG_IF(!problem.empty(), "Timely: " << problem);
    RdmaCongestionOps::Start(lineRate);
    m_rate = static_cast<double>(lineRate.GetBitRate());
    m_haveSample = false;
    m_prevRtt = Time(0);
    m_minRttSeen = Time(0);
    m_rttDiff = 0;
    m_nonPositive = 0;
    m_lastUpdate = Simulator::Now();
    m_completions = 0;
    m_gradient = 0.0;
}

double
Timely::StepScale()
{
    const Time now = Simulator::Now();
    double k = 1.0;
    if (m_scaleByElapsed)
    {
        k = std::min(1.0, (now - m_lastUpdate).GetSeconds() / GetMinRtt().GetSeconds());
    }
    m_lastUpdate = now;
    return k;
}

void
Timely::OnAck(const RdmaAckInfo& info)
{
    NS_LOG_FUNCTION(this << info.rtt);
    if (!info.rtt.IsStrictlyPositive())
    {
        return; // no sample: a NAK, or a retransmitted packet (Karn)
    }
    const Time rtt = info.rtt;
    ++m_completions;
    if (m_minRttSeen.IsZero() || rtt < m_minRttSeen)
    {
        m_minRttSeen = rtt;
    }
    if (!m_haveSample)
    {
        m_haveSample = true;
        m_prevRtt = rtt;
        m_lastUpdate = Simulator::Now();
        return;
    }
    // Both samples are positive: converting each, not their possibly negative difference,
    // keeps clear of ns-3.37's int64x64_t(negative) left shift (undefined before C++20).
    const double diff = rtt.GetSeconds() - m_prevRtt.GetSeconds();
    m_prevRtt = rtt;
    m_rttDiff = (1.0 - m_ewma) * m_rttDiff + m_ewma * diff;
    const double g = m_rttDiff / GetMinRtt().GetSeconds();
    m_gradient = g;
    const double k = StepScale();
    const double delta = static_cast<double>(m_delta.GetBitRate());
    m_nonPositive = g <= 0 ? m_nonPositive + 1 : 0;
    if (rtt < m_tLow)
    {
        m_rate += k * delta;
    }
    else if (rtt > m_tHigh)
    {
        m_rate *= 1.0 - k * m_beta * (1.0 - m_tHigh.GetSeconds() / rtt.GetSeconds());
    }
    else if (g <= 0)
    {
        const double n = m_nonPositive >= m_haiThreshold ? m_haiFactor : 1.0;
        m_rate += k * n * delta;
    }
    else
    {
        m_rate *= 1.0 - k * m_beta * g;
    }
    const double lineRate = static_cast<double>(GetLineRate().GetBitRate());
    const double floor = std::min(static_cast<double>(m_minRate.GetBitRate()), lineRate);
    m_rate = std::min(lineRate, std::max(floor, m_rate));
    NS_LOG_DEBUG("rtt " << rtt << " g " << g << " k " << k << " rate " << m_rate);
    SetRate(DataRate(static_cast<uint64_t>(std::llround(m_rate))));
}

std::string
Timely::CheckConfig() const
{
    std::ostringstream problem;
    if (!(m_ewma > 0.0 && m_ewma <= 1.0))
    {
        problem << "Alpha (" << m_ewma << ") is outside (0, 1]";
    }
    else if (!(m_beta > 0.0 && m_beta <= 1.0))
    {
        problem << "Beta (" << m_beta << ") is outside (0, 1]";
    }
    else if (m_tHigh <= m_tLow)
    {
        problem << "THigh (" << m_tHigh.GetNanoSeconds() << " ns) is not above TLow ("
                << m_tLow.GetNanoSeconds() << " ns)";
    }
    else if (m_minRttAttr.IsStrictlyNegative())
    {
        problem << "MinRtt (" << m_minRttAttr.GetNanoSeconds() << " ns) is negative";
    }
    return problem.str();
}

double
Timely::GetRttGradient() const
{
    return m_gradient.Get();
}

Time
Timely::GetMinRtt() const
{
    return m_minRttAttr.IsStrictlyPositive() ? m_minRttAttr : m_minRttSeen;
}

uint64_t
Timely::GetCompletions() const
{
    return m_completions;
}

} // namespace ns3
