/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/abort.h"
#include "ns3/collective-runtime.h"
#include "ns3/config.h"
#include "ns3/fabric-monitor.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/llm-training-helper.h"
#include "ns3/network-config.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/scenario.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/traffic-report.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of a whole training job over the fabric (LlmTrainingHelper, LlmTrainingApplication,
 * CollectiveRuntime): every rank's bytes per strategy equal the analytical report's, the bytes on
 * the wire equal those plus the packets' headers, the iteration breakdown adds up, an
 * expert-parallel all-to-all across servers pauses links without losing a packet, and scenarios
 * that cannot run are refused with the key to change.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/// A small dense model on 8 GPUs (2 servers of 4): tensor, pipeline and data parallelism.
const std::string DENSE_SCENARIO = SmallDenseModelYaml(4) + R"(training:
  global_batch_sequences: 16
  micro_batch: 2
layout:
  tp: 2
  pp: 2
  dp: 2
cluster:
  gpus: 8
  gpus_per_server: 4
  gpu: h100
)";

/// A small mixture-of-experts model whose expert-parallel group spans 4 servers of 2 GPUs, one
/// server per leaf and one spine: each leaf's two NICs send about 6/7 of their all-to-all
/// traffic through one uplink of the same rate (2:1 oversubscribed).
const std::string MOE_SCENARIO = R"(model:
  layers: 2
  hidden_size: 512
  heads: 8
  ffn_hidden_size: 1024
  vocabulary_size: 1000
  sequence_length: 512
  experts: 8
  top_k: 2
training:
  global_batch_sequences: 16
  micro_batch: 2
layout:
  ep: 8
  dp: 8
)" + CrossLeafClusterYaml(1);

/// Interleaved 1F1B (2 virtual stages), ZeRO-3 and a fat-tree, with 3 channels and selective
/// repeat: every mechanism of the schedule at once.
const std::string INTERLEAVED_SCENARIO = SmallDenseModelYaml(8) + R"(training:
  global_batch_sequences: 32
  micro_batch: 2
layout:
  tp: 2
  pp: 2
  virtual_stages: 2
  dp: 2
  zero_stage: 3
cluster:
  gpus: 8
  gpus_per_server: 2
  gpu: h100
topology:
  kind: fat-tree
network:
  channels: 3
  recovery: selective-repeat
)";

/// Wire bytes a data frame adds to its payload in a port's txBytes: Ethernet 14, IPv4 20, UDP 8,
/// BTH 12, ICRC 4 (no FCS, preamble or gap); the first packet of a message has a 16-byte RETH.
constexpr uint64_t FRAME_OVERHEAD = 58;

/// Sums the expected wire bytes of the RDMA transfers per sending rank.
class WireCount
{
  public:
    /// @param r a finished transfer.
    void Transfer(const TransferRecord& r)
    {
        if (!r.nvlink)
        {
            wire[r.srcRank] += r.bytes + (r.bytes + 4095) / 4096 * FRAME_OVERHEAD + 16;
        }
    }

    std::map<uint32_t, uint64_t> wire; //!< by rank
};

/**
 * Checks that no collective or transfer beat its ideal time: the ideal is a lower bound
 * (CollectiveRuntime::EarliestEnd, IdealTransfer), so time over ideal is at least 1 whatever the
 * join times, channels or congestion. (It was a step-synchronous estimate: with two channels a
 * ring all-reduce overlapped one channel's latency with the other's sending and "beat" it, to
 * 0.979 in gpt2-small-16gpu and 0.798 in larger runs.)
 */
class IdealBound
{
  public:
    /**
     * Watch a job's runtime.
     * @param runtime the runtime.
     */
    void Connect(Ptr<CollectiveRuntime> runtime)
    {
        runtime->TraceConnectWithoutContext("CollectiveDone",
                                            MakeCallback(&IdealBound::Collective, this));
        runtime->TraceConnectWithoutContext("TransferDone",
                                            MakeCallback(&IdealBound::Transfer, this));
    }

    /// @param r a finished collective.
    void Collective(const CollectiveRecord& r)
    {
        ++collectives;
        if (r.end - r.lastJoin < r.ideal)
        {
            ++beaten;
        }
        if (r.interBytes > 0 && !r.ideal.IsStrictlyPositive())
        {
            ++unbounded;
        }
    }

    /// @param r a finished transfer.
    void Transfer(const TransferRecord& r)
    {
        ++transfers;
        if (r.end - r.start < r.ideal)
        {
            ++beaten;
        }
    }

    uint64_t collectives{0}; //!< collectives seen
    uint64_t transfers{0};   //!< transfers seen
    uint64_t beaten{0};      //!< records that ended sooner than their ideal
    uint64_t unbounded{0};   //!< collectives across servers with no ideal
};

/**
 * @ingroup llm-fabric-tests
 * A test of a training job, with the check its cases share on the job's collectives.
 */
class TrainingTestCase : public TestCase
{
  protected:
    /// @param name the test's name.
    explicit TrainingTestCase(const std::string& name)
        : TestCase(name)
    {
    }

    /**
     * Expect what an IdealBound watched to be sound: collectives ran, none ended sooner than its
     * ideal time, and every one across servers had an ideal.
     * @param bound the bound, after the run.
     * @param what the run, for the messages.
     */
    void ExpectIdealBound(const IdealBound& bound, const std::string& what)
    {
        NS_TEST_EXPECT_MSG_GT(bound.collectives, 0, what << ": collectives ran");
        NS_TEST_EXPECT_MSG_EQ(bound.beaten, 0, what << ": nothing beats its ideal time");
        NS_TEST_EXPECT_MSG_EQ(bound.unbounded, 0, what << ": every one across servers has one");
    }
};

/**
 * Load a scenario from text.
 * @param yaml the text.
 * @param scenario receives it.
 * @return the problem, if any.
 */
std::string
Load(const std::string& yaml, Scenario& scenario)
{
    return Scenario::LoadFromString(yaml, "test.yaml", scenario);
}

/**
 * @param yaml a scenario.
 * @param edits (text, replacement) pairs: the first occurrence of each text is replaced, in
 *        order; each text must occur.
 * @return the scenario so edited.
 */
std::string
Edited(std::string yaml, const std::vector<std::pair<std::string, std::string>>& edits)
{
    for (const auto& [text, replacement] : edits)
    {
        std::string::size_type at = yaml.find(text);
        NS_ABORT_MSG_IF(at == std::string::npos, "no '" << text << "' in the scenario");
        yaml.replace(at, text.size(), replacement);
    }
    return yaml;
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * One simulated iteration: each rank's payload bytes per strategy, inside and across servers,
 * equal the analytical report's exactly; the bytes on each NIC's wire equal the payload plus the
 * headers of the packets; the iteration's breakdown adds up.
 */
class TrainingConservationTestCase : public TrainingTestCase
{
  public:
    TrainingConservationTestCase()
        : TrainingTestCase(
              "One iteration: bytes per strategy equal the report, wire bytes add headers")
    {
    }

  private:
    void DoRun() override
    {
        Scenario scenario;
        NS_TEST_ASSERT_MSG_EQ(Load(DENSE_SCENARIO, scenario), "", "scenario loads");
        LlmTrainingHelper job;
        NS_TEST_ASSERT_MSG_EQ(job.Build(scenario), "", "job builds");
        job.GetFabric().AssignStreams(1);
        WireCount wire;
        job.GetRuntime()->TraceConnectWithoutContext("TransferDone",
                                                     MakeCallback(&WireCount::Transfer, &wire));
        IdealBound bound;
        bound.Connect(job.GetRuntime());
        Simulator::Run();
        const uint32_t ranks = 8;
        std::vector<std::vector<std::array<uint64_t, 2>>> simulated(ranks);
        std::vector<uint64_t> nicWire(ranks);
        for (uint32_t r = 0; r < ranks; ++r)
        {
            for (uint32_t s = 0; s < TRAFFIC_STRATEGIES; ++s)
            {
                simulated[r].push_back({job.GetRuntime()->GetBytesSent(r, s, false),
                                        job.GetRuntime()->GetBytesSent(r, s, true)});
            }
            uint32_t nic = job.GetTopology()->GetNicOfGpu(r / 4, r % 4);
            nicWire[r] = job.GetFabric().GetHostDevice(nic)->GetCounters(3).txBytes;
        }
        std::vector<IterationRecord> records;
        for (const auto& app : job.GetApplications())
        {
            NS_TEST_ASSERT_MSG_EQ(app->IsFinished(), true, "rank " << app->GetRank() << " done");
            records.push_back(app->GetIterationRecords().at(0));
        }
        std::vector<Time> computeTimes;
        for (const auto& schedule : job.GetSchedules())
        {
            computeTimes.push_back(schedule.GetComputeTime());
        }
        std::vector<TrafficTotals> totals;
        for (uint32_t r = 0; r < ranks; ++r)
        {
            totals.push_back(job.GetSchedules()[r].GetReport().GetRankTotals(r));
        }
        Simulator::Destroy();
        Config::Reset();

        uint64_t anyInter = 0;
        for (uint32_t r = 0; r < ranks; ++r)
        {
            for (uint32_t s = 0; s < TRAFFIC_STRATEGIES; ++s)
            {
                const TrafficBytes& expected = totals[r].byStrategy[s];
                NS_TEST_EXPECT_MSG_EQ(simulated[r][s][0],
                                      expected.intraSent,
                                      "rank " << r << " strategy " << s << " intra-server");
                NS_TEST_EXPECT_MSG_EQ(simulated[r][s][1],
                                      expected.interSent,
                                      "rank " << r << " strategy " << s << " inter-server");
                anyInter += simulated[r][s][1];
            }
            // One NIC per GPU: the NIC's data frames are the rank's RDMA messages.
            NS_TEST_EXPECT_MSG_EQ(nicWire[r], wire.wire[r], "rank " << r << " wire bytes");
            // The compute stream ran exactly the schedule's compute time; the rest of the
            // iteration is exposed communication or bubble.
            const IterationRecord& it = records[r];
            NS_TEST_EXPECT_MSG_EQ(it.compute, computeTimes[r], "rank " << r << " compute");
            NS_TEST_EXPECT_MSG_EQ(it.end - it.start,
                                  it.compute + it.exposed + it.bubble,
                                  "rank " << r << " breakdown");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(it.exposed, it.communication, "exposed <= communication");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(it.bubble, Time(0), "bubble >= 0");
        }
        NS_TEST_EXPECT_MSG_GT(anyInter, 0, "some traffic crossed the network");
        ExpectIdealBound(bound, "one iteration");
    }
};

/**
 * @ingroup llm-fabric-tests
 * An expert-parallel all-to-all across servers: a uniform all-to-all loads every NIC evenly
 * (each sends and receives at most its line rate), but the two NICs of a leaf push about
 * 2 x 6/7 x 400 Gb/s into its 400 Gb/s uplink: with PFC the switches pause, and no packet is
 * lost.
 */
class TrainingMoeIncastTestCase : public TrainingTestCase
{
  public:
    TrainingMoeIncastTestCase()
        : TrainingTestCase("Expert-parallel all-to-all across servers: PFC pauses, no loss")
    {
    }

  private:
    void DoRun() override
    {
        Scenario scenario;
        NS_TEST_ASSERT_MSG_EQ(Load(MOE_SCENARIO, scenario), "", "scenario loads");
        LlmTrainingHelper job;
        NS_TEST_ASSERT_MSG_EQ(
            job.GetAttributeDefaults().Give("ns3::RdmaEndpoint::CongestionControl",
                                            "ns3::RdmaCcNone"),
            "",
            "congestion control");
        // A 2 MB buffer per switch: 3 ports x 8 priorities x 4200 B reserved, about 133 KB of
        // lossless headroom per port (2 x 1 us x 400 Gb/s plus frames), some 1.5 MB shared;
        // the uplink's excess (about 2 x 6/7 x 400 - 400 = 286 Gb/s while both NICs send)
        // fills it within the all-to-alls of an iteration, so PFC must pause the NICs.
        NS_TEST_ASSERT_MSG_EQ(
            job.GetTopologyHelper().SetMmuBufferAndEcn("2MB", "100KB", "200KB", 0.0, true),
            "",
            "buffer settings");
        NS_TEST_ASSERT_MSG_EQ(job.Build(scenario), "", "job builds");
        job.GetFabric().AssignStreams(1);
        IdealBound bound;
        bound.Connect(job.GetRuntime());
        FabricMonitor monitor;
        for (uint32_t s = 0; s < job.GetFabric().GetNSwitches(); ++s)
        {
            monitor.AddSwitch(job.GetFabric().GetSwitch(s), job.GetFabric().GetSwitchName(s));
        }
        Simulator::Run();
        monitor.Finish();
        uint64_t pauses = monitor.GetTotalPauseFramesSent();
        uint64_t drops = monitor.GetTotalDrops();
        uint64_t resent = 0;
        for (const auto& endpoint : job.GetEndpoints())
        {
            for (const auto& qp : endpoint->GetQueuePairs())
            {
                resent += qp->GetRetransmissions();
            }
        }
        uint32_t finished = 0;
        for (const auto& app : job.GetApplications())
        {
            finished += app->IsFinished() ? 1 : 0;
        }
        uint64_t epBytes = 0;
        for (uint32_t r = 0; r < 8; ++r)
        {
            epBytes +=
                job.GetRuntime()->GetBytesSent(r, static_cast<uint32_t>(TrafficStrategy::EP), true);
        }
        Simulator::Destroy();
        Config::Reset();
        NS_TEST_ASSERT_MSG_EQ(finished, 8, "every rank finished");
        NS_TEST_EXPECT_MSG_GT(epBytes, 0, "the all-to-all crossed servers");
        NS_TEST_EXPECT_MSG_GT(pauses, 0, "the incast made the switches pause");
        ExpectIdealBound(bound, "under PFC too");
        NS_TEST_EXPECT_MSG_EQ(drops, 0, "lossless");
        NS_TEST_EXPECT_MSG_EQ(resent, 0, "nothing resent");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Two iterations of interleaved 1F1B with ZeRO-3 on a fat-tree: every rank finishes both, and
 * sends exactly twice the report's bytes per strategy (the collectives of consecutive iterations
 * meet their own instances).
 */
class TrainingInterleavedTestCase : public TrainingTestCase
{
  public:
    TrainingInterleavedTestCase()
        : TrainingTestCase(
              "Interleaved 1F1B, ZeRO-3, fat-tree: two iterations, twice the bytes of the report")
    {
    }

  private:
    void DoRun() override
    {
        Scenario scenario;
        NS_TEST_ASSERT_MSG_EQ(Load(INTERLEAVED_SCENARIO, scenario), "", "scenario loads");
        LlmTrainingHelper job;
        job.SetIterations(2);
        NS_TEST_ASSERT_MSG_EQ(job.Build(scenario), "", "job builds");
        job.GetFabric().AssignStreams(1);
        IdealBound bound;
        bound.Connect(job.GetRuntime());
        Simulator::Run();
        uint32_t finished = 0;
        for (const auto& app : job.GetApplications())
        {
            finished += app->GetIterationsDone() == 2 ? 1 : 0;
        }
        std::vector<uint64_t> sent;
        std::vector<uint64_t> expected;
        for (uint32_t r = 0; r < 8; ++r)
        {
            const TrafficTotals& totals = job.GetSchedules()[r].GetReport().GetRankTotals(r);
            for (uint32_t s = 0; s < TRAFFIC_STRATEGIES; ++s)
            {
                sent.push_back(job.GetRuntime()->GetBytesSent(r, s, false) +
                               job.GetRuntime()->GetBytesSent(r, s, true));
                expected.push_back(2 * totals.byStrategy[s].Sent());
            }
        }
        uint32_t active = job.GetRuntime()->GetActiveInstances();
        Simulator::Destroy();
        Config::Reset();
        NS_TEST_ASSERT_MSG_EQ(finished, 8, "every rank ran both iterations");
        NS_TEST_EXPECT_MSG_EQ(active, 0, "no collective left open");
        ExpectIdealBound(bound, "with 3 channels");
        for (std::size_t i = 0; i < sent.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(sent[i],
                                  expected[i],
                                  "rank " << i / TRAFFIC_STRATEGIES << " strategy "
                                          << i % TRAFFIC_STRATEGIES);
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * Scenarios that cannot run stop with the key to change: an unknown topology kind, an
 * impossible placement, an unknown algorithm, and an algorithm that cannot serve a group.
 */
class TrainingRefusalsTestCase : public TestCase
{
  public:
    TrainingRefusalsTestCase()
        : TestCase("Missing topology, impossible placement, unknown or unfit algorithm refused")
    {
    }

  private:
    void DoRun() override
    {
        std::string dense = DENSE_SCENARIO;
        Scenario scenario;
        std::string problem = Load(dense + "topology:\n  kind: torus\n", scenario);
        NS_TEST_EXPECT_MSG_NE(problem.find("test.yaml: topology.kind: unknown kind 'torus'"),
                              std::string::npos,
                              problem);
        std::string placement =
            Edited(dense, {{"tp: 2", "tp: 8"}, {"pp: 2", "pp: 1"}, {"dp: 2", "dp: 1"}});
        problem = Load(placement, scenario);
        NS_TEST_EXPECT_MSG_NE(problem.find("test.yaml: layout"), std::string::npos, problem);
        problem = Load(dense + "collectives:\n  all_reduce: telepathy\n", scenario);
        NS_TEST_EXPECT_MSG_NE(problem.find("test.yaml: collectives.all_reduce"),
                              std::string::npos,
                              problem);
        // Halving-doubling needs a power-of-two group: dp 3 (12 GPUs, 3 servers) cannot.
        std::string six = Edited(dense,
                                 {{"dp: 2", "dp: 3"},
                                  {"gpus: 8", "gpus: 12"},
                                  {"global_batch_sequences: 16", "global_batch_sequences: 12"}});
        NS_TEST_ASSERT_MSG_EQ(
            Load(six + "collectives:\n  all_reduce: halving-doubling\n", scenario),
            "",
            "loads (the scenario check plans groups of 4)");
        LlmTrainingHelper job;
        problem = job.Build(scenario);
        NS_TEST_EXPECT_MSG_NE(problem.find("collectives.all_reduce: "), std::string::npos, problem);
        NS_TEST_EXPECT_MSG_NE(problem.find("power"), std::string::npos, problem);
        Simulator::Destroy();
        Config::Reset();
    }
};

/**
 * @ingroup llm-fabric-tests
 * The training test suite.
 */
class LlmTrainingTestSuite : public TestSuite
{
  public:
    LlmTrainingTestSuite()
        : TestSuite("llm-fabric-training", Type::SYSTEM)
    {
        AddTestCase(new TrainingConservationTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TrainingMoeIncastTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TrainingInterleavedTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TrainingRefusalsTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static LlmTrainingTestSuite g_llmTrainingTestSuite;

} // namespace tests
} // namespace llmfabric
