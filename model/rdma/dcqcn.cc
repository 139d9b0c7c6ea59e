/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dcqcn.h"

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

NS_LOG_COMPONENT_DEFINE("Dcqcn");

NS_OBJECT_ENSURE_REGISTERED(Dcqcn);

/// The short name of --cc and network.congestion_control.
static TypeIdAlias g_dcqcnAlias("dcqcn", "ns3::Dcqcn");

namespace
{

/// RC within this many bit/s of the line rate counts as back at the line rate.
constexpr double RECOVERED_EPSILON_BPS = 1.0;

/// Bytes of the 10 MB byte counter of the paper.
constexpr uint64_t SIGCOMM2015_BYTE_RESET = 10000000;
/// mlx5 rpg_byte_reset default (32767) times its unit (64 bytes).
constexpr uint64_t MLX5_BYTE_RESET = 32767ULL * 64ULL;
/// mlx5 dce_tcp_g default, out of 1024.
constexpr double MLX5_DCE_TCP_G = 1019.0;
/// The byte counter of the simai profile: the largest ByteReset, so that it never fires (2^64 - 1
/// bytes take 46.8 years at 100 Gb/s), as the HPCC-lineage simulators have no byte counter.
constexpr uint64_t SIMAI_BYTE_RESET = UINT64_MAX;
/// The default BaseRtt: the propagation round trip of 4 hops of 1 us links.
constexpr int64_t DEFAULT_BASE_RTT_US = 8;

/**
 * @param rate a rate in bit/s, non-negative.
 * @return it as a DataRate, rounded to whole bit/s.
 */
DataRate
ToDataRate(double rate)
{
    return DataRate(static_cast<uint64_t>(std::llround(std::max(rate, 0.0))));
}

} // namespace

TypeId
Dcqcn::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Dcqcn")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("LlmFabric")
            .AddConstructor<Dcqcn>()
            .AddAttribute("InitialAlpha",
                          "Alpha at Start, in [0, 1] (mlx5 initial_alpha_value, whose default "
                          "1023 is taken as 1).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&Dcqcn::m_initialAlpha),
                          MakeDoubleChecker<double>())
            .AddAttribute("G",
                          "Alpha gain g, in (0, 1]: alpha <- (1 - g) alpha + g on a CNP, "
                          "alpha <- (1 - g) alpha per AlphaUpdatePeriod without one (paper: "
                          "1/256; mlx5 dce_tcp_g = 1019 of 1024 kept, i.e. g = 5/1024).",
                          DoubleValue(1.0 / 256.0),
                          MakeDoubleAccessor(&Dcqcn::m_g),
                          MakeDoubleChecker<double>())
            .AddAttribute("AlphaUpdatePeriod",
                          "Alpha decays once per period without a CNP (paper: timer K, 55 us; "
                          "mlx5 dce_tcp_rtt, 1 us).",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&Dcqcn::m_alphaUpdatePeriod),
                          MakeTimeChecker())
            .AddAttribute("AlphaDecayEvents",
                          "True: one event per AlphaUpdatePeriod applies each decay, and the "
                          "Alpha trace shows every one. False: no such events; the decays are "
                          "applied in closed form, alpha (1 - G)^k for k whole periods, when "
                          "alpha is needed (a CNP, GetAlpha). The rates are the same either way; "
                          "false saves an event per period and queue pair (mlx5's 1 us period "
                          "otherwise dominates large runs), at the cost of a coarser Alpha trace.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&Dcqcn::m_alphaDecayEvents),
                          MakeBooleanChecker())
            .AddAttribute("RateReduceMonitorPeriod",
                          "At most one rate decrease per period; CNPs inside it only update "
                          "alpha. Zero: every CNP decreases (paper; mlx5 "
                          "rate_reduce_monitor_period, 4 us).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&Dcqcn::m_rateReduceMonitorPeriod),
                          MakeTimeChecker())
            .AddAttribute("TimeReset",
                          "Period of the rate-increase timer (paper: timer T, 55 us; mlx5 "
                          "rpg_time_reset, 300 us).",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&Dcqcn::m_timeReset),
                          MakeTimeChecker())
            .AddAttribute("ByteReset",
                          "Bytes sent per byte-counter increase event (paper: B, 10 MB; mlx5 "
                          "rpg_byte_reset, 32767 x 64 B).",
                          UintegerValue(SIGCOMM2015_BYTE_RESET),
                          MakeUintegerAccessor(&Dcqcn::m_byteReset),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Threshold",
                          "F: increase events of each kind in fast recovery before additive "
                          "and hyper increase (paper: 5; mlx5 rpg_threshold, 1).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&Dcqcn::m_threshold),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("AiRate",
                          "Additive increase step of the target rate (paper: R_AI, 40 Mb/s; "
                          "mlx5 rpg_ai_rate, 5 Mb/s).",
                          DataRateValue(DataRate("40Mbps")),
                          MakeDataRateAccessor(&Dcqcn::m_aiRate),
                          MakeDataRateChecker())
            .AddAttribute("HaiRate",
                          "Hyper increase step of the target rate, times the hyper stage "
                          "(paper: R_HAI; mlx5 rpg_hai_rate, 50 Mb/s).",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&Dcqcn::m_haiRate),
                          MakeDataRateChecker())
            .AddAttribute("MinDecFactor",
                          "Bound of a single decrease, percent: the new rate is at least "
                          "MinDecFactor % of the old (0: no bound, 100: no decrease; mlx5 "
                          "rpg_min_dec_fac, 50).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&Dcqcn::m_minDecFactor),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MinRate",
                          "The rate never falls below this (capped at the line rate; mlx5 "
                          "rpg_min_rate, 1 Mb/s).",
                          DataRateValue(DataRate("1Mbps")),
                          MakeDataRateAccessor(&Dcqcn::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("ClampTargetRate",
                          "True: RT <- RC on every decrease (paper). False: only on the first "
                          "decrease after a rate increase (mlx5 clamp_tgt_rate, 0).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&Dcqcn::m_clampTargetRate),
                          MakeBooleanChecker())
            .AddAttribute("Window",
                          "True: at most RC x BaseRtt / 8 payload bytes in flight (rounded to "
                          "the nearest byte), one bandwidth-delay product at the line rate "
                          "scaled by RC / line rate, updated with every change of RC (the "
                          "window of the HPCC paper's DCQCN+w and of the HPCC-lineage "
                          "simulators). False: no window (the DCQCN paper, mlx5).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&Dcqcn::m_window),
                          MakeBooleanChecker())
            .AddAttribute("BaseRtt",
                          "Base round-trip time of the window (used when Window is true): set "
                          "it to the fabric's (the HPCC-lineage simulators use the longest "
                          "idle round trip between hosts). Default 8 us: the propagation round "
                          "trip of 4 hops of 1 us links, a leaf-spine path of the examples.",
                          TimeValue(MicroSeconds(DEFAULT_BASE_RTT_US)),
                          MakeTimeAccessor(&Dcqcn::m_baseRtt),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("Alpha",
                            "The congestion estimate alpha.",
                            MakeTraceSourceAccessor(&Dcqcn::m_alpha),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("TargetRate",
                            "The target rate RT, bit/s.",
                            MakeTraceSourceAccessor(&Dcqcn::m_targetRate),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("Cnp",
                            "A CNP decreased the rate.",
                            MakeTraceSourceAccessor(&Dcqcn::m_cnpTrace),
                            "ns3::Dcqcn::CnpTracedCallback");
    return tid;
}

Dcqcn::Dcqcn()
    : m_initialAlpha(1.0),
      m_g(1.0 / 256.0),
      m_alphaUpdatePeriod(MicroSeconds(55)),
      m_rateReduceMonitorPeriod(Time(0)),
      m_timeReset(MicroSeconds(55)),
      m_byteReset(SIGCOMM2015_BYTE_RESET),
      m_threshold(5),
      m_aiRate("40Mbps"),
      m_haiRate("100Mbps"),
      m_minDecFactor(0),
      m_minRate("1Mbps"),
      m_clampTargetRate(true),
      m_alphaDecayEvents(true),
      m_window(false),
      m_baseRtt(MicroSeconds(DEFAULT_BASE_RTT_US)),
      m_started(false),
      m_recovering(false),
      m_decreased(false),
      m_increasedSinceDecrease(false),
      m_rc(0),
      m_rt(0),
      m_timerStage(0),
      m_byteStage(0),
      m_bytesSinceIncrease(0),
      m_alpha(1.0),
      m_targetRate(0)
{
    NS_LOG_FUNCTION(this);
}

Dcqcn::~Dcqcn()
{
    NS_LOG_FUNCTION(this);
}

RdmaCcVariableDisplay
Dcqcn::GetVariableDisplay(const std::string& traceSource) const
{
    if (traceSource == "TargetRate")
    {
        return {"target_gbps", 1e-9};
    }
    return RdmaCongestionOps::GetVariableDisplay(traceSource);
}

std::string
Dcqcn::GetName() const
{
    return "Dcqcn";
}

void
Dcqcn::Start(DataRate lineRate)
{
    NS_LOG_FUNCTION(this << lineRate);
    RdmaCongestionOps::Start(lineRate);
    m_alphaTimer.Cancel();
    m_increaseTimer.Cancel();
    m_started = true;
    m_recovering = false;
    m_decreased = false;
    m_increasedSinceDecrease = false;
    m_rc = static_cast<double>(lineRate.GetBitRate());
    m_rt = m_rc;
    m_timerStage = 0;
    m_byteStage = 0;
    m_bytesSinceIncrease = 0;
    m_lastAlphaUpdate = Simulator::Now();
    m_alpha = m_initialAlpha;
    PublishRates();
}

void
Dcqcn::Stop()
{
    NS_LOG_FUNCTION(this);
    m_alphaTimer.Cancel();
    m_increaseTimer.Cancel();
    m_started = false;
    m_recovering = false;
}

void
Dcqcn::OnSend(uint32_t bytes)
{
    // No NS_LOG_FUNCTION: called per packet (a log-level test per call shows in profiles).
    if (!m_recovering || m_byteReset == 0)
    {
        return;
    }
    m_bytesSinceIncrease += bytes;
    while (m_recovering && m_bytesSinceIncrease >= m_byteReset)
    {
        m_bytesSinceIncrease -= m_byteReset;
        ++m_byteStage;
        IncreaseEvent();
    }
}

void
Dcqcn::OnCnp()
{
    NS_LOG_FUNCTION(this);
    if (!m_started)
    {
        return;
    }
    CatchUpAlpha();
    const Time now = Simulator::Now();
    if (!m_decreased || now - m_lastDecrease >= m_rateReduceMonitorPeriod)
    {
        if (m_clampTargetRate || !m_decreased || m_increasedSinceDecrease)
        {
            m_rt = m_rc;
        }
        const double lineRate = static_cast<double>(GetLineRate().GetBitRate());
        const double floor = std::min(static_cast<double>(m_minRate.GetBitRate()), lineRate);
        double rc = m_rc * (1.0 - m_alpha.Get() / 2.0);
        rc = std::max(rc, m_rc * std::min<uint32_t>(m_minDecFactor, 100) / 100.0);
        m_rc = std::max(rc, floor);
        NS_LOG_DEBUG("decrease: alpha " << m_alpha.Get() << " RT " << m_rt << " RC " << m_rc);
        m_decreased = true;
        m_increasedSinceDecrease = false;
        m_lastDecrease = now;
        m_timerStage = 0;
        m_byteStage = 0;
        m_bytesSinceIncrease = 0;
        m_recovering = true;
        m_increaseTimer.Cancel();
        m_increaseTimer = Simulator::Schedule(m_timeReset, &Dcqcn::IncreaseTimerExpired, this);
        PublishRates();
        m_cnpTrace();
    }
    m_alpha = (1.0 - m_g) * m_alpha.Get() + m_g;
    RestartAlphaTimer();
}

std::string
Dcqcn::GetProfile(const std::string& name, Profile& out)
{
    out.clear();
    auto add = [&out](const std::string& attribute, Ptr<AttributeValue> value) {
        out.emplace_back(attribute, value);
    };
    if (name == "sigcomm2015")
    {
        add("InitialAlpha", Create<DoubleValue>(1.0));
        add("G", Create<DoubleValue>(1.0 / 256.0));
        add("AlphaUpdatePeriod", Create<TimeValue>(MicroSeconds(55)));
        add("RateReduceMonitorPeriod", Create<TimeValue>(Time(0)));
        add("TimeReset", Create<TimeValue>(MicroSeconds(55)));
        add("ByteReset", Create<UintegerValue>(SIGCOMM2015_BYTE_RESET));
        add("Threshold", Create<UintegerValue>(5));
        add("AiRate", Create<DataRateValue>(DataRate("40Mbps")));
        add("HaiRate", Create<DataRateValue>(DataRate("100Mbps")));
        add("MinDecFactor", Create<UintegerValue>(0));
        add("MinRate", Create<DataRateValue>(DataRate("1Mbps")));
        add("ClampTargetRate", Create<BooleanValue>(true));
        add("Window", Create<BooleanValue>(false));
        return "";
    }
    if (name == "mlx5")
    {
        add("InitialAlpha", Create<DoubleValue>(1.0));
        add("G", Create<DoubleValue>((1024.0 - MLX5_DCE_TCP_G) / 1024.0));
        add("AlphaUpdatePeriod", Create<TimeValue>(MicroSeconds(1)));
        add("RateReduceMonitorPeriod", Create<TimeValue>(MicroSeconds(4)));
        add("TimeReset", Create<TimeValue>(MicroSeconds(300)));
        add("ByteReset", Create<UintegerValue>(MLX5_BYTE_RESET));
        add("Threshold", Create<UintegerValue>(1));
        add("AiRate", Create<DataRateValue>(DataRate("5Mbps")));
        add("HaiRate", Create<DataRateValue>(DataRate("50Mbps")));
        add("MinDecFactor", Create<UintegerValue>(50));
        add("MinRate", Create<DataRateValue>(DataRate("1Mbps")));
        add("ClampTargetRate", Create<BooleanValue>(false));
        add("Window", Create<BooleanValue>(false));
        return "";
    }
    if (name == "simai")
    {
        add("InitialAlpha", Create<DoubleValue>(1.0));
        add("G", Create<DoubleValue>(1.0 / 256.0));
        add("AlphaUpdatePeriod", Create<TimeValue>(MicroSeconds(1)));
        add("RateReduceMonitorPeriod", Create<TimeValue>(MicroSeconds(4)));
        add("TimeReset", Create<TimeValue>(MicroSeconds(900)));
        add("ByteReset", Create<UintegerValue>(SIMAI_BYTE_RESET));
        add("Threshold", Create<UintegerValue>(1));
        add("AiRate", Create<DataRateValue>(DataRate("50Mbps")));
        add("HaiRate", Create<DataRateValue>(DataRate("100Mbps")));
        add("MinDecFactor", Create<UintegerValue>(0));
        add("MinRate", Create<DataRateValue>(DataRate("100Mbps")));
        add("ClampTargetRate", Create<BooleanValue>(false));
        add("Window", Create<BooleanValue>(true));
        return "";
    }
    std::string known;
    for (const std::string& profile : GetProfileNames())
    {
        known += (known.empty() ? "" : ", ") + profile;
    }
    return "unknown DCQCN profile '" + name + "' (known: " + known + ")";
}

std::vector<std::string>
Dcqcn::GetProfileNames()
{
    return {"sigcomm2015", "mlx5", "simai"};
}

std::string
Dcqcn::ApplyProfile(const std::string& name)
{
    return ApplyProfileFrom(&Dcqcn::GetProfile, name);
}

std::string
Dcqcn::SetDefaultProfile(const std::string& name)
{
    return SetDefaultProfileFrom(&Dcqcn::GetProfile, "ns3::Dcqcn", name);
}

std::string
Dcqcn::CheckConfig() const
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
    else if (!m_alphaUpdatePeriod.IsStrictlyPositive())
    {
        problem << "AlphaUpdatePeriod (" << m_alphaUpdatePeriod.GetNanoSeconds()
                << " ns) is not positive";
    }
    else if (!m_timeReset.IsStrictlyPositive())
    {
        problem << "TimeReset (" << m_timeReset.GetNanoSeconds() << " ns) is not positive";
    }
    else if (m_rateReduceMonitorPeriod.IsStrictlyNegative())
    {
        problem << "RateReduceMonitorPeriod (" << m_rateReduceMonitorPeriod.GetNanoSeconds()
                << " ns) is negative";
    }
    else if (m_byteReset == 0)
    {
        problem << "ByteReset (0 B) is not positive";
    }
    else if (m_threshold == 0)
    {
        problem << "Threshold (0) is below 1";
    }
    else if (m_minDecFactor > 100)
    {
        problem << "MinDecFactor (" << m_minDecFactor << " %) is above 100 %";
    }
    else if (m_window && !m_baseRtt.IsStrictlyPositive())
    {
        problem << "BaseRtt (" << m_baseRtt.GetNanoSeconds() << " ns) is not positive while Window "
                << "is true";
    }
    else if (m_started && m_minRate > GetLineRate())
    {
        problem << "MinRate (" << m_minRate.GetBitRate() << " bit/s) is above the line rate ("
                << GetLineRate().GetBitRate() << " bit/s)";
    }
    return problem.str();
}

double
Dcqcn::GetAlpha() const
{
    return m_alpha.Get() * std::pow(1.0 - m_g, static_cast<double>(MissedAlphaPeriods()));
}

DataRate
Dcqcn::GetTargetRate() const
{
    return DataRate(m_targetRate.Get());
}

uint32_t
Dcqcn::GetTimerStage() const
{
    return m_timerStage;
}

uint32_t
Dcqcn::GetByteStage() const
{
    return m_byteStage;
}

void
Dcqcn::DoDispose()
{
    NS_LOG_FUNCTION(this);
    RdmaCongestionOps::DoDispose();
}

int64_t
Dcqcn::MissedAlphaPeriods() const
{
    // Before the first CNP, alpha is InitialAlpha, untouched by time; while the timer runs it
    // applies the decays itself.
    if (!m_started || !m_decreased || !m_alphaTimer.IsExpired() ||
        !m_alphaUpdatePeriod.IsStrictlyPositive())
    {
        return 0; // stopped: alpha stays as it was
    }
    return (Simulator::Now() - m_lastAlphaUpdate).GetTimeStep() / m_alphaUpdatePeriod.GetTimeStep();
}

void
Dcqcn::CatchUpAlpha()
{
    const int64_t periods = MissedAlphaPeriods();
    if (periods > 0)
    {
        m_alpha = m_alpha.Get() * std::pow(1.0 - m_g, static_cast<double>(periods));
        m_lastAlphaUpdate += TimeStep(static_cast<uint64_t>(periods) *
                                      static_cast<uint64_t>(m_alphaUpdatePeriod.GetTimeStep()));
    }
}

void
Dcqcn::RestartAlphaTimer()
{
    m_lastAlphaUpdate = Simulator::Now();
    m_alphaTimer.Cancel();
    if (m_alphaDecayEvents)
    {
        m_alphaTimer = Simulator::Schedule(m_alphaUpdatePeriod, &Dcqcn::AlphaTimerExpired, this);
    }
}

void
Dcqcn::AlphaTimerExpired()
{
    NS_LOG_FUNCTION(this);
    m_alpha = (1.0 - m_g) * m_alpha.Get();
    m_lastAlphaUpdate = Simulator::Now();
    if (m_recovering)
    {
        m_alphaTimer = Simulator::Schedule(m_alphaUpdatePeriod, &Dcqcn::AlphaTimerExpired, this);
    }
}

void
Dcqcn::IncreaseTimerExpired()
{
    NS_LOG_FUNCTION(this);
    ++m_timerStage;
    IncreaseEvent();
    if (m_recovering)
    {
        m_increaseTimer = Simulator::Schedule(m_timeReset, &Dcqcn::IncreaseTimerExpired, this);
    }
}

void
Dcqcn::IncreaseEvent()
{
    const double lineRate = static_cast<double>(GetLineRate().GetBitRate());
    // Fast recovery (both counters at most F) leaves RT as it is.
    if (m_timerStage > m_threshold && m_byteStage > m_threshold)
    {
        const uint32_t stage = std::min(m_timerStage, m_byteStage) - m_threshold;
        m_rt += static_cast<double>(stage) * static_cast<double>(m_haiRate.GetBitRate());
    }
    else if (m_timerStage > m_threshold || m_byteStage > m_threshold)
    {
        m_rt += static_cast<double>(m_aiRate.GetBitRate());
    }
    m_rt = std::min(m_rt, lineRate);
    m_rc = (m_rt + m_rc) / 2.0;
    m_increasedSinceDecrease = true;
    NS_LOG_DEBUG("increase: T " << m_timerStage << " BC " << m_byteStage << " RT " << m_rt << " RC "
                                << m_rc);
    if (m_rc >= lineRate - RECOVERED_EPSILON_BPS)
    {
        m_rc = lineRate;
        m_rt = lineRate;
        StopRecovery();
    }
    PublishRates();
}

void
Dcqcn::PublishRates()
{
    SetRate(ToDataRate(m_rc));
    m_targetRate = ToDataRate(m_rt).GetBitRate();
    SetWindow(m_window ? GetWindowAt(ToDataRate(m_rc)) : UNLIMITED_WINDOW);
}

uint64_t
Dcqcn::GetWindowAt(DataRate rate) const
{
    const double seconds = static_cast<double>(m_baseRtt.GetPicoSeconds()) * 1e-12;
    return static_cast<uint64_t>(
        std::llround(static_cast<double>(rate.GetBitRate()) * seconds / 8.0));
}

void
Dcqcn::StopRecovery()
{
    NS_LOG_FUNCTION(this);
    m_recovering = false;
    m_increaseTimer.Cancel();
    m_alphaTimer.Cancel();
    m_bytesSinceIncrease = 0;
}

} // namespace ns3
