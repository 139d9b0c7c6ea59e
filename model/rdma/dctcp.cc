/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dctcp.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/type-id-alias.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Dctcp");

NS_OBJECT_ENSURE_REGISTERED(Dctcp);

/// The short name of --cc and network.congestion_control.
static TypeIdAlias g_dctcpAlias("dctcp", "ns3::Dctcp");

namespace
{

/// InitialWindow's default: 100 Gb/s x 8 us (a leaf-spine round trip of 1 us links), bytes.
constexpr uint64_t DEFAULT_INITIAL_WINDOW = 100000;

} // namespace

TypeId
Dctcp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Dctcp")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("LlmFabric")
            .AddConstructor<Dctcp>()
            .AddAttribute("G",
                          "Alpha gain g in (0, 1]: alpha <- (1 - g) alpha + g F once per window "
                          "of data (DCTCP paper section 3.1 and RFC 8257 section 3.3: 1/16).",
                          DoubleValue(1.0 / 16.0),
                          MakeDoubleAccessor(&Dctcp::m_g),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("InitialAlpha",
                          "Alpha at Start, in [0, 1] (RFC 8257 section 3.3: 1, the cautious "
                          "start).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&Dctcp::m_initialAlpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("InitialWindow",
                          "W at Start, payload bytes (ours: 100,000, the bandwidth-delay product "
                          "of 100 Gb/s and an 8 us leaf-spine round trip of 1 us links; no slow "
                          "start, as RDMA NICs start at the line rate).",
                          UintegerValue(DEFAULT_INITIAL_WINDOW),
                          MakeUintegerAccessor(&Dctcp::m_initialWindow),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("AdditiveIncrease",
                          "Packets W grows by per window of unmarked data (TCP congestion "
                          "avoidance, which DCTCP keeps: 1).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&Dctcp::m_additiveIncrease),
                          MakeDoubleChecker<double>(0.0, 1000.0))
            .AddAttribute("MarkingThreshold",
                          "K of the step marking DCTCP asks the switches for (GetEcnMarking), at "
                          "MarkingReferenceRate (HPCC paper section 5.1: 30 KB at 10 Gb/s).",
                          QueueSizeValue(QueueSize("30KB")),
                          MakeQueueSizeAccessor(&Dctcp::m_markingThreshold),
                          MakeQueueSizeChecker())
            .AddAttribute("MarkingReferenceRate",
                          "The port rate MarkingThreshold is given for; each port's K is scaled "
                          "by its rate over this one (HPCC paper: 10 Gb/s).",
                          DataRateValue(DataRate("10Gbps")),
                          MakeDataRateAccessor(&Dctcp::m_referenceRate),
                          MakeDataRateChecker())
            .AddTraceSource("Alpha",
                            "The congestion estimate alpha.",
                            MakeTraceSourceAccessor(&Dctcp::m_alpha),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("MarkedFraction",
                            "F, the fraction of marked bytes of the last window of data.",
                            MakeTraceSourceAccessor(&Dctcp::m_markedFrac),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

Dctcp::Dctcp()
    : m_g(1.0 / 16.0),
      m_initialAlpha(1.0),
      m_initialWindow(DEFAULT_INITIAL_WINDOW),
      m_additiveIncrease(1.0),
      m_markingThreshold("30KB"),
      m_referenceRate("10Gbps"),
      m_cwnd(0),
      m_acked(0),
      m_marked(0),
      m_windowAcked(0),
      m_windowMarked(0),
      m_windowEnd(0),
      m_cutEnd(0),
      m_windows(0),
      m_cuts(0),
      m_alpha(1.0),
      m_markedFrac(0.0)
{
    NS_LOG_FUNCTION(this);
}

Dctcp::~Dctcp()
{
    NS_LOG_FUNCTION(this);
}

std::string
Dctcp::GetName() const
{
    return "Dctcp";
}

void
Dctcp::Start(DataRate lineRate)
{
    NS_LOG_FUNCTION(this << lineRate);
    std::string problem = CheckConfig();
    NS_ABORT_MSG_IF(!problem.empty(), "Dctcp: " << problem);
    RdmaCongestionOps::Start(lineRate);
    m_cwnd = static_cast<double>(m_initialWindow);
    m_alpha = m_initialAlpha;
    m_acked = 0;
    m_marked = 0;
    m_windowAcked = 0;
    m_windowMarked = 0;
    m_windowEnd = 0;
    m_cutEnd = 0;
    m_windows = 0;
    m_cuts = 0;
    PublishWindow();
}

void
Dctcp::OnAck(const RdmaAckInfo& info)
{
    NS_LOG_FUNCTION(this << info.ackedBytes << info.ecnEcho);
    m_acked += info.ackedBytes;
    m_windowAcked += info.ackedBytes;
    if (info.ecnEcho)
    {
        m_marked += info.ackedBytes;
        m_windowMarked += info.ackedBytes;
    }
    // Everything sent so far, in payload bytes: acknowledged plus in flight.
    const uint64_t sent = m_acked + info.bytesInFlight;
    if (m_acked >= m_windowEnd && m_windowAcked > 0)
    {
        // The observation window ends: everything sent when it began is acknowledged.
        const double f = static_cast<double>(m_windowMarked) / static_cast<double>(m_windowAcked);
        m_markedFrac = f;
        m_alpha = (1.0 - m_g) * m_alpha.Get() + m_g * f;
        ++m_windows;
        m_windowAcked = 0;
        m_windowMarked = 0;
        m_windowEnd = std::max(sent, m_acked + 1);
    }
    const double mtu = static_cast<double>(GetMtu());
    if (info.ecnEcho)
    {
        if (m_acked > m_cutEnd)
        {
            // The ACK acknowledges data sent after the last cut: one cut per window of data.
            m_cwnd = std::max(m_cwnd * (1.0 - m_alpha.Get() / 2.0), mtu);
            m_cutEnd = sent;
            ++m_cuts;
            NS_LOG_DEBUG("cut: alpha " << m_alpha.Get() << " W " << m_cwnd);
        }
    }
    else
    {
        m_cwnd += m_additiveIncrease * mtu * static_cast<double>(info.ackedBytes) / m_cwnd;
    }
    PublishWindow();
}

void
Dctcp::OnTimeout()
{
    NS_LOG_FUNCTION(this);
    m_cwnd = static_cast<double>(GetMtu());
    PublishWindow();
}

bool
Dctcp::NeedsEcnEcho() const
{
    return true;
}

bool
Dctcp::GetEcnMarking(RdmaEcnMarking& marking) const
{
    marking.kminBytes = m_markingThreshold.GetValue();
    marking.kmaxBytes = m_markingThreshold.GetValue();
    marking.pmax = 1.0;
    marking.referenceRate = m_referenceRate;
    return true;
}

std::string
Dctcp::CheckConfig() const
{
    std::ostringstream problem;
    if (!(m_g > 0.0 && m_g <= 1.0))
    {
        problem << "G (" << m_g << ") is outside (0, 1]";
    }
    else if (!(m_initialAlpha >= 0.0 && m_initialAlpha <= 1.0))
    {
        problem << "InitialAlpha (" << m_initialAlpha << ") is outside [0, 1]";
    }
    else if (!(m_additiveIncrease > 0.0))
    {
        problem << "AdditiveIncrease (" << m_additiveIncrease << ") is not positive";
    }
    else if (m_markingThreshold.GetUnit() != QueueSizeUnit::BYTES ||
             m_markingThreshold.GetValue() == 0)
    {
        problem << "MarkingThreshold (" << m_markingThreshold << ") is not a positive byte count";
    }
    else if (m_referenceRate.GetBitRate() == 0)
    {
        problem << "MarkingReferenceRate (0 bit/s) is not positive";
    }
    return problem.str();
}

double
Dctcp::GetAlpha() const
{
    return m_alpha.Get();
}

double
Dctcp::GetCwnd() const
{
    return m_cwnd;
}

uint64_t
Dctcp::GetAckedBytes() const
{
    return m_acked;
}

uint64_t
Dctcp::GetMarkedBytes() const
{
    return m_marked;
}

uint64_t
Dctcp::GetObservationWindows() const
{
    return m_windows;
}

uint64_t
Dctcp::GetCuts() const
{
    return m_cuts;
}

void
Dctcp::PublishWindow()
{
    const double floor = static_cast<double>(GetMtu());
    m_cwnd = std::max(m_cwnd, floor);
    SetWindow(static_cast<uint64_t>(m_cwnd));
}

} // namespace ns3
