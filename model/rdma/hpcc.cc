/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hpcc.h"

#include "ib-aeth-header.h"
#include "ib-bth-header.h"
#include "roce-v2-packet.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/exact-time.h"
#include "ns3/log.h"
#include "ns3/type-id-alias.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Hpcc");

NS_OBJECT_ENSURE_REGISTERED(Hpcc);

/// The short name of --cc and network.congestion_control.
static TypeIdAlias g_hpccAlias("hpcc", "ns3::Hpcc");

namespace
{

/// The paper's target utilization eta (section 3.3).
constexpr double SIGCOMM2019_ETA = 0.95;
/// The paper's maxStage (section 3.3).
constexpr uint32_t SIGCOMM2019_MAX_STAGE = 5;
/// The default N of W_AI (our choice; see ExpectedFlows).
constexpr uint32_t DEFAULT_EXPECTED_FLOWS = 100;
/// The default BaseRtt: PathBaseRtt of llm-fabric-incast's default star (two links of 100 Gb/s
/// and 1 us, MTU 1000): 2 x (2 x 1000 ns + 92.32 ns + 12.64 ns) = 4209.92 ns, rounded.
constexpr int64_t DEFAULT_BASE_RTT_NS = 4210;
/// ts and txBytes are 48-bit counters.
constexpr uint64_t MASK48 = (uint64_t{1} << 48) - 1;
/// Bytes of the preamble and start delimiter, which a frame's last bit comes after.
constexpr uint32_t PREAMBLE_BYTES = 8;

} // namespace

TypeId
Hpcc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Hpcc")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("LlmFabric")
            .AddConstructor<Hpcc>()
            .AddAttribute("Eta",
                          "Target utilization eta, in (0, 1] (paper, section 3.3: 0.95; its "
                          "authors later used 0.99).",
                          DoubleValue(SIGCOMM2019_ETA),
                          MakeDoubleAccessor(&Hpcc::m_eta),
                          MakeDoubleChecker<double>(0.01, 1.0))
            .AddAttribute("MaxStage",
                          "Additive-increase stages (once-per-RTT updates with U < eta) before a "
                          "multiplicative update is forced (paper, section 3.3: 5; the authors' "
                          "erratum: the simulations used 0).",
                          UintegerValue(SIGCOMM2019_MAX_STAGE),
                          MakeUintegerAccessor(&Hpcc::m_maxStage),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("ExpectedFlows",
                          "N of the additive increase W_AI = W_init (1 - eta) / N (paper, "
                          "section 3.3): the number of flows expected on a bottleneck. 100 is "
                          "our choice (0.05 % of W_init per round trip at eta 0.95).",
                          UintegerValue(DEFAULT_EXPECTED_FLOWS),
                          MakeUintegerAccessor(&Hpcc::m_expectedFlows),
                          MakeUintegerChecker<uint32_t>(1, 1000000))
            .AddAttribute("BaseRtt",
                          "T, the round trip without queues (paper, section 3.2): W_init = line "
                          "rate x T and R = W / T. Default 4.21 us: Hpcc::PathBaseRtt of "
                          "llm-fabric-incast's default star (2 x 100 Gb/s, 1 us, MTU 1000).",
                          TimeValue(NanoSeconds(DEFAULT_BASE_RTT_NS)),
                          MakeTimeAccessor(&Hpcc::m_baseRtt),
                          MakeTimeChecker(NanoSeconds(1), Seconds(1)))
            .AddAttribute("MinRate",
                          "Floor of the rate; the window is at least MinRate x T (not in the "
                          "paper; an implementation choice).",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&Hpcc::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("FastReact",
                          "React on every ACK with telemetry, without committing W_c (paper, "
                          "section 3.3, 'fast reaction'); false: only once per round trip.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&Hpcc::m_fastReact),
                          MakeBooleanChecker())
            .AddTraceSource("U",
                            "U, the smoothed utilization of the most loaded hop.",
                            MakeTraceSourceAccessor(&Hpcc::m_u),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("ReferenceWindow",
                            "The reference window W_c, bytes (rounded).",
                            MakeTraceSourceAccessor(&Hpcc::m_referenceWindow),
                            "ns3::TracedValueCallback::Uint64");
    return tid;
}

Hpcc::Hpcc()
    : m_eta(SIGCOMM2019_ETA),
      m_maxStage(SIGCOMM2019_MAX_STAGE),
      m_expectedFlows(DEFAULT_EXPECTED_FLOWS),
      m_baseRtt(NanoSeconds(DEFAULT_BASE_RTT_NS)),
      m_minRate("100Mbps"),
      m_fastReact(true),
      m_wInit(0),
      m_wAi(0),
      m_wc(0),
      m_w(0),
      m_incStage(0),
      m_ackedBytes(0),
      m_lastUpdateSeq(0),
      m_ackBatch(0),
      m_lastHops(0),
      m_u(0.0),
      m_referenceWindow(0)
{
    NS_LOG_FUNCTION(this);
    m_hopU.fill(0.0);
    m_hopMeasured.fill(false);
}

Hpcc::~Hpcc()
{
    NS_LOG_FUNCTION(this);
}

std::string
Hpcc::GetName() const
{
    return "Hpcc";
}

RdmaCcVariableDisplay
Hpcc::GetVariableDisplay(const std::string& traceSource) const
{
    if (traceSource == "ReferenceWindow")
    {
        return {"reference_window_bytes", 1.0};
    }
    return RdmaCongestionOps::GetVariableDisplay(traceSource);
}

bool
Hpcc::NeedsTelemetry() const
{
    return true;
}

bool
Hpcc::AckWhenWindowFull() const
{
    return false;
}

void
Hpcc::Start(DataRate lineRate)
{
    NS_LOG_FUNCTION(this << lineRate);
    RdmaCongestionOps::Start(lineRate);
    m_wInit = static_cast<double>(lineRate.GetBitRate()) * m_baseRtt.GetSeconds() / 8.0;
    m_wAi = m_wInit * (1.0 - m_eta) / static_cast<double>(m_expectedFlows);
    m_wc = m_wInit;
    m_incStage = 0;
    m_ackedBytes = 0;
    m_lastUpdateSeq = 0;
    m_ackBatch = 0;
    m_lastHops = 0;
    m_hopU.fill(0.0);
    m_hopMeasured.fill(false);
    m_u = 0.0;
    m_referenceWindow = static_cast<uint64_t>(std::llround(m_wc));
    SetWindowAndRate(m_wInit);
}

void
Hpcc::OnAck(const RdmaAckInfo& info)
{
    NS_LOG_FUNCTION(this << info.ackedPsn << info.telemetryHops);
    m_ackedBytes += info.ackedBytes;
    m_ackBatch = std::min<double>(info.ackedBytes, m_wInit);
    if (m_wInit <= 0 || !MeasureInflight(info))
    {
        return;
    }
    // The reference update once per round trip: when this ACK covers data sent after the last
    // one (snd_nxt then, in payload bytes: acknowledged plus in flight).
    bool update = m_ackedBytes > m_lastUpdateSeq;
    if (!update && !m_fastReact)
    {
        return;
    }
    double window = ComputeWindow(update);
    if (update)
    {
        m_lastUpdateSeq = m_ackedBytes + info.bytesInFlight;
    }
    SetWindowAndRate(window);
}

bool
Hpcc::MeasureInflight(const RdmaAckInfo& info)
{
    const uint32_t hops = std::min<uint32_t>(info.telemetryHops, RoceIntHeader::MAX_HOPS);
    if (hops == 0 || info.telemetry == nullptr)
    {
        return false;
    }
    if (hops != m_lastHops)
    {
        // The first records, or another path: nothing to compare them with.
        std::copy(info.telemetry, info.telemetry + hops, m_last.begin());
        m_lastHops = hops;
        m_hopMeasured.fill(false);
        return false;
    }
    if (((info.telemetry[0].timeNs - m_last[0].timeNs) & MASK48) == 0)
    {
        return false; // the same packet's telemetry again
    }
    const double t = m_baseRtt.GetSeconds();
    const double tNs = static_cast<double>(m_baseRtt.GetNanoSeconds());
    double maxU = 0;
    bool measured = false;
    for (uint32_t i = 0; i < hops; ++i)
    {
        const IntHopRecord& now = info.telemetry[i];
        const IntHopRecord& last = m_last[i];
        const uint64_t tau = (now.timeNs - last.timeNs) & MASK48;
        if (tau == 0 || tau > MASK48 / 2 || now.rateBps == 0)
        {
            continue; // no time passed (or it ran backwards), or no rate to divide by
        }
        const double bytes = static_cast<double>((now.txBytes - last.txBytes) & MASK48);
        const double rate = static_cast<double>(now.rateBps);
        const double txRate = bytes * 8.0 / (static_cast<double>(tau) * 1e-9);
        const double qlen = static_cast<double>(std::min(now.qlenBytes, last.qlenBytes));
        const double u = txRate / rate + qlen * 8.0 / (rate * t);
        const double weight = std::min(static_cast<double>(tau), tNs) / tNs;
        m_hopU[i] = m_hopMeasured[i] ? (1.0 - weight) * m_hopU[i] + weight * u : u;
        m_hopMeasured[i] = true;
        maxU = std::max(maxU, m_hopU[i]);
        measured = true;
        NS_LOG_LOGIC("hop " << i << " tau " << tau << " ns txRate " << txRate << " qlen " << qlen
                            << " u " << u << " U " << m_hopU[i]);
    }
    std::copy(info.telemetry, info.telemetry + hops, m_last.begin());
    if (measured)
    {
        m_u = maxU;
    }
    return measured;
}

double
Hpcc::ComputeWindow(bool updateReference)
{
    const double u = m_u.Get();
    double window;
    if (u >= m_eta || m_incStage >= m_maxStage)
    {
        window = u > 0 ? Bound(m_wc / (u / m_eta) + m_wAi) : m_wInit;
        if (updateReference)
        {
            m_incStage = 0;
            m_wc = window;
        }
    }
    else
    {
        window = Bound(m_wc + m_wAi);
        if (updateReference)
        {
            ++m_incStage;
            m_wc = window;
        }
    }
    m_referenceWindow = static_cast<uint64_t>(std::llround(m_wc));
    NS_LOG_DEBUG("U " << u << " W " << window << " Wc " << m_wc << " stage " << m_incStage
                      << (updateReference ? " (reference)" : ""));
    return window;
}

double
Hpcc::Bound(double window) const
{
    const double minRate = std::min(static_cast<double>(m_minRate.GetBitRate()),
                                    static_cast<double>(GetLineRate().GetBitRate()));
    const double floor = minRate * m_baseRtt.GetSeconds() / 8.0;
    return std::max(floor, std::min(window, m_wInit));
}

void
Hpcc::SetWindowAndRate(double window)
{
    m_w = window;
    SetWindow(static_cast<uint64_t>(std::llround(window + m_ackBatch)));
    const double rate = window * 8.0 / m_baseRtt.GetSeconds();
    const double lineRate = static_cast<double>(GetLineRate().GetBitRate());
    SetRate(DataRate(static_cast<uint64_t>(std::llround(std::min(rate, lineRate)))));
}

std::string
Hpcc::GetProfile(const std::string& name, Profile& out)
{
    out.clear();
    if (name == "sigcomm2019")
    {
        out.emplace_back("Eta", Create<DoubleValue>(SIGCOMM2019_ETA));
        out.emplace_back("MaxStage", Create<UintegerValue>(SIGCOMM2019_MAX_STAGE));
        return "";
    }
    if (name == "revised")
    {
        out.emplace_back("Eta", Create<DoubleValue>(0.99));
        out.emplace_back("MaxStage", Create<UintegerValue>(0));
        return "";
    }
    return "unknown HPCC profile '" + name + "' (known: sigcomm2019, revised)";
}

std::string
Hpcc::ApplyProfile(const std::string& name)
{
    return ApplyProfileFrom(&Hpcc::GetProfile, name);
}

std::string
Hpcc::SetDefaultProfile(const std::string& name)
{
    return SetDefaultProfileFrom(&Hpcc::GetProfile, "ns3::Hpcc", name);
}

Time
Hpcc::PathBaseRtt(const std::vector<DataRate>& rates, const std::vector<Time>& delays, uint32_t mtu)
{
    // Ethernet, IPv4, UDP, ICRC and FCS (50), the BTH, the telemetry and the preamble.
    const uint64_t around = RoceV2Packet::GetEncapsulationOverhead() + IbBthHeader::SIZE +
                            RoceIntHeader::SIZE + PREAMBLE_BYTES;
    const uint64_t dataBits = (around + mtu) * 8;
    const uint64_t ackBits = (around + IbAethHeader::SIZE) * 8;
    int64_t fs = 0;
    for (size_t i = 0; i < rates.size() && i < delays.size(); ++i)
    {
        const double rate = static_cast<double>(rates[i].GetBitRate());
        fs += std::llround(static_cast<double>(dataBits + ackBits) * 1e15 / rate);
        fs += 2 * delays[i].GetFemtoSeconds();
    }
    return ExactTime::FromFs(fs);
}

std::string
Hpcc::CheckConfig() const
{
    std::ostringstream problem;
    if (!(m_eta > 0.0 && m_eta <= 1.0))
    {
        problem << "Eta (" << m_eta << ") is outside (0, 1]";
    }
    else if (!m_baseRtt.IsStrictlyPositive())
    {
        problem << "BaseRtt (" << m_baseRtt.GetNanoSeconds() << " ns) is not positive";
    }
    else if (m_wInit > 0 && m_minRate > GetLineRate())
    {
        problem << "MinRate (" << m_minRate.GetBitRate() << " bit/s) is above the line rate ("
                << GetLineRate().GetBitRate() << " bit/s)";
    }
    return problem.str();
}

double
Hpcc::GetUtilization() const
{
    return m_u.Get();
}

double
Hpcc::GetReferenceWindow() const
{
    return m_wc;
}

double
Hpcc::GetCurrentWindow() const
{
    return m_w;
}

double
Hpcc::GetAdditiveIncrease() const
{
    return m_wAi;
}

uint32_t
Hpcc::GetIncreaseStage() const
{
    return m_incStage;
}

} // namespace ns3
