/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/dcqcn.h"
#include "ns3/double.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/rdma-cc-fixed-rate.h"
#include "ns3/rdma-cc-none.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-helper.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of the RDMA congestion controls: RdmaCcNone, RdmaCcFixedRate and the DCQCN reaction
 * point (Dcqcn). Every expected number is derived by hand in a comment from the documented
 * algorithm (see the Dcqcn class description), never taken from the code's output.
 *
 * Unless a test says otherwise, Dcqcn runs with its defaults (the "sigcomm2015" profile) at a
 * line rate of 100 Gb/s: alpha starts at 1, G = 1/256, AlphaUpdatePeriod = TimeReset = 55 us,
 * Threshold F = 5, AiRate = 40 Mb/s, HaiRate = 100 Mb/s, no rate-reduce monitor period,
 * MinRate = 1 Mb/s, ClampTargetRate true. Time starts at 0 when Start is called; events are
 * scheduled at whole microseconds and sampled 1 us after the timer events they follow, so no
 * two events share a time stamp.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/// One gigabit per second, in bit/s.
constexpr uint64_t GBPS = 1000000000ULL;
/// One megabit per second, in bit/s.
constexpr uint64_t MBPS = 1000000ULL;
/// The line rate of most tests, bit/s.
constexpr uint64_t LINE = 100 * GBPS;

/**
 * A sample of the state of a Dcqcn at some time.
 */
struct Sample
{
    uint64_t rate{0};       //!< current rate RC, bit/s.
    uint64_t target{0};     //!< target rate RT, bit/s.
    double alpha{0};        //!< alpha.
    uint32_t timerStage{0}; //!< T.
    uint32_t byteStage{0};  //!< BC.
    uint64_t window{0};     //!< the window, bytes.
};

/**
 * Schedules actions and samples on a Dcqcn, then runs the simulation.
 */
class Driver
{
  public:
    /**
     * @param cc the algorithm, not yet started.
     */
    explicit Driver(Ptr<Dcqcn> cc)
        : m_cc(cc)
    {
    }

    /**
     * Schedule a CNP.
     * @param at its time.
     */
    void Cnp(Time at)
    {
        Ptr<Dcqcn> cc = m_cc;
        ScheduleLambda(at, [cc]() { cc->OnCnp(); });
    }

    /**
     * Schedule a send.
     * @param at its time.
     * @param bytes the bytes sent.
     */
    void Send(Time at, uint32_t bytes)
    {
        Ptr<Dcqcn> cc = m_cc;
        ScheduleLambda(at, [cc, bytes]() { cc->OnSend(bytes); });
    }

    /**
     * Schedule a sample of the state.
     * @param at its time.
     * @return its index in Samples().
     */
    std::size_t Sample(Time at)
    {
        std::size_t index = m_samples.size();
        m_samples.emplace_back();
        Ptr<Dcqcn> cc = m_cc;
        std::vector<tests::Sample>* samples = &m_samples;
        ScheduleLambda(at, [cc, samples, index]() {
            tests::Sample& s = (*samples)[index];
            s.rate = cc->GetRate().GetBitRate();
            s.target = cc->GetTargetRate().GetBitRate();
            s.alpha = cc->GetAlpha();
            s.timerStage = cc->GetTimerStage();
            s.byteStage = cc->GetByteStage();
            s.window = cc->GetWindow();
        });
        return index;
    }

    /**
     * Run until a stop time, then stop the algorithm and destroy the simulator.
     * @param stop the stop time.
     */
    void Run(Time stop)
    {
        Simulator::Stop(stop);
        Simulator::Run();
        m_cc->Stop();
        Simulator::Destroy();
    }

    /**
     * @param index a sample index.
     * @return the sample.
     */
    const tests::Sample& Get(std::size_t index) const
    {
        return m_samples[index];
    }

  private:
    Ptr<Dcqcn> m_cc;                      //!< the algorithm.
    std::vector<tests::Sample> m_samples; //!< the samples, filled by Run.
};

/**
 * @param lineRate the line rate, bit/s.
 * @param attributes name and value pairs of the attributes to change from their defaults.
 * @return a Dcqcn with those attributes, started at that line rate.
 */
template <typename... Args>
Ptr<Dcqcn>
MakeStarted(uint64_t lineRate = LINE, Args... attributes)
{
    Ptr<Dcqcn> cc = CreateObjectWithAttributes<Dcqcn>(attributes...);
    cc->Start(DataRate(lineRate));
    return cc;
}

/**
 * What a test expects of a Dcqcn at one sample time, a row of a table written in this order:
 * time, name, RC, RT, alpha, T, BC, window, RC's tolerance. Only the fields given (not {}) are
 * checked: rates, stages and the window exactly (RC to the tolerance if one is given), alpha to
 * 1e-15.
 */
struct Expected
{
    Time at{};                            //!< the sample time.
    std::string what{};                   //!< the row's name, in the messages of its checks.
    std::optional<uint64_t> rate{};       //!< RC, bit/s.
    std::optional<uint64_t> target{};     //!< RT, bit/s.
    std::optional<double> alpha{};        //!< alpha.
    std::optional<uint32_t> timerStage{}; //!< T.
    std::optional<uint32_t> byteStage{};  //!< BC.
    std::optional<uint64_t> window{};     //!< the window, bytes.
    uint64_t rateTolerance{0};            //!< the tolerance on RC, bit/s.
};

/**
 * Counts what a Dcqcn's traces report.
 */
struct TraceRecorder
{
    uint32_t cnps{0};         //!< Cnp trace calls.
    uint32_t rateChanges{0};  //!< Rate trace calls.
    uint64_t maxRate{0};      //!< largest Rate seen.
    uint64_t lastRate{0};     //!< last Rate seen.
    uint64_t lastTarget{0};   //!< last TargetRate seen.
    uint64_t maxTarget{0};    //!< largest TargetRate seen.
    uint32_t alphaChanges{0}; //!< Alpha trace calls.
    double lastAlpha{-1};     //!< last Alpha seen.

    /** Cnp trace sink. */
    void Cnp()
    {
        ++cnps;
    }

    /**
     * Rate trace sink.
     * @param oldValue previous rate.
     * @param newValue new rate.
     */
    void Rate(uint64_t oldValue, uint64_t newValue)
    {
        ++rateChanges;
        lastRate = newValue;
        maxRate = std::max(maxRate, newValue);
    }

    /**
     * TargetRate trace sink.
     * @param oldValue previous target.
     * @param newValue new target.
     */
    void Target(uint64_t oldValue, uint64_t newValue)
    {
        lastTarget = newValue;
        maxTarget = std::max(maxTarget, newValue);
    }

    /**
     * Alpha trace sink.
     * @param oldValue previous alpha.
     * @param newValue new alpha.
     */
    void Alpha(double oldValue, double newValue)
    {
        ++alphaChanges;
        lastAlpha = newValue;
    }

    /**
     * Connect to the four traces.
     * @param cc the algorithm.
     * @return true if all connected.
     */
    bool Connect(Ptr<Dcqcn> cc)
    {
        bool ok = cc->TraceConnectWithoutContext("Cnp", MakeCallback(&TraceRecorder::Cnp, this));
        ok = cc->TraceConnectWithoutContext("Rate", MakeCallback(&TraceRecorder::Rate, this)) && ok;
        ok = cc->TraceConnectWithoutContext("TargetRate",
                                            MakeCallback(&TraceRecorder::Target, this)) &&
             ok;
        ok = cc->TraceConnectWithoutContext("Alpha", MakeCallback(&TraceRecorder::Alpha, this)) &&
             ok;
        return ok;
    }
};

} // namespace

/**
 * @ingroup llm-fabric-tests
 * A DCQCN test case: samples a Driver's run at the times of a table of expected states and checks
 * them, naming the row in every message.
 */
class DcqcnTestCase : public TestCase
{
  public:
    /**
     * Create the test case.
     * @param name its description.
     */
    explicit DcqcnTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    /**
     * Sample at each row's time, run until stop, and check each sample against its row.
     * @param driver the driver, with its CNPs and sends scheduled.
     * @param stop the stop time.
     * @param rows the expected states.
     * @return the samples, one per row, in the rows' order.
     */
    std::vector<Sample> RunAndCheck(Driver& driver, Time stop, const std::vector<Expected>& rows)
    {
        std::vector<std::size_t> index;
        for (const Expected& row : rows)
        {
            index.push_back(driver.Sample(row.at));
        }
        driver.Run(stop);
        std::vector<Sample> samples;
        for (std::size_t i = 0; i < rows.size(); ++i)
        {
            samples.push_back(driver.Get(index[i]));
            Check(samples.back(), rows[i]);
        }
        return samples;
    }

    /**
     * Run a Dcqcn with CNPs at given times, sample at each row's time, and check each sample
     * against its row.
     * @param cc the Dcqcn, started.
     * @param cnps the times of the CNPs.
     * @param stop the stop time.
     * @param rows the expected states.
     * @return the samples, one per row, in the rows' order.
     */
    std::vector<Sample> RunAndCheck(Ptr<Dcqcn> cc,
                                    const std::vector<Time>& cnps,
                                    Time stop,
                                    const std::vector<Expected>& rows)
    {
        Driver driver(cc);
        for (Time at : cnps)
        {
            driver.Cnp(at);
        }
        return RunAndCheck(driver, stop, rows);
    }

    /**
     * Check a sample against a row.
     * @param got the sample.
     * @param want the row.
     */
    void Check(const Sample& got, const Expected& want)
    {
        if (want.rate)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(got.rate,
                                      *want.rate,
                                      want.rateTolerance,
                                      want.what << ": RC");
        }
        if (want.target)
        {
            NS_TEST_EXPECT_MSG_EQ(got.target, *want.target, want.what << ": RT");
        }
        if (want.alpha)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(got.alpha, *want.alpha, 1e-15, want.what << ": alpha");
        }
        if (want.timerStage)
        {
            NS_TEST_EXPECT_MSG_EQ(got.timerStage, *want.timerStage, want.what << ": T");
        }
        if (want.byteStage)
        {
            NS_TEST_EXPECT_MSG_EQ(got.byteStage, *want.byteStage, want.what << ": BC");
        }
        if (want.window)
        {
            NS_TEST_EXPECT_MSG_EQ(got.window, *want.window, want.what << ": window");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * A test case of a congestion control whose rate does not move.
 */
class RdmaCcConstantTestCase : public TestCase
{
  public:
    /**
     * Create the test case.
     * @param name its description.
     */
    explicit RdmaCcConstantTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    /**
     * Start a congestion control at the 100 Gb/s line rate and check its name and rate; give it
     * every kind of stimulus at 1 us (a CNP, a send, an ECN-echo acknowledgement, a timeout and
     * another CNP) and check the rate at 500 us; stop it at 1 ms and check the rate again.
     * @param cc the congestion control, not started.
     * @param name its expected name.
     * @param rate its expected rate throughout, bit/s.
     * @param bytes the bytes of the send.
     */
    void CheckConstant(Ptr<RdmaCongestionOps> cc,
                       const std::string& name,
                       uint64_t rate,
                       uint32_t bytes)
    {
        NS_TEST_EXPECT_MSG_EQ(cc->GetName(), name, "name");
        cc->Start(DataRate(LINE));
        NS_TEST_EXPECT_MSG_EQ(cc->GetRate().GetBitRate(), rate, name << ": rate at start");
        NS_TEST_EXPECT_MSG_EQ(cc->GetLineRate().GetBitRate(), LINE, name << ": line rate recorded");
        ScheduleLambda(MicroSeconds(1), [cc, bytes]() {
            cc->OnCnp();
            cc->OnSend(bytes);
            RdmaAckInfo info;
            info.ackedBytes = 4096;
            info.ecnEcho = true;
            cc->OnAck(info);
            cc->OnTimeout();
            cc->OnCnp();
        });
        uint64_t later = 0;
        ScheduleLambda(MicroSeconds(500), [cc, &later]() { later = cc->GetRate().GetBitRate(); });
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(later,
                              rate,
                              name << ": unchanged by CNPs, a send, an ECN-echo ACK and a timeout");
        cc->Stop();
        NS_TEST_EXPECT_MSG_EQ(cc->GetRate().GetBitRate(), rate, name << ": rate after Stop");
        Simulator::Destroy();
    }
};

/**
 * @ingroup llm-fabric-tests
 * RdmaCcNone keeps the line rate whatever happens.
 */
class RdmaCcNoneTestCase : public RdmaCcConstantTestCase
{
  public:
    /** Create the test case. */
    RdmaCcNoneTestCase()
        : RdmaCcConstantTestCase("None always returns the line rate")
    {
    }

  private:
    void DoRun() override
    {
        // The line rate at start, after CNPs, sends, ECN-echo acknowledgements and timeouts,
        // and after Stop.
        CheckConstant(CreateObject<RdmaCcNone>(), "None", LINE, 4096);
    }
};

/**
 * @ingroup llm-fabric-tests
 * RdmaCcFixedRate keeps its Rate, capped at the line rate.
 */
class RdmaCcFixedRateTestCase : public RdmaCcConstantTestCase
{
  public:
    /** Create the test case. */
    RdmaCcFixedRateTestCase()
        : RdmaCcConstantTestCase("FixedRate returns its rate, capped at the line rate")
    {
    }

  private:
    void DoRun() override
    {
        // 25 Gb/s is below the 100 Gb/s line rate: kept as is, whatever happens.
        Ptr<RdmaCcFixedRate> cc = CreateObject<RdmaCcFixedRate>();
        cc->SetAttribute("Rate", DataRateValue(DataRate("25Gbps")));
        CheckConstant(cc, "FixedRate", 25 * GBPS, 100000000);

        // 400 Gb/s above a 100 Gb/s line: capped to 100 Gb/s.
        Ptr<RdmaCcFixedRate> fast = CreateObject<RdmaCcFixedRate>();
        fast->SetAttribute("Rate", DataRateValue(DataRate("400Gbps")));
        fast->Start(DataRate(LINE));
        NS_TEST_ASSERT_MSG_EQ(fast->GetRate().GetBitRate(), LINE, "capped at the line rate");
        // Exactly the line rate stays the line rate.
        fast->SetAttribute("Rate", DataRateValue(DataRate(LINE)));
        fast->Start(DataRate(LINE));
        NS_TEST_ASSERT_MSG_EQ(fast->GetRate().GetBitRate(), LINE, "equal to the line rate");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The first CNP at 100 Gb/s with alpha = 1: RT 100 Gb/s, RC 50 Gb/s, alpha stays 1; traces.
 */
class DcqcnFirstCnpTestCase : public DcqcnTestCase
{
  public:
    /** Create the test case. */
    DcqcnFirstCnpTestCase()
        : DcqcnTestCase("One CNP halves the rate at alpha 1 and keeps the target")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Dcqcn> cc = MakeStarted();
        NS_TEST_ASSERT_MSG_EQ(cc->GetName(), "Dcqcn", "name");
        NS_TEST_ASSERT_MSG_EQ(cc->CheckConfig(), "", "defaults are consistent");
        NS_TEST_ASSERT_MSG_EQ(cc->GetRate().GetBitRate(), LINE, "starts at the line rate");
        NS_TEST_ASSERT_MSG_EQ(cc->GetTargetRate().GetBitRate(), LINE, "target at line rate");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetAlpha(), 1.0, 1e-15, "InitialAlpha 1");
        TraceRecorder traces;
        NS_TEST_ASSERT_MSG_EQ(traces.Connect(cc), true, "traces connect");

        // A CNP at 10 us. RT <- RC = 100 Gb/s; RC <- 100 x (1 - 1/2) = 50 Gb/s;
        // alpha <- (1 - 1/256) x 1 + 1/256 = 1; T and BC reset.
        RunAndCheck(cc,
                    {MicroSeconds(10)},
                    MicroSeconds(20),
                    {{MicroSeconds(11), "the CNP", 50 * GBPS, LINE, 1, 0, 0}});
        NS_TEST_ASSERT_MSG_EQ(traces.cnps, 1, "Cnp trace fired once");
        // Rate went 100 -> 50 Gb/s: one change (Start's 0 -> 100 came before connecting).
        NS_TEST_ASSERT_MSG_EQ(traces.rateChanges, 1, "one Rate change");
        NS_TEST_ASSERT_MSG_EQ(traces.lastRate, 50 * GBPS, "Rate trace shows 50 Gb/s");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Alpha decays by (1 - g) per AlphaUpdatePeriod without a CNP; a CNP restarts the period.
 */
class DcqcnAlphaDecayTestCase : public TestCase
{
  public:
    /** Create the test case. */
    DcqcnAlphaDecayTestCase()
        : TestCase("Alpha decays as (1 - g)^k over k periods without CNP")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Dcqcn> cc = MakeStarted();
        TraceRecorder traces;
        NS_TEST_ASSERT_MSG_EQ(traces.Connect(cc), true, "traces connect");
        Driver driver(cc);
        // CNP at 0: alpha <- (1 - g) 1 + g = 1; the alpha timer expires at 55 us, 110 us, ...
        driver.Cnp(Seconds(0));
        std::size_t k0 = driver.Sample(MicroSeconds(54));
        std::size_t k1 = driver.Sample(MicroSeconds(56));
        std::size_t k10 = driver.Sample(MicroSeconds(10 * 55 + 1));
        driver.Run(MicroSeconds(10 * 55 + 10));

        // Before the first period ends: still 1.
        NS_TEST_ASSERT_MSG_EQ_TOL(driver.Get(k0).alpha, 1.0, 1e-15, "no decay before 55 us");
        // k = 1: 1 - 1/256 = 255/256 = 0.99609375 (exact in binary).
        NS_TEST_ASSERT_MSG_EQ_TOL(driver.Get(k1).alpha, 0.99609375, 1e-15, "k = 1");
        // k = 10: (1 - 1/256)^10 = 1 - 10/256 + 45/256^2 - 120/256^3 + 210/256^4 - ...
        //   = 1 - 0.0390625 + 0.000686646 - 0.0000071526 + 0.0000000489 - ...
        //   = 0.9616170 (to 7 decimals; later terms are below 3e-10).
        NS_TEST_ASSERT_MSG_EQ_TOL(driver.Get(k10).alpha, 0.9616170, 1e-7, "k = 10");
        // The Alpha trace reported the 10 decays (the CNP left alpha at 1: no change).
        NS_TEST_ASSERT_MSG_EQ(traces.alphaChanges, 10, "ten Alpha changes");

        // A CNP restarts the period: CNPs at 0 and 30 us put the first decay at 85 us.
        Ptr<Dcqcn> cc2 = MakeStarted();
        Driver driver2(cc2);
        driver2.Cnp(Seconds(0));
        driver2.Cnp(MicroSeconds(30));
        std::size_t at60 = driver2.Sample(MicroSeconds(60));
        std::size_t at86 = driver2.Sample(MicroSeconds(86));
        driver2.Run(MicroSeconds(100));
        NS_TEST_ASSERT_MSG_EQ_TOL(driver2.Get(at60).alpha, 1.0, 1e-15, "no decay at 60 us");
        NS_TEST_ASSERT_MSG_EQ_TOL(driver2.Get(at86).alpha, 0.99609375, 1e-15, "decay at 85 us");
    }
};

/**
 * @ingroup llm-fabric-tests
 * AlphaDecayEvents false gives the same alpha, rates and stages as the per-period events, with
 * fewer events.
 */
class DcqcnLazyAlphaTestCase : public TestCase
{
  public:
    /** Create the test case. */
    DcqcnLazyAlphaTestCase()
        : TestCase("Closed-form alpha decay: same state as per-period events, fewer events")
    {
    }

  private:
    /**
     * Run a fixed CNP and send pattern under the mlx5 profile.
     * @param events the AlphaDecayEvents value.
     * @param[out] samples the sampled states.
     * @return the number of events the run executed.
     */
    uint64_t Run(bool events, std::vector<Sample>& samples)
    {
        Ptr<Dcqcn> cc = CreateObject<Dcqcn>();
        NS_ABORT_MSG_IF(!cc->ApplyProfile("mlx5").empty(), "profile");
        cc->SetAttribute("AlphaDecayEvents", BooleanValue(events));
        cc->Start(DataRate(LINE));
        Driver driver(cc);
        // CNPs at 0, 10.3, 30.7 and 400.2 us: the decays come at whole microseconds after each
        // CNP, and these times (and the samples') never coincide with one, where the order of
        // simultaneous events would matter. Sends of 100 KB every 20 us.
        for (double t : {0.0, 10.3, 30.7, 400.2})
        {
            driver.Cnp(NanoSeconds(static_cast<int64_t>(t * 1000)));
        }
        for (uint32_t k = 1; k < 40; ++k)
        {
            driver.Send(MicroSeconds(20 * k), 100000);
        }
        std::vector<std::size_t> at;
        for (double t : {5.7, 10.2, 29.9, 31.0, 100.3, 399.9, 401.0, 600.3, 799.9})
        {
            at.push_back(driver.Sample(NanoSeconds(static_cast<int64_t>(t * 1000))));
        }
        uint64_t count = 0;
        ScheduleLambda(NanoSeconds(799990), [&count]() { count = Simulator::GetEventCount(); });
        driver.Run(MicroSeconds(800));
        for (std::size_t i : at)
        {
            samples.push_back(driver.Get(i));
        }
        return count;
    }

    void DoRun() override
    {
        std::vector<Sample> timer;
        std::vector<Sample> lazy;
        uint64_t timerEvents = Run(true, timer);
        uint64_t lazyEvents = Run(false, lazy);
        for (std::size_t i = 0; i < timer.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(lazy[i].rate, timer[i].rate, "rate at sample " << i);
            NS_TEST_EXPECT_MSG_EQ(lazy[i].target, timer[i].target, "target at sample " << i);
            NS_TEST_EXPECT_MSG_EQ_TOL(lazy[i].alpha, timer[i].alpha, 1e-12, "alpha " << i);
            NS_TEST_EXPECT_MSG_EQ(lazy[i].timerStage, timer[i].timerStage, "T " << i);
            NS_TEST_EXPECT_MSG_EQ(lazy[i].byteStage, timer[i].byteStage, "BC " << i);
        }
        // With a 1 us period, the timer version runs an event per microsecond while the flow
        // recovers (hundreds over 800 us); the closed form runs none of them.
        NS_TEST_EXPECT_MSG_GT(timerEvents, lazyEvents + 300, "the decay events are gone");
        // Alpha did decay. g = 5/1024. The CNP at 0 leaves alpha at (1 - g) 1 + g = 1; 10
        // decays until 10.3 us give (1 - g)^10; the CNP then gives (1 - g)^11 + g; 19 decays
        // until 29.9 us (at 11.3 ... 29.3) give (1 - g)^30 + g (1 - g)^19. With
        // ln(1019/1024) = -0.0048948: e^-0.146845 = 0.863428 and 0.0048828 e^-0.093002 =
        // 0.004449: 0.867877.
        NS_TEST_EXPECT_MSG_EQ_TOL(lazy[2].alpha, 0.867877, 1e-5, "decayed alpha");
    }
};

/**
 * @ingroup llm-fabric-tests
 * RateReduceMonitorPeriod: a second CNP inside it does not decrease, one after it does; CNPs
 * inside it still update alpha.
 */
class DcqcnMonitorPeriodTestCase : public DcqcnTestCase
{
  public:
    /** Create the test case. */
    DcqcnMonitorPeriodTestCase()
        : DcqcnTestCase("At most one decrease per RateReduceMonitorPeriod")
    {
    }

  private:
    void DoRun() override
    {
        // InitialAlpha 1 and G 1/256, the defaults. 0 us: RT = 100, RC = 100 x (1 - 1/2) =
        // 50 Gb/s, alpha = 1. 10 us: inside the 50 us period: no decrease, RT and RC unchanged.
        // 60 us >= 0 + 50 us: RT <- 50 Gb/s, RC <- 50 x (1 - 1/2) = 25 Gb/s; alpha was
        // (1 - g) 1 + g = 1 after each CNP, so the cut is by 1/2 and alpha stays 1.
        NS_TEST_ASSERT_MSG_EQ(
            RunMonitored(1.0,
                         1.0 / 256,
                         {{MicroSeconds(1), "first CNP", 50 * GBPS},
                          {MicroSeconds(11), "second CNP", 50 * GBPS, LINE},
                          {MicroSeconds(61), "third CNP", 25 * GBPS, 50 * GBPS, 1}}),
            2,
            "Cnp trace: two decreases");

        // The same with alpha below 1, to see that the ignored CNP still counts for alpha:
        // InitialAlpha 0.5, G 0.25 (all values exact in binary). 0 us: RC = 100 x (1 - 0.5/2) =
        // 75 Gb/s; alpha = 0.75 x 0.5 + 0.25 = 0.625. 10 us: no decrease; alpha = 0.75 x 0.625 +
        // 0.25 = 0.71875. 60 us: RT <- 75 Gb/s; RC <- 75 x (1 - 0.71875/2) = 75 x 0.640625 =
        // 48.046875 Gb/s; alpha = 0.75 x 0.71875 + 0.25 = 0.7890625. Two decreases again.
        NS_TEST_ASSERT_MSG_EQ(
            RunMonitored(0.5,
                         0.25,
                         {{MicroSeconds(1), "first CNP, alpha 0.5", 75 * GBPS, {}, 0.625},
                          {MicroSeconds(11), "second CNP, alpha 0.625", 75 * GBPS, {}, 0.71875},
                          {MicroSeconds(61),
                           "third CNP, alpha 0.71875",
                           48046875000ULL,
                           75 * GBPS,
                           0.7890625}}),
            2,
            "Cnp trace: two decreases with alpha below 1");
    }

    /**
     * CNPs at 0, 10 and 60 us with a 50 us RateReduceMonitorPeriod; TimeReset 1 ms and
     * AlphaUpdatePeriod 1 ms keep the timers out. Check the samples.
     * @param initialAlpha InitialAlpha.
     * @param g G.
     * @param rows the expected states.
     * @return the Cnp trace's count (the decreases).
     */
    uint32_t RunMonitored(double initialAlpha, double g, const std::vector<Expected>& rows)
    {
        Ptr<Dcqcn> cc = MakeStarted(LINE,
                                    "RateReduceMonitorPeriod",
                                    TimeValue(MicroSeconds(50)),
                                    "TimeReset",
                                    TimeValue(MilliSeconds(1)),
                                    "AlphaUpdatePeriod",
                                    TimeValue(MilliSeconds(1)),
                                    "InitialAlpha",
                                    DoubleValue(initialAlpha),
                                    "G",
                                    DoubleValue(g));
        TraceRecorder traces;
        NS_TEST_EXPECT_MSG_EQ(traces.Connect(cc), true, "traces connect");
        RunAndCheck(cc, {Seconds(0), MicroSeconds(10), MicroSeconds(60)}, MicroSeconds(100), rows);
        return traces.cnps;
    }
};

/**
 * @ingroup llm-fabric-tests
 * Fast recovery: after 100 -> 50 Gb/s, timer event k gives RC = RT - (RT - RC0) / 2^k.
 */
class DcqcnFastRecoveryTestCase : public DcqcnTestCase
{
  public:
    /** Create the test case. */
    DcqcnFastRecoveryTestCase()
        : DcqcnTestCase("Fast recovery halves the distance to the target per timer event")
    {
    }

  private:
    void DoRun() override
    {
        // A CNP at 0. RT = 100 Gb/s, RC0 = 50 Gb/s; the timer expires at 55 k us, k = 1..5 <= F =
        // 5, and each sample is 1 us after. RC = 100 - 50 / 2^k: 50, 75, 87.5, 93.75, 96.875,
        // 98.4375 Gb/s; T = k; BC stays 0.
        RunAndCheck(MakeStarted(),
                    {Seconds(0)},
                    MicroSeconds(300),
                    {{MicroSeconds(1), "k = 0", 50000000000ULL, LINE, {}, 0, 0},
                     {MicroSeconds(56), "k = 1", 75000000000ULL, LINE, {}, 1, 0},
                     {MicroSeconds(111), "k = 2", 87500000000ULL, LINE, {}, 2, 0},
                     {MicroSeconds(166), "k = 3", 93750000000ULL, LINE, {}, 3, 0},
                     {MicroSeconds(221), "k = 4", 96875000000ULL, LINE, {}, 4, 0},
                     {MicroSeconds(276), "k = 5", 98437500000ULL, LINE, {}, 5, 0}});
    }
};

/**
 * @ingroup llm-fabric-tests
 * Additive increase: after F fast-recovery timer events, RT grows by AiRate per event.
 */
class DcqcnAdditiveIncreaseTestCase : public DcqcnTestCase
{
  public:
    /** Create the test case. */
    DcqcnAdditiveIncreaseTestCase()
        : DcqcnTestCase("Additive increase raises the target by AiRate per event after F stages")
    {
    }

  private:
    void DoRun() override
    {
        // CNP at 0: RT 100, RC 50, alpha 1. CNP at 1 us: RT <- 50, RC <- 25 Gb/s, alpha 1.
        // The increase timer restarts at 1 us: events at 1 + 55 k us, sampled 1 us after.
        // k = 1..5 (fast recovery, RT = 50): RC = 50 - 25 / 2^k =
        //   37.5, 43.75, 46.875, 48.4375, 49.21875 Gb/s.
        // k = 6 (T = 6 > F, BC = 0: additive): RT = 50 + 0.04 = 50.04 Gb/s,
        //   RC = (50.04 + 49.21875) / 2 = 49.629375 Gb/s.
        // k = 7: RT = 50.08, RC = (50.08 + 49.629375) / 2 = 49.8546875 Gb/s.
        // k = 8: RT = 50.12, RC = (50.12 + 49.8546875) / 2 = 49.98734375 Gb/s.
        RunAndCheck(MakeStarted(),
                    {Seconds(0), MicroSeconds(1)},
                    MicroSeconds(500),
                    {{MicroSeconds(2), "k = 0", 25000000000ULL, 50 * GBPS},
                     {MicroSeconds(57), "k = 1", 37500000000ULL, 50 * GBPS},
                     {MicroSeconds(112), "k = 2", 43750000000ULL, 50 * GBPS},
                     {MicroSeconds(167), "k = 3", 46875000000ULL, 50 * GBPS},
                     {MicroSeconds(222), "k = 4", 48437500000ULL, 50 * GBPS},
                     {MicroSeconds(277), "k = 5", 49218750000ULL, 50 * GBPS},
                     {MicroSeconds(332), "k = 6", 49629375000ULL, 50 * GBPS + 40 * MBPS},
                     {MicroSeconds(387), "k = 7", 49854687500ULL, 50 * GBPS + 80 * MBPS},
                     {MicroSeconds(442), "k = 8", 49987343750ULL, 50 * GBPS + 120 * MBPS}});
    }
};

/**
 * @ingroup llm-fabric-tests
 * Hyper increase when both counters have passed F; the byte counter driven by OnSend.
 */
class DcqcnHyperIncreaseTestCase : public DcqcnTestCase
{
  public:
    /** Create the test case. */
    DcqcnHyperIncreaseTestCase()
        : DcqcnTestCase("Hyper increase adds i x HaiRate once both counters passed F")
    {
    }

  private:
    void DoRun() override
    {
        // F = 2, ByteReset 1000 B; TimeReset 55 us, AiRate 40 Mb/s, HaiRate 100 Mb/s.
        Driver driver(
            MakeStarted(LINE, "Threshold", UintegerValue(2), "ByteReset", UintegerValue(1000)));
        // CNPs at 0 and 1 us: RT = 50, RC = 25 Gb/s (as in the additive test); the timer
        // restarts at 1 us: timer events at 56, 111, 166, 221 us.
        driver.Cnp(Seconds(0));
        driver.Cnp(MicroSeconds(1));
        driver.Send(MicroSeconds(2), 600);
        driver.Send(MicroSeconds(3), 400);
        driver.Send(MicroSeconds(4), 2000);
        driver.Send(MicroSeconds(168), 1000);
        RunAndCheck(
            driver,
            MicroSeconds(250),
            {// 2 us: 600 B < 1000 B: no event.
             {MicroSeconds(2) + NanoSeconds(500), "600 B", 25 * GBPS, {}, {}, {}, 0},
             // 3 us: 1000 B reached: BC = 1 <= F, T = 0: fast recovery, RC = (50 + 25)/2 = 37.5.
             {MicroSeconds(3) + NanoSeconds(500), "BC 1", 37500000000ULL, {}, {}, {}, 1},
             // 4 us: 2000 B = two events. BC = 2: fast recovery, RC = (50 + 37.5)/2 = 43.75.
             // BC = 3 > F, T = 0: additive, RT = 50.04, RC = (50.04 + 43.75)/2 = 46.895 Gb/s.
             {MicroSeconds(5), "BC 3", 46895000000ULL, 50040000000ULL, {}, {}, 3},
             // 56 us: T = 1 <= F, BC = 3 > F: additive, RT = 50.08,
             //   RC = (50.08 + 46.895)/2 = 48.4875 Gb/s.
             {MicroSeconds(57), "T 1", 48487500000ULL, 50080000000ULL},
             // 111 us: T = 2: additive, RT = 50.12, RC = (50.12 + 48.4875)/2 = 49.30375 Gb/s.
             {MicroSeconds(112), "T 2", 49303750000ULL, 50120000000ULL},
             // 166 us: T = 3 > F and BC = 3 > F: hyper with i = min(3, 3) - 2 = 1:
             //   RT = 50.12 + 0.1 = 50.22, RC = (50.22 + 49.30375)/2 = 49.761875 Gb/s.
             {MicroSeconds(167), "T 3, hyper", 49761875000ULL, 50220000000ULL},
             // 168 us: BC = 4, T = 3: i = min(4, 3) - 2 = 1: RT = 50.32,
             //   RC = (50.32 + 49.761875)/2 = 50.0409375 Gb/s.
             {MicroSeconds(169), "BC 4, hyper", 50040937500ULL, 50320000000ULL},
             // 221 us: T = 4, BC = 4: i = 2: RT = 50.32 + 0.2 = 50.52,
             //   RC = (50.52 + 50.0409375)/2 = 50.28046875 Gb/s.
             {MicroSeconds(222), "T 4, hyper", 50280468750ULL, 50520000000ULL, {}, 4, 4}});
    }
};

/**
 * @ingroup llm-fabric-tests
 * ClampTargetRate false keeps the target across decreases until an increase event.
 */
class DcqcnClampTargetTestCase : public DcqcnTestCase
{
  public:
    /** Create the test case. */
    DcqcnClampTargetTestCase()
        : DcqcnTestCase("ClampTargetRate false lowers RT only after an increase")
    {
    }

  private:
    void DoRun() override
    {
        // AlphaUpdatePeriod 1 ms: alpha stays 1 throughout (no decay at 56 us).
        // CNPs at 0, 1 and 58 us.
        RunAndCheck(MakeStarted(LINE,
                                "ClampTargetRate",
                                BooleanValue(false),
                                "AlphaUpdatePeriod",
                                TimeValue(MilliSeconds(1))),
                    {Seconds(0), MicroSeconds(1), MicroSeconds(58)},
                    MicroSeconds(100),
                    {// 0 us, first decrease: RT <- 100, RC <- 50 Gb/s.
                     {MicroSeconds(1) - NanoSeconds(1), "first CNP", 50 * GBPS, LINE},
                     // 1 us, no increase since: RT stays 100, RC <- 50 x (1 - 1/2) = 25 Gb/s.
                     {MicroSeconds(2), "second CNP, RT still 100", 25 * GBPS, LINE},
                     // 56 us, timer event (fast recovery): RC = (100 + 25)/2 = 62.5 Gb/s.
                     {MicroSeconds(57), "timer event", 62500000000ULL},
                     // 58 us, after an increase: RT <- 62.5, RC <- 31.25 Gb/s.
                     {MicroSeconds(59), "CNP after an increase", 31250000000ULL, 62500000000ULL}});
    }
};

/**
 * @ingroup llm-fabric-tests
 * MinRate floors a decrease; MinDecFactor bounds it.
 */
class DcqcnFloorTestCase : public DcqcnTestCase
{
  public:
    /** Create the test case. */
    DcqcnFloorTestCase()
        : DcqcnTestCase("MinRate and MinDecFactor bound a decrease")
    {
    }

  private:
    void DoRun() override
    {
        // CNPs at 0, 1 and 3 us with MinRate 30 Gb/s.
        // 100 -> 50 Gb/s; then 50 x 1/2 = 25 < 30: floored at 30 Gb/s; then 15 -> 30.
        RunAndCheck(MakeStarted(LINE, "MinRate", DataRateValue(DataRate("30Gbps"))),
                    {Seconds(0), MicroSeconds(1), MicroSeconds(3)},
                    MicroSeconds(10),
                    {{MicroSeconds(2), "floored at MinRate", 30 * GBPS},
                     {MicroSeconds(4), "stays at MinRate", 30 * GBPS}});

        /// A MinDecFactor, and the rate after one CNP at 100 Gb/s with alpha 1.
        struct Bound
        {
            uint64_t factor;  //!< MinDecFactor, %.
            uint64_t rate;    //!< the rate after the CNP, bit/s.
            const char* what; //!< the row's name.
        };

        const Bound bounds[] = {
            // 100 x 1/2 = 50 < 75 % of 100 = 75: bounded at 75 Gb/s.
            {75, 75 * GBPS, "bounded by MinDecFactor"},
            // 100 %: the new rate is at least the old one: no decrease.
            {100, LINE, "MinDecFactor 100: no decrease"},
        };
        for (const Bound& bound : bounds)
        {
            RunAndCheck(MakeStarted(LINE, "MinDecFactor", UintegerValue(bound.factor)),
                        {Seconds(0)},
                        MicroSeconds(10),
                        {{MicroSeconds(1), bound.what, bound.rate}});
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * The rate never exceeds the line rate, and increase stops once back at it.
 */
class DcqcnLineRateCapTestCase : public TestCase
{
  public:
    /** Create the test case. */
    DcqcnLineRateCapTestCase()
        : TestCase("Rate and target never exceed the line rate; recovery ends there")
    {
    }

  private:
    void DoRun() override
    {
        // 10 Gb/s line; F = 1; huge steps (AiRate = HaiRate = 5 Gb/s); TimeReset 10 us;
        // ByteReset 1000 B, with 1000 B sent every 3 us: both counters pass F quickly.
        const uint64_t line = 10 * GBPS;
        Ptr<Dcqcn> cc = MakeStarted(line,
                                    "Threshold",
                                    UintegerValue(1),
                                    "AiRate",
                                    DataRateValue(DataRate("5Gbps")),
                                    "HaiRate",
                                    DataRateValue(DataRate("5Gbps")),
                                    "TimeReset",
                                    TimeValue(MicroSeconds(10)),
                                    "ByteReset",
                                    UintegerValue(1000));
        TraceRecorder traces;
        NS_TEST_ASSERT_MSG_EQ(traces.Connect(cc), true, "traces connect");
        Driver driver(cc);
        driver.Cnp(Seconds(0));
        for (uint32_t i = 1; i < 100; ++i)
        {
            driver.Send(MicroSeconds(3 * i), 1000);
        }
        std::size_t mid = driver.Sample(MicroSeconds(500));
        std::size_t late = driver.Sample(MicroSeconds(1000));
        driver.Run(MicroSeconds(1001));
        // After the CNP: RT = 10, RC = 5 Gb/s. Every event sets RT <- min(RT + step, 10) = 10
        // and RC <- (10 + RC)/2, so RC = 10 - 5/2^n after n events: never above 10 Gb/s, and
        // within 1 bit/s of it (hence exactly 10 Gb/s) after n = 33 events (5e9/2^33 < 1).
        NS_TEST_ASSERT_MSG_EQ((traces.maxRate <= line), true, "Rate never above line rate");
        NS_TEST_ASSERT_MSG_EQ((traces.maxTarget <= line), true, "RT never above line rate");
        NS_TEST_ASSERT_MSG_EQ(driver.Get(mid).rate, line, "back at the line rate");
        NS_TEST_ASSERT_MSG_EQ(driver.Get(mid).target, line, "target at the line rate");
        // 33 events, counting both kinds; none after recovery, though bytes are still sent
        // and the timer would have expired again.
        NS_TEST_ASSERT_MSG_EQ(driver.Get(mid).timerStage + driver.Get(mid).byteStage,
                              33,
                              "33 increase events");
        NS_TEST_ASSERT_MSG_EQ(driver.Get(late).timerStage, driver.Get(mid).timerStage, "T");
        NS_TEST_ASSERT_MSG_EQ(driver.Get(late).byteStage, driver.Get(mid).byteStage, "BC");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Back at the line rate the timers stop; the alpha decays missed meanwhile are applied at the
 * next CNP.
 */
class DcqcnIdleAlphaTestCase : public DcqcnTestCase
{
  public:
    /** Create the test case. */
    DcqcnIdleAlphaTestCase()
        : DcqcnTestCase("Missed alpha decays are applied at the next CNP")
    {
    }

  private:
    void DoRun() override
    {
        // TimeReset 1 us, AlphaUpdatePeriod 10 us, G 0.5 (values exact in binary).
        // CNPs at 0 and 75 us.
        // CNP at 0: RT 100, RC 50 Gb/s, alpha 0.5 x 1 + 0.5 = 1. Timer events every 1 us with
        // RT = line: RC = 100 - 50/2^k, within 1 bit/s when 50e9/2^k < 1, i.e. k = 36
        // (2^36 = 6.87e10): back at 100 Gb/s at 36 us, both timers stop.
        // Alpha decays at 10, 20, 30 us: 1/2, 1/4, 1/8; the timer stops at 36 us. GetAlpha
        // counts the decays not applied yet (at 40 and 50 us): 1/32 at 50 us.
        // CNP at 75 us: floor((75 - 30)/10) = 4 missed decays: alpha = 1/8 / 16 = 1/128;
        // RC = 100 x (1 - 1/256) = 99.609375 Gb/s; then alpha = 0.5/128 + 0.5 = 0.50390625.
        RunAndCheck(
            MakeStarted(LINE,
                        "TimeReset",
                        TimeValue(MicroSeconds(1)),
                        "AlphaUpdatePeriod",
                        TimeValue(MicroSeconds(10)),
                        "G",
                        DoubleValue(0.5)),
            {Seconds(0), MicroSeconds(75)},
            MicroSeconds(80),
            {{MicroSeconds(50), "recovered: T 36, alpha 1/8 then 2 decays", LINE, {}, 0.03125, 36},
             {MicroSeconds(76), "cut with caught-up alpha", 99609375000ULL, {}, 0.50390625}});
    }
};

/**
 * @ingroup llm-fabric-tests
 * Stop cancels both timers; CNPs after Stop are ignored.
 */
class DcqcnStopTestCase : public DcqcnTestCase
{
  public:
    /** Create the test case. */
    DcqcnStopTestCase()
        : DcqcnTestCase("Stop cancels the timers")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Dcqcn> cc = MakeStarted();
        Driver driver(cc);
        driver.Cnp(Seconds(0));
        Simulator::Schedule(MicroSeconds(10), &Dcqcn::Stop, cc);
        driver.Cnp(MicroSeconds(20));
        // Without Stop: increase events at 55, 110, 165 us and alpha decays; with it, the state
        // of 0 us stays: RC 50 Gb/s, alpha 1, T 0, and the CNP at 20 us did nothing.
        RunAndCheck(driver,
                    MicroSeconds(300),
                    {{MicroSeconds(200), "after Stop", 50 * GBPS, {}, 1, 0}});
    }
};

/**
 * @ingroup llm-fabric-tests
 * The three profiles set the documented values; an unknown one changes nothing.
 */
class DcqcnProfilesTestCase : public TestCase
{
  public:
    /** Create the test case. */
    DcqcnProfilesTestCase()
        : TestCase("ApplyProfile sets the sigcomm2015, mlx5 and simai values")
    {
    }

  private:
    /**
     * The attribute values of a Dcqcn.
     */
    struct Values
    {
        double initialAlpha;          //!< InitialAlpha.
        double g;                     //!< G.
        Time alphaUpdatePeriod;       //!< AlphaUpdatePeriod.
        Time rateReduceMonitorPeriod; //!< RateReduceMonitorPeriod.
        Time timeReset;               //!< TimeReset.
        uint64_t byteReset;           //!< ByteReset.
        uint64_t threshold;           //!< Threshold.
        uint64_t aiRate;              //!< AiRate, bit/s.
        uint64_t haiRate;             //!< HaiRate, bit/s.
        uint64_t minDecFactor;        //!< MinDecFactor.
        uint64_t minRate;             //!< MinRate, bit/s.
        bool clampTargetRate;         //!< ClampTargetRate.
        bool window;                  //!< Window.
    };

    /**
     * @param cc a Dcqcn.
     * @param name one of its attributes, of value type V.
     * @return the attribute's value.
     */
    template <typename V>
    static auto Get(Ptr<Dcqcn> cc, const std::string& name)
    {
        V value;
        cc->GetAttribute(name, value);
        return value.Get();
    }

    /**
     * @param cc a Dcqcn.
     * @return its attribute values.
     */
    static Values Read(Ptr<Dcqcn> cc)
    {
        return Values{Get<DoubleValue>(cc, "InitialAlpha"),
                      Get<DoubleValue>(cc, "G"),
                      Get<TimeValue>(cc, "AlphaUpdatePeriod"),
                      Get<TimeValue>(cc, "RateReduceMonitorPeriod"),
                      Get<TimeValue>(cc, "TimeReset"),
                      Get<UintegerValue>(cc, "ByteReset"),
                      Get<UintegerValue>(cc, "Threshold"),
                      Get<DataRateValue>(cc, "AiRate").GetBitRate(),
                      Get<DataRateValue>(cc, "HaiRate").GetBitRate(),
                      Get<UintegerValue>(cc, "MinDecFactor"),
                      Get<DataRateValue>(cc, "MinRate").GetBitRate(),
                      Get<BooleanValue>(cc, "ClampTargetRate"),
                      Get<BooleanValue>(cc, "Window")};
    }

    /**
     * Compare two sets of values.
     * @param got the values read.
     * @param want the expected values.
     * @param profile the profile name, for messages.
     */
    void Compare(const Values& got, const Values& want, const std::string& profile)
    {
        NS_TEST_EXPECT_MSG_EQ_TOL(got.initialAlpha, want.initialAlpha, 1e-15, profile);
        NS_TEST_EXPECT_MSG_EQ_TOL(got.g, want.g, 1e-15, profile << " G");
        NS_TEST_EXPECT_MSG_EQ(got.alphaUpdatePeriod, want.alphaUpdatePeriod, profile);
        NS_TEST_EXPECT_MSG_EQ(got.rateReduceMonitorPeriod, want.rateReduceMonitorPeriod, profile);
        NS_TEST_EXPECT_MSG_EQ(got.timeReset, want.timeReset, profile << " TimeReset");
        NS_TEST_EXPECT_MSG_EQ(got.byteReset, want.byteReset, profile << " ByteReset");
        NS_TEST_EXPECT_MSG_EQ(got.threshold, want.threshold, profile << " Threshold");
        NS_TEST_EXPECT_MSG_EQ(got.aiRate, want.aiRate, profile << " AiRate");
        NS_TEST_EXPECT_MSG_EQ(got.haiRate, want.haiRate, profile << " HaiRate");
        NS_TEST_EXPECT_MSG_EQ(got.minDecFactor, want.minDecFactor, profile << " MinDecFactor");
        NS_TEST_EXPECT_MSG_EQ(got.minRate, want.minRate, profile << " MinRate");
        NS_TEST_EXPECT_MSG_EQ(got.clampTargetRate, want.clampTargetRate, profile << " Clamp");
        NS_TEST_EXPECT_MSG_EQ(got.window, want.window, profile << " Window");
    }

    void DoRun() override
    {
        // The paper: g = 1/256, K = T = 55 us, B = 10 MB, F = 5, R_AI = 40 Mb/s,
        // R_HAI = 100 Mb/s, alpha 1, RT <- RC on every CNP, every CNP decreases.
        const Values sigcomm{1.0,
                             1.0 / 256.0,
                             MicroSeconds(55),
                             Time(0),
                             MicroSeconds(55),
                             10000000,
                             5,
                             40 * MBPS,
                             100 * MBPS,
                             0,
                             1 * MBPS,
                             true,
                             false};
        // mlx5: dce_tcp_g 1019 -> g = 5/1024 = 0.0048828125; dce_tcp_rtt 1 us;
        // rate_reduce_monitor_period 4 us; rpg_time_reset 300 us; rpg_byte_reset
        // 32767 x 64 = 2,097,088 B; rpg_threshold 1; rpg_ai_rate 5 Mb/s; rpg_hai_rate 50 Mb/s;
        // rpg_min_dec_fac 50; rpg_min_rate 1 Mb/s; clamp_tgt_rate 0.
        const Values mlx5{1.0,
                          0.0048828125,
                          MicroSeconds(1),
                          MicroSeconds(4),
                          MicroSeconds(300),
                          2097088,
                          1,
                          5 * MBPS,
                          50 * MBPS,
                          50,
                          1 * MBPS,
                          false,
                          false};
        // simai (the HPCC-lineage simulators): g = 1/256, alpha every 1 us, a decrease at most
        // every 4 us, increase timer 900 us, no byte counter (2^64 - 1 B), one fast-recovery
        // stage, AI 50 Mb/s, HAI 100 Mb/s, no bound per decrease, floor 100 Mb/s, no clamping,
        // a window.
        const Values simai{1.0,
                           1.0 / 256.0,
                           MicroSeconds(1),
                           MicroSeconds(4),
                           MicroSeconds(900),
                           UINT64_MAX,
                           1,
                           50 * MBPS,
                           100 * MBPS,
                           0,
                           100 * MBPS,
                           false,
                           true};

        Ptr<Dcqcn> cc = CreateObject<Dcqcn>();
        Compare(Read(cc), sigcomm, "defaults are sigcomm2015");
        NS_TEST_ASSERT_MSG_EQ(cc->ApplyProfile("mlx5"), "", "mlx5 known");
        Compare(Read(cc), mlx5, "mlx5");
        NS_TEST_ASSERT_MSG_EQ(cc->CheckConfig(), "", "mlx5 consistent");
        NS_TEST_ASSERT_MSG_EQ(cc->ApplyProfile("simai"), "", "simai known");
        Compare(Read(cc), simai, "simai");
        NS_TEST_ASSERT_MSG_EQ(cc->CheckConfig(), "", "simai consistent");
        NS_TEST_ASSERT_MSG_EQ(cc->ApplyProfile("sigcomm2015"), "", "sigcomm2015 known");
        Compare(Read(cc), sigcomm, "sigcomm2015");
        NS_TEST_ASSERT_MSG_EQ(cc->CheckConfig(), "", "sigcomm2015 consistent");
        NS_TEST_ASSERT_MSG_EQ(cc->ApplyProfile("hpcc"),
                              "unknown DCQCN profile 'hpcc' (known: sigcomm2015, mlx5, simai)",
                              "unknown profile");
        Compare(Read(cc), sigcomm, "unchanged by an unknown profile");
    }
};

/**
 * @ingroup llm-fabric-tests
 * CheckConfig names the attribute and value of each inconsistent configuration.
 */
class DcqcnCheckConfigTestCase : public TestCase
{
  public:
    /** Create the test case. */
    DcqcnCheckConfigTestCase()
        : TestCase("CheckConfig reports each inconsistent configuration")
    {
    }

  private:
    /**
     * @param name an attribute.
     * @param value a value for it.
     * @return CheckConfig of a default Dcqcn with that one attribute changed.
     */
    static std::string With(const std::string& name, const AttributeValue& value)
    {
        Ptr<Dcqcn> cc = CreateObject<Dcqcn>();
        cc->SetAttribute(name, value);
        return cc->CheckConfig();
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(CreateObject<Dcqcn>()->CheckConfig(), "", "defaults");
        NS_TEST_ASSERT_MSG_EQ(With("G", DoubleValue(0)), "G (0) is outside (0, 1]", "G 0");
        NS_TEST_ASSERT_MSG_EQ(With("G", DoubleValue(1.5)), "G (1.5) is outside (0, 1]", "G");
        NS_TEST_ASSERT_MSG_EQ(With("G", DoubleValue(1)), "", "G 1 is allowed");
        NS_TEST_ASSERT_MSG_EQ(With("InitialAlpha", DoubleValue(2)),
                              "InitialAlpha (2) is outside [0, 1]",
                              "InitialAlpha");
        NS_TEST_ASSERT_MSG_EQ(With("AlphaUpdatePeriod", TimeValue(Time(0))),
                              "AlphaUpdatePeriod (0 ns) is not positive",
                              "AlphaUpdatePeriod");
        NS_TEST_ASSERT_MSG_EQ(With("TimeReset", TimeValue(Time(0))),
                              "TimeReset (0 ns) is not positive",
                              "TimeReset");
        NS_TEST_ASSERT_MSG_EQ(With("RateReduceMonitorPeriod", TimeValue(MicroSeconds(-1))),
                              "RateReduceMonitorPeriod (-1000 ns) is negative",
                              "RateReduceMonitorPeriod");
        NS_TEST_ASSERT_MSG_EQ(With("ByteReset", UintegerValue(0)),
                              "ByteReset (0 B) is not positive",
                              "ByteReset");
        NS_TEST_ASSERT_MSG_EQ(With("Threshold", UintegerValue(0)),
                              "Threshold (0) is below 1",
                              "Threshold");
        NS_TEST_ASSERT_MSG_EQ(With("MinDecFactor", UintegerValue(150)),
                              "MinDecFactor (150 %) is above 100 %",
                              "MinDecFactor");
        Ptr<Dcqcn> windowed = CreateObject<Dcqcn>();
        windowed->SetAttribute("Window", BooleanValue(true));
        windowed->SetAttribute("BaseRtt", TimeValue(Time(0)));
        NS_TEST_ASSERT_MSG_EQ(windowed->CheckConfig(),
                              "BaseRtt (0 ns) is not positive while Window is true",
                              "a window needs a base RTT");
        // MinRate above the line rate: unknown before Start, reported after it.
        Ptr<Dcqcn> cc = CreateObject<Dcqcn>();
        cc->SetAttribute("MinRate", DataRateValue(DataRate("200Gbps")));
        NS_TEST_ASSERT_MSG_EQ(cc->CheckConfig(), "", "line rate unknown before Start");
        cc->Start(DataRate(LINE));
        NS_TEST_ASSERT_MSG_EQ(cc->CheckConfig(),
                              "MinRate (200000000000 bit/s) is above the line rate "
                              "(100000000000 bit/s)",
                              "MinRate above line rate");
        // Even so, the rate never goes above the line rate: the floor is capped at it.
        cc->OnCnp();
        NS_TEST_ASSERT_MSG_EQ(cc->GetRate().GetBitRate(), LINE, "floor capped at line rate");
        cc->Stop();
        Simulator::Destroy();
    }
};

/**
 * @ingroup llm-fabric-tests
 * The simai profile at 100 Gb/s: a cut at a CNP, no target clamping without an increase, one
 * decrease per 4 us, no byte counter, one fast-recovery step per 900 us then additive steps of
 * 50 Mb/s, the window following the rate, and the 100 Mb/s floor.
 */
class DcqcnSimaiTestCase : public DcqcnTestCase
{
  public:
    /** Create the test case. */
    DcqcnSimaiTestCase()
        : DcqcnTestCase("simai: a CNP, the 4 us monitor, 900 us fast recovery then AI, the window")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Dcqcn> cc = CreateObject<Dcqcn>();
        NS_TEST_ASSERT_MSG_EQ(cc->ApplyProfile("simai"), "", "simai");
        cc->Start(DataRate(LINE));
        // Window at the line rate: 100 Gb/s x 8 us (BaseRtt's default) / 8 = 100,000 bytes.
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindow(), 100000, "one BDP at the line rate");
        Driver driver(cc);
        driver.Cnp(MicroSeconds(10));
        driver.Send(MicroSeconds(20), 4000000000U); // 400 x the paper's 10 MB byte counter
        driver.Cnp(NanoSeconds(950500));
        driver.Cnp(NanoSeconds(952800)); // 2.3 us after the last decrease
        const std::vector<Sample> got = RunAndCheck(
            driver,
            MicroSeconds(3700),
            {// CNP at 10 us, alpha 1: RT <- 100, RC <- 100 x (1 - 1/2) = 50 Gb/s (window
             // 50,000 B).
             {MicroSeconds(11), "the CNP", 50 * GBPS, LINE, {}, {}, {}, 50000},
             // No byte counter: 4 GB sent leave BC at 0 and the rate as it was.
             {MicroSeconds(21), "4 GB sent, no increase", 50 * GBPS, {}, {}, {}, 0},
             // Timer at 10 + 900 us: T = 1 <= F = 1, fast recovery: RC = (100 + 50) / 2 =
             // 75 Gb/s, RT kept.
             {MicroSeconds(911), "fast recovery", 75 * GBPS, LINE, {}, 1},
             // CNP at 950.5 us: an increase came since the last cut, so RT <- RC = 75 Gb/s
             // (clamped after an increase). Alpha decayed at 11, 12, ..., 950 us: (255/256)^940
             // = 0.0252465602; RC <- 75 x (1 - 0.0252465602 / 2) = 74.0532539921 Gb/s, window
             // 74,053 B (74,053.25 rounded).
             {MicroSeconds(951), "CNP 2", 74053253992ULL, 75 * GBPS, {}, {}, {}, 74053, 2},
             // CNP at 952.8 us, inside the 4 us monitor period: rates unchanged (checked
             // against the sample before, below).
             {MicroSeconds(953), "CNP 3, held"},
             // Timer at 950.5 + 900 k us. k = 1 (T = 1, fast recovery): RC = (75 + 74.0532539921)
             // / 2 = 74.5266269961. k = 2 (T = 2 > F, BC = 0: additive): RT = 75.05, RC =
             // (75.05 + 74.5266269961) / 2 = 74.7883134980. k = 3: RT = 75.1, RC = 74.9441567490.
             {MicroSeconds(1851), "step 1", 74526626996ULL, 75 * GBPS, {}, {}, {}, {}, 2},
             {MicroSeconds(2751), "step 2", 74788313498ULL, 75050 * MBPS, {}, {}, {}, {}, 2},
             {MicroSeconds(3651), "step 3", 74944156749ULL, 75100 * MBPS, {}, {}, {}, {}, 2}});
        NS_TEST_EXPECT_MSG_EQ(got[4].rate, got[3].rate, "no second cut");

        // The floor: at a 150 Mb/s line, 150 x (1 - 1/2) = 75 Mb/s is below MinRate, so RC =
        // 100 Mb/s; its window is 100 Mb/s x 8 us / 8 = 100 bytes.
        Ptr<Dcqcn> slow = CreateObject<Dcqcn>();
        slow->ApplyProfile("simai");
        slow->Start(DataRate(150 * MBPS));
        slow->OnCnp();
        NS_TEST_EXPECT_MSG_EQ(slow->GetRate().GetBitRate(), 100 * MBPS, "MinRate 100 Mb/s");
        NS_TEST_EXPECT_MSG_EQ(slow->GetWindow(), 100, "window at the floor");
        slow->Stop();
        Simulator::Destroy();
    }
};

/**
 * @ingroup llm-fabric-tests
 * The window: rate x BaseRtt / 8 at any rate, none when Window is off, and a queue pair of a
 * simai DCQCN never has more than it in flight.
 */
class DcqcnWindowTestCase : public TestCase
{
  public:
    /** Create the test case. */
    DcqcnWindowTestCase()
        : TestCase("The window is rate x BaseRtt in bytes and bounds the bytes in flight")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Dcqcn> cc = CreateObject<Dcqcn>();
        cc->SetAttribute("BaseRtt", TimeValue(NanoSeconds(8371)));
        // 25 Gb/s x 8.371 us / 8 = 26,159.375, rounded: 26,159 bytes (Window on or not).
        NS_TEST_EXPECT_MSG_EQ(cc->GetWindowAt(DataRate("25Gbps")), 26159, "window at 25 Gb/s");
        // Window off (the default): no window, before and after a cut.
        cc->Start(DataRate(LINE));
        NS_TEST_EXPECT_MSG_EQ(cc->GetWindow(), RdmaCongestionOps::UNLIMITED_WINDOW, "none");
        cc->OnCnp();
        NS_TEST_EXPECT_MSG_EQ(cc->GetWindow(), RdmaCongestionOps::UNLIMITED_WINDOW, "still none");
        cc->Stop();
        Simulator::Destroy();

        // One 1 MB WRITE between two hosts of a 100 Gb/s, 1 us star (MTU 1000), simai with
        // BaseRtt 2 us: a window of 100 Gb/s x 2 us / 8 = 25,000 bytes, i.e. 25 packets. The
        // idle round trip is above 4 us (4 link delays), so the pipe would hold more than
        // 50,000 bytes: the window binds, and the bytes in flight peak at exactly 25,000.
        Dcqcn::SetDefaultProfile("simai");
        Config::SetDefault("ns3::Dcqcn::BaseRtt", TimeValue(MicroSeconds(2)));
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
        RoceTopologyHelper topo;
        RoceFabric fabric = topo.BuildStar(2, DataRate(LINE), MicroSeconds(1));
        RdmaHelper rdma;
        rdma.SetEndpointAttribute("CongestionControl", TypeIdValue(Dcqcn::GetTypeId()));
        std::vector<Ptr<RdmaEndpoint>> ep = rdma.Install(fabric);
        auto qps = RdmaEndpoint::Connect(ep[0], ep[1], 0xC000);
        Ptr<RdmaQueuePair> qp = qps.first;
        qp->PostWrite(1000000);
        uint64_t peak = 0;
        for (uint32_t t = 1; t <= 3000; ++t)
        {
            ScheduleLambda(NanoSeconds(100 * t),
                           [qp, &peak]() { peak = std::max(peak, qp->GetBytesInFlight()); });
        }
        Simulator::Stop(MicroSeconds(400));
        Simulator::Run();
        uint64_t left = qp->GetOutstandingMessages();
        Simulator::Destroy();
        Dcqcn::SetDefaultProfile("sigcomm2015");
        Config::Reset();
        NS_TEST_EXPECT_MSG_EQ(left, 0, "the WRITE completes");
        NS_TEST_EXPECT_MSG_EQ(peak, 25000, "bytes in flight peak at the window");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The RDMA congestion control test suite.
 */
class DcqcnTestSuite : public TestSuite
{
  public:
    /** Register the test cases. */
    DcqcnTestSuite()
        : TestSuite("llm-fabric-dcqcn", Type::UNIT)
    {
        AddTestCase(new RdmaCcNoneTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RdmaCcFixedRateTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new DcqcnFirstCnpTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new DcqcnAlphaDecayTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new DcqcnLazyAlphaTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new DcqcnMonitorPeriodTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new DcqcnFastRecoveryTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new DcqcnAdditiveIncreaseTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new DcqcnHyperIncreaseTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new DcqcnClampTargetTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new DcqcnFloorTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new DcqcnLineRateCapTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new DcqcnIdleAlphaTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new DcqcnStopTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new DcqcnProfilesTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new DcqcnCheckConfigTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new DcqcnSimaiTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new DcqcnWindowTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static DcqcnTestSuite g_dcqcnTestSuite;

} // namespace tests
} // namespace llmfabric
