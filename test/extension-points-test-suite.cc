/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/attribute-defaults.h"
#include "ns3/collective-runtime.h"
#include "ns3/collective-strategy.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/egress-stage.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/llm-training-application.h"
#include "ns3/llm-training-helper.h"
#include "ns3/load-balancer.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/ring-collective.h"
#include "ns3/roce-switch.h"
#include "ns3/scenario.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/type-id-alias.h"
#include "ns3/uinteger.h"

#include <numeric>
#include <string>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * The four extension points proven end to end by classes that exist only in this file: a
 * collective algorithm (TestReverseRingCollective), a congestion control (TestHalfRateCc), a load
 * balancer (TestLastPortBalancer) and a switch egress stage (TestCountingStage), each a few lines,
 * registered by TypeId and alias here, chosen from a YAML scenario and from the command line,
 * and run in a whole training job. Adding them changed no file outside test/ and the build lists.
 */

namespace ns3
{

/**
 * @ingroup llm-fabric-tests
 * Ring all-reduce the other way round: rank r sends to r - 1.
 */
class TestReverseRingCollective : public CollectiveStrategy
{
  public:
    /** @return the TypeId. */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::TestReverseRingCollective")
                                .SetParent<CollectiveStrategy>()
                                .AddConstructor<TestReverseRingCollective>();
        return tid;
    }

    TestReverseRingCollective()
        : CollectiveStrategy({CollectiveKind::ALL_REDUCE})
    {
    }

  protected:
    uint32_t BuildSchedule(const CollectiveCall& call, CollectiveSchedule& schedule) const override
    {
        std::vector<uint32_t> ring(call.n);
        for (uint32_t p = 0; p < call.n; ++p)
        {
            ring[p] = (call.n - p) % call.n; // 0, n-1, ..., 1: position p sends to ring[p + 1]
        }
        RingCollective::AddRingStage(ring, 0, call.bytes, 0, true, schedule);
        RingCollective::AddRingStage(ring, 0, call.bytes, call.n - 1, false, schedule);
        return 2 * (call.n - 1);
    }
};

NS_OBJECT_ENSURE_REGISTERED(TestReverseRingCollective);
/// Its alias, registered here as a strategy's own file would.
static TypeIdAlias g_testReverseRingAlias("test-reverse-ring", "ns3::TestReverseRingCollective");

/**
 * @ingroup llm-fabric-tests
 * A congestion control that sends at half the line rate.
 */
class TestHalfRateCc : public RdmaCongestionOps
{
  public:
    /** @return the TypeId. */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::TestHalfRateCc")
                                .SetParent<RdmaCongestionOps>()
                                .AddConstructor<TestHalfRateCc>();
        return tid;
    }

    std::string GetName() const override
    {
        return "TestHalfRateCc";
    }

    void Start(DataRate lineRate) override
    {
        RdmaCongestionOps::Start(lineRate);
        SetRate(DataRate(lineRate.GetBitRate() / 2));
    }
};

NS_OBJECT_ENSURE_REGISTERED(TestHalfRateCc);
/// Its alias.
static TypeIdAlias g_testHalfRateAlias("test-half-rate", "ns3::TestHalfRateCc");

/**
 * @ingroup llm-fabric-tests
 * A load balancer that always takes the last of the equal-cost ports.
 */
class TestLastPortBalancer : public LoadBalancer
{
  public:
    /** @return the TypeId. */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::TestLastPortBalancer")
                                .SetParent<LoadBalancer>()
                                .AddConstructor<TestLastPortBalancer>();
        return tid;
    }

    uint32_t SelectPort(const RoceSwitch& sw, const PortChoice& choice) override
    {
        return choice.ports.back();
    }
};

NS_OBJECT_ENSURE_REGISTERED(TestLastPortBalancer);
/// Its alias.
static TypeIdAlias g_testLastPortAlias("test-last-port", "ns3::TestLastPortBalancer");

/**
 * @ingroup llm-fabric-tests
 * An egress stage that counts the frames leaving every switch it is installed on.
 */
class TestCountingStage : public EgressStage
{
  public:
    /** @return the TypeId. */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::TestCountingStage")
                                .SetParent<EgressStage>()
                                .AddConstructor<TestCountingStage>();
        return tid;
    }

    void Dequeue(RoceSwitch& sw, Ptr<Packet> frame, const QueueState& state) override
    {
        ++g_frames;
        g_bytes += frame->GetSize();
    }

    static uint64_t g_frames; //!< Frames seen by every instance.
    static uint64_t g_bytes;  //!< Their bytes.
};

uint64_t TestCountingStage::g_frames = 0;
uint64_t TestCountingStage::g_bytes = 0;

NS_OBJECT_ENSURE_REGISTERED(TestCountingStage);
/// Its alias.
static TypeIdAlias g_testCountingAlias("test-counting", "ns3::TestCountingStage");

} // namespace ns3

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/**
 * Pure data parallelism over 8 GPUs, 4 servers of 2, one server per leaf and 2 spines, so that
 * the all-reduce ring crosses leaves and every leaf has two equal-cost uplinks.
 */
const std::string BASE_SCENARIO = SmallDenseModelYaml(2) + R"(training:
  global_batch_sequences: 16
  micro_batch: 2
layout:
  dp: 8
)" + CrossLeafClusterYaml(2);

/// What a job did, read before the simulator is destroyed.
struct JobRun
{
    std::vector<std::string> algorithms; //!< Each collective's algorithm (short name).
    bool reverse{true};                  //!< Every all-reduce transfer went r -> r - 1.
    uint64_t allReduceTransfers{0};      //!< Transfers of all-reduces.
    std::vector<std::string> ccTypes;    //!< Each queue pair's congestion control.
    std::vector<uint64_t> ccRates;       //!< Each queue pair's rate, bit/s.
    uint64_t lineRate{0};                //!< The NICs' rate, bit/s.
    std::vector<uint32_t> mtus;          //!< Each queue pair's MTU.
    std::vector<uint64_t> spineTx;       //!< Bytes sent by each spine.
    bool finished{false};                //!< Every rank finished its iteration.
};

/// Members of the DP group of BASE_SCENARIO: ranks 0..7 in order.
constexpr uint32_t GROUP = 8;

/**
 * Record a collective's algorithm.
 * @param run the run.
 * @param record the collective.
 */
void
CollectiveDone(JobRun* run, const CollectiveRecord& record)
{
    run->algorithms.push_back(TypeIdAlias::GetShortName(record.algorithm));
}

/**
 * Check the direction of an all-reduce transfer (every collective of BASE_SCENARIO with more
 * than one member is the DP all-reduce of the 8 ranks).
 * @param run the run.
 * @param record the transfer.
 */
void
TransferDone(JobRun* run, const TransferRecord& record)
{
    ++run->allReduceTransfers;
    run->reverse = run->reverse && record.dstRank == (record.srcRank + GROUP - 1) % GROUP;
}

/**
 * Build and run one iteration of a scenario with a command line, and collect what it did.
 * @param yaml the scenario.
 * @param args the command line after the program name.
 * @param[out] run what the job did.
 * @return "" or the problem.
 */
std::string
RunJob(const std::string& yaml, std::vector<std::string> args, JobRun& run)
{
    Scenario scenario;
    std::string problem = Scenario::LoadFromString(yaml, "ext.yaml", scenario);
    if (!problem.empty())
    {
        return problem;
    }
    LlmTrainingHelper job;
    args.insert(args.begin(), "extension-points");
    std::vector<char*> argv;
    for (std::string& arg : args)
    {
        argv.push_back(arg.data());
    }
    CommandLine cmd;
    cmd.Parse(static_cast<int>(argv.size()), argv.data());
    job.GetAttributeDefaults().RecordCommandLine(static_cast<int>(argv.size()), argv.data());
    TestCountingStage::g_frames = 0;
    TestCountingStage::g_bytes = 0;
    problem = job.Build(scenario);
    if (!problem.empty())
    {
        Simulator::Destroy();
        Config::Reset();
        return problem;
    }
    job.GetFabric().AssignStreams(1);
    job.GetRuntime()->TraceConnectWithoutContext("CollectiveDone",
                                                 MakeBoundCallback(&CollectiveDone, &run));
    job.GetRuntime()->TraceConnectWithoutContext("TransferDone",
                                                 MakeBoundCallback(&TransferDone, &run));
    Simulator::Run();
    run.finished = true;
    for (const auto& app : job.GetApplications())
    {
        run.finished = run.finished && app->IsFinished();
    }
    run.lineRate = job.GetFabric().GetHostDevice(0)->GetDataRate().GetBitRate();
    for (const auto& endpoint : job.GetEndpoints())
    {
        for (const auto& qp : endpoint->GetQueuePairs())
        {
            run.ccTypes.push_back(qp->GetCongestionControl()->GetInstanceTypeId().GetName());
            run.ccRates.push_back(qp->GetCongestionControl()->GetRate().GetBitRate());
            UintegerValue mtu;
            qp->GetAttribute("Mtu", mtu);
            run.mtus.push_back(mtu.Get());
        }
    }
    const RoceFabric& fabric = job.GetFabric();
    for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
    {
        if (fabric.GetSwitchName(s).find("spine") != std::string::npos)
        {
            uint64_t tx = 0;
            for (uint32_t p = 0; p < fabric.GetSwitch(s)->GetNPorts(); ++p)
            {
                tx += fabric.GetSwitch(s)->GetPort(p)->GetTxBytes();
            }
            run.spineTx.push_back(tx);
        }
    }
    Simulator::Destroy();
    Config::Reset();
    return "";
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * The four test-only classes chosen by a scenario, by alias: the job runs with each of them.
 */
class ExtensionPointsScenarioTestCase : public TestCase
{
  public:
    ExtensionPointsScenarioTestCase()
        : TestCase("Test-only collective, congestion control, load balancer and egress stage "
                   "chosen by a YAML scenario, end to end")
    {
    }

  private:
    void DoRun() override
    {
        std::string yaml = std::string(BASE_SCENARIO) + "  load_balancer: test-last-port\n"
                                                        "  egress_stages: [test-counting]\n"
                                                        "collectives:\n"
                                                        "  all_reduce: test-reverse-ring\n"
                                                        "network:\n"
                                                        "  congestion_control: test-half-rate\n";
        JobRun run;
        NS_TEST_ASSERT_MSG_EQ(RunJob(yaml, {}, run), "", "the job builds");
        NS_TEST_ASSERT_MSG_EQ(run.finished, true, "every rank finished");

        // The collective: every instance planned by the test strategy, every transfer r -> r-1.
        NS_TEST_ASSERT_MSG_GT(run.algorithms.size(), 0u, "collectives ran");
        for (const std::string& name : run.algorithms)
        {
            NS_TEST_EXPECT_MSG_EQ(name, "test-reverse-ring", "the scenario's algorithm");
        }
        NS_TEST_EXPECT_MSG_GT(run.allReduceTransfers, 0u, "transfers ran");
        NS_TEST_EXPECT_MSG_EQ(run.reverse, true, "every transfer went from r to r - 1");

        // The congestion control: every queue pair's, at half the line rate.
        NS_TEST_ASSERT_MSG_GT(run.ccTypes.size(), 0u, "queue pairs");
        for (std::size_t i = 0; i < run.ccTypes.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(run.ccTypes[i], "ns3::TestHalfRateCc", "the scenario's cc");
            NS_TEST_EXPECT_MSG_EQ(run.ccRates[i], run.lineRate / 2, "half the line rate");
        }

        // The load balancer: each leaf's last uplink is its port to the last spine, so the
        // first spine carries nothing (the ECMP hash would have used both).
        NS_TEST_ASSERT_MSG_EQ(run.spineTx.size(), 2u, "two spines");
        NS_TEST_EXPECT_MSG_EQ(run.spineTx[0], 0u, "no traffic through spine 0");
        NS_TEST_EXPECT_MSG_GT(run.spineTx[1], 0u, "all of it through spine 1");

        // The egress stage saw frames on every switch they left.
        NS_TEST_EXPECT_MSG_GT(TestCountingStage::g_frames, 0u, "the stage saw frames");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The collective and the congestion control chosen on the command line, against a scenario that
 * names others: the command line wins, and a value given that equals the built-in default (the
 * MTU) is not replaced by the scenario's either.
 */
class ExtensionPointsCommandLineTestCase : public TestCase
{
  public:
    ExtensionPointsCommandLineTestCase()
        : TestCase("Test-only collective and congestion control chosen on the command line win "
                   "over the scenario's choices")
    {
    }

  private:
    void DoRun() override
    {
        std::string yaml = std::string(BASE_SCENARIO) + "collectives:\n"
                                                        "  all_reduce: ring\n"
                                                        "network:\n"
                                                        "  congestion_control: dcqcn\n"
                                                        "  mtu: 1024\n";
        JobRun run;
        NS_TEST_ASSERT_MSG_EQ(
            RunJob(yaml,
                   {"--ns3::CollectiveRuntime::AllReduce=ns3::TestReverseRingCollective",
                    "--ns3::RdmaEndpoint::CongestionControl=ns3::TestHalfRateCc",
                    "--ns3::RdmaQueuePair::Mtu=4096"},
                   run),
            "",
            "the job builds");
        NS_TEST_ASSERT_MSG_EQ(run.finished, true, "every rank finished");
        for (const std::string& name : run.algorithms)
        {
            NS_TEST_EXPECT_MSG_EQ(name, "test-reverse-ring", "the command line's algorithm");
        }
        NS_TEST_EXPECT_MSG_EQ(run.reverse, true, "every transfer went from r to r - 1");
        NS_TEST_ASSERT_MSG_GT(run.ccTypes.size(), 0u, "queue pairs");
        for (std::size_t i = 0; i < run.ccTypes.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(run.ccTypes[i], "ns3::TestHalfRateCc", "the command line's cc");
            NS_TEST_EXPECT_MSG_EQ(run.mtus[i], 4096u, "the command line's MTU, not 1024");
        }

        // Without the command line, the scenario's choices apply (ring, DCQCN, MTU 1024).
        JobRun plain;
        NS_TEST_ASSERT_MSG_EQ(RunJob(yaml, {}, plain), "", "the job builds");
        for (const std::string& name : plain.algorithms)
        {
            NS_TEST_EXPECT_MSG_EQ(name, "ring", "the scenario's algorithm");
        }
        NS_TEST_EXPECT_MSG_EQ(plain.reverse, false, "the ring goes r -> r + 1");
        for (std::size_t i = 0; i < plain.ccTypes.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(plain.ccTypes[i], "ns3::Dcqcn", "the scenario's cc");
            NS_TEST_EXPECT_MSG_EQ(plain.mtus[i], 1024u, "the scenario's MTU");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * AttributeDefaults: what the user gives is read strictly and wins over a scenario's offer.
 */
class AttributeDefaultsTestCase : public TestCase
{
  public:
    AttributeDefaultsTestCase()
        : TestCase("AttributeDefaults: strict values, and the user's value wins over the "
                   "scenario's")
    {
    }

  private:
    void DoRun() override
    {
        AttributeDefaults defaults;
        NS_TEST_EXPECT_MSG_EQ(
            defaults.Give("ns3::RdmaQueuePair::Mtu", "abc"),
            "'abc': not a whole number from 256 to 4096 (ns3::RdmaQueuePair::Mtu)",
            "not a number");
        NS_TEST_EXPECT_MSG_EQ(
            defaults.Give("ns3::RdmaQueuePair::Mtu", "1e3"),
            "'1e3': not a whole number from 256 to 4096 (ns3::RdmaQueuePair::Mtu)",
            "no exponent in an integer");
        NS_TEST_EXPECT_MSG_EQ(defaults.Give("ns3::RdmaQueuePair::Mtu", "5000"),
                              "'5000': out of range from 256 to 4096 (ns3::RdmaQueuePair::Mtu)",
                              "above the checker's 4096");
        NS_TEST_EXPECT_MSG_EQ(defaults.Give("ns3::SwitchMmu::Pmax", "0.5x"),
                              "'0.5x': not a number from 0 to 1 (ns3::SwitchMmu::Pmax)",
                              "trailing characters");
        NS_TEST_EXPECT_MSG_EQ(defaults.Give("ns3::NoSuch::Attribute", "1"),
                              "no attribute ns3::NoSuch::Attribute",
                              "unknown attribute");
        NS_TEST_EXPECT_MSG_EQ(defaults.IsGiven("ns3::RdmaQueuePair::Mtu"), false, "nothing given");

        NS_TEST_ASSERT_MSG_EQ(defaults.Give("RdmaQueuePair::Mtu", "1024"), "", "given");
        NS_TEST_EXPECT_MSG_EQ(defaults.IsGiven("ns3::RdmaQueuePair::Mtu"), true, "recorded");
        NS_TEST_EXPECT_MSG_EQ(defaults.Offer("ns3::RdmaQueuePair::Mtu", UintegerValue(512)),
                              false,
                              "a scenario's value does not replace the user's");
        UintegerValue mtu;
        CreateObject<RdmaQueuePair>()->GetAttribute("Mtu", mtu);
        NS_TEST_EXPECT_MSG_EQ(mtu.Get(), 1024u, "the user's MTU");
        NS_TEST_EXPECT_MSG_EQ(
            defaults.Offer("ns3::RdmaQueuePair::Recovery", StringValue("SelectiveRepeat")),
            true,
            "what the user did not give takes the scenario's value");
        // GetCurrent reads the default as it is now: the 1024 given above, the Recovery offered.
        NS_TEST_EXPECT_MSG_EQ(AttributeDefaults::GetCurrent("ns3::RdmaQueuePair::Mtu"),
                              "1024",
                              "the current MTU default");
        NS_TEST_EXPECT_MSG_EQ(AttributeDefaults::GetCurrent("ns3::RdmaQueuePair::Recovery"),
                              "SelectiveRepeat",
                              "the offered default");
        NS_TEST_EXPECT_MSG_EQ(AttributeDefaults::GetCurrent("ns3::NoSuch::Attribute"),
                              "",
                              "no such attribute");
        Config::Reset();
        // Config::SetDefault is seen, and Config::Reset restores the built-in default (Mtu 1024,
        // rdma-queue-pair.cc).
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(2048));
        NS_TEST_EXPECT_MSG_EQ(AttributeDefaults::GetCurrent("ns3::RdmaQueuePair::Mtu"),
                              "2048",
                              "Config::SetDefault is seen");
        Config::Reset();
        NS_TEST_EXPECT_MSG_EQ(AttributeDefaults::GetCurrent("ns3::RdmaQueuePair::Mtu"),
                              "1024",
                              "the built-in default after Config::Reset");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The extension-points suite.
 */
class ExtensionPointsTestSuite : public TestSuite
{
  public:
    /** Register the cases. */
    ExtensionPointsTestSuite()
        : TestSuite("llm-fabric-extension-points", Type::UNIT)
    {
        AddTestCase(new ExtensionPointsScenarioTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new ExtensionPointsCommandLineTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new AttributeDefaultsTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's instance.
static ExtensionPointsTestSuite g_extensionPointsTestSuite;

} // namespace tests
} // namespace llmfabric
